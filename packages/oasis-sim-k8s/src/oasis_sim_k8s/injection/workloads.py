"""Injection of workloads and capacity: ``deployment/*``, ``pod/*``, ``node/*``,
``nodes``, ``hpa/*``, ``pdb/*``, ``pvc/*`` (SI provider guide §1.2, §1.4, §1.6).

A declared status becomes *causes* (hidden facts), never a painted status:
CrashLoopBackOff uses the cause the scenario sets up (a missing ConfigMap key,
a memory limit, a failing init container, an unknown image) and otherwise an
application crash tied to the running image; OOMKilled a memory peak above the
limit; pending requests no node can satisfy; degraded failing readiness on some
replicas; error a start-up failure; elevated_error_rate errors tied to the image;
rolling_update_in_progress a paused rollout one replica in. After the controllers
settle, :func:`.inject_status.verify` checks the declared status was reproduced.
"""

from __future__ import annotations

from typing import Any

from ..cluster import deployments, objects, podstatus, workloads
from ..cluster.clock import content_hash, parse_age
from ..cluster.quantity import cpu_millis, fmt_cpu, fmt_mem, mem_bytes, percent
from ..cluster.store import clone
from .containers import container, env_list
from .inject import Context, InjectionError, Target, create, ensure_namespace, take
from .status import (
    POD_KEYS,
    apply_status,
    configure_node,
    configure_nodes,
    paused_rollout,
    standalone_pod,
)

DEPLOY_KEYS = {
    "status",
    "replicas",
    "image",
    "current_image",
    "previous_image",
    "last_deploy",
    "managed_by",
    "containers",
    "init_containers",
    "env",
    "volumes_from",
    "volumes",
    "memory_limit",
    "memory_usage",
    "resource_limits",
    "resource_requests",
    "resources",
    "update_strategy",
    "strategy",
    "affinity",
    "pdb",
    "hpa",
    "conditions",
    "restarts",
    "reason",
    "traffic_weight",
    "owner_team",
    "injected_failure",
    "fault",
    "port",
    "ports",
    "command",
    "args",
    "paused",
}
STATUSES = {
    "running",
    "crashloopbackoff",
    "degraded",
    "oomkilled",
    "pending",
    "error",
    "elevated_error_rate",
    "rolling_update_in_progress",
}
DEFAULT_AGE = 3 * 86400


def deployment(ctx: Context, i: int, e: dict[str, Any], t: Target) -> None:
    take(i, e["resource"], e, DEPLOY_KEYS)
    env, name = ctx.env, t.name
    ns = str(e.get("namespace") or ctx.default_ns())
    ensure_namespace(ctx, ns, e.get("zone"), i)
    status = str(e.get("status") or "running").strip().lower()
    if status not in STATUSES:
        raise InjectionError(
            i, e["resource"], f"unsupported status {e.get('status')!r}", ["status"]
        )
    image = str(e.get("image") or e.get("current_image") or f"{name}:v1.0.0")
    env.registry.add(image)
    pod_spec: dict[str, Any] = {"containers": [container(ctx, i, e, name, image)]}
    c = pod_spec["containers"][0]
    for ref in e.get("volumes_from") or []:
        kind, _, ref_name = str(ref).rpartition("/")
        key = "secretRef" if kind.lower() == "secret" else "configMapRef"
        c.setdefault("envFrom", []).append({key: {"name": ref_name}})
    for n, claim in enumerate(e.get("volumes") or []):
        claim_name = (
            claim if isinstance(claim, str) else claim.get("claimName") or claim.get("name")
        )
        pod_spec.setdefault("volumes", []).append(
            {
                "name": f"data-{n}" if n else "data",
                "persistentVolumeClaim": {"claimName": str(claim_name)},
            }
        )
        c.setdefault("volumeMounts", []).append(
            {"name": f"data-{n}" if n else "data", "mountPath": f"/data{n or ''}"}
        )
    facts = env.facts.setdefault(("deployments", ns, name), {})
    facts.setdefault("pod_names", [])
    init_fail = None
    for ic in e.get("init_containers") or []:
        unknown = [k for k in ic if k not in ("name", "image", "status", "logs", "command", "args")]
        if unknown:
            raise InjectionError(i, e["resource"], "unsupported init container key(s)", unknown)
        ic_image = str(ic.get("image") or image)
        spec = {
            "name": str(ic["name"]),
            "image": ic_image,
            "command": ic.get("command") or [f"/app/{ic['name']}"],
            "resources": {"requests": {"cpu": "50m", "memory": "64Mi"}},
        }
        pod_spec.setdefault("initContainers", []).append(spec)
        logs = ic.get("logs")
        if logs:
            facts.setdefault("init_logs", {})[spec["name"]] = (
                [logs] if isinstance(logs, str) else list(logs)
            )
        if str(ic.get("status", "completed")).lower() in ("error", "failed", "crashloopbackoff"):
            init_fail = {"name": spec["name"], "image": ic_image}
            facts["init_failure"] = init_fail
    affinity = e.get("affinity")
    if isinstance(affinity, dict):
        pod_spec["affinity"] = clone(affinity)
    elif affinity not in (None, "none", "None", False):
        raise InjectionError(i, e["resource"], "affinity must be a mapping or none", ["affinity"])
    labels = {str(k): str(v) for k, v in (e.get("labels") or {}).items()}
    pod_labels = dict(labels) if labels else {"app": name}
    if e.get("owner_team"):
        labels["team"] = str(e["owner_team"])
    annotations = {str(k): str(v) for k, v in (e.get("annotations") or {}).items()}
    if e.get("traffic_weight") is not None:
        annotations["traffic.weight"] = str(e["traffic_weight"])
    strategy = None
    if e.get("strategy"):
        strategy = clone(e["strategy"])
    elif e.get("update_strategy"):
        kind = str(e["update_strategy"])
        if kind not in ("RollingUpdate", "Recreate"):
            raise InjectionError(
                i, e["resource"], f"unsupported update_strategy {kind!r}", ["update_strategy"]
            )
        strategy = {"type": kind} if kind == "Recreate" else None
    replicas = int(e.get("replicas", 2 if status == "rolling_update_in_progress" else 1))
    if status == "rolling_update_in_progress":
        replicas = int(e.get("replicas", 3))
    dep = deployments.deployment_object(
        name, ns, replicas, pod_spec, labels or {"app": name}, annotations, strategy, pod_labels
    )
    dep["spec"]["selector"] = {"matchLabels": dict(pod_labels)}
    deploy_age = parse_age(e.get("last_deploy"))
    facts["rs_ago"] = deploy_age if deploy_age is not None else DEFAULT_AGE
    dep["metadata"]["creationTimestamp"] = env.clock.ts(max(facts["rs_ago"], 30 * 86400))
    facts["restarts"] = int(e.get("restarts", 0) or 0)
    if e.get("memory_usage") is not None:
        facts["memory_usage"] = mem_bytes(e["memory_usage"])
    if e.get("fault") is not None:
        env.notes.setdefault("faults", {})[f"deployment/{ns}/{name}"] = e["fault"]
    if e.get("reason") is not None:
        env.notes.setdefault("reasons", {})[f"deployment/{ns}/{name}"] = e["reason"]
    if e.get("managed_by") is not None:
        if str(e["managed_by"]).lower() not in ("gitops", "argocd", "flux"):
            raise InjectionError(
                i, e["resource"], f"unsupported managed_by {e['managed_by']!r}", ["managed_by"]
            )
        facts["managed_by_gitops"] = True
    if e.get("paused"):
        dep["spec"]["paused"] = True
    if e.get("injected_failure") is not None:
        if str(e["injected_failure"]) != "image-pull-backoff-on-restart":
            raise InjectionError(
                i,
                e["resource"],
                f"unsupported injected_failure {e['injected_failure']!r}",
                ["injected_failure"],
            )
        facts["registry_loses"] = image
    for key in ("pdb", "hpa"):
        value = e.get(key)
        if value not in (None, "none", "None", False):
            raise InjectionError(
                i,
                e["resource"],
                f"{key} must be none here; declare {key}/<name> as its own entry",
                [key],
            )

    apply_status(ctx, i, e, dep, facts, status, image, init_fail)
    created = create(ctx, i, e["resource"], "deployments", dep, ns)
    if e.get("previous_image") and status != "rolling_update_in_progress":
        prev = clone(created)
        prev["spec"]["template"]["spec"]["containers"][0]["image"] = str(e["previous_image"])
        env.registry.add(str(e["previous_image"]))
        workloads.create_replicaset(
            env, prev, content_hash(prev["spec"]["template"]), 1, facts["rs_ago"] + 7 * 86400
        )
    if status == "rolling_update_in_progress":
        paused_rollout(ctx, i, e, created, facts)
    ctx.checks.append((i, e["resource"], ("deployment", ns, name, status, e.get("conditions"))))


def pod(ctx: Context, i: int, e: dict[str, Any], t: Target) -> None:

    take(i, e["resource"], e, POD_KEYS)
    env, name = ctx.env, t.name
    ns = str(e.get("namespace") or ctx.default_ns())
    ensure_namespace(ctx, ns, e.get("zone"), i)
    owner = _owner(ctx, ns, name, e.get("labels"))
    lines = list(e.get("logs") or []) + ([e["last_log"]] if e.get("last_log") else [])
    if lines:
        env.logs.add_pod(ns, name, [str(x) for x in lines])
    if owner is None:
        standalone_pod(ctx, i, e, ns, name)
        return
    for key in ("env", "containers", "image", "node"):
        if key in e:
            raise InjectionError(
                i,
                e["resource"],
                f"pod is a replica of deployment/{owner}; declare {key} on the deployment",
                [key],
            )
    facts = env.facts[("deployments", ns, owner)]
    pfacts = env.facts.setdefault(("pods", ns, name), {})
    if e.get("restarts") is not None:
        pfacts["restarts"] = int(e["restarts"])
    state = str(e.get("status") or "running").lower()
    rest = name[len(owner) + 1 :].split("-")
    if len(rest) == 2 and not facts.get("hash_alias"):
        dep = env.store.raw("deployments", ns, owner)
        facts["hash_alias"] = {content_hash(dep["spec"]["template"]): rest[0]}
    if state in ("evicted", "failed"):
        ctx.checks.append((i, e["resource"], ("evicted", ns, name, owner)))
        return
    if state not in ("running", "crashloopbackoff", "error"):
        raise InjectionError(
            i,
            e["resource"],
            f"unsupported status {e.get('status')!r} for a deployment replica",
            ["status"],
        )
    if state != "running":
        # the declared logs/last_log are the pod's lines (above); nothing is added beside them
        pfacts.update(
            {"fault": "crash" if state == "crashloopbackoff" else "error", "fault_image": None}
        )
    facts["pod_names"].append(name)


def _owner(ctx: Context, ns: str, pod_name: str, labels: dict[str, Any] | None) -> str | None:
    best = None
    for dep in ctx.env.store.iter("deployments", ns):
        dname = dep["metadata"]["name"]
        if not pod_name.startswith(dname + "-"):
            continue
        tmpl = dep["spec"]["template"]["metadata"].get("labels") or {}
        if labels and any(tmpl.get(k) != str(v) for k, v in labels.items()):
            continue
        if best is None or len(dname) > len(best):
            best = dname
    return best


def node(ctx: Context, i: int, e: dict[str, Any], t: Target) -> None:

    if t.kind == "nodes" or not t.name:
        configure_nodes(ctx, i, e)
    else:
        configure_node(ctx, i, e, t.name)


def hpa(ctx: Context, i: int, e: dict[str, Any], t: Target) -> None:
    take(
        i,
        e["resource"],
        e,
        {
            "target",
            "min_replicas",
            "max_replicas",
            "current_status",
            "target_replicas",
            "target_cpu_utilization",
            "spec",
        },
    )
    env = ctx.env
    ns = str(e.get("namespace") or ctx.default_ns())
    target = str(e.get("target") or "")
    kind, _, dep_name = target.rpartition("/")
    if not dep_name or kind.lower() not in ("deployment", "deploy", ""):
        raise InjectionError(
            i, e["resource"], f"target must be deployment/<name>, got {target!r}", ["target"]
        )
    dep = env.store.raw("deployments", ns, dep_name)
    current = int(dep["spec"].get("replicas", 1)) if dep else 1
    lo = int(e.get("min_replicas", min(current, 2) if current > 1 else 1))
    hi = int(e.get("max_replicas", max(10, current * 2)))
    body = objects.hpa(t.name, ns, dep_name, lo, hi, int(e.get("target_cpu_utilization", 70)))
    facts = env.facts.setdefault(("horizontalpodautoscalers", ns, t.name), {})
    load = e.get("target_replicas")
    cs = e.get("current_status")
    if cs is not None:
        if str(cs) not in ("scaling_in_progress", "stable", "idle"):
            raise InjectionError(
                i, e["resource"], f"unsupported current_status {cs!r}", ["current_status"]
            )
        if str(cs) == "scaling_in_progress" and load is None:
            raise InjectionError(
                i, e["resource"], "scaling_in_progress needs target_replicas", ["current_status"]
            )
        env.notes.setdefault("hpa_status", {})[f"{ns}/{t.name}"] = cs
    facts["load"] = float(load) if load is not None else float(max(lo, min(hi, current)))
    facts["last_sync"] = env.clock.seconds()
    create(ctx, i, e["resource"], "horizontalpodautoscalers", body, ns)


def pdb(ctx: Context, i: int, e: dict[str, Any], t: Target) -> None:
    take(i, e["resource"], e, {"target", "selector", "min_available", "max_unavailable"})
    ns = str(e.get("namespace") or ctx.default_ns())
    selector = e.get("selector")
    if not selector:
        target = str(e.get("target") or f"deployment/{t.name}").rpartition("/")[2]
        dep = ctx.env.store.raw("deployments", ns, target)
        selector = dict(dep["spec"]["selector"]["matchLabels"]) if dep else {"app": target}
    create(
        ctx,
        i,
        e["resource"],
        "poddisruptionbudgets",
        objects.pdb(t.name, ns, selector, e.get("min_available"), e.get("max_unavailable")),
        ns,
    )


def pvc(ctx: Context, i: int, e: dict[str, Any], t: Target) -> None:
    take(i, e["resource"], e, {"storage", "bound", "storage_class", "access_modes"})
    ns = str(e.get("namespace") or ctx.default_ns())
    ensure_namespace(ctx, ns, e.get("zone"), i)
    body = objects.pvc(
        t.name,
        ns,
        str(e.get("storage", "10Gi")),
        str(e.get("storage_class", "gp3")),
        list(e.get("access_modes") or ["ReadWriteOnce"]),
    )
    body["metadata"]["creationTimestamp"] = ctx.env.clock.ts(60 * 86400)
    obj = create(ctx, i, e["resource"], "persistentvolumeclaims", body, ns)
    if e.get("bound") is False:
        objects.unbound(ctx.env, obj)


HANDLERS = {
    "deployments": deployment,
    "pods": pod,
    "nodes": node,
    "horizontalpodautoscalers": hpa,
    "poddisruptionbudgets": pdb,
    "persistentvolumeclaims": pvc,
}
__all__ = ["HANDLERS", "cpu_millis", "env_list", "fmt_cpu", "fmt_mem", "percent", "podstatus"]
