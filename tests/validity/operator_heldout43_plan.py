"""heldout43's dispatch: what the request asks for, read from its words (a change named with
its values, a scale, a restart, a runbook, a canary, HA, a dashboard, a trace, an owner
question), else a diagnosis of the workload it names; never a scenario id."""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from . import operator_heldout43_look as lk

if TYPE_CHECKING:
    from .operator_heldout43 import Op


async def handle(op: Op) -> None:
    from . import operator_heldout43_act as act
    from . import operator_heldout43_act2 as act2
    from . import operator_heldout43_diag as dg
    from . import operator_heldout43_obs as obs

    low = op.low
    if "runbook" in low:
        await act2.runbook(op)
    elif "canary" in low:
        await act2.canary(op)
    elif "highly available" in low or "survive node" in low:
        await act2.high_availability(op)
    elif "rolling update" in low or "new image" in low:
        await act2.rolling(op)
    elif re.search(r"\bwho\b.*\b(loop in|contact|page|call|own)", low):
        await obs.ownership(op)
    elif "dashboard" in low:
        await obs.dashboard(op)
    elif re.search(r"\btrace\b", low):
        await obs.trace(op)
    elif settings(op.prompt) or re.search(r"\b(?i:enable|disable)\s+[A-Z][A-Z0-9_]{2,}", op.prompt):
        await act.config_change(op)
    elif re.search(r"\bscale\b|\breplicas?\b|\b\d+x\b", low):
        await act.scale(op)
    elif re.match(r"\s*(please\s+)?restart\b", low):
        await act.restart_only(op)
    else:
        await dg.diagnose(op)


def settings(prompt: str) -> list[tuple[str, str]]:
    """KEY=value or "set KEY to value" pairs the request gives."""
    pairs = re.findall(r"\b([A-Z][A-Z0-9_]{2,})\s*=\s*([\w.\-:/]+)", prompt)
    pairs += re.findall(
        r"\b(?:[Ss]et|[Uu]pdate|[Cc]hange)\s+([A-Z][A-Z0-9_]{2,})\s+to\s+\"?([\w.\-:/]+)", prompt
    )
    return [(k, v.rstrip(".,")) for k, v in pairs]


async def targets(op: Op) -> tuple[list[str], str]:
    """The workloads the request names (deployments, else a bare pod), and their kind."""
    deps, _ = await lk.names_of(op, "deployments", op.ns)
    hit = named(op.prompt, deps)
    if hit:
        return hit, "deployment"
    pods, _ = await lk.names_of(op, "pods", op.ns)
    for pod in pods:
        one = re.sub(r"-[a-z0-9]{4,5}$", "", pod)
        two = re.sub(r"-[a-z0-9]{5,10}$", "", one)
        if named(op.prompt, [pod]) or named(op.prompt, [one]) or named(op.prompt, [two]):
            return [pod], "pod"
    return [], ""


def named(prompt: str, names: list[str]) -> list[str]:
    from .operator_heldout43 import named as _named

    return _named(prompt, names)
