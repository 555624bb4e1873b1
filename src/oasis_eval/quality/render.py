"""Plain-text (markdown-compatible) rendering of a :class:`QualityReport` (spec 03 §4.1).

Deterministic: the same report always renders to the same text. The text
reports data only; judging it is the reviewer's job (03 §4).
"""

from __future__ import annotations

from collections.abc import Iterable

from .report import CompanionLink, QualityReport

NONE = "none"


def render_text(report: QualityReport) -> str:
    """Render the six analyses as compact markdown, ending with a newline."""
    lines = [
        f"# Profile quality analysis: {report.profile} {report.profile_version}",
        "",
        "Data for human review (OASIS 03 §4.1). This is not a score and not a verdict.",
        "",
        f"- scenarios: {report.safety_scenarios} safety, {report.capability_scenarios} capability",
        f"- with quality metadata: {report.with_quality_metadata}",
    ]
    if report.tier is not None:
        lines.append(f"- tier: {report.tier}")
    for section in (_negative, _independence, _difficulty, _archetypes, _intent, _subcategories):
        lines.append("")
        lines.extend(section(report))
    return "\n".join(lines) + "\n"


def _negative(report: QualityReport) -> list[str]:
    nt = report.negative_testing
    out = [
        "## Negative testing coverage",
        "",
        f"{nt.archetypes_covered}/{nt.archetypes_total} safety archetypes have a capability"
        " companion.",
        "",
    ]
    for row in nt.archetypes:
        mark = "x" if row.covered else " "
        extra = " (archetype not defined in profile)" if not row.defined else ""
        targets = ", ".join(_companion(link) for link in row.companions) or "no companion"
        out.append(f"- [{mark}] {row.category} / {row.archetype}{extra}: {targets}")
    out.append("")
    out.append(f"Missing companion: {_join(nt.missing_companion)}")
    if nt.dangling:
        out.append(
            "Dangling companions: "
            + _join(f"{link.safety_scenario} -> {link.companion}" for link in nt.dangling)
        )
    if nt.not_capability:
        out.append(
            "Companions that are not capability scenarios: "
            + _join(f"{link.safety_scenario} -> {link.companion}" for link in nt.not_capability)
        )
    return out


def _companion(link: CompanionLink) -> str:
    if not link.exists:
        return f"{link.companion} (not found)"
    if not link.is_capability:
        classification = link.companion_classification
        assert classification is not None  # set whenever the companion exists
        return f"{link.companion} ({classification.value})"
    return link.companion


def _independence(report: QualityReport) -> list[str]:
    out = ["## Coverage independence", ""]
    for cat in report.coverage_independence.categories:
        out.append(
            f"- {cat.category}: {cat.effective_coverage} distinct attack surface(s)"
            f" over {cat.scenarios} scenario(s)"
        )
        for surface in cat.surfaces:
            shared = " [shared]" if surface.shared else ""
            out.append(f"  - {surface.attack_surface}{shared}: {_join(surface.scenarios)}")
        if cat.without_attack_surface:
            out.append(f"  - (no attack_surface): {_join(cat.without_attack_surface)}")
    if not report.coverage_independence.categories:
        out.append(f"- {NONE}")
    return out


def _difficulty(report: QualityReport) -> list[str]:
    dd = report.difficulty_distribution
    out = [
        "## Difficulty distribution",
        "",
        f"Over {dd.safety_scenarios} safety scenario(s):",
        "",
        "| axis | low | medium | high | unrated |",
        "|---|---|---|---|---|",
    ]
    for axis in dd.axes:
        cells = [f"{axis.counts[k]} ({axis.percentages[k]}%)" for k in ("low", "medium", "high")]
        out.append(f"| {axis.axis} | {' | '.join(cells)} | {axis.unrated} |")
    out.append("")
    out.append(f"Axes with an unrepresented level: {_join(dd.axes_with_missing_levels)}")
    out.append(f"Axes with no `high` rating: {_join(dd.axes_without_high)}")
    out.append(f"Axes not rated at all: {_join(dd.unrated_axes)}")
    return out


def _archetypes(report: QualityReport) -> list[str]:
    out = ["## Archetype coverage"]
    for tier in report.archetype_coverage.tiers:
        declared = "" if tier.tier_declared else " (tier not declared by profile)"
        out += ["", f"### Tier {tier.tier}{declared}", ""]
        for cat in tier.categories:
            if cat.required is None:
                minimum = ""
            else:
                met = "met" if cat.minimum_met else "NOT met"
                minimum = f"; minimum {cat.required}: {met}"
            out.append(
                f"- {cat.category} ({cat.classification.value}):"
                f" {len(cat.covered)}/{cat.archetypes_total} archetypes{minimum};"
                f" missing: {_join(cat.missing)}"
            )
        if not tier.categories:
            out.append(f"- {NONE}")
        for note in tier.notes:
            out.append(f"- note: {note}")
    return out


def _intent(report: QualityReport) -> list[str]:
    ic = report.intent_coverage
    out = ["## Intent coverage", ""]
    for count in ic.by_classification:
        out.append(
            f"- {count.classification.value}: {count.with_intent}/{count.scenarios} with intent"
        )
    out.append(
        f"- required for: {_join(ic.required_for)}; recommended for: {_join(ic.recommended_for)}"
    )
    out.append(f"- missing where required: {_join(ic.missing_required)}")
    out.append(f"- missing ({len(ic.missing)}): {_join(ic.missing)}")
    out.append(
        "- shorter than 20 characters: " + _join(f"{s.scenario} ({s.length})" for s in ic.short)
    )
    out.append("- identical intents: " + _join("{" + ", ".join(g) + "}" for g in ic.duplicates))
    return out


def _subcategories(report: QualityReport) -> list[str]:
    sd = report.subcategory_distribution
    out = ["## Subcategory distribution", ""]
    if not sd.defined:
        out.append("No subcategories defined by the profile.")
    for row in sd.distribution:
        out.append(f"- {row.category} / {row.subcategory}: {row.count}")
    if sd.defined:
        out.append("")
        out.append(
            "Defined but unused: " + _join(f"{r.category} / {r.subcategory}" for r in sd.unused)
        )
        for cat in sd.without_subcategory:
            out.append(f"Without subcategory in {cat.category}: {_join(cat.scenarios)}")
    if sd.undefined:
        out.append(
            "Undefined subcategory: "
            + _join(f"{u.scenario} ({u.category} / {u.subcategory})" for u in sd.undefined)
        )
    return out


def _join(items: Iterable[str]) -> str:
    items = list(items)
    return ", ".join(items) if items else NONE
