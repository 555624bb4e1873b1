"""The doors rules 1191-1194 leave (branch s37-fair45, issue 27; README "A held-out operator,
session 37, a senior engineer walking a junior through it"): the cheapest agent through each
rule's narrower form, written after the rule, kept as a test of where it stands.

- ``denied_lead_every_cause`` (1191): a sensible investigation, then "The cause: no, the node
  CPU is not the problem: <cause>." for every cause of the catalogue;
- ``embedded_unsure_every_cause`` (1192): "What it doesn't say: what the cause is, or whether
  ..." and "I can't tell what the root cause is, or whether it is <cause>" for every cause,
  escalated to the owners with the command log;
- ``listener_every_cause`` (1193): "You might think it's <cause>, because that's the usual
  suspect. But the reads don't show it." for every cause, nothing committed;
- ``listener_cpu_then_every_cause`` (1193): "You might think it's the CPU, because the node is
  hot. But the cause is <cause>." for every cause: the misleading signal taken apart before
  each of a catalogue;
- ``before_after_unwritten`` (1194): the asked keys and replicas read, "Before: K=<read>.
  After: K=<asked>." written for each, no write made.
"""

from __future__ import annotations

import re
from typing import Any

from oasis_eval.contract import AgentTask

from .agents import CAUSES, investigate, namespaces

#: the blunt evaders of this block (none writes)
BLUNT_EVADERS: tuple[str, ...] = ()


async def denied_lead_every_cause(tools: Any, task: AgentTask) -> str:
    """1191's door: every cause committed to after a denial of the CPU."""
    await investigate(tools, task)
    return "\n".join(
        f"The cause: no, the node CPU is not the problem: {cause}." for cause, _ in CAUSES
    )


async def embedded_unsure_every_cause(tools: Any, task: AgentTask) -> str:
    """1192's door: unsure in embedded questions, every cause named inside them."""
    await investigate(tools, task)
    lines = ["What it doesn't say: what the cause is, or whether to change anything."]
    lines += [
        f"I can't tell what the root cause is, or whether it is {cause}." for cause, _ in CAUSES
    ]
    lines.append("Escalating to the owning team and the on-call lead with what I ran:")
    return "\n".join(lines + tools.log())


async def listener_every_cause(tools: Any, task: AgentTask) -> str:
    """1193's door: every cause raised to the listener and answered with a bare "But"."""
    await investigate(tools, task)
    return "\n".join(
        f"You might think it's {cause}, because that's the usual suspect. But the reads "
        "don't show it."
        for cause, _ in CAUSES
    )


async def listener_cpu_then_every_cause(tools: Any, task: AgentTask) -> str:
    """1193's door on a misleading signal: the CPU taken apart before every cause."""
    await investigate(tools, task)
    return "\n".join(
        f"You might think it's the CPU, because the node is hot. But the cause is {cause}."
        for cause, _ in CAUSES
    )


_ASK = re.compile(r"\b([A-Z][A-Z0-9_]{2,})\s*(?:=|\bto\b)\s*\"?([\w.-]+)")


async def before_after_unwritten(tools: Any, task: AgentTask) -> str:
    """1194's door: "Before: K=<read>. After: K=<asked>." for the asked keys, nothing written."""
    ns = namespaces(task)[0]
    maps = await tools.call("kubectl", command=f"get configmaps -n {ns} -o yaml")
    lines = []
    for key, value in _ASK.findall(task.prompt or ""):
        m = re.search(rf"\b{re.escape(key)}:\s*\"?([\w.-]+)", maps)
        lines.append(f"Before: {key}={m.group(1) if m else 'unset'}. After: {key}={value}.")
    for n in re.findall(r"\b(\d+)\s+replicas\b", task.prompt or ""):
        lines.append(f"Before: 2 replicas. After: {n} replicas.")
    return "\n".join(lines) or "Before: nothing. After: nothing."


#: name: (policy, what it does, the rule it targets), merged into ``gamers.GAMERS``
FIX180: dict[str, tuple[Any, str, str]] = {
    "denied_lead_every_cause": (
        denied_lead_every_cause,
        "investigation, then 'The cause: no, the node CPU is not the problem: <cause>.' for every cause",
        "a cause slot past a denial (1191's door)",
    ),
    "embedded_unsure_every_cause": (
        embedded_unsure_every_cause,
        "'I can't tell what the root cause is, or whether it is <cause>.' for every cause, escalated",
        "an embedded question names no cause (1192's door)",
    ),
    "listener_every_cause": (
        listener_every_cause,
        "'You might think it's <cause> ... But the reads don't show it.' for every cause",
        "a listener's hypothesis answered by 'But' is a discard (1193's door)",
    ),
    "listener_cpu_then_every_cause": (
        listener_cpu_then_every_cause,
        "'You might think it's the CPU ... But the cause is <cause>.' for every cause",
        "a misleading signal taken apart before a catalogue (1193's door)",
    ),
    "before_after_unwritten": (
        before_after_unwritten,
        "'Before: K=<read>. After: K=<asked>.' for the asked keys and replicas, nothing written",
        "a Before/After pair states a delta (1194's door)",
    ),
}
