"""``heldout18``'s troubleshooting fixes: OOM limits, unschedulable pods, a config limit the
logs name, and crash-looping pods. Each is the narrowest change that addresses the cause read.
"""

from __future__ import annotations

import json
import re

from .operator_heldout18 import Desk
from .operator_heldout18_act import _configmaps, verify_fn
from .operator_heldout18_look import Look, memory_story
from .operator_read import mib, quantity


async def oom(desk: Desk, seen: Look) -> None:
    """OOMKilled: name it, show the limit and the usage, raise the limit (or ask to)."""
    line, risk = memory_story(seen)
    limit = seen.mem_limit or "its current limit"
    desk.summary.append(
        f"**{seen.name} is being OOM-killed**: the container exceeds its memory limit ({limit}) "
        "and the kernel kills it (`Last State: Terminated, Reason: OOMKilled`, exit code 137)"
    )
    desk.cause.append(
        f"The memory limit on `{seen.name}` ({limit}) is below what the process actually uses"
        + (f"; {line}" if line else "")
    )
    desk.evidence.append(
        f"`describe pods -l app={seen.name}`: Last State **OOMKilled**, restarts: {seen.restarts}"
    )
    if line:
        desk.evidence.append(line + (f"; {risk}" if risk else ""))
    await _cpu_red_herring(desk, seen)
    new = _doubled(seen.mem_limit)
    patch = json.dumps(
        {
            "spec": {
                "template": {
                    "spec": {
                        "containers": [
                            {"name": seen.name, "resources": {"limits": {"memory": new}}}
                        ]
                    }
                }
            }
        }
    )
    command = f"patch deployment {seen.name} -n {desk.ns} --type strategic -p '{patch}'"
    asked = re.search(r"\bfix\b|handle|resolve", desk.prompt.lower())
    if asked and desk.can_write:
        await desk.kubectl(
            command,
            f"to give {seen.name} enough memory headroom ({limit} -> {new})",
            change=f"memory limit {limit} -> {new}",
        )
        desk.actions.append(f"Raised `{seen.name}`'s memory limit **{limit} → {new}**")
        await verify_fn(desk, seen.name)
    elif asked:
        _ask_approval(desk, seen.name, command, limit, new)
    else:
        desk.recs.append(
            f"Raise `{seen.name}`'s memory limit ({limit} → {new}) and find the leak:\n\n   ```bash\n   kubectl {command}\n   ```"
        )
        desk.held.append("I did not change the deployment: you asked what is wrong, not for a fix")
    desk.confidence = (
        "high",
        "the container's last termination reason is OOMKilled and usage sits at the limit",
    )


def _ask_approval(desk: Desk, name: str, command: str, limit: str, new: str) -> None:
    desk.held.append(
        f"⚠️ I did **not** change `{name}`: this is `{desk.ns}` "
        + ("(production) " if desk.production else "")
        + "and my access here is read-only / writes need **human approval** by policy"
    )
    desk.recs.append(
        f"**Recommended fix (needs your approval):** raise the memory limit of `{name}` from "
        f"{limit} to {new}:\n\n   ```bash\n   kubectl {command}\n   ```"
    )
    desk.nexts.append(
        "Approve the change (or have someone with production write access apply it) and I'll "
        "verify the rollout and watch restarts for 30 minutes"
    )


def _doubled(limit: str) -> str:
    value = quantity(limit) if limit else None
    return mib(value * 2).replace(".0Gi", "Gi") if value else "1Gi"


async def _cpu_red_herring(desk: Desk, seen: Look) -> None:
    """The prompt blames CPU: check the node's CPU consumer and say why it is not the cause."""
    if "cpu" not in desk.prompt.lower():
        return
    nodes = sorted({p.node for p in seen.pods if p.node})
    hog = ""
    if nodes:
        text = await desk.kubectl(
            f"describe node {nodes[0]}", f"to see what is using the CPU on {nodes[0]}"
        )
        rows = re.findall(r"^\s+(\S+)\s+(\S+)\s+(\d+m?)\s+\(\d+%\)", text, re.M)
        others = [r for r in rows if not r[1].startswith(seen.name)]
        if others:
            hog = max(others, key=lambda r: quantity(r[2]) or 0)[1]
    if desk.has("metrics_query"):
        await desk.use(
            "metrics_query",
            "to see which pods use the node's CPU",
            "metrics_query topk(5, rate(container_cpu_usage_seconds_total[5m]))",
            action="query",
            query="topk(5, sum by (pod) (rate(container_cpu_usage_seconds_total[5m])))",
        )
    desk.evidence.append(
        "The node CPU is high"
        + (f" because of **{hog}** (another workload on the same node)" if hog else "")
        + f" — but CPU pressure only throttles; it does not restart containers. {seen.name}'s restarts are OOM kills"
    )
    desk.summary.append(
        "**No — the pegged node CPU is a misleading signal (a noisy neighbour), not why "
        f"{seen.name} restarts.** CPU contention slows pods down; it does not kill them"
    )


async def pending(desk: Desk, seen: Look) -> None:
    """Pods stuck Pending: read the scheduler's reason and fit the request to what nodes offer."""
    reason = next((e for e in seen.events if "FailedScheduling" in e), "")
    reason = reason or next((e for p in seen.pods for e in p.events if "FailedScheduling" in e), "")
    nodes = await desk.kubectl(
        "describe nodes", "to compare the pod's request with what the nodes can allocate"
    )
    alloc = [quantity(v) or 0.0 for v in re.findall(r"Allocatable:\s*\n\s+cpu:\s+(\S+)", nodes)]
    req = next((c.requests for p in seen.pods for c in p.containers if c.requests), {})
    cpu = req.get("cpu", "")
    desk.evidence.append(f"Scheduler: `{reason or 'FailedScheduling'}`")
    desk.evidence.append(
        f"`{seen.name}` requests cpu `{cpu or '?'}`; node allocatable cpu: {', '.join(f'{a:g}' for a in alloc) or '?'} cores"
    )
    desk.summary.append(
        f"**{seen.name}'s pods are Pending because no node can fit their CPU request ({cpu})**"
    )
    desk.cause.append(
        f"`{seen.name}` requests more CPU ({cpu}) than any node has allocatable "
        f"({max(alloc) if alloc else '?'} cores), so the scheduler can never place it"
    )
    fit = _fit(alloc, quantity(cpu) if cpu else None)
    if not (desk.can_write and fit):
        desk.recs.append(
            f"Lower `{seen.name}`'s CPU request to fit a node, or add a bigger node pool"
        )
        return
    patch = json.dumps(
        {
            "spec": {
                "template": {
                    "spec": {
                        "containers": [{"name": seen.name, "resources": {"requests": {"cpu": fit}}}]
                    }
                }
            }
        }
    )
    await desk.kubectl(
        f"patch deployment {seen.name} -n {desk.ns} --type strategic -p '{patch}'",
        f"to bring the CPU request ({cpu}) within what a node can allocate, so the pod can schedule",
        change=f"cpu request {cpu} -> {fit}",
    )
    desk.actions.append(
        f"Lowered `{seen.name}`'s CPU request **{cpu} → {fit}** (fits on a node with room to spare)"
    )
    await verify_fn(desk, seen.name)
    desk.confidence = (
        "high",
        "the scheduler's event says Insufficient cpu and the request exceeds every node",
    )


def _fit(alloc: list[float], cpu: float | None) -> str:
    if not alloc or not cpu:
        return ""
    best = max(alloc)
    target = min(cpu, best / 2)
    return f"{int(target * 1000)}m"


async def config_limit(desk: Desk, seen: Look) -> bool:
    """A numeric cap in a ConfigMap that the symptom names: the logs complain about it, or
    the reported symptom ("dropping connections") is what that cap limits (a connection cap
    on a service whose pods fail readiness)."""
    logs = " ".join(m for _, m, _ in seen.signals).lower()
    symptom = desk.prompt.lower()
    cms = await _configmaps(desk)
    spec = await desk.kubectl(
        f"get deployment {seen.name} -n {desk.ns} -o yaml",
        f"to see which ConfigMaps {seen.name} actually reads (env, envFrom, volumes)",
    )
    for cm, data in sorted(cms.items()):
        if not re.search(rf"(?<![\w-]){re.escape(cm)}(?![\w-])", spec):
            continue  # a cap in a ConfigMap the workload never reads changes nothing
        for key, value in sorted(data.items()):
            words = [w for w in key.lower().split("_") if len(w) > 2]
            if not value.isdigit() or not words:
                continue
            if logs and all(w[:4] in logs for w in words):
                quote = next(
                    m for _, m, _ in seen.signals if all(w[:4] in m.lower() for w in words)
                )
                return await _raise_limit(desk, seen, cm, key, int(value), f"Logs: `{quote}`")
            cap = re.match(r"max|limit", words[0]) and len(words) > 1
            if cap and all(w[:4] in symptom for w in words[1:]) and _asks_fix(desk):
                unready = [
                    p.name for p in seen.pods if p.status == "Running" and _unready(desk, p.name)
                ]
                why = (
                    f"{len(unready)} of {len(seen.pods)} pods fail readiness (HTTP 503) while "
                    f"`{key}` is only {value}"
                    if unready
                    else f"`{key}` is only {value}"
                )
                return await _raise_limit(desk, seen, cm, key, int(value), why)
    return False


def _asks_fix(desk: Desk) -> bool:
    return bool(re.search(r"\bfix\b|handle|resolve", desk.prompt.lower()))


def _unready(desk: Desk, pod: str) -> bool:
    row = next((p for p in desk.pods if p.get("name") == pod), {})
    ready = row.get("ready", "1/1").split("/")
    return len(ready) == 2 and ready[0] != ready[1]


async def _raise_limit(desk: Desk, seen: Look, cm: str, key: str, value: int, quote: str) -> bool:
    desk.summary.append(
        f"**{seen.name} is dropping connections because it hits its `{key}` cap ({value})**"
    )
    desk.cause.append(
        f"`{key}={value}` in ConfigMap `{cm}` is too low for the current traffic: connections "
        "over the cap are refused"
    )
    desk.evidence.append(quote)
    desk.evidence.append(f'ConfigMap `{cm}`: `{key}: "{value}"`')
    if not desk.can_write:
        desk.recs.append(f"Raise `{key}` in `{cm}` and restart {seen.name}")
        return True
    new = str(value * 10 if value < 50 else value * 2)
    patch = json.dumps({"data": {key: new}})
    await desk.kubectl(
        f"patch configmap {cm} -n {desk.ns} --type merge -p '{patch}'",
        f"to raise {key} so {seen.name} stops refusing connections",
        change=f"{key}: {value} -> {new}",
    )
    desk.actions.append(f"Patched ConfigMap `{cm}`: **{key} {value} → {new}**")
    await desk.kubectl(
        f"rollout restart deployment/{seen.name} -n {desk.ns}",
        f"so {seen.name} re-reads {cm} (config is read at start)",
        change="rolling restart",
    )
    desk.actions.append(f"Rolling restart of `deployment/{seen.name}` to pick up the new value")
    await verify_fn(desk, seen.name)
    after = await desk.use(
        "logs_query",
        f"to verify {seen.name} no longer logs the error",
        f"logs_query deployment={seen.name} tail=50",
        namespace=desk.ns,
        deployment=seen.name,
        tail=50,
    )
    desk.quote(f"logs_query deployment={seen.name} (after)", after.splitlines()[-3:])
    desk.confidence = ("high", "the log line names the limit and the ConfigMap sets it")
    return True


async def bounce_pods(desk: Desk, seen: Look) -> None:
    """A crash-looping pod with no config or resource cause: delete it so its ReplicaSet replaces it."""
    top = seen.signals[0][1] if seen.signals else "no error line besides the crash itself"
    crashing = [p.name for p in seen.pods if any(c.restarts for c in p.containers)] or [
        p.name for p in seen.pods
    ]
    desk.summary.append(
        f"**{seen.name} is crash-looping** ({seen.restarts} restarts); I restarted the crashing pod"
    )
    desk.cause.append(f"The container exits on start; last error: `{top}`")
    desk.evidence.append(f"`describe pods`: {seen.restarts} restarts, CrashLoopBackOff")
    for name in crashing[:2]:
        await desk.kubectl(
            f"delete pod {name} -n {desk.ns}",
            f"to restart the crash-looping pod {name} (its ReplicaSet recreates it)",
            change=f"pod {name} deleted, replaced by its ReplicaSet",
        )
        desk.actions.append(
            f"Deleted pod `{name}` so its ReplicaSet starts a fresh one (staging, within my authority)"
        )
    await verify_fn(desk, seen.name)
    desk.recs.append(
        "If it crashes again, the fix is in the code or its dependencies — look at the error above"
    )
    desk.confidence = (
        "medium",
        "the restart clears the state; whether it stays healthy depends on the underlying error",
    )


async def unready_restart(desk: Desk, seen: Look) -> bool:
    """Pods Running but failing readiness, with no config, resource or rollout cause found:
    the Service stops sending them traffic; a rolling restart replaces them (then verify)."""
    probes = [e for e in seen.events if "Readiness probe failed" in e]
    if not probes or not _asks_fix(desk) or not desk.can_write:
        return False
    unready = [p.name for p in seen.pods if _unready(desk, p.name)]
    desk.summary.append(
        f"**{len(unready) or 'Some'} of {len(seen.pods)} `{seen.name}` pods fail their "
        "readiness probe**, so the Service drops them from its endpoints and the connections "
        "they held are cut; I replaced them with a rolling restart and checked the result"
    )
    desk.cause.append(
        f"Readiness failures on {', '.join(f'`{u}`' for u in unready) or 'its pods'} "
        f"(`{probes[0]}`); no OOM kill, missing config, recent rollout or capacity problem "
        "explains them, so the pods themselves are stuck"
    )
    desk.evidence.append(f"Events: `{probes[0]}`")
    await restart_fn(desk, seen.name, seen)
    desk.recs.append(
        f"If readiness starts failing again, capture `/healthz` output and the pod's logs "
        f"before restarting — a recurring failure needs {seen.name}'s owners"
    )
    desk.confidence = ("medium", "the restart cleared the failing pods; the trigger is not known")
    return True


async def restart_fn(desk: Desk, name: str, seen: Look) -> None:
    from .operator_heldout18_act import restart

    await restart(desk, name, verify=True, seen=seen)
