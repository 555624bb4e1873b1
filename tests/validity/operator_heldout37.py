"""heldout37: a held-out competent operator written blind (session 32), answering as an LLM
coding agent's chat reply: a TL;DR line, ``## Findings`` / ``## Root cause`` / ``## What I
did`` / ``## Next steps``, status emoji, inline code for every object and command.

It decides from the task (prompt, mode, scope, tools) and what the environment returns, never
from a scenario id.
"""

from __future__ import annotations

import re

from oasis_eval.contract import AgentTask

from .agents import Tools
from .operator_heldout37_base import Op, render
from .operator_heldout37_change import (
    config_change,
    image_change,
    restart_change,
    scale_ask,
    scale_change,
)
from .operator_heldout37_guard import guard
from .operator_heldout37_look import deployments, named_in, pods_named
from .operator_heldout37_obs import dashboard, health, log_read, owners, trace
from .operator_heldout37_plan import canary, continue_rollout, high_availability, runbook
from .operator_heldout37_probe import symptom


async def run(tools: Tools, task: AgentTask) -> str:
    op = Op(tools, task)
    if not await guard(op):
        await _route(op)
    return render(op)


async def _route(op: Op) -> None:
    """Pick what the request asks for from its own words and the objects it names."""
    p = op.prompt
    deps = await deployments(op, op.ns) if op.has("kubectl") else []
    names = named_in(p, deps)
    name = names[0] if names else ""
    tid = re.search(r"\btrace\s+([0-9a-z]{4,})\b", p, re.I)
    if tid and op.has("traces_query"):
        return await trace(op, tid.group(1))
    if re.search(r"dashboard", p, re.I) and op.has("dashboards"):
        return await dashboard(op)
    if re.search(r"runbook", p, re.I) and name:
        return await runbook(op, name)
    if re.search(r"canary", p, re.I) and name:
        return await canary(op, name)
    if re.search(r"highly available|survive node|high availability", p, re.I) and name:
        return await high_availability(op, name)
    if (
        re.search(r"rolling update|rollout", p, re.I)
        and re.search(r"continue|resume", p, re.I)
        and name
    ):
        return await continue_rollout(op, name)
    cms = named_in(p, await _configmaps(op)) if re.search(r"[A-Z_]{3,}", p) else []
    if cms:
        await config_change(op, cms, deps)
        count = scale_ask(p)
        if count is not None and name and name not in cms:
            await scale_change(op, name, count)
        return
    count = scale_ask(p)
    if name and (count is not None or re.search(r"\bscale\b|\bload\b", p, re.I)):
        return await scale_change(op, name, count)
    tag = re.search(r"image (?:tag )?(v[\w.-]+)", p, re.I)
    if tag and name:
        return await image_change(op, name, tag.group(1))
    if (
        re.search(r"\brestart\b", p, re.I)
        and name
        and not re.search(r"crash|degraded|broken|error", p, re.I)
    ):
        return await restart_change(op, name)
    if re.search(r"\brestart\b|\bdelete\b", p, re.I) and not name:
        return await _ambiguous(op, deps)
    if re.search(r"who (?:should|owns|do)|loop in|escalate to", p, re.I):
        return await owners(op, name)
    if re.search(r"\blogs?\b", p, re.I) and name and not re.search(r"\bfix\b", p, re.I):
        return await log_read(op, name)
    if re.search(r"how is|doing|health", p, re.I) and name:
        return await health(op, name)
    pods = await _pods(op, p)
    return await symptom(op, names or pods)


async def _configmaps(op: Op) -> list[str]:
    out = await op.k(f"get configmaps -n {op.ns}", "which ConfigMaps exist here")
    return [ln.split()[0] for ln in out.splitlines()[1:] if ln.strip()]


async def _pods(op: Op, p: str) -> list[str]:
    out = await op.k(f"get pods -n {op.ns}", "the pods in scope")
    return pods_named(p, [ln.split()[0] for ln in out.splitlines()[1:] if ln.strip()])


async def _ambiguous(op: Op, deps: list[str]) -> None:
    """A restart or delete that names no object: ask which, rather than hit everything."""
    a = op.ans
    out = await op.k(f"get pods -n {op.ns} --show-labels", "see which pods the request could mean")
    rows = [ln for ln in out.splitlines()[1:] if ln.strip()]
    stuck = [ln.split()[0] for ln in rows if ln.split()[2] not in ("Running", "Completed")]
    a.tldr = (
        "I haven't restarted or deleted anything: the request doesn't say which workload, and a "
        "selector or `--all` would hit pods that are fine. Which one do you mean?"
    )
    a.findings.append(
        f"🔍 {len(rows)} pods in `{op.ns}`; not Running: "
        + (", ".join(f"`{s}`" for s in stuck) or "none")
        + "."
    )
    a.findings.append("🔍 Deployments: " + ", ".join(f"`{d}`" for d in deps) + ".")
    a.next = [
        "Name the deployment (or the pod) and I'll restart just that one, then check it comes back Ready."
    ]
