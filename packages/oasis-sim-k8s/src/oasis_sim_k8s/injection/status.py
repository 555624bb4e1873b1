"""Declared statuses -> causes, standalone pods, nodes, and the post-settle checks.

:func:`verify` is the self-test the provider guide §7.1 asks for, run on every
provision: once the controllers have settled, each declared workload status must
be visible the way a cluster shows it (pod phase / waiting reason / last
termination reason / conditions), or provisioning fails with an InjectionError.
"""

from __future__ import annotations

from typing import Any

from ..cluster import nodes as nodes_mod
from ..cluster import objects, podstatus, workloads
from ..cluster.clock import content_hash, parse_age
from ..cluster.quantity import cpu_millis, fmt_cpu, fmt_mem, mem_bytes, percent
from ..cluster.store import clone
from .containers import container
from .inject import Context, InjectionError, take

POD_KEYS = {
    "status",
    "labels",
    "logs",
    "env",
    "node",
    "cpu_usage",
    "memory_usage",
    "restarts",
    "last_log",
    "image",
    "containers",
}


def _limit(c: dict[str, Any]) -> int | None:
    lim = ((c.get("resources") or {}).get("limits") or {}).get("memory")
    return mem_bytes(lim) if lim else None


def apply_status(
    ctx: Context,
    i: int,
    e: dict[str, Any],
    dep: dict[str, Any],
    facts: dict[str, Any],
    status: str,
    image: str,
    init_fail: dict[str, Any] | None,
) -> None:
    """Turn a declared Deployment status into hidden causes (before the object is created)."""
    env = ctx.env
    ns = dep["metadata"]["namespace"]
    spec = dep["spec"]["template"]["spec"]
    c = spec["containers"][0]
    if status in ("crashloopbackoff", "oomkilled", "error") and e.get("last_deploy") is None:
        facts["pods_ago"] = _crash_age(
            int(e.get("restarts") or {"crashloopbackoff": 6, "oomkilled": 5}.get(status, 1))
        )
    if status in (
        "running",
        "degraded",
        "oomkilled",
        "elevated_error_rate",
        "rolling_update_in_progress",
    ):
        facts["was_complete"] = True
    if status in ("degraded", "elevated_error_rate"):
        facts["incident_ago"] = min(1200.0, float(facts.get("rs_ago") or 1200.0))
    if status == "crashloopbackoff":
        _crash_cause(ctx, e, c, facts, (ns, image, init_fail))
    elif status == "oomkilled":
        facts["restarts"] = facts["restarts"] or 5
        _oom(facts, c)
    elif status == "error":
        facts["restarts"] = facts["restarts"] or 1
        facts.update({"fault": "error", "fault_image": image})
    elif status == "elevated_error_rate":
        facts.update({"fault": "elevated_error_rate", "fault_image": image})
    elif status == "degraded":
        _degraded(ctx, e, dep, facts)
    elif status == "pending":
        _unschedulable(ctx, e, c)
    if status == "running" and podstatus.config_problem(env, ns, c):
        raise InjectionError(
            i, e["resource"], f"declared running but {podstatus.config_problem(env, ns, c)}"
        )
    if status == "running":
        _create_references(ctx, ns, c)


def _crash_cause(
    ctx: Context,
    e: dict[str, Any],
    c: dict[str, Any],
    facts: dict[str, Any],
    declared: tuple[str, str, dict[str, Any] | None],
) -> None:
    """A declared crash loop's cause: a missing config, memory, an init container or an
    injected failure, else an anonymous non-zero exit. ``declared``: ``(ns, image, init_fail)``."""
    env, (ns, image, init_fail) = ctx.env, declared
    fault = str(e.get("fault") or "").lower()
    facts.setdefault("restarts", 0)
    facts["restarts"] = facts["restarts"] or 6
    memory_cause = fault == "oomkilled" or (
        facts.get("memory_usage") and _limit(c) and facts["memory_usage"] > (_limit(c) or 0)
    )
    if podstatus.config_problem(env, ns, c):
        facts["config_crash"] = True
    elif memory_cause:
        _oom(facts, c)
    elif init_fail or e.get("injected_failure"):
        pass
    else:
        # no cause declared: the container exits non-zero, and nothing names why
        facts.update({"fault": "crash", "fault_image": image})


def _degraded(ctx: Context, e: dict[str, Any], dep: dict[str, Any], facts: dict[str, Any]) -> None:
    """Degraded: enough unready pods to break availability when the scenario says so, else one."""
    env, ns = ctx.env, dep["metadata"]["namespace"]
    replicas = int(dep["spec"]["replicas"])
    min_available = replicas - int(replicas * 0.25)
    declared = {
        str(x.get("type")): str(x.get("status"))
        for x in e.get("conditions") or []
        if isinstance(x, dict)
    }
    facts["unready_count"] = (
        replicas - min_available + 1 if declared.get("Available") == "False" else 1
    )
    if e.get("conditions"):
        env.notes.setdefault("declared_conditions", {})[f"{ns}/{dep['metadata']['name']}"] = e[
            "conditions"
        ]


def _create_references(ctx: Context, ns: str, c: dict[str, Any]) -> None:
    """A running workload's ``envFrom`` sources exist: missing ones are created empty (noted)."""
    env = ctx.env
    for src in c.get("envFrom") or []:
        ref = src.get("configMapRef") or src.get("secretRef")
        plural = "configmaps" if "configMapRef" in src else "secrets"
        if ref and not env.store.exists(plural, ns, ref["name"]):
            kind = "ConfigMap" if plural == "configmaps" else "Secret"
            env.api.request(
                ctx.user,
                "create",
                plural,
                ns,
                body={
                    "kind": kind,
                    "metadata": {
                        "name": ref["name"],
                        "namespace": ns,
                        "creationTimestamp": env.clock.ts(30 * 86400),
                    },
                    "data": {},
                },
            )
            env.notes.setdefault("created_references", []).append(f"{plural}/{ns}/{ref['name']}")


def _crash_age(restarts: int) -> float:
    """How long a container has been crash-looping to reach ``restarts`` restarts."""
    spent, delay = 0.0, 10.0
    for _ in range(max(restarts, 1)):
        spent += delay + 25.0
        delay = min(delay * 2, 300.0)
    return spent + 30.0


def _oom(facts: dict[str, Any], c: dict[str, Any]) -> None:
    limit = _limit(c)
    if limit is None:
        c.setdefault("resources", {}).setdefault("limits", {})["memory"] = "256Mi"
        limit = 256 * 2**20
    usage = facts.get("memory_usage") or int(limit * 0.92)
    facts["memory_usage"] = usage
    facts["memory_peak"] = int(max(usage, limit) * 1.25)
    facts.setdefault("last_terminated_ago", 120)


def _unschedulable(ctx: Context, e: dict[str, Any], c: dict[str, Any]) -> None:
    """Requests no node can satisfy (the scarce resource follows ``reason``)."""
    res = c.setdefault("resources", {}).setdefault("requests", {})
    memory = "memory" in str(e.get("reason") or "").lower()
    biggest_cpu = max(
        (cpu_millis(n["status"]["allocatable"]["cpu"]) or 0) for n in ctx.env.store.iter("nodes")
    )
    biggest_mem = max(
        (mem_bytes(n["status"]["allocatable"]["memory"]) or 0) for n in ctx.env.store.iter("nodes")
    )
    if memory:
        want = max(mem_bytes(res.get("memory", 0)) or 0, int(biggest_mem * 1.25))
        res["memory"] = fmt_mem((want // 2**30 + 1) * 2**30)
        c["resources"].setdefault("limits", {})["memory"] = res["memory"]
    else:
        want = max(cpu_millis(res.get("cpu", 0)) or 0, int(biggest_cpu * 1.2))
        res["cpu"] = fmt_cpu(((want + 499) // 500) * 500)


def paused_rollout(
    ctx: Context, i: int, e: dict[str, Any], dep: dict[str, Any], facts: dict[str, Any]
) -> None:
    """A rollout paused one replica in: old ReplicaSet R-1 pods, new ReplicaSet 1 pod."""
    env = ctx.env
    image = dep["spec"]["template"]["spec"]["containers"][0]["image"]
    prev_image = str(e.get("previous_image") or _older(image))
    env.registry.add(prev_image)
    replicas = int(dep["spec"]["replicas"])
    old = clone(dep)
    old["spec"]["template"]["spec"]["containers"][0]["image"] = prev_image
    old_rs = workloads.create_replicaset(
        env, old, content_hash(old["spec"]["template"]), 1, facts["rs_ago"] + 7 * 86400
    )
    old_rs["spec"]["replicas"] = max(0, replicas - 1)
    new_rs = workloads.create_replicaset(env, dep, workloads.template_hash(env, dep), 2, 600)
    new_rs["spec"]["replicas"] = min(1, replicas)
    env.facts.setdefault(
        ("replicasets", dep["metadata"]["namespace"], old_rs["metadata"]["name"]), {}
    )["pods_ago"] = facts["rs_ago"]
    env.facts.setdefault(
        ("replicasets", dep["metadata"]["namespace"], new_rs["metadata"]["name"]), {}
    )["pods_ago"] = 540
    raw = env.store.raw("deployments", dep["metadata"]["namespace"], dep["metadata"]["name"])
    raw["spec"]["paused"] = True
    raw["metadata"].setdefault("annotations", {})["kubernetes.io/change-cause"] = (
        f"kubectl set image deployment/{dep['metadata']['name']} {dep['spec']['template']['spec']['containers'][0]['name']}={image}"
    )
    env.store.touch(raw)
    wl = workloads
    wl.reconcile_replicaset(env, old_rs, facts)
    wl.reconcile_replicaset(env, new_rs, facts)


def _older(image: str) -> str:
    repo, _, tag = image.rpartition(":")
    parts = tag.lstrip("v").split(".")
    if repo and all(p.isdigit() for p in parts) and parts:
        nums = [int(p) for p in parts]
        idx = max(i for i, n in enumerate(nums) if n > 0) if any(nums) else None
        if idx is not None:
            nums[idx] -= 1
            return f"{repo}:{'v' if tag.startswith('v') else ''}{'.'.join(map(str, nums))}"
    return f"{repo or image}:previous"


def standalone_pod(ctx: Context, i: int, e: dict[str, Any], ns: str, name: str) -> None:
    env = ctx.env
    parts = name.split("-")
    app = "-".join(parts[:-1]) if len(parts) > 1 and any(ch.isdigit() for ch in parts[-1]) else name
    if len(parts) > 2 and len(parts[-1]) == 5 and len(parts[-2]) in (5, 9, 10):
        app = "-".join(parts[:-2])
    image = str(e.get("image") or f"{app}:v1.0.0")
    env.registry.add(image)

    c = container(
        ctx, i, {k: v for k, v in e.items() if k in ("resource", "env", "containers")}, app, image
    )
    labels = {str(k): str(v) for k, v in (e.get("labels") or {"app": app}).items()}
    spec: dict[str, Any] = {
        "containers": [c],
        "restartPolicy": "Always",
        "serviceAccountName": "default",
    }
    pfacts = env.facts.setdefault(("pods", ns, name), {})
    pfacts.update(
        {"workload": app, "cached_image": True, "restarts": int(e.get("restarts", 0) or 0)}
    )
    if e.get("node"):
        if not env.store.exists("nodes", None, str(e["node"])):
            raise InjectionError(i, e["resource"], f"node {e['node']!r} does not exist", ["node"])
        spec["nodeName"] = str(e["node"])
    if e.get("cpu_usage") is not None:
        pct = percent(e["cpu_usage"])
        if pct is None:
            raise InjectionError(i, e["resource"], "cpu_usage must be a percentage", ["cpu_usage"])
        c["resources"].setdefault("limits", {})["cpu"] = "2"
        c["resources"].setdefault("requests", {})["cpu"] = "500m"
        pfacts["cpu_usage_millis"] = int(2000 * pct / 100)
    if e.get("memory_usage") is not None:
        pfacts["memory_usage"] = mem_bytes(e["memory_usage"])
    state = str(e.get("status") or "running").lower()
    # a declared last_log is already among the pod's lines (inject_workloads.pod); no crash
    # message is made up beside it
    if state == "crashloopbackoff":
        pfacts.update({"fault": "crash", "restarts": pfacts["restarts"] or 6})
    elif state == "error":
        pfacts.update({"fault": "error", "restarts": pfacts["restarts"] or 1})
    elif state == "oomkilled":
        _oom(pfacts, c)
        pfacts["restarts"] = pfacts["restarts"] or 5
    elif state == "pending":
        _unschedulable(ctx, e, c)
    elif state not in ("running", "evicted", "failed"):
        raise InjectionError(
            i, e["resource"], f"unsupported pod status {e.get('status')!r}", ["status"]
        )
    body = {
        "kind": "Pod",
        "metadata": {
            "name": name,
            "namespace": ns,
            "labels": labels,
            "creationTimestamp": env.clock.ts(2 * 86400),
        },
        "spec": spec,
        "status": {"phase": "Pending"},
    }
    res = env.api.request(ctx.user, "create", "pods", ns, body=body)
    if not res.ok:
        raise InjectionError(i, e["resource"], str(res.body.get("message")))
    raw = env.store.raw("pods", ns, name)
    if state in ("evicted", "failed"):
        workloads.schedule(env, raw)
        pfacts["terminal"] = True
        raw["status"] = podstatus.evicted_status(env, raw)
    ctx.checks.append((i, e["resource"], ("pod", ns, name, state)))


def configure_nodes(ctx: Context, i: int, e: dict[str, Any]) -> None:
    take(
        i,
        e["resource"],
        e,
        {
            "count",
            "allocatable_cpu",
            "allocatable_memory",
            "allocatable_cpu_per_node",
            "allocatable_memory_per_node",
            "current_utilization",
        },
    )
    env = ctx.env
    existing = [n["metadata"]["name"] for n in env.store.iter("nodes")]
    kept = _counted_nodes(ctx, existing, int(e.get("count", len(existing))), i, e)
    for n, name in enumerate(kept):
        if name not in existing:
            body = nodes_mod.node_object(name, n, created=env.clock.ts(90 * 86400))
            env.api.request(ctx.user, "create", "nodes", body=body)
    for extra in existing:
        if extra not in kept:
            env.api.request(ctx.user, "delete", "nodes", name=extra)
    cpu = _cpu_value(e.get("allocatable_cpu_per_node", e.get("allocatable_cpu")), i, e)
    mem = e.get("allocatable_memory_per_node", e.get("allocatable_memory"))
    util = percent(e["current_utilization"]) if e.get("current_utilization") is not None else None
    for node in list(env.store.iter("nodes")):
        _resize(ctx, node, cpu, mem_bytes(mem) if mem is not None else None, util)


def _counted_nodes(
    ctx: Context, existing: list[str], count: int, i: int, e: dict[str, Any]
) -> list[str]:
    """The cluster's nodes once ``count`` holds: the nodes the scenario names (``node/X``
    entries) are among them, then the baseline's, then ``node-N`` (a renamed scenario keeps
    its node count: provider guide §1.6, the count is the cluster's)."""
    named = [k[2] for k, _ in sorted(ctx.declared.items(), key=lambda x: x[1]) if k[0] == "nodes"]
    named = [n for n in dict.fromkeys(named) if n]
    if len(named) > count:
        raise InjectionError(
            i, e["resource"], f"count {count} is under the {len(named)} nodes named", ["count"]
        )
    kept = named + [n for n in existing if n not in named][: count - len(named)]
    k = 0
    while len(kept) < count:
        k += 1
        if f"node-{k}" not in kept:
            kept.append(f"node-{k}")
    return kept


def _cpu_value(value: Any, i: int, e: dict[str, Any]) -> int | None:
    if value is None:
        return None
    text = str(value).lower()
    if text in ("low", "scarce"):
        return 2000
    if text in ("high", "plenty"):
        return 16000
    millis = cpu_millis(value)
    if millis is None:
        raise InjectionError(i, e["resource"], f"cannot read cpu {value!r}", ["allocatable_cpu"])
    return millis


def _resize(
    ctx: Context, node: dict[str, Any], cpu: int | None, mem: int | None, util: float | None
) -> None:
    env = ctx.env
    status = node["status"]
    if cpu is not None:
        status["allocatable"]["cpu"] = fmt_cpu(cpu - 70 if cpu > 1000 else cpu)
        status["capacity"]["cpu"] = fmt_cpu(cpu)
    if mem is not None:
        status["allocatable"]["memory"] = fmt_mem(mem - 512 * 2**20 if mem > 2**30 else mem)
        status["capacity"]["memory"] = fmt_mem(mem)
    name = node["metadata"]["name"]
    if util is not None:
        a_cpu = cpu_millis(status["allocatable"]["cpu"]) or 0
        a_mem = mem_bytes(status["allocatable"]["memory"]) or 0
        env.reserved[name] = (int(a_cpu * util / 100), int(a_mem * util / 100))
        env.facts.setdefault(("nodes", "", name), {}).update(
            {"cpu_utilisation": util / 100, "memory_utilisation": util / 100}
        )
    env.store.touch(node)


def configure_node(ctx: Context, i: int, e: dict[str, Any], name: str) -> None:
    take(
        i,
        e["resource"],
        e,
        {
            "cpu_usage",
            "memory_usage",
            "memory_pressure",
            "disk_pressure",
            "pid_pressure",
            "conditions",
            "allocatable_cpu",
            "allocatable_memory",
            "ready",
        },
    )
    env = ctx.env
    node = env.store.raw("nodes", None, name)
    if node is None:
        index = len(list(env.store.iter("nodes")))
        env.api.request(
            ctx.user,
            "create",
            "nodes",
            body=nodes_mod.node_object(name, index, created=env.clock.ts(90 * 86400)),
        )
        node = env.store.raw("nodes", None, name)
    cpu = _cpu_value(e.get("allocatable_cpu"), i, e)
    mem = mem_bytes(e["allocatable_memory"]) if e.get("allocatable_memory") is not None else None
    _resize(ctx, node, cpu, mem, None)
    nf = env.facts.setdefault(("nodes", "", name), {})
    for key, fact in (("cpu_usage", "cpu_utilisation"), ("memory_usage", "memory_utilisation")):
        if e.get(key) is not None:
            pct = percent(e[key])
            if pct is None:
                raise InjectionError(i, e["resource"], f"{key} must be a percentage", [key])
            nf[fact] = pct / 100
    when = env.clock.ts(90 * 86400)
    for key, ctype in (
        ("memory_pressure", "MemoryPressure"),
        ("disk_pressure", "DiskPressure"),
        ("pid_pressure", "PIDPressure"),
        ("ready", "Ready"),
    ):
        if e.get(key) is not None:
            nodes_mod.set_condition(node, ctype, _truth(e[key]), when)
    for cond in e.get("conditions") or []:
        ctype = str(cond.get("type"))
        if ctype not in (
            "MemoryPressure",
            "DiskPressure",
            "PIDPressure",
            "Ready",
            "NetworkUnavailable",
        ):
            raise InjectionError(
                i, e["resource"], f"unsupported node condition {ctype!r}", ["conditions"]
            )
        nodes_mod.set_condition(node, ctype, _truth(cond.get("status")), when)
    env.store.touch(node)


def _truth(value: Any) -> bool:
    return str(value).strip().lower() in ("true", "yes", "1")


__all__ = [
    "POD_KEYS",
    "apply_status",
    "configure_node",
    "configure_nodes",
    "objects",
    "parse_age",
    "paused_rollout",
    "standalone_pod",
]
