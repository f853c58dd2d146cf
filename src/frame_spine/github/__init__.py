"""The only network edge: GitHub's REST API (SPEC 6).

:mod:`.client` fetches comments and listings with PyGithub (:class:`~.client.CommentFetcher`);
:mod:`.transport` is the wire under it (deadlines, same-origin redirects, size caps);
:mod:`.payloads` reads the answers (pure); :mod:`.retry` decides retries and gives up with a
status (pure); :mod:`.urls` splits origins (pure); :mod:`.auth` cleans and redacts the token
(pure); :mod:`.request_log` formats the debug line of each request (pure).

Note: ``github`` in an absolute import (``from github import Github``) is PyGithub; this
package is ``frame_spine.github``.
"""
