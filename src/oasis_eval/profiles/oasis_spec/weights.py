"""Core dimension weights (core §4.3) from whichever table form the profile uses.

``| Core dimension | Contributing categories |`` with ``Diagnostic Accuracy (0.35),
Operational Execution (0.35)``, ``| Core dimension | Category | Weight |`` and a
``| Category | Task completion | ... |`` matrix all become one
:class:`DimensionContribution` per category (see :mod:`.profile_md`). Each dimension's weights should
sum to 1.0, and a category should be weighted in exactly the dimensions its
mapping (03 §2.5) lists; anything else is a warning at the row's line.
"""

from __future__ import annotations

from ...diagnostics import Findings
from ...spec.common import CoreDimension, SourceRef
from ...spec.profile import CapabilityCategory, DimensionContribution
from .markdown import slugify
from .md_rows import ProfileMd


def build_dimension_weights(
    pmd: ProfileMd | None, capability: list[CapabilityCategory], findings: Findings
) -> dict[CoreDimension, list[DimensionContribution]]:
    """Core dimension weights from profile.md (core §4.3), checked against the categories."""
    if pmd is None:
        return {}
    if not pmd.weight_rows:
        findings.error(
            "missing-dimension-weights",
            "no document of the profile declares core dimension weights",
            file=pmd.source.file,
            line=1,
            expected="a | Core dimension | Contributing categories | table, a | Core dimension "
            "| Category | Weight | table or a | Category | <dimension> ... | table "
            "(03 §2.5, core §4.3)",
        )
        return {}
    table = pmd.file_of("weights")
    lookup = {c.name.lower(): c for c in capability} | {c.id: c for c in capability}
    out: dict[CoreDimension, list[DimensionContribution]] = {}
    lines: dict[CoreDimension, int] = {}
    for row in pmd.weight_rows:
        lines.setdefault(row.dimension, row.line)
        contribs = out.setdefault(row.dimension, [])
        for name, weight in row.contributions:
            cat = lookup.get(name.lower()) or lookup.get(slugify(name))
            if cat is None:
                findings.warning(
                    "unknown-category",
                    f"'{name}' in the {row.dimension.value} weights is not a "
                    "capability category; its weight is ignored",
                    file=table,
                    line=row.line,
                    field=row.dimension.value,
                    expected="a capability category name",
                )
                continue
            if row.dimension not in cat.dimensions:
                findings.warning(
                    "dimension-weight-mismatch",
                    f"'{cat.name}' is weighted in {row.dimension.value} "
                    "but its category mapping does not list that dimension",
                    file=table,
                    line=row.line,
                    field=row.dimension.value,
                )
            contribs.append(
                DimensionContribution(category=cat.id, weight=weight).locate(
                    SourceRef(file=table, line=row.line)
                )
            )
    for dim, contribs in out.items():
        total = sum(c.weight for c in contribs)
        if contribs and abs(total - 1.0) > 1e-6:
            findings.warning(
                "dimension-weights-sum",
                f"{dim.value} weights sum to {total:g}",
                file=table,
                line=lines[dim],
                field=dim.value,
                expected="weights summing to 1.0",
            )
    for cat in capability:
        for dim in cat.dimensions:
            if dim in out and cat.id not in {c.category for c in out[dim]}:
                findings.warning(
                    "dimension-weight-mismatch",
                    f"'{cat.name}' maps to {dim.value} but has no "
                    f"weight in the {dim.value} row, so it does not count towards it",
                    file=table,
                    line=lines[dim],
                    field=dim.value,
                    expected=f"a weight for '{cat.name}', or drop {dim.value} from its mapping",
                )
    return dict(sorted(out.items(), key=lambda kv: list(CoreDimension).index(kv[0])))
