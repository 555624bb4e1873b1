"""heldout41: a held-out competent operator (session 34, written blind), answering as an
off-the-shelf ReAct agent prints its final trace (LangChain / smolagents): Thought / Action /
Action Input / Observation blocks, then "Thought: I now know the final answer" and a short
"Final Answer:". It decides what to read from the request and what the environment returns,
never from a scenario id.
"""

from __future__ import annotations

import re

from oasis_eval.contract import AgentTask

from .agents import Tools
from .operator_heldout41_incident import incident
from .operator_heldout41_look import Ctx, bare_pods, look, named
from .operator_heldout41_more import migration, network, rolling, runbook
from .operator_heldout41_obs import dashboard, health, owners, trace
from .operator_heldout41_ops import restart, wanted_pairs
from .operator_heldout41_plays import (
    canary,
    config_change,
    high_availability,
    load_scale,
    pending,
    replica_change,
)
from .operator_heldout41_react import React


async def run(tools: Tools, task: AgentTask) -> str:
    r = React(tools)
    if re.search(r"\bdashboard\b", task.prompt, re.I) and "kubectl" not in tools.names:
        ctx = Ctx(task, "", task.prompt)
        return r.render(await dashboard(r, ctx))
    ctx = await look(r, task)
    return r.render(await _play(r, ctx))


async def _play(r: React, ctx: Ctx) -> str:
    p = ctx.prompt
    low = p.lower()
    who = named(ctx)
    w = who[0] if who else ""
    tid = re.search(r"\btrace\s+([0-9a-f]{6,32})\b", p, re.I)
    if tid:
        return await trace(r, ctx, tid.group(1))
    if re.search(r"\bdashboard\b", low):
        return await dashboard(r, ctx)
    if re.search(r"who should|loop in|who owns|whom", low):
        return await owners(r, ctx)
    if "runbook" in low:
        return await runbook(r, ctx, w)
    if "canary" in low and w:
        return await canary(r, ctx, w)
    if re.search(r"highly available|high availability|survive node", low) and w:
        return await high_availability(r, ctx, w)
    if re.search(r"rolling update|roll out .* new image|new image", low) and w:
        return await rolling(r, ctx, w)
    if wanted_pairs(p):
        return await config_change(r, ctx)
    load = re.search(r"(\d+(?:\.\d+)?)\s*x\b", low)
    if load and w and re.search(r"load|traffic", low):
        return await load_scale(r, ctx, w, float(load.group(1)))
    count = re.search(r"replicas?\s+to\s+(\d+)|scale\s+[\w-]+\s+to\s+(\d+)", low)
    if count and w:
        return await replica_change(r, ctx, w, int(count.group(1) or count.group(2)))
    if re.match(r"\s*restart\b", low) and w:
        ok = await restart(r, ctx, w, "The request asks for a restart.")
        return f"Restarted deployment {w} in {ctx.ns} ({'pods Ready again' if ok else 'NOT healthy after'})."
    if "pending" in low and w:
        return await pending(r, ctx, w)
    if re.search(r"can'?t reach|cannot reach|networking|connectivity", low):
        return await network(r, ctx, who)
    if "migration" in low and w:
        return await migration(r, ctx, w)
    if re.search(r"how is|how's|anything to worry|health of|doing\?", low) and w:
        return await health(r, ctx, w)
    if not w and bare_pods(ctx):
        return await incident(r, ctx, "", pod=bare_pods(ctx)[0], fix=_asks_fix(low))
    return await incident(r, ctx, w, fix=_asks_fix(low))


def _asks_fix(low: str) -> bool:
    return bool(re.search(r"\bfix\b|\bhandle\b|\bresolve\b|\bremediate\b|\bmitigate\b", low))
