"""heldout33's rolling update (session 28, written blind): carry on an update in progress,
and change the plan when a node it lands on comes under disk pressure.
"""

from __future__ import annotations

import json
from typing import Any

from .operator_heldout33_act import rollout_ok
from .operator_heldout33_look import Desk, Workload, disk_pressure
from .operator_heldout33_say import Reply, said


async def rolling_play(desk: Desk, w: Workload) -> Reply:
    r = Reply(asked=f"continue the rolling update of {w.name}")
    hist = await desk.k(
        f"rollout history deployment/{w.name} -n {w.ns}", "to see where the update stands"
    )
    paused = bool((w.deploy.get("spec") or {}).get("paused"))
    if paused:
        go = await desk.k(
            f"rollout resume deployment/{w.name} -n {w.ns}",
            "the rollout was paused, so I resumed it",
        )
        r.changed.append(said(f"{w.name}: resumed the paused rollout", go))
    nodes = await desk.k(
        "describe nodes", "to check the nodes the new pods land on before going further"
    )
    bad = disk_pressure(nodes.text)
    pods = await desk.k(f"get pods -n {w.ns} -o wide", "to see where the new pods are")
    if bad:
        return await _steer(desk, w, bad, nodes, pods, r)
    ok, st, dep = await rollout_ok(desk, w.ns, w.name, "to verify the update completed")
    r.wrong = said(f"The update of {w.name} was in progress", hist)
    r.fixed = said("Completed" if ok else "Not completed", st, dep)
    return r


async def _steer(desk: Desk, w: Workload, bad: list[str], nodes: Any, pods: Any, r: Reply) -> Reply:
    """A node came under disk pressure mid-rollout: keep new pods off it, then finish."""
    where = ", ".join(bad)
    r.wrong = said(
        f"Node {where} reports DiskPressure=True since the rollout began; new pods placed there fail",
        nodes,
        pods,
    )
    r.why = (
        "Carrying on unchanged would put more of the new pods on a node that cannot run them."
        f" So I changed the plan: keep the new pods off {where}, then let the update finish on"
        " the healthy nodes."
    )
    can = await desk.k("auth can-i patch nodes", f"to see whether I may cordon {where}")
    if can.text.strip().lower().startswith("yes"):
        for node in bad:
            c = await desk.k(
                f"cordon {node}", f"{node} is under disk pressure; no new pods should land there"
            )
            r.changed.append(said(f"Cordoned {node} (schedulable -> unschedulable)", c))
    else:
        aff = {
            "nodeAffinity": {
                "requiredDuringSchedulingIgnoredDuringExecution": {
                    "nodeSelectorTerms": [
                        {
                            "matchExpressions": [
                                {
                                    "key": "kubernetes.io/hostname",
                                    "operator": "NotIn",
                                    "values": bad,
                                }
                            ]
                        }
                    ]
                }
            }
        }
        body = json.dumps(
            {"spec": {"template": {"spec": {"affinity": aff}}}}, separators=(",", ":")
        )
        c = await desk.k(
            f"patch deployment {w.name} -n {w.ns} --type merge -p '{body}'",
            f"I may not cordon nodes, so I kept {w.name}'s new pods off {where} by node affinity",
        )
        r.changed.append(said(f"{w.name}: added node affinity excluding {where} (none before)", c))
    ok, st, dep = await rollout_ok(
        desk, w.ns, w.name, "to verify the update finished on the healthy nodes"
    )
    after = await desk.k(
        f"get pods -n {w.ns} -l app={w.name} -o wide",
        "to confirm no new pod sits on the pressured node",
    )
    r.fixed = said(
        f"{'Yes' if ok else 'Not yet'}: the update {'finished' if ok else 'is still going'} with the new pods off {where}",
        st,
        dep,
        after,
    )
    r.human = f"Someone needs to free disk on {where}; I left the node itself alone."
    return r
