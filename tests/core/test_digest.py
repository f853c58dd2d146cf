"""SPEC 7: the spine digest and the dispatched digest's normalisation."""

from __future__ import annotations

import hashlib
from pathlib import Path

import pytest

from frame_spine.core.blocks import scan_comment
from frame_spine.core.digest import normalise_digest, spine_digest

CASES = Path(__file__).resolve().parents[1] / "conformance" / "cases"

CORPUS_DIGEST = "sha256:4a7555cc61a445f2074e43361fde049b75f44737b170ac4c6d6a500c4ee0df2e"

# The spine of tests/conformance/cases/ok-digest-elides-timestamp/plan.md.
CORPUS_SPINE = (
    "spine_schema_version: 2\n"
    "generated_at: 2026-06-01T09:00:00Z\n"
    "coverage: complete\n"
    "ports:\n"
    "  implement-code: [s2]\n"
    "slices:\n"
    "  s2:\n"
    "    execution_mode: serial\n"
    "    rc: GREEN code action\n"
    "    ac_refs: [AC1, AC2]\n"
    "    depends_on: []\n"
    "    cycle: 1"
)

# A small spine written with every kind of transport noise the digest must ignore.
NOISY_SPINE = (
    "spine_schema_version: 2  \r\n"
    "generated_at: 2026-07-18T22:20:00Z\r\n"
    "ports:\t\r\n"
    "  review: [s1]\r\n"
    "slices:\r\n"
    "  s1:\r\n"
    "    ac_refs: [] \t \r\n"
    "    depends_on: []\r\n"
    "    cycle: 0\r\n"
    "\r\n"
    "  \r\n"
)
# Its canonical text, by the rules of SPEC 7:
#   "spine_schema_version: 2\nports:\n  review: [s1]\nslices:\n  s1:\n"
#   "    ac_refs: []\n    depends_on: []\n    cycle: 0\n"
NOISY_DIGEST = "sha256:11f35315d0fb02bbd497366feec528037e1573b24d29586ac4cc7ab06e3d21b9"

EMPTY_TEXT_DIGEST = "sha256:01ba4719c80b6fe911b091a7c05124b64eeece964e09c058ef8f9805daca546b"


def sha(text: str) -> str:
    return "sha256:" + hashlib.sha256(text.encode("utf-8")).hexdigest()


def test_corpus_spine_digest_literal() -> None:
    assert spine_digest(CORPUS_SPINE) == CORPUS_DIGEST


def test_corpus_spine_digest_from_plan_file() -> None:
    plan = (CASES / "ok-digest-elides-timestamp" / "plan.md").read_bytes().decode("utf-8")
    spines = scan_comment(plan).blocks_named("frame-spine")
    assert [block.payload for block in spines] == [CORPUS_SPINE]
    assert spine_digest(spines[0].payload) == CORPUS_DIGEST


def test_corpus_digest_equals_hash_of_hand_derived_canonical_text() -> None:
    canonical = (
        "spine_schema_version: 2\n"
        "coverage: complete\n"
        "ports:\n"
        "  implement-code: [s2]\n"
        "slices:\n"
        "  s2:\n"
        "    execution_mode: serial\n"
        "    rc: GREEN code action\n"
        "    ac_refs: [AC1, AC2]\n"
        "    depends_on: []\n"
        "    cycle: 1\n"
    )
    assert sha(canonical) == CORPUS_DIGEST


def test_noisy_spine_digest_literal() -> None:
    assert spine_digest(NOISY_SPINE) == NOISY_DIGEST


def test_digest_format() -> None:
    digest = spine_digest(CORPUS_SPINE)
    assert digest.startswith("sha256:")
    assert len(digest) == len("sha256:") + 64
    assert digest == digest.lower()


@pytest.mark.parametrize(
    "line",
    [
        "generated_at: 2026-06-01T09:00:00Z",
        "GENERATED_AT: 2026-06-01T09:00:00Z",
        "Generated_At: x",
        "generated_at : 2026-06-01T09:00:00Z",
        "generated_at\t: 2026-06-01T09:00:00Z",
        "generated_at \t  :x",
        "generated_at:",
        "generated_at:   ",
        "generated_at: not a timestamp at all",
    ],
)
def test_generated_at_lines_are_removed(line: str) -> None:
    payload = f"spine_schema_version: 2\n{line}\ncoverage: complete"
    assert spine_digest(payload) == sha("spine_schema_version: 2\ncoverage: complete\n")


def test_every_generated_at_line_is_removed() -> None:
    payload = "generated_at: a\nx: 1\ngenerated_at: b\ny: 2\nGENERATED_AT : c"
    assert spine_digest(payload) == sha("x: 1\ny: 2\n")


@pytest.mark.parametrize(
    "line",
    [
        "  generated_at: 2026-06-01T09:00:00Z",
        "\tgenerated_at: 2026-06-01T09:00:00Z",
        "    generated_at: x",
        "generated_at 2026-06-01T09:00:00Z",
        "generated_atx: 1",
        "generated_at_local: 1",
        "x_generated_at: 1",
        "# generated_at: 1",
    ],
)
def test_other_lines_mentioning_generated_at_are_kept(line: str) -> None:
    payload = f"a: 1\n{line}\nb: 2"
    assert spine_digest(payload) == sha(f"a: 1\n{line}\nb: 2\n")


def test_trailing_spaces_and_tabs_stripped_on_every_line() -> None:
    assert spine_digest("a: 1  \n  b: 2\t\n\tc: 3 \t ") == sha("a: 1\n  b: 2\n\tc: 3\n")
    assert spine_digest("a: 1  \nb: 2\t") == spine_digest("a: 1\nb: 2")


def test_leading_whitespace_is_kept() -> None:
    assert spine_digest("  a: 1") == sha("  a: 1\n")
    assert spine_digest("  a: 1") != spine_digest("a: 1")


def test_other_trailing_whitespace_is_kept() -> None:
    # Only spaces and tabs are stripped.
    assert spine_digest("a: 1\u00a0") == sha("a: 1\u00a0\n")
    assert spine_digest("a: 1\u00a0") != spine_digest("a: 1")


def test_trailing_empty_lines_dropped() -> None:
    expected = sha("a: 1\nb: 2\n")
    assert spine_digest("a: 1\nb: 2") == expected
    assert spine_digest("a: 1\nb: 2\n") == expected
    assert spine_digest("a: 1\nb: 2\n\n\n") == expected
    assert spine_digest("a: 1\nb: 2\n  \n\t\n") == expected


def test_trailing_generated_at_line_then_blank_lines_dropped() -> None:
    assert spine_digest("a: 1\n\ngenerated_at: x\n\n") == sha("a: 1\n")


def test_leading_and_interior_empty_lines_kept() -> None:
    assert spine_digest("\na: 1") == sha("\na: 1\n")
    assert spine_digest("a: 1\n\nb: 2") == sha("a: 1\n\nb: 2\n")
    assert spine_digest("a: 1\n  \nb: 2") == sha("a: 1\n\nb: 2\n")
    assert spine_digest("a: 1\n\nb: 2") != spine_digest("a: 1\nb: 2")


def test_empty_payload_is_one_newline() -> None:
    assert spine_digest("") == EMPTY_TEXT_DIGEST
    assert spine_digest("\n\n  \n") == EMPTY_TEXT_DIGEST
    assert spine_digest("generated_at: 2026-06-01T09:00:00Z") == EMPTY_TEXT_DIGEST


def test_utf8_bytes_are_hashed() -> None:
    assert spine_digest("rc: café") == (
        "sha256:78a06006ca8587122d9b2123ec1ec5dcf5767103608db64de803cf3e7094583c"
    )


@pytest.mark.parametrize("newline", ["\r\n", "\r"])
def test_crlf_and_cr_give_the_same_digest(newline: str) -> None:
    assert spine_digest(CORPUS_SPINE.replace("\n", newline)) == CORPUS_DIGEST
    assert spine_digest(CORPUS_SPINE.replace("\n", newline) + newline) == CORPUS_DIGEST


def test_spines_differing_only_in_generated_at_have_equal_digests() -> None:
    other = CORPUS_SPINE.replace("2026-06-01T09:00:00Z", "2026-05-04T14:30:00.000Z")
    assert other != CORPUS_SPINE
    assert spine_digest(other) == spine_digest(CORPUS_SPINE) == CORPUS_DIGEST
    moved = CORPUS_SPINE.replace("generated_at: 2026-06-01T09:00:00Z\n", "") + (
        "\nGenerated_At : 2030-01-01T00:00:00Z"
    )
    assert spine_digest(moved) == CORPUS_DIGEST


@pytest.mark.parametrize(
    ("old", "new"),
    [
        ("cycle: 1", "cycle: 2"),
        ("[AC1, AC2]", "[AC1,AC2]"),
        ("coverage: complete", "coverage: exploratory - spike"),
        ("  implement-code: [s2]", "  implement-code: [s2#terminal]"),
        ("    rc: GREEN code action", "     rc: GREEN code action"),
        ("ports:\n", "ports:\n\n"),
        ("spine_schema_version: 2", "SPINE_SCHEMA_VERSION: 2"),
    ],
)
def test_spines_differing_elsewhere_have_different_digests(old: str, new: str) -> None:
    assert old in CORPUS_SPINE
    changed = CORPUS_SPINE.replace(old, new)
    assert spine_digest(changed) != CORPUS_DIGEST


# --- normalise_digest ----------------------------------------------------------------------

HEX = "4a7555cc61a445f2074e43361fde049b75f44737b170ac4c6d6a500c4ee0df2e"


@pytest.mark.parametrize(
    ("value", "expected"),
    [
        (f"sha256:{HEX}", f"sha256:{HEX}"),
        (HEX, f"sha256:{HEX}"),
        (HEX.upper(), f"sha256:{HEX}"),
        (f"sha256:{HEX.upper()}", f"sha256:{HEX}"),
        ("0" * 64, "sha256:" + "0" * 64),
        ("F" * 64, "sha256:" + "f" * 64),
    ],
)
def test_normalise_digest_valid(value: str, expected: str) -> None:
    assert normalise_digest(value) == expected


@pytest.mark.parametrize(
    "value",
    [
        "",
        "sha256:",
        HEX[:-1],
        HEX + "0",
        f"sha256:{HEX[:-1]}",
        f"sha256:{HEX}0",
        "g" * 64,
        HEX[:-1] + "z",
        f"sha1:{HEX}",
        f"sha256:sha256:{HEX}",
        f"sha256: {HEX}",
        f"sha256{HEX}",
        f":{HEX}",
        f"{HEX}\n",
        "not a digest",
        "\uff10" * 64,
    ],
)
def test_normalise_digest_malformed(value: str) -> None:
    assert normalise_digest(value) is None


def test_normalise_digest_upper_case_prefix_is_malformed() -> None:
    # SPEC 7 names the prefix `sha256:`; the code accepts it only in lower case.
    assert normalise_digest(f"SHA256:{HEX}") is None


def test_normalise_digest_matches_spine_digest() -> None:
    assert normalise_digest(HEX.upper()) == spine_digest(CORPUS_SPINE)


def test_a_lone_surrogate_digests_as_the_replacement_character() -> None:
    # The wire turns "\ud800" into U+FFFD (SPEC 6); a library caller may still pass one.
    spine = "spine_schema_version: 2\ngenerated_at: 2026-05-04T14:30:00Z\nrc: a\ud800b"
    assert spine_digest(spine) == spine_digest(spine.replace("\ud800", "\ufffd"))
    assert spine_digest(spine) == (
        "sha256:" + hashlib.sha256("spine_schema_version: 2\nrc: a\ufffdb\n".encode()).hexdigest()
    )
