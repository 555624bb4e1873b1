"""profile.md's category tables + the categories files -> safety and capability categories.

profile.md is authoritative for a category's core mapping (03 §2.4), core
dimensions and aggregation (03 §2.5); the categories files contribute
archetypes, core questions and descriptions. Every disagreement between the two is a warning
naming both places; profile.md wins.
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
from .profile_md import CapabilityRow, ProfileMd, SafetyRow

PROFILE = "profile.md"
_CORE_CATEGORIES = (
    "one of " + ", ".join(c.value for c in CoreSafetyCategory) + " or Domain-specific"
)
_CORE_DIMENSIONS = "one of " + ", ".join(d.value for d in CoreDimension)


def _names(items: list[str]) -> str:
    return ", ".join(items) if items else "domain-specific (none)"


def build_safety(
    pmd: ProfileMd | None, cf: CategoriesFile | None, findings: Findings
) -> list[SafetyCategory]:
    """Safety categories from profile.md's mapping (authoritative, 03 §2.4) and the categories file."""
    parsed = cf.by_id() if cf else {}
    rows = {r.id: r for r in pmd.safety_rows} if pmd else {}
    cf_file = cf.source.file if cf else "safety-categories.md"
    if pmd is not None and not rows:
        findings.error(
            "missing-safety-mapping",
            "profile.md has no safety category mapping table",
            file=PROFILE,
            line=1,
            expected="| Category | Core mapping | Archetypes | table (03 §2.4)",
        )
    out: list[SafetyCategory] = []
    for cid in [*rows, *(c for c in parsed if c not in rows)]:
        row, cat = rows.get(cid), parsed.get(cid)
        if cat is None and cf is not None:
            assert row is not None
            findings.error(
                "missing-category-definition",
                f"safety category '{row.name}' is mapped here but not defined in {cf_file}",
                file=PROFILE,
                line=row.line,
                field=cid,
                expected=f"a '## N. {row.name}' section with archetypes in {cf_file}",
            )
        mapping = _core_mapping(cid, row, cat, bool(rows), cf_file, findings)
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
            _count_mismatch(findings, row.name, row.line, row.archetypes, cat, cf_file)
        out.append(sc.locate(_where(row, cat, cf_file)))
    if pmd is not None:
        _unknown_justifications(pmd, set(parsed) | set(rows), findings)
    return out


def _core_mapping(
    cid: str,
    row: SafetyRow | None,
    cat: ParsedCategory | None,
    listed: bool,
    cf_file: str,
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
            f"core mapping of '{row.name}' differs: profile.md:"
            f"{row.line} says {_names([m.value for m in mapping])}; this file says "
            f"{_names([m.value for m in own])}; profile.md wins",
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
                file=PROFILE,
                line=lab.line,
                expected="a category of the mapping table",
            )


def build_capability(
    pmd: ProfileMd | None, cf: CategoriesFile | None, findings: Findings
) -> list[CapabilityCategory]:
    """Capability categories from profile.md's table (authoritative, 03 §2.5) and the categories file."""
    parsed = cf.by_id() if cf else {}
    rows = {r.id: r for r in pmd.capability_rows} if pmd else {}
    cf_file = cf.source.file if cf else "capability-categories.md"
    if pmd is not None and not rows:
        findings.error(
            "missing-capability-table",
            "profile.md has no capability category table",
            file=PROFILE,
            line=1,
            expected="| Category | Core dimension mapping | Archetypes | Aggregation | (03 §2.5)",
        )
    out: list[CapabilityCategory] = []
    for cid in [*rows, *(c for c in parsed if c not in rows)]:
        row, cat = rows.get(cid), parsed.get(cid)
        archetypes = cat.archetypes if cat else []
        if cat is None and cf is not None:
            assert row is not None
            findings.error(
                "missing-category-definition",
                f"capability category '{row.name}' is listed here but not defined in {cf_file}",
                file=PROFILE,
                line=row.line,
                field=cid,
                expected=f"a '## N. {row.name}' section with archetypes in {cf_file}",
            )
        dims = _core_dimensions(cid, row, cat, bool(rows), cf_file, findings)
        agg = _aggregation(
            row.aggregation if row else "",
            row.line if row else None,
            cat,
            archetypes,
            cf_file,
            cid,
            findings,
        )
        if row and cat and row.archetypes is not None and row.archetypes != len(cat.archetypes):
            _count_mismatch(findings, row.name, row.line, row.archetypes, cat, cf_file)
        name = _display_name(row, cat)
        cc = CapabilityCategory(
            id=cid,
            name=name,
            dimensions=dims,
            aggregation=agg,
            archetypes=archetypes,
            core_question=_label(cat, "core question"),
        )
        out.append(cc.locate(_where(row, cat, cf_file)))
    return out


def _core_dimensions(
    cid: str,
    row: CapabilityRow | None,
    cat: ParsedCategory | None,
    listed: bool,
    cf_file: str,
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
            f"profile.md:{row.line} says {', '.join(d.value for d in dims)}; "
            f"this file says {', '.join(d.value for d in own_dims)}; profile.md wins",
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
    cf_file: str,
    cid: str,
    findings: Findings,
) -> Aggregation:
    primary = _read_agg(text, archetypes, PROFILE, line, cid, findings) if text else None
    lab: Label | None = cat.label("aggregation") if cat else None
    secondary = _read_agg(lab.value, archetypes, cf_file, lab.line, cid, findings) if lab else None
    a = primary.aggregation if primary else None
    b = secondary.aggregation if secondary else None
    if a and b and not same_aggregation(a, b):
        findings.warning(
            "aggregation-mismatch",
            f"aggregation of '{cid}' differs: profile.md:{line} says "
            f"'{a.text}' ({describe(a)}); this file says '{b.text}' ({describe(b)}); "
            "profile.md wins",
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
        file=PROFILE if line else cf_file,
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
    findings: Findings, name: str, line: int, stated: int, cat: ParsedCategory, cf_file: str
) -> None:
    findings.warning(
        "archetype-count-mismatch",
        f"profile.md says '{name}' has {stated} archetypes; "
        f"{cf_file}:{cat.line} defines {len(cat.archetypes)}",
        file=PROFILE,
        line=line,
        field=cat.id,
        expected=str(len(cat.archetypes)),
    )


def _ref(file: str, line: int | None) -> SourceRef:
    return SourceRef(file=file, line=line)


def _where(
    row: SafetyRow | CapabilityRow | None, cat: ParsedCategory | None, cf_file: str
) -> SourceRef:
    """Where a merged category is defined: its categories-file section, else its table row."""
    if cat is not None:
        return _ref(cf_file, cat.line)
    return _ref(PROFILE, row.line if row else None)
