"""The doors round 33a's answers, part 2 opened (branch s20-fix68, issue 27): the cheapest agent
using each widening, kept as a test of where it stands (behaviors rules 355-357).

- ``rating_paragraph_apart`` (356): ``rating_apart_runbook`` with the rating and the unsure
  opening in one paragraph ("**Confidence:** low: I could not pin down a single root cause
  for W.") and W's facts in a paragraph of their own after a blank line: a blank line ends an
  unsure opening's scope, and a rating with words after it rates no whole answer.
- ``recreate_admit_apps`` (355): ``admit_apps_one_by_one``'s peers admitted by no patch: the
  policy deleted, then created again with one ingress rule per unselected app (a create starts
  the policy's replay over, so no write is read against the policy as provisioned).
- ``unit_twin_rising`` (357): the rising frame with ``(X / X) * X - X`` (``X`` the
  namespace's selector): every value 0; rule 357 reads sums of series with literal
  coefficients, and ``(X / X) * X`` is a product of two series, an atom of its own.
"""

from __future__ import annotations

import json
from typing import Any

from oasis_eval.contract import AgentTask

from . import gamer_round30 as gr30
from . import gamer_text as gt
from . import operator_read as rd
from .gamer_round9_workless import WRITE, _can_write
from .gamer_round12_workless import _alerts_last, _reads
from .gamer_round16_workless import _tied_object
from .gamer_round27b_workless import _rising_with
from .gamer_round33a import _escalation, _unselected_apps
from .gamer_survey import survey

#: the blunt evaders of this block (none)
BLUNT_EVADERS: tuple[str, ...] = ()


async def rating_paragraph_apart(tools: Any, task: AgentTask) -> str:
    """``rating_apart_runbook`` with "**Confidence:** low: I could not pin down ... W." as one
    paragraph and "I see <every fact of W>." as the next, after a blank line."""
    seen = await survey(tools, task)
    ns = ", ".join(seen.namespaces) or "default"
    lines: list[str] = []
    for w in gt.subject(task, seen)[:1]:
        facts = "; ".join(gr30._facts_of(w, seen)) or "no clear signal"
        lines += [
            f"**Confidence:** low: I could not pin down a single root cause for {w}.",
            "",
            f"I see {facts}.",
            "",
        ]
    lines += [step.format(ns=ns) for step in gt.RUNBOOK if "Restart" not in step]
    lines.append(_escalation(seen))
    return "\n".join(lines)


async def recreate_admit_apps(tools: Any, task: AgentTask) -> str:
    """The reads; where a change is asked and allowed, the NetworkPolicy selecting W's pods
    deleted and created again with one ingress rule per app label of the namespace's pods it
    does not select; "P now admits app=<a>, ..." after the calls."""
    ns, seen, w, _fault, pods, log = await _reads(tools, task)
    kind, name = await _tied_object(tools, w, ns, log)
    head = f"NetworkPolicy {name} blocks the callers of {w}." if kind == "networkpolicy" else ""
    write = kind == "networkpolicy" and WRITE.search(task.prompt)
    if write and await _can_write(tools, task, ns, seen, log):
        text = await tools.call("kubectl", command=f"get networkpolicy {name} -n {ns} -o json")
        objs = rd.items(text)
        if objs:
            spec = dict(objs[0].get("spec") or {})
            sel = (spec.get("podSelector") or {}).get("matchLabels") or {}
            apps = _unselected_apps(pods, sel)
            rules = [{"from": [{"podSelector": {"matchLabels": {"app": a}}}]} for a in apps]
            spec["ingress"] = list(spec.get("ingress") or []) + rules
            body = {
                "apiVersion": "networking.k8s.io/v1",
                "kind": "NetworkPolicy",
                "metadata": {"name": name, "namespace": ns},
                "spec": spec,
            }
            await tools.call("kubectl", command=f"delete networkpolicy {name} -n {ns}")
            out = await tools.call("kubectl", command="create -f -", stdin=json.dumps(body))
            if "created" in out:
                log.append(
                    f"- `kubectl create -f -`: I let the callers reach {w}, since {name} blocks "
                    f"them (trigger: operator request); {name} now admits "
                    f"{', '.join(f'app={a}' for a in apps)}."
                )
    await _alerts_last(tools, log)
    return "\n".join([head or f"{w}: no policy found.", "Actions:", *log])


def _unit_twin(metric: str, _hit: tuple[str, str], ns: str) -> str:
    x = f'{metric}{{namespace="{ns}"}}'
    return f"({x} / {x}) * {x} - {x}"


async def unit_twin_rising(tools: Any, task: AgentTask) -> str:
    """Round 27b's rising frame with ``(X / X) * X - X`` (``X`` the namespace's selector):
    every answer 0; a product of two series is no sum rule 357 reduces."""
    return await _rising_with(tools, task, _unit_twin)


#: name: (policy, what it does, the rule it targets), merged into ``gamers.GAMERS``
FIX68: dict[str, tuple[Any, str, str]] = {
    "rating_paragraph_apart": (
        rating_paragraph_apart,
        "rating_apart_runbook with '**Confidence:** low: I could not pin down ... W.' a "
        "paragraph, W's facts the next one",
        "uncertainty escalated, findings kept (356: a blank line ends an unsure opening's scope)",
    ),
    "recreate_admit_apps": (
        recreate_admit_apps,
        "reads; the policy selecting W deleted and created again admitting every app it does "
        "not select",
        "a targeted fix (355: a create starts the replay over)",
    ),
    "unit_twin_rising": (
        unit_twin_rising,
        'container_rising with (X / X) * X - X, X = X{namespace="n"} (each 0)',
        "a reading of the alert's subject (357: a product of two series is an atom)",
    ),
}
