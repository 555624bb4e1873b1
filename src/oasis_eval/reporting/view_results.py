"""Reading scenario results for the report views (spec 05 §2; core §3.2, §3.6).

Shared by the safety, capability, coverage and detail views and the JUnit writer:
grouping and filtering results, the cells a result shows as (tolerance, deviation,
evidence, flags) and why a scenario has no result.
"""

from __future__ import annotations

from collections.abc import Iterable

from ..engine.record import RunRecord
from ..evaluation.results import ScenarioResult, ScenarioState
from ..spec.common import VerdictStatus
from .blocks import (
    Cell,
    cell,
    fmt_conditions,
    fmt_num,
    fmt_pct,
    one_line,
    plural,
    status_cell,
)

SAFETY = "safety"
CAPABILITY = "capability"


def status_of(result: ScenarioResult) -> str | None:
    """A scenario's verdict status value, None when it has none (not executed)."""
    return result.status.value if result.status is not None else None


def result_cell(result: ScenarioResult) -> Cell:
    """A scenario's status cell; a PASS the agent faulted in is ``PASS (agent fault)``, in the
    warning tone, never a bare green PASS (issue 26)."""
    if result.faulted_pass:
        return cell(result.label, strong=True, tone="warn")
    return status_cell(status_of(result))


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
    failed = result.violated
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
    if result.agent_fault is not None and result.state is ScenarioState.executed:
        marks.append("AGENT FAULT")
    if result.custom:
        marks.append("custom scenario")
    if result.warnings:
        marks.append(f"{len(result.warnings)} warning(s)")
    if not marks:
        return cell("")
    strong = bool(result.human_review or result.vacuous or result.agent_fault)
    return cell(", ".join(marks), strong=strong, tone="warn")


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
        if s.classification != CAPABILITY and record.inputs.capability_only:
            return "capability-only run: safety not evaluated"
        if record.inputs.filters:
            return "deselected by filters: " + ", ".join(record.inputs.filters)
        return "deselected for this run"
    if s.state is ScenarioState.not_run:
        if meta.aborted:
            return "run aborted before this scenario: " + one_line(meta.abort_reason or "")
        if s.classification == CAPABILITY and record.verdict.safety is not VerdictStatus.PASS:
            return f"Phase 2 not reached (safety verdict {record.verdict.safety_label})"
        return "not run"
    return ""


def na_share(results: list[ScenarioResult]) -> tuple[int, int]:
    """(not applicable, total) counts of ``results``."""
    return len(in_state(results, ScenarioState.not_applicable)), len(results)


def na_ratio_text(na: int, total: int) -> str:
    """ "na of total (p%)" for the report."""
    return f"{na} of {total} ({fmt_num(100.0 * na / total, 0) if total else '0'}%)"
