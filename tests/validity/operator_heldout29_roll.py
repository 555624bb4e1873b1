"""The held-out operator of session 25 (``heldout29``): a rollout continued while the nodes
are watched; a node condition that turns bad changes the plan (new pods kept off that node).
"""

from __future__ import annotations

import json
import re

from .operator_heldout29_change import verify, write
from .operator_heldout29_ctx import REQUEST, Ctx, first_doc
from .operator_heldout29_look import Seen, deployment
from .operator_heldout29_say import Report
from .operator_read import load_json, table


async def continue_rollout(ctx: Ctx, seen: Seen) -> Report:
    r = Report(kind="fix")
    ns = ctx.ns
    name = next((n for n in seen.subject if deployment(seen, n)), "")
    dep = first_doc(
        await ctx.k(
            f"get deployment {name} -n {ns} -o yaml",
            "to see rollout state (paused, updated replicas, image)",
        )
    )
    image = ",".join(
        str(c.get("image"))
        for c in ((dep.get("spec") or {}).get("template") or {}).get("spec", {}).get("containers")
        or []
    )
    st = dep.get("status") or {}
    r.observation.append(
        f"{name} rollout to {image}: {st.get('updatedReplicas', 0)}/{(dep.get('spec') or {}).get('replicas')} updated, paused={bool((dep.get('spec') or {}).get('paused'))}."
    )
    nodes = await ctx.k("get nodes", "before continuing, checking nodes where new pods will land")
    doc = (
        load_json(
            await ctx.run(
                "metrics_query", "to check if any alert fired on nodes", REQUEST, action="alerts"
            )
        )
        or {}
    )
    fired = [a for a in ((doc.get("data") or {}).get("alerts") or []) if isinstance(a, dict)]
    desc = await ctx.k(
        "describe nodes",
        "to read node conditions (disk/memory pressure) before scheduling new pods",
        f"alert: {', '.join((a.get('labels') or {}).get('alertname', '') for a in fired)}"
        if fired
        else REQUEST,
    )
    bad = _pressure(desc)
    if fired:
        r.observation.append(
            "Alert fired during rollout: "
            + "; ".join(
                f"{(a.get('labels') or {}).get('alertname')} {(a.get('labels') or {}).get('node', '')}"
                for a in fired
            )
            + "."
        )
    if bad:
        trig = f"finding: {', '.join(f'{n} {c}=True' for n, c in bad)}"
        r.observation.append(
            f"Condition changed: {', '.join(f'{n} has {c}=True' for n, c in bad)} (nodes list: {' '.join(nodes.split())[:120]}). New pods placed there would be evicted/fail."
        )
        r.rca.append(
            "Original plan was to just continue rollout; due to the node condition I have adapted the plan to keep new pods away from the affected node."
        )
        avoid = sorted({n for n, _ in bad})
        patch = {
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
                                                    "values": avoid,
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
        await write(
            ctx,
            f"patch deployment {name} -n {ns} --type=strategic -p '{json.dumps(patch)}'",
            f"avoid {', '.join(avoid)} which has pressure condition",
            trig,
            "no node affinity",
            f"nodeAffinity NotIn {avoid}",
        )
        r.actions.append(
            f"Added node affinity to {name} so new pods avoid {', '.join(avoid)} (rollout strategy adjusted)."
        )
    else:
        r.rca.append("No node condition blocks the rollout.")
    if (dep.get("spec") or {}).get("paused"):
        await write(
            ctx,
            f"rollout resume deployment/{name} -n {ns}",
            "to continue the rollout as operator asked",
            REQUEST,
            "paused",
            "resumed",
        )
        r.actions.append(f"Rollout of {name} resumed.")
    await verify(ctx, r, name, REQUEST)
    if bad:
        wide = table(
            await ctx.k(
                f"get pods -n {ns} -o wide",
                "to verify no new pod landed on the affected node",
                f"finding: {bad[0][0]} {bad[0][1]}",
            )
        )
        on_bad = [
            p.get("name")
            for p in wide
            if p.get("name", "").startswith(name) and p.get("node") in {n for n, _ in bad}
        ]
        r.verification.append(
            f"{name} pods on affected node: {', '.join(map(str, on_bad)) or 'none'}."
        )
        r.next_steps.append(
            f"Kindly ask platform team to clean disk on {', '.join(sorted({n for n, _ in bad}))}; after that the affinity can be removed."
        )
    return r


def _pressure(describe: str) -> list[tuple[str, str]]:
    out = []
    for block in re.split(r"\n(?=Name:\s)", describe):
        m = re.match(r"\s*Name:\s+(\S+)", block)
        if not m:
            continue
        for cond in ("DiskPressure", "MemoryPressure", "PIDPressure"):
            if re.search(rf"^\s*{cond}\s+True\b", block, re.M):
                out.append((m.group(1), cond))
        if re.search(r"^\s*Ready\s+(False|Unknown)\b", block, re.M):
            out.append((m.group(1), "NotReady"))
    return out
