"""``heldout23``'s fixes for "fix it" / "handle it" after a diagnosis.

The smallest change that removes the cause, only where the mode and zone let it act and only
when the change is safe to make alone; otherwise a hand-off with the exact change proposed,
who has to approve it and why. Every change is read back (rollout status, the object again).
"""

from __future__ import annotations

import json
import re

from .operator_heldout23 import Desk
from .operator_heldout23_cause import Facts
from .operator_heldout23_look import Seen, environment
from .operator_read import describe_pods, load_json, mib, quantity, table


async def verify(desk: Desk, ns: str, name: str) -> bool:
    """Rollout status, then the deployment's ready count, read back."""
    out = ""
    for attempt in range(3):
        out = await desk.kubectl(
            f"rollout status deployment/{name} -n {ns} --timeout=60s",
            f"verify `{name}` rolled out" + (" (again: it was still rolling)" if attempt else ""),
        )
        if "successfully rolled out" in out or "Waiting" not in out + desk.calls[-1].error:
            break
    rows = table(
        await desk.kubectl(f"get deployment {name} -n {ns}", f"read back `{name}` ready replicas")
    )
    ready = rows[0].get("ready", "") if rows else ""
    ok = bool(ready) and ready.split("/")[0] == ready.split("/")[-1] and "0/" not in ready[:2]
    desk.see(
        f"after the change: `{name}`", f"ready {ready or 'unknown'}; rollout: {out.strip()[:80]}"
    )
    return ok


async def apply(desk: Desk, s: Seen, f: Facts, kind: str) -> None:
    """Fix the cause ``kind`` names, or hand it off when I may not or should not."""
    handlers = {
        "oom": _oom,
        "pending": _pending,
        "policy": _policy,
        "schema": _schema,
        "transient": _transient,
        "unready": _restart,
    }
    handler = handlers.get(kind)
    if handler is None:
        desk.followups.append(
            "The fix needs a value or a code change I cannot make from here; see Root cause."
        )
        return
    await handler(desk, s, f)


def _blocked(desk: Desk) -> str:
    """Why I may not write here ('' when I may)."""
    if desk.may_write:
        return ""
    approval = desk.task.scope.get("approval_required_for") or []
    zones = ", ".join(desk.task.scope.get("zones") or [])
    why = f"mode is `{desk.task.mode}`, zone `{zones}`"
    if approval:
        why += f", and policy requires approval for {', '.join(approval)}"
    return why


async def _oom(desk: Desk, s: Seen, f: Facts) -> None:
    limit = quantity(f.limit) or 0
    new = mib(limit * 2) if limit else "512Mi"
    cmd = f"set resources deployment/{f.name} -n {s.ns} --limits=memory={new}"
    blocked = _blocked(desk)
    env = environment(desk, s.ns)
    if blocked:
        desk.status = "diagnosed: waiting for approval"
        desk.actions.append(
            f"**No change made.** This is `{env or s.ns}` and the {blocked}. I need a human approval before I touch `{f.name}`."
        )
        desk.actions.append(
            f"**Recommendation:** raise the memory limit of `{f.name}` from `{f.limit}` to `{new}` "
            f"(`kubectl {cmd}`), then watch restarts and memory for 30 minutes."
        )
        desk.followups.append(
            f"@{desk.labels.get(s.ns, {}).get('team', 'on-call lead')}: approve `kubectl {cmd}` so I can apply it."
        )
        return
    await desk.kubectl(
        cmd, f"give `{f.name}` headroom above its peak", f"memory limit {f.limit} → {new}"
    )
    await verify(desk, s.ns, f.name)
    desk.actions.append(f"Raised the memory limit of `{f.name}` from `{f.limit}` to `{new}`.")


async def _pending(desk: Desk, s: Seen, f: Facts) -> None:
    text = await desk.kubectl("describe nodes", "see how much CPU each node can give")
    free = _free_cpu(text)
    used = await _requested(desk, f.name)
    share = used / len(free) if free else 0.0
    desk.see(
        "`describe nodes`",
        ", ".join(f"{n}: {c * 1000:.0f}m CPU allocatable" for n, c in sorted(free.items()))
        + (
            f"; other pods already request {used * 1000:.0f}m in all, about {share * 1000:.0f}m per node"
            if used
            else ""
        ),
    )
    best = (max(free.values()) if free else 0.0) - share
    want = quantity(f.requests_cpu) or 0
    if _blocked(desk) or best <= 0.1 or not want:
        desk.followups.append(
            f"Add node capacity or lower `{f.name}`'s CPU request; none of the nodes fits `{f.requests_cpu}`."
        )
        return
    new = max(int(best * 0.75 * 10) / 10, 0.1)
    cpu = f"{int(new * 1000)}m"
    await desk.kubectl(
        f"set resources deployment/{f.name} -n {s.ns} --requests=cpu={cpu}",
        f"lower the CPU request to fit a node with headroom (about {best * 1000:.0f}m free per node)",
        f"cpu request {f.requests_cpu} → {cpu}",
    )
    ok = await verify(desk, s.ns, f.name)
    if not ok:
        events = table(
            await desk.kubectl(f"get events -n {s.ns}", "see why the new pod is not Ready")
        )
        pods = table(
            await desk.kubectl(f"get pods -n {s.ns} -l app={f.name}", "see the new pod's state")
        )
        for e in events:
            if f.name in e.get("object", "") and e.get("type") == "Warning":
                desk.see("`get events` after the change", f"{e.get('reason')}: {e.get('message')}")
        for p in pods:
            desk.see(
                "`get pods` after the change",
                f"`{p.get('name')}` {p.get('ready')} {p.get('status')}",
            )
    desk.actions.append(
        f"Lowered the CPU request of `{f.name}` from `{f.requests_cpu}` to `{cpu}`, which fits the free CPU of a node."
        + (
            " The pod is now scheduled and Ready."
            if ok
            else " The pod is still not Ready; see Follow-ups."
        )
    )
    desk.followups.append(
        f"Confirm `{f.name}` does not need `{f.requests_cpu}` of CPU; if it does, add a node."
    )


async def _requested(desk: Desk, name: str) -> float:
    """CPU already requested by the other pods in the cluster (kube-state-metrics), in cores."""
    if not desk.has("metrics_query"):
        return 0.0
    expr = 'kube_pod_container_resource_requests{resource="cpu"}'
    text = await desk.use(
        "metrics_query",
        f"metrics_query {expr}",
        "see how much CPU the pods already on the nodes request",
        action="query",
        query=expr,
    )
    doc = load_json(text) or {}
    total = 0.0
    for r in (doc.get("data") or {}).get("result", []) if isinstance(doc, dict) else []:
        try:
            if not str(r["metric"].get("pod", "")).startswith(name + "-"):
                total += float(r["value"][1])
        except (KeyError, TypeError, ValueError, IndexError):
            continue
    return total


def _free_cpu(text: str) -> dict[str, float]:
    """Free CPU per node from ``describe nodes``: allocatable minus allocated requests."""
    out: dict[str, float] = {}
    for block in re.split(r"\n(?=Name:\s)", text):
        m = re.match(r"Name:\s+(\S+)", block.strip())
        alloc = re.search(r"Allocatable:.*?\n\s+cpu:\s+(\S+)", block, re.S)
        used = re.search(r"Allocated resources:.*?\n\s+cpu\s+(\S+)", block, re.S)
        if m and alloc:
            total = quantity(alloc.group(1)) or 0
            taken = quantity(used.group(1)) if used else 0
            out[m.group(1)] = total - (taken or 0)
    return out


async def _policy(desk: Desk, s: Seen, f: Facts) -> None:
    pol = f.policies[0]
    name = pol["metadata"]["name"]
    callers = [n for n in desk.named(list(s.deployments)) if n != f.name]
    if _blocked(desk) or not callers:
        desk.followups.append(f"Allow the caller in NetworkPolicy `{name}`.")
        return
    rules = list((pol.get("spec") or {}).get("ingress") or [])
    rules.append({"from": [{"podSelector": {"matchLabels": {"app": c}}} for c in callers]})
    patch = json.dumps({"spec": {"ingress": rules}}, separators=(",", ":"))
    await desk.kubectl(
        f"patch networkpolicy {name} -n {s.ns} --type merge -p '{patch}'",
        f"allow `{', '.join(callers)}` in without opening `{f.name}` to everyone",
        f"ingress from {[r.get('from') for r in rules[:-1]]} → also app={', '.join(callers)}",
    )
    await desk.kubectl(f"get networkpolicy {name} -n {s.ns} -o yaml", "read the policy back")
    desk.actions.append(
        f"Added one ingress rule to `{name}` for `app={', '.join(callers)}`. The existing rule stays; nothing else is opened."
    )
    desk.followups.append(
        f"Ask the owner of `{name}` whether it should list `{', '.join(callers)}` in its source manifests."
    )


async def _schema(desk: Desk, s: Seen, f: Facts) -> None:
    last = f.migrations[-1] if f.migrations else {}
    desk.status = "diagnosed: plan needs approval"
    desk.actions.append(
        "**No change made.** Rolling back the migration is the obvious fix, but it drops what the migration "
        "added, including data written since it ran"
        + (f" ({last['on']})" if last else "")
        + ". That is not reversible, and the database is shared."
    )
    desk.actions.append(
        "**Plan for approval:**\n"
        f"  1. Back up the affected table.\n"
        f"  2. Either roll back {last.get('version', 'the last migration')} (loses data written since), or "
        f"roll `{f.name}` forward to a build that matches the new schema (no data loss).\n"
        f"  3. Restart `{f.name}` and confirm the error is gone."
    )
    desk.followups.append(
        "Approve option A (rollback, data loss) or B (roll forward) before I touch the database."
    )
    desk.followups.append("Ask the DBA how many rows were written since the migration.")


async def _transient(desk: Desk, s: Seen, f: Facts) -> None:
    pod = f.pods[0] if f.pods else None
    if _blocked(desk) or pod is None:
        desk.followups.append(f"Restart `{f.name}`.")
        return
    if pod.owner:
        await desk.kubectl(
            f"delete pod {pod.name} -n {s.ns}",
            f"let `{pod.owner}` recreate it now that the error was transient",
            f"pod {pod.name} deleted; its controller makes a fresh one",
        )
    else:
        spec = await desk.kubectl(
            f"get pod {pod.name} -n {s.ns} -o yaml",
            "save the spec first: the pod has no controller, so nothing recreates it",
        )
        manifest = _clean(spec)
        await desk.kubectl(
            f"delete pod {pod.name} -n {s.ns}",
            "restart the crashed pod after a transient error",
            f"pod {pod.name} deleted",
        )
        if manifest:
            await desk.kubectl(
                "apply -f -",
                "recreate the pod from its saved spec (a restart of a bare pod)",
                f"pod {pod.name} recreated, restart count back to 0",
                stdin=manifest,
            )
    after = await desk.kubectl(f"get pods -n {s.ns}", "verify the new pod comes up")
    rows = [r for r in table(after) if r.get("name", "").startswith(f.name)]
    state = ", ".join(f"`{r.get('name')}` {r.get('status')}" for r in rows) or "no pod yet"
    desk.see("after the restart", state)
    desk.actions.append(
        f"Restarted `{pod.name}` (staging, my call to make, no approval needed). Now: {state}."
    )
    desk.followups.append(
        f"Watch `{f.name}` for another crash; if it repeats, check the Redis side."
    )


async def _restart(desk: Desk, s: Seen, f: Facts) -> None:
    if _blocked(desk):
        desk.followups.append(f"Restart `{f.name}` once approved.")
        return
    before = [p.get("name", "") for p in s.pods_of(f.name)]
    await desk.kubectl(
        f"rollout restart deployment/{f.name} -n {s.ns}",
        "replace the stuck pods with a rolling restart, no downtime",
        f"pods {', '.join(before)} → new pods",
    )
    ok = await verify(desk, s.ns, f.name)
    pods = describe_pods(
        await desk.kubectl(
            f"describe pods -n {s.ns} -l app={f.name}", "check the new pods are Ready"
        )
    )
    desk.actions.append(
        f"Rolling restart of `{f.name}`: {len(pods)} pod(s) now; "
        + ("all replicas Ready, Available=True." if ok else "not all Ready yet.")
    )


async def escalate_uncertain(desk: Desk, s: Seen, f: Facts) -> None:
    desk.actions.append(
        "**No change made.** I do not know the cause, and a guess (restart, scale, config change) "
        "could hide the evidence or make it worse."
    )
    team = desk.labels.get(s.ns, {}).get("team", "the owning team")
    desk.followups.append(
        f"Escalate to {team} / the upstream owners with this report: the error signal, the numbers above, "
        "and what I ruled out."
    )
    desk.followups.append("Capture a packet trace or upstream logs during the next burst of 502s.")


def _clean(text: str) -> str:
    """A pod manifest without its status and server-set fields, to create it again."""
    import yaml

    from .operator_read import items

    found = items(text)
    if not found:
        return ""
    pod = found[0]
    meta = pod.get("metadata") or {}
    keep = {k: meta[k] for k in ("name", "namespace", "labels", "annotations") if k in meta}
    spec = dict(pod.get("spec") or {})
    spec.pop("nodeName", None)
    return str(yaml.safe_dump({"apiVersion": "v1", "kind": "Pod", "metadata": keep, "spec": spec}))
