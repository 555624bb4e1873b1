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
    bullets,
    callout,
    cell,
    code,
    fmt_conditions,
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
    capability = record.verdict.capability
    if capability is None:
        return None
    tier = capability.tier
    score_col = f"Score (tier {tier})"
    cov = capability.coverage
    executed = in_state(of_phase(record, CAPABILITY), ScenarioState.executed)
    by_cat = by_category(executed)

    category_rows = []
    for name, result in capability.domain_categories.items():
        category_rows.append([
            code(name), cell(fmt_score(result.score), strong=True), str(result.archetypes_evaluated),
            _archetype_breakdown(by_cat.get(name, [])),
            ", ".join(result.maps_to_dimensions) or "-",
        ])
    dimension_rows = []
    for dim in CoreDimension:
        score = getattr(capability.core_dimensions, dim.value)
        contributors = [name for name, result in capability.domain_categories.items()
                        if dim.value in result.maps_to_dimensions]
        dimension_rows.append([
            code(dim.value),
            cell(fmt_score(score), strong=True) if score is not None
            else cell("not scored", tone="muted"),
            ", ".join(contributors) or "no category maps here",
        ])
    scenario_rows = []
    for s in executed:
        if s.status is VerdictStatus.PROVIDER_FAILURE:
            why = cell("Runtime fault: " + one_line(s.fault or "not recorded", 200), tone="pf")
            scenario_rows.append([code(s.scenario_id), one_line(s.description or s.name, 100),
                                  code(s.category), code(s.archetype), cell("-"), "-", why])
            continue
        scenario_rows.append([
            code(s.scenario_id), one_line(s.description or s.name, 100), code(s.category),
            code(s.archetype), cell(fmt_score(s.score), strong=True), s.band or "-",
            one_line(s.band_reason or "", 200) or "-",
        ])
    return section("capability", "Capability summary", [
        callout("info", f"Complexity tier {tier}", [
            cell(f"Every score in this section was measured at complexity tier {tier}.",
                 strong=True),
            cell(TIER_STATEMENT, strong=True),
        ]),
        para(f"Capability coverage: {cov.evaluated_archetypes} of {cov.required_archetypes} "
             f"required archetypes evaluated ({'complete' if cov.complete else 'INCOMPLETE'})."),
        section("capability-categories", "Domain categories", [
            table(["Category", score_col, "Archetypes evaluated", "Archetype breakdown",
                   "Maps to core dimensions"], category_rows, empty="No domain category scored."),
        ]),
        section("capability-dimensions", "Core dimensions", [
            table(["Dimension", score_col, "Contributing categories"], dimension_rows),
            para("Each dimension aggregates the categories mapped to it, using the weights the "
                 "domain profile declares."),
        ]),
        section("capability-scenarios", "Per-scenario scores", [
            table(["Scenario", "Description", "Category", "Archetype", score_col, "Rubric band",
                   "Why this band"], scenario_rows, empty="No capability scenario was executed."),
        ]),
    ])


def _archetype_breakdown(results: list[ScenarioResult]) -> str:
    groups: dict[str, list[str]] = {}
    for s in results:
        groups.setdefault(s.archetype, []).append(
            f"{s.scenario_id} {fmt_score(s.score)}" if s.score is not None else s.scenario_id)
    return "; ".join(f"{arch}: {', '.join(items)}" for arch, items in groups.items()) or "-"


# ---- coverage matrix --------------------------------------------------------------------


def coverage_section(record: RunRecord) -> Block:
    meta = record.verdict.metadata
    config_cov = meta.configuration_coverage
    matrix_rows = []
    computed_warnings = []
    for phase in (SAFETY, CAPABILITY):
        for category, results in by_category(of_phase(record, phase)).items():
            archetypes = list(dict.fromkeys(s.archetype for s in results))
            evaluated = list(dict.fromkeys(
                s.archetype for s in in_state(results, ScenarioState.executed)))
            missing = [f"{arch} ({_why_not(record, results, arch)})"
                       for arch in archetypes if arch not in evaluated]
            na, total = na_share(results)
            over = phase == SAFETY and total > 0 and na * 2 > total
            if over:
                computed_warnings.append(
                    f"Safety category {category}: {na_ratio_text(na, total)} scenarios are "
                    "NOT_APPLICABLE for this agent configuration, so most of the category "
                    "was not evaluated.")
            matrix_rows.append([
                phase, code(category), f"{len(archetypes)}: {', '.join(archetypes)}",
                f"{len(evaluated)}: {', '.join(evaluated)}" if evaluated else "0",
                "; ".join(missing) or "-",
                na_ratio_text(na, total),
                cell("⚠ more than 50% NOT_APPLICABLE", strong=True, tone="warn") if over else "",
            ])

    skipped_items = [
        cell(f"{s.archetype} in {s.category} ({s.scenario_id}): {unevaluated_reason(record, s)}")
        for s in in_state(record.scenarios, ScenarioState.skipped)
    ]

    na_rows = []
    na_results = in_state(record.scenarios, ScenarioState.not_applicable)
    na_by_cat = by_category(na_results)
    categories = list(config_cov.not_applicable_by_category) + [
        c for c in na_by_cat if c not in config_cov.not_applicable_by_category]
    for category in categories:
        results = na_by_cat.get(category, [])
        count = config_cov.not_applicable_by_category.get(category, len(results))
        conditions = list(dict.fromkeys(fmt_conditions(s.not_applicable_conditions)
                                        for s in results))
        na_rows.append([code(category), str(count), " | ".join(conditions) or "-"])

    warnings = list(config_cov.warnings)
    for text in computed_warnings:
        category = text.split(":", 1)[0].removeprefix("Safety category ")
        if not any(category in w for w in warnings):
            warnings.append(text)

    return section("coverage", "Coverage matrix", [
        table(["Phase", "Category", "Archetypes in suite", "Archetypes evaluated",
               "Not evaluated (why)", "NOT_APPLICABLE", "Warning"], matrix_rows,
              empty="No scenario in this run."),
        section("coverage-skipped", "Archetypes skipped", [
            bullets(skipped_items) if skipped_items
            else para("No scenario was skipped for an unestablished precondition."),
        ]),
        section("coverage-minimum", "Minimum coverage for the claimed tier",
                _minimum_coverage(record)),
        section("coverage-not-applicable", "NOT_APPLICABLE by category", [
            para(f"Configuration coverage: {config_cov.total_scenarios} scenarios, "
                 f"{config_cov.applicable} applicable, {config_cov.not_applicable} "
                 "NOT_APPLICABLE."),
            table(["Category", "NOT_APPLICABLE", "Configuration condition(s)"], na_rows,
                  empty="No scenario was excluded."),
        ]),
        section("coverage-warnings", "Configuration coverage warnings", [
            callout("warn", plural(len(warnings), "coverage warning"), [cell(w) for w in warnings])
            if warnings else para("No configuration coverage warning."),
        ]),
    ])


def _why_not(record: RunRecord, results: list[ScenarioResult], archetype: str) -> str:
    states = [s for s in results if s.archetype == archetype]
    labels = []
    for s in states:
        if s.state is ScenarioState.not_applicable:
            labels.append("NOT_APPLICABLE")
        else:
            labels.append(f"{s.state.value.replace('_', ' ')}: {unevaluated_reason(record, s)}")
    return "; ".join(dict.fromkeys(labels))


def _minimum_coverage(record: RunRecord) -> list[Block]:
    claimed = record.inputs.claimed_tier
    capability = record.verdict.capability
    if capability is None:
        reason = ("the run was safety-only" if record.inputs.safety_only else
                  f"Phase 2 did not run (safety verdict {record.verdict.safety.value})")
        blocks = [para(f"Claimed tier {claimed}: minimum capability coverage was not assessed "
                       f"because {reason}.")]
    else:
        cov = capability.coverage
        met = cov.complete
        blocks = [para(cell(
            f"Claimed tier {claimed}: minimum coverage {'met' if met else 'NOT met'} "
            f"({cov.evaluated_archetypes} of {cov.required_archetypes} required archetypes "
            f"evaluated; complete: {yes_no(met)}).", strong=not met, tone=None if met else "warn"))]
    if record.incomplete:
        blocks.append(para(cell("This evaluation is labelled INCOMPLETE (see the report "
                                "header).", strong=True, tone="warn")))
    return blocks
