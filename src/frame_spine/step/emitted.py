"""The last filter on every text the action emits (SPEC 6 "The wire, exactly", SPEC 8).

Pure. Two rules, applied where text leaves the program (step outputs, the job summary,
stdout lines, files in the workspace), never sprinkled through the code that builds it:

1. The token is redacted: every known token value (the raw ``token`` input and the token
   variables of the environment) and its escaped forms become ``***``
   (:class:`frame_spine.github.auth.Redactor`), whatever produced the text.
2. The text is valid UTF-8: a character UTF-8 cannot encode (a lone surrogate such as the
   JSON escape ``\\ud800`` decodes to) becomes U+FFFD.
"""

from __future__ import annotations

from collections.abc import Mapping

from ..core.utf8 import valid_utf8
from ..github.auth import TOKEN_VARIABLES as GH_TOKEN_VARIABLES
from ..github.auth import Redactor

#: The environment variables that may hold a token in the action's container: the ``token``
#: input as the runner passes it, and the variables the ``gh`` program reads (SPEC 9).
TOKEN_VARIABLES = ("INPUT_TOKEN", *GH_TOKEN_VARIABLES)


class EmittedText:
    """The one filter every emitted text passes: token redaction, then valid UTF-8.

    Args:
        redactor: the :class:`~frame_spine.github.auth.Redactor` of this run's token values.

    Calling it on a text returns the text as it may be emitted. Never raises.
    """

    __slots__ = ("_redact",)

    def __init__(self, redactor: Redactor) -> None:
        self._redact = redactor

    @classmethod
    def for_environment(cls, environ: Mapping[str, str]) -> EmittedText:
        """The filter for a run of the action: it redacts the raw (untrimmed) value of each
        variable of :data:`TOKEN_VARIABLES` that is set."""
        return cls(Redactor(*(environ.get(name) for name in TOKEN_VARIABLES)))

    def __call__(self, text: str) -> str:
        return valid_utf8(self._redact(text))

    def encode(self, text: str) -> bytes:
        """The filtered text as UTF-8 bytes (for files)."""
        return self(text).encode("utf-8")
