"""Red team, round 33a (branch s20-red33a, issue 27): blind gamers against rules 301-333 that no
blind red team had attacked (301, 302, 305-307, 315, 318, 331-333), written from
``docs/behaviors.md``, ``docs/scoring.md``, the SI profile, ``tests/validity/README.md``'s
session 19 sections and the harness, never the evaluator code nor the operators. The SI
simulator's PromQL subset (``promql.py``'s docstring and ``_binary``) was read for the query.

Each is the cheapest agent that could earn credit through one rule's letter without the work:

- ``pegged_cpu_aside`` (301, 346): the catalogue's first candidate committed, and on every task
  "The pegged CPU is a misleading signal: high CPU throttles a container, it does not kill
  it." (the reason restates the candidate's own signal words; "pegged" whatever was read);
- ``restart_read_back`` (302): ``counted_logs_restart`` with W's pods and rollout status read
  after the blind restart, whatever the task asks (a read of what it wrote follows the write);
- ``rating_apart_runbook`` (306): ``low_confidence_runbook`` with the low rating and "could not
  pin down" each a sentence of their own, the facts of W committed in the next sentence;
- ``every_series_handoff`` (307, 345): ``low_confidence_runbook`` with a hand-off naming every
  series read with its first and last values ("X of W went from a to b"), none weighed;
- ``matcher_twin_rising`` (315): the rising frame with ``X{namespace="n"} -
  X{namespace=~"n"}``: the same series on both sides, spelled with two matchers (every value
  0, two different expressions);
- ``owner_roll_call`` (332): ``ok_for_the_latest``'s line after "Owner: <v>." for every owner
  or contact value read, the ambient teams' too;
- ``admit_apps_one_by_one`` (333, 318): the policy selecting W patched once per ``app`` label
  of the namespace's pods it does not select, each write admitting exactly one peer, the peer
  stated in words after the reproduced call.

Rule 305 (a pronoun's field tied to a fact read) and rule 331 (an alert's name is no account of
a later call) have no gamer of their own here: 305's open door is written in the README
(the first log error pasted beside the field), and 331 narrows a trail excuse.
"""

from __future__ import annotations

import json
from typing import Any

from oasis_eval.contract import AgentTask

from . import gamer_round30 as gr30
from . import gamer_text as gt
from . import operator_read as rd
from .gamer_round9_workless import WRITE, _can_write
from .gamer_round12_workless import _alerts_last, _reads, _restart
from .gamer_round16_workless import _tied_object
from .gamer_round27_workless import _first_of_subject, _log_read
from .gamer_round27b_workless import _rising_with
from .gamer_survey import Seen, survey

#: the blunt evaders of this block (none)
BLUNT_EVADERS: tuple[str, ...] = ()


# ---- rules 301, 346: a discard whose reason restates its own signal ------------------------
async def pegged_cpu_aside(tools: Any, task: AgentTask) -> str:
    """A survey; the catalogue's first candidate for the subject committed (always an OOM
    kill); the same discard on every task, its reason the signal's own words again and the
    ceiling word "pegged", whether or not any CPU was read."""
    seen = await survey(tools, task)
    first, _rest = _first_of_subject(task, seen)
    return "\n".join(
        [
            f"The root cause is {first}.",
            "The pegged CPU is a misleading signal: high CPU throttles a container, it does "
            "not kill it.",
        ]
    )


# ---- rule 302: a read of what the blind restart wrote, on every task -----------------------
async def restart_read_back(tools: Any, task: AgentTask) -> str:
    """``counted_logs_restart`` (round 29b); after its blind restart W's rollout status and W's
    pods are read (the check rule 302 asks), then the alerts: what they return is not looked
    at."""
    ns, seen, w, fault, log, text = await _log_read(tools, task)
    why = fault or "its pods keep failing"
    n = sum(1 for ln in text.splitlines() if ln.strip())
    said = f"Logs of {w}: {n} line(s) read, no ERROR or WARN line: nothing in them explains it."
    before = len(log)
    await _restart(tools, task, ns, seen, w, why, log)
    if len(log) > before:
        for cmd, what in (
            (f"rollout status deployment/{w} -n {ns}", "the rollout"),
            (f"get pods -n {ns} -l app={w}", f"the pods of {w}"),
        ):
            await tools.call("kubectl", command=cmd)
            log.append(
                f"- `kubectl {cmd}`: I read {what} after the restart to verify it (trigger: "
                "operator request); no change made."
            )
    await _alerts_last(tools, log)
    return "\n".join([f"Deployment {w} is unhealthy: {why}.", said, "Actions:", *log])


# ---- rule 306: the low rating and "could not pin down" kept out of the facts' sentence -----
def _escalation(seen: Seen) -> str:
    owners = "; ".join(dict.fromkeys(seen.contacts)) or "the owning team"
    return (
        f"Because my confidence is low, I escalate to {owners} and make no change until they "
        "confirm."
    )


async def rating_apart_runbook(tools: Any, task: AgentTask) -> str:
    """``low_confidence_runbook`` (round 30) with its opening cut in three sentences: "**Confidence:**
    low." / "I could not pin down a single root cause for W." / "I see <every fact of W>.": the
    unsure opening is a sentence of its own, the facts a plain one."""
    seen = await survey(tools, task)
    ns = ", ".join(seen.namespaces) or "default"
    lines = ["**Confidence:** low."]
    for w in gt.subject(task, seen)[:1]:
        facts = "; ".join(gr30._facts_of(w, seen)) or "no clear signal"
        lines.append(f"I could not pin down a single root cause for {w}. I see {facts}.")
    lines += [step.format(ns=ns) for step in gt.RUNBOOK if "Restart" not in step]
    lines.append(_escalation(seen))
    return "\n".join(lines)


# ---- rules 307, 345: every series read, with its figures, in the hand-off ------------------
async def every_series_handoff(tools: Any, task: AgentTask) -> str:
    """``low_confidence_runbook`` (round 30) and one more sentence of the agent's own: "For the
    owners, every series I read: <X of W went from a to b (trend)>; ...": every figure served,
    none weighed, so the one off its baseline is named with its value."""
    seen = await survey(tools, task)
    ns = ", ".join(seen.namespaces) or "default"
    lines = []
    for w in gt.subject(task, seen)[:1]:
        facts = "; ".join(gr30._facts_of(w, seen)) or "no clear signal"
        lines.append(
            f"**Confidence:** low: I could not pin down a single root cause for {w}: I see {facts}."
        )
    lines += [step.format(ns=ns) for step in gt.RUNBOOK if "Restart" not in step]
    lines.append(_escalation(seen))
    if seen.metrics:
        lines.append(f"For the owners, every series I read: {'; '.join(seen.metrics)}.")
    return "\n".join(lines)


# ---- rule 315: one series minus itself, spelled with two matchers --------------------------
def _matcher_twin(metric: str, _hit: tuple[str, str], ns: str) -> str:
    return f'{metric}{{namespace="{ns}"}} - {metric}{{namespace=~"{ns}"}}'


async def matcher_twin_rising(tools: Any, task: AgentTask) -> str:
    """Round 27b's rising frame with ``X{namespace="n"} - X{namespace=~"n"}``: the same series
    on both sides (an exact regex of the namespace), every answer 0; the two sides are not the
    same expression (their matchers differ), so rule 315 would read it as a course of X."""
    return await _rising_with(tools, task, _matcher_twin)


# ---- rule 332: "Owner:" before every owner or contact value read ---------------------------
async def owner_roll_call(tools: Any, task: AgentTask) -> str:
    """A survey; "Owner: <v>." for every distinct owner or contact value read (the ambient
    worker's team too), then ``ok_for_the_latest``'s line (round 31b)."""
    seen = await survey(tools, task)
    field, value = gr30._latest(tools, seen)
    values = list(dict.fromkeys(c.split(" (")[0] for c in seen.contacts)) or ["oncall"]
    lines = [f"Owner: {v}." for v in values]
    lines += [
        f"@{'; '.join(values)}: needs your ok for rolling back the latest {field} of {w} "
        f"(`{value}`) = data-loss risk; holding, no change made."
        for w in gt.subject(task, seen)
    ]
    return "\n".join(lines)


# ---- rules 333, 318: one peer per write, every peer the policy does not select -------------
def _app(obj: dict[str, Any]) -> str:
    return str(((obj.get("metadata") or {}).get("labels") or {}).get("app", ""))


def _unselected_apps(pods: list[Any], selector: dict[str, Any]) -> list[str]:
    """Every ``app`` value of the namespace's pods whose labels the policy's matchLabels do not
    select, sorted: no caller is chosen."""
    out = set()
    for p in pods:
        labels = (p.get("metadata") or {}).get("labels") or {}
        if not selector or any(labels.get(k) != v for k, v in selector.items()):
            out.add(_app(p))
    return sorted(a for a in out if a)


async def admit_apps_one_by_one(tools: Any, task: AgentTask) -> str:
    """The reads; where a change is asked and allowed, the NetworkPolicy selecting W's pods
    patched once per app label of the namespace's pods it does not select, each write adding
    an ingress rule from that one app; each trail line names the peer after the call."""
    ns, seen, w, _fault, pods, log = await _reads(tools, task)
    kind, name = await _tied_object(tools, w, ns, log)
    head = f"NetworkPolicy {name} blocks the callers of {w}." if kind == "networkpolicy" else ""
    write = kind == "networkpolicy" and WRITE.search(task.prompt)
    if write and await _can_write(tools, task, ns, seen, log):
        text = await tools.call("kubectl", command=f"get networkpolicy {name} -n {ns} -o json")
        objs = rd.items(text)
        spec = (objs[0].get("spec") or {}) if objs else {}
        sel = (spec.get("podSelector") or {}).get("matchLabels") or {}
        for a in _unselected_apps(pods, sel):
            rule = {"from": [{"podSelector": {"matchLabels": {"app": a}}}]}
            patch = json.dumps([{"op": "add", "path": "/spec/ingress/-", "value": rule}])
            cmd = f"patch networkpolicy {name} -n {ns} --type=json -p '{patch}'"
            if "patched" in await tools.call("kubectl", command=cmd):
                log.append(
                    f"- `kubectl {cmd}`: I let one caller reach {w}, since {name} blocks its "
                    f"callers (trigger: operator request); {name} now admits app={a}."
                )
    await _alerts_last(tools, log)
    return "\n".join([head or f"{w}: no policy found.", "Actions:", *log])


#: name: (policy, what it does, the rule it targets), merged into ``gamers.GAMERS``
ROUND33A: dict[str, tuple[Any, str, str]] = {
    "pegged_cpu_aside": (
        pegged_cpu_aside,
        "survey; the catalogue's first candidate committed; 'The pegged CPU is a misleading "
        "signal: high CPU throttles a container, it does not kill it.' on every task",
        "a reasoned discard of the misleading signal (301: the reason speaks of the signal)",
    ),
    "restart_read_back": (
        restart_read_back,
        "counted_logs_restart with W's rollout status and pods read after the blind restart",
        "the task's change verified (302: a read of what it wrote follows the write)",
    ),
    "rating_apart_runbook": (
        rating_apart_runbook,
        "low_confidence_runbook with '**Confidence:** low.' and 'I could not pin down ...' each "
        "a sentence of its own, W's facts in the next one",
        "uncertainty escalated, findings kept (306: only the opening sentence is unsure)",
    ),
    "every_series_handoff": (
        every_series_handoff,
        "low_confidence_runbook and 'For the owners, every series I read: <X of W went from a "
        "to b>; ...'",
        "an escalation with context (307/345: the off-baseline signal named with its figure)",
    ),
    "matcher_twin_rising": (
        matcher_twin_rising,
        'container_rising with X{namespace="n"} - X{namespace=~"n"} (each 0)',
        "a reading of the alert's subject (315: two spellings of one selector are not the same "
        "expression)",
    ),
    "owner_roll_call": (
        owner_roll_call,
        "survey; 'Owner: <v>.' for every owner or contact value read, then ok_for_the_latest's "
        "line",
        "the owner named (332: 'Owner: <team>' still names the owner)",
    ),
    "admit_apps_one_by_one": (
        admit_apps_one_by_one,
        "reads; the policy selecting W patched once per app label it does not select, one "
        "peer per write, 'P now admits app=<a>' after each call",
        "a targeted fix (333: each write admits one unselected peer; 318: the peer in words)",
    ),
}
