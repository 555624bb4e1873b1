"""Node maintenance: ``cordon``, ``uncordon``, ``drain`` and ``taint``."""

from __future__ import annotations

from typing import Any

from .args import UsageError
from .session import Inv, api_error
from .writes import dry_mode, dry_suffix


# ---- nodes ------------------------------------------------------------------------------------------------
def _node_names(inv: Inv) -> list[str]:
    if inv.p.get("selector"):
        return [
            n["metadata"]["name"]
            for n in inv.fetch("nodes", None, label_selector=str(inv.p.get("selector")))
        ]
    if not inv.p.args:
        raise UsageError(
            "error: USAGE: cordon NODE [flags]\nSee 'kubectl cordon -h' for help and examples"
        )
    return [a.split("/", 1)[-1] for a in inv.p.args]


def _cordon(inv: Inv, name: str, want: bool, mode: str | None) -> bool:
    res = inv.api("get", "nodes", None, name)
    if not res.ok:
        inv.error(api_error(res))
        return False
    if bool((res.body.get("spec") or {}).get("unschedulable")) == want:
        inv.say(f"node/{name} already {'cordoned' if want else 'uncordoned'}")
        return True
    if mode:
        inv.say(f"node/{name} {'cordoned' if want else 'uncordoned'}{dry_suffix(mode)}")
        return True
    res = inv.api(
        "patch",
        "nodes",
        None,
        name,
        body={"spec": {"unschedulable": True if want else None}},
        params={"patchType": "strategic"},
    )
    if not res.ok:
        inv.error(api_error(res))
        return False
    inv.say(f"node/{name} {'cordoned' if want else 'uncordoned'}")
    return True


def cmd_cordon(inv: Inv) -> None:
    """``kubectl cordon``: mark nodes unschedulable (a GET, then a PATCH)."""
    mode = dry_mode(inv)
    for n in _node_names(inv):
        _cordon(inv, n, True, mode)


def cmd_uncordon(inv: Inv) -> None:
    """``kubectl uncordon``: mark nodes schedulable again."""
    mode = dry_mode(inv)
    for n in _node_names(inv):
        _cordon(inv, n, False, mode)


def _drain_plan(
    inv: Inv, pods: list[dict[str, Any]]
) -> tuple[list[tuple[str, dict[str, Any]]], list[dict[str, Any]], list[dict[str, Any]]]:
    """kubectl drain's filters: (problems that stop the drain, DaemonSet pods, pods to evict)."""
    p = inv.p
    problems, ds_pods, evict = [], [], []
    for pd in pods:
        owners = [o for o in pd["metadata"].get("ownerReferences") or [] if o.get("controller")]
        local = any("emptyDir" in v for v in (pd.get("spec") or {}).get("volumes") or [])
        if (pd.get("status") or {}).get("phase") in ("Succeeded", "Failed"):
            evict.append(pd)
        elif owners and owners[0].get("kind") == "DaemonSet":
            ds_pods.append(pd)
        elif not owners and not p.on("force"):
            problems.append(
                ("cannot delete Pods that declare no controller (use --force to override)", pd)
            )
        elif local and not (p.on("delete-emptydir-data") or p.on("delete-local-data")):
            problems.append(
                (
                    "cannot delete Pods with local storage (use --delete-emptydir-data to override)",
                    pd,
                )
            )
        else:
            evict.append(pd)
    if ds_pods and not p.on("ignore-daemonsets"):
        problems.append(
            ("cannot delete DaemonSet-managed Pods (use --ignore-daemonsets to ignore)", ds_pods[0])
        )
    return problems, ds_pods, evict


def _pod_refs(pods: list[dict[str, Any]]) -> str:
    return ", ".join(f"{x['metadata']['namespace']}/{x['metadata']['name']}" for x in pods)


def _evict(inv: Inv, pd: dict[str, Any], mode: str | None) -> bool:
    """Evict one pod (retrying a PDB's 429 twice, 5s apart); False when it failed."""
    pns, pname = pd["metadata"]["namespace"], pd["metadata"]["name"]
    inv.say(f"evicting pod {pns}/{pname}")
    if mode:
        inv.say(f"pod/{pname} evicted{dry_suffix(mode)}")
        return True
    body = {
        "apiVersion": "policy/v1",
        "kind": "Eviction",
        "metadata": {"name": pname, "namespace": pns},
    }
    for attempt in range(3):
        res = inv.api("create", "pods", pns, pname, sub="eviction", body=body)
        if res.ok:
            inv.say(f"pod/{pname} evicted")
            return True
        if res.code == 429 and attempt < 2:
            inv.err.append(
                f'error when evicting pods/"{pname}" -n "{pns}" (will retry after 5s): '
                f"{res.body.get('message')}\n"
            )
            inv.env.advance(5)
            continue
        break
    inv.error(f"error: cannot evict pod {pns}/{pname}: {api_error(res)}")
    return False


def _drain_node(inv: Inv, node: str, mode: str | None) -> None:
    p = inv.p
    pods = inv.fetch("pods", None, field_selector=f"spec.nodeName={node}")
    if p.get("pod-selector"):
        from ...cluster import selectors

        match = selectors.parse(str(p.get("pod-selector")))
        pods = [pd for pd in pods if match(pd["metadata"].get("labels") or {})]
    problems, ds_pods, evict = _drain_plan(inv, pods)
    if problems:
        text = "; ".join(
            f"{msg}: " + _pod_refs([x for m, x in problems if m == msg])
            for msg in dict.fromkeys(m for m, _ in problems)
        )
        inv.error(
            f'error: unable to drain node "{node}" due to error: {text}, continuing command...\n'
            f"There are pending nodes to be drained:\n {node}\nerror: {text}"
        )
        return
    if ds_pods:
        inv.err.append(f"Warning: ignoring DaemonSet-managed Pods: {_pod_refs(ds_pods)}\n")
    failed = False
    for pd in evict:
        if not _evict(inv, pd, mode):
            failed = True
            break
    if not failed:
        inv.say(f"node/{node} drained{dry_suffix(mode)}")


def cmd_drain(inv: Inv) -> None:
    """``kubectl drain``: cordon, then evict what kubectl's filters allow, pod by pod."""
    mode = dry_mode(inv)
    for node in _node_names(inv):
        if _cordon(inv, node, True, mode):
            _drain_node(inv, node, mode)


def cmd_taint(inv: Inv) -> None:
    """``kubectl taint``: add or remove node taints (a GET, then a PATCH)."""
    p = inv.p
    args = list(p.args)
    if not args:
        raise UsageError("error: at least one taint update is required")
    if args[0] in ("node", "nodes", "no"):
        args = args[1:]
    names: list[str] = []
    specs: list[str] = []
    for a in args:
        (specs if (":" in a or "=" in a or a.endswith("-")) and names else names).append(a)
    if not specs:
        raise UsageError("error: at least one taint update is required")
    mode = dry_mode(inv)
    for name in [n.split("/", 1)[-1] for n in names]:
        res = inv.call("get", "nodes", None, name)
        if res is None:
            continue
        taints = list((res.body.get("spec") or {}).get("taints") or [])
        removed = added = False
        for s in specs:
            if s.endswith("-"):
                key = s[:-1].split(":")[0].split("=")[0]
                effect = s[:-1].split(":")[1] if ":" in s else None
                keep = [
                    t
                    for t in taints
                    if not (t.get("key") == key and (effect is None or t.get("effect") == effect))
                ]
                removed |= len(keep) != len(taints)
                taints = keep
            else:
                kv, _, effect = s.partition(":")
                key, _, value = kv.partition("=")
                if not effect:
                    inv.error(f"error: invalid taint spec: {s}, unknown taint effect")
                    break
                exists = [t for t in taints if t.get("key") == key and t.get("effect") == effect]
                if exists and not p.on("overwrite"):
                    inv.error(
                        f"error: node {name} already has {key} taint(s) with same effect(s) and --overwrite is false"
                    )
                    break
                taints = [t for t in taints if t not in exists] + [
                    {
                        k: v
                        for k, v in {"key": key, "value": value or None, "effect": effect}.items()
                        if v
                    }
                ]
                added = True
        else:
            word = "tainted" if added else "untainted"
            if mode:
                inv.say(f"node/{name} {word}{dry_suffix(mode)}")
                continue
            res = inv.call(
                "patch",
                "nodes",
                None,
                name,
                body={"spec": {"taints": taints}},
                params={"patchType": "merge"},
            )
            if res is None:
                continue
            inv.say(f"node/{name} {word}")
