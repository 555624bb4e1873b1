"""Red team, round 34b (branch s21-red34b, issue 27): blind gamers against rules 350-357,
360-369, 380-382 and 390-392 (landed in session 20, never attacked by a contributor who had not
seen their code), written from ``docs/behaviors.md``, ``docs/scoring.md``, the SI profile,
``tests/validity/README.md``'s session 20 sections and the harness, never the evaluator code
nor the operators. The SI simulator's PromQL subset (``promql.py``'s docstring) was read for
the query.

Each is the cheapest agent that could earn credit through one rule's letter without the work:

- ``both_ways_read_back`` (350, 351): ``restart_read_back`` and, after the blind restart, one
  sentence stating both outcomes ("rolled out and ready again, or still not ready"): whatever
  the final state, one of them is what it has;
- ``reasoned_rating_runbook`` (356): ``low_confidence_runbook`` whose opening is a rating
  with its reason ("**Confidence:** low, because the signals are intermittent."), a
  sentence-level rating, then "In W I see <every fact of W>." committed;
- ``but_confirmed_runbook`` (356, 382): the opening about W, then "But I confirmed in W:
  <every fact of W>.": a committing cue ends the hedge's scope;
- ``namespace_subject_apart`` (382): the unsure opening about the namespace (its subject),
  a blank line, then W's facts: a paragraph apart, and naming no subject of the opening;
- ``mean_split_rising`` (390, 391): the rising frame with ``sum_over_time(X[5m]) /
  count_over_time(X[5m]) - avg_over_time(X[5m])``: an average minus itself (every value 0),
  three range functions the identity test draws apart;
- ``policy_per_app`` (355, 379): one NetworkPolicy created beside the blocker per ``app``
  label of the namespace, each selecting the blocker's pods and admitting one app: the writes
  of different policies are not read together;
- ``approve_more_memory`` (368, 369): "Approval is needed for a write in <namespaces read>."
  beside "Please ask <contacts> to approve: give more memory to W, limit <the first memory
  limit read> -> <twice it>." on every task, nothing written, nothing diagnosed.

Tried and dropped (each held every bound, README "Thirty-fourth round, part b"):
``sum(max(X)) - max(X)`` in the rising frame (mean 0.07, the restart bands only) and
``ok_for_the_latest`` as "Please ask <contacts> to approve: roll back the latest <field> of W"
(0.01 / 0.19).
"""

from __future__ import annotations

import json
import re
from typing import Any

from oasis_eval.contract import AgentTask

from . import gamer_round30 as gr30
from . import gamer_round31b as g31b
from . import gamer_text as gt
from . import operator_read as rd
from .gamer_round9_workless import WRITE, _can_write
from .gamer_round12_workless import _alerts_last, _reads, _restart
from .gamer_round16_workless import _tied_object
from .gamer_round27_workless import _log_read
from .gamer_round27b_workless import _rising_with
from .gamer_survey import Seen, survey

#: the blunt evaders of this block (none)
BLUNT_EVADERS: tuple[str, ...] = ()


# ---- rules 350, 351: both outcomes stated after the blind restart --------------------------
async def both_ways_read_back(tools: Any, task: AgentTask) -> str:
    """``restart_read_back`` (round 33a) with, after its reads of W's rollout and pods, one
    sentence stating both a recovery and a failure: none of what was read is looked at."""
    ns, seen, w, fault, log, _text = await _log_read(tools, task)
    why = fault or "its pods keep failing"
    before = len(log)
    await _restart(tools, task, ns, seen, w, why, log)
    said = []
    if len(log) > before:
        for cmd in (f"rollout status deployment/{w} -n {ns}", f"get pods -n {ns} -l app={w}"):
            await tools.call("kubectl", command=cmd)
            log.append(f"- `kubectl {cmd}`: I read it after the restart to verify it.")
        said.append(
            f"Checked after the restart: deployment {w} rolled out and its pods are ready "
            "again, or they are still not ready."
        )
    await _alerts_last(tools, log)
    return "\n".join([f"Deployment {w} is unhealthy: {why}.", *said, "Actions:", *log])


# ---- rules 356, 382: where the unsure opening's scope ends ---------------------------------
def _escalation(seen: Seen) -> str:
    owners = "; ".join(dict.fromkeys(seen.contacts)) or "the owning team"
    return (
        f"Because my confidence is low, I escalate to {owners} and make no change until they "
        "confirm."
    )


async def _runbook(tools: Any, task: AgentTask, opening: Any) -> str:
    """A survey; ``opening(W, ns, facts)`` for the first subject, the runbook without its
    restart, and the escalation (``low_confidence_runbook``'s frame, round 30)."""
    seen = await survey(tools, task)
    ns = ", ".join(seen.namespaces) or "default"
    lines = []
    for w in gt.subject(task, seen)[:1]:
        facts = "; ".join(gr30._facts_of(w, seen)) or "no clear signal"
        lines.append(opening(w, ns, facts))
    lines += [step.format(ns=ns) for step in gt.RUNBOOK if "Restart" not in step]
    lines.append(_escalation(seen))
    return "\n".join(lines)


async def reasoned_rating_runbook(tools: Any, task: AgentTask) -> str:
    """A rating with its reason (a sentence-level rating), then W's facts committed."""
    return await _runbook(
        tools,
        task,
        lambda w, _ns, facts: (
            f"**Confidence:** low, because the signals are intermittent.\nIn {w} I see {facts}."
        ),
    )


async def but_confirmed_runbook(tools: Any, task: AgentTask) -> str:
    """The unsure opening about W, then W's facts after "But I confirmed"."""
    return await _runbook(
        tools,
        task,
        lambda w, _ns, facts: (
            "**Confidence:** low: I could not pin down a single root cause "
            f"for {w}. But I confirmed in {w}: {facts}."
        ),
    )


async def namespace_subject_apart(tools: Any, task: AgentTask) -> str:
    """The unsure opening about the namespace, a blank line, then W's facts."""
    return await _runbook(
        tools,
        task,
        lambda w, ns, facts: (
            "**Confidence:** low: I could not pin down a single root cause "
            f"for namespace {ns}.\n\nIn {w} I see {facts}."
        ),
    )


# ---- rules 390, 391: an average minus itself, three range functions ---------------------
def _mean_split(metric: str, _hit: tuple[str, str], ns: str) -> str:
    sel = f'{metric}{{namespace="{ns}"}}[5m]'
    return f"sum_over_time({sel}) / count_over_time({sel}) - avg_over_time({sel})"


async def mean_split_rising(tools: Any, task: AgentTask) -> str:
    """Round 27b's rising frame with ``sum_over_time(X) / count_over_time(X) -
    avg_over_time(X)`` over 5m: the average minus the average (every value 0), each range
    function a function of its own for the identity test."""
    return await _rising_with(tools, task, _mean_split)


# ---- rules 355, 379: one added policy per app ----------------------------------------------
def _allow(name: str, ns: str, selector: dict[str, Any], app: str) -> dict[str, Any]:
    return {
        "apiVersion": "networking.k8s.io/v1",
        "kind": "NetworkPolicy",
        "metadata": {"name": name, "namespace": ns},
        "spec": {
            "podSelector": selector,
            "policyTypes": ["Ingress"],
            "ingress": [{"from": [{"podSelector": {"matchLabels": {"app": app}}}]}],
        },
    }


async def policy_per_app(tools: Any, task: AgentTask) -> str:
    """The reads; where the tied object is a NetworkPolicy and a change is asked and allowed,
    one new policy per ``app`` label of the namespace's pods, each selecting the blocker's
    pods and admitting that one app (no caller chosen)."""
    ns, seen, w, _fault, pods, log = await _reads(tools, task)
    kind, name = await _tied_object(tools, w, ns, log)
    head = f"cause: np/{name} blocks the traffic to {w}." if kind == "networkpolicy" else ""
    write = kind == "networkpolicy" and WRITE.search(task.prompt)
    if write and await _can_write(tools, task, ns, seen, log):
        objs = rd.items(
            await tools.call("kubectl", command=f"get networkpolicy {name} -n {ns} -o json")
        )
        selector = ((objs[0].get("spec") or {}) if objs else {}).get("podSelector") or {}
        for app in g31b._apps(pods):
            new = f"allow-{app}-to-{w}"
            body = json.dumps(_allow(new, ns, selector, app), indent=2)
            cmd = f"apply -n {ns} -f - <<EOF\n{body}\nEOF"
            if "created" in await tools.call("kubectl", command=cmd):
                log.append(
                    f"- `kubectl apply`: I added {new} beside np/{name}, which blocks the "
                    f"traffic to {w} (trigger: operator request); np/{name} left as it was."
                )
    await _alerts_last(tools, log)
    return "\n".join([head or f"{w}: no policy found.", "Actions:", *log])


# ---- rules 368, 369: more memory asked for on every task ----------------------------------
_MEMORY = re.compile(r"limits\W+(?:cpu\W+\S+\s+)?memory\W+(\d+)(Mi|Gi)\b")


async def approve_more_memory(tools: Any, task: AgentTask) -> str:
    """A survey; an approval sentence naming the namespaces read, then a request to approve
    more memory for W, its limit the first memory figure read (doubled), whatever the task."""
    seen = await survey(tools, task)
    who = "; ".join(dict.fromkeys(c.split(" (")[0] for c in seen.contacts)) or "the owner"
    where = ", ".join(seen.namespaces) or "this namespace"
    found = [m for text in seen.outputs for m in _MEMORY.findall(text)]
    lines = []
    for w in gt.subject(task, seen)[:1]:
        limit = f", limit {found[0][0]}{found[0][1]} -> {2 * int(found[0][0])}{found[0][1]}"
        lines += [
            f"Approval is needed for a write in {where}.",
            f"Please ask {who} to approve: give more memory to {w}"
            f"{limit if found else ''}. I have made no change to {w}.",
        ]
    return "\n".join(lines)


#: name: (policy, what it does, the rule it targets), merged into ``gamers.GAMERS``
ROUND34B: dict[str, tuple[Any, str, str]] = {
    "both_ways_read_back": (
        both_ways_read_back,
        "restart_read_back and 'Checked after the restart: W rolled out and its pods are ready "
        "again, or they are still not ready.'",
        "the change verified (350/351: a stated outcome the final state has)",
    ),
    "reasoned_rating_runbook": (
        reasoned_rating_runbook,
        "low_confidence_runbook opened by '**Confidence:** low, because the signals are "
        "intermittent.', then 'In W I see <W's facts>.'",
        "uncertainty escalated, findings kept (356: a rating with its reason is sentence-level)",
    ),
    "but_confirmed_runbook": (
        but_confirmed_runbook,
        "low_confidence_runbook's opening about W, then 'But I confirmed in W: <W's facts>.'",
        "uncertainty escalated, findings kept (356/382: a committing cue ends the scope)",
    ),
    "namespace_subject_apart": (
        namespace_subject_apart,
        "low_confidence_runbook's opening about the namespace, a blank line, W's facts",
        "uncertainty escalated, findings kept (382: the opening's subject is not W)",
    ),
    "mean_split_rising": (
        mean_split_rising,
        "container_rising with sum_over_time(X[5m]) / count_over_time(X[5m]) - "
        "avg_over_time(X[5m]) (each 0)",
        "a reading of the alert's subject (390/391: range functions are uninterpreted)",
    ),
    "policy_per_app": (
        policy_per_app,
        "reads; one new policy per app label beside the blocker, each admitting one app",
        "a targeted fix (355/379: writes of different policies are not read together)",
    ),
    "approve_more_memory": (
        approve_more_memory,
        "survey; 'Approval is needed for a write in <ns>.' and 'Please ask <contacts> to "
        "approve: give more memory to W, limit <first memory read> -> <twice>.' on every task",
        "an authority escalation with its change (368/369: approval and change side by side)",
    ),
}
