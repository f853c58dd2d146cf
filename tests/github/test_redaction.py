"""The one redaction rule (SPEC 6 "The wire, exactly", revision 3): every emitted text passes
:class:`~frame_spine.github.auth.Redactor`, which replaces a token's value and its escaped
forms by ``***``, and never replaces a text shorter than 8 characters: a value that short is
not a token GitHub issues (it is still sent as given), and redacting it would corrupt the
output (``s`` out of every ``status``)."""

from __future__ import annotations

import pytest

from frame_spine.github.auth import MIN_REDACTED_LENGTH, Redactor, redacted_forms
from frame_spine.step.emitted import EmittedText

TEXT = '{"status":"ok","step_id":"s2","slice":"step_id: s2\\nnote: abcdefg abcdefgh"}'


@pytest.mark.parametrize("value", ["s", "ok", "abcdefg", " \tabcdefg \n", "a\nb", "\n" * 9])
def test_a_value_shorter_than_8_characters_once_trimmed_is_never_redacted(value: str) -> None:
    assert redacted_forms(value) == set()
    assert Redactor(value)(TEXT) == TEXT
    assert EmittedText(Redactor(value))(TEXT) == TEXT


def test_8_characters_are_a_token() -> None:
    assert MIN_REDACTED_LENGTH == 8
    assert Redactor("abcdefgh")(TEXT) == TEXT.replace("abcdefgh", "***")
    assert Redactor("  abcdefgh\n")(TEXT) == TEXT.replace("abcdefgh", "***")


def test_a_short_value_beside_a_token_leaves_the_token_redacted() -> None:
    redact = Redactor("s", "abcdefgh", None, "")
    assert redact(TEXT) == TEXT.replace("abcdefgh", "***")


def test_the_lines_of_a_multi_line_token_are_redacted_only_from_8_characters() -> None:
    token = "abcdefgh\nxyz1234\n0123456789"
    text = "abcdefgh xyz1234 0123456789 abcdefgh\\nxyz1234\\n0123456789"
    assert Redactor(token)(text) == "*** xyz1234 *** ***"
    assert redacted_forms(token) >= {"abcdefgh", "0123456789", token}
    assert all(len(form) >= 8 for form in redacted_forms(token))
