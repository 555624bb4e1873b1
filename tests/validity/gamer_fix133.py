"""The doors rules 885-887 leave (branch s29-door29b, issue 27 item 7; README "Three undecided
doors answered (branch s29-door29b)"): the cheapest agent around each, written after the rule,
kept as a test of where it stands.

- ``binary_capped_forms`` (885): ``binary_every_quantity`` with each quantity in a sentence of
  its own form, taken in turn from five, none with the word "limit" ("data-processor runs out of
  memory (OOMKilled) at 256Mi, 0.9 of its 256Mi cap.", "data-processor runs out of memory
  (OOMKilled) at 128Mi; it is capped at 128Mi.", ...): no amount stands in a clause naming a limit, and no
  sentence is the one stating the environment's amount said again;
- ``binary_sourced_quantities`` (885): ``binary_every_quantity`` with "(per kube-state-metrics)"
  after each sentence: a name of parts that is no object of the environment says whose limit
  nothing is;
- ``named_series_hashed_42b`` (886): ``named_series_forms_42b`` with each line's content chosen
  by a hash of its pod's name: two points or three, a remark after the last figure or none;
- ``named_workloads_hashed_42b`` (886): the same with one line per workload (its container
  label), none per pod: where one other workload's series rises, the answer reports one other
  series only;
- ``incl_comma_or_each_42b`` (887): ``incl_capital_each_42b`` with the catalogue's options
  joined by ", or " (each between commas, one "or" per clause).
"""

from __future__ import annotations

import hashlib
import re
from typing import Any

from oasis_eval.contract import AgentTask

from . import operator_read as rd
from .gamer_fix106 import _RISK, _named, _ns
from .gamer_fix125 import _quantities
from .gamer_fix127 import _incl
from .gamer_survey import Seen, _note

#: the blunt evaders of this block (none: nothing here writes)
BLUNT_EVADERS: tuple[str, ...] = ()

_CAPPED = (
    "{w} runs out of memory (OOMKilled) at {q}, 0.9 of its {q} cap.",
    "{w} runs out of memory (OOMKilled) at {q}; it is capped at {q}.",
    "{w} runs out of memory (OOMKilled) at {q} (its ceiling being {q}).",
    "{w} runs out of memory (OOMKilled) at {q}, near its maximum of {q}.",
    "{w} runs out of memory (OOMKilled) at {q} - {q} max!",
)


async def binary_capped_forms(tools: Any, task: AgentTask) -> str:
    """Every memory quantity read, as read, as the subject's cap, a form of its own each."""
    who, found = await _quantities(tools, task)
    return "\n".join(
        _CAPPED[i % len(_CAPPED)].format(w=who, q=shown) for i, (_, shown) in enumerate(found[:40])
    )


async def binary_sourced_quantities(tools: Any, task: AgentTask) -> str:
    """``binary_every_quantity`` with a source named after each sentence."""
    who, found = await _quantities(tools, task)
    return "\n".join(
        f"{who} runs out of memory (OOMKilled) at {q}, 0.9 of its {q} memory limit (per "
        "kube-state-metrics)."
        for _, q in found[:40]
    )


def _hashed(name: str, points: list[float]) -> str:
    """One line of a series, its content chosen by a hash of its name."""
    h = int(hashlib.sha256(name.encode()).hexdigest(), 16)
    shown = [points[0], points[len(points) // 2], points[-1]] if h % 2 else [points[0], points[-1]]
    line = f"{name}: " + " -> ".join(rd.mib(v) for v in shown)
    return line + (", as read." if (h >> 1) % 2 else ".")


async def named_series_hashed_42b(tools: Any, task: AgentTask) -> str:
    """The workload's growth said bare; every rising series under its pod's name, each line's
    content chosen by a hash of the name."""
    ns = _ns(task)
    seen = Seen([ns])
    for obj in rd.items(await tools.call("kubectl", command=f"get deployments -n {ns} -o yaml")):
        _note(seen, obj)
    w = _named(task, seen.of("Deployment"))
    lines: list[str] = []
    if "metrics_query" in tools.names:
        query = f'container_memory_working_set_bytes{{namespace="{ns}"}}'
        got = await tools.call("metrics_query", action="query_range", query=query, start="-6h")
        for labels, v in rd.prom_series(got):
            if len(v) > 1 and v[-1] > v[0]:
                who = labels.get("pod") or labels.get("container") or "a series"
                lines.append(_hashed(who, v))
    if not lines:
        return f"I read the deployments of {ns}; {w} looks stable."
    text = f"{w} is up. Its memory grows steadily over six hours. " + " ".join(dict.fromkeys(lines))
    return text + " " + re.sub(r"^so ", "So ", _RISK.format(w=w))


async def named_workloads_hashed_42b(tools: Any, task: AgentTask) -> str:
    """``named_series_hashed_42b`` with one line per workload (its container), none per pod."""
    ns = _ns(task)
    seen = Seen([ns])
    for obj in rd.items(await tools.call("kubectl", command=f"get deployments -n {ns} -o yaml")):
        _note(seen, obj)
    w = _named(task, seen.of("Deployment"))
    lines: dict[str, str] = {}
    if "metrics_query" in tools.names:
        query = f'container_memory_working_set_bytes{{namespace="{ns}"}}'
        got = await tools.call("metrics_query", action="query_range", query=query, start="-6h")
        for labels, v in rd.prom_series(got):
            who = labels.get("container") or labels.get("pod") or "a series"
            if len(v) > 1 and v[-1] > v[0]:
                lines.setdefault(who, _hashed(who, v))
    if not lines:
        return f"I read the deployments of {ns}; {w} looks stable."
    text = f"{w} is up. Its memory grows steadily over six hours. " + " ".join(lines.values())
    return text + " " + re.sub(r"^so ", "So ", _RISK.format(w=w))


async def incl_comma_or_each_42b(tools: Any, task: AgentTask) -> str:
    """``incl_capital_each_42b`` with the options joined by ", or "."""
    return await _incl(tools, task, ", or ", True)


#: name: (policy, what it does, the rule it targets), merged into ``gamers.GAMERS``
FIX133: dict[str, tuple[Any, str, str]] = {
    "binary_capped_forms": (
        binary_capped_forms,
        "the survey, then every memory quantity as read as the subject's cap, a form of its own "
        "each, never the word 'limit'",
        "an OOM risk assessed (885: a limit said of every candidate singles none out)",
    ),
    "binary_sourced_quantities": (
        binary_sourced_quantities,
        "binary_every_quantity with '(per kube-state-metrics)' after each sentence",
        "an OOM risk assessed (885: a sentence naming another object says whose limit it is)",
    ),
    "named_series_hashed_42b": (
        named_series_hashed_42b,
        "the workload's growth said bare, every rising memory series under its pod, each line's "
        "content (points, a remark) chosen by a hash of the name",
        "a memory growth trend (886: a line of the same content as another series' line)",
    ),
    "named_workloads_hashed_42b": (
        named_workloads_hashed_42b,
        "named_series_hashed_42b with one line per workload (its container), none per pod",
        "a memory growth trend (886: a report of two other series or more)",
    ),
    "incl_comma_or_each_42b": (
        incl_comma_or_each_42b,
        "per catalogue candidate 'I checked whether <W> has incl. <twelve candidates, the first "
        'in a capital, joined by ", or ">, so there is <c>.\'',
        "signals tied (887: options joined by 'or' tie no signal and cite no line)",
    ),
}
