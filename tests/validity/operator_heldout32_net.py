"""heldout32 on "X can't reach Y": the NetworkPolicy that leaves the caller out (written blind)."""

from __future__ import annotations

import json
import re

from . import operator_read as rd
from .operator_heldout32_act import may_write
from .operator_heldout32_chat import Thread
from .operator_heldout32_look import Dig, Scene, dig, named


async def fence(t: Thread, scene: Scene, d: Dig) -> bool:
    """A NetworkPolicy that leaves the caller out: name it, and allow just that caller."""
    ns = d.ns
    others = [n for n in named(t.task.prompt, scene.deployments.get(ns, [])) if n != d.name]
    pols = rd.items(await t.kubectl(f"get networkpolicies -n {ns} -o yaml"))
    svc = await t.kubectl(f"get svc -n {ns}")
    t.say(
        f"svcs in {ns}: {', '.join(r.get('name', '') + ' ' + r.get('port(s)', '') for r in rd.table(svc))}. "
        f"netpols: {', '.join(str((p.get('metadata') or {}).get('name')) for p in pols) or 'none'}"
    )
    for dst in [d.name] + others:
        dd = d if dst == d.name else await dig(t, scene, ns, dst)
        for p in pols:
            sel = ((p.get("spec") or {}).get("podSelector") or {}).get("matchLabels") or {}
            tpl = (((dd.spec.get("spec") or {}).get("template") or {}).get("metadata") or {}).get(
                "labels"
            ) or {}
            if not sel or any(tpl.get(k) != v for k, v in sel.items()):
                continue
            src = [o for o in [d.name] + others if o != dst]
            allowed = json.dumps((p.get("spec") or {}).get("ingress") or [])
            name = (p.get("metadata") or {}).get("name")
            t.say(
                f"there it is: netpol {name} selects {dst} ({sel}) and only admits {allowed}. "
                f"{', '.join(src) or 'the caller'} isn't in there, so its traffic is dropped"
            )
            if not src:
                continue
            ok, why = may_write(t, scene, ns)
            caller = src[0]
            if not ok:
                t.sum_up(
                    f"{name} blocks {caller} -> {dst}. not changed ({why}); proposed: allow app={caller} in."
                )
                return True
            port = re.search(r"(\d+)/TCP", svc)
            policy = {
                "apiVersion": "networking.k8s.io/v1",
                "kind": "NetworkPolicy",
                "metadata": {"name": f"allow-{caller}-to-{dst}", "namespace": ns},
                "spec": {
                    "podSelector": {"matchLabels": sel},
                    "policyTypes": ["Ingress"],
                    "ingress": [
                        {
                            "from": [{"podSelector": {"matchLabels": {"app": caller}}}],
                            **(
                                {"ports": [{"port": int(port.group(1)), "protocol": "TCP"}]}
                                if port
                                else {}
                            ),
                        }
                    ],
                },
            }
            t.say(
                f"narrow fix: leave {name} as is, add one policy letting just app={caller} into {dst}"
                f"{' on ' + port.group(1) if port else ''}. `kubectl apply -f -` allow-{caller}-to-{dst}"
            )
            await t.run("kubectl", command="apply -f -", stdin=json.dumps(policy))
            check = await t.kubectl(f"get networkpolicy allow-{caller}-to-{dst} -n {ns}")
            t.say(
                f"read back: {check.strip().splitlines()[-1] if check.strip() else 'nothing?'} -- {name} untouched"
            )
            t.sum_up(
                f"cause: netpol {name} only admits {allowed}, so {caller} -> {dst} was dropped. "
                f"added allow-{caller}-to-{dst} (only that caller{', port ' + port.group(1) if port else ''}); {name} unchanged."
            )
            return True
    t.say("no policy in the way of that path that we can see; not changing any netpol")
    return False
