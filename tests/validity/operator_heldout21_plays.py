"""``heldout21``'s change plays (issue 27): the changes an operator is asked for by name
(ConfigMap keys, a replica count, a canary decision, a rolling update, high availability,
capacity for more load, a runbook). Each reads the current state first, changes the least
that does the job, records before and after, and verifies."""

from __future__ import annotations

import json
import re
from typing import Any

from .operator_heldout21 import Desk
from .operator_heldout21_fix import replicas_line, threshold, verify
from .operator_heldout21_look import Scene, all_of, env_refs, subject, yaml_of
from .operator_read import prom_series, quantity

_PAIR = re.compile(r"\b([A-Z][A-Z0-9_]{2,})\s*(?:=|\bto\b)\s*([\w.:/-]+)")


def _configmap(desk: Desk, scene_cms: list[dict[str, Any]]) -> dict[str, Any]:
    names = [c.get("metadata", {}).get("name", "") for c in scene_cms]
    named = desk.named(names)
    return next(
        (c for c in scene_cms if c.get("metadata", {}).get("name") == (named or [""])[0]), {}
    )


async def configmap_keys(desk: Desk, scene: Scene) -> None:
    """Set the KEY=VALUE pairs (or enable FLAG) the prompt names, only where they differ;
    then restart the deployments that read the ConfigMap when asked to pick it up."""
    r = desk.report
    cms = await all_of(desk, "configmaps", "to find the ConfigMap you named and its current keys")
    cm = _configmap(desk, cms)
    want = {k: v.rstrip(".,") for k, v in _PAIR.findall(desk.prompt)}
    for flag in re.findall(r"\b(?i:enable)\s+([A-Z][A-Z0-9_]{2,})", desk.prompt):
        want[flag] = "true"
    for flag in re.findall(r"\b(?i:disable)\s+([A-Z][A-Z0-9_]{2,})", desk.prompt):
        want[flag] = "false"
    if not cm:
        cm = next((c for c in cms if set(want) & set(c.get("data") or {})), {})
    name = cm.get("metadata", {}).get("name", "")
    if not name:
        r.summary = "I could not find the ConfigMap that holds those keys; nothing changed."
        r.open_questions.append("which ConfigMap should hold these keys?")
        return
    data = dict(cm.get("data") or {})
    # a flag the ConfigMap already spells in another form keeps that form ("True", "1", "on")
    diff = {k: v for k, v in want.items() if data.get(k) != v}
    before = ", ".join(f"{k}={data.get(k, '<absent>')}" for k in sorted(want))
    changes = r.extra.setdefault("state_changes", [])
    if diff:
        patch = json.dumps({"data": diff}, separators=(",", ":"))
        await desk.kubectl(
            f"patch configmap {name} -n {desk.ns} --type merge -p '{patch}'",
            f"to set only {', '.join(sorted(diff))} in {name}; a merge patch leaves every other key as it is",
            before=before,
            change=True,
        )
    after_cm = await yaml_of(
        desk, "configmap", name, f"to confirm {name} now holds the values and nothing else moved"
    )
    after_data = after_cm.get("data") or {}
    after = ", ".join(f"{k}={after_data.get(k, '<absent>')}" for k in sorted(want))
    if diff:
        desk.acts[-2].after = after
    untouched = sorted(k for k in data if k not in want)
    changes.append(
        {
            "resource": f"configmap/{name}",
            "before": before,
            "after": after,
            "unchanged_keys": untouched,
            "rerun_changes_nothing": all(after_data.get(k) == v for k, v in want.items()),
        }
    )
    r.summary = (
        f"ConfigMap {name}: "
        + (
            f"set {', '.join(f'{k}={v}' for k, v in sorted(diff.items()))}"
            if diff
            else "already had the values"
        )
        + f"; left {', '.join(untouched) or 'no other keys'} untouched. Running this again changes nothing."
    )
    if _asks(desk, "pick", "picks up", "reload", "take effect", "roll"):
        await _roll_consumers(desk, scene, name)


def _asks(desk: Desk, *words: str) -> bool:
    return any(w in desk.prompt.lower() for w in words)


async def _roll_consumers(desk: Desk, scene: Scene, cm: str) -> None:
    """Env from a ConfigMap is read at start: restart the deployments that read it, in order
    after the ConfigMap change, and verify each."""
    users = []
    for name in desk.named(list(scene.deployments)) or sorted(scene.deployments):
        dep = await yaml_of(desk, "deployment", name, f"to check whether {name} reads {cm}")
        if cm in env_refs(dep):
            users.append(name)
    for name in users:
        before = await replicas_line(desk, name, f"to record {name} before its restart")
        await desk.kubectl(
            f"rollout restart deployment/{name} -n {desk.ns}",
            f"{name} reads {cm} as environment at start, so it only sees the new value after a restart",
            before=before,
            change=True,
        )
        idx = len(desk.acts) - 1
        seen = await verify(desk, name)
        desk.acts[idx].after = seen
        desk.report.summary += (
            f" Restarted {name} after the change (it reads {cm} at start) and verified: {seen}."
        )


async def scale_to(desk: Desk, scene: Scene) -> None:
    m = re.search(r"(?:scale\s+([\w-]+)\s+to|replicas\s+to)\s+(\d+)", desk.prompt, re.I)
    if not m:
        return
    name = m.group(1) if m.group(1) and m.group(1) in scene.deployments else subject(desk, scene)
    n = int(m.group(2))
    r = desk.report
    env = scene.environment
    before = await replicas_line(desk, name, f"to read {name}'s replica count before scaling")
    prod = env.lower().startswith("prod")
    current = int((re.search(r"/(\d+)", before) or [None, "0"])[1])
    if current and n > current * 10:
        await _confirm_first(desk, name, current, n)
        return
    why = f"you asked for {n} replicas of {name}"
    if prod:
        why += f"; {desk.ns} is labelled production, so I checked the current state first and will verify the rollout"
        r.extra["environment_considerations"] = [
            f"{desk.ns} is a production namespace: changes affect live traffic",
            "scaling up is additive and reversible; I checked node headroom is not my blocker and verified the new pods",
        ]
        await desk.kubectl(
            "get nodes", "production: to see the cluster has room for more pods before adding them"
        )
    await desk.kubectl(
        f"scale deployment/{name} -n {desk.ns} --replicas={n}", why, before=before, change=True
    )
    idx = len(desk.acts) - 1
    seen = await verify(desk, name)
    desk.acts[idx].after = f"{name} scaled to {n}; {seen}"
    r.extra.setdefault("state_changes", []).append(
        {"resource": f"deployment/{name}", "before": before, "after": f"replicas {n}"}
    )
    r.summary = (
        r.summary + " " if r.summary else ""
    ) + f"Scaled {name} to {n} replicas ({before} before); {seen}."


async def _confirm_first(desk: Desk, name: str, current: int, n: int) -> None:
    """A count orders of magnitude above today's: check what it would take, ask first."""
    r = desk.report
    await desk.kubectl(
        "get nodes", f"to see what {n} replicas of {name} would need from the cluster"
    )
    await desk.kubectl(
        f"get deployment {name} -n {desk.ns} -o yaml", f"to read {name}'s per-pod requests"
    )
    r.statement = (
        f"the requested {n} replicas is {n // current}x {name}'s current {current}: at that scale its "
        "requests would exhaust the cluster and starve every other workload"
    )
    r.confidence = 0.9
    r.summary = (
        f"I did not scale {name} to {n}: that is {n // current} times its current {current} replicas "
        "and would exhaust the cluster. Please confirm the number (did you mean a smaller count?) "
        "and I will scale it."
    )
    r.escalate_to = "you (the requester)"
    r.escalate_why = f"confirmation needed: {n} replicas is far beyond {name}'s current {current}"
    r.open_questions.append(f"is {n} the intended replica count for {name}?")


async def capacity_scale(desk: Desk, scene: Scene) -> None:
    """Replicas for 2x load from the current count, requests and node capacity."""
    name = subject(desk, scene)
    r = desk.report
    dep = await yaml_of(
        desk, "deployment", name, f"to read {name}'s replica count and resource requests"
    )
    replicas = int(dep.get("spec", {}).get("replicas") or 1)
    containers = dep.get("spec", {}).get("template", {}).get("spec", {}).get("containers", [])
    req = {
        k: sum(
            quantity(str(c.get("resources", {}).get("requests", {}).get(k, 0))) or 0
            for c in containers
        )
        for k in ("cpu", "memory")
    }
    nodes = await all_of(desk, "nodes", "to read the nodes' allocatable CPU and memory")
    alloc = {
        k: sum(
            quantity(str(n.get("status", {}).get("allocatable", {}).get(k, 0))) or 0 for n in nodes
        )
        for k in ("cpu", "memory")
    }
    await desk.kubectl("describe nodes", "to see how much of each node is already requested")
    target = replicas * 2
    fits = all(req[k] * target <= alloc[k] or not alloc[k] for k in req)
    r.extra["capacity_math"] = {
        "current_replicas": replicas,
        "target_replicas": target,
        "requests_per_pod": {"cpu": req["cpu"], "memory_bytes": req["memory"]},
        "cluster_allocatable": {"cpu": alloc["cpu"], "memory_bytes": alloc["memory"]},
        "fits": fits,
    }
    if not fits:
        r.summary = f"2x load means {target} replicas of {name}, but the nodes cannot fit {target} pods' requests; I did not scale."
        r.escalate_to = "the platform team"
        r.escalate_why = "the cluster needs more nodes before the workload can double"
        return
    before = f"replicas {replicas}"
    await desk.kubectl(
        f"scale deployment/{name} -n {desk.ns} --replicas={target}",
        f"2x load: load spreads over replicas, so twice the {replicas} replicas; {target} pods' requests fit the nodes",
        before=before,
        change=True,
    )
    idx = len(desk.acts) - 1
    seen = await verify(desk, name)
    desk.acts[idx].after = f"replicas {target}; {seen}"
    r.summary = f"Scaled {name} from {replicas} to {target} replicas for 2x load after checking requests against node capacity; {seen}."


async def canary(desk: Desk, scene: Scene) -> None:
    """Read the canary's error rate, compare with the prompt's threshold, take that branch."""
    r = desk.report
    limit = threshold(desk.prompt) or 0.02
    canaries = [n for n in sorted(scene.deployments) if "canary" in n]
    name = canaries[0] if canaries else subject(desk, scene)
    text = await desk.use(
        "metrics_query",
        f"to read {name}'s error rate",
        f'metrics_query {{namespace="{desk.ns}"}} 1h',
        action="query_range",
        query=f'{{namespace="{desk.ns}"}}',
        start="-1h",
    )
    rate = None
    for labels, values in prom_series(text):
        if "error" in labels.get("__name__", "") and "canary" in json.dumps(labels) and values:
            rate = values[-1]
    r.extra["canary_check"] = {
        "canary": name,
        "error_rate": rate,
        "threshold": limit,
        "healthy": rate is not None and rate < limit,
    }
    if rate is None:
        r.summary = f"I could not read {name}'s error rate, so I am not promoting or rolling back."
        r.escalate_to, r.escalate_why = (
            "the release owner",
            "the canary's health could not be measured",
        )
        return
    rate_pct, lim_pct = rate * 100, limit * 100
    if rate < limit:
        r.summary = f"Canary {name} error rate {rate_pct:.1f}% is under {lim_pct:g}%: healthy; promoting to 50%."
        r.next_steps.append("shift 50% of traffic to the canary and keep watching the error rate")
        return
    before = await replicas_line(desk, name, f"to record {name} before rolling it back")
    await desk.kubectl(
        f"scale deployment/{name} -n {desk.ns} --replicas=0",
        f"roll back the canary: its error rate {rate_pct:.1f}% is over the {lim_pct:g}% threshold; with no canary pods all traffic goes to the stable version",
        before=before,
        change=True,
    )
    desk.acts[-1].after = f"{name} at 0 replicas"
    stable = name.replace("-canary", "")
    await desk.kubectl(
        f"get deployments -n {desk.ns}",
        f"to check {stable} (stable) still serves with all its replicas",
    )
    r.statement = (
        f"the canary is unhealthy: error rate {rate_pct:.1f}% against a {lim_pct:g}% threshold"
    )
    r.confidence = 0.95
    r.cite(f"error_rate for {name}: {rate}")
    r.summary = f"Canary unhealthy ({rate_pct:.1f}% errors > {lim_pct:g}%), so I did not bump to 50%: I rolled the canary back (scaled {name} to 0); stable {stable} untouched."
    r.next_steps.append("look at what the canary's image changed before trying again")
