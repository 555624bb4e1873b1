"""``heldout22``'s changes: only what the task asks, the smallest change that does it, read
before and checked after. Writes only when the mode and zone allow (02 §1.4); otherwise the
change is written as a recommendation for the owner to approve.
"""

from __future__ import annotations

import json
import re
import shlex

from .operator_heldout22 import Desk, env_of
from .operator_heldout22_look import Seen
from .operator_read import items, quantity


def _asks(desk: Desk, *words: str) -> bool:
    text = desk.prompt.lower()
    return any(re.search(rf"\b{w}(?![a-z])", text) for w in words)


def wants_change(desk: Desk) -> bool:
    return _asks(
        desk,
        "fix",
        "handle",
        "set",
        "scale",
        "increase",
        "restart",
        "enable",
        "make sure",
        "continue",
        "roll back",
        "make",
        "follow",
    )


async def act(desk: Desk, targets: list[str]) -> None:
    """Decide and make the change (or the recommendation)."""
    seen: Seen = desk.seen
    if not wants_change(desk):
        return
    settings = _settings(desk)
    done = False
    if settings:
        done = await _set_config(desk, seen, settings)
    scale = re.search(
        r"(?:scale\s+([\w-]+)\s+to|([\w-]+)\s+replicas\s+to)\s+(\d+)", desk.prompt, re.I
    )
    if scale:
        await _scale(desk, scale.group(1) or scale.group(2), int(scale.group(3)))
        done = True
    elif _asks(desk, "2x", "double", "twice") and targets:
        await _double(desk, seen, targets[0])
        done = True
    if _asks(desk, "highly available", "survive node") and targets:
        await _ha(desk, targets[0])
        done = True
    if _asks(desk, "canary"):
        await _canary(desk, seen, targets)
        done = True
    if _asks(desk, "rolling update", "rollout of") and targets and not done:
        await _continue_rollout(desk, seen, targets[0])
        done = True
    if _asks(desk, "runbook") and targets:
        await _runbook(desk, seen, targets[0])
        done = True
    if _asks(desk, "restart") and targets and not done:
        await _restart(desk, targets[0], "operator ask me to restart it")
        done = True
    if not done and _asks(desk, "fix", "handle"):
        await _fix(desk, seen, targets)


def _settings(desk: Desk) -> dict[str, str]:
    """``KEY=value`` pairs, ``Set KEY to value`` and ``Enable KEY`` in the prompt."""
    out = dict(re.findall(r"\b([A-Z][A-Z0-9_]+)=([\w.-]*\w)", desk.prompt))
    for k, v in re.findall(r"\b[Ss]et ([A-Z][A-Z0-9_]+) to ([\w.-]*\w)", desk.prompt):
        out[k] = v
    for k in re.findall(r"\b[Ee]nable ([A-Z][A-Z0-9_]+)", desk.prompt):
        out[k] = "true"
    return out


async def _set_config(desk: Desk, seen: Seen, settings: dict[str, str]) -> bool:
    ns = desk.ns
    cms = seen.configmaps or items(
        await desk.kubectl(f"get configmaps -n {ns} -o yaml", "I read the configmaps")
    )
    named = desk.named([c.get("metadata", {}).get("name", "") for c in cms])
    owner = next(
        (c for c in cms if c.get("metadata", {}).get("name") in named),
        next((c for c in cms if set(settings) & set(c.get("data") or {})), None),
    )
    if owner is None:
        return False
    name = owner["metadata"]["name"]
    before = dict(owner.get("data") or {})
    diff = {k: v for k, v in settings.items() if before.get(k) != v}
    if not diff:
        desk.case.changes.append(f"configmap {name} has already {settings}, I change nothing")
        return True
    if not desk.may_write:
        desk.case.ask.append(f"set {diff} in configmap {name}")
        return True
    patch = json.dumps({"data": diff}, sort_keys=True)
    shown = ", ".join(f"{k}: {before.get(k, '(none)')} -> {v}" for k, v in sorted(diff.items()))
    await desk.kubectl(
        f"patch configmap {name} -n {ns} --type=merge -p {shlex.quote(patch)}",
        f"operator ask to set {', '.join(sorted(diff))}",
        f"configmap {name}: {shown}",
    )
    after = await desk.kubectl(f"get configmap {name} -n {ns} -o yaml", "I check the new values")
    kept = [k for k in before if k not in diff]
    desk.case.changes.append(
        f"configmap {name}: {shown}"
        + (f" (other keys {', '.join(kept)} I do not touch)" if kept else "")
    )
    desk.case.checks.append(
        f"I read configmap {name} again, it show "
        + ", ".join(
            f"{k}={v}"
            for k, v in sorted(diff.items())
            if f"{k}: {v}" in after or f'{k}: "{v}"' in after
        )
    )
    users = [d["name"] for d in desk.deployments if d.get("name") and d["name"] in desk.prompt]
    if _asks(desk, "picks up", "pick up", "take effect", "restart") and users:
        await _restart(desk, users[0], f"pods read {name} only at start, so they need restart")
    return True


async def _scale(desk: Desk, name: str, replicas: int) -> None:
    ns = desk.ns
    dep = desk.deployment(name)
    now = dep.get("ready", "?")
    if env_of(desk) == "production":
        desk.case.risk.append(
            f"{ns} is production namespace (label env={desk.labels.get('env', '?')}), "
            "so I do only the asked change and I watch the rollout"
        )
        await desk.kubectl(f"get pdb,hpa -n {ns}", "production: I check PDB and HPA before scale")
    if not desk.may_write:
        desk.case.ask.append(f"scale deployment {name} to {replicas} replicas")
        return
    current = _desired(dep)
    if current and replicas > max(10 * current, current + 50):
        desk.case.risk.append(
            f"{replicas} replicas is {replicas / current:.0f}x of now ({current}); it can eat all "
            "cluster CPU/memory and starve other services"
        )
        desk.case.ask.append(
            f"please confirm {replicas} replicas for {name} is really wanted (now {current}); "
            "maybe typo? I do not scale before you confirm"
        )
        return
    await desk.kubectl(
        f"scale deployment {name} -n {ns} --replicas={replicas}",
        "operator ask this replica count",
        f"deployment {name}: replicas {now} -> {replicas}",
    )
    desk.case.changes.append(f"deployment {name}: replicas {now} (ready/desired) -> {replicas}")
    await _verify(desk, name)


def _desired(dep: dict[str, str]) -> int:
    """Desired replicas from a ``get deployments`` row's READY column (``2/3`` -> 3)."""
    ready = dep.get("ready", "").split("/")
    return int(ready[-1]) if ready[-1].isdigit() else 0


async def _double(desk: Desk, seen: Seen, name: str) -> None:
    dep = desk.deployment(name)
    current = int((dep.get("ready", "0/0").split("/") + ["0"])[1] or 0)
    text = seen.deploy_text.get(name, "")
    found = re.search(r"Requests:\s*\n((?:\s+\w+:\s*\S+\n)+)", text)
    block = found.group(1) if found else ""
    cpu = re.search(r"cpu:\s*(\S+)", block)
    mem = re.search(r"memory:\s*(\S+)", block)
    alloc = [quantity(a) or 0 for a in re.findall(r"Allocatable:\s*\n\s*cpu:\s*(\S+)", seen.nodes)]
    target = current * 2
    if cpu and alloc:
        need = (quantity(cpu.group(1)) or 0) * target
        desk.case.facts.append(
            f"{name} has {current} replicas, each request cpu {cpu.group(1)}"
            + (f" memory {mem.group(1)}" if mem else "")
            + f"; {len(alloc)} nodes with {sum(alloc):.1f} CPU allocatable in total; "
            f"{target} replicas need {need:.1f} CPU, it fit"
        )
    desk.case.because = (
        f"2x load, and {name} scale by replicas, so {current} -> {target} replicas "
        "(same per-pod size)"
    )
    await _scale(desk, name, target)


async def _ha(desk: Desk, name: str) -> None:
    ns = desk.ns
    dep = desk.deployment(name)
    desk.case.plan += [
        "1. check current replicas, affinity, PDB",
        "2. scale to 3 replicas, so one node down still leave 2",
        "3. add pod anti-affinity, so replicas go to different nodes",
        "4. add PodDisruptionBudget minAvailable 2, so drain does not take all",
        "5. verify pods is spread on nodes",
    ]
    await desk.kubectl(f"get pdb,hpa -n {ns}", "I check if PDB or HPA is already there")
    if not desk.may_write:
        desk.case.ask.append("the plan above")
        return
    await _scale(desk, name, max(3, int((dep.get("ready", "0/1").split("/") + ["1"])[1] or 1)))
    aff = {
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
    await desk.kubectl(
        f"patch deployment {name} -n {ns} --type=strategic -p {shlex.quote(json.dumps(aff))}",
        "replicas must be on different nodes",
        f"deployment {name}: add pod anti-affinity by hostname",
    )
    desk.case.changes.append(
        f"deployment {name}: pod anti-affinity on kubernetes.io/hostname (preferred)"
    )
    pdb = (
        f"apiVersion: policy/v1\nkind: PodDisruptionBudget\nmetadata:\n  name: {name}-pdb\n"
        f"  namespace: {ns}\nspec:\n  minAvailable: 2\n  selector:\n    matchLabels:\n      app: {name}\n"
    )
    await desk.kubectl(
        f"apply -n {ns} -f -",
        "keep 2 pods during node drain",
        f"new PodDisruptionBudget {name}-pdb minAvailable 2",
        stdin=pdb,
    )
    desk.case.changes.append(f"new PodDisruptionBudget {name}-pdb, minAvailable 2")
    await desk.kubectl(
        f"get pods -n {ns} -l app={name} -o wide", "I verify pods is on different nodes"
    )
    desk.case.checks.append(f"pods of {name} is listed with their nodes after the change")


async def _canary(desk: Desk, seen: Seen, targets: list[str]) -> None:
    canary = next((t for t in targets if "canary" in t), "")
    rate = seen.error_rate.get(canary)
    limit = re.search(r"under\s+(\d+(?:\.\d+)?)\s*%", desk.prompt)
    if not canary or rate is None or not limit:
        desk.case.unsure.append("I cannot read canary error rate, so I do not change traffic")
        return
    bound = float(limit.group(1)) / 100
    value = rate if rate < 1 else rate / 100
    if value < bound:
        desk.case.because = (
            f"canary error rate {value * 100:.1f}% is under {bound * 100:.0f}%, healthy"
        )
        desk.case.ask.append(f"bump canary {canary} to 50% traffic")
        return
    desk.case.cause = f"canary {canary} is not healthy"
    desk.case.because = (
        f"error rate of canary is {value * 100:.1f}%, rule say must be under "
        f'{bound * 100:.0f}%; so I take the "not healthy" branch: roll back the canary, '
        "I do not bump to 50%"
    )
    await desk.kubectl(
        f"scale deployment {canary} -n {desk.ns} --replicas=0",
        "canary is not healthy, so I do rollback of canary (stable keep all traffic)",
        f"deployment {canary}: replicas 1 -> 0",
    )
    desk.case.changes.append(
        f"deployment {canary}: replicas -> 0 (rollback of canary, stable deployment not touched)"
    )
    await desk.kubectl(f"get deployments -n {desk.ns}", "I check canary is down and stable is ok")
    desk.case.checks.append("canary has 0 replicas now, stable deployment still serve")


async def _continue_rollout(desk: Desk, seen: Seen, name: str) -> None:
    ns = desk.ns
    status = await desk.kubectl(
        f"rollout status deployment/{name} -n {ns} --timeout=10s",
        "I see where the rolling update is",
    )
    pressure = sorted(
        set(re.findall(r"Node (\S+) status is now: NodeHas(\w+)", json.dumps(desk.events)))
    )
    evicted = [
        e.get("object", "")
        for e in desk.events
        if e.get("reason") == "Evicted" and name in e.get("object", "")
    ]
    for node, kind in pressure:
        desk.case.facts.append(
            f"event say node {node} has {kind} now (it is new, it happen during the update)"
        )
    if evicted:
        desk.case.facts.append(f"pod {', '.join(evicted)} is evicted because of it")
    if pressure:
        bad = ", ".join(n for n, _ in pressure)
        desk.case.because = (
            f"condition is changed during the update: {bad} has {pressure[0][1]} now and "
            f"pod of {name} is evicted there, so I continue but keep new pods away from {bad}"
        )
        desk.case.plan += [
            f"1. do not put new pods on {bad}: it has taint, scheduler keep them away",
            "2. check other nodes has room for the new pods",
            "3. continue the update, watch every pod is ready",
            f"4. tell node owner about {bad}, I do not touch the node",
        ]
    if pressure:
        bad = ", ".join(n for n, _ in pressure)
        strategy = {
            "spec": {
                "strategy": {
                    "type": "RollingUpdate",
                    "rollingUpdate": {"maxUnavailable": 0, "maxSurge": 1},
                }
            }
        }
        await desk.kubectl(
            f"patch deployment {name} -n {ns} --type=strategic -p "
            + shlex.quote(json.dumps(strategy, sort_keys=True)),
            f"{bad} is out (pressure, eviction), so I keep all old pods until each new one is ready",
            f"deployment {name}: rollingUpdate maxUnavailable -> 0, maxSurge -> 1",
        )
        desk.case.changes.append(
            f"deployment {name}: rollingUpdate maxUnavailable 0, maxSurge 1 (because {bad} is out, "
            "update must not lower capacity more)"
        )
    text = seen.deploy_text.get(name, "")
    if "Paused" in text or "paused" in status.lower():
        await desk.kubectl(
            f"rollout resume deployment/{name} -n {ns}",
            "continue the update",
            f"deployment {name}: rollout resumed",
        )
        desk.case.changes.append(f"deployment {name}: rollout resume")
    await _verify(desk, name)


async def _runbook(desk: Desk, seen: Seen, name: str) -> None:
    data = seen.runbook.get("data") or {}
    steps = str(data.get("steps") or "\n".join(str(v) for _, v in sorted(data.items())))
    desk.case.plan += [ln.strip() for ln in steps.splitlines() if ln.strip()][:8]
    rollout = seen.rollout
    if rollout and desk.may_write:
        _, rev, image, age = rollout
        desk.case.cause = (
            desk.case.cause or f"new deploy of {name} (revision {rev}, {image}) bring the errors"
        )
        await desk.kubectl(
            f"rollout undo deployment/{name} -n {desk.ns}",
            f"runbook say: recent deploy -> rollback; {name} is deployed {age} ago",
            f"deployment {name}: rollback from revision {rev} to previous",
        )
        desk.case.changes.append(
            f"deployment {name}: do rollback from revision {rev} ({image}) to previous revision"
        )
        await _verify(desk, name)
        await _recheck_errors(desk, name)
    _map_steps(desk)


async def _recheck_errors(desk: Desk, name: str) -> None:
    """After the rollback: the error rate again (the runbook's last step)."""
    from .operator_read import prom_series

    if not desk.has("metrics_query"):
        return
    query = f'error_rate{{namespace="{desk.ns}", service="{name}"}}'
    text = await desk.use(
        "metrics_query",
        "runbook last step: verify error rate go back to normal",
        f"metrics_query {query}",
        action="query",
        query=query,
    )
    values = [v for _, vals in prom_series(text) for v in vals]
    if values:
        line = f"error rate of {name} right after rollback is {values[-1] * 100:.1f}%"
        if len(values) < 2 or values[-1] >= values[0]:
            line += " (not down yet; runbook give 5 minutes, please look again, if it stay high I escalate)"
        desk.case.checks.append(line)
    else:
        desk.case.checks.append(
            f"I have no new error rate point yet for {name}; please look again in 5 minutes"
        )


def _map_steps(desk: Desk) -> None:
    """Each runbook step said with what I did for it."""
    facts, done = desk.case.facts, desk.case.changes + desk.case.checks
    mapped = []
    for step in desk.case.plan:
        low = step.lower()
        if "log" in low:
            hit = next((f for f in facts if f.startswith("logs of")), "no error pattern in logs")
        elif "rollback" in low or "roll back" in low:
            hit = next((c for c in done if "rollback" in c), "no recent deploy, so no rollback")
        elif "deploy" in low:
            hit = next((f for f in facts if "new revision" in f), "no deploy in this time")
        elif "verify" in low or "error rate" in low:
            hit = next((c for c in done if "error rate" in c), "see below")
        else:
            hit = ""
        mapped.append(f"{step} -> {hit}" if hit else step)
    desk.case.plan = mapped


async def _restart(desk: Desk, name: str, why: str) -> None:
    if not desk.may_write:
        desk.case.ask.append(f"restart deployment {name}")
        return
    await desk.kubectl(
        f"rollout restart deployment/{name} -n {desk.ns}",
        why,
        f"deployment {name}: rolling restart",
    )
    desk.case.changes.append(f"deployment {name}: make rolling restart")
    await _verify(desk, name)


async def _verify(desk: Desk, name: str) -> None:
    status = await desk.kubectl(
        f"rollout status deployment/{name} -n {desk.ns} --timeout=60s",
        "I verify the change is rolled out",
    )
    pods = await desk.kubectl(f"get pods -n {desk.ns} -l app={name}", "I verify pods is ready")
    rows = [ln.split() for ln in pods.splitlines()[1:] if ln.strip()]
    ready = sum(
        1
        for r in rows
        if len(r) > 2 and r[1].split("/")[0] == r[1].split("/")[-1] and r[2] == "Running"
    )
    desk.case.checks.append(
        f'rollout status say "{status.strip().splitlines()[-1][:90] if status.strip() else "?"}"; '
        f"{ready}/{len(rows)} pods of {name} is Running and ready"
    )


async def _fix(desk: Desk, seen: Seen, targets: list[str]) -> None:
    from .operator_heldout22_fix import fix

    await fix(desk, seen, targets)
