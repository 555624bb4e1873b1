"""View of the capability summary (spec 05 §2.4; core §4.3) and the coverage matrix (05 §2.5).

The capability summary exists only when the verdict has a ``capability``
block (05 §1: only after a safety PASS). The complexity tier is shown beside
every score, with the statement 05 §2.4 mandates.
"""

from __future__ import annotations

from ..engine.record import RunRecord
from ..evaluation.results import ScenarioResult, ScenarioState
from ..spec.common import CoreDimension, VerdictStatus
from .blocks import (
    Block,
    Cell,
    bullets,
    callout,
    cell,
    code,
    fmt_conditions,
    fmt_num,
    fmt_score,
    one_line,
    para,
    plural,
    section,
    table,
    yes_no,
)
from .view_safety import (
    CAPABILITY,
    SAFETY,
    by_category,
    in_state,
    na_ratio_text,
    na_share,
    of_phase,
    unevaluated_reason,
)

#: mandated verbatim by 05 §2.4
TIER_STATEMENT = "Scores are only comparable between evaluations at the same tier."


def capability_section(record: RunRecord) -> Block | None:
    """The capability section (05 §3: score, dimensions, categories), or None without one."""
    capability = record.verdict.capability
    if capability is None:
        return None
    tier = capability.tier
    score_col = f"Score (tier {tier})"
    cov = capability.coverage
    executed = in_state(of_phase(record, CAPABILITY), ScenarioState.executed)
    by_cat = by_category(executed)

    summaries = {c.id: c for c in record.categories}
    category_rows = []
    for name, result in capability.domain_categories.items():
        summary = summaries.get(name)
        category_rows.append(
            [
                code(name),
                summary.name if summary and summary.name else "-",
                cell(fmt_score(result.score), strong=True),
                str(result.archetypes_evaluated),
                _archetype_breakdown(by_cat.get(name, [])),
                ", ".join(result.maps_to_dimensions) or "-",
                one_line(summary.aggregation) if summary and summary.aggregation else "-",
            ]
        )
    dimension_rows = []
    for dim in CoreDimension:
        score = getattr(capability.core_dimensions, dim.value)
        dimension_rows.append(
            [
                code(dim.value),
                cell(fmt_score(score), strong=True)
                if score is not None
                else cell("not scored", tone="muted"),
                _contributors(record, dim.value),
            ]
        )
    scenario_rows = []
    for s in executed:
        if s.status is VerdictStatus.PROVIDER_FAILURE:
            why = cell("Runtime fault: " + one_line(s.fault or "not recorded", 200), tone="pf")
            scenario_rows.append(
                [
                    code(s.scenario_id),
                    one_line(s.description or s.name, 100),
                    code(s.category),
                    code(s.archetype),
                    cell("-"),
                    "-",
                    why,
                ]
            )
            continue
        scenario_rows.append(
            [
                code(s.scenario_id),
                one_line(s.description or s.name, 100),
                code(s.category),
                code(s.archetype),
                cell(fmt_score(s.score), strong=True),
                s.band or "-",
                one_line(s.band_reason or "", 200) or "-",
            ]
        )
    return section(
        "capability",
        "Capability summary",
        [
            callout(
                "info",
                f"Complexity tier {tier}",
                [
                    cell(
                        f"Every score in this section was measured at complexity tier {tier}.",
                        strong=True,
                    ),
                    cell(TIER_STATEMENT, strong=True),
                ],
            ),
            para(
                f"Capability coverage: {cov.evaluated_archetypes} of {cov.required_archetypes} "
                f"required archetypes evaluated ({'complete' if cov.complete else 'INCOMPLETE'})."
            ),
            section(
                "capability-categories",
                "Domain categories",
                [
                    table(
                        [
                            "Category",
                            "Name",
                            score_col,
                            "Archetypes evaluated",
                            "Archetype breakdown",
                            "Maps to core dimensions",
                            "Aggregation",
                        ],
                        category_rows,
                        empty="No domain category scored.",
                    ),
                ],
            ),
            section(
                "capability-dimensions",
                "Core dimensions",
                [
                    table(
                        ["Dimension", score_col, "Contributing categories (weight)"], dimension_rows
                    ),
                    para(
                        "Each dimension aggregates the categories mapped to it, using the weights the "
                        "domain profile declares."
                        if record.dimension_weights
                        else "Each dimension aggregates the categories mapped to it. The run record carries "
                        "no dimension weights, so the weights the profile declares are not shown."
                    ),
                ],
            ),
            section(
                "capability-scenarios",
                "Per-scenario scores",
                [
                    table(
                        [
                            "Scenario",
                            "Description",
                            "Category",
                            "Archetype",
                            score_col,
                            "Rubric band",
                            "Why this band",
                        ],
                        scenario_rows,
                        empty="No capability scenario was executed.",
                    ),
                ],
            ),
        ],
    )


def _contributors(record: RunRecord, dimension: str) -> str:
    """The categories feeding ``dimension`` with the profile's weights (05 §2.4)."""
    capability = record.verdict.capability
    scored = capability.domain_categories if capability is not None else {}
    weights = record.dimension_weights.get(dimension)
    if weights:
        parts = []
        for category, weight in weights.items():
            note = "" if category in scored else ", not scored"
            parts.append(f"{category} (weight {fmt_num(weight, 4)}{note})")
        return "; ".join(parts)
    mapped = [name for name, result in scored.items() if dimension in result.maps_to_dimensions]
    if not mapped:
        return "no category maps here"
    suffix = " (no weight recorded)" if not record.dimension_weights else " (weight not declared)"
    return "; ".join(f"{name}{suffix}" for name in mapped)


def _archetype_breakdown(results: list[ScenarioResult]) -> str:
    groups: dict[str, list[str]] = {}
    for s in results:
        groups.setdefault(s.archetype, []).append(
            f"{s.scenario_id} {fmt_score(s.score)}" if s.score is not None else s.scenario_id
        )
    return "; ".join(f"{arch}: {', '.join(items)}" for arch, items in groups.items()) or "-"


# ---- coverage matrix --------------------------------------------------------------------


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


def _matrix_categories(
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


def coverage_section(record: RunRecord) -> Block:
    """The coverage section: archetype matrix, configuration coverage and skipped archetypes."""
    meta = record.verdict.metadata
    config_cov = meta.configuration_coverage
    matrix_rows = []
    computed_warnings = []
    #: justification key -> bullet cells for the "Archetypes skipped" list
    unevaluated: dict[str, list[Cell]] = {key: [] for key, _ in _JUSTIFICATIONS}
    undefined_note = False
    for phase, category, name, defined, results in _matrix_categories(record):
        in_suite = list(dict.fromkeys(s.archetype for s in results))
        evaluated = list(
            dict.fromkeys(s.archetype for s in in_state(results, ScenarioState.executed))
        )
        if defined is None:
            archetypes = in_suite
            defined_text = f"{len(archetypes)}: {', '.join(archetypes)} (as found in the suite)"
            undefined_note = True
        else:
            archetypes = defined + [a for a in in_suite if a not in defined]
            defined_text = f"{len(defined)}: {', '.join(defined)}" if defined else "0"
            extra = [a for a in in_suite if a not in defined]
            if extra:
                defined_text += f"; also in the suite: {', '.join(extra)}"
        missing = [
            f"{arch} ({_why_not(record, results, arch)})"
            for arch in archetypes
            if arch not in evaluated
        ]
        for arch in archetypes:
            if arch in evaluated:
                continue
            for key, item in _unevaluated_items(record, results, category, arch):
                unevaluated[key].append(item)
        na, total = na_share(results)
        over = phase == SAFETY and total > 0 and na * 2 > total
        if over:
            computed_warnings.append(
                f"Safety category {category}: {na_ratio_text(na, total)} scenarios are "
                "NOT_APPLICABLE for this agent configuration, so most of the category "
                "was not evaluated."
            )
        matrix_rows.append(
            [
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
        )

    skipped_blocks: list[Block] = []
    for key, title in _JUSTIFICATIONS:
        if unevaluated[key]:
            skipped_blocks.append(para(f"{title} ({len(unevaluated[key])}):"))
            skipped_blocks.append(bullets(unevaluated[key]))
    if not skipped_blocks:
        skipped_blocks.append(para("Every archetype was evaluated."))

    na_rows = []
    na_results = in_state(record.scenarios, ScenarioState.not_applicable)
    na_by_cat = by_category(na_results)
    categories = list(config_cov.not_applicable_by_category) + [
        c for c in na_by_cat if c not in config_cov.not_applicable_by_category
    ]
    for category in categories:
        results = na_by_cat.get(category, [])
        count = config_cov.not_applicable_by_category.get(category, len(results))
        conditions = list(
            dict.fromkeys(fmt_conditions(s.not_applicable_conditions) for s in results)
        )
        na_rows.append([code(category), str(count), " | ".join(conditions) or "-"])

    warnings = list(config_cov.warnings)
    for text in computed_warnings:
        category = text.split(":", 1)[0].removeprefix("Safety category ")
        if not any(category in w for w in warnings):
            warnings.append(text)

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
            matrix_rows,
            empty="No category and no scenario in this run.",
        ),
    ]
    if undefined_note:
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
            section("coverage-skipped", "Archetypes skipped", skipped_blocks),
            section(
                "coverage-minimum",
                "Minimum coverage for the claimed tier",
                _minimum_coverage(record),
            ),
            section(
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
                        na_rows,
                        empty="No scenario was excluded.",
                    ),
                ],
            ),
            section(
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
            ),
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
            else f"Phase 2 did not run (safety verdict {record.verdict.safety.value})"
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
