"""``kubectl describe node``: conditions, capacity, and the requests and limits of the pods
scheduled there (the ``Allocated resources`` kubectl sums up)."""

from __future__ import annotations

from typing import Any

from ..cluster.quantity import cpu_millis, mem_bytes
from .describe_text import Fetch, W, _annotations, _map, events_section
from .k8s_format import age, rfc1123


def _cpu(m: float) -> str:
    return "0" if not m else (f"{int(m // 1000)}" if m % 1000 == 0 else f"{int(m)}m")


def _mem(b: float) -> str:
    if not b:
        return "0"
    for unit, size in (("Gi", 2**30), ("Mi", 2**20), ("Ki", 2**10)):
        if b % size == 0:
            return f"{int(b // size)}{unit}"
    return str(int(b))


def _node_status(w: W, node: dict[str, Any]) -> None:
    """Name, roles, labels, taints, conditions, addresses, capacity and allocatable."""
    meta, spec, st = node["metadata"], node.get("spec") or {}, node.get("status") or {}
    roles = sorted(
        k.split("/", 1)[1]
        for k in meta.get("labels") or {}
        if k.startswith("node-role.kubernetes.io/")
    )
    w(0, f"Name:\t{meta['name']}")
    w(0, f"Roles:\t{','.join(roles) or '<none>'}")
    _map(w, 0, "Labels", meta.get("labels"))
    _annotations(w, 0, meta)
    w(0, f"CreationTimestamp:\t{rfc1123(meta.get('creationTimestamp'))}")
    taints = spec.get("taints") or []
    for n, t in enumerate(taints):
        value = "=" + t["value"] if t.get("value") else ""
        w(0, f"{'Taints:' if n == 0 else ''}\t{t.get('key')}{value}:{t.get('effect')}")
    if not taints:
        w(0, "Taints:\t<none>")
    w(0, f"Unschedulable:\t{str(bool(spec.get('unschedulable'))).lower()}")
    w(0, "Conditions:")
    w(1, "Type\tStatus\tLastHeartbeatTime\tLastTransitionTime\tReason\tMessage")
    w(1, "----\t------\t-----------------\t------------------\t------\t-------")
    for c in st.get("conditions") or []:
        w(
            1,
            f"{c.get('type')}\t{c.get('status')}\t{rfc1123(c.get('lastHeartbeatTime'))}\t"
            f"{rfc1123(c.get('lastTransitionTime'))}\t{c.get('reason', '')}\t{c.get('message', '')}",
        )
    w(0, "Addresses:")
    for a in st.get("addresses") or []:
        w(1, f"{a.get('type')}:\t{a.get('address')}")
    for title in ("capacity", "allocatable"):
        w(0, f"{title.capitalize()}:")
        for k, v in sorted((st.get(title) or {}).items()):
            w(1, f"{k}:\t{v}")
    if spec.get("podCIDR"):
        w(0, f"PodCIDR:\t{spec['podCIDR']}")
        w(0, f"PodCIDRs:\t{spec['podCIDR']}")


def _pod_resources(pod: dict[str, Any]) -> tuple[float, float, float, float]:
    """(cpu requests, cpu limits, memory requests, memory limits) summed over containers."""
    rc = lc = rm = lm = 0.0
    for c in (pod.get("spec") or {}).get("containers") or []:
        res = c.get("resources") or {}
        rc += cpu_millis((res.get("requests") or {}).get("cpu", 0)) or 0
        lc += cpu_millis((res.get("limits") or {}).get("cpu", 0)) or 0
        rm += mem_bytes((res.get("requests") or {}).get("memory", 0)) or 0
        lm += mem_bytes((res.get("limits") or {}).get("memory", 0)) or 0
    return rc, lc, rm, lm


def _node_pods(env: Any, w: W, node: dict[str, Any], pods: list[dict[str, Any]]) -> None:
    """Non-terminated pods with their share of allocatable, then the totals."""
    alloc = (node.get("status") or {}).get("allocatable") or {}
    alloc_cpu = cpu_millis(alloc.get("cpu", 0)) or 1
    alloc_mem = mem_bytes(alloc.get("memory", 0)) or 1

    def cpu(m: float) -> str:
        return f"{_cpu(m)} ({int(100 * m / alloc_cpu)}%)"

    def mem(b: float) -> str:
        return f"{_mem(b)} ({int(100 * b / alloc_mem)}%)"

    w(0, f"Non-terminated Pods:\t({len(pods)} in total)")
    w(1, "Namespace\tName\tCPU Requests\tCPU Limits\tMemory Requests\tMemory Limits\tAge")
    w(1, "---------\t----\t------------\t----------\t---------------\t-------------\t---")
    totals = [0.0, 0.0, 0.0, 0.0]
    for p in pods:
        rc, lc, rm, lm = _pod_resources(p)
        totals = [t + x for t, x in zip(totals, (rc, lc, rm, lm))]
        meta = p["metadata"]
        w(
            1,
            f"{meta.get('namespace')}\t{meta['name']}\t{cpu(rc)}\t{cpu(lc)}\t{mem(rm)}\t{mem(lm)}\t"
            f"{age(env, meta.get('creationTimestamp'))}",
        )
    w(0, "Allocated resources:")
    w(1, "(Total limits may be over 100 percent, i.e., overcommitted.)")
    w(1, "Resource\tRequests\tLimits")
    w(1, "--------\t--------\t------")
    w(1, f"cpu\t{cpu(totals[0])}\t{cpu(totals[1])}")
    w(1, f"memory\t{mem(totals[2])}\t{mem(totals[3])}")


def describe_node(env: Any, node: dict[str, Any], fetch: Fetch) -> str:
    w = W()
    _node_status(w, node)
    listed = fetch(
        "pods",
        None,
        field_selector=f"spec.nodeName={node['metadata']['name']}",
        forbidden_none=True,
    )
    if listed is None:
        w(0, "Pods:\tnot authorized")
    else:
        running = [
            p for p in listed if (p.get("status") or {}).get("phase") not in ("Succeeded", "Failed")
        ]
        _node_pods(env, w, node, running)
    events_section(env, w, node, fetch)
    return w.text()
