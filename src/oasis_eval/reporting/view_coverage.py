"""View of the coverage matrix (spec 05 §2.5): archetypes per category, what went
unevaluated and why, minimum coverage for the claimed tier, and configuration coverage.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from ..engine.record import RunRecord
from ..evaluation.results import ScenarioResult, ScenarioState
from .blocks import (
    Block,
    Cell,
    bullets,
    callout,
    cell,
    code,
    fmt_conditions,
    para,
    plural,
    section,
    table,
    yes_no,
)
from .view_results import (
    CAPABILITY,
    SAFETY,
    by_category,
    in_state,
    na_ratio_text,
    na_share,
    of_phase,
    unevaluated_reason,
)

#: why an archetype was not evaluated, in the order the report lists them (05 §2.5)
_JUSTIFICATIONS = [
    ("skipped", "Skipped: a precondition could not be established"),
    ("not_applicable", "Not applicable to the agent's configuration (NOT_APPLICABLE)"),
    ("not_selected", "Not selected for this run"),
    ("not_run", "Not run"),
    (
        "no_scenario",
        ("No scenario: the profile defines the archetype but the run had no scenario for it"),
    ),
]


def matrix_categories(
    record: RunRecord,
) -> list[tuple[str, str, str, list[str] | None, list[ScenarioResult]]]:
    """(phase, id, name, archetypes the profile defines or None, results) per category.

    Profile order first (the record's ``categories``), then any category that only
    the scenarios name (no profile definition recorded).
    """
    out: list[tuple[str, str, str, list[str] | None, list[ScenarioResult]]] = []
    for phase in (SAFETY, CAPABILITY):
        results_by_cat = by_category(of_phase(record, phase))
        defined = [c for c in record.categories if c.classification == phase]
        for c in defined:
            out.append((phase, c.id, c.name, list(c.archetypes), results_by_cat.get(c.id, [])))
        known = {c.id for c in defined}
        for category, results in results_by_cat.items():
            if category not in known:
                out.append((phase, category, "", None, results))
    return out


@dataclass
class _Matrix:
    """The archetype matrix and what building it found along the way."""

    rows: list[list[Cell]] = field(default_factory=list)
    #: "more than half NOT_APPLICABLE" warnings computed from the results
    warnings: list[str] = field(default_factory=list)
    #: justification key -> bullet cells for the "Archetypes skipped" list
    unevaluated: dict[str, list[Cell]] = field(
        default_factory=lambda: {key: [] for key, _ in _JUSTIFICATIONS}
    )
    #: a category had no profile definition recorded (its archetypes come from the suite)
    undefined: bool = False


def coverage_section(record: RunRecord) -> Block:
    """The coverage section: archetype matrix, configuration coverage and skipped archetypes."""
    matrix = _Matrix()
    for phase, category, name, defined, results in matrix_categories(record):
        matrix.rows.append(_matrix_row(record, matrix, phase, category, name, defined, results))
    matrix_blocks: list[Block] = [
        table(
            [
                "Phase",
                "Category",
                "Name",
                "Archetypes defined",
                "Archetypes evaluated",
                "Not evaluated (why)",
                "NOT_APPLICABLE",
                "Warning",
            ],
            matrix.rows,
            empty="No category and no scenario in this run.",
        ),
    ]
    if matrix.undefined:
        matrix_blocks.append(
            para(
                cell(
                    'For categories marked "as found in the suite" the run record carries no profile '
                    "definition, so archetypes the profile defines without a scenario cannot be shown.",
                    tone="muted",
                )
            )
        )
    return section(
        "coverage",
        "Coverage matrix",
        [
            *matrix_blocks,
            section("coverage-skipped", "Archetypes skipped", _skipped(matrix)),
            section(
                "coverage-minimum",
                "Minimum coverage for the claimed tier",
                _minimum_coverage(record),
            ),
            _not_applicable_by_category(record),
            _configuration_warnings(record, matrix),
        ],
    )


def _matrix_row(
    record: RunRecord,
    matrix: _Matrix,
    phase: str,
    category: str,
    name: str,
    defined: list[str] | None,
    results: list[ScenarioResult],
) -> list[Cell]:
    """One category's matrix row; its unevaluated archetypes and warning go into ``matrix``."""
    in_suite = list(dict.fromkeys(s.archetype for s in results))
    evaluated = list(dict.fromkeys(s.archetype for s in in_state(results, ScenarioState.executed)))
    if defined is None:
        archetypes = in_suite
        defined_text = f"{len(archetypes)}: {', '.join(archetypes)} (as found in the suite)"
        matrix.undefined = True
    else:
        archetypes = defined + [a for a in in_suite if a not in defined]
        defined_text = f"{len(defined)}: {', '.join(defined)}" if defined else "0"
        extra = [a for a in in_suite if a not in defined]
        if extra:
            defined_text += f"; also in the suite: {', '.join(extra)}"
    missing = _missing(record, results, [a for a in archetypes if a not in evaluated])
    for arch in archetypes:
        if arch in evaluated:
            continue
        for key, item in _unevaluated_items(record, results, category, arch):
            matrix.unevaluated[key].append(item)
    na, total = na_share(results)
    over = phase == SAFETY and total > 0 and na * 2 > total
    if over:
        matrix.warnings.append(
            f"Safety category {category}: {na_ratio_text(na, total)} scenarios are "
            "NOT_APPLICABLE for this agent configuration, so most of the category "
            "was not evaluated."
        )
    return [
        phase,
        code(category),
        name or "-",
        defined_text,
        f"{len(evaluated)}: {', '.join(evaluated)}"
        if evaluated
        else cell("0", strong=bool(archetypes), tone="warn" if archetypes else None),
        "; ".join(missing) or "-",
        na_ratio_text(na, total),
        cell("⚠ more than 50% NOT_APPLICABLE", strong=True, tone="warn") if over else "",
    ]


#: justifications whose scenarios the safety summary lists once (with the reason); the
#: coverage matrix only refers to that list instead of repeating it (issue 19)
_LISTED_ONCE = {
    "not_run": ("not-run", "Scenarios not run"),
    "not_selected": ("not-selected", "Scenarios not selected"),
}


def _missing(record: RunRecord, results: list[ScenarioResult], archetypes: list[str]) -> list[str]:
    """Unevaluated archetypes with why; archetypes listed once elsewhere are grouped by state."""
    grouped: dict[str, list[str]] = {}
    out = []
    for arch in archetypes:
        states = {s.state.value for s in results if s.archetype == arch}
        if len(states) == 1 and next(iter(states)) in _LISTED_ONCE:
            grouped.setdefault(next(iter(states)), []).append(arch)
        else:
            out.append(f"{arch} ({_why_not(record, results, arch)})")
    for state, archs in grouped.items():
        out.append(f"{state.replace('_', ' ')}: {', '.join(archs)}")
    return out


def _skipped(matrix: _Matrix) -> list[Block]:
    """The unevaluated archetypes, grouped by justification in the report's order (05 §2.5)."""
    blocks: list[Block] = []
    for key, title in _JUSTIFICATIONS:
        if key in _LISTED_ONCE and matrix.unevaluated[key]:
            sid, where = _LISTED_ONCE[key]
            blocks.append(
                para(
                    cell(
                        f"{title} ({len(matrix.unevaluated[key])}): each scenario and the reason "
                        f'are listed once, under "{where}" in the safety summary.',
                        href=sid,
                    )
                )
            )
            continue
        if matrix.unevaluated[key]:
            blocks.append(para(f"{title} ({len(matrix.unevaluated[key])}):"))
            blocks.append(bullets(matrix.unevaluated[key]))
    if not blocks:
        blocks.append(para("Every archetype was evaluated."))
    return blocks


def _not_applicable_by_category(record: RunRecord) -> Block:
    """NOT_APPLICABLE counts per category with the configuration conditions behind them."""
    config_cov = record.verdict.metadata.configuration_coverage
    rows = []
    na_by_cat = by_category(in_state(record.scenarios, ScenarioState.not_applicable))
    categories = list(config_cov.not_applicable_by_category) + [
        c for c in na_by_cat if c not in config_cov.not_applicable_by_category
    ]
    for category in categories:
        results = na_by_cat.get(category, [])
        count = config_cov.not_applicable_by_category.get(category, len(results))
        conditions = list(
            dict.fromkeys(fmt_conditions(s.not_applicable_conditions) for s in results)
        )
        rows.append([code(category), str(count), " | ".join(conditions) or "-"])
    return section(
        "coverage-not-applicable",
        "NOT_APPLICABLE by category",
        [
            para(
                f"Configuration coverage: {config_cov.total_scenarios} scenarios, "
                f"{config_cov.applicable} applicable, {config_cov.not_applicable} "
                "NOT_APPLICABLE."
            ),
            table(
                ["Category", "NOT_APPLICABLE", "Configuration condition(s)"],
                rows,
                empty="No scenario was excluded.",
            ),
        ],
    )


def _configuration_warnings(record: RunRecord, matrix: _Matrix) -> Block:
    """The recorded configuration coverage warnings, plus computed ones for other categories."""
    warnings = list(record.verdict.metadata.configuration_coverage.warnings)
    for text in matrix.warnings:
        category = text.split(":", 1)[0].removeprefix("Safety category ")
        if not any(category in w for w in warnings):
            warnings.append(text)
    return section(
        "coverage-warnings",
        "Configuration coverage warnings",
        [
            callout(
                "warn",
                plural(len(warnings), "coverage warning"),
                [cell(w) for w in warnings],
            )
            if warnings
            else para("No configuration coverage warning."),
        ],
    )


def _unevaluated_items(
    record: RunRecord, results: list[ScenarioResult], category: str, archetype: str
) -> list[tuple[str, Cell]]:
    """One bullet per reason an archetype went unevaluated, keyed by justification."""
    scenarios = [s for s in results if s.archetype == archetype]
    if not scenarios:
        return [("no_scenario", cell(f"{archetype} in {category}: no scenario in this run"))]
    groups: dict[str, list[ScenarioResult]] = {}
    for s in scenarios:
        if s.state is not ScenarioState.executed:
            groups.setdefault(s.state.value, []).append(s)
    items = []
    for state, group in groups.items():
        ids = ", ".join(s.scenario_id for s in group)
        if state == ScenarioState.not_applicable.value:
            why = " | ".join(
                dict.fromkeys(fmt_conditions(s.not_applicable_conditions) for s in group)
            )
        else:
            why = "; ".join(dict.fromkeys(unevaluated_reason(record, s) for s in group))
        items.append((state, cell(f"{archetype} in {category} ({ids}): {why}")))
    return items


def _why_not(record: RunRecord, results: list[ScenarioResult], archetype: str) -> str:
    states = [s for s in results if s.archetype == archetype]
    if not states:
        return "no scenario"
    labels = []
    for s in states:
        if s.state is ScenarioState.not_applicable:
            labels.append("NOT_APPLICABLE")
        else:
            labels.append(f"{s.state.value.replace('_', ' ')}: {unevaluated_reason(record, s)}")
    return "; ".join(dict.fromkeys(labels))


def coverage_gaps(record: RunRecord) -> list[str]:
    """The minimum-coverage gaps for the claimed tier, as the engine recorded them."""
    return list(record.coverage_gaps)


def _minimum_coverage(record: RunRecord) -> list[Block]:
    claimed = record.inputs.claimed_tier
    capability = record.verdict.capability
    gaps = coverage_gaps(record)
    blocks: list[Block] = []
    safety_gaps = [g for g in gaps if "safety" in g.lower()]
    if capability is None:
        reason = (
            "the run was safety-only"
            if record.inputs.safety_only
            else f"Phase 2 did not run (safety verdict {record.verdict.safety_label})"
        )
        safety_met = not gaps
        blocks.append(
            para(
                cell(
                    f"Claimed tier {claimed}: minimum safety archetype coverage "
                    f"{'met' if safety_met else 'NOT met'}; minimum capability coverage was not "
                    f"assessed because {reason}.",
                    strong=not safety_met,
                    tone=None if safety_met else "warn",
                )
            )
        )
    else:
        cov = capability.coverage
        met = cov.complete and not gaps
        blocks.append(
            para(
                cell(
                    f"Claimed tier {claimed}: minimum coverage {'met' if met else 'NOT met'} "
                    f"({cov.evaluated_archetypes} of {cov.required_archetypes} required capability "
                    f"archetypes evaluated; capability coverage complete: {yes_no(cov.complete)}; "
                    f"safety categories below the minimum: {len(safety_gaps)}).",
                    strong=not met,
                    tone=None if met else "warn",
                )
            )
        )
    if gaps:
        blocks.append(para("Coverage gaps recorded for this run:"))
        blocks.append(bullets([cell(g, tone="warn") for g in gaps]))
    if record.incomplete:
        blocks.append(
            para(
                cell(
                    "This evaluation is labelled INCOMPLETE (see the report header).",
                    strong=True,
                    tone="warn",
                )
            )
        )
    return blocks
