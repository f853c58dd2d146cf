"""The job summary renderer (SPEC 8), exact output."""

from __future__ import annotations

import pytest

from frame_spine.core.status import Status
from frame_spine.markdown import CommentLink, code_fence, escape_cell
from frame_spine.modes.lookup.models import LookupResult
from frame_spine.modes.lookup.render import lookup_summary
from frame_spine.modes.validate.render import validation_summary

OK = LookupResult(
    status=Status.OK,
    step_id="s1",
    generated_at="2026-05-04T14:30:00Z",
    slice="step_id: s1\nrc: a ``` b",
    spine_digest="sha256:" + "a" * 64,
    current_generated_at="2026-05-04T14:30:00Z",
)
PLAN = CommentLink(11, "https://github.com/o/r/issues/3#issuecomment-11")


def test_escape_cell() -> None:
    assert escape_cell('a|b`c<d>&"e\nf\r') == "a&#124;b&#96;c&lt;d&gt;&amp;&quot;e f "


def test_code_fence_is_longer_than_any_backtick_run() -> None:
    assert code_fence("no ticks") == "```"
    assert code_fence("``` and `````") == "``````"
    assert code_fence("`") == "```"


def test_ok_summary_exactly() -> None:
    text = lookup_summary(
        OK,
        repository="o/r",
        plan=PLAN,
        sibling=None,
        dispatched_generated_at="2026-05-04T14:30:00Z",
    )
    assert text == (
        "### ✅ frame-spine lookup: `ok` (exit code 0)\n\n"
        "| Repository | o/r |\n"
        "|:--|:--|\n"
        "| Plan comment | [11](https://github.com/o/r/issues/3#issuecomment-11) |\n"
        "| Sibling comment | — |\n"
        "| Step | s1 |\n"
        "| generated_at | 2026-05-04T14:30:00Z (dispatched and spine agree) |\n"
        f"| Spine digest | `sha256:{'a' * 64}` |\n"
        "\n<details><summary>Slice s1 (2 lines, 23 bytes)</summary>\n\n"
        "````text\nstep_id: s1\nrc: a ``` b\n````\n\n</details>\n"
    )


def test_unsafe_urls_are_not_linked() -> None:
    text = lookup_summary(
        LookupResult(status=Status.ERROR, message="x"),
        repository=None,
        plan=CommentLink(11, "javascript:alert(1)"),
        sibling=CommentLink(12, "https://example.com/a)(b"),
        dispatched_generated_at=None,
    )
    assert "| Plan comment | 11 |" in text
    assert "| Sibling comment | 12 |" in text
    assert text.startswith("### ❌ frame-spine lookup: `error` (exit code 1)\n\n> x\n\n")
    assert "| Repository | — |" in text


def test_stale_summary_shows_both_instants() -> None:
    stale = LookupResult(
        status=Status.STALE_SPINE,
        dispatched_generated_at="2026-01-01T00:00:00Z",
        current_generated_at="2026-02-01T00:00:00Z",
        message="re-dispatch",
    )
    text = lookup_summary(
        stale,
        repository="o/r",
        plan=PLAN,
        sibling=None,
        dispatched_generated_at="2026-01-01T00:00:00Z",
    )
    assert text.startswith(
        "### ⚠️ frame-spine lookup: `stale-spine` (exit code 0)\n\n> re-dispatch\n\n"
    )
    assert "| Dispatched generated_at | 2026-01-01T00:00:00Z ⚠️ not the spine's |" in text
    assert "| Spine generated_at | 2026-02-01T00:00:00Z |" in text


def test_a_slice_too_big_for_the_summary_is_cut_with_a_visible_note() -> None:
    big = LookupResult(
        status=Status.OK, step_id="s1", generated_at="2026-05-04T14:30:00Z", slice="é" * 5000
    )
    limit = 4000
    text = lookup_summary(
        big, repository="o/r", plan=PLAN, sibling=None, dispatched_generated_at=None, limit=limit
    )
    assert len(text.encode("utf-8")) <= limit
    shown = text.split("```text\n", 1)[1].split("\n```\n", 1)[0]
    assert set(shown) == {"é"}
    assert text.endswith(
        f"> [!WARNING]\n> The slice is truncated in this summary: {len(shown.encode())} of 10000 "
        "bytes are shown. The whole slice is in the `slice` output (and in `slice-file` when set).\n"
    )
    assert "</details>" in text


def test_the_real_limit_is_under_one_mebibyte() -> None:
    huge = LookupResult(
        status=Status.OK, step_id="s1", generated_at="2026-05-04T14:30:00Z", slice="x" * 2_000_000
    )
    text = lookup_summary(
        huge, repository="o/r", plan=PLAN, sibling=None, dispatched_generated_at=None
    )
    assert 990_000 < len(text.encode("utf-8")) <= 1_000_000 < 1024 * 1024


def test_markdown_links_and_images_from_comments_are_inert() -> None:
    assert escape_cell("[click](https://evil.example) ![t](x.png) *a* _b_ ~c~ \\") == (
        "\\[click\\]\\(https<!-- -->://evil.example\\) \\!\\[t\\]\\(x.png\\) \\*a\\* \\_b\\_ "
        "\\~c\\~ \\\\"
    )


# SPEC 8: bare URLs and @mentions from comments render inert. GitHub links bare URLs with the
# autolink extension of its parser (cmarkgfm here) and turns @name into a mention after
# rendering; an empty HTML comment splits both.
LINK_MAKERS = [
    ("ping @octocat now", "ping @<!-- -->octocat now"),
    ("team @org/team", "team @<!-- -->org/team"),
    ("mail a@b.example", "mail a@<!-- -->b.example"),
    ("see https://evil.example/x?y=1", "see https<!-- -->://evil.example/x?y=1"),
    ("see HTTP://evil.example", "see HTTP<!-- -->://evil.example"),
    ("ftp://files.example", "ftp<!-- -->://files.example"),
    ("see www.evil.example", "see www<!-- -->.evil.example"),
    ("see WWW.evil.example", "see WWW<!-- -->.evil.example"),
    ("swww.not-a-link and 10:30 // and a:b", "swww.not-a-link and 10:30 // and a:b"),
]


@pytest.mark.parametrize(("text", "escaped"), LINK_MAKERS)
def test_bare_urls_and_mentions_from_comments_are_split(text: str, escaped: str) -> None:
    assert escape_cell(text) == escaped


@pytest.mark.parametrize(("text", "escaped"), LINK_MAKERS)
def test_github_renders_them_as_the_text_without_links(text: str, escaped: str) -> None:
    import html

    import cmarkgfm
    from cmarkgfm.cmark import Options

    table = f"| a |\n|---|\n| {escape_cell(text)} |\n"
    rendered = cmarkgfm.github_flavored_markdown_to_html(table, options=Options.CMARK_OPT_UNSAFE)
    assert "<a " not in rendered
    cell = rendered.split("<td>", 1)[1].split("</td>", 1)[0]
    assert html.unescape(cell.replace("<!-- -->", "")) == text


def test_the_dispatched_step_is_shown_when_the_result_does_not_name_it() -> None:
    stale = LookupResult(
        status=Status.STALE_SPINE,
        dispatched_generated_at="2026-01-01T00:00:00Z",
        current_generated_at="2026-02-01T00:00:00Z",
        message="m",
    )
    text = lookup_summary(
        stale, repository="o/r", plan=PLAN, sibling=None, dispatched_generated_at=None, step_id="s4"
    )
    assert "| Step | s4 |" in text


def test_a_findings_table_too_big_is_cut_with_a_note() -> None:
    from frame_spine.validation.models import Finding, Severity, ValidationResult

    findings = tuple(
        Finding(
            severity=Severity.ERROR,
            code="unresolved-step",
            message="x" * 100,
            comment="plan",
            line=n,
            step=f"s{n}",
        )
        for n in range(1, 200)
    )
    result = ValidationResult(status="invalid", errors=199, findings=findings)
    text = validation_summary(result, repository="o/r", plan=PLAN, sibling=None, limit=5000)
    shown = text.count("| ❌ | **unresolved-step**: ")
    assert 0 < shown < 199
    assert len(text.encode("utf-8")) <= 5000
    assert text.endswith(
        f"> [!WARNING]\n> {199 - shown} more findings not shown here; the `result` output has all.\n"
    )


def test_text_that_cannot_be_encoded_is_measured_and_cut_without_error() -> None:
    # A lone surrogate (which the write turns into U+FFFD, 3 bytes) must not break sizing.
    broken = LookupResult(
        status=Status.OK, step_id="s1", generated_at="2026-05-04T14:30:00Z", slice="\ud800" * 2000
    )
    text = lookup_summary(
        broken,
        repository="o/r",
        plan=PLAN,
        sibling=None,
        dispatched_generated_at=None,
        whole_slice="in out/s1.md only",
        limit=4000,
    )
    assert len(text.encode("utf-8", "surrogatepass")) <= 4000
    shown = text.split("```text\n", 1)[1].split("\n```\n", 1)[0]
    assert set(shown) == {"\ud800"}
    assert text.endswith(
        f"> The slice is truncated in this summary: {len(shown) * 3} of 6000 bytes are shown. "
        "The whole slice is in out/s1.md only.\n"
    )


@pytest.mark.parametrize(
    ("rows", "note"),
    [(2, "1 more finding not shown here."), (3, "2 more findings not shown here.")],
)
def test_the_left_out_count_of_a_table_agrees_with_its_noun(rows: int, note: str) -> None:
    from frame_spine.markdown import table_within

    text = table_within(
        "head\n", ["x" * 40 + "\n"] * rows, rows, "{left} not shown here.", 120, noun="more finding"
    )
    assert text == "head\n" + "x" * 40 + "\n" + f"\n> [!WARNING]\n> {note}\n"


def test_a_finding_that_quotes_a_mention_and_a_url_is_inert_in_the_summary() -> None:
    from frame_spine.core.plan import scan_bodies
    from frame_spine.validation.rules import validate_scanned

    plan = "<!-- plan-issue-7 -->\n---\nplan-variant: @octocat see www.evil.example\n---\n"
    result = validate_scanned(scan_bodies(plan, None), issue_number=7)
    text = validation_summary(result, repository="o/r", plan=PLAN, sibling=None)
    assert "plan-variant '@<!-- -->octocat see www<!-- -->.evil.example'" in text
    assert "@octocat" not in text and "www.evil" not in text
