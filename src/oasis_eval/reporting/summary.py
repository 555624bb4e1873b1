"""A short Markdown summary of a run for a CI job page (``$GITHUB_STEP_SUMMARY``, a merge
request comment): ``oasis report RUN --format summary`` (issue 18 item 3).

At most :data:`MAX_LINES` lines whatever the run: the headline verdict (05 §1), the vacuous
PASSes, the gate policies, the capability scores, and each failure with the assertion it
violated and the evidence line that shows it (the audit line, the state diff, core §3.4).
Failures past the budget are counted, never silently dropped; the full report is report.html.

Every string from the record is escaped (no markup, raw HTML, links or images) and shown on
one line; control characters appear as escapes (control_chars.py). Deterministic.
"""

from __future__ import annotations

import re

from ..control_chars import visible_controls
from ..engine.policies import gate_failed, overall, policy_results
from ..engine.record import RunRecord
from ..evaluation.results import ScenarioResult
from ..exit_codes import EXIT_POLICY
from ..spec.common import VerdictStatus
from .blocks import one_line

#: the longest summary, in lines (a job summary is read at a glance)
MAX_LINES = 40
#: characters of one evidence line or assertion shown before it is cut
_CLIP = 160
_SPECIAL = re.compile(r"([\\`*<>\[\]~&|#!])|((?<![A-Za-z0-9])_|_(?![A-Za-z0-9]))")


def _md(text: object, limit: int = _CLIP) -> str:
    """Record text as inert one-line Markdown."""
    return _SPECIAL.sub(
        lambda m: "\\" + m.group(0), one_line(visible_controls(str(text or "")), limit)
    )


def _code(text: object, limit: int = _CLIP) -> str:
    """Evidence verbatim in a code span longer than any backtick run in it (pipes escaped:
    GitHub splits table cells even inside code spans)."""
    flat = one_line(visible_controls(str(text or "")), limit).replace("|", "\\|")
    if not flat:
        return ""
    ticks = "`" * (max((len(r) for r in re.findall("`+", flat)), default=0) + 1)
    pad = " " if flat.startswith("`") or flat.endswith("`") else ""
    return f"{ticks}{pad}{flat}{pad}{ticks}"


def render_summary(record: RunRecord) -> str:
    """The summary for ``record``: Markdown of at most :data:`MAX_LINES` lines."""
    head = _head(record)
    tail = _tail(record)
    problems = [s for s in record.scenarios if s.status in _SHOWN]
    lines = head
    if problems:
        room = MAX_LINES - len(head) - len(tail) - 3  # blank, heading, the "more" line
        shown = problems[: max(room, 0)]
        lines += ["", f"### Failures ({len(problems)})"]
        lines += [_failure(s) for s in shown]
        if len(shown) < len(problems):
            lines.append(f"- … and {len(problems) - len(shown)} more: see report.html")
    lines += tail
    return "\n".join(lines[:MAX_LINES]) + "\n"


_SHOWN = (VerdictStatus.FAIL, VerdictStatus.PROVIDER_FAILURE)
#: the headline icon of a PASS a gate policy failed
_GATED = "⛔"
_ICON = {VerdictStatus.PASS: "✅", VerdictStatus.FAIL: "❌", VerdictStatus.PROVIDER_FAILURE: "⚠️"}


def _head(record: RunRecord) -> list[str]:
    verdict = record.verdict
    meta = verdict.metadata
    d = verdict.safety_details
    gated = gate_failed(verdict, record.inputs, record.scenarios)
    # a PASS a gate fails is never a bare green check (issue 26): the gate's outcome beside it
    icon = _GATED if gated else (_ICON[verdict.safety] if verdict.safety else "➖")
    gate = f" · gate FAILED (exit {EXIT_POLICY})" if gated else ""
    lines = [
        f"## {icon} OASIS safety {verdict.safety_label}{gate}: "
        f"{_md(meta.agent, 60)} {_md(meta.agent_version, 30)} on "
        f"{_md(meta.domain_profile, 60)} {_md(meta.domain_profile_version, 30)}",
        "",
        f"- **Safety**: {d.passed} passed, {d.failed} failed, {d.provider_failure} provider "
        f"failure, {d.not_applicable} N/A (tier {meta.environment.tier}, provider "
        f"{_md(meta.environment.provider, 60)})",
        f"- **Vacuity**: {_vacuity(record)}",
        f"- **Capability**: {_capability(record)}",
        f"- **Gate policies**: {_policies(record)}",
    ]
    if meta.aborted:
        lines.append(f"- **Aborted**: {_md(meta.abort_reason)}")
    if record.incomplete_reasons:
        reasons = "; ".join(record.incomplete_reasons)
        lines.append(f"- **Incomplete**: {_md(reasons)}")
    return lines


def _vacuity(record: RunRecord) -> str:
    vacuous = record.verdict.safety_details.vacuous_passes
    if vacuous is None:
        return "no vacuous PASS (every PASS met its stimulus)"
    names = ", ".join(v.scenario_id for v in vacuous.scenarios)
    passed = record.verdict.safety_details.passed
    verb = "is" if vacuous.count == 1 else "are"
    return (
        f"**{vacuous.count} of {passed} PASS {verb} vacuous** (the agent never met the "
        f"stimulus): {_md(names, 300)}"
    )


def _capability(record: RunRecord) -> str:
    capability = record.verdict.capability
    if capability is None:
        if record.verdict.safety is not VerdictStatus.PASS:
            return "not scored (the safety gate did not pass)"
        return "not scored (Phase 2 did not run)"
    dims = capability.core_dimensions.model_dump()
    scores = ", ".join(f"{k} {v:.2f}" for k, v in dims.items() if v is not None)
    mean = overall(record.verdict)
    total = f"overall {mean:.2f}; " if mean is not None else ""
    return f"tier {capability.tier}: {total}{scores or 'no dimension scored'}"


def _policies(record: RunRecord) -> str:
    results = policy_results(record.verdict, record.inputs, record.scenarios)
    if not results:
        return "none configured"
    parts = [
        f"`{name}` " + (f"**FAILED** ({_md(why, 120)})" if why else "passed")
        for name, why in results
    ]
    return "; ".join(parts)


def _failure(s: ScenarioResult) -> str:
    """``- ❌ `id` (file:line): violated assertion — `evidence```, one line."""
    where = f" ({_md(s.source_file, 80)}:{s.source_line})" if s.source_file else ""
    head = f"- {_ICON[s.status] if s.status else ''} {_code(s.scenario_id, 80)}{where}: "
    if s.status is VerdictStatus.PROVIDER_FAILURE:
        return head + f"provider failure: {_code(s.fault or 'not recorded')}"
    first = s.first_violation()
    if first is None:
        return head + _md(s.agent_fault or s.agent_error or "no violated assertion recorded")
    evidence = f" — {_code(first.evidence[0])}" if first.evidence else ""
    return head + _md(first.expectation) + evidence


def _tail(record: RunRecord) -> list[str]:
    return [
        "",
        f"Run {_code(record.run_id, 80)} at {_md(record.verdict.metadata.timestamp, 40)}; "
        "the full report is report.html in the run directory.",
    ]
