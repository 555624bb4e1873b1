"""kubectl's output formats: ages, tables (``kubectl get``), ``-o json|yaml|name|jsonpath|
custom-columns``, and the printer columns of each resource (kubectl v1.29)."""

from __future__ import annotations

import base64
import json
from collections.abc import Callable
from typing import Any

import yaml

from ..clock import parse_ts
from ..quantity import cpu_millis, mem_bytes
from ..store import KINDS
from .jsonpath import JsonPathError, evaluate_template

#: plural -> how ``-o name`` and multi-kind tables name the kind
GROUP_SUFFIX = {
    "deployments": "apps",
    "replicasets": "apps",
    "statefulsets": "apps",
    "daemonsets": "apps",
    "jobs": "batch",
    "ingresses": "networking.k8s.io",
    "networkpolicies": "networking.k8s.io",
    "ingressclasses": "networking.k8s.io",
    "horizontalpodautoscalers": "autoscaling",
    "poddisruptionbudgets": "policy",
    "roles": "rbac.authorization.k8s.io",
    "rolebindings": "rbac.authorization.k8s.io",
    "clusterroles": "rbac.authorization.k8s.io",
    "clusterrolebindings": "rbac.authorization.k8s.io",
    "storageclasses": "storage.k8s.io",
    "applications": "argoproj.io",
    "clusterissuers": "cert-manager.io",
    "certificates": "cert-manager.io",
}


def kind_of(plural: str) -> str:
    return KINDS[plural][0] if plural in KINDS else plural


def kind_label(plural: str) -> str:
    """``deployment.apps`` / ``pod`` (the form of ``-o name`` and ``deployment.apps/x scaled``)."""
    kind = kind_of(plural).lower()
    group = GROUP_SUFFIX.get(plural)
    return f"{kind}.{group}" if group else kind


def resource_label(plural: str) -> str:
    """``deployments.apps`` / ``pods`` (the form of ``Error from server (NotFound): deployments.apps "x"``)."""
    group = GROUP_SUFFIX.get(plural)
    return f"{plural}.{group}" if group else plural


# ---- time -----------------------------------------------------------------------------
def human_duration(seconds: float) -> str:
    """k8s.io/apimachinery ``duration.HumanDuration``."""
    s = int(seconds)
    if s < -1:
        return "<invalid>"
    if s < 0:
        return "0s"
    if s < 120:
        return f"{s}s"
    minutes = s // 60
    if minutes < 10:
        rest = s % 60
        return f"{minutes}m" if rest == 0 else f"{minutes}m{rest}s"
    if minutes < 180:
        return f"{minutes}m"
    hours = s // 3600
    if hours < 8:
        rest = minutes % 60
        return f"{hours}h" if rest == 0 else f"{hours}h{rest}m"
    if hours < 48:
        return f"{hours}h"
    if hours < 24 * 8:
        rest = hours % 24
        return f"{hours // 24}d" if rest == 0 else f"{hours // 24}d{rest}h"
    if hours < 24 * 365 * 2:
        return f"{hours // 24}d"
    if hours < 24 * 365 * 8:
        dy = (hours // 24) % 365
        return f"{hours // 24 // 365}y" if dy == 0 else f"{hours // 24 // 365}y{dy}d"
    return f"{hours // 24 // 365}y"


def age(env: Any, ts: str | None) -> str:
    if not ts:
        return "<unknown>"
    when = parse_ts(ts)
    if when is None:
        return "<unknown>"
    return human_duration((env.clock.now() - when).total_seconds())


def rfc1123(ts: str | None) -> str:
    when = parse_ts(ts)
    return when.strftime("%a, %d %b %Y %H:%M:%S +0000") if when else "<unknown>"


# ---- tables ----------------------------------------------------------------------------
def table(headers: list[str], rows: list[list[str]], no_headers: bool = False) -> str:
    """A tabwriter table: columns padded to the widest cell plus three spaces."""
    all_rows = ([headers] if not no_headers else []) + rows
    if not all_rows:
        return ""
    widths = [
        max(len(str(r[i])) if i < len(r) else 0 for r in all_rows) for i in range(len(headers))
    ]
    lines = []
    for r in all_rows:
        cells = [str(c) for c in r]
        line = "   ".join(
            c.ljust(widths[i]) if i < len(cells) - 1 else c for i, c in enumerate(cells)
        )
        lines.append(line.rstrip())
    return "\n".join(lines) + "\n"


def _labels(obj: dict[str, Any]) -> str:
    labels = (obj.get("metadata") or {}).get("labels") or {}
    return ",".join(f"{k}={v}" for k, v in sorted(labels.items())) or "<none>"


def _selector(sel: dict[str, Any] | None) -> str:
    if not sel:
        return "<none>"
    parts = [f"{k}={v}" for k, v in sorted((sel.get("matchLabels") or {}).items())]
    for expr in sel.get("matchExpressions") or []:
        op = expr.get("operator")
        vals = ",".join(expr.get("values") or [])
        parts.append(
            {
                "In": f"{expr.get('key')} in ({vals})",
                "NotIn": f"{expr.get('key')} notin ({vals})",
                "Exists": str(expr.get("key")),
                "DoesNotExist": f"!{expr.get('key')}",
            }.get(op, str(expr))
        )
    return ",".join(parts) or "<none>"


def _plain_selector(sel: dict[str, str] | None) -> str:
    return ",".join(f"{k}={v}" for k, v in sorted((sel or {}).items())) or "<none>"


def pod_status(pod: dict[str, Any]) -> tuple[str, int, int, int, str | None]:
    """(STATUS, ready containers, total containers, restarts, last restart ts) as kubectl prints them."""
    spec, st = pod.get("spec") or {}, pod.get("status") or {}
    total = len(spec.get("containers") or [])
    reason = st.get("reason") or st.get("phase") or "Unknown"
    restarts, ready, last = 0, 0, None
    initializing = False
    init_specs = spec.get("initContainers") or []
    for i, cs in enumerate(st.get("initContainerStatuses") or []):
        restarts += int(cs.get("restartCount") or 0)
        state = cs.get("state") or {}
        last = _later(last, ((cs.get("lastState") or {}).get("terminated") or {}).get("finishedAt"))
        term, wait = state.get("terminated"), state.get("waiting")
        if term and term.get("exitCode") == 0:
            continue
        if term:
            reason = "Init:" + (term.get("reason") or f"ExitCode:{term.get('exitCode')}")
        elif wait and wait.get("reason") and wait.get("reason") != "PodInitializing":
            reason = "Init:" + wait["reason"]
        else:
            reason = f"Init:{i}/{len(init_specs)}"
        initializing = True
        break
    if not initializing:
        restarts = 0
        has_running = False
        for cs in reversed(st.get("containerStatuses") or []):
            restarts += int(cs.get("restartCount") or 0)
            last = _later(
                last, ((cs.get("lastState") or {}).get("terminated") or {}).get("finishedAt")
            )
            state = cs.get("state") or {}
            wait, term = state.get("waiting"), state.get("terminated")
            if wait and wait.get("reason"):
                reason = wait["reason"]
            elif term and term.get("reason"):
                reason = term["reason"]
            elif term:
                reason = f"ExitCode:{term.get('exitCode')}"
            elif cs.get("ready") and "running" in state:
                has_running = True
                ready += 1
        if reason == "Completed" and has_running:
            conds = {c.get("type"): c.get("status") for c in st.get("conditions") or []}
            reason = "Running" if conds.get("Ready") == "True" else "NotReady"
    if (pod.get("metadata") or {}).get("deletionTimestamp"):
        reason = "Terminating"
    return reason, ready, total, restarts, last


def _later(a: str | None, b: str | None) -> str | None:
    if not b:
        return a
    if not a:
        return b
    return max(a, b)


def _restarts(env: Any, n: int, last: str | None) -> str:
    return f"{n} ({age(env, last)} ago)" if n and last else str(n)


def _ports(svc: dict[str, Any]) -> str:
    out = []
    for p in (svc.get("spec") or {}).get("ports") or []:
        s = str(p.get("port"))
        if p.get("nodePort"):
            s += f":{p['nodePort']}"
        out.append(f"{s}/{p.get('protocol', 'TCP')}")
    return ",".join(out) or "<none>"


def _external_ip(svc: dict[str, Any]) -> str:
    spec = svc.get("spec") or {}
    ips = list(spec.get("externalIPs") or [])
    if spec.get("type") == "LoadBalancer":
        ing = ((svc.get("status") or {}).get("loadBalancer") or {}).get("ingress") or []
        ips += [i.get("ip") or i.get("hostname") for i in ing]
        return ",".join(ips) if ips else "<pending>"
    if spec.get("type") == "ExternalName":
        return spec.get("externalName", "<none>")
    return ",".join(ips) or "<none>"


def _endpoints(ep: dict[str, Any]) -> str:
    addrs = []
    for s in ep.get("subsets") or []:
        ports = [p.get("port") for p in s.get("ports") or []] or [None]
        for a in s.get("addresses") or []:
            for port in ports:
                addrs.append(f"{a.get('ip')}:{port}" if port else str(a.get("ip")))
    if not addrs:
        return "<none>"
    shown = ",".join(addrs[:3])
    return shown + (f" + {len(addrs) - 3} more..." if len(addrs) > 3 else "")


def _containers(tmpl_spec: dict[str, Any]) -> tuple[str, str]:
    cs = tmpl_spec.get("containers") or []
    return ",".join(c.get("name", "") for c in cs), ",".join(c.get("image", "") for c in cs)


def _node_roles(node: dict[str, Any]) -> str:
    roles = sorted(
        k.split("/", 1)[1]
        for k in ((node.get("metadata") or {}).get("labels") or {})
        if k.startswith("node-role.kubernetes.io/")
    )
    return ",".join(roles) or "<none>"


def _node_status(node: dict[str, Any]) -> str:
    conds = {
        c.get("type"): c.get("status") for c in (node.get("status") or {}).get("conditions") or []
    }
    status = {"True": "Ready", "False": "NotReady"}.get(conds.get("Ready", ""), "Unknown")
    if (node.get("spec") or {}).get("unschedulable"):
        status += ",SchedulingDisabled"
    return status


def _address(node: dict[str, Any], kind: str) -> str:
    for a in (node.get("status") or {}).get("addresses") or []:
        if a.get("type") == kind:
            return a.get("address", "<none>")
    return "<none>"


def _hpa_targets(hpa: dict[str, Any]) -> str:
    spec, st = hpa.get("spec") or {}, hpa.get("status") or {}
    current = {}
    for m in st.get("currentMetrics") or []:
        res = m.get("resource") or {}
        cur = (res.get("current") or {}).get("averageUtilization")
        if res.get("name"):
            current[res["name"]] = cur
    out = []
    for m in spec.get("metrics") or []:
        res = m.get("resource") or {}
        target = (res.get("target") or {}).get("averageUtilization")
        if res.get("name") and target is not None:
            cur = current.get(res["name"])
            out.append(f"{res['name']}: {'<unknown>' if cur is None else f'{cur}%'}/{target}%")
    return ", ".join(out) or "<none>"


def _pdb_value(spec: dict[str, Any], key: str) -> str:
    value = spec.get(key)
    return "N/A" if value is None else str(value)


def _subjects(binding: dict[str, Any], kind: str) -> str:
    out = []
    for s in binding.get("subjects") or []:
        if s.get("kind") != kind:
            continue
        if kind == "ServiceAccount":
            out.append(
                f"{s.get('namespace') or (binding.get('metadata') or {}).get('namespace', '')}/{s.get('name')}"
            )
        else:
            out.append(str(s.get("name")))
    return ", ".join(out)


def _ingress_hosts(ing: dict[str, Any]) -> str:
    hosts = [r.get("host") for r in (ing.get("spec") or {}).get("rules") or [] if r.get("host")]
    return ",".join(hosts) or "*"


def _ingress_address(ing: dict[str, Any]) -> str:
    ing_st = ((ing.get("status") or {}).get("loadBalancer") or {}).get("ingress") or []
    return ",".join(i.get("ip") or i.get("hostname") or "" for i in ing_st)


def _ingress_ports(ing: dict[str, Any]) -> str:
    return "80, 443" if (ing.get("spec") or {}).get("tls") else "80"


Column = tuple[str, Callable[[Any, dict[str, Any]], str]]


def _c(name: str, fn: Callable[[Any, dict[str, Any]], Any]) -> Column:
    return name, lambda env, o: str(fn(env, o))


_AGE = _c("AGE", lambda env, o: age(env, o["metadata"].get("creationTimestamp")))


def _pod_cols(wide: bool) -> list[Column]:
    def ready(env: Any, o: dict[str, Any]) -> str:
        _, r, t, _, _ = pod_status(o)
        return f"{r}/{t}"

    cols = [
        _c("NAME", lambda env, o: o["metadata"]["name"]),
        _c("READY", ready),
        _c("STATUS", lambda env, o: pod_status(o)[0]),
        _c("RESTARTS", lambda env, o: _restarts(env, pod_status(o)[3], pod_status(o)[4])),
        _AGE,
    ]
    if wide:
        cols += [
            _c("IP", lambda env, o: (o.get("status") or {}).get("podIP") or "<none>"),
            _c("NODE", lambda env, o: (o.get("spec") or {}).get("nodeName") or "<none>"),
            _c(
                "NOMINATED NODE",
                lambda env, o: (o.get("status") or {}).get("nominatedNodeName") or "<none>",
            ),
            _c("READINESS GATES", lambda env, o: "<none>"),
        ]
    return cols


def _workload_wide(o: dict[str, Any]) -> list[str]:
    names, images = _containers(((o.get("spec") or {}).get("template") or {}).get("spec") or {})
    return [names, images, _selector((o.get("spec") or {}).get("selector"))]


def columns(plural: str, wide: bool) -> list[Column]:
    """The printer columns of ``kubectl get <plural>`` (``-o wide`` adds the wide ones)."""
    name = _c("NAME", lambda env, o: o["metadata"]["name"])

    def st(o: dict[str, Any]) -> Any:
        return o.get("status") or {}

    def sp(o: dict[str, Any]) -> Any:
        return o.get("spec") or {}

    if plural == "pods":
        return _pod_cols(wide)
    if plural == "deployments":
        cols = [
            name,
            _c(
                "READY",
                lambda env, o: f"{st(o).get('readyReplicas', 0)}/{sp(o).get('replicas', 1)}",
            ),
            _c("UP-TO-DATE", lambda env, o: st(o).get("updatedReplicas", 0)),
            _c("AVAILABLE", lambda env, o: st(o).get("availableReplicas", 0)),
            _AGE,
        ]
        if wide:
            cols += [
                _c("CONTAINERS", lambda env, o: _workload_wide(o)[0]),
                _c("IMAGES", lambda env, o: _workload_wide(o)[1]),
                _c("SELECTOR", lambda env, o: _workload_wide(o)[2]),
            ]
        return cols
    if plural == "replicasets":
        cols = [
            name,
            _c("DESIRED", lambda env, o: sp(o).get("replicas", 0)),
            _c("CURRENT", lambda env, o: st(o).get("replicas", 0)),
            _c("READY", lambda env, o: st(o).get("readyReplicas", 0)),
            _AGE,
        ]
        if wide:
            cols += [
                _c("CONTAINERS", lambda env, o: _workload_wide(o)[0]),
                _c("IMAGES", lambda env, o: _workload_wide(o)[1]),
                _c("SELECTOR", lambda env, o: _workload_wide(o)[2]),
            ]
        return cols
    if plural == "statefulsets":
        return [
            name,
            _c(
                "READY",
                lambda env, o: f"{st(o).get('readyReplicas', 0)}/{sp(o).get('replicas', 1)}",
            ),
            _AGE,
        ]
    if plural == "daemonsets":
        return [
            name,
            _c("DESIRED", lambda env, o: st(o).get("desiredNumberScheduled", 0)),
            _c("CURRENT", lambda env, o: st(o).get("currentNumberScheduled", 0)),
            _c("READY", lambda env, o: st(o).get("numberReady", 0)),
            _c("UP-TO-DATE", lambda env, o: st(o).get("updatedNumberScheduled", 0)),
            _c("AVAILABLE", lambda env, o: st(o).get("numberAvailable", 0)),
            _c(
                "NODE SELECTOR",
                lambda env, o: _plain_selector(
                    ((sp(o).get("template") or {}).get("spec") or {}).get("nodeSelector")
                ),
            ),
            _AGE,
        ]
    if plural == "services":
        cols = [
            name,
            _c("TYPE", lambda env, o: sp(o).get("type", "ClusterIP")),
            _c("CLUSTER-IP", lambda env, o: sp(o).get("clusterIP") or "<none>"),
            _c("EXTERNAL-IP", lambda env, o: _external_ip(o)),
            _c("PORT(S)", lambda env, o: _ports(o)),
            _AGE,
        ]
        if wide:
            cols.append(_c("SELECTOR", lambda env, o: _plain_selector(sp(o).get("selector"))))
        return cols
    if plural == "endpoints":
        return [name, _c("ENDPOINTS", lambda env, o: _endpoints(o)), _AGE]
    if plural == "configmaps":
        return [
            name,
            _c("DATA", lambda env, o: len(o.get("data") or {}) + len(o.get("binaryData") or {})),
            _AGE,
        ]
    if plural == "secrets":
        return [
            name,
            _c("TYPE", lambda env, o: o.get("type", "Opaque")),
            _c("DATA", lambda env, o: len(o.get("data") or {})),
            _AGE,
        ]
    if plural == "namespaces":
        return [name, _c("STATUS", lambda env, o: st(o).get("phase", "Active")), _AGE]
    if plural == "nodes":
        cols = [
            name,
            _c("STATUS", lambda env, o: _node_status(o)),
            _c("ROLES", lambda env, o: _node_roles(o)),
            _AGE,
            _c(
                "VERSION",
                lambda env, o: (st(o).get("nodeInfo") or {}).get("kubeletVersion", "v1.29.4"),
            ),
        ]
        if wide:

            def info(o: dict[str, Any]) -> Any:
                return st(o).get("nodeInfo") or {}

            cols += [
                _c("INTERNAL-IP", lambda env, o: _address(o, "InternalIP")),
                _c("EXTERNAL-IP", lambda env, o: _address(o, "ExternalIP")),
                _c("OS-IMAGE", lambda env, o: info(o).get("osImage", "Amazon Linux 2")),
                _c(
                    "KERNEL-VERSION",
                    lambda env, o: info(o).get("kernelVersion", "5.10.217-205.860.amzn2.x86_64"),
                ),
                _c(
                    "CONTAINER-RUNTIME",
                    lambda env, o: info(o).get("containerRuntimeVersion", "containerd://1.7.11"),
                ),
            ]
        return cols
    if plural == "events":
        return [
            _c(
                "LAST SEEN",
                lambda env, o: age(
                    env,
                    o.get("lastTimestamp")
                    or o.get("eventTime")
                    or o["metadata"].get("creationTimestamp"),
                ),
            ),
            _c("TYPE", lambda env, o: o.get("type", "Normal")),
            _c("REASON", lambda env, o: o.get("reason", "")),
            _c(
                "OBJECT",
                lambda env, o: (
                    f"{str((o.get('involvedObject') or {}).get('kind', '')).lower()}/"
                    f"{(o.get('involvedObject') or {}).get('name', '')}"
                ),
            ),
            _c("MESSAGE", lambda env, o: o.get("message", "")),
        ]
    if plural == "ingresses":
        return [
            name,
            _c("CLASS", lambda env, o: sp(o).get("ingressClassName") or "<none>"),
            _c("HOSTS", lambda env, o: _ingress_hosts(o)),
            _c("ADDRESS", lambda env, o: _ingress_address(o)),
            _c("PORTS", lambda env, o: _ingress_ports(o)),
            _AGE,
        ]
    if plural == "networkpolicies":
        return [
            name,
            _c(
                "POD-SELECTOR",
                lambda env, o: _selector(sp(o).get("podSelector")).replace("<none>", "<none>"),
            ),
            _AGE,
        ]
    if plural == "horizontalpodautoscalers":
        return [
            name,
            _c(
                "REFERENCE",
                lambda env, o: (
                    f"{(sp(o).get('scaleTargetRef') or {}).get('kind')}/"
                    f"{(sp(o).get('scaleTargetRef') or {}).get('name')}"
                ),
            ),
            _c("TARGETS", lambda env, o: _hpa_targets(o)),
            _c("MINPODS", lambda env, o: sp(o).get("minReplicas", 1)),
            _c("MAXPODS", lambda env, o: sp(o).get("maxReplicas", "")),
            _c("REPLICAS", lambda env, o: st(o).get("currentReplicas", 0)),
            _AGE,
        ]
    if plural == "persistentvolumeclaims":
        return [
            name,
            _c("STATUS", lambda env, o: st(o).get("phase", "Pending")),
            _c("VOLUME", lambda env, o: sp(o).get("volumeName", "")),
            _c("CAPACITY", lambda env, o: (st(o).get("capacity") or {}).get("storage", "")),
            _c(
                "ACCESS MODES",
                lambda env, o: ",".join(_short_modes(st(o).get("accessModes") or [])),
            ),
            _c("STORAGECLASS", lambda env, o: sp(o).get("storageClassName", "")),
            _AGE,
        ]
    if plural == "persistentvolumes":
        return [
            name,
            _c("CAPACITY", lambda env, o: (sp(o).get("capacity") or {}).get("storage", "")),
            _c(
                "ACCESS MODES",
                lambda env, o: ",".join(_short_modes(sp(o).get("accessModes") or [])),
            ),
            _c("RECLAIM POLICY", lambda env, o: sp(o).get("persistentVolumeReclaimPolicy", "")),
            _c("STATUS", lambda env, o: st(o).get("phase", "")),
            _c(
                "CLAIM",
                lambda env, o: (
                    f"{(sp(o).get('claimRef') or {}).get('namespace', '')}/"
                    f"{(sp(o).get('claimRef') or {}).get('name', '')}"
                    if sp(o).get("claimRef")
                    else ""
                ),
            ),
            _c("STORAGECLASS", lambda env, o: sp(o).get("storageClassName", "")),
            _c("REASON", lambda env, o: st(o).get("reason", "")),
            _AGE,
        ]
    if plural == "poddisruptionbudgets":
        return [
            name,
            _c("MIN AVAILABLE", lambda env, o: _pdb_value(sp(o), "minAvailable")),
            _c("MAX UNAVAILABLE", lambda env, o: _pdb_value(sp(o), "maxUnavailable")),
            _c("ALLOWED DISRUPTIONS", lambda env, o: st(o).get("disruptionsAllowed", 0)),
            _AGE,
        ]
    if plural == "serviceaccounts":
        return [name, _c("SECRETS", lambda env, o: len(o.get("secrets") or [])), _AGE]
    if plural in ("roles", "clusterroles"):
        return [name, _c("CREATED AT", lambda env, o: o["metadata"].get("creationTimestamp", ""))]
    if plural in ("rolebindings", "clusterrolebindings"):
        cols = [
            name,
            _c(
                "ROLE",
                lambda env, o: (
                    f"{(o.get('roleRef') or {}).get('kind')}/{(o.get('roleRef') or {}).get('name')}"
                ),
            ),
            _AGE,
        ]
        if wide:
            cols += [
                _c("USERS", lambda env, o: _subjects(o, "User")),
                _c("GROUPS", lambda env, o: _subjects(o, "Group")),
                _c("SERVICEACCOUNTS", lambda env, o: _subjects(o, "ServiceAccount")),
            ]
        return cols
    if plural == "jobs":
        return [
            name,
            _c(
                "COMPLETIONS",
                lambda env, o: f"{st(o).get('succeeded', 0)}/{sp(o).get('completions', 1)}",
            ),
            _c("DURATION", lambda env, o: _job_duration(o)),
            _AGE,
        ]
    if plural == "storageclasses":
        return [
            _c(
                "NAME",
                lambda env, o: (
                    o["metadata"]["name"]
                    + (
                        " (default)"
                        if (o["metadata"].get("annotations") or {}).get(
                            "storageclass.kubernetes.io/is-default-class"
                        )
                        == "true"
                        else ""
                    )
                ),
            ),
            _c("PROVISIONER", lambda env, o: o.get("provisioner", "")),
            _c("RECLAIMPOLICY", lambda env, o: o.get("reclaimPolicy", "Delete")),
            _c("VOLUMEBINDINGMODE", lambda env, o: o.get("volumeBindingMode", "Immediate")),
            _c(
                "ALLOWVOLUMEEXPANSION",
                lambda env, o: str(bool(o.get("allowVolumeExpansion"))).lower(),
            ),
            _AGE,
        ]
    if plural == "ingressclasses":
        return [
            name,
            _c("CONTROLLER", lambda env, o: sp(o).get("controller", "")),
            _c("PARAMETERS", lambda env, o: "<none>"),
            _AGE,
        ]
    if plural == "resourcequotas":
        return [
            name,
            _AGE,
            _c("REQUEST", lambda env, o: _quota(o, False)),
            _c("LIMIT", lambda env, o: _quota(o, True)),
        ]
    if plural == "applications":
        return [
            name,
            _c("SYNC STATUS", lambda env, o: (st(o).get("sync") or {}).get("status", "Unknown")),
            _c(
                "HEALTH STATUS", lambda env, o: (st(o).get("health") or {}).get("status", "Unknown")
            ),
        ]
    if plural in ("certificates", "clusterissuers"):

        def ready(env: Any, o: dict[str, Any]) -> str:
            conds = {c.get("type"): c.get("status") for c in st(o).get("conditions") or []}
            return conds.get("Ready", "Unknown")

        cols = [name, _c("READY", ready)]
        if plural == "certificates":
            cols.append(_c("SECRET", lambda env, o: sp(o).get("secretName", "")))
        return cols + [_AGE]
    return [name, _AGE]


def _short_modes(modes: list[str]) -> list[str]:
    return [
        {
            "ReadWriteOnce": "RWO",
            "ReadOnlyMany": "ROX",
            "ReadWriteMany": "RWX",
            "ReadWriteOncePod": "RWOP",
        }.get(m, m)
        for m in modes
    ]


def _job_duration(job: dict[str, Any]) -> str:
    st = job.get("status") or {}
    start, end = parse_ts(st.get("startTime")), parse_ts(st.get("completionTime"))
    if start and end:
        return human_duration((end - start).total_seconds())
    return ""


def _quota(q: dict[str, Any], limits: bool) -> str:
    hard = (q.get("status") or {}).get("hard") or (q.get("spec") or {}).get("hard") or {}
    used = (q.get("status") or {}).get("used") or {}
    keys = [k for k in sorted(hard) if k.startswith("limits.") == limits]
    return ", ".join(f"{k}: {used.get(k, '0')}/{hard[k]}" for k in keys)


def render_table(
    env: Any,
    plural: str,
    objs: list[dict[str, Any]],
    *,
    wide: bool = False,
    all_namespaces: bool = False,
    show_labels: bool = False,
    label_columns: list[str] | None = None,
    kind_prefix: bool = False,
    no_headers: bool = False,
) -> str:
    cols = columns(plural, wide)
    headers = [c[0] for c in cols]
    ns_col = all_namespaces and (plural not in KINDS or KINDS[plural][2])
    if ns_col:
        headers = ["NAMESPACE"] + headers
    extra = [lc.upper().rsplit("/", 1)[-1] for lc in label_columns or []]
    headers += extra
    if show_labels:
        headers.append("LABELS")
    rows = []
    for o in objs:
        row = [fn(env, o) for _, fn in cols]
        if kind_prefix and cols and cols[0][0] == "NAME":
            row[0] = f"{kind_label(plural)}/{row[0]}"
        if ns_col:
            row = [o["metadata"].get("namespace", "")] + row
        labels = (o.get("metadata") or {}).get("labels") or {}
        row += [labels.get(lc, "") for lc in label_columns or []]
        if show_labels:
            row.append(_labels(o))
        rows.append(row)
    return table(headers, rows, no_headers)


# ---- serialisation ------------------------------------------------------------------------
_TOP = ("apiVersion", "kind", "metadata", "spec", "status")


def _omit_empty_meta(value: Any) -> Any:
    """Go's ``omitempty``: empty label/annotation maps are not serialised."""
    if isinstance(value, dict):
        return {
            k: _omit_empty_meta(v)
            for k, v in value.items()
            if not (
                k in ("labels", "annotations", "finalizers", "ownerReferences")
                and v in ({}, [], None)
            )
        }
    if isinstance(value, list):
        return [_omit_empty_meta(v) for v in value]
    return value


def for_output(obj: Any) -> Any:
    """The object as kubectl receives it: apiVersion/kind first, no managedFields, no empty maps."""
    if not isinstance(obj, dict):
        return obj
    out = {k: obj[k] for k in _TOP if k in obj}
    out.update({k: v for k, v in obj.items() if k not in _TOP})
    meta = out.get("metadata")
    if isinstance(meta, dict) and "managedFields" in meta:
        out["metadata"] = {k: v for k, v in meta.items() if k != "managedFields"}
    if isinstance(out.get("items"), list):
        out["items"] = [for_output(i) for i in out["items"]]
    return _omit_empty_meta(out)


def as_list(items: list[dict[str, Any]]) -> dict[str, Any]:
    return {
        "apiVersion": "v1",
        "items": [for_output(i) for i in items],
        "kind": "List",
        "metadata": {"resourceVersion": ""},
    }


def to_json(obj: Any) -> str:
    return json.dumps(for_output(obj), indent=4, ensure_ascii=False) + "\n"


class _Dumper(yaml.SafeDumper):
    pass


def _str_presenter(dumper: yaml.SafeDumper, data: str) -> yaml.ScalarNode:
    if (
        "\n" in data
        and not data.strip(" ").startswith((" ",))
        and all(c.isprintable() or c == "\n" for c in data)
    ):
        return dumper.represent_scalar("tag:yaml.org,2002:str", data, style="|")
    style = None
    if (
        dumper.resolve(yaml.ScalarNode, data, (True, False)) != "tag:yaml.org,2002:str"
        or not dumper.analyze_scalar(data).allow_block_plain
        or not data
    ):
        style = '"'
    return dumper.represent_scalar("tag:yaml.org,2002:str", data, style=style)


_Dumper.add_representer(str, _str_presenter)


def to_yaml(obj: Any) -> str:
    return yaml.dump(
        for_output(obj),
        Dumper=_Dumper,
        sort_keys=True,
        default_flow_style=False,
        allow_unicode=True,
        width=10_000,
    )


def output_object(
    obj: dict[str, Any] | list[dict[str, Any]], fmt: str, plural: str | None = None
) -> str:
    """``-o json|yaml|name|jsonpath=...|custom-columns=...`` for one object or a list."""
    single = isinstance(obj, dict)
    items: list[dict[str, Any]] = [obj] if isinstance(obj, dict) else list(obj)
    doc: Any = for_output(obj) if single else as_list(items)
    kind, _, arg = fmt.partition("=")
    if kind == "json":
        return to_json(doc)
    if kind == "yaml":
        return to_yaml(doc)
    if kind == "name":
        return "".join(
            f"{kind_label(plural or _plural(i))}/{i['metadata']['name']}\n" for i in items
        )
    if kind in ("jsonpath", "jsonpath-as-json"):
        if not arg:
            raise OutputError("error: template format specified but no template given")
        template = arg.strip("'\"") if arg[:1] in "'\"" and arg[-1:] == arg[:1] else arg
        try:
            return evaluate_template(template, doc)
        except JsonPathError as exc:
            raise OutputError(f"error: error executing jsonpath {template!r}: {exc}") from None
    if kind == "custom-columns":
        if not arg:
            raise OutputError("error: custom-columns format specified but no custom columns given")
        specs = []
        for part in arg.split(","):
            head, _, path = part.partition(":")
            if not path:
                raise OutputError(
                    f"error: unexpected custom-columns spec: {part}, expected <header>:<json-path-expr>"
                )
            specs.append((head, path))
        rows = []
        for item in items:
            row = []
            for _, path in specs:
                expr = (
                    path
                    if path.startswith("{")
                    else "{" + (path if path.startswith(".") else "." + path) + "}"
                )
                try:
                    val = evaluate_template(expr, for_output(item))
                except JsonPathError:
                    val = "<none>"
                row.append(val or "<none>")
            rows.append(row)
        return table([h for h, _ in specs], rows)
    raise OutputError(
        f'error: unable to match a printer suitable for the output format "{fmt}", allowed formats '
        "are: custom-columns,custom-columns-file,go-template,go-template-file,json,jsonpath,"
        "jsonpath-as-json,jsonpath-file,name,template,templatefile,wide,yaml"
    )


def _plural(obj: dict[str, Any]) -> str:
    from ..store import plural_of

    return plural_of(obj.get("kind", "")) or str(obj.get("kind", "")).lower()


class OutputError(ValueError):
    """An output format kubectl refuses."""


# ---- quantities for top / describe ------------------------------------------------------------
def fmt_cpu_m(millis: float) -> str:
    return f"{round(millis)}m"


def fmt_mem_mi(b: float) -> str:
    return f"{round(b / 2**20)}Mi"


def cpu_m(value: Any) -> int:
    return int(cpu_millis(value) or 0)


def mem_b(value: Any) -> int:
    return int(mem_bytes(value) or 0)


def decode_secret_value(value: str) -> bytes:
    try:
        return base64.b64decode(value)
    except (ValueError, TypeError):
        return str(value).encode()
