"""Contract timestamps (SPEC 3 `generated_at`, SPEC 5 "timestamps compare as instants")."""

from __future__ import annotations

import pytest

from frame_spine.core.timestamps import is_timestamp, parse_instant

# Seconds from 0001-01-01T00:00:00Z to 1970-01-01T00:00:00Z (the Unix epoch).
UNIX_EPOCH = 62_135_596_800


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("0001-01-01T00:00:00Z", (0, 0)),
        ("0001-01-01T00:00:01Z", (1, 0)),
        ("0001-01-02T00:00:00Z", (86_400, 0)),
        ("1970-01-01T00:00:00Z", (UNIX_EPOCH, 0)),
        ("1970-01-01T00:00:00.5Z", (UNIX_EPOCH, 500_000_000)),
        ("1970-01-01T00:00:00.123456789Z", (UNIX_EPOCH, 123_456_789)),
        ("1970-01-01T00:00:00.000000001Z", (UNIX_EPOCH, 1)),
        ("1970-01-01T00:00:00.05Z", (UNIX_EPOCH, 50_000_000)),
        ("1970-01-01T00:00:00.0Z", (UNIX_EPOCH, 0)),
        ("2026-05-04T14:30:00Z", (UNIX_EPOCH + 1_777_905_000, 0)),
        ("2026-05-04T14:30:00Z", (63_913_501_800, 0)),
        ("2028-02-29T00:00:00Z", (63_970_992_000, 0)),
        ("2000-02-29T00:00:00Z", (63_087_379_200, 0)),
        ("9999-12-31T23:59:59.999999999Z", (315_537_897_599, 999_999_999)),
    ],
)
def test_valid_instants(text: str, expected: tuple[int, int]) -> None:
    assert parse_instant(text) == expected
    assert is_timestamp(text) is True


@pytest.mark.parametrize(
    "fraction",
    ["", ".0", ".00", ".000", ".000000", ".000000000"],
)
def test_zero_fractions_are_the_same_instant(fraction: str) -> None:
    assert parse_instant(f"2026-05-04T14:30:00{fraction}Z") == parse_instant("2026-05-04T14:30:00Z")
    assert parse_instant(f"2026-05-04T14:30:00{fraction}Z") == (63_913_501_800, 0)


def test_equal_fractions_with_different_digit_counts() -> None:
    assert parse_instant("2026-05-04T14:30:00.5Z") == parse_instant("2026-05-04T14:30:00.500Z")
    assert parse_instant("2026-05-04T14:30:00.5Z") == parse_instant(
        "2026-05-04T14:30:00.500000000Z"
    )


@pytest.mark.parametrize(
    ("earlier", "later"),
    [
        ("2026-05-04T14:30:00Z", "2026-05-04T14:30:00.000000001Z"),
        ("2026-05-04T14:30:00.999999999Z", "2026-05-04T14:30:01Z"),
        ("2026-05-04T14:30:00.9Z", "2026-05-04T14:30:00.95Z"),
        ("2026-05-04T14:30:59Z", "2026-05-04T14:31:00Z"),
        ("2026-05-04T23:59:59Z", "2026-05-05T00:00:00Z"),
        ("2026-12-31T23:59:59.5Z", "2027-01-01T00:00:00Z"),
        ("2026-02-28T12:00:00Z", "2026-03-01T00:00:00Z"),
        ("0999-01-01T00:00:00Z", "1000-01-01T00:00:00Z"),
    ],
)
def test_ordering(earlier: str, later: str) -> None:
    first = parse_instant(earlier)
    second = parse_instant(later)
    assert first is not None
    assert second is not None
    assert first < second
    assert first != second


def test_leap_days() -> None:
    assert parse_instant("2028-02-29T12:00:00Z") == (63_970_992_000 + 43_200, 0)
    assert parse_instant("2000-02-29T00:00:00Z") == (63_087_379_200, 0)
    assert parse_instant("2026-02-29T00:00:00Z") is None
    assert parse_instant("1900-02-29T00:00:00Z") is None
    assert parse_instant("2100-02-29T00:00:00Z") is None


@pytest.mark.parametrize(
    "text",
    [
        "",
        "2026-05-04T14:30:00.1234567890Z",
        "2026-05-04T14:30:00.Z",
        "2026-05-04T14:30:00,5Z",
        "2026-05-04t14:30:00Z",
        "2026-05-04T14:30:00z",
        "2026-05-04t14:30:00z",
        "2026-05-04T14:30:00",
        "2026-05-04T14:30:00.5",
        "2026-05-04 14:30:00Z",
        "2026-05-04",
        "2026-05-04T14:30Z",
        "2026-02-30T00:00:00Z",
        "2026-02-29T00:00:00Z",
        "2026-04-31T00:00:00Z",
        "2026-13-01T00:00:00Z",
        "2026-00-01T00:00:00Z",
        "2026-01-00T00:00:00Z",
        "0000-01-01T00:00:00Z",
        "2026-05-04T24:00:00Z",
        "2026-05-04T23:60:00Z",
        "2026-05-04T23:59:60Z",
        "2026-12-31T23:59:60Z",
        "2026-05-04T14:30:00+00:00",
        "2026-05-04T14:30:00Z+00:00",
        "2026-05-04T14:30:00+0000",
        "2026-05-04T14:30:00-05:00",
        "2026-05-04T14:30:00.5+00:00",
        " 2026-05-04T14:30:00Z",
        "2026-05-04T14:30:00Z ",
        "2026-05-04T14:30:00Z\n",
        "\t2026-05-04T14:30:00Z",
        "26-05-04T14:30:00Z",
        "+2026-05-04T14:30:00Z",
        "12026-05-04T14:30:00Z",
        "2026-5-4T14:30:00Z",
        "2026-05-04T4:30:00Z",
        "\uff12\uff10\uff12\uff16-05-04T14:30:00Z",
        "2026-05-04T14:30:00ZZ",
        "current",
    ],
)
def test_invalid_timestamps(text: str) -> None:
    assert parse_instant(text) is None
    assert is_timestamp(text) is False
