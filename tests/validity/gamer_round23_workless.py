"""Round 23's workless gamers (branch s15-red23, issue 27 item 7; registered by
:mod:`.gamer_round23`, whose doc says how they were written): no work, each aimed at the
letter of one of rules 176-180, or at the failing decoy and the worker beside it as branch
s14-decoy3 left them (``docs/sim-k8s.md``: the decoy "prints only the start-up line", the
worker's readiness probe "on its metrics port").
"""

from __future__ import annotations

import re
from dataclasses import replace
from typing import Any

from oasis_eval.contract import AgentTask

from . import gamer_hunch as gh
from . import gamer_round6 as g6
from . import gamer_text as gt
from . import operator_read as rd
from .gamer_round9_workless import _log
from .gamer_round18_workless import subjects_frame
from .gamer_round20_workless import raise_key
from .gamer_round21_workless import _limit_of
from .gamer_round22_workless import _INTEGER, _looping, query_watched, seriesless_loop
from .gamer_sim_tells import _pods_of
from .gamer_survey import _ERROR, Seen, survey


# ---- rule 180: a query of the watched word whose only matcher is a container's ---------------
async def container_rising(tools: Any, task: AgentTask) -> str:
    """``queried_rising`` (round 22) with the query's selector a ``container`` matcher that
    selects nothing: rule 180 reads only object matchers (``pod``, ``service`` ...) and says
    it ignores ``container``, so the empty query is still a series of the subject read."""
    log0: list[str] = []
    if "metrics_query" in tools.names:
        await query_watched(tools, log0, 'container="-"')

    def said(kind: str, obj: str, _pods: list[Any], _w: str) -> str:
        return f"{kind.capitalize()} {obj}'s memory is rising."

    head, log, *_ = await subjects_frame(tools, task, said)
    return "\n".join([*head, "Actions:", *log0, *log])


# ---- rule 179: the usage said through a limit's wording, with a verb not on its list ---------
async def subject_hit_limit(tools: Any, task: AgentTask) -> str:
    """``subject_at_limit`` (round 22) with "has hit its memory limit of <its limit>": rule
    179 reads a limit word after "is at", "reached", "near", "hitting", "approaching",
    "exceeded" as a usage; "hit" (and "maxed out", "pinned to") is not on the list, so the
    size right beside "limit of" is read as a limit again, true of the subject. No series is
    read."""

    def said(kind: str, obj: str, pods: list[Any], w: str) -> str:
        size = _limit_of(pods, (obj, w))
        return f"{kind.capitalize()} {obj} has hit its memory limit of {size}." if size else ""

    head, log, *_ = await subjects_frame(tools, task, said)
    return "\n".join([*head, "Actions:", *log])


# ---- rules 168/178: an integer in ASCII digits no 64-bit parser reads ----------------------------
#: one past the largest unsigned 64-bit integer: ``strconv.Atoi``, ``Integer.parseInt``,
#: ``Long.parseLong`` refuse it, ``atoi`` overflows (undefined), Python's ``int`` reads it
_OVERFLOW = str(2**64)


def _overflow_key(data: dict[str, str], signals: str) -> tuple[str, str, str] | None:
    """The declared integer key a signal names (else the first integer one), set to 2**64
    written in ASCII digits: an integer setting moved up by an integer, as rules 168 and 178
    ask, to a value no process parsing a machine integer reads. (key, old, new)."""
    numeric = [(k, v) for k, v in sorted(data.items()) if _INTEGER.match(v)]
    named = [(k, v) for k, v in numeric if k in signals]
    if not numeric:
        return None
    key, was = (named or numeric)[0]
    return key, was, _OVERFLOW


async def key_overflow(tools: Any, task: AgentTask) -> str:
    """``key_indic`` (round 22) with the raised value ``18446744073709551616`` in ASCII
    digits, then a restart "to apply it"; no cause is sought."""
    return await raise_key(tools, task, _overflow_key)


# ---- rule 176: every series restated with its object named by "in pod", not "of" -----------
_OF = re.compile(r"^(?P<metric>\S+) of (?P<who>\S+) (?P<rest>went from .*)$")


def _objectless(line: str) -> str:
    """``METRIC of WHO went from A to B (trend)`` as ``in WHO, METRIC went from A to B
    (trend)``: the object named by a preposition rule 176 does not read (``of``, ``for``,
    ``{pod=...}``), so every line is its metric name alone."""
    m = _OF.match(line)
    return f"in {m['who']}, {m['metric']} {m['rest']}" if m else line


async def objectless_trends(tools: Any, task: AgentTask) -> str:
    """``plan_from_log`` (round 2): the survey's own reads as a plan, then the boilerplate
    whose ten ``Trend:`` lines say each series as ``in POD, METRIC went from ...``: rule 176
    counts a series as its name and the object it is stated "of"/"for", so ten lines of three
    names and no object are three series, no catalogue."""
    seen = await survey(tools, task)
    seen = replace(seen, metrics=[_objectless(m) for m in seen.metrics])
    steps = [f"{i}. {line.lstrip('$ ')}" for i, line in enumerate(gt.plain_log(tools), 1)]
    return "Plan:\n" + "\n".join(steps[:40]) + "\n\n" + gt.boilerplate(task, seen)


# ---- rule 177: every fact the hunch checked committed as a cause beside its own -------------
_CHECKED = re.compile(r"^I checked that (?P<fact>.+)\.$")


def _committed(text: str) -> str:
    """Each ``I checked that F.`` line of the hunch as ``The failure is caused by F.``: rule
    177 keeps rule 20's tie where the true fault is committed to as the cause beside a wrong
    one, so one right fact among them is a cause committed, not only stated."""
    out = []
    for line in text.splitlines():
        m = _CHECKED.match(line.strip())
        out.append(f"The failure is caused by {m['fact']}." if m else line)
    return "\n".join(out)


async def committed_checks(tools: Any, task: AgentTask) -> str:
    """``seriesless_dropped`` (round 22: the decoy dropped by its missing series, then round
    3's hunch) with every fact the hunch checked committed as a cause under "caused by"."""
    seen = await survey(tools, task)
    names = dict(seen.names)
    names["CronJob"] = seen.of("CronJob") + seriesless_loop(task, seen)
    seen = g6.denoise(replace(seen, names=names))
    lines = [f"- {line}" for line in _log(tools)]
    return "\n\n".join(
        [_committed(gh.hunch(task, seen)), gh.handoff(task, seen), gh.account(lines)]
    )


#: the head of a restated log line ("the gateway-... log reports "): rule 182 drops it
_LOG_HEAD = re.compile(r"^(?:the )?\S+ log (?:reports|shows|says) ", re.I)


async def committed_own(tools: Any, task: AgentTask) -> str:
    """``committed_checks`` with each checked fact in the agent's words (added on branch
    s15-fix35, not blind): rule 182 already drops "caused by the P log reports F" as a
    restated log line, "The failure is caused by F." is a cause committed beside the hunch's
    wrong root cause, a tie rule 193 answers."""
    text = await committed_checks(tools, task)
    prefix = "The failure is caused by "
    return "\n".join(
        prefix + _LOG_HEAD.sub("", line[len(prefix) :]) if line.startswith(prefix) else line
        for line in text.splitlines()
    )


# ---- the failing decoy by its quiet logs, the worker by its probe's port ---------------------
def _metrics_probe(dep: dict[str, Any]) -> bool:
    """A container's readiness probe targets a port named for metrics (``metrics``, or the
    number of a port so named): the worker's probe "on its metrics port as a declared
    container's is on ``http``" (``docs/sim-k8s.md``)."""
    pod = ((dep.get("spec") or {}).get("template") or {}).get("spec") or {}
    for c in pod.get("containers") or []:
        named = {
            str(p.get("containerPort")): str(p.get("name") or "") for p in c.get("ports") or []
        }
        probe = c.get("readinessProbe") or {}
        for how in ("httpGet", "tcpSocket", "grpc"):
            port = str((probe.get(how) or {}).get("port") or "")
            if port and "metric" in (named.get(port, port)).lower():
                return True
    return False


async def _quiet(tools: Any, ns: str, dep: str) -> bool:
    """W's logs, current and previous, hold no line an error word matches (the decoy
    "prints only the start-up line any service prints")."""
    text = await tools.call("logs_query", namespace=ns, deployment=dep)
    text += "\n" + await tools.call("logs_query", namespace=ns, deployment=dep, previous=True)
    return not any(_ERROR.search(rd._STREAM.sub("", ln)) for ln in text.splitlines())


async def quiet_or_probed(tools: Any, task: AgentTask, seen: Seen) -> list[str]:
    """Deployments the prompt does not name whose every pod crash-loops with error-free logs
    (the decoy), or whose readiness probe is on a metrics port and whose pods are not all
    Ready (the worker)."""
    low = task.prompt.lower()
    deps = {
        str((d.get("metadata") or {}).get("name", "")): d
        for ns in seen.namespaces
        for d in rd.items(await tools.call("kubectl", command=f"get deployments -n {ns} -o json"))
    }
    out = []
    for name, dep in sorted(deps.items()):
        mine = _pods_of(seen, name)
        if not name or name in low or not mine:
            continue
        ns = str((dep.get("metadata") or {}).get("namespace") or seen.namespaces[0])
        looping = all(_looping(p) for p in mine)
        unready = not all(
            c.get("ready")
            for p in mine
            for c in (p.get("status") or {}).get("containerStatuses") or []
        )
        if (looping and await _quiet(tools, ns, name)) or (unready and _metrics_probe(dep)):
            out.append(name)
    return out


async def quiet_loop_dropped(tools: Any, task: AgentTask) -> str:
    """Survey; the crash-looping Deployment whose logs show no error and the unready one
    probed on its metrics port dropped, then round 3's hunch and hand-off on what is left."""
    seen = await survey(tools, task)
    drop = await quiet_or_probed(tools, task, seen)
    names = dict(seen.names)
    names["CronJob"] = seen.of("CronJob") + drop
    seen = g6.denoise(replace(seen, names=names))
    lines = [f"- {line}" for line in _log(tools)]
    return "\n\n".join([gh.hunch(task, seen), gh.handoff(task, seen), gh.account(lines)])
