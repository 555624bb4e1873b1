"""``kubectl top pods|nodes``: usage from the metrics the scenario declares."""

from __future__ import annotations

from typing import Any

from ...cluster.audit import note_usage
from ..k8s_format import age, table
from .args import UsageError, require_args
from .session import Inv, api_error
from .targets import _selector_params


# ---- top ----------------------------------------------------------------------------------------
def _pod_usage(env: Any, pod: dict[str, Any]) -> dict[str, tuple[float, float]] | None:
    """container -> (cpu millicores, memory bytes), from the metrics pipeline (None: no metrics yet)."""
    from ...observability.usage import pod_usage

    return pod_usage(env, pod)


def _objects(
    inv: Inv, plural: str, ns: str | None, names: list[str]
) -> list[dict[str, Any]] | None:
    """The named objects (one GET each) or a LIST by ``-l``; None (error printed) on a refusal."""
    if not names:
        res = inv.api("list", plural, ns, params=_selector_params(inv))
        if not res.ok:
            inv.error(api_error(res))
            return None
        return list(res.body.get("items") or [])
    out = []
    for n in names:
        res = inv.api("get", plural, ns, n)
        if not res.ok:
            inv.error(api_error(res))
            return None
        out.append(res.body)
    return out


def _mi(mem: float) -> str:
    return f"{int(mem // 2**20)}Mi"


def _usage_rows(
    inv: Inv, pods: list[dict[str, Any]], ns: str | None
) -> tuple[list[list[str]], list[dict[str, Any]], list[tuple[dict[str, str], float]]]:
    """One row per pod (or per container with ``--containers``), the pods without metrics, and
    the memory each row shows, in bytes, with its labels (rule 703's record)."""
    rows, no_metrics, served = [], [], []
    for pod in pods:
        usage = _pod_usage(inv.env, pod)
        if usage is None:
            no_metrics.append(pod)
            continue
        meta = pod["metadata"]
        lead = ([meta["namespace"]] if ns is None else []) + [meta["name"]]
        labels = {"namespace": meta["namespace"], "pod": meta["name"]}
        if inv.p.on("containers"):
            for cname, (cpu, mem) in usage.items():
                rows.append([*lead, cname, f"{int(cpu)}m", _mi(mem)])
                served.append(({**labels, "container": cname}, mem // 2**20 * 2**20))
        else:
            cpu = sum(u[0] for u in usage.values())
            mem = sum(u[1] for u in usage.values())
            rows.append([*lead, f"{int(cpu)}m", _mi(mem)])
            served.append((labels, mem // 2**20 * 2**20))
    return rows, no_metrics, served


def _top_pods(inv: Inv, names: list[str]) -> None:
    p, env = inv.p, inv.env
    ns = None if p.on("all-namespaces") else inv.ns
    before = len(env.audit.entries)
    pods = _objects(inv, "pods", (ns or inv.ns) if names else ns, names)
    if pods is None:
        return
    rows, no_metrics, served = _usage_rows(inv, pods, ns)
    note_usage(env.audit.entries[before:], served)  # rule 703: what the rows show
    if names and no_metrics:
        meta = no_metrics[0]["metadata"]
        inv.error(
            f"error: Metrics not available for pod {meta['namespace']}/{meta['name']}, "
            f"age: {age(env, meta.get('creationTimestamp'))}"
        )
        return
    if not rows:
        inv.err.append(f"No resources found in {ns} namespace.\n" if ns else "No resources found\n")
        return
    sort_by = p.get("sort-by")
    if sort_by in ("cpu", "memory"):
        column = len(rows[0]) - (2 if sort_by == "cpu" else 1)
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


def _top_nodes(inv: Inv, names: list[str]) -> None:
    from ...observability.usage import node_usage

    before = len(inv.env.audit.entries)
    nodes = _objects(inv, "nodes", None, names)
    if nodes is None:
        return
    rows, served = [], []
    for node in nodes:
        cpu, mem, a_cpu, a_mem = node_usage(inv.env, node)
        served.append(({"node": node["metadata"]["name"]}, mem // 2**20 * 2**20))
        rows.append(
            [
                node["metadata"]["name"],
                f"{int(cpu)}m",
                f"{int(100 * cpu / a_cpu)}%",
                _mi(mem),
                f"{int(100 * mem / a_mem)}%",
            ]
        )
    if inv.p.get("sort-by") in ("cpu", "memory"):
        idx = 1 if inv.p.get("sort-by") == "cpu" else 3
        rows.sort(key=lambda r: -int(r[idx].rstrip("mMi")))
    note_usage(inv.env.audit.entries[before:], served)  # rule 703: what the rows show
    headers = ["NAME", "CPU(cores)", "CPU%", "MEMORY(bytes)", "MEMORY%"]
    inv.say(table(headers, rows, no_headers=inv.p.on("no-headers")))


def cmd_top(inv: Inv) -> None:
    """``kubectl top pod|node [NAME...]``: usage from the metrics pipeline (read as the agent)."""
    p = inv.p
    require_args(
        p,
        "Display resource (CPU/memory) usage.\n\nAvailable Commands:\n  node          Display "
        "resource (CPU/memory) usage of nodes\n  pod           Display resource (CPU/memory) usage of pods",
    )
    what = p.args[0].lower()
    if what in ("pod", "pods", "po"):
        _top_pods(inv, p.args[1:])
    elif what in ("node", "nodes", "no"):
        _top_nodes(inv, p.args[1:])
    else:
        raise UsageError(f'error: unknown command "{what}" for "kubectl top"')
