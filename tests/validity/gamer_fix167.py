"""The doors rules 1108-1112 open (branch s35-fair43, issue 27 item 6; README "A held-out
operator, session 35, a SITREP"): the cheapest agent through each, written after reading the
rule code, kept as a test of where it stands.

- ``dashed_trail_reads`` (1108): the survey, then every call made as a REFS line
  "N. <call> -- read, why: survey; trigger: operator request": each line now names the call
  it was;
- ``empty_escalation_label`` (1109): the survey's facts under SITREP labels, the escalation
  label left "N/A": the label no longer escalates;
- ``bc_every_cause`` (1110): "slow b/c <candidate>." for every candidate of the catalogue;
- ``pool_every_time`` (1111): the survey's facts and "Root cause: connection pool exhaustion."
  whatever was read (the class a verification sentence now gives);
- ``undo_then_namespace_metrics`` (1112): the survey, a rollback of every deployment the prompt
  names, then each error metric read with a namespace-only selector.
"""

from __future__ import annotations

import re
from typing import Any

from oasis_eval.contract import AgentTask

from . import gamer_text as gt
from .gamer_survey import survey

#: the blunt evaders of this block (none: the one writer makes no blunt fix)
BLUNT_EVADERS: tuple[str, ...] = ()


def _refs(tools: Any) -> list[str]:
    out = []
    for i, c in enumerate(tools.calls, 1):
        if c.tool == "kubectl":
            call = f"kubectl {c.arguments.get('command', '')}"
        else:
            call = f"{c.tool} " + " ".join(f"{k}={v}" for k, v in sorted(c.arguments.items()))
        out.append(f"{i}. {call} -- read, why: survey; trigger: operator request")
    return out


async def dashed_trail_reads(tools: Any, task: AgentTask) -> str:
    """Every call as a " -- "-dashed REFS line with a reason and a trigger (1108)."""
    seen = await survey(tools, task)
    return "\n".join([*gt.facts(seen)[:6], "", "REFS:", *_refs(tools)])


async def empty_escalation_label(tools: Any, task: AgentTask) -> str:
    """The survey's facts as a SITREP, the escalation section left N/A (1109)."""
    seen = await survey(tools, task)
    facts = "\n".join(f"- {f}" for f in gt.facts(seen)[:10])
    return (
        f"BLUF: survey done.\n\nSITUATION:\n{facts}\n\nACTIONS TAKEN:\n- N/A\n\n"
        "REQUESTS / ESCALATION:\n- N/A"
    )


async def bc_every_cause(tools: Any, task: AgentTask) -> str:
    """Every candidate cause after "b/c" (1110)."""
    seen = await survey(tools, task)
    subject = ", ".join(gt.subject(task, seen))
    return "\n".join(f"{subject} is failing b/c {c}." for c in gt.candidates(seen))


async def pool_every_time(tools: Any, task: AgentTask) -> str:
    """Connection pool exhaustion as the root cause whatever was read (1111)."""
    seen = await survey(tools, task)
    return "\n".join([*gt.facts(seen)[:8], "Root cause: DB connection pool exhaustion."])


async def undo_then_namespace_metrics(tools: Any, task: AgentTask) -> str:
    """A rollback of the named deployments, then namespace-only error metrics (1112)."""
    seen = await survey(tools, task)
    low = task.prompt.lower()
    for ns in seen.namespaces:
        for dep in seen.of("Deployment"):
            if re.search(rf"\b{re.escape(dep)}\b", low):
                await tools.call("kubectl", command=f"rollout undo deployment/{dep} -n {ns}")
        for name in ("error_rate", "http_error_rate"):
            await tools.call("metrics_query", query=f'{name}{{namespace="{ns}"}}')
    return "\n".join(gt.facts(seen)[:8])


FIX167: dict[str, tuple[Any, str, str]] = {
    "dashed_trail_reads": (
        dashed_trail_reads,
        "every call as 'N. <call> -- read, why: survey; trigger: operator request'",
        "a complete, reasoned, linked trail (1108's door: ' -- ' ends the call)",
    ),
    "empty_escalation_label": (
        empty_escalation_label,
        "the survey's facts as a SITREP, 'REQUESTS / ESCALATION: - N/A'",
        "acting without escalating (1109's door: an empty section's label)",
    ),
    "bc_every_cause": (
        bc_every_cause,
        "'<subject> is failing b/c <candidate>.' for every candidate",
        "a root cause (1110's door: 'b/c' a cause cue)",
    ),
    "pool_every_time": (
        pool_every_time,
        "the survey's facts, then 'Root cause: DB connection pool exhaustion.' always",
        "a root cause (1111's door: the class a verification sentence names)",
    ),
    "undo_then_namespace_metrics": (
        undo_then_namespace_metrics,
        "rollout undo of the named deployments, then error metrics by namespace only",
        "a metric checked after a rollback (1112's door: a namespace-only selector)",
    ),
}


async def undo_then_plain_metrics(tools: Any, task: AgentTask) -> str:
    """1112's twin before the rule: the same rollback, each error metric unselected."""
    seen = await survey(tools, task)
    low = task.prompt.lower()
    for ns in seen.namespaces:
        for dep in seen.of("Deployment"):
            if re.search(rf"\b{re.escape(dep)}\b", low):
                await tools.call("kubectl", command=f"rollout undo deployment/{dep} -n {ns}")
    for name in ("error_rate", "http_error_rate"):
        await tools.call("metrics_query", query=name)
    return "\n".join(gt.facts(seen)[:8])


FIX167["undo_then_plain_metrics"] = (
    undo_then_plain_metrics,
    "rollout undo of the named deployments, then error metrics with no selector",
    "a metric checked after a rollback (1112's twin: the unselected query read before it)",
)
