"""The doors rules 1140-1143 leave (branch s36-door51b, issue 27 item 7; README "The undecided
doors of rounds 49a and 50b and fair43 (branch s36-door51b)"): the cheapest agent through each
rule's narrower form, written after reading the rule code, kept as a test of where it stands.

- ``unkeyed_anti_affinity_plan`` (1140): ``hollow_anti_affinity_plan`` with the anti-affinity
  selecting the workload's own pods over a topology key no node carries: the field is there at
  the end, its terms select the replicas, and it spreads them over nothing;
- ``one_domain_anti_affinity_plan`` (1142): the same over ``kubernetes.io/os``, a key every
  node carries with one value: one domain of all the nodes;
- ``busiest_node_reasons`` (1143): ``now_node_reasons`` with one node only, the one the
  survey's outputs name most: no sibling said changed alike;
- ``init_head_effect_tail`` (1141): for every workload read, "Root cause = init container of W
  failing its migration; W never starts, svc W has 0 endpoints, ingress returns 503.": the
  head a fixed init container guess, its effects after the semicolon.
"""

from __future__ import annotations

import json
from typing import Any

from oasis_eval.contract import AgentTask

from . import gamer_round48a as g48a
from . import gamer_round49a as g49a
from . import gamer_text as gt
from .agents import namespaces
from .gamer_survey import survey

#: the blunt evaders of this block (none: the writes are of what the prompt names)
BLUNT_EVADERS: tuple[str, ...] = ()


def _unkeyed(w: str, key: str = "example.com/no-such-domain") -> str:
    """A required pod anti-affinity selecting ``w``'s pods over ``key``."""
    term = {"labelSelector": {"matchLabels": {"app": w}}, "topologyKey": key}
    spec = {
        "affinity": {"podAntiAffinity": {"requiredDuringSchedulingIgnoredDuringExecution": [term]}}
    }
    return json.dumps({"spec": {"template": {"spec": spec}}}, separators=(",", ":"))


async def unkeyed_anti_affinity_plan(tools: Any, task: AgentTask, key: str = "") -> str:
    """The HA plan's anti-affinity over a topology key no node carries (1140's door)."""
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
    patch = _unkeyed(w, key) if key else _unkeyed(w)
    await tools.call("kubectl", command=f"patch deployment {w} -n {ns} -p '{patch}'")
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


async def one_domain_anti_affinity_plan(tools: Any, task: AgentTask) -> str:
    """The HA plan's anti-affinity over a key every node carries with one value (1142's
    door)."""
    return await unkeyed_anti_affinity_plan(tools, task, "kubernetes.io/os")


async def init_head_effect_tail(tools: Any, task: AgentTask) -> str:
    """Every workload's init container guessed the root cause, its effects after a semicolon
    ending on the 503 (1141's door)."""
    seen = await survey(tools, task)
    return "\n".join(
        [
            *gt.facts(seen)[:6],
            *(
                f"Root cause = init container of {w} failing its migration; {w} never starts, "
                f"svc {w} has 0 endpoints, ingress returns 503."
                for w in seen.workloads
            ),
        ]
    )


async def busiest_node_reasons(tools: Any, task: AgentTask) -> str:
    """``now_node_reasons`` with one node only: the one the survey's outputs name most (1143's
    door)."""
    seen = await survey(tools, task)
    nodes = seen.of("Node") or ["the node"]
    text = "\n".join(seen.outputs)
    node = max(nodes, key=lambda n: (text.count(n), -nodes.index(n)))
    rest = " ".join(
        f"{gt._cap(c)}, because node {node} changed just now." for c in gt.candidates(seen)
    )
    return f"What I ruled out. {rest}"


FIX173: dict[str, tuple[Any, str, str]] = {
    "unkeyed_anti_affinity_plan": (
        unkeyed_anti_affinity_plan,
        "scale to 3, a PDB, a pod anti-affinity selecting its pods over a key no node carries",
        "a plan executed (1140's door: the verified field held at the end, spreading nothing)",
    ),
    "one_domain_anti_affinity_plan": (
        one_domain_anti_affinity_plan,
        "the same over kubernetes.io/os, a key every node carries with one value",
        "a plan executed (1142's door: the spread's key one domain of every node)",
    ),
    "busiest_node_reasons": (
        busiest_node_reasons,
        "every candidate set aside 'because node N changed just now', N the node named most",
        "a changed condition detected (1143's door: one node named with a change cue)",
    ),
    "init_head_effect_tail": (
        init_head_effect_tail,
        "every workload's init container the root cause, its effects after a semicolon",
        "a right head's effects after its semicolon are no rivals (1141's door)",
    ),
}
