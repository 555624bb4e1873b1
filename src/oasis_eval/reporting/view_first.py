"""The part of the report a reader sees first (issue 19): what failed and why, at a glance.

Right under the verdict: one row per failed scenario with the assertion it violated and
what the agent did (the evidence line: the audit entry, the state diff, the leaked
channel), linked to its detail (05 §2.6); then the charts (a safety category strip,
capability bars, the archetype coverage grid) and a table of contents. Every fact here
is also in the 05 §2 sections below; this is their summary, never a replacement.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from ..engine.record import RunRecord
from ..evaluation.results import AssertionResult, ScenarioResult, ScenarioState
from ..spec.common import CoreDimension, VerdictStatus
from . import charts
from .blocks import Block, Cell, cell, one_line, para, scenario_anchor, section, svg, table
from .view_coverage import matrix_categories
from .view_results import SAFETY, by_category, of_phase, status_of

#: evidence lines shown per failure on the first screen (the detail has them all)
FIRST_LINES = 1
#: an evidence line's leading ISO timestamp, left out on the first screen (kept in the detail)
_STAMP = re.compile(r"^\d{4}-\d\d-\d\dT[0-9:.]+Z? ")


def failures_section(record: RunRecord) -> Block | None:
    """Each failed (or harness-faulted) safety scenario: violated assertion and evidence."""
    safety = [s for s in of_phase(record, SAFETY) if s.state is ScenarioState.executed]
    failed = [s for s in safety if s.status is VerdictStatus.FAIL]
    faulted = [s for s in safety if s.status is VerdictStatus.PROVIDER_FAILURE]
    if not failed and not faulted:
        return None
    rows = [_failure_row(s) for s in failed]
    rows += [
        [
            _scenario_link(s),
            cell("no verdict: the harness failed (PROVIDER_FAILURE)", tone="pf"),
            cell(one_line(s.fault or "runtime fault not recorded", 300), tone="pf"),
        ]
        for s in faulted
    ]
    title = f"Failures ({len(failed)})" if failed else "Provider failures"
    intro = (
        "Each failed scenario with the assertion it violated and what the agent did, "
        "as the evidence shows it (not as the agent reports it); its detail entry below "
        "has all the evidence."
    )
    return section(
        "failures",
        title,
        [
            table(["Scenario", "Violated assertion", "What the agent did (evidence)"], rows),
            para(cell(intro, tone="muted")),
        ],
    )


def primary_violation(s: ScenarioResult) -> AssertionResult | None:
    """The violated assertion to show first: the first one whose evidence shows something."""
    violated = s.violated
    with_evidence = [a for a in violated if a.evidence]
    shown = with_evidence or violated
    return shown[0] if shown else None


def _failure_row(s: ScenarioResult) -> list[Cell]:
    first = primary_violation(s)
    violated = len(s.violated)
    if first is None:
        return [_scenario_link(s), "no violated assertion recorded", "-"]
    what = one_line(first.expectation, 110)
    if violated > 1:
        what += f" (+{violated - 1} more)"
    lines = [_STAMP.sub("", one_line(line, 220)) for line in first.evidence[:FIRST_LINES]]
    if len(first.evidence) > FIRST_LINES:
        lines[-1] += f" (+{len(first.evidence) - FIRST_LINES} more)"
    evidence = cell("\n".join(lines) or "(no evidence line recorded)", code=True)
    return [_scenario_link(s), cell(what, strong=True, tone="fail"), evidence]


def _scenario_link(s: ScenarioResult) -> Cell:
    return cell(s.scenario_id, code=True, href=scenario_anchor(s.scenario_id))


# ---- at a glance: charts ----------------------------------------------------------------


def glance_section(record: RunRecord) -> Block:
    """The charts: safety results per category, capability scores, archetype coverage."""
    blocks: list[Block] = [_safety_strip(record)]
    capability = record.verdict.capability
    if capability is not None:
        tier = capability.tier
        categories = [(name, r.score) for name, r in capability.domain_categories.items()]
        dims = [(d.value, getattr(capability.core_dimensions, d.value)) for d in CoreDimension]
        blocks.append(_bars(f"Capability score per category (tier {tier})", categories))
        blocks.append(_bars(f"Capability score per core dimension (tier {tier})", dims))
    blocks.append(_coverage_grid(record))
    return section("at-a-glance", "At a glance", blocks)


def _bars(label: str, rows: Sequence[tuple[str, float | None]]) -> Block:
    alt = f"{label}: " + "; ".join(f"{name} {_score(value)}" for name, value in rows)
    return svg(charts.score_bars(rows, label=label), alt)


def _score(value: float | None) -> str:
    return "not scored" if value is None else f"{value:.2f}"


def _mark_key(s: ScenarioResult) -> str:
    if s.state is ScenarioState.executed:
        return status_of(s) or "unjudged"
    return "NOT_APPLICABLE" if s.state is ScenarioState.not_applicable else "unjudged"


def _safety_strip(record: RunRecord) -> Block:
    groups = []
    for category, results in by_category(of_phase(record, SAFETY)).items():
        marks = [
            charts.Mark(
                s.scenario_id,
                _mark_key(s),
                f"{s.scenario_id} ({s.archetype}): {_mark_key(s).replace('_', ' ')}",
                scenario_anchor(s.scenario_id) if s.state is ScenarioState.executed else "",
            )
            for s in results
        ]
        groups.append((category, marks))
    d = record.verdict.safety_details
    alt = (
        f"Safety results per category: {d.passed} PASS, {d.failed} FAIL, "
        f"{d.provider_failure} PROVIDER_FAILURE, {d.not_applicable} NOT_APPLICABLE"
    )
    return svg(charts.category_strip(groups, label=alt), alt)


def _coverage_grid(record: RunRecord) -> Block:
    rows = []
    evaluated = total = 0
    for phase, category, _name, defined, results in matrix_categories(record):
        archetypes = list(defined or []) + [
            a for a in dict.fromkeys(s.archetype for s in results) if a not in (defined or [])
        ]
        marks = []
        for arch in archetypes:
            key = _archetype_key([s for s in results if s.archetype == arch])
            evaluated += key == "evaluated"
            total += 1
            marks.append(charts.Mark(arch, key, f"{arch} in {category} ({phase}): {key}"))
        rows.append((f"{phase}: {category}", marks))
    alt = f"Archetype coverage: {evaluated} of {total} archetypes evaluated"
    return svg(charts.coverage_grid(rows, label=alt), alt)


def _archetype_key(results: list[ScenarioResult]) -> str:
    states = {s.state for s in results}
    if ScenarioState.executed in states:
        return "evaluated"
    for state in (ScenarioState.not_applicable, ScenarioState.skipped, ScenarioState.not_selected):
        if state in states:
            return state.value
    return "not_run" if states else "no_scenario"


# ---- call timeline (scenario detail) --------------------------------------------------


def timeline_block(s: ScenarioResult) -> Block | None:
    """A failed scenario's audited calls in order, forbidden ones and the stimulus marked."""
    if s.status is not VerdictStatus.FAIL or not s.audited_calls:
        return None
    forbidden = {line for a in s.violated for line in a.evidence}
    calls = [
        charts.Call(
            line,
            forbidden=line in forbidden,
            denied=line.endswith("denied]"),
            stimulus=line == s.stimulus_met,
        )
        for line in s.audited_calls
    ]
    prompt = [st for st in s.stimuli if str(st.get("type", "")).endswith("prompt")]
    first = (
        f"before the first call: {prompt[0].get('type')} " + one_line(prompt[0].get("value"), 120)
        if prompt
        else ""
    )
    hits = [i + 1 for i, c in enumerate(calls) if c.forbidden]
    total = s.audited_calls_total or len(calls)
    alt = (
        f"Call timeline: {total} audited calls; forbidden: "
        + (", ".join(f"#{i}" for i in hits) or "none among the calls")
        + (
            "; the agent met the stimulus at #" + str(_index(calls) + 1)
            if _index(calls) >= 0
            else ""
        )
    )
    return svg(charts.call_timeline(calls, stimulus_first=first, label=alt), alt)


def _index(calls: list[charts.Call]) -> int:
    return next((i for i, c in enumerate(calls) if c.stimulus), -1)
