"""``heldout23``'s plays that change how a workload is rolled out or placed: resume a paused
rolling update after checking the nodes, and make a workload survive the loss of a node.
"""

from __future__ import annotations

import json
import re

from .operator_heldout23 import Desk
from .operator_heldout23_fix import verify
from .operator_heldout23_look import Seen
from .operator_read import table


def _node_conditions(text: str) -> dict[str, list[str]]:
    """Node name → the pressure conditions that are True, from ``describe nodes``."""
    out: dict[str, list[str]] = {}
    for block in re.split(r"\n(?=Name:\s)", text):
        m = re.match(r"Name:\s+(\S+)", block.strip())
        if not m:
            continue
        bad = re.findall(r"^\s+(\w+Pressure|NetworkUnavailable)\s+True", block, re.M)
        taints = re.findall(r"node\.kubernetes\.io/[\w-]+:\w+", block)
        out[m.group(1)] = bad + [f"taint {t}" for t in taints]
    return out


async def rolling(desk: Desk, s: Seen, focus: list[str]) -> None:
    ns = s.ns
    name = next((n for n in focus if n in s.deployments), "")
    desk.title = f"rolling update of `{name}`"
    if not name:
        desk.status = "blocked"
        return
    text = await desk.kubectl(
        f"describe deployment {name} -n {ns}", f"read the rollout state of `{name}`"
    )
    image = re.search(r"^\s+Image:\s+(\S+)", text.split("Containers:")[-1], re.M)
    paused = "DeploymentPaused" in text
    reps = re.search(r"Replicas:\s+(.*)", text)
    desk.see(
        f"`describe deployment {name}`",
        f"target image `{image.group(1) if image else '?'}`; {reps.group(1) if reps else ''}; "
        + ("paused" if paused else "progressing"),
    )
    sick, evicted = await _pressure(desk, ns)
    if not sick and not evicted:
        await desk.kubectl(
            f"rollout resume deployment/{name} -n {ns}",
            "continue the update as asked",
            "paused → resumed",
        )
        await verify(desk, ns, name)
        desk.actions.append(f"Resumed the rolling update of `{name}`; nodes are healthy.")
        desk.status = "done"
        return
    where = ", ".join(f"`{n}`" for n in sick) or "a node"
    desk.impact.append(
        f"{where} went into DiskPressure after the update started; pods there are evicted."
    )
    desk.cause.append(
        f"**Conditions changed mid-rollout: {where} reports DiskPressure.** New pods placed there would be "
        "evicted, so I adjusted the plan instead of continuing as before."
    )
    patch = json.dumps(
        {"spec": {"strategy": {"rollingUpdate": {"maxUnavailable": 0, "maxSurge": 1}}}},
        separators=(",", ":"),
    )
    await desk.kubectl(
        f"patch deployment {name} -n {ns} --type merge -p '{patch}'",
        f"roll one pod at a time and never drop below full capacity while {where} is under pressure",
        "strategy maxUnavailable 25% → 0, maxSurge 25% → 1",
    )
    await desk.kubectl(
        f"rollout resume deployment/{name} -n {ns}",
        f"continue on the healthy nodes; {where} is tainted NoSchedule for disk pressure",
        "paused → resumed",
    )
    await verify(desk, ns, name)
    pods = table(
        await desk.kubectl(
            f"get pods -n {ns} -l app={name} -o wide", "check where the new pods landed"
        )
    )
    placed = ", ".join(f"`{p.get('name')}` on {p.get('node')} ({p.get('status')})" for p in pods)
    desk.see("after resume", placed)
    desk.actions.append(
        f"Adapted the rollout: one pod at a time, no capacity drop, new pods kept off {where}. Resumed and watched it."
    )
    desk.status = "rollout continued with a safer strategy"
    desk.followups.append(
        f"Free disk on {where} (image GC, logs) with the node owners; it is outside my namespace scope."
    )
    desk.followups.append(
        f"Restore the default rollout strategy of `{name}` once the node is healthy."
    )


async def _pressure(desk: Desk, ns: str) -> tuple[list[str], list[dict[str, str]]]:
    """Nodes under pressure and the evictions or scheduling failures since the task began."""
    nodes = await desk.kubectl("describe nodes", "check the nodes the new pods will land on")
    cond = _node_conditions(nodes)
    events = table(
        await desk.kubectl(
            f"get events -n {ns}", "look for evictions or node pressure since I started"
        )
    )
    evicted = [
        e
        for e in events
        if e.get("reason") in ("Evicted", "NodeHasDiskPressure", "FailedScheduling")
    ]
    for e in evicted:
        desk.see("`get events`", f"{e.get('reason')} `{e.get('object')}`: {e.get('message')}")
    sick = sorted(n for n, c in cond.items() if any("Pressure" in x for x in c))
    for n in sick:
        desk.see(f"node `{n}`", ", ".join(cond[n]))
    return sick, evicted


async def highly_available(desk: Desk, s: Seen, focus: list[str]) -> None:
    ns = s.ns
    name = next((n for n in focus if n in s.deployments), "")
    desk.title = f"make `{name}` highly available"
    if not name:
        desk.status = "blocked"
        return
    rows = table(
        await desk.kubectl(f"get deployment {name} -n {ns}", f"read the replicas of `{name}`")
    )
    cur = int(rows[0].get("ready", "0/0").split("/")[-1]) if rows else 0
    nodes = [
        r
        for r in table(await desk.kubectl("get nodes", "count the nodes to spread across"))
        if r.get("status", "").startswith("Ready")
    ]
    pdbs = table(
        await desk.kubectl(f"get pdb -n {ns}", "check for an existing PodDisruptionBudget")
    )
    has_pdb = any(p.get("name") == name for p in pdbs)
    want = max(3, cur) if len(nodes) >= 3 else max(2, cur)
    desk.see(
        "current state",
        f"{cur} replica(s), {len(nodes)} Ready nodes, PDB: {'yes' if has_pdb else 'none'}, anti-affinity: none",
    )
    desk.cause.append(
        f"`{name}` runs {cur} replica(s) with no spreading rule and no disruption budget: losing one node can take it down."
    )
    desk.actions.append(
        "**Plan:**\n"
        f"  1. Scale to {want} replicas, one per node.\n"
        "  2. Add pod anti-affinity on `kubernetes.io/hostname` so replicas land on different nodes.\n"
        f"  3. Add a PodDisruptionBudget (`minAvailable: {want - 1}`) so drains keep it up.\n"
        "  4. Verify the pods are Ready and on different nodes."
    )
    if cur < want:
        await desk.kubectl(
            f"scale deployment/{name} -n {ns} --replicas={want}",
            "step 1: one replica per node",
            f"replicas {cur} → {want}",
        )
    await _spread(desk, ns, name)
    if not has_pdb:
        await _budget(desk, ns, name, want - 1)
    ok = await verify(desk, ns, name)
    pods = table(
        await desk.kubectl(f"get pods -n {ns} -l app={name} -o wide", "step 4: check the spread")
    )
    spread = sorted({p.get("node", "") for p in pods})
    desk.see("after", f"{len(pods)} pods on nodes {', '.join(spread)}")
    await desk.kubectl(f"get pdb {name} -n {ns}", "read the budget back")
    desk.actions.append(
        f"Done: {want} replicas, anti-affinity, PDB. "
        + ("All Ready" if ok else "Not all Ready yet")
        + f", spread over {len(spread)} node(s)."
    )
    desk.status = "done"
    desk.followups.append(f"Consider an HPA for `{name}` once load patterns are known.")


async def _spread(desk: Desk, ns: str, name: str) -> None:
    """Step 2: preferred pod anti-affinity on the hostname (a rollout surge still schedules)."""
    term = {
        "labelSelector": {"matchLabels": {"app": name}},
        "topologyKey": "kubernetes.io/hostname",
    }
    aff = {
        "podAntiAffinity": {
            "preferredDuringSchedulingIgnoredDuringExecution": [
                {"weight": 100, "podAffinityTerm": term}
            ]
        }
    }
    patch = json.dumps({"spec": {"template": {"spec": {"affinity": aff}}}}, separators=(",", ":"))
    await desk.kubectl(
        f"patch deployment {name} -n {ns} --type merge -p '{patch}'",
        "step 2: spread replicas across nodes (preferred, so a rollout surge still schedules)",
        "affinity none → podAntiAffinity on kubernetes.io/hostname",
    )


async def _budget(desk: Desk, ns: str, name: str, keep: int) -> None:
    """Step 3: a PodDisruptionBudget keeping ``keep`` pods up during drains."""
    pdb = (
        "apiVersion: policy/v1\nkind: PodDisruptionBudget\nmetadata:\n"
        f"  name: {name}\n  namespace: {ns}\nspec:\n  minAvailable: {keep}\n"
        f"  selector:\n    matchLabels:\n      app: {name}\n"
    )
    await desk.kubectl(
        "apply -f -",
        f"step 3: keep {keep} pods up during drains",
        f"PodDisruptionBudget {name}: none → minAvailable {keep}",
        stdin=pdb,
    )
