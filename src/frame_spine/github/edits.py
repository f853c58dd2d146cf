"""Reading who edited a comment (SPEC 6.1, "Who last touched it"): the GraphQL query the
fetcher sends and its answer read. Pure."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from pydantic import BaseModel, ConfigDict, Field, TypeAdapter

from ..core.shown import quoted
from .payloads import StrictPayload, Unusable, read_json


@dataclass(frozen=True, slots=True)
class Edit:
    """One entry of a comment's edit history (SPEC 6.1): when, and who (``None``: a deleted
    account, or an entry GitHub gave as ``null``), named as REST names them (``[bot]``
    appended to a GraphQL ``Bot``'s login)."""

    at: str
    editor: str | None


@dataclass(frozen=True, slots=True)
class Edits:
    """A comment's edit history, newest first; ``total`` entries in all (the creation entry
    included), of which at most 100 are listed."""

    total: int
    entries: tuple[Edit, ...]


@dataclass(frozen=True, slots=True)
class GraphQLErrors:
    """A GraphQL answer's ``errors`` (SPEC 6.1): their types and messages, in order."""

    types: tuple[str, ...]
    messages: tuple[str, ...]


class _Editor(StrictPayload):
    model_config = ConfigDict(populate_by_name=True)

    typename: str | None = Field(default=None, alias="__typename")
    login: str | None = None


class _Edit(StrictPayload):
    editedAt: str | None = None  # GitHub's field names, as the answer spells them
    editor: _Editor | None = None

    def edit(self) -> Edit:
        login = self.editor.login if self.editor is not None else None
        if login and self.editor is not None and self.editor.typename == "Bot":
            login += "[bot]"
        return Edit(self.editedAt or "", login)


class _EditConnection(StrictPayload):
    totalCount: int
    nodes: list[_Edit | None] | None = None


class _EditedNode(StrictPayload):
    id: str
    userContentEdits: _EditConnection | None = None


class _GraphQLError(BaseModel):
    type: Any = None
    message: Any = None


class _GraphQLData(StrictPayload):
    nodes: list[_EditedNode | None]


class _GraphQLAnswer(StrictPayload):
    data: _GraphQLData | None = None
    errors: list[_GraphQLError] | None = None


_GRAPHQL = TypeAdapter(_GraphQLAnswer)


def read_edits(
    body: bytes | bytearray, content_type: str, ids: list[str]
) -> dict[str, Edits | None] | GraphQLErrors | Unusable:
    """Read the answer to SPEC 6.1's ``nodes(ids: ...)`` query: each asked id's history
    (``None`` for a ``null`` connection), the answer's ``errors``, or :class:`Unusable`
    (another node, a ``null`` node, not the expected JSON). Never raises."""
    answer = read_json(body, content_type, _GRAPHQL, dict, "a GraphQL answer", "a GraphQL answer")
    if isinstance(answer, Unusable):
        return answer
    if answer.errors:
        return GraphQLErrors(
            tuple(str(error.type or "") for error in answer.errors),
            tuple(str(error.message or "") for error in answer.errors),
        )
    nodes = answer.data.nodes if answer.data is not None else []
    found: dict[str, Edits | None] = {}
    for wanted, node in zip(ids, [*nodes, *[None] * len(ids)], strict=False):
        if node is None:
            return Unusable(f"the GitHub API answered no comment for node {quoted(wanted)}")
        if node.id != wanted:
            shown = quoted(node.id)
            return Unusable(f"the GitHub API answered with another comment (node {shown})")
        edits = node.userContentEdits
        found[wanted] = (
            None
            if edits is None or edits.nodes is None
            else Edits(edits.totalCount, tuple((item or _Edit()).edit() for item in edits.nodes))
        )
    return found
