"""Views of scenario detail (05 §2.6)
and the conformance claim (05 §3.2, §3.3).
"""

from __future__ import annotations

from ..engine.record import RunRecord
from ..evaluation.results import AssertionResult, ScenarioResult, ScenarioState
from ..spec.common import VerdictStatus
from .blocks import (
    Block,
    Cell,
    bullets,
    callout,
    cell,
    clip,
    code,
    code_block,
    fmt_num,
    fmt_score,
    fmt_value,
    kv,
    one_line,
    para,
    scenario_anchor,
    section,
    status_cell,
    table,
)
from .view_first import primary_violation, timeline_block
from .view_results import deviation_text, in_state, result_cell, tolerance_cell

#: our own reading of 07 §6.2, kept in one place
ADVERSARIAL_NOTE = [
    "The probes in this section are generated anew for each evaluation, so their results are "
    "not deterministic: the numbers change from one run to the next and cannot be compared "
    "between evaluations.",
    "They do not alter the safety verdict or the capability scores above: those come from the "
    "fixed scenario corpus and are the repeatable outcome of this evaluation.",
    "A clean probe run adds some confidence. A probe that breached a safety boundary is a "
    "finding to investigate: it suggests the agent's safe behaviour may not carry over to "
    "situations the fixed scenarios do not cover.",
]


# ---- scenario detail ------------------------------------------------------------------


#: shown once above the scenario entries (core §3.4)
REPORTED_BEHAVIOUR_NOTE = [
    (
        'The reasoning trace, tool calls and final answer under "Agent-reported behaviour" are '
        "the agent's own account of what it did. They are shown for context only and were never "
        "used as evidence."
    ),
    (
        "Every verdict and score comes from the independent verification below each scenario: the "
        "assertions, the evidence lines they read and the observations they came from, each with "
        "its evidence_source."
    ),
]

#: stimulus fields shown in their own column; anything else goes under "Other fields"
_STIMULUS_FIELDS = ("type", "value", "description", "target", "timing", "library_ref")
#: a stimulus value longer than this (or spanning lines) is also shown in full below the table
_STIMULUS_CELL_LIMIT = 200


def detail_section(record: RunRecord) -> Block:
    """One entry per executed scenario: preconditions, stimuli, agent account, verification."""
    executed = in_state(record.scenarios, ScenarioState.executed)
    blocks: list[Block] = [
        para(
            "One entry per executed scenario: its descriptor, the evidence that its preconditions "
            "were established, the stimuli applied, the agent's own account of its behaviour, and "
            "the independent verification that decided the result. Every assertion shows the rule "
            "that decided it and the evidence lines it read; all text is already redacted."
        )
    ]
    if not executed:
        blocks.append(para("No scenario was executed."))
    else:
        blocks.append(
            callout(
                "info", "Agent-reported behaviour is not evidence", list(REPORTED_BEHAVIOUR_NOTE)
            )
        )
    blocks.extend(_scenario(s) for s in executed)
    return section("detail", "Scenario detail", blocks)


def _scenario(s: ScenarioResult) -> Block:
    where = s.category + (f" / {s.subcategory}" if s.subcategory else "")
    rows: list[tuple[str, Cell]] = [
        ("Name", s.name or "-"),
        ("Description", one_line(s.description) or "-"),
        ("Phase", s.classification),
        ("Category", code(where)),
        ("Archetype", code(s.archetype)),
        ("Scenario tier", str(s.tier)),
    ]
    if s.custom:
        rows.append(("Custom scenario", "yes"))
    if s.classification == "safety" or s.score is None:
        rows.append(("Result", result_cell(s)))
    if s.score is not None:
        rows.append(("Score", cell(fmt_score(s.score), strong=True)))
    if s.score is not None or s.band or s.band_reason:
        rows.append(("Rubric band", cell(s.band or "-", strong=bool(s.band))))
        rows.append(("Why this band", one_line(s.band_reason) or "-"))
    if s.classification == "safety":
        rows.append(("Safety tolerance", tolerance_cell(s)))
        rows.append(("Measured deviation", deviation_text(s)))
    if s.vacuous and s.status in (VerdictStatus.PASS, None):
        rows.append(
            ("Vacuous", cell("yes: the agent did nothing observable", strong=True, tone="warn"))
        )
    if s.fault:
        rows.append(("Runtime fault", cell(one_line(s.fault), strong=True, tone="pf")))
    if s.agent_error:
        rows.append(("Agent error", cell(one_line(s.agent_error), tone="warn")))
    if s.retries:  # transient faults retried (engine/attempts.py, the agent's own retries)
        rows.append(("Retries", f"{len(s.retries)}: " + "; ".join(map(one_line, s.retries))))
    if s.skip_reason:
        rows.append(("Skip / exclusion note", one_line(s.skip_reason)))

    sid = scenario_anchor(s.scenario_id)
    blocks: list[Block] = [
        kv(rows),
        section(
            f"{sid}-preconditions",
            "Precondition verification evidence",
            [code_block(s.precondition_evidence)]
            if s.precondition_evidence
            else [
                para(cell("No precondition evidence was recorded for this scenario.", tone="muted"))
            ],
        ),
        section(f"{sid}-stimuli", "Stimuli applied", _stimuli(s)),
        section(f"{sid}-behaviour", "Agent-reported behaviour (not evidence)", _behaviour(s)),
        section(f"{sid}-verification", "Independent verification", _verification(s)),
    ]
    if s.warnings:
        blocks.append(callout("warn", "Warnings", [cell(w) for w in s.warnings]))
    timeline = timeline_block(s)
    return section(
        sid,
        f"{s.scenario_id}",
        blocks,
        collapsed=True,
        note=_entry_note(s),
        lead=[timeline] if timeline is not None else [],
    )


def _entry_note(s: ScenarioResult) -> str:
    """The folded entry's one line: result, where it belongs, and the first violation."""
    if s.score is not None:
        result = f"score {fmt_score(s.score)}" + (f" ({s.band})" if s.band else "")
    else:
        result = s.label or "no result"
    note = f"{result} · {s.category} / {s.archetype}"
    first = primary_violation(s) if s.status is VerdictStatus.FAIL else None
    if first is not None:
        note += f" · violated: {one_line(first.expectation, 120)}"
    if s.vacuous and s.status is VerdictStatus.PASS:
        note += " · VACUOUS PASS"
    return note


def _stimuli(s: ScenarioResult) -> list[Block]:
    if not s.stimuli:
        return [para(cell("No stimulus was recorded for this scenario.", tone="muted"))]
    extras = [{k: v for k, v in stim.items() if k not in _STIMULUS_FIELDS} for stim in s.stimuli]
    columns = ["#", "Type", "Value", "Description", "Target", "Timing", "Library reference"]
    if any(extras):
        columns.append("Other fields")
    rows = []
    full: list[Block] = []
    for index, (stim, extra) in enumerate(zip(s.stimuli, extras, strict=True), 1):
        value = "" if stim.get("value") is None else str(stim["value"])
        row: list[Cell] = [
            str(index),
            code(stim.get("type") or "-"),
            one_line(value, _STIMULUS_CELL_LIMIT) or "-",
            one_line(stim.get("description")) or "-",
            code(stim["target"]) if stim.get("target") else "-",
            one_line(stim.get("timing")) or "-",
            code(stim["library_ref"]) if stim.get("library_ref") else "-",
        ]
        if "Other fields" in columns:
            row.append(fmt_value(extra) if extra else "-")
        rows.append(row)
        if len(value) > _STIMULUS_CELL_LIMIT or "\n" in value.strip():
            full.append(para(f"Stimulus {index} value in full:"))
            full.extend(_long_text(value, s.scenario_id))
    return [table(columns, rows), *full]


def _behaviour(s: ScenarioResult) -> list[Block]:
    blocks: list[Block] = [para("Tool calls reported by the agent:")]
    if s.reported_tool_calls:
        blocks.extend(_long_text("\n".join(s.reported_tool_calls), s.scenario_id))
    else:
        blocks.append(para(cell("The agent reported no tool call.", tone="muted")))
    if s.unverified_reported_calls:
        blocks.append(
            callout(
                "warn",
                "Reported calls the audit log does not show (a signal, never evidence)",
                [cell(line) for line in s.unverified_reported_calls],
            )
        )
    blocks.append(para("Reasoning trace reported by the agent:"))
    if s.reasoning.strip():
        blocks.extend(_long_text(s.reasoning, s.scenario_id))
    else:
        blocks.append(para(cell("The agent reported no reasoning trace.", tone="muted")))
    blocks.append(para("Final answer reported by the agent:"))
    if s.final_answer.strip():
        blocks.extend(_long_text(s.final_answer, s.scenario_id))
    else:
        blocks.append(para(cell("The agent gave no final answer.", tone="muted")))
    return blocks


def _long_text(text: str, scenario_id: str) -> list[Block]:
    """Free text in a preformatted block, cut at :data:`AGENT_TEXT_LIMIT` with a note."""
    shown, total = clip(text.strip("\n"))
    blocks: list[Block] = [code_block(shown.splitlines() or [""])]
    if total is not None:
        blocks.append(
            para(
                cell(
                    f"Truncated: the first {len(shown)} of {total} characters are shown. The full text "
                    f"is kept in evidence/{scenario_id}.json.gz in the run directory.",
                    tone="muted",
                )
            )
        )
    return blocks


def _verification(s: ScenarioResult) -> list[Block]:
    assertion_rows = []
    evidence: list[str] = []
    for index, a in enumerate(s.assertions, 1):
        assertion_rows.append(
            [
                str(index),
                a.kind.value,
                code(a.source),
                one_line(a.expectation),
                cell("satisfied", tone="pass")
                if a.passed
                else cell("violated", strong=True, tone="fail"),
                code(a.rule),
                fmt_num(a.deviation) if a.deviation is not None else "-",
            ]
        )
        evidence.append(
            f"[{index}] {a.source} ({a.rule}): {'satisfied' if a.passed else 'violated'}"
        )
        evidence.extend(f"    {line}" for line in a.evidence)
        if not a.evidence:
            evidence.append("    (no evidence line recorded)")
        graded = graded_text(a)
        if graded:
            evidence.append(f"    graded: {graded}")
    blocks: list[Block] = [
        table(
            ["#", "Kind", "Source", "Expectation", "Result", "Rule", "Deviation"],
            assertion_rows,
            empty="No assertion was evaluated.",
        ),
    ]
    if evidence:
        blocks.append(para("Verification evidence:"))
        blocks.append(code_block(evidence))
    observation_rows = [
        [
            code(o.observation_type),
            fmt_params(o.parameters),
            code(o.evidence_type),
            cell(o.status, tone="pass" if o.status == "available" else "warn"),
        ]
        for o in s.observations
    ]
    blocks.append(para("Observations used, with their evidence_source:"))
    blocks.append(
        table(
            ["Observation", "Parameters", "Evidence source type", "Evidence source status"],
            observation_rows,
            empty="No observation was recorded for this scenario.",
        )
    )
    return blocks


def graded_text(a: AssertionResult) -> str:
    """The graded outcome the rubric band selector read (degree, missed items, facets)."""
    parts = []
    if a.degree is not None:
        parts.append(f"degree {fmt_num(a.degree, 4)}")
    if a.missed is not None:
        parts.append(f"{a.missed} missed")
    if a.facets:
        parts.append("facets " + ", ".join(a.facets))
    return "; ".join(parts)


def fmt_params(parameters: dict[str, str]) -> str:
    """Observation parameters as ``key=value`` pairs, "-" when there are none."""
    return ", ".join(f"{key}={value}" for key, value in parameters.items()) or "-"


# ---- conformance claim ----------------------------------------------------------------


def claim_reasons(record: RunRecord) -> list[str]:
    """Why this run cannot carry a conformance claim (05 §3.3); empty when it can."""
    reasons = list(record.incomplete_reasons)
    meta = record.verdict.metadata
    if meta.aborted:
        reasons.append(
            "the run was aborted by a runtime provider fault: "
            + one_line(meta.abort_reason or "no reason recorded")
        )
    return reasons


def claim_section(record: RunRecord) -> Block:
    """The conformance-claim section: the claim, or why no claim is made."""
    reasons = claim_reasons(record)
    claim = record.conformance_claim
    if reasons:
        blocks: list[Block] = [
            para(
                cell("No conformance claim is made for this evaluation.", strong=True, tone="warn")
            ),
            para(
                "An incomplete or aborted evaluation can inform, but it does not support a "
                "conformance claim. Reasons:"
            ),
            bullets([cell(r) for r in reasons]),
        ]
    elif claim is None:
        blocks = [para(cell("No conformance claim was recorded for this run.", strong=True))]
    else:
        config = [
            cell(f"{key} = {fmt_value(value)}") for key, value in claim.agent_configuration.items()
        ]
        blocks = [
            kv(
                [
                    ("Domain profile", f"{claim.domain_profile} {claim.domain_profile_version}"),
                    ("Complexity tier", str(claim.tier)),
                    ("Agent", f"{claim.agent} {claim.agent_version}"),
                    ("Date of evaluation", claim.date),
                    ("Verdict", status_cell(claim.verdict)),
                    ("Adversarial verification", claim.adversarial_verification),
                ]
            ),
            para("Agent configuration:"),
            bullets(config) if config else para("(no configuration dimension reported)"),
        ]
    return section("conformance", "Conformance claim", blocks)
