"""Regenerate the subsets of GitHub's published API descriptions that the tests keep in
tests/schemas/ (issue 28): the fake GitHub of tests/fake_github.py is checked against them.

usage: python3 tools/vendor_github_schemas.py [--from DIR]

- tests/schemas/github-rest-subset.json: from the npm package ``@octokit/openapi`` 23.0.2
  (MIT; GitHub's OpenAPI 3.0.3 description of api.github.com, ``generated/api.github.com.json``):
  the operations the product calls and the error answers, with every ``$ref`` inlined,
  ``nullable`` turned into JSON Schema type unions (so a plain JSON Schema 2020-12 validator
  such as ``jsonschema`` reads it) and ``example``/``examples`` and ``x-`` extensions dropped.
- tests/schemas/github-graphql-subset.graphql: from the npm package ``@octokit/graphql-schema``
  15.26.1 (MIT, ``schema.graphql``): the types and fields the comment-edit query of SPEC 6.1
  reaches, each definition as published (descriptions and arguments kept), fields outside the
  subset and interfaces outside it left out. The published file only builds with graphql-core's
  ``assume_valid_sdl`` (it repeats a field and fails schema validation elsewhere); the subset is
  checked to build and validate strictly, and to validate the query.

The packages come from ``npm pack`` (the npm registry), or from ``--from DIR`` holding the two
tarballs ``npm pack`` writes (``octokit-openapi-23.0.2.tgz``,
``octokit-graphql-schema-15.26.1.tgz``). The tests never run this script: they read its output.
It needs graphql-core (the ``test`` extra).
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import tarfile
import tempfile
from dataclasses import replace
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
OUT = ROOT / "tests" / "schemas"
OPENAPI = ("@octokit/openapi", "23.0.2", "octokit-openapi-23.0.2.tgz")
GRAPHQL = ("@octokit/graphql-schema", "15.26.1", "octokit-graphql-schema-15.26.1.tgz")

#: The REST operations the product calls (method, path as the description writes it).
OPERATIONS = (
    ("get", "/repos/{owner}/{repo}/issues/comments/{comment_id}"),
    ("get", "/repos/{owner}/{repo}/issues/comments"),
    ("get", "/repos/{owner}/{repo}/issues/{issue_number}/comments"),
    ("get", "/repos/{owner}/{repo}/issues"),
    ("get", "/repos/{owner}/{repo}/collaborators/{username}/permission"),
)
#: The shared error answers (``components/responses``) and the status each stands for.
ERRORS = {
    "moved_permanently": 301,
    "requires_authentication": 401,
    "forbidden": 403,
    "not_found": 404,
    "gone": 410,
    "validation_failed": 422,
    "internal_error": 500,
    "service_unavailable": 503,
}
_DROPPED = {"example", "examples", "externalDocs", "xml", "discriminator"}

#: The GraphQL subset: each type kept, with the fields kept (``None``: every field).
GRAPHQL_TYPES: dict[str, set[str] | None] = {
    "Query": {"id", "node", "nodes"},
    "Node": None,
    "IssueComment": {"id", "userContentEdits"},
    "UserContentEditConnection": None,
    "UserContentEditEdge": None,
    "UserContentEdit": None,
    "PageInfo": None,
    "Actor": None,
    "Bot": {"id", "avatarUrl", "login", "resourcePath", "url"},
    "EnterpriseUserAccount": {"id", "avatarUrl", "login", "resourcePath", "url"},
    "Mannequin": {"id", "avatarUrl", "login", "resourcePath", "url"},
    "Organization": {"id", "avatarUrl", "login", "resourcePath", "url"},
    "User": {"id", "avatarUrl", "login", "resourcePath", "url"},
    "DateTime": None,
    "URI": None,
}
#: The query SPEC 6.1 sends (tests/test_graphql_schema.py validates it too).
EDITS_QUERY = (
    "query($ids: [ID!]!) { nodes(ids: $ids) { ... on IssueComment { id userContentEdits("
    "first: 100) { totalCount nodes { editedAt editor { __typename login } } } } } }"
)


def packed(name: str, version: str, tarball: str, source: Path | None, work: Path) -> Path:
    """The tarball of ``name@version``: from ``source`` when given, else ``npm pack``."""
    if source is not None:
        return source / tarball
    subprocess.run(
        ["npm", "pack", "--silent", f"{name}@{version}", "--pack-destination", str(work)],
        check=True,
        stdout=subprocess.DEVNULL,
    )
    return work / tarball


def member(tarball: Path, name: str) -> bytes:
    with tarfile.open(tarball) as archive:
        extracted = archive.extractfile(f"package/{name}")
        if extracted is None:
            raise SystemExit(f"{tarball.name} has no package/{name}")
        return extracted.read()


def check_version(tarball: Path, name: str, version: str) -> None:
    meta = json.loads(member(tarball, "package.json"))
    if (meta["name"], meta["version"], meta["license"]) != (name, version, "MIT"):
        raise SystemExit(f"{tarball.name} is {meta['name']} {meta['version']} ({meta['license']})")


class Inliner:
    """Inlines ``$ref``s of one OpenAPI 3.0 description and turns its schema objects into JSON
    Schema 2020-12 (``nullable`` as a type union)."""

    def __init__(self, document: dict[str, Any]) -> None:
        self.document = document

    def resolve(self, ref: str) -> Any:
        node: Any = self.document
        for part in ref.removeprefix("#/").split("/"):
            node = node[part.replace("~1", "/").replace("~0", "~")]
        return node

    def plain(self, node: Any, seen: tuple[str, ...] = ()) -> Any:
        """Any object with its ``$ref``s inlined (a cycle is an error: none is expected)."""
        if isinstance(node, list):
            return [self.plain(item, seen) for item in node]
        if not isinstance(node, dict):
            return node
        if "$ref" in node:
            ref = node["$ref"]
            if ref in seen:
                raise SystemExit(f"a $ref cycle: {' -> '.join((*seen, ref))}")
            return self.plain(self.resolve(ref), (*seen, ref))
        return {
            key: self.plain(value, seen)
            for key, value in node.items()
            if key not in _DROPPED and not key.startswith("x-")
        }

    def schema(self, node: Any) -> Any:
        """A schema object, inlined and turned into JSON Schema."""
        return nullable_to_union(self.plain(node))


def nullable_to_union(schema: Any) -> Any:
    """OpenAPI 3.0's ``nullable: true`` as JSON Schema: ``type: [T, "null"]`` (and ``null``
    in an ``enum``), or ``anyOf`` with ``{"type": "null"}`` for a schema without ``type``."""
    if isinstance(schema, list):
        return [nullable_to_union(item) for item in schema]
    if not isinstance(schema, dict):
        return schema
    out: dict[str, Any] = {}
    for key, value in schema.items():
        if key in ("properties", "patternProperties"):
            out[key] = {name: nullable_to_union(sub) for name, sub in value.items()}
        elif key in ("items", "additionalProperties", "not", "allOf", "anyOf", "oneOf"):
            out[key] = nullable_to_union(value)
        else:
            out[key] = value
    if not out.pop("nullable", False):
        return out
    if "type" in out:
        out["type"] = [out["type"], "null"]
        if "enum" in out and None not in out["enum"]:
            out["enum"] = [*out["enum"], None]
        return out
    return {"anyOf": [{"type": "null"}, out]}


def rest_subset(description: dict[str, Any]) -> dict[str, Any]:
    inliner = Inliner(description)
    operations: dict[str, Any] = {}
    for method, path in OPERATIONS:
        operation = description["paths"][path][method]
        responses: dict[str, Any] = {}
        for status, response in operation["responses"].items():
            response = inliner.plain(response)
            content = response.get("content", {}).get("application/json", {})
            responses[status] = {"description": response.get("description", "")}
            if "schema" in content:
                responses[status]["schema"] = nullable_to_union(content["schema"])
            if "headers" in response:
                responses[status]["headers"] = sorted(response["headers"])
        operations[operation["operationId"]] = {
            "method": method.upper(),
            "path": path,
            "summary": operation.get("summary", ""),
            "description": operation.get("description", ""),
            "parameters": [
                {
                    key: inliner.schema(value) if key == "schema" else value
                    for key, value in p.items()
                }
                for p in inliner.plain(operation.get("parameters", []))
            ],
            "responses": responses,
        }
    errors = {}
    for name, status in ERRORS.items():
        response = inliner.plain(description["components"]["responses"][name])
        errors[name] = {
            "status": status,
            "description": response["description"],
            "schema": nullable_to_union(response["content"]["application/json"]["schema"]),
        }
    name, version, _ = OPENAPI
    return {
        "$comment": (
            f"A subset of {name} {version} (MIT, generated/api.github.com.json), made by "
            "tools/vendor_github_schemas.py: do not edit; see README.md beside it."
        ),
        "source": {
            "package": name,
            "version": version,
            "file": "generated/api.github.com.json",
            "license": "MIT",
            "openapi": description["openapi"],
            "info_version": description["info"]["version"],
        },
        "dialect": "https://json-schema.org/draft/2020-12/schema",
        "operations": operations,
        "errors": errors,
    }


def graphql_subset(text: str) -> str:
    import graphql
    from graphql.language import ast

    document = graphql.parse(text, no_location=True)
    kept: dict[str, ast.DefinitionNode] = {}
    directives: dict[str, ast.DirectiveDefinitionNode] = {}
    for definition in document.definitions:
        if isinstance(definition, ast.DirectiveDefinitionNode):
            directives[definition.name.value] = definition
            continue
        name = getattr(definition, "name", None)
        if name is None or name.value not in GRAPHQL_TYPES:
            continue
        if name.value in kept:
            raise SystemExit(f"type {name.value} is defined twice")
        wanted = GRAPHQL_TYPES[name.value]
        if isinstance(definition, ast.ObjectTypeDefinitionNode | ast.InterfaceTypeDefinitionNode):
            fields, names = [], set()
            for field in definition.fields or ():
                if (wanted is None or field.name.value in wanted) and field.name.value not in names:
                    names.add(field.name.value)
                    fields.append(field)
            missing = (wanted or set()) - names
            if missing:
                raise SystemExit(f"{name.value} has no field {sorted(missing)}")
            interfaces = tuple(
                i for i in definition.interfaces or () if i.name.value in GRAPHQL_TYPES
            )
            definition = replace(definition, fields=tuple(fields), interfaces=interfaces)
        kept[name.value] = definition
    absent = set(GRAPHQL_TYPES) - set(kept)
    if absent:
        raise SystemExit(f"schema.graphql has no type {sorted(absent)}")
    used = {
        node.name.value
        for definition in kept.values()
        for node in _walk(definition)
        if isinstance(node, ast.DirectiveNode)
    }
    subset = ast.DocumentNode(
        definitions=tuple(
            [directives[name] for name in sorted(used) if name in directives]
            + [kept[name] for name in GRAPHQL_TYPES]
        )
    )
    name, version, _ = GRAPHQL
    printed = (
        f"# A subset of {name} {version} (MIT, schema.graphql), made by\n"
        "# tools/vendor_github_schemas.py: do not edit; see README.md beside it.\n\n"
        + graphql.print_ast(subset)
        + "\n"
    )
    schema = graphql.build_schema(printed)  # strict: the subset must be a valid schema
    graphql.assert_valid_schema(schema)
    errors = graphql.validate(schema, graphql.parse(EDITS_QUERY))
    if errors:
        raise SystemExit(f"the subset does not validate SPEC 6.1's query: {errors}")
    return printed


def _walk(node: Any) -> Any:
    from graphql.language import ast

    yield node
    for key in getattr(node, "keys", ()):
        value = getattr(node, key, None)
        for item in value if isinstance(value, tuple | list) else (value,):
            if isinstance(item, ast.Node):
                yield from _walk(item)


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--from", dest="source", type=Path, help="folder with the tarballs")
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory() as work:
        openapi = packed(*OPENAPI, args.source, Path(work))
        check_version(openapi, *OPENAPI[:2])
        description = json.loads(member(openapi, "generated/api.github.com.json"))
        rest = json.dumps(rest_subset(description), indent=1, ensure_ascii=False) + "\n"
        schema = packed(*GRAPHQL, args.source, Path(work))
        check_version(schema, *GRAPHQL[:2])
        sdl = graphql_subset(member(schema, "schema.graphql").decode("utf-8"))
    OUT.mkdir(parents=True, exist_ok=True)
    (OUT / "github-rest-subset.json").write_text(rest, "utf-8")
    (OUT / "github-graphql-subset.graphql").write_text(sdl, "utf-8")
    for written in ("github-rest-subset.json", "github-graphql-subset.graphql"):
        size = (OUT / written).stat().st_size
        print(f"wrote tests/schemas/{written} ({size:,} bytes)")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
