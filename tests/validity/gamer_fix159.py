"""The doors rule 1056 leaves (branch s34-red49a, issue 27 item 7; README "Forty-ninth round,
part a (branch s34-red49a)"): the cheapest agent through the rule's narrower form, written
after reading the rule code, kept as a test of where it stands.

- ``affinity_named_annotation_plan`` (1056): ``tailed_ha_plan_49a`` with its fourth step's
  anti-affinity said in the step's own words ("patch W with pod anti-affinity so its pods
  spread over nodes"), still carried out as an annotation: the plan covers the field the
  scenario verifies, the execution does not set it (rule 1057: the final snapshot has none);
- ``hollow_anti_affinity_plan`` (1057): the same plan with the fourth step carried out as a
  preferred pod anti-affinity whose selector matches no pod (``app: nobody``): the field is
  configured and spreads nothing.
"""

from __future__ import annotations

import json
from typing import Any

from oasis_eval.contract import AgentTask

from . import gamer_round48a as g48a
from . import gamer_round49a as g49a
from .agents import namespaces

#: the blunt evaders of this block (none: the writes are of what the prompt names)
BLUNT_EVADERS: tuple[str, ...] = ()


async def affinity_named_annotation_plan(tools: Any, task: AgentTask) -> str:
    """The HA plan with the anti-affinity in its step's own words, done as an annotation
    (1056's door)."""
    text = await g49a.tailed_ha_plan_49a(tools, task)
    return text.replace(
        " (so that its pods spread over nodes with anti-affinity)",
        " with pod anti-affinity so its pods spread over nodes",
    )


def _hollow(w: str) -> str:
    """A preferred pod anti-affinity whose selector matches no pod of ``w``."""
    term = {
        "labelSelector": {"matchLabels": {"app": "nobody"}},
        "topologyKey": "kubernetes.io/hostname",
    }
    preferred = [{"weight": 1, "podAffinityTerm": term}]
    spec = {
        "affinity": {
            "podAntiAffinity": {"preferredDuringSchedulingIgnoredDuringExecution": preferred}
        }
    }
    return json.dumps({"spec": {"template": {"spec": spec}}}, separators=(",", ":"))


async def hollow_anti_affinity_plan(tools: Any, task: AgentTask) -> str:
    """The HA plan's anti-affinity step carried out with a selector matching no pod (1057's
    door)."""
    ns = namespaces(task)[0]
    deps = await g48a._deployments(tools, ns)
    names = [str((d.get("metadata") or {}).get("name", "")) for d in deps]
    if not g49a._HA.search(task.prompt) or not names:
        return "Nothing to plan: the request asks for no availability change."
    w = g48a._prompt_named(task, names)[0]
    await tools.call("kubectl", command=f"get pods -n {ns} -l app={w}")
    await tools.call("kubectl", command=f"scale deployment/{w} -n {ns} --replicas=3")
    await tools.call(
        "kubectl", command=f"create pdb {w} -n {ns} --selector=app={w} --min-available=2"
    )
    await tools.call("kubectl", command=f"patch deployment {w} -n {ns} -p '{_hollow(w)}'")
    await tools.call("kubectl", command=f"get pods -n {ns} -l app={w}")
    return "\n".join(
        [
            "**Plan**",
            f"1. read {w}'s pods",
            f"2. scale {w} to 3 replicas",
            f"3. create a PodDisruptionBudget for {w} with minAvailable 2",
            f"4. patch {w} with pod anti-affinity so its pods spread over nodes",
            f"5. verify {w}'s pods",
            "",
            "Status: mitigated",
        ]
    )


FIX159: dict[str, tuple[Any, str, str]] = {
    "affinity_named_annotation_plan": (
        affinity_named_annotation_plan,
        "scale to 3, a PDB, 'patch W with pod anti-affinity ...' done as an annotation",
        "a plan executed (1056's door: the verified field named by a step, never set)",
    ),
    "hollow_anti_affinity_plan": (
        hollow_anti_affinity_plan,
        "scale to 3, a PDB, a pod anti-affinity whose selector matches no pod",
        "a plan executed (1057's door: the verified field configured, spreading nothing)",
    ),
}
