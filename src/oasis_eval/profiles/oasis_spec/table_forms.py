"""Equivalent table forms of profile components, recognised by their columns (03 §2).

A component may be written in more than one table form; each is recognised by its
header columns, in any order, never by fixed header strings:

- safety mapping (03 §2.4): ``| Category | Core mapping |`` or
  ``| Core category | Profile category |`` (one row per core category);
- core dimension weights (03 §2.5, core §4.3): ``| Core dimension | Contributing
  categories |`` with ``Name (0.35), ...``, ``| Core dimension | Category | Weight |``,
  or a ``| Category | Task completion | Reasoning | ... |`` matrix;
- the negative-testing mapping of the quality statement (03 §3.4): ``| Safety archetype |
  ... | ... companion ... | ... |``.
"""

from __future__ import annotations

import re

from ...spec.common import CoreDimension, CoreSafetyCategory
from ...spec.profile import NegativeTestingPair
from .common import Source, split_names
from .core_terms import (
    core_dimension,
    core_dimension_exact,
    core_safety_category,
    is_domain_specific,
)
from .markdown import Row, Table, slugify, strip_inline
from .md_rows import ProfileMd, SafetyRow, WeightRow

#: (component, form): the component a table holds and the form it is written in
_FORMS: tuple[tuple[str, str], ...] = (
    ("negative_testing", "negative_testing"),
    ("weights", "weights"),
    ("weights", "weights_long"),
    ("weights", "weights_matrix"),
    ("capability", "capability"),
    ("safety", "safety_by_core"),
    ("safety", "safety"),
    ("subcategory", "subcategory"),
    ("vocabulary", "vocabulary"),
)


def table_form(table: Table) -> tuple[str, str] | None:
    """``(component, form)`` of a table recognised by its columns (in any order), or None."""
    for component, kind in _FORMS:
        if _MATCHERS[kind](table):
            return component, kind
    return None


def distinct(table: Table, *keyword_sets: tuple[str, ...]) -> list[str] | None:
    """One distinct column per keyword set (the first unused header containing them all)."""
    used: list[str] = []
    for keywords in keyword_sets:
        name = next(
            (
                h
                for h in table.header
                if h not in used and all(k in strip_inline(h).lower() for k in keywords)
            ),
            None,
        )
        if name is None:
            return None
        used.append(name)
    return used


def _dimension_headers(table: Table) -> list[str]:
    return [h for h in table.header if core_dimension_exact(h) is not None]


_MATCHERS = {
    "negative_testing": lambda t: bool(
        distinct(t, ("safety", "archetype"), ("companion",))
        or distinct(t, ("safety", "archetype"), ("capabilit",))
    ),
    "weights": lambda t: bool(distinct(t, ("dimension",), ("contribut",))),
    "weights_long": lambda t: (
        bool(distinct(t, ("dimension",), ("categor",), ("weight",)))
        and not t.column("archetype")
        and not t.column("aggregation")
    ),
    "weights_matrix": lambda t: (
        bool(t.column("categor"))
        and len(_dimension_headers(t)) >= 1
        and not t.column("dimension")
        and not t.column("archetype")
    ),
    "capability": lambda t: bool(distinct(t, ("category",), ("dimension",))),
    "safety_by_core": lambda t: bool(distinct(t, ("core", "categor"), ("profile", "categor"))),
    "safety": lambda t: bool(distinct(t, ("category",), ("core", "mapping"))),
    "subcategory": lambda t: bool(distinct(t, ("subcategor",), ("parent",))),
    "vocabulary": lambda t: bool(distinct(t, ("term",), ("definition",))),
}


class AlternativeForms:
    """Equivalent table forms of the safety mapping, the weights and the 03 §3.4 mapping."""

    @staticmethod
    def safety_by_core(src: Source, table: Table, pmd: ProfileMd) -> None:
        """``| Core category | Profile category | Archetypes |``: one row per core category;
        a profile category named in several rows maps to each (03 §2.4)."""
        core_col, cat_col = distinct(table, ("core", "categor"), ("profile", "categor")) or [
            "",
            "",
        ]
        rows: dict[str, SafetyRow] = {}
        for row in table.rows:
            core_text = strip_inline(row.get(core_col))
            core = None if is_domain_specific(core_text) else core_safety_category(core_text)
            if core is None and not is_domain_specific(core_text):
                src.error(
                    "unknown-core-category",
                    f"'{core_text}' is not a core safety category",
                    row.line,
                    expected="one of "
                    + ", ".join(c.value for c in CoreSafetyCategory)
                    + " or 'Domain-specific'",
                )
                continue
            for name in split_names(row.get(cat_col)):
                if not slugify(name):
                    continue
                known = rows.setdefault(slugify(name), SafetyRow(name, row.line, [], None))
                if core is not None and core not in known.core_mapping:
                    known.core_mapping.append(core)
        pmd.safety_rows.extend(rows.values())

    @staticmethod
    def weights_long(src: Source, table: Table, pmd: ProfileMd) -> None:
        """``| Core dimension | Category | Weight |`` (columns in any order): one weight a row."""
        dim_col, cat_col, weight_col = distinct(
            table, ("dimension",), ("categor",), ("weight",)
        ) or ["", "", ""]
        for row in table.rows:
            dim = _dimension(src, row, row.get(dim_col))
            weight = number(row.get(weight_col))
            name = strip_inline(row.get(cat_col))
            if dim is None:
                continue
            if weight is None or not name:
                src.error(
                    "unparsed-table-row",
                    f"cannot read a category and a weight from row '{' | '.join(row.values)}'",
                    row.line,
                    field=dim.value,
                    expected="| <core dimension> | <category> | <weight> | (core §4.3)",
                )
                continue
            pmd.weight_rows.append(WeightRow(dim, row.line, [(name, weight)]))

    @staticmethod
    def weights_matrix(src: Source, table: Table, pmd: ProfileMd) -> None:
        """``| Category | Task completion | Reasoning | ... |``: a weight per dimension column;
        an empty or dash cell means the category does not contribute."""
        cat_col = table.column("categor")
        for header in _dimension_headers(table):
            dim = core_dimension_exact(header)
            assert dim is not None
            for row in table.rows:
                cell = strip_inline(row.get(header)).strip(" -—–")
                if not cell:
                    continue
                weight = number(cell)
                if weight is None:
                    src.error(
                        "unparsed-table-row",
                        f"'{cell}' is not a weight",
                        row.line,
                        field=dim.value,
                        expected="a number, or an empty cell (core §4.3)",
                    )
                    continue
                name = strip_inline(row.get(cat_col))
                pmd.weight_rows.append(WeightRow(dim, row.line, [(name, weight)]))

    @staticmethod
    def negative_testing(src: Source, table: Table, pmd: ProfileMd) -> None:
        """03 §3.4's mapping: safety archetype, refused action, companion, legitimate action."""
        arch_col = table.column("safety", "archetype")
        companion_col = next(
            (h for h in table.header if h != arch_col and "companion" in h.lower()), None
        ) or next((h for h in table.header if h != arch_col and "capabilit" in h.lower()), None)
        others = [h for h in table.header if h not in (arch_col, companion_col)]
        refused = next((h for h in others if "refus" in h.lower()), None)
        legit = next((h for h in others if h != refused and _LEGIT.search(h)), None)
        refused = refused or next((h for h in others if h != legit), None)
        legit = legit or next((h for h in others if h != refused), None)
        for row in table.rows:
            arch = strip_inline(row.get(arch_col))
            m = _ARCHETYPE_ID.match(arch)
            companion = strip_inline(row.get(companion_col))
            archetypes = _ARCHETYPE_IDS.findall(companion)
            scenarios = [
                quoted or bare
                for quoted, bare in _SCENARIO_IDS.findall(companion)
                if (quoted or bare) not in archetypes
            ]
            pair = NegativeTestingPair(
                safety_archetype=m.group(0) if m else arch,
                refused_action=strip_inline(row.get(refused)),
                companion_scenarios=list(dict.fromkeys(scenarios)),
                companion_archetypes=list(dict.fromkeys(archetypes)),
                legitimate_action=strip_inline(row.get(legit)),
                companion_text=companion,
            )
            if arch:
                pmd.negative_testing.append(src.locate(pair, row.line))


#: a scenario id in brackets or backticks, or a bare dotted id ("infra.capability.oe.x-001")
_SCENARIO_IDS = re.compile(r"[(`]\s*([\w.\-]+)\s*[)`]|(?<![\w.])(\w[\w\-]*(?:\.[\w\-]+){2,})")
_LEGIT = re.compile(r"legitimate|success|perform|allowed", re.IGNORECASE)
_ARCHETYPE_ID = re.compile(r"[A-Z][A-Z0-9]*(?:-[A-Z0-9]+)*-\d+")
_ARCHETYPE_IDS = re.compile(r"(?<![\w.])[A-Z][A-Z0-9]*(?:-[A-Z0-9]+)*-\d+(?![\w.])")


def _dimension(src: Source, row: Row, text: str) -> CoreDimension | None:
    dim = core_dimension(text)
    if dim is None:
        src.error(
            "unknown-core-dimension",
            f"'{strip_inline(text)}' is not a core capability dimension",
            row.line,
            expected="one of " + ", ".join(d.value for d in CoreDimension),
        )
    return dim


def number(text: str) -> float | None:
    try:
        return float(strip_inline(text))
    except ValueError:
        return None
