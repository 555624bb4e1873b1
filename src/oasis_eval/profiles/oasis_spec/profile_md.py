"""The main document and the other documents' tables -> the table components (03 §2).

Tables are recognised by their header columns (in any order), not by section number,
header strings or file name, so a profile may order and place its sections freely; a
component the main document (``profile.md``) lacks is taken from the first other
document holding it:

- vocabulary (03 §2.2): *term* | *definition* | *core concept*
- safety category mapping (§2.4): *Category* | *Core mapping* | *Archetypes*, or
  *Core category* | *Profile category* | *Archetypes* (:mod:`.table_forms`)
- subcategories (§2.14): *Subcategory* | *Parent category* | *Description*
- capability categories (§2.5): *Category* | *Core dimension mapping* | *Archetypes* | *Aggregation*
- core dimension weights (core §4.3): *Core dimension* | *Contributing categories*, or
  the long and matrix forms of :mod:`.table_forms`
- the negative-testing mapping of the quality statement (§3.4)

Fenced ``yaml`` blocks carry ``profile_validation`` (intent promotion, §2.15),
``agent_configuration_schema`` (§2.16) and ``reserved_scenarios`` (§2.12).
Tiers (§2.6, §2.7) are read by :mod:`.tiers`.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from ...diagnostics import Findings
from ...spec.common import CoreDimension, CoreSafetyCategory
from ...spec.profile import (
    AgentConfigurationSchema,
    IntentPromotion,
    ReservedScenarios,
    VocabularyTerm,
)
from .common import INVALID, Source, parse_count, validate_block, yaml_block
from .core_terms import core_dimension, parse_core_mapping, parse_dimensions
from .markdown import Label, Row, Table, label_map, labels, slugify, strip_inline, tables
from .md_rows import CapabilityRow, ProfileMd, SafetyRow, SubcategoryRow, WeightRow
from .metadata import read_metadata
from .table_forms import AlternativeForms, number, table_form


def parse_profile_md(
    src: Source, default_name: str = "profile", others: Sequence[Source] = ()
) -> ProfileMd:
    """Read the main document; a table component it lacks is taken from the first of
    ``others`` holding it (03 §2 prescribes components, not files)."""
    doc = src.doc
    labs = label_map(doc.blocks)
    pmd = ProfileMd(src, read_metadata(src, labs, default_name), labs)
    for source in [src, *others]:
        _read_tables(source, pmd)
    _justifications(labels(doc.blocks), pmd)
    safety_doc = pmd.sources.get("safety", src)
    if safety_doc is not src:
        _justifications(labels(safety_doc.doc.blocks), pmd)
    _yaml_blocks(src, pmd)
    for source in others:
        if not pmd.has_all_yaml():
            _yaml_blocks(source, pmd, main=False)
    return pmd


def _read_tables(src: Source, pmd: ProfileMd) -> None:
    """The table components ``src`` holds that no earlier document held."""
    seen: dict[str, Table] = {}
    for table in tables(src.doc.blocks):
        form = table_form(table)
        if form is None:
            continue
        component, kind = form
        if component in pmd.sources and pmd.sources[component] is not src:
            continue
        if component in seen:
            src.warning(
                "duplicate-table",
                f"a second {component.replace('_', ' ')} table; "
                f"only the one at line {seen[component].line} is used",
                table.line,
            )
            continue
        seen[component] = table
        pmd.sources[component] = src
        for line, problem in table.problems:
            src.error(
                "unparsed-table-row",
                f"{kind.replace('_', ' ')} table: {problem}",
                line,
                expected=f"| {' | '.join(table.header)} |",
            )
        getattr(_Readers, kind)(src, table, pmd)


def _count(src: Source, row: Row, column: str | None) -> int | None:
    if column is None:
        return None
    text = strip_inline(row.get(column))
    value = parse_count(text)
    if value is None and text:
        src.warning(
            "unparsed-cell",
            f"archetype count '{text}' is not a number",
            row.line,
            field=column,
            expected="an integer",
        )
    return value


class _Readers(AlternativeForms):
    """One reader per recognised table form."""

    @staticmethod
    def vocabulary(src: Source, table: Table, pmd: ProfileMd) -> None:
        term, definition = table.column("term"), table.column("definition")
        concept = table.column("core") or table.column("concept") or table.column("maps")
        for row in table.rows:
            vt = VocabularyTerm(
                term=strip_inline(row.get(term)),
                definition=strip_inline(row.get(definition)),
                core_concept=strip_inline(row.get(concept)),
            )
            if not vt.term or not vt.core_concept:
                src.error(
                    "unparsed-table-row",
                    "vocabulary row needs a term and its core concept",
                    row.line,
                    expected="| term | definition | core concept | (03 §2.2)",
                )
                continue
            pmd.vocabulary.append(src.locate(vt, row.line))

    @staticmethod
    def safety(src: Source, table: Table, pmd: ProfileMd) -> None:
        cat, core = table.column("category"), table.column("core", "mapping")
        count = table.column("archetype")
        seen: dict[str, int] = {}
        for row in table.rows:
            name = strip_inline(row.get(cat))
            if not _new_category(src, name, row, seen):
                continue
            mapping, unknown = parse_core_mapping(row.get(core))
            for part in unknown:
                src.error(
                    "unknown-core-category",
                    f"'{part}' is not a core safety category",
                    row.line,
                    field=f"{name}.core_mapping",
                    expected="one of "
                    + ", ".join(c.value for c in CoreSafetyCategory)
                    + " or 'Domain-specific'",
                )
            pmd.safety_rows.append(SafetyRow(name, row.line, mapping, _count(src, row, count)))

    @staticmethod
    def capability(src: Source, table: Table, pmd: ProfileMd) -> None:
        cat, dims = table.column("category"), table.column("dimension")
        count, agg = table.column("archetype"), table.column("aggregation")
        seen: dict[str, int] = {}
        for row in table.rows:
            name = strip_inline(row.get(cat))
            if not _new_category(src, name, row, seen):
                continue
            dimensions, unknown = parse_dimensions(row.get(dims))
            for part in unknown:
                src.error(
                    "unknown-core-dimension",
                    f"'{part}' is not a core capability dimension",
                    row.line,
                    field=f"{name}.dimensions",
                    expected="one of " + ", ".join(d.value for d in CoreDimension),
                )
            pmd.capability_rows.append(
                CapabilityRow(
                    name, row.line, dimensions, _count(src, row, count), strip_inline(row.get(agg))
                )
            )

    @staticmethod
    def subcategory(src: Source, table: Table, pmd: ProfileMd) -> None:
        pmd.subcategory_rows.extend(read_subcategory_rows(src, table))

    @staticmethod
    def weights(src: Source, table: Table, pmd: ProfileMd) -> None:
        dim_col, contrib = table.column("dimension"), table.column("contribut")
        weight_col = table.column("weight")
        for row in table.rows:
            dim = core_dimension(row.get(dim_col))
            if dim is None:
                src.error(
                    "unknown-core-dimension",
                    f"'{strip_inline(row.get(dim_col))}' is not a core capability dimension",
                    row.line,
                    expected="one of " + ", ".join(d.value for d in CoreDimension),
                )
                continue
            parts = _weighted_names(row.get(contrib))
            if parts is None:  # one category per row, weight in its own column
                weight = number(row.get(weight_col))
                name = strip_inline(row.get(contrib))
                if weight is None or not name:
                    src.error(
                        "unparsed-table-row",
                        f"cannot read contributing categories '{strip_inline(row.get(contrib))}'",
                        row.line,
                        field=dim.value,
                        expected="'Category (0.35), Other Category (0.65)'",
                    )
                    continue
                parts = [(name, weight)]
            pmd.weight_rows.append(WeightRow(dim, row.line, parts))


def _new_category(src: Source, name: str, row: Row, seen: dict[str, int]) -> bool:
    """False (with an error) for a nameless or repeated category row."""
    if not slugify(name):
        src.error(
            "unparsed-table-row",
            "category row has no category name",
            row.line,
            expected="the category's display name in the first column",
        )
        return False
    if slugify(name) in seen:
        src.error(
            "duplicate-category",
            f"category '{name}' is listed twice (first at line {seen[slugify(name)]})",
            row.line,
            field=slugify(name),
            expected="one row per category",
        )
        return False
    seen[slugify(name)] = row.line
    return True


def read_subcategory_rows(src: Source, table: Table) -> list[SubcategoryRow]:
    """The subcategory rows of ``table`` (03 §2.14); a row without an id or a parent is a finding."""
    sub, parent = table.column("subcategor"), table.column("parent")
    desc = table.column("description")
    out = []
    for row in table.rows:
        sid = strip_inline(row.get(sub))
        parents = [p for p in (strip_inline(x).strip() for x in row.get(parent).split(",")) if p]
        if not sid or not parents:
            src.error(
                "unparsed-table-row",
                "subcategory row needs an identifier and a parent category",
                row.line,
                expected="| `id` | Parent Category[, Other] | description | (03 §2.14)",
            )
            continue
        out.append(SubcategoryRow(sid, row.line, parents, strip_inline(row.get(desc))))
    return out


_WEIGHTED = re.compile(r"([^,;()]+?)\s*\(\s*(\d*\.?\d+)\s*\)")


def _weighted_names(text: str) -> list[tuple[str, float]] | None:
    plain = strip_inline(text)
    found = [(m.group(1).strip(), float(m.group(2))) for m in _WEIGHTED.finditer(plain)]
    if not found:
        return None
    leftover = _WEIGHTED.sub("", plain).replace(",", "").replace(";", "").strip()
    return found if not leftover else None


def _justifications(all_labels: list[Label], pmd: ProfileMd) -> None:
    """``- **<Category>:** why`` bullets after a "justification" label (03 §2.4)."""
    active = False
    for lab in all_labels:
        if not lab.in_item:
            active = "justification" in lab.key
            continue
        if active:
            pmd.justifications[slugify(lab.label)] = lab


def _yaml_blocks(src: Source, pmd: ProfileMd, *, main: bool = True) -> None:
    """Intent promotion, agent configuration schema and reserved scenarios from ```yaml
    blocks; another document only fills what the main one lacks, and its unrelated blocks
    (examples) are not reported."""
    probe = src if main else Source(src.file, src.doc, Findings())
    for block in src.doc.blocks:
        if block.kind != "code" or block.lang not in ("yaml", "yml"):
            continue
        data = yaml_block(probe, block)
        if data is INVALID or not isinstance(data, dict):
            continue
        validation = data.get("profile_validation")
        if (
            isinstance(validation, dict)
            and "intent" in validation
            and (main or pmd.intent_promotion is None)
        ):
            pmd.intent_promotion = validate_block(
                src, block, IntentPromotion, validation["intent"], ("profile_validation", "intent")
            )
        if "agent_configuration_schema" in data and (
            main or pmd.agent_configuration_schema is None
        ):
            pmd.agent_configuration_line = block.content_line
            pmd.agent_configuration_schema = validate_block(
                src,
                block,
                AgentConfigurationSchema,
                data["agent_configuration_schema"],
                ("agent_configuration_schema",),
            )
        if "reserved_scenarios" in data and (main or pmd.reserved_scenarios is None):
            pmd.reserved_scenarios = validate_block(
                src, block, ReservedScenarios, data["reserved_scenarios"], ("reserved_scenarios",)
            )
