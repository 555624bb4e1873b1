"""profile.md -> metadata, vocabulary and the profile's own tables (03 §2.1-§2.5, §2.12-§2.16).

Tables are recognised by their header columns, not by section number, so a
profile may order its sections freely:

- vocabulary (03 §2.2): *term* | *definition* | *core concept*
- safety category mapping (§2.4): *Category* | *Core mapping* | *Archetypes*
- subcategories (§2.14): *Subcategory* | *Parent category* | *Description*
- capability categories (§2.5): *Category* | *Core dimension mapping* | *Archetypes* | *Aggregation*
- core dimension weights (core §4.3): *Core dimension* | *Contributing categories* | *Weight*

Fenced ``yaml`` blocks carry ``profile_validation`` (intent promotion, §2.15),
``agent_configuration_schema`` (§2.16) and ``reserved_scenarios`` (§2.12).
Tiers (§2.6, §2.7) are read by :mod:`.tiers`.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from ...spec.common import CoreDimension, CoreSafetyCategory
from ...spec.profile import (
    AgentConfigurationSchema,
    IntentPromotion,
    ProfileMetadata,
    ReservedScenarios,
    VocabularyTerm,
)
from .common import (
    INVALID,
    Source,
    parse_count,
    validate_block,
    yaml_block,
)
from .core_terms import core_dimension, parse_core_mapping, parse_dimensions
from .markdown import Label, Row, Table, label_map, labels, slugify, strip_inline, tables
from .metadata import read_metadata


@dataclass
class SafetyRow:
    """A row of profile.md's safety category mapping (03 §2.4)."""

    name: str
    line: int
    core_mapping: list[CoreSafetyCategory]
    archetypes: int | None

    @property
    def id(self) -> str:
        """The category id: the slug of its name."""
        return slugify(self.name)


@dataclass
class CapabilityRow:
    """A row of profile.md's capability category table (03 §2.5)."""

    name: str
    line: int
    dimensions: list[CoreDimension]
    archetypes: int | None
    aggregation: str

    @property
    def id(self) -> str:
        """The category id: the slug of its name."""
        return slugify(self.name)


@dataclass
class SubcategoryRow:
    """A row of profile.md's subcategory table (03 §2.14)."""

    id: str
    line: int
    parents: list[str]  # as written (display names or ids)
    description: str


@dataclass
class WeightRow:
    """A row of profile.md's core dimension weights (core §4.3)."""

    dimension: CoreDimension
    line: int
    contributions: list[tuple[str, float]]  # (category as written, weight)


@dataclass
class ProfileMd:
    """Everything read from profile.md, before merging with the other files."""

    source: Source
    metadata: ProfileMetadata
    meta_labels: dict[str, Label] = field(default_factory=dict)
    vocabulary: list[VocabularyTerm] = field(default_factory=list)
    safety_rows: list[SafetyRow] = field(default_factory=list)
    justifications: dict[str, Label] = field(default_factory=dict)  # category id -> label line
    subcategory_rows: list[SubcategoryRow] = field(default_factory=list)
    capability_rows: list[CapabilityRow] = field(default_factory=list)
    weight_rows: list[WeightRow] = field(default_factory=list)
    intent_promotion: IntentPromotion | None = None
    agent_configuration_schema: AgentConfigurationSchema | None = None
    #: line of the ``agent_configuration_schema`` key, even when its content is invalid
    agent_configuration_line: int | None = None
    reserved_scenarios: ReservedScenarios | None = None

    def line_of(self, *keys: str) -> int | None:
        """Line of the first of ``keys`` stated as a bold label."""
        return next((self.meta_labels[k].line for k in keys if k in self.meta_labels), None)


_TABLE_KINDS = (
    # (kind, required header keywords per column)
    ("weights", (("dimension",), ("contribut",))),
    ("capability", (("category",), ("dimension",))),
    ("safety", (("category",), ("core", "mapping"))),
    ("subcategory", (("subcategor",), ("parent",))),
    ("vocabulary", (("term",), ("definition",))),
)


def parse_profile_md(src: Source, default_name: str = "profile") -> ProfileMd:
    """Read profile.md; ``default_name`` (the directory name) stands in for a missing name."""
    doc = src.doc
    all_labels = labels(doc.blocks)
    labs = label_map(doc.blocks)
    pmd = ProfileMd(src, read_metadata(src, labs, default_name), labs)
    seen: dict[str, Table] = {}
    for table in tables(doc.blocks):
        kind = _table_kind(table)
        if kind is None:
            continue
        if kind in seen:
            src.warning(
                "duplicate-table",
                f"a second {kind} table; only the one at line {seen[kind].line} is used",
                table.line,
            )
            continue
        seen[kind] = table
        for line, problem in table.problems:
            src.error(
                "unparsed-table-row",
                f"{kind} table: {problem}",
                line,
                expected=f"| {' | '.join(table.header)} |",
            )
        getattr(_Readers, kind)(src, table, pmd)
    _justifications(all_labels, pmd)
    _yaml_blocks(src, pmd)
    return pmd


def _table_kind(table: Table) -> str | None:
    for kind, columns in _TABLE_KINDS:
        if all(table.column(*kw) for kw in columns):
            return kind
    return None


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


class _Readers:
    """One reader per recognised table kind."""

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
                weight = _number(row.get(weight_col))
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


def _number(text: str) -> float | None:
    try:
        return float(strip_inline(text))
    except ValueError:
        return None


def _justifications(all_labels: list[Label], pmd: ProfileMd) -> None:
    """``- **<Category>:** why`` bullets after a "justification" label (03 §2.4)."""
    active = False
    for lab in all_labels:
        if not lab.in_item:
            active = "justification" in lab.key
            continue
        if active:
            pmd.justifications[slugify(lab.label)] = lab


def _yaml_blocks(src: Source, pmd: ProfileMd) -> None:
    for block in src.doc.blocks:
        if block.kind != "code" or block.lang not in ("yaml", "yml"):
            continue
        data = yaml_block(src, block)
        if data is INVALID or not isinstance(data, dict):
            continue
        validation = data.get("profile_validation")
        if isinstance(validation, dict) and "intent" in validation:
            pmd.intent_promotion = validate_block(
                src, block, IntentPromotion, validation["intent"], ("profile_validation", "intent")
            )
        if "agent_configuration_schema" in data:
            pmd.agent_configuration_line = block.content_line
            pmd.agent_configuration_schema = validate_block(
                src,
                block,
                AgentConfigurationSchema,
                data["agent_configuration_schema"],
                ("agent_configuration_schema",),
            )
        if "reserved_scenarios" in data:
            pmd.reserved_scenarios = validate_block(
                src, block, ReservedScenarios, data["reserved_scenarios"], ("reserved_scenarios",)
            )
