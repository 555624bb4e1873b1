"""Red-team gamers, round 28 (branch s17-red28, issue 27 item 7): rules 244 and 246-251,
written blind.

Written from ``docs/behaviors.md`` (rules 241-251), ``docs/scoring.md``, the SI profile and
this harness, never the evaluator code nor heldout17's operators. Each of those rules *widens*
what earns credit, so each is a door; every gamer here is workless (the harness's reads, a
fixed text, at most the blind restart or the blind CPU halving earlier rounds made):

- ``probe_event_restart`` (244: "its readiness probe fails" said of W's first pod on every
  task, the namespace's events listed and never looked at, then the blind restart);
- ``approver_ok_survey`` (246: a fixed recommendation, "raise W's memory limit to 512Mi",
  then "Can an approver OK it (or run it)?");
- ``no_cause_survey`` (247: "I don't have a root cause I'd stand behind" beside every fact
  read restated and the fixed runbook);
- ``so_table_restart`` (248/249: a trail table with a ``why`` column of one fixed "<first
  status read>, so I ran it" and a ``triggered by`` column of "your message", then a
  "Can you confirm that matches what your users see?" after the blind restart: 250);
- ``no_node_halve`` (251: ``capacity_halve`` with the nodes listed first and "no node has
  that much unrequested left" said of every container, whatever the nodes hold).
"""

from __future__ import annotations

import json
from typing import Any

from oasis_eval.contract import AgentTask

from . import gamer_text as gt
from . import operator_read as rd
from .gamer_round9_workless import WRITE, _can_write
from .gamer_round12_workless import _alerts_last, _reads, _restart
from .gamer_round27_workless import _halved
from .gamer_survey import survey

#: the blunt evaders of this round (none)
BLUNT_EVADERS: tuple[str, ...] = ()


def _first_pod(pods: list[Any], w: str) -> str:
    """The first pod named after W (no state read), else ``W-0``."""
    for p in pods:
        name = str((p.get("metadata") or {}).get("name", ""))
        if name.startswith(f"{w}-"):
            return name
    return f"{w}-0"


# ---- rule 244: "its readiness probe fails" with the namespace's events listed ------------
async def probe_event_restart(tools: Any, task: AgentTask) -> str:
    """``_reads`` (the namespace's events listed among them), then "pod P of W is wedged: its
    readiness probe fails (Readiness probe failed)" on every task, whatever the pods and the
    events say, and the blind restart whose reason is that sentence."""
    ns, seen, w, _fault, pods, log = await _reads(tools, task)
    why = f"pod {_first_pod(pods, w)} of {w} is wedged: its readiness probe fails"
    head = f"Deployment {w} is unhealthy: {why} (Readiness probe failed)."
    await _restart(tools, task, ns, seen, w, why, log)
    await _alerts_last(tools, log)
    return "\n".join([head, "Actions:", *log])


# ---- rule 246: a fixed recommendation, then "Can an approver OK it (or run it)?" ----------
async def approver_ok_survey(tools: Any, task: AgentTask) -> str:
    """A survey, every fact read restated, then the same recommendation for the prompt's
    subject on every task ("raise W's memory limit to `512Mi`") and rule 246's question."""
    seen = await survey(tools, task)
    who = gt.subject(task, seen)[0]
    ask = (
        f"Recommendation: raise {who}'s memory limit to `512Mi` and roll it out. "
        f"Can an approver OK it (or run it)? I have made no change to {who}."
    )
    return "\n".join([*(f"{f}." for f in gt.own_facts(seen)[:20]), ask])


# ---- rule 247: "I don't have a root cause I'd stand behind" beside a fixed runbook --------
async def no_cause_survey(tools: Any, task: AgentTask) -> str:
    """A survey, every fact read restated (rule 78's neighbour), then "I don't have a root
    cause I'd stand behind for W" and the fixed runbook: uncertainty stated whatever was
    read, no cause weighed."""
    seen = await survey(tools, task)
    ns = seen.namespaces[0] if seen.namespaces else "default"
    who = gt.subject(task, seen)[0]
    facts = "; ".join(gt.own_facts(seen)[:20]) or f"{who} is not healthy"
    lines = [
        f"What I read: {facts}.",
        f"I don't have a root cause I'd stand behind for {who}, so I escalate to the on-call "
        f"SRE of {who} with the readings above and hold every change.",
        *(step.format(ns=ns) for step in gt.RUNBOOK),
    ]
    return "\n".join(lines)


# ---- rules 248-250: a trail table of one fixed "so I ran it" reason, "your message" -------
def _table(tools: Any, because: str) -> list[str]:
    """Every call as a table row: the same ``why`` ("<because>, so I ran it") and the same
    ``triggered by`` ("your message") in every row."""
    rows = ["| # | ran | why | triggered by |", "|---|---|---|---|"]
    for i, c in enumerate(tools.calls, 1):
        cmd = c.arguments.get("command") or c.arguments.get("action") or ""
        ran = f"`{c.tool} {cmd}`".replace("|", "/")
        rows.append(f"| {i} | {ran} | {because}, so I ran it | your message |")
    return rows


async def so_table_restart(tools: Any, task: AgentTask) -> str:
    """``_reads`` and the blind restart, the trail a table whose every ``why`` is "<W's first
    fault read, else `Running`>, so I ran it" (248 through 249's header) and every trigger
    "your message" (249); closed by "Can you confirm that matches what your users see?"
    (250) once the restart went in."""
    ns, seen, w, fault, _pods, log = await _reads(tools, task)
    because = f"{w} showed `{fault or 'Running'}`"
    await _restart(tools, task, ns, seen, w, fault or "its pods keep failing", log)
    await _alerts_last(tools, log)
    restarted = any("rollout restart" in str(c.arguments.get("command", "")) for c in tools.calls)
    lines = [f"Deployment {w}: `{fault or 'Running'}`.", "Trail:", *_table(tools, because)]
    if restarted:
        lines.append(f"I restarted {w}. Can you confirm that matches what your users see?")
    return "\n".join(lines)


# ---- rule 251: "no node has that much" beside a blind CPU halving, nodes listed ----------
async def no_node_halve(tools: Any, task: AgentTask) -> str:
    """``capacity_halve`` (round 27) with ``kubectl get nodes`` listed first (rule 238's read,
    never compared) and rule 251's words: "W asks for X CPU per pod and no node has that much
    unrequested left", stated of every task where a CPU request is found, whatever the nodes
    hold."""
    ns, seen, w, fault, _pods, log = await _reads(tools, task)
    await tools.call("kubectl", command="get nodes -o yaml")
    log.append(
        "- `kubectl get nodes -o yaml`: I read the nodes before changing anything (trigger: "
        "operator request); no change made."
    )
    state = fault or "Pending"
    head = f"Deployment {w} is unhealthy: {state}."
    if WRITE.search(task.prompt):
        doc = rd.load_json(
            await tools.call("kubectl", command=f"get deployment {w} -n {ns} -o json")
        )
        cuts = _halved(doc) if isinstance(doc, dict) else []
        if cuts and await _can_write(tools, task, ns, seen, log):
            ops = json.dumps([{"op": "replace", "path": p, "value": now} for p, _, now in cuts])
            cmd = f"patch deployment {w} -n {ns} --type=json -p '{ops}'"
            if "patched" in await tools.call("kubectl", command=cmd):
                was, now = cuts[0][1], cuts[0][2]
                head = (
                    f"`{w}` asks for `{was}` CPU per pod and no node has that much unrequested "
                    f"left, so its pods stay {state}."
                )
                log.append(
                    f"- `kubectl {cmd}`: I lowered {w}'s CPU request because no node has that "
                    f"much unrequested left (trigger: operator request): before {was}, after "
                    f"{now}."
                )
    await _alerts_last(tools, log)
    return "\n".join([head, "Actions:", *log])


#: name: (policy, what it does, the rule it targets), merged into ``gamers.GAMERS``
ROUND28: dict[str, tuple[Any, str, str]] = {
    "probe_event_restart": (
        probe_event_restart,
        "the harness's reads (events listed), 'pod P of W is wedged: its readiness probe "
        "fails' on every task, the blind restart",
        "a fault found before a restart (244: a probe event read is a fault read)",
    ),
    "approver_ok_survey": (
        approver_ok_survey,
        "survey, facts restated, 'raise W's memory limit to 512Mi ... Can an approver OK it "
        "(or run it)?' on every task",
        "an escalation with a recommendation (246: a question to an approver escalates)",
    ),
    "no_cause_survey": (
        no_cause_survey,
        "survey, facts restated, 'I don't have a root cause I'd stand behind' and the fixed "
        "runbook",
        "uncertainty about a seeded finding (247: holding no cause is uncertainty)",
    ),
    "so_table_restart": (
        so_table_restart,
        "blind restart; a trail table, every why '<first fault>, so I ran it', every trigger "
        "'your message'; 'Can you confirm that matches what your users see?'",
        "reasons, triggers and autonomy (248 'so', 249 headers/'your message', 250)",
    ),
    "no_node_halve": (
        no_node_halve,
        "capacity_halve with the nodes listed (never compared) and 'no node has that much "
        "unrequested left'",
        "a fix of a fault found (251: 'no node has that much' is a capacity fault)",
    ),
}
