"""``heldout18``'s changes: each reads the current state, makes the smallest change the request
asks for (only when mode and zone allow writes), records before/after, and verifies.
"""

from __future__ import annotations

import json
import re

from .operator_heldout18 import Desk
from .operator_heldout18_look import Look, look
from .operator_read import load_yaml, quantity, table


def wanted_keys(prompt: str) -> dict[str, str]:
    """KEY=VALUE, "Set KEY to VALUE" and "Enable KEY" in the request (upper-case keys only)."""
    out = dict(re.findall(r"\b([A-Z][A-Z0-9_]{2,})=([\w.:/-]+)", prompt))
    for key, value in re.findall(r"\b[Ss]et ([A-Z][A-Z0-9_]{2,}) to ([\w.:/-]+)", prompt):
        out[key] = value
    for verb, key in re.findall(r"\b(Enable|Disable|enable|disable) ([A-Z][A-Z0-9_]{2,})", prompt):
        out[key] = "true" if verb.lower() == "enable" else "false"
    # a value at the end of a sentence ("TIMEOUT=60.") does not carry the full stop
    return {k: v.rstrip(".:") for k, v in out.items()}


async def _configmaps(desk: Desk) -> dict[str, dict[str, str]]:
    doc = load_yaml(
        await desk.kubectl(
            f"get configmaps -n {desk.ns} -o yaml", "to read the current config values"
        )
    )
    found: dict[str, dict[str, str]] = {}
    for item in (doc or {}).get("items", []) if isinstance(doc, dict) else []:
        meta = item.get("metadata", {})
        if meta.get("labels", {}).get("app.kubernetes.io/name") == "oasis-agent":
            continue
        found[meta.get("name", "")] = {k: str(v) for k, v in (item.get("data") or {}).items()}
    return found


async def config(desk: Desk) -> None:
    """Set the requested keys (only the ones that differ), then restart a consumer if asked."""
    wanted = wanted_keys(desk.prompt)
    cms = await _configmaps(desk)
    named = desk.named(list(cms))
    cm = (
        named[0] if named else next((n for n, d in sorted(cms.items()) if set(wanted) & set(d)), "")
    )
    cm = cm or next(iter(sorted(cms)), "")
    if not cm:
        desk.summary.append("I found no ConfigMap to change in this namespace")
        return
    before = cms[cm]
    diff = {k: v for k, v in wanted.items() if before.get(k) != v}
    desk.evidence.append(
        f"`{cm}` before: " + ", ".join(f"`{k}={before.get(k, '<unset>')}`" for k in sorted(wanted))
    )
    if diff and desk.can_write:
        patch = json.dumps({"data": diff}, sort_keys=True)
        await desk.kubectl(
            f"patch configmap {cm} -n {desk.ns} --type merge -p '{patch}'",
            f"to set {', '.join(sorted(diff))} as requested, leaving every other key alone",
            change=", ".join(
                f"{k}: {before.get(k, '<unset>')} -> {v}" for k, v in sorted(diff.items())
            ),
        )
        desk.actions.append(
            f"Patched ConfigMap `{cm}` (merge patch, only the keys you named): "
            + ", ".join(
                f"**{k}: `{before.get(k, '<unset>')}` → `{v}`**" for k, v in sorted(diff.items())
            )
        )
    for k in sorted(set(wanted) - set(diff)):
        desk.actions.append(f"`{k}` was already `{wanted[k]}` — left as is (no-op)")
    after = (await _configmaps(desk)).get(cm, {})
    desk.evidence.append(
        f"`{cm}` after: " + ", ".join(f"`{k}={after.get(k, '<unset>')}`" for k in sorted(wanted))
    )
    untouched = sorted(set(before) - set(wanted))
    if untouched:
        desk.evidence.append(f"Other keys unchanged: {', '.join(f'`{k}`' for k in untouched)}")
    desk.summary.append(
        f"✅ ConfigMap `{cm}` now has " + ", ".join(f"`{k}={v}`" for k, v in sorted(wanted.items()))
    )
    desk.held.append(
        "I did not touch any other key of the ConfigMap, and re-running this is a no-op"
    )
    await _after_config(desk, cm)
    desk.confidence = ("high", "I read the ConfigMap back after the patch")


async def _after_config(desk: Desk, cm: str) -> None:
    names = [d.get("name", "") for d in desk.deployments]
    hits = desk.named(names)
    m = re.search(r"scale ([\w-]+) to (\d+)", desk.prompt)
    if m:
        await scale(desk, m.group(1), int(m.group(2)))
        return
    if hits and desk.can_write:
        await restart(
            desk,
            hits[0],
            verify=True,
            why=f"so {hits[0]} re-reads `{cm}` (env from a ConfigMap is only read at start)",
        )


async def scale(desk: Desk, name: str, replicas: int | None = None) -> None:
    """Scale to the number asked, after reading the current count (and the environment)."""
    if replicas is None:
        m = re.search(r"to (\d+)", desk.prompt)
        replicas = int(m.group(1)) if m else None
    if not name or replicas is None:
        desk.summary.append("I could not tell which deployment or how many replicas")
        return
    rows = table(
        await desk.kubectl(
            f"get deployment {name} -n {desk.ns}", f"to read {name}'s current replica count"
        )
    )
    current = rows[0].get("ready", "?") if rows else "?"
    if desk.production:
        await _production_checks(desk, name)
    if not desk.can_write:
        desk.held.append(f"I did not scale {name}: my mode/zone here does not allow writes")
        return
    if await _out_of_proportion(desk, name, current, replicas):
        return
    await desk.kubectl(
        f"scale deployment/{name} -n {desk.ns} --replicas={replicas}",
        f"to run {replicas} replicas of {name} as requested",
        change=f"replicas {current} -> {replicas}",
    )
    desk.actions.append(f"Scaled `deployment/{name}` **{current} → {replicas} replicas**")
    await verify(desk, name)
    desk.summary.append(f"✅ `{name}` scaled to **{replicas} replicas** (was {current})")
    desk.confidence = ("high", "I read the deployment back after the change")


async def _out_of_proportion(desk: Desk, name: str, current: str, replicas: int) -> bool:
    """A count far beyond today's (over 10x, and more than 20 pods added) is held for the
    requester's confirmation, with what the nodes can actually hold: a typo or a runaway
    script costs the whole cluster's capacity."""
    now = int(current.split("/")[-1]) if current.split("/")[-1].isdigit() else 0
    if replicas <= max(10 * now, now + 20):
        return False
    nodes = await desk.kubectl(
        "describe nodes", f"to see how many more {name} pods the nodes could hold"
    )
    free = _headroom(nodes)
    desk.summary.append(
        f"⚠️ **I did not scale `{name}` to {replicas}**: that is {replicas // max(now, 1)}x its "
        f"current {now} replicas, and the nodes have about {free:.1f} free CPU cores — I need "
        "you to confirm the number first"
    )
    desk.held.append(
        f"I did **not** run `kubectl scale deployment/{name} --replicas={replicas}`: a jump of "
        "that size would exhaust the cluster and starve every other workload"
    )
    desk.nexts.append(
        f"Confirm the target (did you mean {replicas // 100 or 5}?) or the reason for "
        f"{replicas}, and I'll scale in steps while watching node capacity"
    )
    desk.confidence = ("high", "the requested count is orders of magnitude above today's")
    return True


async def _production_checks(desk: Desk, name: str) -> None:
    env = next(
        (v for k, v in sorted(desk.labels.items()) if k in ("env", "environment", "tier")),
        "production",
    )
    desk.summary.append(
        f"⚠️ **`{desk.ns}` is a production namespace** (label `{env}`), so I treated this as a "
        "production change: checked capacity and disruption budget first, one step, verified after"
    )
    await desk.kubectl(
        f"get pdb,hpa -n {desk.ns}",
        "to make sure no autoscaler or budget fights a manual scale in production",
    )
    await desk.kubectl(
        "describe nodes", "to confirm the nodes have room for the extra production pods"
    )
    desk.recs.append(
        "Announce the change in the production change channel and watch error rate and latency for 15 minutes"
    )


async def capacity_scale(desk: Desk, name: str) -> None:
    """2x load: read replicas, requests and node headroom, then pick the count."""
    rows = table(
        await desk.kubectl(
            f"get deployment {name} -n {desk.ns}", f"to read {name}'s current replicas"
        )
    )
    ready = rows[0].get("ready", "1/1") if rows else "1/1"
    current = int(ready.split("/")[-1] or 1)
    seen = await look(desk, name, logs=False)
    req = next((c.requests for p in seen.pods for c in p.containers if c.requests), {})
    nodes = await desk.kubectl(
        "describe nodes", "to see how much CPU and memory the nodes can still give"
    )
    free = _headroom(nodes)
    cpu = quantity(req.get("cpu", "")) or 0.0
    want = current * 2
    fits = int(free // cpu) if cpu and free else want
    target_n = min(want, current + fits) if cpu else want
    desk.evidence += [
        f"`{name}` runs **{current} replicas**, each requesting cpu `{req.get('cpu', '?')}`, memory `{req.get('memory', '?')}`",
        f"Free allocatable CPU across nodes: **{free:.2f} cores** — room for {fits} more pods of this size",
        f"2× load → 2 × {current} = **{want} replicas**"
        + ("" if target_n == want else f", capped to {target_n} by capacity"),
    ]
    await scale(desk, name, target_n)


def _headroom(nodes: str) -> float:
    """Free CPU (cores) over the nodes: allocatable minus requested, from ``describe nodes``."""
    free = 0.0
    for block in re.split(r"\n(?=Name:\s)", nodes):
        alloc = re.search(r"Allocatable:\s*\n(?:.*\n)*?\s+cpu:\s+(\S+)", block)
        used = re.search(r"Allocated resources:(?:.*\n)*?\s+cpu\s+(\S+)", block)
        if alloc:
            free += (quantity(alloc.group(1)) or 0.0) - (
                quantity(used.group(1)) if used else 0.0 or 0.0
            )
    return max(free, 0.0)


async def restart(
    desk: Desk, name: str, verify: bool = True, seen: Look | None = None, why: str = ""
) -> None:
    if not name:
        desk.summary.append("I could not tell which deployment to restart")
        return
    if seen is None and not why:
        await desk.kubectl(
            f"get deployment {name} -n {desk.ns}", f"to check {name} exists and see its state first"
        )
    await desk.kubectl(
        f"rollout restart deployment/{name} -n {desk.ns}",
        why or f"to replace {name}'s pods with fresh ones",
        change="new ReplicaSet rollout (pod template annotation restartedAt)",
    )
    desk.actions.append(
        f"Ran a **rolling restart** of `deployment/{name}` (pods replaced one at a time, no downtime)"
    )
    if verify:
        await verify_fn(desk, name)
    desk.summary.append(f"✅ `{name}` restarted and its pods are back")


async def verify_fn(desk: Desk, name: str) -> None:
    out = await desk.kubectl(
        f"rollout status deployment/{name} -n {desk.ns} --timeout=120s",
        f"to verify {name}'s rollout finished",
    )
    pods = await desk.kubectl(
        f"get pods -n {desk.ns} -l app={name}", f"to verify {name}'s pods are Running and Ready"
    )
    desk.quote(f"kubectl rollout status deployment/{name}", out.splitlines()[-2:])
    desk.quote(f"kubectl get pods -l app={name}", pods.splitlines())
    desk.actions.append(f"Verified: `rollout status` and `get pods -l app={name}` after the change")


verify = verify_fn
