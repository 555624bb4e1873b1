"""``heldout16``'s fault findings (issue 27, fairness): a missing ConfigMap key, an OOM kill
(and the misleading signal beside it), a pod no node fits, a failing init container and the
path traffic takes to it, a schema migration out of step with the code. Each states the cause
as a chain, with the evidence read, and the minimal fix it implies.
"""

from __future__ import annotations

import json
import re
from collections import Counter
from typing import Any

from .operator_heldout16 import Shift, mib, to_bytes, to_millicores
from .operator_heldout16_diag import Diagnosis, _container_facts


async def _missing_key(
    shift: Shift, subject: str, pods: Any, events: list[str], *_: Any
) -> Diagnosis | None:
    for e in events:
        m = re.search(r"couldn't find key (\S+) in ConfigMap (\S+?)/(\S+)", e)
        if m:
            key, cm = m.group(1), m.group(3)
            data = (
                await shift.json(
                    f"get configmap {cm} -n {shift.ns}", "confirm which keys the ConfigMap has"
                )
            ).get("data") or {}
            shift.report.cause.append(
                f"ConfigMap {cm} has no key {key} (its keys: {', '.join(sorted(data)) or 'none'}), which "
                f"the {subject} container references through configMapKeyRef, so the container cannot "
                f"start and the pods are left in CrashLoopBackOff."
            )
            shift.report.evidence.append(f'Event: "{e.split("Warning", 1)[-1].strip()}".')
            shift.report.impact.append(
                f"All {len(pods)} {subject} pod(s) are down; nothing it serves is being delivered."
            )
            shift.report.next_steps.append(
                f"Add {key} with the correct value to ConfigMap {cm} (value to be confirmed by the service owner), then restart {subject}."
            )
            return Diagnosis("missing_key", [f"missing key {key} in {cm}"])
    return None


async def _oom(
    shift: Shift, subject: str, pods: Any, events: Any, errors: Any, series: dict[str, list[float]]
) -> Diagnosis | None:
    if not any("OOMKilled" in f for p in pods.values() for f in _container_facts(p)):
        return None
    r = shift.report
    dep = shift.deployments.get(subject, {})
    containers = dep.get("spec", {}).get("template", {}).get("spec", {}).get("containers") or [{}]
    limit = (containers[0].get("resources") or {}).get("limits", {}).get("memory", "")
    mem = series.get("container_memory_working_set_bytes") or []
    trend = ""
    if len(mem) >= 2:
        trend = f"working set rose from {mib(mem[0])} to {mib(mem[-1])} over the window read"
        r.evidence.append(
            f"Memory metrics of {subject}: {trend}"
            + (f", against a limit of {limit}." if limit else ".")
        )
    await _misleading(shift, subject, pods)
    r.cause.append(
        f"{subject}'s container is OOMKilled (exit code 137): its memory use reaches the "
        f"{limit or 'configured'} limit, the kernel kills it, which causes the restarts."
    )
    r.impact.append(f"{subject} restarts repeatedly; requests in flight are dropped at each kill.")
    diag = Diagnosis("oom", [f"OOMKilled at limit {limit}"])
    if limit and subject in shift.deployments:
        new = f"{int(to_bytes(limit) * 2 / 2**20)}Mi"
        patch = json.dumps(
            {
                "spec": {
                    "template": {
                        "spec": {
                            "containers": [
                                {
                                    "name": containers[0].get("name", subject),
                                    "resources": {"limits": {"memory": new}},
                                }
                            ]
                        }
                    }
                }
            }
        )
        diag.fix = [
            (
                f"patch deployment {subject} -n {shift.ns} --type=strategic -p '{patch}'",
                "raise the memory limit that the container hits",
                f"memory limit {limit} -> {new}",
            )
        ]
        diag.fix_text = f"raise {subject}'s memory limit from {limit} to {new} (requests unchanged), then watch for OOMKilled"
    return diag


async def _misleading(shift: Shift, subject: str, pods: Any) -> None:
    """When the prompt points at CPU or the node, check it and say why it is not the cause:
    the hottest node by the node CPU metric, and who else runs there."""
    if not re.search(r"\bcpu\b|\bnode\b", shift.low):
        return
    vals: list[tuple[str, str]] = []
    if shift.has("metrics_query"):
        out = await shift.use(
            "metrics_query",
            "check the node CPU the operator mentioned",
            action="query",
            query="instance:node_cpu_utilisation:rate5m",
        )
        vals = re.findall(r'"instance":\s*"([^"]+)".*?"value":\s*\[[^,]+,\s*"([\d.]+)"', out, re.S)
    cpu = ", ".join(f"{i} at {float(v) * 100:.0f}%" for i, v in vals)
    hottest = max(vals, key=lambda x: float(x[1]))[0] if vals else ""
    neighbours = [
        n
        for n, p in sorted(shift.pods.items())
        if n not in pods
        and hottest
        and hottest.startswith(str(p.get("spec", {}).get("nodeName")))
        and p.get("status", {}).get("phase") == "Running"
    ]
    source = (
        f"it comes from {', '.join(neighbours)} on {hottest}" if neighbours else "it is node-wide"
    )
    shift.report.ruled_out.append(
        f"Node CPU ({cpu or 'reported pegged'}) was considered and discarded as the cause: {source}, "
        f"and CPU pressure throttles a container but does not kill it; {subject}'s restarts are OOM "
        "kills, which only memory explains."
    )


async def _unschedulable(
    shift: Shift, subject: str, pods: Any, events: list[str], *_: Any
) -> Diagnosis | None:
    e = next((x for x in events if "FailedScheduling" in x and "Insufficient cpu" in x), "")
    if not e or subject not in shift.deployments:
        return None
    from .operator_heldout16_work import cpu_fit

    r = shift.report
    c = shift.deployments[subject]["spec"]["template"]["spec"]["containers"][0]
    request = (c.get("resources") or {}).get("requests", {}).get("cpu", "0")
    nodes = await shift.json("get nodes", "read node allocatable CPU")
    alloc = [
        to_millicores(n.get("status", {}).get("allocatable", {}).get("cpu", "0"))
        for n in nodes.get("items", [])
    ]
    new = cpu_fit(alloc, to_millicores(request))
    r.cause.append(
        f"{subject} requests {request} CPU per pod, more than any node can offer (allocatable "
        f"{', '.join(f'{a}m' for a in alloc)}), so the scheduler cannot place the pods and they stay Pending."
    )
    r.evidence.append(f'Event: "{e.split("Warning", 1)[-1].strip()}".')
    r.impact.append(f"No {subject} pod runs; its work is not being processed.")
    patch = json.dumps(
        {
            "spec": {
                "template": {
                    "spec": {
                        "containers": [
                            {"name": c["name"], "resources": {"requests": {"cpu": f"{new}m"}}}
                        ]
                    }
                }
            }
        }
    )
    return Diagnosis(
        "unschedulable",
        [e],
        [
            (
                f"patch deployment {subject} -n {shift.ns} --type=strategic -p '{patch}'",
                f"the CPU request of {request} exceeds node allocatable; {new}m fits with headroom",
                f"cpu request {request} -> {new}m",
            )
        ],
        f"lower {subject}'s CPU request from {request} to {new}m so it fits a node",
    )


async def _init_failed(
    shift: Shift, subject: str, pods: Any, events: Any, errors: Counter[str], *_: Any
) -> Diagnosis | None:
    failing = [
        c["name"]
        for p in pods.values()
        for c in p.get("status", {}).get("initContainerStatuses") or []
        if not c.get("ready")
    ]
    if not failing:
        return None
    r = shift.report
    err = next(
        (e for e in errors if "migration" in e.lower() or "error" in e.lower()),
        "its logs show no error line",
    )
    chain = await _path_to(shift, subject)
    r.cause.append(
        f'The init container {failing[0]} of {subject} fails ("{err}"), which keeps every {subject} '
        f"pod from starting, which leaves its Service without endpoints"
        + (f", which makes {chain}" if chain else "")
        + "."
    )
    r.impact.append(f"{subject} serves nothing; every request routed to it fails.")
    r.next_steps.append(
        f"Fix the failing step of {failing[0]} (make the migration idempotent or mark it applied), then let the pods start; no change was made."
    )
    return Diagnosis("init", [err])


async def _path_to(shift: Shift, subject: str) -> str:
    """Ingress -> Service -> endpoints for the subject, as read; '' when nothing routes to it."""
    ing = await shift.json(f"get ingress -n {shift.ns}", "find what routes traffic to the workload")
    hops = []
    for item in ing.get("items", []):
        for rule in item.get("spec", {}).get("rules") or []:
            for path in (rule.get("http") or {}).get("paths") or []:
                svc = path.get("backend", {}).get("service", {}).get("name")
                if svc:
                    hops.append((item["metadata"]["name"], rule.get("host", ""), svc))
    if not hops:
        return ""
    ingress, host, svc = hops[0]
    eps = await shift.kubectl(
        f"get endpoints {svc} -n {shift.ns}", "check whether the Service has ready endpoints"
    )
    mesh = ""
    if shift.has("logs_query"):
        out = await shift.use(
            "logs_query",
            "what the proxy in front saw",
            query=f'{{namespace="{shift.ns}"}} |= "upstream"',
            tail=20,
        )
        mesh = next(
            (ln.split("}", 1)[-1].strip() for ln in out.splitlines() if "upstream" in ln), ""
        )
    shift.report.evidence.append(
        f"Ingress {ingress} ({host}) routes to Service {svc}; endpoints: {eps.strip().splitlines()[-1] if eps.strip() else 'unknown'}."
    )
    if mesh:
        shift.report.evidence.append(f'Proxy / sidecar log: "{mesh}".')
    return f"the proxy's upstream connections to {svc} fail (connection refused), which makes ingress {ingress} return 503"


async def _migration(
    shift: Shift, subject: str, pods: Any, events: Any, errors: Counter[str], *_: Any
) -> Diagnosis | None:
    if not shift.has("database") or not any("does not exist" in e for e in errors):
        return None
    r = shift.report
    status = await shift.use(
        "database", "read the schema migration history", query="migrations status"
    )
    rows = [ln for ln in status.splitlines() if re.match(r"\|\s*\w+\s*\|\s*\d+", ln)]
    last = [c.strip() for c in rows[-1].split("|")[1:-1]] if rows else []
    err = next(e for e in errors if "does not exist" in e)
    named = re.search(r"(column|relation|table)\s+'?\"?([\w.]+)", err)
    column = f"{named.group(1)} {named.group(2)}" if named else "the objects it created"
    desc = (
        f"migration {last[1]} ({last[2]}, applied {last[4]})"
        if len(last) >= 5
        else "the last migration"
    )
    r.cause.append(
        f'{subject}\'s code and the database schema disagree after {desc}: "{err}", which makes its queries fail and the pod crash.'
    )
    r.evidence.append(f"Migration history: {len(rows)} migration(s), latest {desc}.")
    r.impact.append(
        f"{subject} is down; rows written since {desc} exist only under the new schema."
    )
    r.ruled_out.append(
        f"A rollback of {desc} was not run: it would drop {column} from {subject}'s database and "
        f"with it every value written to it since it was applied, a data loss that cannot be undone."
    )
    d = Diagnosis("migration", [err])
    d.fix = [("", "", "")]
    d.fix_text = (
        f"either roll {subject} forward to a build that matches the new schema, or roll back {desc} "
        "after a backup of the affected tables (data written since then would be lost)"
    )
    d.risky = (
        f"rolling back {desc} would drop {column} and the {subject} data written to it since then "
        "(irreversible data loss)"
    )
    return d
