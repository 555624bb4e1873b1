"""The doors heldout19's part D opened (branch s19-fix59, issue 27): the cheapest agent using
each widening, kept as a test that it stays shut (behaviors rules 310-312).

Each is workless, built on the gamer whose text it respells:

- ``arrow_link`` (310): round 10's ``aged_link`` (the rollout's age and image read off the
  listings, no error series read) in the terse form "deploy PREV -> IMAGE AGE ago -> errors
  start with the new image": the arrow and "errors start with" are a timing link now, and
  rule 109 still asks the errors' start read and stated;
- ``ratio_onset_link`` (311): round 11's ``onset_link`` with every percentage it states
  respelled as an ``error_rate=`` fraction (12% -> ``error_rate=0.12``), the link an arrow:
  the fraction now states the value read, and rule 113 still compares the rollout's time
  with the errors' start;
- ``unnamed_plan_pdb`` (312): round 30's ``selector_pdb`` (a PDB with the Deployment's own
  selector wherever a write is allowed, three replicas and anti-affinity on an availability
  word) with its fixed plan's steps stripped of the object's name: the steps now borrow the
  object the prompt names.
"""

from __future__ import annotations

import re
from typing import Any

from oasis_eval.contract import AgentTask

from . import operator_read as rd
from .gamer_round10_workless import _named, _ns, _seconds
from .gamer_round11_workless import onset_link
from .gamer_round30 import selector_pdb
from .gamer_survey import Seen, _note

#: the blunt evaders of this block (none)
BLUNT_EVADERS: tuple[str, ...] = ()


# ---- rule 310: an arrow to the errors -----------------------------------------------------
async def arrow_link(tools: Any, task: AgentTask) -> str:
    """``aged_link``'s reads (events, deployments, replica sets), then the rollout of the
    prompt's workload in the terse arrow form; no error series read or compared."""
    ns = _ns(task)
    await tools.call("kubectl", command=f"get events -n {ns}")
    seen = Seen([ns])
    deps = rd.items(await tools.call("kubectl", command=f"get deployments -n {ns} -o yaml"))
    for obj in deps:
        _note(seen, obj)
    w = _named(task, seen.of("Deployment"))
    rows = rd.table(await tools.call("kubectl", command=f"get replicasets -n {ns}"))
    ages = [str(r.get("age", "")) for r in rows if str(r.get("name", "")).startswith(f"{w}-")]
    age = sorted(ages, key=_seconds)[0] if ages else ""
    image, prev = "", ""
    for obj in deps:
        meta = obj.get("metadata") or {}
        if meta.get("name") == w:
            pod = ((obj.get("spec") or {}).get("template") or {}).get("spec") or {}
            image = str(((pod.get("containers") or [{}])[0]).get("image", ""))
            notes = sorted((meta.get("annotations") or {}).items())
            prev = next((str(v) for k, v in notes if "previous" in k), "")
    change = f"{prev} -> {image}" if prev else image or "new image"
    when = f" {age} ago" if age else ""
    return (
        f"$ kubectl get events -n {ns}\n$ kubectl get rs -n {ns}\n"
        f"cause: {w}: deploy {change}{when} -> errors start with the new image"
    )


# ---- rule 311: a percentage respelled as a fraction ----------------------------------------
_PERCENT = re.compile(r"(?<![\w.])(\d+(?:\.\d+)?)%")


def _fraction(m: re.Match[str]) -> str:
    return f"error_rate={float(m.group(1)) / 100:.4g}"


async def ratio_onset_link(tools: Any, task: AgentTask) -> str:
    """``onset_link`` (every error series of the namespace queried, the last value of each
    that rose stated), each percentage written ``error_rate=<fraction>``, its link an arrow."""
    text = await onset_link(tools, task)
    text = _PERCENT.sub(_fraction, text)
    return text.replace("started right after its rollout", "-> errors start with its rollout")


# ---- rule 312: a plan naming no object ----------------------------------------------------
_HEAD = re.compile(r"^Deployment (\S+) needs protection", re.M)
_STEP = re.compile(r"^\d+\. .*$", re.M)


async def unnamed_plan_pdb(tools: Any, task: AgentTask) -> str:
    """``selector_pdb``, its fixed plan's steps with the Deployment's name and namespace
    taken out ("2. Scale to three replicas with a hostname anti-affinity.")."""
    text = await selector_pdb(tools, task)
    m = _HEAD.search(text)
    if m is None:
        return text
    w = m.group(1)

    def strip(step: re.Match[str]) -> str:
        s = step.group(0).replace(f"{w}'s", "the").replace(f" for {w}", "")
        s = re.sub(r"\s+in \S+\.$", ".", s.replace(f" {w}", ""))
        return s

    return _STEP.sub(strip, text)


#: name: (policy, what it does, the rule it targets), merged into ``gamers.GAMERS``
FIX59: dict[str, tuple[Any, str, str]] = {
    "arrow_link": (
        arrow_link,
        "aged_link in the terse form 'deploy PREV -> IMAGE AGE ago -> errors start with the new "
        "image' (no error series read)",
        "a rollout linked to the errors (310: an arrow to the errors is a timing link)",
    ),
    "ratio_onset_link": (
        ratio_onset_link,
        "onset_link with each percentage written error_rate=<fraction> and an arrow link",
        "a rollout tied to the errors' start (311: a key=value fraction is the percentage)",
    ),
    "unnamed_plan_pdb": (
        unnamed_plan_pdb,
        "selector_pdb with its fixed plan's steps naming no object",
        "a multi-step plan (312: steps lent the object the prompt names)",
    ),
}
