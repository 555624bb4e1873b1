"""``heldout28``'s plans of several steps: making a service highly available, and carrying a
rollout on while steering it away from a machine that falls sick part way.
"""

from __future__ import annotations

import json

from .operator_heldout28 import Note
from .operator_heldout28_look import named
from .operator_read import table


async def make_ha(note: Note) -> bool:
    focus = named(note)
    if not focus or not note.writable:
        return False
    name, ns = focus[0], note.ns
    await note.k(
        "get nodes", "listed the cluster's machines", "to know how many copies can be spread"
    )
    await note.k(
        f"scale deployment {name} -n {ns} --replicas=3",
        f"raised {name} to three copies",
        "so losing one machine leaves two running",
        change=f"{name} from 1 to 3 replicas",
    )
    patch = json.dumps(
        {
            "spec": {
                "template": {
                    "spec": {
                        "affinity": {
                            "podAntiAffinity": {
                                "preferredDuringSchedulingIgnoredDuringExecution": [
                                    {
                                        "weight": 100,
                                        "podAffinityTerm": {
                                            "labelSelector": {"matchLabels": {"app": name}},
                                            "topologyKey": "kubernetes.io/hostname",
                                        },
                                    }
                                ]
                            }
                        }
                    }
                }
            }
        }
    )
    await note.k(
        f"patch deployment {name} -n {ns} --type merge -p '{patch}'",
        f"told the cluster to keep {name}'s copies on different machines (anti-affinity)",
        "so one machine failing cannot take them all",
        change=f"{name}'s placement rule",
    )
    pdb = f"apiVersion: policy/v1\nkind: PodDisruptionBudget\nmetadata:\n  name: {name}\n  namespace: {ns}\nspec:\n  minAvailable: 2\n  selector:\n    matchLabels:\n      app: {name}\n"
    await note.k(
        "apply -f -",
        f"created a disruption budget for {name} that keeps at least two copies up during maintenance",
        "so planned work cannot take it down",
        change=f"a new PodDisruptionBudget for {name}",
        stdin=pdb,
    )
    await note.k(
        f"rollout status deployment {name} -n {ns}",
        f"watched {name} settle",
        "to check all three copies came up",
    )
    note.did_change(
        f"My plan had three steps and I did all of them: {name} now runs three copies instead of one, "
        "they are kept on different machines, and a disruption budget keeps at least two running."
    )
    return True


async def keep_rolling(note: Note) -> bool:
    """Carry on a rollout, watching the machines; steer away from one that falls sick."""
    focus = named(note)
    if not focus or not note.writable:
        return False
    name, ns = focus[0], note.ns
    await note.k(
        f"rollout resume deployment {name} -n {ns}",
        f"let the rollout of {name} carry on",
        "as you asked, replacing the old copies with the new version one at a time",
        change=f"{name}'s rollout, resumed",
    )
    await note.k(
        f"rollout status deployment {name} -n {ns} --timeout=60s",
        f"watched the rollout of {name}",
        "to follow its progress",
    )
    events = table(
        await note.k(
            f"get events -n {ns}",
            "read the recent events again",
            "to catch anything that changed while the rollout ran",
        )
    )
    sick = sorted(
        {
            e["object"].split("/")[-1]
            for e in events
            if "Pressure" in e.get("reason", "") and e.get("object", "").startswith("node/")
        }
    )
    if not sick:
        await note.k(
            f"get pods -n {ns} -l app={name}",
            f"listed the {name} pods",
            "to confirm the new copies are running",
        )
        note.did_change(
            f"The rollout of {name} carried on and finished; the new copies are running."
        )
        return True
    node = sick[0]
    note.prompted = f"machine {node} reported disk pressure in the middle of the rollout"
    await note.k(
        f"describe node {node}",
        f"read the description of machine {node}",
        "to confirm what it reports",
    )
    note.find(
        f"Half way through, machine {node} started reporting DiskPressure, which means its disk "
        "is almost full; Kubernetes then evicts pods from it (throws them off) and new copies "
        "placed there fail. Carrying on blindly would have put new copies on a failing machine."
    )
    await note.k(
        f"rollout pause deployment {name} -n {ns}",
        f"paused the rollout of {name}",
        "so no more copies were sent towards the sick machine while I adjusted the plan",
        change=f"{name}'s rollout, paused",
    )
    patch = json.dumps(
        {
            "spec": {
                "template": {
                    "spec": {
                        "affinity": {
                            "nodeAffinity": {
                                "requiredDuringSchedulingIgnoredDuringExecution": {
                                    "nodeSelectorTerms": [
                                        {
                                            "matchExpressions": [
                                                {
                                                    "key": "kubernetes.io/hostname",
                                                    "operator": "NotIn",
                                                    "values": [node],
                                                }
                                            ]
                                        }
                                    ]
                                }
                            }
                        }
                    }
                }
            }
        }
    )
    await note.k(
        f"patch deployment {name} -n {ns} --type merge -p '{patch}'",
        f"told {name} to keep its new copies off {node}",
        "so the rest of the rollout lands on healthy machines only",
        change=f"{name}'s placement, now avoiding {node}",
    )
    await note.k(
        f"rollout resume deployment {name} -n {ns}",
        f"resumed the rollout of {name}",
        "now that it avoids the sick machine",
        change=f"{name}'s rollout, resumed",
    )
    await note.k(
        f"rollout status deployment {name} -n {ns} --timeout=120s",
        "watched the rollout finish",
        "to check every copy came up",
    )
    note.did_change(
        f"I adapted the plan: I paused the rollout, kept {name}'s new copies off {node}, and let it "
        f"finish on the healthy machines. Someone should free up disk on {node} before it takes "
        "work again; the rule keeping web-app off it can then be removed."
    )
    return True
