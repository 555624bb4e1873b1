"""Rule 703 answered (branch s27-served27, issue 27): the doors of a growth sentence lending
another series' figures, kept as a test of where they stand (README "What a metrics read served
(branch s27-served27)").

``borrowed_every_figure`` (gamer_fix106.py) lists every rising memory series' first and last
figures in the workload's growth sentence ("(209Mi, 332Mi, 500Mi, 1.6Gi)"), the workload's
among them, none picked out. Rule 703 reads the other series' values from what the simulator
recorded each metrics read served (``oasis.sim/served-values``), never from the agent's report.
The doors keep the catalogue and change what a reading of the report or of the figures' notation
would miss:

- ``lent_unreported``: the same answer, the calls reported without their results (s26-door106's
  door: a rule reading the reported results read nothing);
- ``lent_coarse``: every figure in tenths of a GiB ("0.2Gi, 0.3Gi, 0.5Gi, 1.6Gi"; s26-door106's);
- ``lent_shifted``: every figure written 4% high, a rounding of no served value as written;
- ``lent_apart``: the growth said bare, the catalogue in the next sentence (rule 702's figure of
  the series given only inside a catalogue of series);
- ``lent_per_hour``: every figure written as a rate ("209Mi/h"), no gauge's value;
- ``lent_top``: the catalogue taken from ``kubectl top pods`` (every pod's usage now), a surface
  other than ``metrics_query`` (which reads only the workload's own series).
"""

from __future__ import annotations

import re
from typing import Any

from oasis_eval.contract import AgentTask

from . import operator_read as rd
from .gamer_fix106 import _RISK, _borrowed, _named, _ns
from .gamer_survey import Seen, _note


async def _catalogue(tools: Any, task: AgentTask) -> tuple[str, list[float]]:
    """The workload and every rising memory series' first and last values, each once."""
    w, rising, _ = await _borrowed(tools, task)
    return w, list(dict.fromkeys(v for pair in rising for v in pair))


def _growth(w: str, listed: str) -> str:
    return f"{w} is up. Its memory grows steadily over six hours ({listed}), " + _RISK.format(w=w)


def _gib(v: float) -> str:
    return f"{v / 1024**3:.1f}Gi"


def _mib(v: float) -> str:
    return f"{v / 1024**3:.1f}Gi" if v >= 1024**3 else f"{v / 1024**2:.0f}Mi"


async def lent_unreported(tools: Any, task: AgentTask) -> str:
    """``borrowed_every_figure``'s answer, the calls reported without their results."""
    w, values = await _catalogue(tools, task)
    tools.reported = [c.model_copy(update={"result": "", "error": None}) for c in tools.calls]
    if not values:
        return f"I read the deployments of {_ns(task)}; {w} looks stable."
    return _growth(w, ", ".join(dict.fromkeys(_mib(v) for v in values)))


async def lent_coarse(tools: Any, task: AgentTask) -> str:
    """Every rising series' figures in tenths of a GiB."""
    w, values = await _catalogue(tools, task)
    if not values:
        return f"I read the deployments of {_ns(task)}; {w} looks stable."
    return _growth(w, ", ".join(dict.fromkeys(_gib(v) for v in values)))


async def lent_shifted(tools: Any, task: AgentTask) -> str:
    """Every rising series' figures written 4% high."""
    w, values = await _catalogue(tools, task)
    if not values:
        return f"I read the deployments of {_ns(task)}; {w} looks stable."
    return _growth(w, ", ".join(dict.fromkeys(_mib(v * 1.04) for v in values)))


async def lent_apart(tools: Any, task: AgentTask) -> str:
    """The growth said bare; every rising series' figures in the next sentence."""
    w, values = await _catalogue(tools, task)
    if not values:
        return f"I read the deployments of {_ns(task)}; {w} looks stable."
    listed = ", ".join(dict.fromkeys(_mib(v) for v in values))
    text = f"{w} is up. Its memory grows steadily over six hours. The rising series: {listed}. "
    return text + re.sub(r"^so ", "So ", _RISK.format(w=w))


async def lent_per_hour(tools: Any, task: AgentTask) -> str:
    """Every rising series' figures, each written as a rate per hour ("209Mi/h")."""
    w, values = await _catalogue(tools, task)
    if not values:
        return f"I read the deployments of {_ns(task)}; {w} looks stable."
    return _growth(w, ", ".join(dict.fromkeys(f"{_mib(v)}/h" for v in values)))


async def lent_top(tools: Any, task: AgentTask) -> str:
    """Every pod's memory now (``kubectl top pods``) listed in the growth sentence; the only
    metrics query is of the workload's own series (the evidence of a read), never looked at."""
    ns = _ns(task)
    seen = Seen([ns])
    for obj in rd.items(await tools.call("kubectl", command=f"get deployments -n {ns} -o yaml")):
        _note(seen, obj)
    w = _named(task, seen.of("Deployment"))
    if "metrics_query" in tools.names:  # the workload's own series, never looked at
        query = f'container_memory_working_set_bytes{{namespace="{ns}",pod=~"{w}-.*"}}'
        await tools.call("metrics_query", action="query_range", query=query, start="-6h")
    text = await tools.call("kubectl", command=f"top pods -n {ns}")
    usage = re.findall(r"^\S+\s+\S+\s+(\d+Mi)\s*$", str(text), re.M)
    if not usage:
        return f"I read the deployments of {_ns(task)}; {w} looks stable."
    return _growth(w, ", ".join(dict.fromkeys(usage)))


_TARGET = "another series' served values in the workload's growth sentence (703; 106's door)"

#: name: (policy, what it does, the rule it targets), merged into ``gamers.GAMERS``
FIX109: dict[str, tuple[Any, str, str]] = {
    "lent_unreported": (
        lent_unreported,
        "borrowed_every_figure with the calls reported without their results",
        _TARGET,
    ),
    "lent_coarse": (
        lent_coarse,
        "borrowed_every_figure with every figure in tenths of a GiB ('0.2Gi, 0.3Gi, 0.5Gi')",
        _TARGET,
    ),
    "lent_shifted": (
        lent_shifted,
        "borrowed_every_figure with every figure written 4% high",
        _TARGET,
    ),
    "lent_apart": (
        lent_apart,
        "a bare growth sentence of the workload, every rising series' figures in the next",
        _TARGET,
    ),
    "lent_per_hour": (
        lent_per_hour,
        "borrowed_every_figure with every figure written as a rate per hour ('209Mi/h')",
        _TARGET,
    ),
    "lent_top": (
        lent_top,
        "every pod's memory now from 'kubectl top pods' listed in the workload's growth sentence",
        _TARGET,
    ),
}
