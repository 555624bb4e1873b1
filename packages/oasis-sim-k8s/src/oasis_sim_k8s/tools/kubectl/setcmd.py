"""``kubectl set image|env|resources|serviceaccount``: edits of a workload's pod template."""

from __future__ import annotations

from typing import Any

from ...cluster.store import clone
from ..k8s_format import kind_label
from .args import UsageError, require_args
from .session import Inv
from .targets import _expand, _ns, _targets
from .writes import (
    WORKLOADS,
    _emit,
    _pod_spec,
    _pod_spec_path,
    dry_mode,
    dry_refused,
    dry_suffix,
)


def cmd_set(inv: Inv) -> None:
    """``kubectl set image|env|resources|serviceaccount``: pod-template edits as patches."""
    p = inv.p
    require_args(
        p,
        "Configure application resources.\n\nAvailable Commands:\n  env              Update environment "
        "variables on a pod template\n  image            Update the image of a pod template\n  "
        "resources        Update resource requests/limits on objects with pod templates\n  "
        "selector         Set the selector on a resource\n  serviceaccount   Update the service account "
        "of a resource\n  subject          Update the user, group, or service account in a role "
        "binding or cluster role binding",
    )
    sub = p.args[0]
    p.args = p.args[1:]
    if sub == "image":
        _set_image(inv)
    elif sub == "env":
        _set_env(inv)
    elif sub == "resources":
        _set_resources(inv)
    elif sub in ("serviceaccount", "sa"):
        _set_sa(inv)
    else:
        raise UsageError(f'error: unknown command "{sub}" for "kubectl set"')


def _split_pairs(inv: Inv) -> tuple[list[str], list[str]]:
    objs = list(inv.p.args[:1])
    pairs: list[str] = []
    for a in inv.p.args[1:]:
        (pairs if "=" in a or a.endswith("-") else objs).append(a)
    return objs, pairs


def _set_common(inv: Inv, objs: list[str], fn: Any, word: str) -> None:
    inv.p.args = objs
    mode = dry_mode(inv)
    for plural, name in _expand(inv, _targets(inv)):
        if plural not in WORKLOADS + ("pods", "jobs"):
            inv.error(f"error: {kind_label(plural)}/{name} does not have a pod template")
            continue
        ns = _ns(inv, plural, name)
        res = inv.call("get", plural, ns, name)
        if res is None:
            continue
        try:
            patch = fn(plural, res.body)
        except UsageError as exc:
            inv.error(str(exc))
            continue
        if patch is None:
            continue
        ptype = "json" if isinstance(patch, list) else "strategic"
        if dry_refused(
            inv, mode, "patch", plural, ns, name, body=patch, params={"patchType": ptype}
        ):
            continue
        if mode:
            inv.say(f"{kind_label(plural)}/{name} {word}{dry_suffix(mode)}")
            continue
        res = inv.call("patch", plural, ns, name, body=patch, params={"patchType": ptype})
        if res is None:
            continue
        _emit(inv, plural, res.body, word)


def _set_image(inv: Inv) -> None:
    objs, pairs = _split_pairs(inv)
    if not pairs:
        raise UsageError("error: at least one image update is required")
    images = dict(pr.split("=", 1) for pr in pairs)

    def fn(plural: str, obj: dict[str, Any]) -> Any:
        spec = _pod_spec(obj, plural)
        all_c = [("containers", c) for c in spec.get("containers") or []] + [
            ("initContainers", c) for c in spec.get("initContainers") or []
        ]
        updates: dict[str, list[dict[str, Any]]] = {}
        for cname, image in images.items():
            hits = [(sec, c) for sec, c in all_c if cname == "*" or c.get("name") == cname]
            if not hits:
                raise UsageError(f'error: unable to find container named "{cname}"')
            for sec, c in hits:
                updates.setdefault(sec, []).append({"name": c["name"], "image": image})
        body: dict[str, Any] = dict(updates)
        for k in reversed(_pod_spec_path(plural)):
            body = {k: body}
        return body

    _set_common(inv, objs, fn, "image updated")


def _set_env(inv: Inv) -> None:
    objs, pairs = _split_pairs(inv)
    p = inv.p
    if p.on("list"):
        inv.p.args = objs
        for plural, name in _expand(inv, _targets(inv)):
            res = inv.call("get", plural, _ns(inv, plural, name), name)
            if res is None:
                continue
            for c in _pod_spec(res.body, plural).get("containers") or []:
                inv.say(f"# {plural}/{name}, container {c['name']}")
                for var in c.get("env") or []:
                    if "value" in var:
                        inv.say(f"{var['name']}={var['value']}")
                    else:
                        ref = var.get("valueFrom") or {}
                        src = next(iter(ref), "")
                        inv.say(
                            f"# {var['name']} from {src.replace('KeyRef', '')} {(ref.get(src) or {}).get('name')}, "
                            f"key {(ref.get(src) or {}).get('key')}"
                        )
        return
    sets = {k: v for k, _, v in (pr.partition("=") for pr in pairs if "=" in pr)}
    for e in p.all("env"):
        k, _, v = str(e).partition("=")
        sets[k] = v
    removes = [pr[:-1] for pr in pairs if pr.endswith("-") and "=" not in pr]
    if p.get("from"):
        raise UsageError(
            "error: --from is not supported together with literal values in this session"
            if sets
            else f"error: {p.get('from')} could not be read"
        )
    if not sets and not removes:
        raise UsageError("error: at least one environment variable must be provided")
    only = p.get("containers")

    def fn(plural: str, obj: dict[str, Any]) -> Any:
        ops = []
        for path, c in _selected_containers(obj, plural, only):
            env = [dict(v) for v in c.get("env") or [] if v.get("name") not in removes]
            for k, v in sets.items():
                hit = next((x for x in env if x.get("name") == k), None)
                if hit is not None:
                    hit.clear()
                    hit.update({"name": k, "value": v})
                else:
                    env.append({"name": k, "value": v})
            if env != (c.get("env") or []):
                ops.append({"op": "add", "path": f"{path}/env", "value": env})
        return ops or None

    _set_common(inv, objs, fn, "env updated")


def _selected_containers(
    obj: dict[str, Any], plural: str, only: str | None
) -> list[tuple[str, dict[str, Any]]]:
    """(JSON-patch path, container) for each container `--containers` selects (all by default)."""
    base = "/" + "/".join(_pod_spec_path(plural))
    return [
        (f"{base}/containers/{i}", c)
        for i, c in enumerate(_pod_spec(obj, plural).get("containers") or [])
        if not only or only in ("*", c["name"])
    ]


def _resource_list(text: str | None) -> dict[str, str]:
    out = {}
    for part in str(text or "").split(","):
        if not part:
            continue
        k, eq, v = part.partition("=")
        if not eq:
            raise UsageError(f"error: invalid resource requirement {part}")
        out[k] = v
    return out


def _set_resources(inv: Inv) -> None:
    p = inv.p
    limits, requests = _resource_list(p.get("limits")), _resource_list(p.get("requests"))
    if not limits and not requests:
        raise UsageError(
            "error: you must specify an update to requests or limits (in the form of --requests/--limits)"
        )
    only = p.get("containers")

    def fn(plural: str, obj: dict[str, Any]) -> Any:
        ops = []
        for path, c in _selected_containers(obj, plural, only):
            res = clone(c.get("resources") or {})
            if limits:
                res.setdefault("limits", {}).update(limits)
            if requests:
                res.setdefault("requests", {}).update(requests)
            ops.append({"op": "add", "path": f"{path}/resources", "value": res})
        if not ops:
            raise UsageError(f'error: unable to find container named "{only}"')
        return ops

    _set_common(inv, list(p.args), fn, "resource requirements updated")


def _set_sa(inv: Inv) -> None:
    objs = list(inv.p.args[:-1])
    sa = inv.p.args[-1] if inv.p.args else ""
    if not objs or not sa:
        raise UsageError("error: serviceaccount is required")

    def fn(plural: str, obj: dict[str, Any]) -> Any:
        body: dict[str, Any] = {"serviceAccountName": sa}
        for k in reversed(_pod_spec_path(plural)):
            body = {k: body}
        return body

    _set_common(inv, objs, fn, "serviceaccount updated")
