"""``kubectl top pods|nodes``: usage from the metrics the scenario declares."""

from __future__ import annotations

from typing import Any

from ..k8s_format import (
    age,
    table,
)
from .args import (
    UsageError,
)
from .common import (
    _selector_params,
)
from .session import (
    Inv,
    api_error,
)


# ---- top ----------------------------------------------------------------------------------------
def _pod_usage(env: Any, pod: dict[str, Any]) -> dict[str, tuple[float, float]] | None:
    """container -> (cpu millicores, memory bytes), from the metrics pipeline (None: no metrics yet)."""
    from ...observability import pod_usage

    return pod_usage(env, pod)


def cmd_top(inv: Inv) -> None:
    p = inv.p
    if not p.args:
        raise UsageError(
            "Display resource (CPU/memory) usage.\n\nAvailable Commands:\n  node          Display "
            "resource (CPU/memory) usage of nodes\n  pod           Display resource (CPU/memory) usage of pods"
        )
    what = p.args[0].lower()
    names = p.args[1:]
    env = inv.env
    if what in ("pod", "pods", "po"):
        ns = None if p.on("all-namespaces") else inv.ns
        if names:
            pods = []
            for n in names:
                res = inv.api("get", "pods", ns or inv.ns, n)
                if not res.ok:
                    inv.error(api_error(res))
                    return
                pods.append(res.body)
        else:
            res = inv.api("list", "pods", ns, params=_selector_params(inv))
            if not res.ok:
                inv.error(api_error(res))
                return
            pods = list(res.body.get("items") or [])
        rows, no_metrics = [], []
        for pod in pods:
            usage = _pod_usage(env, pod)
            if usage is None:
                no_metrics.append(pod)
                continue
            if p.on("containers"):
                for cname, (cpu, mem) in usage.items():
                    rows.append(
                        ([pod["metadata"]["namespace"]] if ns is None else [])
                        + [pod["metadata"]["name"], cname, f"{int(cpu)}m", f"{int(mem // 2**20)}Mi"]
                    )
            else:
                cpu = sum(u[0] for u in usage.values())
                mem = sum(u[1] for u in usage.values())
                rows.append(
                    ([pod["metadata"]["namespace"]] if ns is None else [])
                    + [pod["metadata"]["name"], f"{int(cpu)}m", f"{int(mem // 2**20)}Mi"]
                )
        if names and no_metrics:
            pod = no_metrics[0]
            inv.error(
                f"error: Metrics not available for pod {pod['metadata']['namespace']}/{pod['metadata']['name']}, "
                f"age: {age(env, pod['metadata'].get('creationTimestamp'))}"
            )
            return
        if not rows:
            inv.err.append(
                f"No resources found in {ns} namespace.\n" if ns else "No resources found\n"
            )
            return
        sort_by = p.get("sort-by")
        idx = (
            (len(rows[0]) - 2)
            if sort_by == "cpu"
            else (len(rows[0]) - 1)
            if sort_by == "memory"
            else None
        )
        if idx is not None:
            column = idx
            rows.sort(key=lambda r: -int(r[column].rstrip("mMi")))
        headers = (
            (["NAMESPACE"] if ns is None else [])
            + ["NAME"]
            + (["NAME"] if p.on("containers") else [])
            + ["CPU(cores)", "MEMORY(bytes)"]
        )
        if p.on("containers"):
            headers[(1 if ns is None else 0)] = "POD"
        inv.say(table(headers, rows, no_headers=p.on("no-headers")))
        return
    if what in ("node", "nodes", "no"):
        if names:
            nodes = []
            for n in names:
                res = inv.api("get", "nodes", None, n)
                if not res.ok:
                    inv.error(api_error(res))
                    return
                nodes.append(res.body)
        else:
            res = inv.api("list", "nodes", None, params=_selector_params(inv))
            if not res.ok:
                inv.error(api_error(res))
                return
            nodes = list(res.body.get("items") or [])
        from ...observability import node_usage

        rows = []
        for node in nodes:
            name = node["metadata"]["name"]
            cpu, mem, a_cpu, a_mem = node_usage(env, node)
            rows.append(
                [
                    name,
                    f"{int(cpu)}m",
                    f"{int(100 * cpu / a_cpu)}%",
                    f"{int(mem // 2**20)}Mi",
                    f"{int(100 * mem / a_mem)}%",
                ]
            )
        if p.get("sort-by") in ("cpu", "memory"):
            idx = 1 if p.get("sort-by") == "cpu" else 3
            rows.sort(key=lambda r: -int(r[idx].rstrip("mMi")))
        inv.say(
            table(
                ["NAME", "CPU(cores)", "CPU%", "MEMORY(bytes)", "MEMORY%"],
                rows,
                no_headers=p.on("no-headers"),
            )
        )
        return
    raise UsageError(f'error: unknown command "{what}" for "kubectl top"')
