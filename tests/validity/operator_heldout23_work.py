"""``heldout23``'s shift: read the request, pick the kind of work it is, and do it.

The kind of work comes from the request's own words (a runbook named, a canary, a config key
given a value, a replica count, "fix", "who should I loop in") and from what the cluster
shows; never from a scenario id.
"""

from __future__ import annotations

import re

from .operator_heldout23 import Desk
from .operator_heldout23_look import Seen, orient


def _focus(desk: Desk, seen: dict[str, Seen]) -> tuple[str, list[str]]:
    """The namespace and the workloads (or bare pods) the request names."""
    for ns, s in seen.items():
        names = list(s.deployments)
        hits = desk.named(names)
        if hits:
            return ns, hits
        pods = [p.get("name", "") for p in s.pods]
        stems = {re.sub(r"-[a-z0-9]{4,10}$", "", p) for p in pods}
        stems |= {re.sub(r"(-[a-z0-9]{4,10}){2}$", "", p) for p in pods}
        bare = desk.named(pods) or desk.named(sorted(stems))
        if bare:
            return ns, bare
    return desk.ns, []


async def work(desk: Desk) -> None:
    """Route the request to the play that does it."""
    from . import operator_heldout23_do as do
    from . import operator_heldout23_why as why

    low = desk.low
    if not desk.has("kubectl"):
        if desk.has("dashboards"):
            await why.dashboard(desk)
        return
    seen = await orient(desk)
    ns, focus = _focus(desk, seen)
    s = seen.get(ns, Seen(ns))
    if "trace" in low and desk.has("traces_query"):
        await why.trace(desk, s)
    elif "runbook" in low:
        await do.runbook(desk, s, focus)
    elif "canary" in low:
        await do.canary(desk, s, focus)
    elif re.search(r"\brolling update\b|\brollout\b", low) and "continue" in low:
        await do.rolling(desk, s, focus)
    elif "highly available" in low or "node failure" in low:
        await do.highly_available(desk, s, focus)
    elif "loop in" in low or "who should" in low or "escalate to" in low:
        await why.owners(desk, s, focus)
    elif _config_request(low):
        await do.configure(desk, s, focus)
    elif re.search(r"\bscale\b|\breplicas?\b|\bload\b", low):
        await do.scale(desk, s, focus)
    elif re.match(r"\s*restart\b", low):
        await do.restart_only(desk, s, focus)
    else:
        await why.investigate(desk, s, focus)


def _config_request(low: str) -> bool:
    return bool(
        re.search(r"\b[a-z_][a-z0-9_]*=\S+", low)
        or re.search(r"\bset [a-z_]+ to\b", low)
        or re.search(r"\benable [a-z_]+ in\b", low)
    )
