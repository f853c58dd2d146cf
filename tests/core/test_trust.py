"""The trust policy (SPEC 6.1), pure: parsing ``trusted-authors``, judging an author, the
words of a refusal. Exact values."""

from __future__ import annotations

import pytest

from frame_spine.core.trust import (
    ASSOCIATIONS,
    DEFAULT_POLICY,
    Author,
    Permission,
    TrustPolicy,
    Verdict,
    author_words,
    judge,
    parse_policy,
    untrusted_message,
)

DEFAULT = "OWNER,MEMBER,COLLABORATOR,write"


# ---- parsing -----------------------------------------------------------------------------------


@pytest.mark.parametrize("given", [None, "", "   ", "\n"])
def test_nothing_given_is_the_default(given: str | None) -> None:
    assert parse_policy(given) == DEFAULT_POLICY == parse_policy(DEFAULT)
    assert (
        TrustPolicy(
            frozenset({"OWNER", "MEMBER", "COLLABORATOR"}), frozenset(), True, False, DEFAULT
        )
        == DEFAULT_POLICY
    )


@pytest.mark.parametrize("association", ASSOCIATIONS)
def test_every_association_is_a_term_in_any_case(association: str) -> None:
    for spelled in (association, association.lower(), association.title()):
        assert parse_policy(spelled) == TrustPolicy(
            frozenset({association}), frozenset(), False, False, association
        )


def test_terms_are_separated_by_commas_or_whitespace_and_shown_once_in_order() -> None:
    policy = parse_policy(" member,\towner  @My-Planner[bot]\n,WRITE, Member @my-planner[BOT]")
    assert policy == TrustPolicy(
        frozenset({"MEMBER", "OWNER"}),
        frozenset({"my-planner[bot]"}),
        True,
        False,
        "MEMBER,OWNER,@My-Planner[bot],write",
    )


@pytest.mark.parametrize(
    ("given", "login"),
    [("@ghost", "ghost"), ("@a", "a"), ("@emu_user_acme", "emu_user_acme"), ("@x.y-z", "x.y-z")],
)
def test_login_terms(given: str, login: str) -> None:
    assert parse_policy(given).logins == frozenset({login})


@pytest.mark.parametrize("given", ["any", "ANY", " any ", "any,any"])
def test_any_alone_trusts_everyone(given: str) -> None:
    assert parse_policy(given) == TrustPolicy(frozenset(), frozenset(), False, True, "any")


TERMS = "(an author association such as OWNER, MEMBER or COLLABORATOR, @login, write, or any alone)"


@pytest.mark.parametrize(
    ("given", "message"),
    [
        ("maintainers", f"trusted-authors: 'maintainers' is not a term {TERMS}"),
        ("OWNER,admin", f"trusted-authors: 'admin' is not a term {TERMS}"),
        ("OWNER, @", f"trusted-authors: '@' is not a term {TERMS}"),
        ("@-x", f"trusted-authors: '@-x' is not a term {TERMS}"),
        ("@a/b", f"trusted-authors: '@a/b' is not a term {TERMS}"),
        ("owner;member", f"trusted-authors: 'owner;member' is not a term {TERMS}"),
        ("x" * 50, f"trusted-authors: '{'x' * 50}' is not a term {TERMS}"),
        ("x" * 130, f"trusted-authors: '{'x' * 117}...' is not a term {TERMS}"),
        (
            ",",
            "trusted-authors ',' is an empty list: name at least one term (the default is "
            "OWNER,MEMBER,COLLABORATOR,write)",
        ),
        (
            " , ,\t",
            "trusted-authors ', ,' is an empty list: name at least one term (the default is "
            "OWNER,MEMBER,COLLABORATOR,write)",
        ),
        (
            "any,OWNER",
            "trusted-authors: any trusts every author and cannot stand beside other terms "
            "(any,OWNER)",
        ),
        (
            "@bot any",
            "trusted-authors: any trusts every author and cannot stand beside other terms "
            "(@bot,any)",
        ),
    ],
)
def test_malformed_policies_name_the_input(given: str, message: str) -> None:
    with pytest.raises(ValueError) as raised:
        parse_policy(given)
    assert str(raised.value) == message


# ---- judging -----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("association", "verdict"),
    [
        ("OWNER", Verdict.TRUSTED),
        ("MEMBER", Verdict.TRUSTED),
        ("COLLABORATOR", Verdict.TRUSTED),
        ("CONTRIBUTOR", Verdict.ASK),
        ("FIRST_TIME_CONTRIBUTOR", Verdict.ASK),
        ("FIRST_TIMER", Verdict.ASK),
        ("MANNEQUIN", Verdict.ASK),
        ("NONE", Verdict.ASK),
        ("owner", Verdict.TRUSTED),  # as GitHub never spells it, still compared ignoring case
        ("SOMETHING_NEW", Verdict.ASK),
        (None, Verdict.ASK),  # not reported: judged on the other terms
    ],
)
def test_the_default_policy_by_association(association: str | None, verdict: Verdict) -> None:
    assert judge(DEFAULT_POLICY, Author("someone", association)) is verdict


@pytest.mark.parametrize("association", ASSOCIATIONS)
def test_associations_alone_never_ask(association: str) -> None:
    policy = parse_policy("OWNER,MEMBER,COLLABORATOR")
    expected = Verdict.TRUSTED if association in policy.associations else Verdict.UNTRUSTED
    assert judge(policy, Author("someone", association)) is expected


def test_the_list_is_the_whole_policy() -> None:
    assert judge(parse_policy("MEMBER"), Author("boss", "OWNER")) is Verdict.UNTRUSTED
    assert judge(parse_policy("MEMBER"), Author("boss", None)) is Verdict.UNTRUSTED


def test_a_login_term_trusts_that_login_in_any_case() -> None:
    policy = parse_policy("OWNER,@Planner-App[bot]")
    assert judge(policy, Author("planner-app[BOT]", "NONE")) is Verdict.TRUSTED
    assert judge(policy, Author("planner-app", "NONE")) is Verdict.UNTRUSTED
    assert judge(policy, Author("other-app[bot]", "NONE")) is Verdict.UNTRUSTED


def test_a_deleted_account_is_trusted_only_by_ghost_or_any() -> None:
    deleted = Author(None, "NONE")
    assert judge(DEFAULT_POLICY, deleted) is Verdict.UNTRUSTED  # no account to ask about
    assert judge(parse_policy("NONE,@ghost"), Author(None, None)) is Verdict.TRUSTED
    assert judge(parse_policy("@ghost"), deleted) is Verdict.TRUSTED
    assert judge(parse_policy("any"), deleted) is Verdict.TRUSTED
    assert judge(parse_policy("write"), Author("ghost", "NONE")) is Verdict.UNTRUSTED
    # Whatever association the API reports (revision 4).
    assert judge(parse_policy("NONE"), deleted) is Verdict.UNTRUSTED
    assert judge(parse_policy("OWNER"), Author(None, "OWNER")) is Verdict.UNTRUSTED
    assert judge(parse_policy("OWNER,write"), Author("ghost", "OWNER")) is Verdict.UNTRUSTED


@pytest.mark.parametrize(
    "login",
    [
        "\u212aevin",  # KELVIN SIGN: Unicode lower-casing makes it "kevin"
        "k\u0435vin",  # CYRILLIC SMALL LETTER IE
        "kevin\u200b",  # a zero-width space
        "kévin",
        "kevin ",
        "kevin[bot]x",
    ],
)
def test_a_login_github_never_issues_matches_no_term(login: str) -> None:
    for policy in ("@kevin", "@kevin,OWNER,write", "OWNER,MEMBER,COLLABORATOR,write"):
        assert judge(parse_policy(policy), Author(login, "OWNER")) is Verdict.UNTRUSTED
    assert judge(parse_policy("any"), Author(login, "OWNER")) is Verdict.TRUSTED


def test_logins_compare_ascii_case_insensitively() -> None:
    assert judge(parse_policy("@KEVIN"), Author("kevin", "NONE")) is Verdict.TRUSTED
    assert judge(parse_policy("@emu_User.acme"), Author("EMU_user.ACME", None)) is Verdict.TRUSTED


@pytest.mark.parametrize("login", ["planner-app[bot]", "github-actions[bot]", "Renovate[BOT]"])
def test_a_bot_is_never_asked(login: str) -> None:
    assert judge(DEFAULT_POLICY, Author(login, "NONE")) is Verdict.UNTRUSTED
    assert judge(parse_policy("write"), Author(login, "CONTRIBUTOR")) is Verdict.UNTRUSTED
    assert judge(parse_policy(f"write,@{login}"), Author(login, "NONE")) is Verdict.TRUSTED


def test_any_trusts_every_author() -> None:
    policy = parse_policy("any")
    for author in (Author("x", "NONE"), Author(None, None), Author("y", "FIRST_TIMER")):
        assert judge(policy, author) is Verdict.TRUSTED


@pytest.mark.parametrize(
    ("permission", "grants"),
    [
        (Permission("admin", "admin"), True),
        (Permission("write", "maintain"), True),
        (Permission("write", "write"), True),
        (Permission("write", "release-manager"), True),  # a custom role based on write
        (Permission("WRITE", None), True),
        (Permission("read", "maintain"), False),  # role_name is only quoted (revision 4)
        (Permission("read", "Write"), False),  # a custom role named like a built-in one
        (Permission("none", "admin"), False),
        (Permission("maintain", "maintain"), False),  # GitHub reports maintain as write
        (Permission("read", "triage"), False),
        (Permission("read", "read"), False),
        (Permission("none", ""), False),
        (Permission(None, None), False),
        (Permission("wr\u0131te", None), False),  # dotless i
        (Permission(refused=403), False),
        (Permission(refused=404), False),
    ],
)
def test_the_permission_field_decides_write(permission: Permission, grants: bool) -> None:
    assert permission.grants_write is grants


# ---- words -------------------------------------------------------------------------------------


def test_the_message_names_comment_login_association_and_policy() -> None:
    assert untrusted_message(5009, Author("drive-by", "NONE"), DEFAULT_POLICY) == (
        "comment 5009 was written by drive-by (NONE), not a trusted author; trusted-authors is "
        "OWNER,MEMBER,COLLABORATOR,write"
    )


@pytest.mark.parametrize(
    ("author", "permission", "words"),
    [
        (Author("drive-by", "NONE"), None, "drive-by (NONE)"),
        (Author("drive-by", None), None, "drive-by (association not reported)"),
        (Author(None, "NONE"), None, "ghost, a deleted account (NONE)"),
        (Author(None, None), None, "ghost, a deleted account (association not reported)"),
        (
            Author("r", "CONTRIBUTOR"),
            Permission("read", "read"),
            "r (CONTRIBUTOR, permission read)",
        ),
        (
            Author("t", "CONTRIBUTOR"),
            Permission("read", "triage"),
            "t (CONTRIBUTOR, permission read, role triage)",
        ),
        (Author("n", "NONE"), Permission(None, None), "n (NONE, permission not reported)"),
        (
            Author("x", "NONE"),
            Permission(refused=404),
            "x (NONE, the repository permission of x could not be read (HTTP 404))",
        ),
        (
            Author("x", "CONTRIBUTOR"),
            Permission(refused=403),
            "x (CONTRIBUTOR, permission not readable by the token (HTTP 403))",
        ),
        (
            Author("x", "NONE"),
            Permission("read", "y" * 200),
            f"x (NONE, permission read, role {'y' * 117}...)",
        ),
    ],
)
def test_author_words(author: Author, permission: Permission | None, words: str) -> None:
    assert author_words(author, permission) == words


def test_a_403_says_the_token_cannot_read_permissions_and_what_trusts_the_account() -> None:
    message = untrusted_message(
        7, Author("quiet-member", "CONTRIBUTOR"), DEFAULT_POLICY, Permission(refused=403)
    )
    assert message == (
        "comment 7 was written by quiet-member (CONTRIBUTOR, permission not readable by the "
        "token (HTTP 403)), not a trusted author; trusted-authors is "
        "OWNER,MEMBER,COLLABORATOR,write; the token cannot read repository permissions "
        "(GitHub answers 403 to a token that cannot push): @quiet-member in trusted-authors "
        "trusts that account without the request"
    )
