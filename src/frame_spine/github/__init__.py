"""The only network edge: GitHub's REST API (SPEC 6).

:mod:`.client` fetches comments and listings (:class:`~.client.CommentFetcher`) on
:mod:`.session` (headers, with PyGithub's public ``Auth`` for the token; retries);
:mod:`.transport` is the wire under it (a requests session of our own: deadlines,
same-origin redirects, size caps); :mod:`.deadline` is the one module that touches urllib3
names outside its public API (the per-attempt deadline; it says why);
:mod:`.payloads` reads the answers (pure); :mod:`.retry` decides retries and gives up with a
status (pure); :mod:`.urls` splits origins (pure); :mod:`.auth` cleans and redacts the token
(pure); :mod:`.request_log` formats the debug line of each request (pure); :mod:`.defaults`
holds the timeout and max-wait defaults.

Note: ``github`` in an absolute import (``from github import Github``) is PyGithub; this
package is ``frame_spine.github``.
"""
