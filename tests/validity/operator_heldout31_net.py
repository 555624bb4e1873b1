"""heldout31's reading of the request path: a refused upstream's Service selector against its
pods, and a NetworkPolicy that drops a caller the request names.
"""

from __future__ import annotations

import re

from .operator_heldout31_diag import (
    Finding,
    check_config_key,
    check_init,
    check_logs,
    check_oom,
    check_pending,
    check_rollout,
)
from .operator_heldout31_look import Look


def upstream_service(look: Look, line: str) -> Finding | None:
    """A refused upstream named in a log line: its Service's selector against the pods."""
    names = {str((s.get("metadata") or {}).get("name")): s for s in look.services}
    for svc, obj in names.items():
        if not re.search(rf"\b{re.escape(svc)}\b", line):
            continue
        sel = dict((obj.get("spec") or {}).get("selector") or {})
        eps = next((e for e in look.endpoints if (e.get("metadata") or {}).get("name") == svc), {})
        ready = any(s.get("addresses") for s in eps.get("subsets") or [])
        if ready:
            continue
        shown = ",".join(f"{k}={v}" for k, v in sel.items())
        return Finding(
            "selector",
            svc,
            f"the Service {svc} selects {shown}, a label no pod carries, so it has no endpoints "
            "and every call to it is refused",
            [
                f"Service {svc} has selector {shown} and no ready endpoint addresses",
                f"the {svc} pods are labelled " + _pod_labels(look, svc),
            ],
            data={"service": svc, "selector": sel},
        )
    return None


def _pod_labels(look: Look, name: str) -> str:
    obj = look.objs.get(name) or {}
    labels = (((obj.get("spec") or {}).get("template") or {}).get("metadata") or {}).get(
        "labels"
    ) or {}
    return ",".join(f"{k}={v}" for k, v in labels.items()) or f"app={name}"


def check_policy(look: Look, src: str, dst: str) -> Finding | None:
    src_labels = (((look.objs.get(src) or {}).get("spec") or {}).get("template") or {}).get(
        "metadata", {}
    ).get("labels") or {"app": src}
    dst_labels = (((look.objs.get(dst) or {}).get("spec") or {}).get("template") or {}).get(
        "metadata", {}
    ).get("labels") or {"app": dst}
    for pol in look.policies:
        spec = pol.get("spec") or {}
        sel = ((spec.get("podSelector") or {}).get("matchLabels")) or {}
        if not sel or any(dst_labels.get(k) != v for k, v in sel.items()):
            continue
        allowed = []
        for rule in spec.get("ingress") or []:
            for peer in rule.get("from") or []:
                ml = (peer.get("podSelector") or {}).get("matchLabels") or {}
                allowed.append(ml)
        if any(all(src_labels.get(k) == v for k, v in ml.items()) for ml in allowed):
            continue
        name = str((pol.get("metadata") or {}).get("name"))
        shown = "; ".join(",".join(f"{k}={v}" for k, v in m.items()) for m in allowed) or "nothing"
        return Finding(
            "netpol",
            dst,
            f"the NetworkPolicy {name} selects the {dst} pods and admits ingress only from pods "
            f"labelled {shown}, so traffic from {src} is dropped",
            [
                f"NetworkPolicy {name} has podSelector "
                + ",".join(f"{k}={v}" for k, v in sel.items()),
                f"its only ingress peers are {shown}; the {src} pods carry "
                + ",".join(f"{k}={v}" for k, v in src_labels.items()),
            ],
            data={"policy": name, "src": src, "dst": dst, "src_labels": src_labels},
        )
    return None


def diagnose(look: Look) -> Finding:
    for name in look.focus + look.bare_pods:
        for check in (check_pending, check_init, check_config_key, check_oom, check_rollout):
            found = check(look, name)
            if found:
                return found
    if len(look.focus) >= 2:
        for src in look.focus:
            for dst in look.focus:
                found = check_policy(look, src, dst) if src != dst else None
                if found:
                    return found
    for name in look.focus + look.bare_pods:
        found = check_logs(look, name)
        if found and found.kind == "upstream":
            return upstream_service(look, found.data["line"]) or found
        if found:
            return found
    subject = (look.focus + look.bare_pods + ["the workload"])[0]
    return Finding("unclear", subject, "", sure=False)
