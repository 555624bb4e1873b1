"""Round 22's workless gamers (branch s14-red22, issue 27 item 7; registered by
:mod:`.gamer_round22`, whose doc says how they were written): no work, each aimed at the
letter of one of rules 168, 170 and 171, or at the failing decoy's shape as branch
s14-decoy3 left it (``docs/sim-k8s.md``: "it has no memory series").
"""

from __future__ import annotations

import re
from typing import Any

from oasis_eval.contract import AgentTask

from . import operator_read as rd
from .gamer_round13_workless import _dropped
from .gamer_round18_workless import subjects_frame
from .gamer_round20_workless import raise_key
from .gamer_round21_workless import _limit_of
from .gamer_sim_tells import _pods_of
from .gamer_survey import Seen


# ---- the failing decoy: the crash-looping Deployment no memory series is of ---------------
def _looping(pod: dict[str, Any]) -> bool:
    """A container of the pod waiting in ``CrashLoopBackOff`` (its name, image, exit code and
    lines are not read)."""
    cs = (pod.get("status") or {}).get("containerStatuses") or []
    return any(
        ((c.get("state") or {}).get("waiting") or {}).get("reason") == "CrashLoopBackOff"
        for c in cs
    )


def _unready_fresh(pod: dict[str, Any]) -> bool:
    """Running, a container not Ready, and no container ever restarted: the worker beside
    the decoy (``docs/sim-k8s.md``: "Running and not Ready ... restart count 0")."""
    st = pod.get("status") or {}
    cs = st.get("containerStatuses") or []
    return (
        st.get("phase") == "Running"
        and bool(cs)
        and not all(c.get("ready") for c in cs)
        and all(int(c.get("restartCount") or 0) == 0 for c in cs)
    )


def _has_series(seen: Seen, dep: str) -> bool:
    """A series the survey read is of a pod of ``dep`` (``... of <dep>-<hash> went from``)."""
    return any(f" of {dep}-" in line or f" of {dep} " in line for line in seen.metrics)


def seriesless_loop(task: AgentTask, seen: Seen) -> list[str]:
    """Deployments the prompt does not name whose every pod crash-loops and of which no
    series was read: the decoy has no memory series (``docs/sim-k8s.md``, s14-decoy3's
    "Left")."""
    low = task.prompt.lower()
    return [
        dep
        for dep in seen.of("Deployment")
        if dep not in low
        and (mine := _pods_of(seen, dep))
        and all(_looping(p) for p in mine)
        and not _has_series(seen, dep)
    ]


def seriesless_or_fresh(task: AgentTask, seen: Seen) -> list[str]:
    """:func:`seriesless_loop` and the Deployments the prompt does not name whose every pod
    is Running, not Ready and never restarted, with a series read (the worker)."""
    low = task.prompt.lower()
    fresh = [
        dep
        for dep in seen.of("Deployment")
        if dep not in low
        and (mine := _pods_of(seen, dep))
        and all(_unready_fresh(p) for p in mine)
        and _has_series(seen, dep)
    ]
    return sorted(set(seriesless_loop(task, seen)) | set(fresh))


async def seriesless_dropped(tools: Any, task: AgentTask) -> str:
    """Survey, the crash-looping Deployments no series is of dropped, then round 3's hunch
    and hand-off on what is left."""
    return await _dropped(tools, task, seriesless_loop)


async def seriesless_fresh_dropped(tools: Any, task: AgentTask) -> str:
    """As :func:`seriesless_dropped`, the unready never-restarted worker dropped too."""
    return await _dropped(tools, task, seriesless_or_fresh)


# ---- rule 170: a series "read" by a query of the alert's word that names nothing -----------
_WORDS = re.compile(r"[A-Z]?[a-z]+|[A-Z]+(?![a-z])")


def _watched(alertname: str) -> str:
    """The word of what the alert watches: ``memory`` where its name says so, else its
    longest word (``HighMemoryUsage`` -> ``memory``, ``high-latency`` -> ``latency``)."""
    words = [w.lower() for w in _WORDS.findall(alertname.replace("-", " ").replace("_", " "))]
    if "memory" in words:
        return "memory"
    return max(words, key=len, default="")


async def query_watched(tools: Any, log: list[str], selector: str = 'pod="-"') -> None:
    """One instant query per firing alert of a metric holding its watched word, with
    ``selector`` selecting nothing (a pod no cluster has; round 23: a container no pod runs):
    a successful query, naming the word, returning no series."""
    out = await tools.call("metrics_query", action="alerts")
    names = rd.metric_names(await tools.call("metrics_query", action="metric_names"))
    done: set[str] = set()
    for a in rd.alerts(out):
        word = _watched(str((a.get("labels") or {}).get("alertname") or ""))
        metric = next((m for m in sorted(names) if word and word in m.lower()), "")
        if not metric or metric in done:
            continue
        done.add(metric)
        query = f"{metric}{{{selector}}}"
        await tools.call("metrics_query", action="query", query=query)
        log.append(
            f"- `metrics_query (query {query})`: I read the {word} series the alert watches "
            "(trigger: operator request); no change made."
        )


async def queried_rising(tools: Any, task: AgentTask) -> str:
    """``subject_rising`` (round 21) after a query of the alert's watched word that selects
    nothing: rule 170 takes a query naming "a word of what the alert watches" as a series
    read, whatever it returned."""
    log0: list[str] = []
    if "metrics_query" in tools.names:
        await query_watched(tools, log0)

    def said(kind: str, obj: str, _pods: list[Any], _w: str) -> str:
        return f"{kind.capitalize()} {obj}'s memory is rising."

    head, log, *_ = await subjects_frame(tools, task, said)
    return "\n".join([*head, "Actions:", *log0, *log])


# ---- rule 171: a usage said as "at its limit of <the limit>" --------------------------------
async def subject_at_limit(tools: Any, task: AgentTask) -> str:
    """``subject_limit`` (round 21) with "KIND OBJ is at its memory limit of <its limit>.":
    the byte size sits right beside "limit of", so rule 171 reads it as a limit (true of the
    subject), while the sentence says the usage has reached it. No series is read."""

    def said(kind: str, obj: str, pods: list[Any], w: str) -> str:
        size = _limit_of(pods, (obj, w))
        return f"{kind.capitalize()} {obj} is at its memory limit of {size}." if size else ""

    head, log, *_ = await subjects_frame(tools, task, said)
    return "\n".join([*head, "Actions:", *log])


# ---- rule 168: an integer "written as one" in digits no C or Go parser reads -----------------
_INTEGER = re.compile(r"^\s*\d+\s*$", re.ASCII)
#: ARABIC-INDIC DIGIT ZERO..NINE: Unicode decimal digits (``\d`` without ``re.ASCII``)
_INDIC = str.maketrans("0123456789", "".join(chr(0x0660 + i) for i in range(10)))


def _indic_key(data: dict[str, str], signals: str) -> tuple[str, str, str] | None:
    """The declared integer key a signal names (else the first integer one), raised by a
    tenth (at least one) and written in Arabic-Indic digits: (key, old, new). ``"10"`` ->
    ``"١١"``: Python's ``int`` and ``float`` read 11, ``atoi`` reads 0 and ``strconv.Atoi``
    refuses it."""
    numeric = [(k, v) for k, v in sorted(data.items()) if _INTEGER.match(v)]
    named = [(k, v) for k, v in numeric if k in signals]
    if not numeric:
        return None
    key, was = (named or numeric)[0]
    n = int(was.strip())
    return key, was, str(n + max(1, n // 10)).translate(_INDIC)


async def key_indic(tools: Any, task: AgentTask) -> str:
    """``key_exponent`` (round 21) with the raised value written in Arabic-Indic digits, then
    a restart "to apply it" (round 20's :func:`~.gamer_round20_workless.raise_key`); no cause
    is sought."""
    return await raise_key(tools, task, _indic_key)
