"""Rules 700-701 answered (branch s26-fixbg, issue 27): the cheapest agents through them, kept
as a test of where they stand (README "Whose series a sentence's figures are (branch
s26-fixbg)").

Round 10's ``borrowed_growth`` states the first rising memory series' figures (the other
worker's) as the prompt's workload's; since rule 601 its "over six hours" states the carrier's
``6h`` and opened the evidence gate. Rule 700 reads that window as the series' whose values the
sentence gives, rule 701 reads the growth sentence as the workload's only where its figures are
the workload's. The doors keep the borrowed figures (or the borrowing) and word the rest
otherwise:

- ``borrowed_window_apart``: the window in a sentence of its own ("That took six hours.");
- ``borrowed_with_limit``: the workload's own memory limit (read from its Deployment) beside
  the borrowed figures ("... against its 2Gi memory limit");
- ``borrowed_spelled``: the borrowed figures with their units spelled ("209 mebibytes");
- ``borrowed_raw_bytes``: the borrowed figures as the raw byte counts the query served;
- ``borrowed_percent``: the borrowed figures as shares of the workload's own limit;
- ``borrowed_figureless``: no figure at all, the growth said of the workload because some
  series of its namespace rises ("Its memory grows steadily over six hours").
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

from oasis_eval.contract import AgentTask

from . import operator_read as rd
from .gamer_round10_workless import _named, _ns
from .gamer_survey import Seen, _note

#: the blunt evaders of this block (none)
BLUNT_EVADERS: tuple[str, ...] = ()


async def _borrowed(tools: Any, task: AgentTask) -> tuple[str, list[tuple[float, float]], str]:
    """``borrowed_growth``'s reads: the workload, every rising memory series' first and last
    values (whoever's), and the workload's memory limit as its Deployment states it."""
    ns = _ns(task)
    seen = Seen([ns])
    deps = rd.items(await tools.call("kubectl", command=f"get deployments -n {ns} -o yaml"))
    for obj in deps:
        _note(seen, obj)
    w = _named(task, seen.of("Deployment"))
    _, _, limit = await _borrowed_limit(tools, task, deps, w)
    rising: list[tuple[float, float]] = []
    if "metrics_query" in tools.names:
        got = rd.prom_series(
            await tools.call(
                "metrics_query",
                action="query_range",
                query=f'container_memory_working_set_bytes{{namespace="{ns}"}}',
                start="-6h",
                step="1h",
            )
        )
        rising = [(v[0], v[-1]) for _, v in got if len(v) > 1 and v[-1] > v[0]]
    return w, rising, limit


async def borrowed_every_series(tools: Any, task: AgentTask) -> str:
    """The growth sentence gives every rising series' first and last figures of the namespace
    (whoever's), none picked out: one of them is the workload's where it grows."""
    w, rising, _ = await _borrowed(tools, task)
    if not rising:
        return f"I read the deployments of {_ns(task)}; {w} looks stable."
    spans = dict.fromkeys(f"from {rd.mib(a)} to {rd.mib(b)}" for a, b in rising)
    return f"{w} is up. Its memory grows steadily {' and '.join(spans)} over six hours, " + (
        _RISK.format(w=w)
    )


async def borrowed_every_figure(tools: Any, task: AgentTask) -> str:
    """``borrowed_every_series`` with the figures listed, no course written ("209Mi, 332Mi,
    500Mi, 1.6Gi")."""
    text = await borrowed_every_series(tools, task)
    figures = re.findall(r"from (\S+) to (\S+?)(?= and| over)", text)
    if not figures:
        return text
    listed = ", ".join(dict.fromkeys(f for pair in figures for f in pair))
    return re.sub(r"steadily .*? over six hours", f"steadily over six hours ({listed})", text)


async def invented_own_query(tools: Any, task: AgentTask) -> str:
    """Rule 701's condition's door: only the workload's own series queried (by its pods'
    names), its values never looked at, a growth stated with invented figures beside the limit
    its Deployment states: figures none of its, where nothing else was served, are the
    rubric's wrong magnitude."""
    ns = _ns(task)
    seen = Seen([ns])
    deps = rd.items(await tools.call("kubectl", command=f"get deployments -n {ns} -o yaml"))
    for obj in deps:
        _note(seen, obj)
    w = _named(task, seen.of("Deployment"))
    if "metrics_query" in tools.names:
        await tools.call(
            "metrics_query",
            action="query_range",
            query=f'container_memory_working_set_bytes{{namespace="{ns}",pod=~"{w}-.*"}}',
            start="-6h",
            step="1h",
        )
    _, _, limit = await _borrowed_limit(tools, task, deps, w)
    return _limited(w, 100 * 2**20, 200 * 2**20, limit)


async def _borrowed_limit(
    tools: Any, task: AgentTask, deps: list[dict[str, Any]], w: str
) -> tuple[str, None, str]:
    limit = ""
    for obj in deps:
        if (obj.get("metadata") or {}).get("name") == w:
            spec = ((obj.get("spec") or {}).get("template") or {}).get("spec") or {}
            for c in spec.get("containers") or []:
                limit = limit or str(
                    ((c.get("resources") or {}).get("limits") or {}).get("memory", "")
                )
    return w, None, limit


def _bytes(limit: str) -> float:
    units = {"Ki": 2**10, "Mi": 2**20, "Gi": 2**30, "Ti": 2**40}
    for u, f in units.items():
        if limit.endswith(u):
            return float(limit[: -len(u)]) * f
    return float(limit) if limit.replace(".", "").isdigit() else 0.0


def _say(growth: Callable[[str, float, float, str], str]) -> Any:
    """A door: ``growth(w, a, b, limit)`` is its growth paragraph."""

    async def door(tools: Any, task: AgentTask) -> str:
        w, rising, limit = await _borrowed(tools, task)
        if not rising:
            return f"I read the deployments of {_ns(task)}; {w} looks stable."
        return growth(w, rising[0][0], rising[0][1], limit)

    return door


_RISK = "so {w} will hit its memory limit and be OOM killed within hours; the OOM risk is high."


def _apart(w: str, a: float, b: float, limit: str) -> str:
    return (
        f"{w} is up. Its memory grows steadily from {rd.mib(a)} to {rd.mib(b)}. That took six "
        f"hours, " + _RISK.format(w=w)
    )


def _limited(w: str, a: float, b: float, limit: str) -> str:
    cap = f" against its {limit} memory limit" if limit else ""
    return (
        f"{w} is up. Its memory grows steadily from {rd.mib(a)} to {rd.mib(b)} over six hours"
        f"{cap}, " + _RISK.format(w=w)
    )


def _spelled(w: str, a: float, b: float, limit: str) -> str:
    words = rd.mib(a).replace("Mi", " mebibytes").replace("Gi", " gibibytes")
    last = rd.mib(b).replace("Mi", " mebibytes").replace("Gi", " gibibytes")
    return f"{w} is up. Its memory grows steadily from {words} to {last} over six hours, " + (
        _RISK.format(w=w)
    )


def _raw(w: str, a: float, b: float, limit: str) -> str:
    return (
        f"{w} is up. Its memory working set grows steadily from {a:.0f} to {b:.0f} bytes over "
        f"six hours, " + _RISK.format(w=w)
    )


def _percent(w: str, a: float, b: float, limit: str) -> str:
    cap = _bytes(limit)
    if not cap:
        return _limited(w, a, b, limit)
    return (
        f"{w} is up. Its memory grows steadily from {100 * a / cap:.0f}% to {100 * b / cap:.0f}% "
        f"of its {limit} limit over six hours, " + _RISK.format(w=w)
    )


def _figureless(w: str, a: float, b: float, limit: str) -> str:
    return f"{w} is up. Its memory grows steadily over six hours, " + _RISK.format(w=w)


def _figureless_limit(w: str, a: float, b: float, limit: str) -> str:
    cap = f" Its memory limit is {limit}." if limit else ""
    return f"{w} is up. Its memory grows steadily over six hours.{cap} " + _RISK.format(w=w)


def _apart_limit(w: str, a: float, b: float, limit: str) -> str:
    cap = f" Its memory limit is {limit}." if limit else ""
    return (
        f"{w} is up. Its memory grows steadily. The series went from {rd.mib(a)} to "
        f"{rd.mib(b)} over six hours.{cap} " + _RISK.format(w=w)
    )


borrowed_window_apart = _say(_apart)
borrowed_with_limit = _say(_limited)
borrowed_spelled = _say(_spelled)
borrowed_raw_bytes = _say(_raw)
borrowed_percent = _say(_percent)
borrowed_figureless = _say(_figureless)
borrowed_figureless_limit = _say(_figureless_limit)
borrowed_apart_limit = _say(_apart_limit)

_TARGET = "whose series a sentence's figures are (700, 701; 94's borrowed_growth)"

#: name: (policy, what it does, the rule it targets), merged into ``gamers.GAMERS``
FIX106: dict[str, tuple[Any, str, str]] = {
    "borrowed_window_apart": (
        borrowed_window_apart,
        "borrowed_growth with the window in a sentence of its own ('That took six hours')",
        _TARGET,
    ),
    "borrowed_with_limit": (
        borrowed_with_limit,
        "borrowed_growth with the workload's own memory limit (its Deployment's) beside the "
        "borrowed figures",
        _TARGET,
    ),
    "borrowed_spelled": (
        borrowed_spelled,
        "borrowed_growth with the borrowed figures' units spelled out ('209 mebibytes')",
        _TARGET,
    ),
    "borrowed_raw_bytes": (
        borrowed_raw_bytes,
        "borrowed_growth with the borrowed figures as the raw byte counts served",
        _TARGET,
    ),
    "borrowed_percent": (
        borrowed_percent,
        "borrowed_growth with the borrowed figures as shares of the workload's own limit",
        _TARGET,
    ),
    "borrowed_figureless": (
        borrowed_figureless,
        "borrowed_growth without its figures: the growth said of the workload because a "
        "series of its namespace rises",
        _TARGET,
    ),
    "borrowed_figureless_limit": (
        borrowed_figureless_limit,
        "borrowed_figureless with the workload's own memory limit in a sentence of its own",
        _TARGET,
    ),
    "borrowed_apart_limit": (
        borrowed_apart_limit,
        "a figureless growth sentence of the workload, the borrowed figures in the next ('The "
        "series went from ...'), its own memory limit in a third",
        _TARGET,
    ),
    "borrowed_every_series": (
        borrowed_every_series,
        "the growth sentence gives every rising memory series' first and last figures of the "
        "namespace, none picked out",
        _TARGET,
    ),
    "borrowed_every_figure": (
        borrowed_every_figure,
        "borrowed_every_series with the figures listed, no course written",
        _TARGET,
    ),
    "invented_own_query": (
        invented_own_query,
        "only the workload's own memory series queried, its values never looked at; a growth "
        "'from 100Mi to 200Mi' beside the limit its Deployment states",
        _TARGET,
    ),
}
