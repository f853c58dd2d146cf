"""The GraphQL query of SPEC 6.1 (who edited a comment) against GitHub's published schema
(tests/schemas/github-graphql-subset.graphql, a subset of ``@octokit/graphql-schema`` 15.26.1),
with graphql-core: the query validates, and a misspelt field does not."""

from __future__ import annotations

import graphql
import pytest

from frame_spine.core.status import Failure
from frame_spine.github.client import EDITS_QUERY
from tests.conftest import REPO
from tests.fake_github import FakeGitHub

SUBSET = REPO / "tests" / "schemas" / "github-graphql-subset.graphql"
#: The query as the product sends it (SPEC 6.1).
EDITS = EDITS_QUERY


@pytest.fixture(scope="module")
def schema() -> graphql.GraphQLSchema:
    built = graphql.build_schema(SUBSET.read_text("utf-8"))  # strict: no assume_valid_sdl
    graphql.assert_valid_schema(built)
    return built


def messages(schema: graphql.GraphQLSchema, query: str) -> list[str]:
    return [error.message for error in graphql.validate(schema, graphql.parse(query))]


def test_the_subset_names_its_source() -> None:
    assert SUBSET.read_text("utf-8").startswith(
        "# A subset of @octokit/graphql-schema 15.26.1 (MIT, schema.graphql), made by\n"
        "# tools/vendor_github_schemas.py: do not edit; see README.md beside it.\n"
    )
    assert (
        (SUBSET.parent / "LICENSE-octokit-graphql-schema.md")
        .read_text("utf-8")
        .startswith("Copyright (c) GitHub 2025 - Licensed as MIT.")
    )


def test_the_edit_query_of_spec_6_1_is_valid(schema: graphql.GraphQLSchema) -> None:
    assert messages(schema, EDITS) == []


@pytest.mark.parametrize(
    ("right", "wrong", "message"),
    [
        (
            "userContentEdits(",
            "userContentEdit(",
            "Cannot query field 'userContentEdit' on type 'IssueComment'. "
            "Did you mean 'userContentEdits'?",
        ),
        (
            "editedAt",
            "editedAt lastEditedAt",
            "Cannot query field 'lastEditedAt' on type 'UserContentEdit'. Did you mean 'editedAt'?",
        ),
        (
            "__typename login",
            "__typename login name",
            "Cannot query field 'name' on type 'Actor'.",
        ),
        ("first: 100", 'first: "100"', 'Int cannot represent non-integer value: "100"'),
    ],
)
def test_a_wrong_query_fails_validation(
    schema: graphql.GraphQLSchema, right: str, wrong: str, message: str
) -> None:
    assert right in EDITS
    assert messages(schema, EDITS.replace(right, wrong, 1)) == [message]


def test_an_editor_is_named_by_its_type_and_login(schema: graphql.GraphQLSchema) -> None:
    """``editor`` is an ``Actor``; a bot's ``__typename`` is ``Bot`` (SPEC 6.1 appends
    ``[bot]`` to its login)."""
    actor = schema.get_type("Actor")
    assert isinstance(actor, graphql.GraphQLInterfaceType)
    assert sorted(t.name for t in schema.get_possible_types(actor)) == [
        "Bot",
        "EnterpriseUserAccount",
        "Mannequin",
        "Organization",
        "User",
    ]
    edit = schema.get_type("UserContentEdit")
    assert isinstance(edit, graphql.GraphQLObjectType)
    assert str(edit.fields["editor"].type) == "Actor"
    assert str(edit.fields["editedAt"].type) == "DateTime!"


def test_the_query_the_fake_receives_is_the_one_validated(fake_github: FakeGitHub) -> None:
    from frame_spine.github.client import CommentFetcher
    from frame_spine.github.session import ApiSession, ApiSettings
    from tests.fake_github import REPO as FAKE_REPO
    from tests.fake_github import TOKEN

    payload = fake_github.add_comment(
        5001, "x", 878, updated_at="2026-07-18T22:30:00Z", created_at="2026-07-18T22:20:00Z"
    )
    fetcher = CommentFetcher(ApiSession(ApiSettings(FAKE_REPO, fake_github.url, TOKEN)))
    comment = fetcher.fetch(5001, "plan")
    assert not isinstance(comment, Failure) and comment.node_id == payload["node_id"]
    assert not isinstance(fetcher.edits([comment]), Failure)
    assert fake_github.graphql_queries == [EDITS_QUERY]
