"""The category tables + the category sections -> safety and capability categories.

The category tables (in the main document, or wherever the author wrote them) are
authoritative for a category's core mapping (03 §2.4), core dimensions and aggregation
(03 §2.5); the category sections, in any document, contribute archetypes, core questions,
descriptions, and the mapping itself when no table gives it (``**Core mapping:**`` lines).
Every disagreement between the two is a warning naming both places; the table wins.
"""

from __future__ import annotations

from ...diagnostics import Findings
from ...spec.common import CoreDimension, CoreSafetyCategory, SourceRef
from ...spec.profile import (
    Aggregation,
    AggregationMethod,
    CapabilityCategory,
    SafetyCategory,
)
from .aggregation import ParsedAggregation, describe, parse_aggregation, same_aggregation
from .categories import CategoriesFile, ParsedCategory
from .core_terms import parse_core_mapping, parse_dimensions
from .markdown import Label, strip_inline
from .md_rows import CapabilityRow, ProfileMd, SafetyRow

PROFILE = "profile.md"
_CORE_CATEGORIES = (
    "one of " + ", ".join(c.value for c in CoreSafetyCategory) + " or Domain-specific"
)
_CORE_DIMENSIONS = "one of " + ", ".join(d.value for d in CoreDimension)


_DIMENSION_LABELS = ("core dimension mapping", "core dimensions")


def by_id(cfs: list[CategoriesFile]) -> dict[str, ParsedCategory]:
    """The categories of every document by id; the first definition of an id wins."""
    out: dict[str, ParsedCategory] = {}
    for cf in cfs:
        for cid, cat in cf.by_id().items():
            out.setdefault(cid, cat)
    return out


def _names(items: list[str]) -> str:
    return ", ".join(items) if items else "domain-specific (none)"


def build_safety(
    pmd: ProfileMd | None, cfs: list[CategoriesFile], findings: Findings
) -> list[SafetyCategory]:
    """Safety categories from the mapping table (authoritative, 03 §2.4) and the category
    sections, wherever each is written."""
    parsed = by_id(cfs)
    rows = {r.id: r for r in pmd.safety_rows} if pmd else {}
    cf_file = cfs[0].source.file if cfs else "safety-categories.md"
    table = pmd.file_of("safety") if pmd else PROFILE
    if pmd is not None and not rows and not any(c.label("core mapping") for c in parsed.values()):
        findings.error(
            "missing-safety-mapping",
            "the profile maps no safety category to the core categories",
            file=pmd.source.file,
            line=1,
            expected="a | Category | Core mapping | or | Core category | Profile category | "
            "table, or a '**Core mapping:**' line per category (03 §2.4)",
        )
    out: list[SafetyCategory] = []
    for cid in [*rows, *(c for c in parsed if c not in rows)]:
        row, cat = rows.get(cid), parsed.get(cid)
        cat_file = cat.file if cat else cf_file
        if cat is None and cfs:
            assert row is not None
            findings.error(
                "missing-category-definition",
                f"safety category '{row.name}' is mapped here but not defined in {cf_file}",
                file=table,
                line=row.line,
                field=cid,
                expected=f"a '## N. {row.name}' section with archetypes in {cf_file}",
            )
        mapping = _core_mapping(cid, row, cat, bool(rows), cat_file, table, findings)
        name = _display_name(row, cat)
        sc = SafetyCategory(
            id=cid,
            name=name,
            core_mapping=mapping,
            archetypes=cat.archetypes if cat else [],
            core_question=_label(cat, "core question"),
            description=cat.description if cat else "",
        )
        if pmd is not None:
            just = pmd.justifications.get(cid)
            sc.justification = strip_inline(just.value) if just else ""
        if row and cat and row.archetypes is not None and row.archetypes != len(cat.archetypes):
            _count_mismatch(findings, row.name, row.line, row.archetypes, cat, table)
        out.append(sc.locate(_where(row, cat, table)))
    if pmd is not None:
        _unknown_justifications(pmd, set(parsed) | set(rows), findings)
    return out


def _core_mapping(
    cid: str,
    row: SafetyRow | None,
    cat: ParsedCategory | None,
    listed: bool,
    cf_file: str,
    table: str,
    findings: Findings,
) -> list[CoreSafetyCategory]:
    """profile.md's core mapping of a category (its file's own when profile.md lacks the row);
    unknown core categories, an unlisted category and a disagreement become findings."""
    lab = cat.label("core mapping") if cat else None
    own, unknown = parse_core_mapping(lab.value) if lab else ([], [])
    for part in unknown:
        findings.error(
            "unknown-core-category",
            f"'{part}' is not a core safety category",
            file=cf_file,
            line=lab.line if lab else None,
            field=cid,
            expected=_CORE_CATEGORIES,
        )
    if row is None:
        assert cat is not None
        if listed:
            findings.warning(
                "unlisted-category",
                f"safety category '{cat.name}' is not in profile.md's "
                "safety category mapping table",
                file=cf_file,
                line=cat.line,
                field=cid,
                expected="a row for it in profile.md's mapping table",
            )
        return own
    mapping = row.core_mapping
    if lab and not unknown and set(own) != set(mapping):
        findings.warning(
            "core-mapping-mismatch",
            f"core mapping of '{row.name}' differs: {table}:"
            f"{row.line} says {_names([m.value for m in mapping])}; this file says "
            f"{_names([m.value for m in own])}; {table} wins",
            file=cf_file,
            line=lab.line,
            field=cid,
        )
    return mapping


def _unknown_justifications(pmd: ProfileMd, known: set[str], findings: Findings) -> None:
    """A warning for each profile.md justification naming no category."""
    for cid, lab in sorted(pmd.justifications.items()):
        if cid not in known:
            findings.warning(
                "unknown-category",
                f"justification for unknown category '{lab.label}'",
                file=pmd.source.file,
                line=lab.line,
                expected="a category of the mapping table",
            )


def build_capability(
    pmd: ProfileMd | None, cfs: list[CategoriesFile], findings: Findings
) -> list[CapabilityCategory]:
    """Capability categories from the category table (authoritative, 03 §2.5) and the
    category sections, wherever each is written."""
    parsed = by_id(cfs)
    rows = {r.id: r for r in pmd.capability_rows} if pmd else {}
    cf_file = cfs[0].source.file if cfs else "capability-categories.md"
    table = pmd.file_of("capability") if pmd else PROFILE
    if (
        pmd is not None
        and not rows
        and not any(c.label(*_DIMENSION_LABELS) for c in parsed.values())
    ):
        findings.error(
            "missing-capability-table",
            "the profile maps no capability category to the core dimensions",
            file=pmd.source.file,
            line=1,
            expected="a | Category | Core dimension mapping | Aggregation | table, or "
            "'**Core dimension mapping:**' and '**Aggregation:**' lines per category (03 §2.5)",
        )
    out: list[CapabilityCategory] = []
    for cid in [*rows, *(c for c in parsed if c not in rows)]:
        row, cat = rows.get(cid), parsed.get(cid)
        cat_file = cat.file if cat else cf_file
        archetypes = cat.archetypes if cat else []
        if cat is None and cfs:
            assert row is not None
            findings.error(
                "missing-category-definition",
                f"capability category '{row.name}' is listed here but not defined in {cf_file}",
                file=table,
                line=row.line,
                field=cid,
                expected=f"a '## N. {row.name}' section with archetypes in {cf_file}",
            )
        dims = _core_dimensions(cid, row, cat, bool(rows), cat_file, table, findings)
        agg = _aggregation(
            row.aggregation if row else "",
            row.line if row else None,
            cat,
            archetypes,
            (cat_file, table),
            cid,
            findings,
        )
        if row and cat and row.archetypes is not None and row.archetypes != len(cat.archetypes):
            _count_mismatch(findings, row.name, row.line, row.archetypes, cat, table)
        name = _display_name(row, cat)
        cc = CapabilityCategory(
            id=cid,
            name=name,
            dimensions=dims,
            aggregation=agg,
            archetypes=archetypes,
            core_question=_label(cat, "core question"),
        )
        out.append(cc.locate(_where(row, cat, table)))
    return out


def _core_dimensions(
    cid: str,
    row: CapabilityRow | None,
    cat: ParsedCategory | None,
    listed: bool,
    cf_file: str,
    table: str,
    findings: Findings,
) -> list[CoreDimension]:
    """profile.md's core dimensions of a category (its file's own when profile.md lacks the row);
    unknown dimensions, an unlisted category and a disagreement become findings."""
    dim_lab = cat.label("core dimension mapping", "core dimensions") if cat else None
    own_dims, unknown = parse_dimensions(dim_lab.value) if dim_lab else ([], [])
    for part in unknown:
        findings.error(
            "unknown-core-dimension",
            f"'{part}' is not a core capability dimension",
            file=cf_file,
            line=dim_lab.line if dim_lab else None,
            field=cid,
            expected=_CORE_DIMENSIONS,
        )
    if row is None:
        assert cat is not None
        if listed:
            findings.warning(
                "unlisted-category",
                f"capability category '{cat.name}' is not in profile.md's "
                "capability category table",
                file=cf_file,
                line=cat.line,
                field=cid,
            )
        return own_dims
    dims = row.dimensions
    if dim_lab and not unknown and set(own_dims) != set(dims):
        findings.warning(
            "dimension-mapping-mismatch",
            f"core dimensions of '{row.name}' differ: "
            f"{table}:{row.line} says {', '.join(d.value for d in dims)}; "
            f"this file says {', '.join(d.value for d in own_dims)}; {table} wins",
            file=cf_file,
            line=dim_lab.line,
            field=cid,
        )
    return dims


def _display_name(row: SafetyRow | CapabilityRow | None, cat: ParsedCategory | None) -> str:
    """profile.md's name wins; a category only its own file defines keeps that name."""
    if row:
        return row.name
    assert cat is not None  # every id comes from profile.md's rows or the categories file
    return cat.name


def _aggregation(
    text: str,
    line: int | None,
    cat: ParsedCategory | None,
    archetypes: list,
    files: tuple[str, str],
    cid: str,
    findings: Findings,
) -> Aggregation:
    cf_file, table = files
    primary = _read_agg(text, archetypes, table, line, cid, findings) if text else None
    lab: Label | None = cat.label("aggregation") if cat else None
    secondary = _read_agg(lab.value, archetypes, cf_file, lab.line, cid, findings) if lab else None
    a = primary.aggregation if primary else None
    b = secondary.aggregation if secondary else None
    if a and b and not same_aggregation(a, b):
        findings.warning(
            "aggregation-mismatch",
            f"aggregation of '{cid}' differs: {table}:{line} says "
            f"'{a.text}' ({describe(a)}); this file says '{b.text}' ({describe(b)}); "
            f"{table} wins",
            file=cf_file,
            line=lab.line if lab else None,
            field=cid,
            expected="the same aggregation in both files",
        )
    if agg := a or b:
        return agg
    findings.error(
        "missing-aggregation",
        f"capability category '{cid}' declares no aggregation method",
        file=table if line else cf_file,
        line=line or (cat.line if cat else None),
        field=cid,
        expected="'Minimum' or 'Weighted average (<archetype phrase> <factor>x)' (core §4.3)",
    )
    return Aggregation(method=AggregationMethod.weighted_average, text="")


def _read_agg(
    text: str, archetypes: list, file: str, line: int | None, cid: str, findings: Findings
) -> ParsedAggregation:
    parsed = parse_aggregation(text, archetypes)
    for phrase in parsed.unresolved:
        findings.warning(
            "unresolved-aggregation-phrase",
            f"'{phrase}' in aggregation '{strip_inline(text)}' "
            f"matches no archetype name of '{cid}'; its weight is ignored",
            file=file,
            line=line,
            field=cid,
            expected="words that begin the words of an archetype name, or an archetype id",
        )
    for problem in parsed.problems:
        findings.warning(
            "unparsed-aggregation",
            f"aggregation of '{cid}': {problem}",
            file=file,
            line=line,
            field=cid,
            expected="'Minimum' or 'Weighted average (<phrase> <factor>x)'",
        )
    return parsed


def _label(cat: ParsedCategory | None, key: str) -> str:
    lab = cat.label(key) if cat else None
    return strip_inline(lab.value) if lab else ""


def _count_mismatch(
    findings: Findings, name: str, line: int, stated: int, cat: ParsedCategory, table: str
) -> None:
    findings.warning(
        "archetype-count-mismatch",
        f"{table} says '{name}' has {stated} archetypes; "
        f"{cat.file}:{cat.line} defines {len(cat.archetypes)}",
        file=table,
        line=line,
        field=cat.id,
        expected=str(len(cat.archetypes)),
    )


def _ref(file: str, line: int | None) -> SourceRef:
    return SourceRef(file=file, line=line)


def _where(
    row: SafetyRow | CapabilityRow | None, cat: ParsedCategory | None, table: str
) -> SourceRef:
    """Where a merged category is defined: its category section, else its table row."""
    if cat is not None:
        return _ref(cat.file, cat.line)
    return _ref(table, row.line if row else None)
