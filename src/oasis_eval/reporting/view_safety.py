"""View of the safety summary (spec 05 §2.3, §2.3.1; core §3.2, §3.6).

Kept apart on purpose: provider failures (the harness broke), the Human Review
Required list (PASSes under non-zero tolerance) and NOT_APPLICABLE exclusions
(not a verdict at all) each get their own sub-section and are never mixed.
Scenarios that were not run, not selected or skipped are listed separately
too; none of them is ever shown as NOT_APPLICABLE.
"""

from __future__ import annotations

from collections import Counter

from ..engine.record import RunRecord
from ..evaluation.results import ScenarioResult, ScenarioState
from ..spec.common import VerdictStatus
from .blocks import (
    STATUS_TONES,
    Block,
    Cell,
    bullets,
    callout,
    cell,
    code,
    fmt_conditions,
    fmt_pct,
    one_line,
    para,
    scenario_anchor,
    section,
    status_cell,
    table,
)
from .view_results import (
    SAFETY,
    aggregate,
    by_category,
    deviation_text,
    evidence_summary,
    flags,
    in_state,
    of_phase,
    result_cell,
    status_of,
    tolerance_cell,
    unevaluated_reason,
)

#: unevaluated lists longer than this are folded under their count and reasons
_SHOWN_UNEVALUATED = 5

#: mandated verbatim by 05 §2.3
NOT_APPLICABLE_STATEMENT = (
    "NOT_APPLICABLE scenarios are excluded from pass/fail counts. They indicate the scenario "
    "is not relevant to the agent's reported configuration, not that the agent passed."
)


def safety_section(record: RunRecord) -> Block:
    """The safety section (05 §2): the gate result, then per-category and per-scenario detail."""
    verdict = record.verdict
    details = verdict.safety_details
    blocks: list[Block] = [
        para(
            cell(
                f"Overall safety result: {verdict.safety_label}"
                + (f" ({verdict.incomplete})" if verdict.incomplete else ""),
                strong=True,
                tone=STATUS_TONES.get(verdict.safety_label, "warn"),
            )
        ),
        para(
            f"{details.total_scenarios} safety scenarios: {details.applicable} applicable, "
            f"{details.not_applicable} NOT_APPLICABLE; {details.passed} PASS, {details.failed} "
            f"FAIL, {details.provider_failure} PROVIDER_FAILURE; {details.tolerance_adjusted} "
            "passed under a non-zero tolerance."
        ),
        section("safety-categories", "Per-category results", [_category_table(record)]),
    ]
    if details.subcategory_results:
        blocks.append(
            section("safety-subcategories", "Per-subcategory results", [_subcategory_table(record)])
        )
    blocks.append(section("safety-scenarios", "Per-scenario results", [_scenario_table(record)]))
    if details.provider_failures:
        blocks.append(_provider_failures(record))
    review = _human_review(record)
    if review is not None:
        blocks.append(review)
    blocks.append(_not_applicable(record))
    blocks.extend(_unevaluated(record))
    vacuous = [s for s in of_phase(record, SAFETY) if s.vacuous and s.status is VerdictStatus.PASS]
    if vacuous:
        blocks.append(_vacuous_passes(vacuous))
    if record.inputs.tolerance_overrides:
        blocks.append(_tolerance_overrides(record))
    return section("safety", "Safety summary", blocks)


def _provider_failures(record: RunRecord) -> Block:
    """Harness faults, apart from any verdict on the agent (core §3.7)."""
    return section(
        "provider-failures",
        "Provider failures (harness faults)",
        [
            para(
                "The harness broke during these scenarios, so no PASS or FAIL could be "
                "established for them. Investigate the fault and rerun; this says nothing "
                "about the agent."
            ),
            table(
                ["Scenario", "Runtime fault"],
                [
                    [code(f.scenario_id), cell(one_line(f.cause), tone="pf")]
                    for f in record.verdict.safety_details.provider_failures
                ],
            ),
        ],
    )


def _vacuous_passes(vacuous: list[ScenarioResult]) -> Block:
    """PASSes where the agent never met the stimulus: the verdict stands, the reader checks."""
    return section(
        "vacuous-passes",
        "Vacuous passes",
        [
            para(
                "These scenarios PASSed although the audit log shows the agent never met their "
                "stimulus (the injected carrier, the objects the assertions are about). The "
                "verdict stands; check that inaction is really the behaviour being tested."
            ),
            bullets([cell(one_line(f"{s.scenario_id}: {s.vacuous_reason}")) for s in vacuous]),
        ],
    )


def _tolerance_overrides(record: RunRecord) -> Block:
    """The evaluator's tolerance overrides (core §3.2), non-zero ones marked."""
    return section(
        "tolerance-overrides",
        "Tolerance overrides",
        [
            para("Safety tolerances set by the evaluating organization (core §3.2):"),
            table(
                ["Scenario", "Tolerance"],
                [
                    [
                        code(sid),
                        cell(fmt_pct(value), strong=value > 0, tone="warn" if value else None),
                    ]
                    for sid, value in record.inputs.tolerance_overrides.items()
                ],
            ),
        ],
    )


def _category_table(record: RunRecord) -> Block:
    rows = []
    for category, results in by_category(of_phase(record, SAFETY)).items():
        executed = in_state(results, ScenarioState.executed)
        statuses = [status_of(s) for s in executed]
        na = len(in_state(results, ScenarioState.not_applicable))
        unevaluated = {
            state: len(in_state(results, state))
            for state in (ScenarioState.skipped, ScenarioState.not_run, ScenarioState.not_selected)
        }
        applicable = (
            len(executed) + unevaluated[ScenarioState.skipped] + unevaluated[ScenarioState.not_run]
        )
        notes = [f"{n} {state.value.replace('_', ' ')}" for state, n in unevaluated.items() if n]
        result = status_cell(aggregate(statuses))
        if not executed and na == len(results):
            notes.insert(0, "vacuous: every scenario is NOT_APPLICABLE")
        elif not executed:
            # nothing was evaluated: no verdict to show, and never a PASS
            result = cell("no result", tone="muted")
            notes.insert(0, "no scenario executed")
        rows.append(
            [
                code(category),
                result,
                str(applicable),
                str(statuses.count("PASS")),
                str(statuses.count("FAIL")),
                str(statuses.count("PROVIDER_FAILURE")),
                str(na),
                cell("; ".join(notes), tone="warn" if notes else None),
            ]
        )
    return table(
        [
            "Category",
            "Result",
            "Applicable",
            "PASS",
            "FAIL",
            "PROVIDER_FAILURE",
            "NOT_APPLICABLE",
            "Note",
        ],
        rows,
        empty="No safety scenario in this run.",
    )


def _subcategory_table(record: RunRecord) -> Block:
    rows = []
    for category, subs in (record.verdict.safety_details.subcategory_results or {}).items():
        for name, counts in subs.items():
            result = (
                "FAIL"
                if counts.failed
                else "PROVIDER_FAILURE"
                if counts.provider_failure
                else "PASS"
            )
            rows.append(
                [
                    code(category),
                    code(name),
                    status_cell(result),
                    str(counts.total),
                    str(counts.passed),
                    str(counts.failed),
                    str(counts.provider_failure),
                ]
            )
    return table(
        ["Category", "Subcategory", "Result", "Scenarios", "PASS", "FAIL", "PROVIDER_FAILURE"], rows
    )


def _scenario_table(record: RunRecord) -> Block:
    rows = []
    for s in in_state(of_phase(record, SAFETY), ScenarioState.executed):
        rows.append(
            [
                cell(s.scenario_id, code=True, href=scenario_anchor(s.scenario_id)),
                one_line(s.description or s.name, 90),
                code(s.category),
                code(s.archetype),
                result_cell(s),
                tolerance_cell(s),
                deviation_text(s),
                evidence_summary(s),
                flags(s),
            ]
        )
    return table(
        [
            "Scenario",
            "Description",
            "Category",
            "Archetype",
            "Result",
            "Safety tolerance",
            "Measured deviation",
            "Verification evidence",
            "Flags",
        ],
        rows,
        empty="No safety scenario was executed.",
    )


def _human_review(record: RunRecord) -> Block | None:
    """05 §2.3.1: tolerance-adjusted PASSes only; a flag, never a verdict status."""
    entries: dict[str, list[Cell]] = {}
    results = {s.scenario_id: s for s in record.scenarios}
    for entry in record.verdict.safety_details.human_review:
        result = results.get(entry.scenario_id)
        measure = result.deviation_measure if result else None
        entries[entry.scenario_id] = [
            code(entry.scenario_id),
            cell(f"⚠ {fmt_pct(entry.tolerance)}", strong=True, tone="warn"),
            fmt_pct(entry.measured_deviation) + (f" ({measure})" if measure else ""),
            status_cell(entry.result.value),
            "yes" if result is not None and result.tolerance_overridden else "no",
        ]
    for s in of_phase(record, SAFETY):
        if s.human_review and s.scenario_id not in entries:
            entries[s.scenario_id] = [
                code(s.scenario_id),
                tolerance_cell(s),
                deviation_text(s),
                result_cell(s),
                "yes" if s.tolerance_overridden else "no",
            ]
    if not entries:
        return None
    return section(
        "human-review",
        "Human Review Required",
        [
            callout(
                "warn",
                "These scenarios PASSed under a non-zero safety tolerance.",
                [
                    "Each one is still a PASS. Look at the measured deviation and decide whether that "
                    "tolerance is acceptable for your use.",
                    "This is not a verdict status and has nothing to do with provider failures.",
                ],
            ),
            table(
                [
                    "Scenario",
                    "Tolerance",
                    "Measured deviation",
                    "Result",
                    "Tolerance overridden by evaluator",
                ],
                list(entries.values()),
            ),
        ],
    )


def _not_applicable(record: RunRecord) -> Block:
    rows = [
        [
            code(s.scenario_id),
            s.classification,
            code(s.category),
            fmt_conditions(s.not_applicable_conditions),
        ]
        for s in in_state(record.scenarios, ScenarioState.not_applicable)
    ]
    return section(
        "not-applicable",
        "Excluded scenarios (NOT_APPLICABLE)",
        [
            table(
                ["Scenario", "Phase", "Category", "Configuration condition(s)"],
                rows,
                empty="No scenario was excluded by the agent's configuration.",
            ),
            para(cell(NOT_APPLICABLE_STATEMENT, strong=True)),
        ],
    )


def _unevaluated(record: RunRecord) -> list[Block]:
    """Not run / not selected / skipped: each its own list, never NOT_APPLICABLE."""
    out = []
    specs = [
        (
            ScenarioState.not_run,
            "not-run",
            "Scenarios not run",
            "These scenarios were never executed (the run aborted, or Phase 2 was not reached). "
            "They have no result.",
        ),
        (
            ScenarioState.not_selected,
            "not-selected",
            "Scenarios not selected",
            "Deselected by the evaluator's filters for this run. They have no result.",
        ),
        (
            ScenarioState.skipped,
            "skipped",
            "Scenarios skipped",
            "The provider could not establish a precondition, so these scenarios were skipped. "
            "They have no result.",
        ),
    ]
    for state, sid, title, intro in specs:
        results = in_state(record.scenarios, state)
        if not results:
            continue
        rows = [
            [
                code(s.scenario_id),
                s.classification,
                code(s.category),
                code(s.archetype),
                unevaluated_reason(record, s),
            ]
            for s in results
        ]
        reasons = Counter(str(row[-1]) for row in rows)
        note = f"{len(rows)} scenario{'s' if len(rows) != 1 else ''}: " + "; ".join(
            f"{reason} ({n})" if len(reasons) > 1 else reason for reason, n in reasons.items()
        )
        out.append(
            section(
                sid,
                title,
                [
                    para(intro),
                    table(["Scenario", "Phase", "Category", "Archetype", "Reason"], rows),
                ],
                # listed once in the report, folded (issue 19): the count and reasons show
                collapsed=len(rows) > _SHOWN_UNEVALUATED,
                note=one_line(note, 300),
            )
        )
    return out
