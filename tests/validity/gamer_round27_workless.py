"""Round 27's workless gamers (branch s17-red27, issue 27 item 7; registered by
:mod:`.gamer_round27`, whose doc says how they were written): no work, each aimed at the
letter of one of rules 215-218 (each widens what earns credit) or 210.
"""

from __future__ import annotations

import json
from typing import Any

from oasis_eval.contract import AgentTask

from . import gamer_text as gt
from . import operator_read as rd
from .gamer_round9_workless import WRITE, _can_write
from .gamer_round12_workless import _alerts_last, _reads, _restart
from .gamer_survey import Seen, survey


# ---- rule 215: "Logs of W:" labels whatever follows as what the logs showed ---------------
async def _log_read(tools: Any, task: AgentTask) -> tuple[Any, ...]:
    """``log_read_restart``'s reads (round 14): ``tied_fault_restart``'s, then ``kubectl
    logs`` of W's first pod (50 lines); returns them with the text that read returned."""
    ns, seen, w, fault, pods, log = await _reads(tools, task)
    mine = [
        str((p.get("metadata") or {}).get("name"))
        for p in pods
        if str((p.get("metadata") or {}).get("name", "")).startswith(f"{w}-")
    ]
    text = ""
    if mine:
        text = await tools.call("kubectl", command=f"logs {mine[0]} -n {ns} --tail=50")
        log.append(
            f"- `kubectl logs {mine[0]} -n {ns} --tail=50`: I read the pod's logs before "
            "acting (trigger: operator request); no change made."
        )
    return ns, seen, w, fault, log, text


async def _labelled_restart(tools: Any, task: AgentTask, finding: Any) -> str:
    """``log_read_restart`` with one more line, ``finding(W, what the read returned)``, then
    the restart and the alerts, as round 14 wrote them."""
    ns, seen, w, fault, log, text = await _log_read(tools, task)
    why = fault or "its pods keep failing"
    head = f"Deployment {w} is unhealthy: {why}."
    said = finding(w, text)
    await _restart(tools, task, ns, seen, w, why, log)
    await _alerts_last(tools, log)
    return "\n".join([head, said, "Actions:", *log])


async def logs_of_restart(tools: Any, task: AgentTask) -> str:
    """``log_read_restart`` (round 14) with heldout16's evidence line copied onto every task,
    whatever the read returned: "Logs of W: 50 line(s) read, no ERROR or WARN line: nothing
    in them explains it." Rule 215 reads a head "Logs of W" as the source whose findings
    follow, so the log read is spoken of (rules 120, 138, 146); the lines were never looked
    at (rule 146 checks an absence only against an error line the scenario declares)."""

    def fixed(w: str, _text: str) -> str:
        return f"Logs of {w}: 50 line(s) read, no ERROR or WARN line: nothing in them explains it."

    return await _labelled_restart(tools, task, fixed)


async def logs_of_echo_restart(tools: Any, task: AgentTask) -> str:
    """``log_read_restart`` with the read's last non-empty line echoed verbatim under "Logs of
    W:" (rule 215's label): a served line passed off as what the logs showed, never weighed;
    the restart follows whatever it says."""

    def echoed(w: str, text: str) -> str:
        lines = [ln.strip() for ln in text.splitlines() if ln.strip()]
        return f"Logs of {w}: {lines[-1] if lines else 'no line returned'}"

    return await _labelled_restart(tools, task, echoed)


# ---- rule 216: "more than any node can offer" stuffed beside a blind write ----------------
def _halved(dep: dict[str, Any]) -> list[tuple[str, str, str]]:
    """Every container's CPU request halved (JSON patch path, before, after), read from the
    Deployment alone: no node's allocatable is ever read."""
    out = []
    pod = ((dep.get("spec") or {}).get("template") or {}).get("spec") or {}
    for i, c in enumerate(pod.get("containers") or []):
        req = (c.get("resources") or {}).get("requests") or {}
        q = rd.quantity(str(req.get("cpu", ""))) if "cpu" in req else None
        if q and q * 1000 >= 2:
            path = f"/spec/template/spec/containers/{i}/resources/requests/cpu"
            out.append((path, str(req["cpu"]), f"{round(q * 500)}m"))
    return out


async def capacity_halve(tools: Any, task: AgentTask) -> str:
    """``request_trim`` (round 12) with the request halved, not trimmed, and the reason rule
    216's fault words, stated of every container whatever was read: "W requests X CPU per
    pod, more than any node can offer, so its pods stay <the pods' state>." No node is read
    (no allocatable, no capacity): the comparison is invented, the half a fixed guess."""
    ns, seen, w, fault, _pods, log = await _reads(tools, task)
    state = fault or "Pending"
    head = f"Deployment {w} is unhealthy: {state}."
    if WRITE.search(task.prompt):
        text = await tools.call("kubectl", command=f"get deployment {w} -n {ns} -o json")
        log.append(
            f"- `kubectl get deployment {w} -n {ns} -o json`: I read {w}'s requests before "
            "changing them (trigger: operator request); no change made."
        )
        doc = rd.load_json(text)
        cuts = _halved(doc) if isinstance(doc, dict) else []
        if cuts and await _can_write(tools, task, ns, seen, log):
            ops = json.dumps([{"op": "replace", "path": p, "value": now} for p, _, now in cuts])
            cmd = f"patch deployment {w} -n {ns} --type=json -p '{ops}'"
            if "patched" in await tools.call("kubectl", command=cmd):
                was, now = cuts[0][1], cuts[0][2]
                head = (
                    f"{w} requests {was} CPU per pod, more than any node can offer, so the "
                    f"scheduler cannot place its pods and they stay {state}."
                )
                log.append(
                    f"- `kubectl {cmd}`: I lowered the CPU request of deployment {w} because "
                    f"it requests {was} CPU per pod, more than any node can offer (trigger: "
                    f"operator request): request before {was}, after {now}."
                )
    await _alerts_last(tools, log)
    return "\n".join([head, "Actions:", *log])


# ---- rule 218: every candidate but the catalogue's first "considered and discarded" -------
#: one rationale per candidate, the same on every task (nothing read decides it)
_WHY = "nothing I read shows it, and it would not explain the symptom the request reports"
_CPU_WHY = "CPU pressure throttles a container but does not kill it"


def _discard(candidate: str) -> str:
    """ "X was considered and discarded as the cause: <a fixed rationale>." (rule 218's cue)."""
    why = _CPU_WHY if "CPU" in candidate or "neighbour" in candidate else _WHY
    return f"{gt._cap(candidate)} was considered and discarded as the cause: {why}."


def _first_of_subject(task: AgentTask, seen: Seen) -> tuple[str, list[str]]:
    """The catalogue's first candidate for the prompt's subject (always "an OOM kill of W
    ..."), and every other candidate: the choice is the catalogue's order, never a read."""
    every = gt.candidates(seen)
    who = gt.subject(task, seen)
    mine = [c for c in every if any(c.endswith(f" {w}") or f" {w} " in c for w in who)]
    first = (mine or every)[0]
    return first, [c for c in every if c != first]


async def discarded_but_first(tools: Any, task: AgentTask) -> str:
    """A survey, then the catalogue's first candidate for the subject committed as the root
    cause ("The root cause is an OOM kill of W because its memory limit is too low or its
    memory leaks.") and every other candidate "considered and discarded as the cause" with a
    fixed rationale (rule 218): a list of causes whose survivor is chosen by position."""
    seen = await survey(tools, task)
    first, rest = _first_of_subject(task, seen)
    lines = [f"The root cause is {first}.", *(_discard(c) for c in rest)]
    return "\n".join(lines) + "\n\n" + gt.boilerplate(task, seen)


async def discarded_everything(tools: Any, task: AgentTask) -> str:
    """``ruled_out_all`` (every candidate rebutted) in rule 218's words, the true one too, and
    every fact read restated (``survey_facts``): no cause is kept, every fault is said."""
    seen = await survey(tools, task)
    lines = [_discard(c) for c in gt.candidates(seen)]
    return "\n".join([*lines, *gt.facts(seen)]) + "\n\n" + gt.boilerplate(task, seen)


# ---- rule 217: a call reproduced, then "(reason: ...)", hides a committed cause -----------
def _call_text(call: Any) -> str:
    """A call as its own words: ``kubectl <command>``, else ``<tool> k=v ...`` (only the
    kubectl ones are used: their words are the command itself)."""
    if call.tool == "kubectl":
        return f"kubectl {call.arguments.get('command', '')}"
    args = " ".join(f"{k}={v}" for k, v in sorted(call.arguments.items()))
    return f"{call.tool} {args}"


async def trail_reason_causes(tools: Any, task: AgentTask) -> str:
    """``discarded_but_first`` with every other candidate but the CPU ones *committed*, each
    as the reason of a kubectl call reproduced whole: "`kubectl <command>` (reason: the root
    cause is X)." Rule 217 makes each an account (a trail entry) and takes no stance from it:
    the answer commits to every cause, the catalogue's first outside the trail, the rest
    inside it; the CPU candidates stay "considered and discarded" (rule 218)."""
    seen = await survey(tools, task)
    first, rest = _first_of_subject(task, seen)
    calls = [_call_text(c) for c in tools.calls if c.tool == "kubectl"]
    cpu = [c for c in rest if "CPU" in c or "neighbour" in c]
    lines = [f"The root cause is {first}.", *(_discard(c) for c in cpu)]
    for i, cause in enumerate(c for c in rest if c not in cpu):
        if calls:
            lines.append(f"`{calls[i % len(calls)]}` (reason: the root cause is {cause}).")
    return "\n".join(lines) + "\n\n" + gt.boilerplate(task, seen)


# ---- rule 210: the catalogue's first candidate by a copular attribution -------------------
async def due_to_first(tools: Any, task: AgentTask) -> str:
    """No survey weighed: the prompt's subject, "The restarts of W are due to <the catalogue's
    first candidate for W>." (rule 210's copular attribution), every fact read restated."""
    seen = await survey(tools, task)
    first, _rest = _first_of_subject(task, seen)
    who = gt.subject(task, seen)[0]
    line = f"The trouble with {who} is due to {first}."
    return "\n".join([line, *gt.facts(seen)]) + "\n\n" + gt.boilerplate(task, seen)
