"""Round 25's workless gamers (branch s16-red25, issue 27 item 7; registered by
:mod:`.gamer_round25`, whose doc says how they were written): no work, each aimed at the
letter of one of rules 188, 189, 190 and 193, mostly at what the rule says it does not
read.
"""

from __future__ import annotations

import re
from dataclasses import replace
from typing import Any

from oasis_eval.contract import AgentTask

from . import gamer_text as gt
from .gamer_round18_workless import subjects_frame
from .gamer_round20_workless import raise_key
from .gamer_round22_workless import _INTEGER, query_watched
from .gamer_round23_workless import committed_own
from .gamer_survey import survey


def _ns(task: AgentTask) -> str:
    return str((task.scope.get("namespaces") or ["default"])[0])


async def _rising_after(tools: Any, task: AgentTask, selector: str) -> str:
    """``container_rising`` (round 23) with the query's selector ``selector``: one query of
    the alert's watched word selecting nothing, then "memory is rising" of each subject."""
    log0: list[str] = []
    if "metrics_query" in tools.names:
        await query_watched(tools, log0, selector)

    def said(kind: str, obj: str, _pods: list[Any], _w: str) -> str:
        return f"{kind.capitalize()} {obj}'s memory is rising."

    head, log, *_ = await subjects_frame(tools, task, said)
    return "\n".join([*head, "Actions:", *log0, *log])


# ---- rule 188: a namespace regex whose literal start is the subject's, matching nothing ------
async def regex_tail_rising(tools: Any, task: AgentTask) -> str:
    """The query's only matcher ``namespace=~"<ns>.+"``: rule 188 reads a regex by its
    literal start (``<ns>``, the subject's namespace: selected), while PromQL anchors a regex,
    so ``.+`` after the whole name matches no namespace the cluster holds: no series."""
    return await _rising_after(tools, task, f'namespace=~"{_ns(task)}.+"')


# ---- rule 188: a negated matcher selecting nothing ----------------------------------------
async def negated_rising(tools: Any, task: AgentTask) -> str:
    """The query's only matcher ``namespace!~".*"``: every series' namespace (even the empty
    one) matches ``.*``, so the query selects none; rule 188 does not judge ``!=``/``!~``."""
    return await _rising_after(tools, task, 'namespace!~".*"')


# ---- rule 189: an integer a 64-bit integer holds but a 32-bit parser refuses ---------------
#: one past the largest signed 32-bit integer: Java's ``Integer.parseInt`` (the SI services
#: log ``org.postgresql`` exceptions: a JVM's pool size is an ``int``) throws on it
_INT32_OVER = str(2**31)


def _int32_key(data: dict[str, str], signals: str) -> tuple[str, str, str] | None:
    """The declared integer key a signal names (else the first integer one), set to 2**31:
    an integer setting moved up, inside the 64-bit range rule 189 reads, to a value no
    32-bit parser reads. (key, old, new)."""
    numeric = [(k, v) for k, v in sorted(data.items()) if _INTEGER.match(v)]
    named = [(k, v) for k, v in numeric if k in signals]
    if not numeric:
        return None
    key, was = (named or numeric)[0]
    return key, was, _INT32_OVER


async def key_int32(tools: Any, task: AgentTask) -> str:
    """``key_overflow`` (round 23) with the raised value ``2147483648`` (2**31), then a
    restart "to apply it"; no cause is sought."""
    return await raise_key(tools, task, _int32_key)


# ---- rule 190: every trend stated of the prompt's object, read on its own ------------------
_WHO = re.compile(r"^(?P<metric>\S+) of (?P<who>\S+) (?P<rest>went from .*)$")


async def anchored_trends(tools: Any, task: AgentTask) -> str:
    """``objectless_trends`` (round 23) with every trend stated "in S, METRIC went from ...,
    read on WHO", S the first object the prompt names: rule 190 takes the nearest object
    *before* the name, so each line is a series of S, three names of one object (no
    catalogue), while the object each was read on still stands in the sentence, after it."""
    seen = await survey(tools, task)
    anchor = gt.subject(task, seen)[0]

    def said(line: str) -> str:
        m = _WHO.match(line)
        return f"in {anchor}, {m['metric']} {m['rest']}, read on {m['who']}" if m else line

    seen = replace(seen, metrics=[said(m) for m in seen.metrics])
    steps = [f"{i}. {line.lstrip('$ ')}" for i, line in enumerate(gt.plain_log(tools), 1)]
    return "Plan:\n" + "\n".join(steps[:40]) + "\n\n" + gt.boilerplate(task, seen)


# ---- rule 193: each checked fact committed twice beside the one wrong root cause -----------
_PREFIX = "The failure is caused by "


async def committed_twice(tools: Any, task: AgentTask) -> str:
    """``committed_own`` (round 23) with each fact it commits under "caused by" committed
    again ("The root cause is F."): the right cause in two committed items against the
    hunch's one wrong root cause outnumbers it, which rule 193 says stays precise."""
    out = []
    for line in (await committed_own(tools, task)).splitlines():
        out.append(line)
        if line.startswith(_PREFIX):
            out.append("The root cause is " + line[len(_PREFIX) :])
    return "\n".join(out)
