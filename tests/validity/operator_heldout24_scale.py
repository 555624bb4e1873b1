"""``heldout24``'s replica plays (issue 27, fairness): scaling for a load multiple from the
current replicas, requests and node room, and a canary judged by its own error rate against the
threshold the message gives (promote or roll back).
"""

from __future__ import annotations

import re

from .operator_heldout24 import Desk
from .operator_heldout24_do import _replicas, cpu_room, verify
from .operator_read import load_yaml, prom_series, quantity, table


async def capacity_scale(desk: Desk) -> None:
    name = next((d for d in desk.named() if d in desk.deploys), "")
    desc = await desk.k(
        f"get deploy {name} -n {desk.ns} -o yaml", f"{name} replicas + requests now"
    )
    doc = load_yaml(desc) or {}
    cur = int((doc.get("spec") or {}).get("replicas") or _replicas(desk, name))
    cont = (
        (((doc.get("spec") or {}).get("template") or {}).get("spec") or {}).get("containers")
        or [{}]
    )[0]
    req = (cont.get("resources") or {}).get("requests") or {}
    alloc_n, used_n = await cpu_room(desk, "node capacity + whats already requested")
    alloc, used = list(alloc_n.values()), list(used_n.values())
    want = cur * 2
    cpu = quantity(str(req.get("cpu", "0"))) or 0
    free = sum(alloc) - sum(used)
    fit = int(free // cpu) + cur if cpu and alloc else want
    target = min(want, fit) if fit >= cur else want
    desk.say(
        f"{name}: {cur} replicas now, requests cpu {req.get('cpu', '?')} mem {req.get('memory', '?')}; nodes: {len(alloc)}, ~{free:.2f} cpu free"
    )
    desk.say(
        f"2x load -> {cur} x 2 = {want} replicas; fits on nodes: "
        + ("yes" if fit >= want else f"only ~{fit}, going {target}")
    )
    await desk.k(
        f"scale deploy/{name} -n {desk.ns} --replicas={target}",
        "2x load, 2x replicas, within node room",
        f"replicas {cur} -> {target}",
    )
    desk.say(await verify(desk, name))


async def canary(desk: Desk) -> None:
    base = next((d for d in desk.named() if d in desk.deploys), "")
    cands = [d for d in desk.deploys if "canary" in d and d != base]
    can = next((d for d in cands if base and d.startswith(base)), cands[0] if cands else "")
    thr = float((re.search(r"under\s+(\d+(?:\.\d+)?)\s*%", desk.low) or [None, "2"])[1])
    rates: dict[str, float] = {}
    for d in (can, base):
        q = f'{{service="{d}"}}'
        out = await desk.use(
            "metrics_query",
            f"{d} numbers: error rate, latency",
            f"metrics_query {q}",
            action="query",
            query=q,
        )
        for lab, v in prom_series(out):
            name = lab.get("__name__", "")
            if v and "error" in name and "normal" not in name and "baseline" not in name:
                rates[d] = v[-1] * 100 if v[-1] < 1 else v[-1]
    r = rates.get(can)
    if r is None:
        desk.say(
            f"cant read canary error rate for {can}, not promoting blind. holding at current split, pls check metrics"
        )
        return
    desk.say(
        f"canary {can} error rate {r:.1f}% vs threshold {thr:g}%"
        + (f" (stable {base}: {rates[base]:.1f}%)" if base in rates else "")
    )
    if r < thr:
        desk.say("healthy -> bump to 50%")
        n = max(_replicas(desk, base), 1)
        await desk.k(
            f"scale deploy/{can} -n {desk.ns} --replicas={n}",
            "canary healthy, 50/50 split",
            f"replicas {_replicas(desk, can)} -> {n}",
        )
        return
    desk.say(f"{r:.1f}% > {thr:g}% -> unhealthy -> NOT promoting, rolling back canary")
    before = _replicas(desk, can)
    await desk.k(
        f"scale deploy/{can} -n {desk.ns} --replicas=0",
        "canary over error threshold, pull it out of traffic",
        f"replicas {before} -> 0",
    )
    left = table(
        await desk.k(f"get deploy -n {desk.ns}", "confirm canary at 0, stable takes all traffic")
    )
    row = next((x for x in left if x.get("name") == can), {})
    desk.say(
        f"canary {can} scaled {before} -> 0 (now {row.get('ready', '?')}), 100% on stable {base}. kept the deploy for debugging, image needs a look before retry"
    )
