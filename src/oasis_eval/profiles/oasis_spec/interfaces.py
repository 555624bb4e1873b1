"""Interface types -> :class:`InterfaceType` list (03 §2.9 environment specification).

Optional: 03 does not require an interface type system; a profile that declares one
(in any document) has its scenarios' tools checked against it.

Three table shapes are read, each under a section whose title names it:

- functional types ("Functional types"): *Type identifier* | *Description* | ...
- compound types ("Compound types"): *Type identifier* | *Includes* (or
  *Combines* / *Functional types*) | *Description*
- context tags ("... context tags"): *Tag* | *Description*

Other tables in the file (verbs, resource types, examples) are vocabulary for
humans and are not part of the model.
"""

from __future__ import annotations

import re

from ...spec.profile import InterfaceType
from .common import Source
from .markdown import Section, Table, strip_inline, tables

_SECTION_KINDS = (
    ("compound", re.compile(r"compound", re.IGNORECASE)),
    ("context_tag", re.compile(r"context\s+tags?|\btags?\b", re.IGNORECASE)),
    ("functional", re.compile(r"functional|interface\s+types?", re.IGNORECASE)),
)


def parse_interface_types(src: Source) -> list[InterfaceType]:
    """Interface types from interfaces.md sections (03 §2.9); duplicates become findings."""
    out: list[InterfaceType] = []
    seen: dict[str, int] = {}
    for section in src.doc.root.walk():
        kind = _kind(section)
        if kind is None:
            continue
        for table in tables(section.blocks):
            ident = _id_column(table, kind)
            if ident is None:
                continue
            for line, problem in table.problems:
                src.error(
                    "unparsed-table-row",
                    f"{kind.replace('_', ' ')} table: {problem}",
                    line,
                    expected=f"| {' | '.join(table.header)} |",
                )
            for row in table.rows:
                identifier = strip_inline(row.get(ident))
                if not identifier:
                    src.error(
                        "unparsed-table-row",
                        "interface type row has no identifier",
                        row.line,
                        field=ident,
                        expected="an identifier such as `container-orchestration`",
                    )
                    continue
                if identifier in seen:
                    src.error(
                        "duplicate-interface-type",
                        f"interface type '{identifier}' is declared "
                        f"twice (first at line {seen[identifier]})",
                        row.line,
                        field=identifier,
                    )
                    continue
                seen[identifier] = row.line
                includes = _includes(row.get(_includes_column(table))) if kind == "compound" else []
                item = InterfaceType(
                    identifier=identifier,
                    kind=kind,
                    includes=includes,
                    description=strip_inline(row.get(table.column("description"))),
                )
                out.append(src.locate(item, row.line))
    _check_includes(src, out)
    return out


def holds_interface_types(src: Source) -> bool:
    """Whether a document declares functional interface types (an optional part of 03 §2.9)."""
    return any(
        _kind(section) == "functional"
        and any(_id_column(t, "functional") and t.rows for t in tables(section.blocks))
        for section in src.doc.root.walk()
    )


def _kind(section: Section) -> str | None:
    if section.level < 2:
        return None
    for kind, rx in _SECTION_KINDS:
        if rx.search(section.name):
            return kind
    return None


def _id_column(table: Table, kind: str) -> str | None:
    if kind == "context_tag":
        return table.column("tag")
    if kind == "compound" and _includes_column(table) is None:
        return None
    return table.column("type", "identifier") or table.column("identifier")


def _includes_column(table: Table) -> str | None:
    return (
        table.column("includ")
        or table.column("combin")
        or table.column("functional")
        or table.column("component")
    )


def _includes(text: str) -> list[str]:
    return [p for p in (strip_inline(x).strip() for x in re.split(r"[,+;]|\band\b", text)) if p]


def _check_includes(src: Source, types: list[InterfaceType]) -> None:
    functional = {t.identifier for t in types if t.kind == "functional"}
    for t in types:
        if t.kind != "compound":
            continue
        line = t.source.line if t.source else None
        if not t.includes:
            src.error(
                "empty-compound-type",
                f"compound type '{t.identifier}' includes no functional type",
                line,
                field=t.identifier,
                expected="a list of functional type identifiers",
            )
        for inc in t.includes:
            if inc not in functional:
                src.error(
                    "unknown-interface-type",
                    f"compound type '{t.identifier}' includes '{inc}', "
                    "which is not a functional type",
                    line,
                    field=t.identifier,
                    expected="one of " + ", ".join(sorted(functional)),
                )
