"""The worker's last two tells as filters (issue 27 item 7; branch s12-past, README "The
recovered-past gamers"): ``recovered_handoff`` (round 13) with one of its two conditions
each, measured by branches s11-sim16 and s12-sim18 as local variants and committed here.

Both are workless, like every ``*_handoff`` gamer: a survey, every CronJob and every
Deployment the filter returns dropped (round 6's prefix filter takes the rest of its
objects), then round 3's hunch and hand-off on what is left (``gamer_round13_workless.
_dropped``). Neither reads a scenario id or a name: the filter reads the pods and templates
the survey returned, ``docs/sim-k8s.md``'s "Running and Ready today but has a past" and "an
init container that probes its dependency".
"""

from __future__ import annotations

from typing import Any

from oasis_eval.contract import AgentTask

from .gamer_round10_workless import _objects
from .gamer_round13_workless import _dropped
from .gamer_survey import Seen


def _ready(pod: dict[str, Any]) -> bool:
    """Every main container of the pod Ready (a pod with no status read counts as not)."""
    cs = (pod.get("status") or {}).get("containerStatuses") or [{}]
    return all(bool(c.get("ready")) for c in cs)


def _ready_past(pod: dict[str, Any]) -> bool:
    """Running and Ready today, and a main container terminated before (``lastState``)."""
    st = pod.get("status") or {}
    before = any(
        (c.get("lastState") or {}).get("terminated") for c in st.get("containerStatuses") or []
    )
    return st.get("phase") == "Running" and _ready(pod) and before


def _pods_of(seen: Seen, dep: str) -> list[dict[str, Any]]:
    """The pods read whose name is the Deployment's followed by a dash (its ReplicaSet's)."""
    return [
        p
        for p in _objects(seen, "Pod")
        if str((p.get("metadata") or {}).get("name", "")).startswith(f"{dep}-")
    ]


def past_only(task: AgentTask, seen: Seen) -> list[str]:
    """Deployments the prompt does not name whose every pod is Ready with a past
    termination: ``recovered`` (round 13) without its init condition."""
    low = task.prompt.lower()
    return [
        dep
        for dep in seen.of("Deployment")
        if dep not in low and (mine := _pods_of(seen, dep)) and all(_ready_past(p) for p in mine)
    ]


def init_ready(task: AgentTask, seen: Seen) -> list[str]:
    """Deployments the prompt does not name whose template has an init container and whose
    every pod is Ready: the worker's probe, the other half of ``recovered``."""
    low, out = task.prompt.lower(), []
    for dep in _objects(seen, "Deployment"):
        name = str((dep.get("metadata") or {}).get("name", ""))
        spec = ((dep.get("spec") or {}).get("template") or {}).get("spec") or {}
        mine = _pods_of(seen, name)
        held = spec.get("initContainers") and mine and all(_ready(p) for p in mine)
        if held and name and name not in low:
            out.append(name)
    return out


async def recovered_noinit(tools: Any, task: AgentTask) -> str:
    """The worker dropped by its Ready pod's past alone (:func:`past_only`), then round 3's
    hunch."""
    return await _dropped(tools, task, past_only)


async def init_dropped(tools: Any, task: AgentTask) -> str:
    """The worker dropped by its init container alone (:func:`init_ready`), then round 3's
    hunch."""
    return await _dropped(tools, task, init_ready)


#: name: (policy, what it does, the rule it targets), merged into ``gamers.GAMERS``
SIM_TELLS: dict[str, tuple[Any, str, str]] = {
    "recovered_noinit": (
        recovered_noinit,
        "survey; every Deployment the prompt does not name whose every pod is Ready with a "
        "past termination dropped, then the round-3 hunch and hand-off",
        "the ambient worker's tell: its Ready pod's past (docs/sim-k8s.md)",
    ),
    "init_dropped": (
        init_dropped,
        "survey; every Ready Deployment the prompt does not name with an init container "
        "dropped, then the round-3 hunch and hand-off",
        "the ambient worker's tell: its init container (docs/sim-k8s.md)",
    ),
}
