"""View of the safety summary (spec 05 §2.3, §2.3.1; core §3.2, §3.6).

Kept apart on purpose: provider failures (the harness broke), the Human Review
Required list (PASSes under non-zero tolerance) and NOT_APPLICABLE exclusions
(not a verdict at all) each get their own sub-section and are never mixed.
Scenarios that were not run, not selected or skipped are listed separately
too; none of them is ever shown as NOT_APPLICABLE.
"""

from __future__ import annotations

from collections.abc import Iterable

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
    fmt_num,
    fmt_pct,
    one_line,
    para,
    plural,
    section,
    status_cell,
    table,
)

#: mandated verbatim by 05 §2.3
NOT_APPLICABLE_STATEMENT = (
    "NOT_APPLICABLE scenarios are excluded from pass/fail counts. They indicate the scenario "
    "is not relevant to the agent's reported configuration, not that the agent passed."
)

SAFETY = "safety"
CAPABILITY = "capability"


# ---- shared helpers (also used by the other view modules) ---------------------------


def status_of(result: ScenarioResult) -> str | None:
    """A scenario's verdict status value, None when it has none (not executed)."""
    return result.status.value if result.status is not None else None


def aggregate(statuses: Iterable[str | None]) -> str:
    """Core §3.6: FAIL wins, then PROVIDER_FAILURE, otherwise PASS."""
    seen = set(statuses)
    if VerdictStatus.FAIL.value in seen:
        return VerdictStatus.FAIL.value
    if VerdictStatus.PROVIDER_FAILURE.value in seen:
        return VerdictStatus.PROVIDER_FAILURE.value
    return VerdictStatus.PASS.value


def by_category(results: Iterable[ScenarioResult]) -> dict[str, list[ScenarioResult]]:
    """Group by category in first-appearance order (the record's order is the profile's)."""
    groups: dict[str, list[ScenarioResult]] = {}
    for result in results:
        groups.setdefault(result.category, []).append(result)
    return groups


def of_phase(record: RunRecord, phase: str) -> list[ScenarioResult]:
    """The record's scenario results of ``phase`` (safety or capability)."""
    return [s for s in record.scenarios if s.classification == phase]


def in_state(results: Iterable[ScenarioResult], state: ScenarioState) -> list[ScenarioResult]:
    """The results in ``state``."""
    return [s for s in results if s.state is state]


def tolerance_cell(result: ScenarioResult) -> Cell:
    """core §3.2: a non-zero tolerance is shown prominently; overrides are marked."""
    text = fmt_pct(result.safety_tolerance)
    if result.tolerance_overridden:
        text += " (overridden by evaluator)"
    if result.safety_tolerance > 0:
        return cell(f"⚠ {text}", strong=True, tone="warn")
    return cell(text)


def deviation_text(result: ScenarioResult) -> str:
    """The measured deviation for the report; "-" when no tolerance applies."""
    if result.measured_deviation is None:
        return "-" if result.safety_tolerance == 0 else "not measured"
    text = fmt_pct(result.measured_deviation)
    return f"{text} ({result.deviation_measure})" if result.deviation_measure else text


def evidence_summary(result: ScenarioResult) -> Cell:
    """One line: what verification decided from, or the runtime fault."""
    if result.status is VerdictStatus.PROVIDER_FAILURE:
        return cell(
            "Runtime fault: " + one_line(result.fault or "not recorded", 200),
            strong=True,
            tone="pf",
        )
    total = len(result.assertions)
    failed = [a for a in result.assertions if not a.passed]
    if failed:
        first = failed[0]
        text = (
            f"{len(failed)} of {total} assertions violated: {one_line(first.expectation, 90)}"
            f" (rule {first.rule})"
        )
        if len(failed) > 1:
            text += f"; {len(failed) - 1} more"
    elif total:
        rules = ", ".join(dict.fromkeys(a.rule for a in result.assertions))
        text = f"all {plural(total, 'assertion')} satisfied (rules: {one_line(rules, 90)})"
    else:
        text = "no assertion evaluated"
    if result.agent_error:
        text += f"; agent error: {one_line(result.agent_error, 60)}"
    return cell(text, tone="fail" if failed else None)


def flags(result: ScenarioResult) -> Cell:
    """Marks a reader must not miss: human review, vacuous pass, custom scenario ..."""
    marks = []
    if result.human_review:
        marks.append("HUMAN REVIEW")
    if result.vacuous and result.status is VerdictStatus.PASS:
        marks.append("VACUOUS PASS")
    if result.custom:
        marks.append("custom scenario")
    if result.warnings:
        marks.append(f"{len(result.warnings)} warning(s)")
    if not marks:
        return cell("")
    return cell(", ".join(marks), strong=bool(result.human_review or result.vacuous), tone="warn")


# ---- the safety summary ---------------------------------------------------------------


def safety_section(record: RunRecord) -> Block:
    """The safety section (05 §2): the gate result, then per-category and per-scenario detail."""
    verdict = record.verdict
    details = verdict.safety_details
    blocks: list[Block] = [
        para(
            cell(
                f"Overall safety result: {verdict.safety.value}",
                strong=True,
                tone=STATUS_TONES[verdict.safety.value],
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
        blocks.append(
            section(
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
                            for f in details.provider_failures
                        ],
                    ),
                ],
            )
        )
    review = _human_review(record)
    if review is not None:
        blocks.append(review)
    blocks.append(_not_applicable(record))
    blocks.extend(_unevaluated(record))
    vacuous = [s for s in of_phase(record, SAFETY) if s.vacuous and s.status is VerdictStatus.PASS]
    if vacuous:
        blocks.append(
            section(
                "vacuous-passes",
                "Vacuous passes",
                [
                    para(
                        "These scenarios PASSed although the agent did nothing observable. The verdict "
                        "stands; check that inaction is really the behaviour being tested."
                    ),
                    bullets([code(s.scenario_id) for s in vacuous]),
                ],
            )
        )
    if record.inputs.tolerance_overrides:
        blocks.append(
            section(
                "tolerance-overrides",
                "Tolerance overrides",
                [
                    para("Safety tolerances set by the evaluating organization (core §3.2):"),
                    table(
                        ["Scenario", "Tolerance"],
                        [
                            [
                                code(sid),
                                cell(
                                    fmt_pct(value), strong=value > 0, tone="warn" if value else None
                                ),
                            ]
                            for sid, value in record.inputs.tolerance_overrides.items()
                        ],
                    ),
                ],
            )
        )
    return section("safety", "Safety summary", blocks)


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
                code(s.scenario_id),
                one_line(s.description or s.name, 120),
                code(s.category),
                code(s.archetype),
                status_cell(status_of(s)),
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
                status_cell(status_of(s)),
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
        out.append(
            section(
                sid,
                title,
                [
                    para(intro),
                    table(["Scenario", "Phase", "Category", "Archetype", "Reason"], rows),
                ],
            )
        )
    return out


def unevaluated_reason(record: RunRecord, s: ScenarioResult) -> str:
    """Why a scenario has no result, in one line."""
    meta = record.verdict.metadata
    if s.state is ScenarioState.skipped:
        parts = [s.skip_reason] if s.skip_reason else []
        if s.not_applicable_conditions:
            parts.append(fmt_conditions(s.not_applicable_conditions))
        return one_line(
            "; ".join(parts) or "precondition could not be established (no justification recorded)"
        )
    if s.skip_reason:
        return one_line(s.skip_reason)
    if s.state is ScenarioState.not_selected:
        if s.classification == CAPABILITY and record.inputs.safety_only:
            return "safety-only run"
        if record.inputs.filters:
            return "deselected by filters: " + ", ".join(record.inputs.filters)
        return "deselected for this run"
    if s.state is ScenarioState.not_run:
        if meta.aborted:
            return "run aborted before this scenario: " + one_line(meta.abort_reason or "")
        if s.classification == CAPABILITY and record.verdict.safety is not VerdictStatus.PASS:
            return f"Phase 2 not reached (safety verdict {record.verdict.safety.value})"
        return "not run"
    return ""


def na_share(results: list[ScenarioResult]) -> tuple[int, int]:
    """(not applicable, total) counts of ``results``."""
    return len(in_state(results, ScenarioState.not_applicable)), len(results)


def na_ratio_text(na: int, total: int) -> str:
    """ "na of total (p%)" for the report."""
    return f"{na} of {total} ({fmt_num(100.0 * na / total, 0) if total else '0'}%)"
