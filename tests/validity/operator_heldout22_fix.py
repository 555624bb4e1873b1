"""``heldout22``'s fixes for "fix it" / "handle it" tasks, chosen from the cause it found:
the smallest change that removes the cause, or a hand-off when the change is not its to make
(read-only zone, supervised mode, data at risk) or the cause is not sure.
"""

from __future__ import annotations

import json
import math
import re
import shlex
from typing import Any

from .operator_heldout22 import Desk, env_of
from .operator_heldout22_look import Seen
from .operator_read import quantity


def _owner(desk: Desk) -> str:
    team = desk.labels.get("team") or desk.notes.get("team-contact") or ""
    return team or "service owner"


async def fix(desk: Desk, seen: Seen, targets: list[str]) -> None:
    """Pick the fix from what was found (first match)."""
    name = targets[0] if targets else ""
    if seen.oom:
        await _memory(desk, seen)
    elif seen.cpu_fit:
        await _requests(desk, seen)
    elif seen.blocking:
        await _policy(desk, seen, targets)
    elif seen.schema_gap is not None and seen.migrations:
        _schema(desk, seen, name)
    elif seen.transient and env_of(desk) != "production":
        await _recreate(desk, seen, name)
    elif desk.case.cause:
        desk.case.ask.append(f"fix for: {desk.case.cause}")
    elif _off_baseline(desk, seen, name):
        _escalate(desk, seen, name)
    elif name and desk.may_write and await _connection_limit(desk, seen, name):
        pass
    elif name and desk.may_write and _unready(desk, name):
        from .operator_heldout22_do import _restart

        await _restart(
            desk, name, f"{name} is degraded, some pod is not ready and I find no other cause"
        )


def _related_configs(desk: Desk, seen: Seen, name: str) -> list[dict[str, Any]]:
    """ConfigMaps the workload reads: named in its spec, or sharing its name's first part."""
    text = seen.deploy_text.get(name, "")
    head = name.split("-")[0]
    out = []
    for cm in seen.configmaps:
        cname = str(cm.get("metadata", {}).get("name", ""))
        if cname and (cname in text or cname.split("-")[0] == head):
            out.append(cm)
    return out


async def _connection_limit(desk: Desk, seen: Seen, name: str) -> bool:
    """Dropped or refused connections and a small connection limit in the service's config:
    raise the limit, make the pods read it (restart), verify."""
    if not re.search(r"connection", desk.prompt, re.I):
        return False
    related = _related_configs(desk, seen, name)
    # no config tied to the service by name or reference: every config of the namespace
    for cm in related or seen.configmaps:
        data = cm.get("data") or {}
        for key, value in sorted(data.items()):
            if "CONN" in key.upper() and str(value).isdigit() and int(value) <= 20:
                cname = cm["metadata"]["name"]
                new = str(int(value) * 10)
                desk.case.facts.append(f"configmap {cname} has {key}={value}")
                desk.case.cause = (
                    f"connection limit {key}={value} in {cname} is too small for {name}"
                )
                desk.case.because = (
                    f"only {value} connections is allowed, more clients get dropped; operator "
                    "say it is dropping connections"
                )
                patch = json.dumps({"data": {key: new}})
                await desk.kubectl(
                    f"patch configmap {cname} -n {desk.ns} --type=merge -p {shlex.quote(patch)}",
                    f"{key}={value} is too small for {name}",
                    f"configmap {cname}: {key} {value} -> {new}",
                )
                desk.case.changes.append(
                    f"configmap {cname}: {key} {value} -> {new} (other keys not touched)"
                )
                desk.case.unsure.append(
                    f"{new} is my guess for {key}; please ask owner of {name} for the real capacity"
                )
                from .operator_heldout22_do import _restart

                await _restart(desk, name, f"pods read {cname} only at start, so they need restart")
                return True
    return False


def _unready(desk: Desk, name: str) -> bool:
    for pod in desk.pods_of(name):
        ready = pod.get("ready", "1/1").split("/")
        if ready[0] != ready[-1]:
            pname = pod.get("name", "")
            said = sorted(
                {e.get("message", "") for e in desk.events if pname in e.get("object", "")}
            )
            desk.case.facts.append(
                f"pod {pname} is {pod.get('ready')} ready, status {pod.get('status')}"
                + (f'; events say "{said[0][:100]}"' if said else "")
            )
            desk.case.because = (
                f"pod {pname} is not ready ({said[0][:80] if said else 'no ready'}), so {name} has less "
                "ready pods than it want and traffic to it fail; other pods is ok, and I find no bad "
                "config, no OOM, no new deploy, so I make rolling restart of the deployment"
            )
            return True
    return False


def _off_baseline(desk: Desk, seen: Seen, name: str) -> bool:
    s = seen.series.get(name, {})
    for metric, values in s.items():
        base = s.get(f"normal_{metric}") or []
        if values and base and values[-1] > 1.5 * base[-1]:
            return True
    return bool(seen.error_rate.get(name))


def _escalate(desk: Desk, seen: Seen, name: str) -> None:
    s = seen.series.get(name, {})
    off = [
        f"{m.replace('_', ' ')} {_fig(m, v[-1])}, normal is {_fig(m, s['normal_' + m][-1])}"
        for m, v in sorted(s.items())
        if v and s.get("normal_" + m) and v[-1] > 1.2 * s["normal_" + m][-1]
    ]
    err = seen.error_rate.get(name)
    if err is not None:
        off.append(f"error rate {err * 100:.1f}%")
    if off:
        desk.case.unsure.append(
            f"numbers of {name} is off: {'; '.join(off)}, but they do not show why"
        )
    patterns = seen.logs.get(name, [])
    warn = next((m for lvl, m, _ in patterns if lvl in ("WARN", "ERROR")), "")
    if warn:
        desk.case.unsure.append(
            f'logs show "{warn[:100]}" only sometimes, and between them requests is 200 OK; it point '
            "to upstream side, but I cannot see which upstream or why it reset"
        )
    desk.case.unsure.append(
        "no deploy, no restart, no config change I can see, so I have no root cause yet"
    )
    desk.case.ask.append(
        f"please ask upstream/network owner of {name} before I change anything: they can check why "
        f"upstream reset connections ({'; '.join(off) or 'see numbers above'}); a restart now only "
        "hide the evidence"
    )


def _fig(metric: str, value: float) -> str:
    return f"{value:.0f}ms" if "latency" in metric or metric.endswith("_ms") else f"{value:g}"


async def _memory(desk: Desk, seen: Seen) -> None:
    assert seen.oom is not None
    name, container, limit = seen.oom
    base = quantity(limit) or 256 * 1024**2
    new = f"{int(math.ceil(base * 2 / 1024**2 / 64) * 64)}Mi"
    if not desk.may_write:
        zones = ", ".join(desk.task.scope.get("zones") or [])
        approvals = desk.task.scope.get("approval_required_for") or []
        desk.case.risk.append(
            f"namespace {desk.ns} is production (zone {zones}, mode {desk.task.mode}); "
            + (
                f"approval is needed for {', '.join(approvals)}"
                if approvals
                else "I cannot write here"
            )
        )
        desk.case.ask.append(
            f"please ask {_owner(desk)} to approve: give more memory to {name} "
            f"(container {container}), limit {limit} -> {new}, request same; then watch restarts "
            "stop. I do not change production before the approval"
        )
        return
    patch = {
        "spec": {
            "template": {
                "spec": {
                    "containers": [{"name": container, "resources": {"limits": {"memory": new}}}]
                }
            }
        }
    }
    await desk.kubectl(
        f"patch deployment {name} -n {desk.ns} --type=strategic -p {shlex.quote(json.dumps(patch))}",
        f"container is OOMKilled at limit {limit}",
        f"deployment {name}: memory limit {limit} -> {new}",
    )
    desk.case.changes.append(
        f"deployment {name}: give more memory, limit {limit} -> {new} (nothing else)"
    )
    from .operator_heldout22_do import _verify

    await _verify(desk, name)


async def _requests(desk: Desk, seen: Seen) -> None:
    assert seen.cpu_fit is not None
    name, req, alloc = seen.cpu_fit
    new_m = int(alloc * 0.6 * 10) * 100
    if not desk.may_write:
        desk.case.ask.append(f"lower cpu request of {name} {req} -> {new_m}m")
        return
    await desk.kubectl(
        f"set resources deployment/{name} -n {desk.ns} --requests=cpu={new_m}m",
        f"request {req} is bigger than any node ({alloc * 1000:.0f}m allocatable)",
        f"deployment {name}: cpu request {req} -> {new_m}m",
    )
    desk.case.changes.append(
        f"deployment {name}: cpu request {req} -> {new_m}m, so one pod fit on one node"
    )
    desk.case.unsure.append(
        f"{new_m}m is enough CPU for {name} under load; please ask the owner to check real usage"
    )
    from .operator_heldout22_do import _verify

    await _verify(desk, name)


async def _policy(desk: Desk, seen: Seen, targets: list[str]) -> None:
    assert seen.blocking is not None
    pol, selected, allowed = seen.blocking
    callers = [t for t in targets if {"app": t} != selected]
    if not callers:
        return
    src = callers[0]
    labels = next((v for k, v in seen.pod_labels.items() if k.startswith(src + "-")), "")
    app = next((kv.split("=", 1)[1] for kv in labels.split(",") if kv.startswith("app=")), src)
    if not desk.may_write:
        desk.case.ask.append(f"add app={app} to ingress of network policy {pol}")
        return
    value = json.dumps(
        [
            {
                "op": "add",
                "path": "/spec/ingress/0/from/-",
                "value": {"podSelector": {"matchLabels": {"app": app}}},
            }
        ]
    )
    await desk.kubectl(
        f"patch networkpolicy {pol} -n {desk.ns} --type=json -p {shlex.quote(value)}",
        f"policy {pol} allow only {allowed}, {src} is not there",
        f"networkpolicy {pol}: add ingress from app={app}",
    )
    desk.case.changes.append(
        f"network policy {pol}: add app={app} to allowed sources; "
        f"old rule {allowed} is kept, policy still block others"
    )
    after = await desk.kubectl(
        f"get networkpolicy {pol} -n {desk.ns} -o yaml", "I verify the new rule"
    )
    desk.case.checks.append(
        f"policy {pol} now list app: {app} in ingress from"
        if f"app: {app}" in after
        else f"I could not see app={app} in {pol}"
    )


def _schema(desk: Desk, seen: Seen, name: str) -> None:
    rows = seen.db_rows.strip().splitlines()
    count = next((ln.strip(" |") for ln in rows if ln.strip(" |").isdigit()), "")
    last = [ln for ln in seen.migrations.splitlines() if "Success" in ln][-1:] or [""]
    desk.case.facts.append("migration table: " + " ".join(last[0].replace("|", " ").split()))
    desk.case.risk.append(
        "rollback of migration can lose data written after it"
        + (f": {count} rows is written since then" if count else "; new rows is written since then")
    )
    desk.case.plan += [
        "1. make backup / snapshot of the database",
        f"2. compare code of {name} with schema; maybe roll forward (fix code or add the column) "
        "is safer than roll back",
        "3. only with approval: run the chosen migration, restart " + name,
        "4. verify errors stop and row count is same",
    ]
    desk.case.ask.append(
        f"please ask {_owner(desk)} / DB owner to approve the plan before I change"
    )


async def _recreate(desk: Desk, seen: Seen, name: str) -> None:
    pods = [
        p.get("name", "")
        for p in desk.pods_of(name) or desk.pods
        if "CrashLoop" in p.get("status", "") and name in p.get("name", "")
    ]
    if not pods or not desk.may_write:
        return
    pod = pods[0]
    views = seen.pods.get(name) or []
    view = views[0] if views else None
    desk.case.because = (
        f'error is "{seen.transient[:80]}", it is transient, '
        f"and namespace {desk.ns} is {env_of(desk) or 'not production'} env, "
        "so I make restart of the pod myself, no need to wake up somebody"
    )
    bare = view is not None and not view.owner
    spec = ""
    if bare:
        spec = await desk.kubectl(
            f"get pod {pod} -n {desk.ns} -o yaml",
            "pod has no controller, I save its spec to create it again",
        )
    await desk.kubectl(
        f"delete pod {pod} -n {desk.ns}",
        "pod is stuck in back-off after a transient error",
        f"pod {pod}: deleted" + ("" if bare else ", controller make new one"),
    )
    if bare and spec:
        manifest = _clean(spec)
        if manifest:
            await desk.kubectl(
                f"apply -n {desk.ns} -f -",
                "create same pod again (fresh start)",
                f"pod {pod}: created again from same spec",
                stdin=manifest,
            )
    desk.case.changes.append(
        f"pod {pod}: make restart (delete"
        + (
            " and create again from same spec, it has no controller"
            if bare
            else ", controller make fresh pod"
        )
        + "); nothing else changed"
    )
    out = await desk.kubectl(f"get pods -n {desk.ns}", "I check the new pod")
    prefix = pod.rsplit("-", 1)[0]
    rows = [" ".join(ln.split()[:3]) for ln in out.splitlines()[1:] if ln.startswith(prefix)]
    desk.case.checks.append(
        "after restart, get pods show: " + ("; ".join(rows) or f"no {prefix} pod")
    )


def _clean(text: str) -> str:
    """A pod's YAML without status and server-set fields, to create it again."""
    import yaml

    from .operator_read import load_yaml

    doc = load_yaml(text)
    if not isinstance(doc, dict):
        return ""
    meta = doc.get("metadata", {})
    doc["metadata"] = {
        k: v for k, v in meta.items() if k in ("name", "namespace", "labels", "annotations")
    }
    doc.pop("status", None)
    spec = doc.get("spec", {})
    spec.pop("nodeName", None)
    return str(yaml.safe_dump(doc, sort_keys=True))
