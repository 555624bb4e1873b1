"""``kubectl describe``: kubectl's describers for the common kinds, a generic one for
the rest, each with its ``Events:`` section. Output goes through a Go-``tabwriter``
emulation (padding 2), so alignment follows kubectl's."""

from __future__ import annotations

import base64
import json
import re
from collections.abc import Callable
from typing import Any

from ..quantity import cpu_millis, mem_bytes
from .k8s_format import age, kind_of, pod_status, rfc1123

Fetch = Callable[..., list[dict[str, Any]]]


def tabwriter(lines: list[str], padding: int = 2) -> str:
    """Go's text/tabwriter (minwidth 0, padding ``padding``, blank padding)."""
    cells = [ln.split("\t") for ln in lines]
    out: list[str] = []

    def write(a: int, b: int, widths: list[int]) -> None:
        for row in cells[a:b]:
            parts = []
            for j, c in enumerate(row):
                parts.append(c.ljust(widths[j]) if j < len(widths) and j < len(row) - 1 else c)
            out.append("".join(parts).rstrip())

    def fmt(line0: int, line1: int, widths: list[int]) -> None:
        column = len(widths)
        this = line0
        while this < line1:
            if column >= len(cells[this]) - 1:
                this += 1
                continue
            write(line0, this, widths)
            line0 = this
            width = 0
            while this < line1 and column < len(cells[this]) - 1:
                width = max(width, len(cells[this][column]) + padding)
                this += 1
            fmt(line0, this, widths + [width])
            line0 = this
        write(line0, line1, widths)

    fmt(0, len(cells), [])
    return "\n".join(out) + "\n"


class W:
    """kubectl's PrefixWriter: ``w(level, "Key:\\tvalue")``."""

    def __init__(self) -> None:
        self.lines: list[str] = []

    def __call__(self, level: int, text: str) -> None:
        prefix = "  " * level
        for ln in text.split("\n"):
            self.lines.append(prefix + ln)

    def text(self) -> str:
        return tabwriter(self.lines)


def _map(w: W, level: int, title: str, values: dict[str, Any] | None, sep: str = "=") -> None:
    items = sorted((values or {}).items())
    if not items:
        w(level, f"{title}:\t<none>")
        return
    for n, (k, v) in enumerate(items):
        shown = f"{k}{sep}{v}" if sep == "=" else f"{k}: {v}"
        w(level, f"{title + ':' if n == 0 else ''}\t{shown}")


def _annotations(w: W, level: int, meta: dict[str, Any]) -> None:
    ann = {
        k: v
        for k, v in (meta.get("annotations") or {}).items()
        if k != "kubectl.kubernetes.io/last-applied-configuration"
    }
    _map(w, level, "Annotations", ann, sep=":")


def _selector_text(sel: dict[str, Any] | None) -> str:
    if not sel:
        return "<none>"
    parts = [f"{k}={v}" for k, v in sorted((sel.get("matchLabels") or {}).items())]
    for e in sel.get("matchExpressions") or []:
        vals = ",".join(e.get("values") or [])
        parts.append(
            {
                "In": f"{e.get('key')} in ({vals})",
                "NotIn": f"{e.get('key')} notin ({vals})",
                "Exists": str(e.get("key")),
                "DoesNotExist": f"!{e.get('key')}",
            }.get(e.get("operator"), "")
        )
    return ",".join(p for p in parts if p) or "<none>"


def events_section(env: Any, w: W, obj: dict[str, Any], fetch: Fetch) -> None:
    meta = obj["metadata"]
    ns = meta.get("namespace")
    sel = f"involvedObject.name={meta['name']}"
    if ns:
        sel += f",involvedObject.namespace={ns}"
    items = fetch("events", ns or "default" if ns else None, field_selector=sel)
    items = [
        e
        for e in items
        if (e.get("involvedObject") or {}).get("kind") in (obj.get("kind"), None)
        and (
            not meta.get("uid")
            or (e.get("involvedObject") or {}).get("uid") in (None, meta.get("uid"))
        )
    ]
    if not items:
        w(0, "Events:\t<none>")
        return
    items.sort(key=lambda e: e.get("lastTimestamp") or e.get("eventTime") or "")
    w(0, "Events:")
    w(1, "Type\tReason\tAge\tFrom\tMessage")
    w(1, "----\t------\t----\t----\t-------")
    for e in items:
        count = int(e.get("count") or 1)
        first = (
            e.get("firstTimestamp") or e.get("eventTime") or e["metadata"].get("creationTimestamp")
        )
        if count > 1:
            interval = f"{age(env, e.get('lastTimestamp'))} (x{count} over {age(env, first)})"
        else:
            interval = age(env, first)
        source = (e.get("source") or {}).get("component") or e.get("reportingComponent") or ""
        w(
            1,
            f"{e.get('type', 'Normal')}\t{e.get('reason', '')}\t{interval}\t{source}\t{str(e.get('message', '')).strip()}",
        )


# ---- containers (pods and pod templates) -----------------------------------------------------
def _probe(p: dict[str, Any]) -> str:
    attrs = (
        f"delay={p.get('initialDelaySeconds', 0)}s timeout={p.get('timeoutSeconds', 1)}s "
        f"period={p.get('periodSeconds', 10)}s #success={p.get('successThreshold', 1)} "
        f"#failure={p.get('failureThreshold', 3)}"
    )
    if "httpGet" in p:
        h = p["httpGet"]
        return f"http-get {str(h.get('scheme', 'HTTP')).lower()}://{h.get('host', '')}:{h.get('port', '')}{h.get('path', '')} {attrs}"
    if "tcpSocket" in p:
        return f"tcp-socket :{p['tcpSocket'].get('port')} {attrs}"
    if "exec" in p:
        return f"exec {p['exec'].get('command')} {attrs}"
    if "grpc" in p:
        return f"grpc <pod>:{p['grpc'].get('port')} {attrs}"
    return attrs


def _env_lines(w: W, level: int, c: dict[str, Any]) -> None:
    env_vars = c.get("env") or []
    if not env_vars:
        w(level, "Environment:\t<none>")
    else:
        w(level, "Environment:")
        for var in env_vars:
            if "value" in var:
                w(level + 1, f"{var['name']}:\t{var['value']}")
                continue
            ref = var.get("valueFrom") or {}
            if "secretKeyRef" in ref:
                r = ref["secretKeyRef"]
                w(
                    level + 1,
                    f"{var['name']}:\t<set to the key '{r.get('key')}' in secret '{r.get('name')}'>\t"
                    f"Optional: {str(bool(r.get('optional'))).lower()}",
                )
            elif "configMapKeyRef" in ref:
                r = ref["configMapKeyRef"]
                w(
                    level + 1,
                    f"{var['name']}:\t<set to the key '{r.get('key')}' of config map '{r.get('name')}'>\t"
                    f"Optional: {str(bool(r.get('optional'))).lower()}",
                )
            elif "fieldRef" in ref:
                w(
                    level + 1,
                    f"{var['name']}:\t ({ref['fieldRef'].get('apiVersion', 'v1')}:{ref['fieldRef'].get('fieldPath')})",
                )
            else:
                w(level + 1, f"{var['name']}:\t<unknown>")
    sources = c.get("envFrom") or []
    if sources:
        w(level, "Environment Variables from:")
        for src in sources:
            if "configMapRef" in src:
                r = src["configMapRef"]
                w(
                    level + 1,
                    f"{r.get('name')}\tConfigMap\tOptional: {str(bool(r.get('optional'))).lower()}",
                )
            if "secretRef" in src:
                r = src["secretRef"]
                w(
                    level + 1,
                    f"{r.get('name')}\tSecret\tOptional: {str(bool(r.get('optional'))).lower()}",
                )


def _state(w: W, level: int, title: str, state: dict[str, Any]) -> None:
    if not state:
        w(level, f"{title}:\tWaiting" if title == "State" else f"{title}:\t")
        return
    if "running" in state:
        w(level, f"{title}:\tRunning")
        w(level + 1, f"Started:\t{rfc1123(state['running'].get('startedAt'))}")
    elif "waiting" in state:
        w(level, f"{title}:\tWaiting")
        if state["waiting"].get("reason"):
            w(level + 1, f"Reason:\t{state['waiting']['reason']}")
        if state["waiting"].get("message"):
            w(level + 1, f"Message:\t{state['waiting']['message']}")
    elif "terminated" in state:
        t = state["terminated"]
        w(level, f"{title}:\tTerminated")
        if t.get("reason"):
            w(level + 1, f"Reason:\t{t['reason']}")
        if t.get("message"):
            w(level + 1, f"Message:\t{t['message']}")
        w(level + 1, f"Exit Code:\t{t.get('exitCode', 0)}")
        if t.get("startedAt"):
            w(level + 1, f"Started:\t{rfc1123(t.get('startedAt'))}")
        if t.get("finishedAt"):
            w(level + 1, f"Finished:\t{rfc1123(t.get('finishedAt'))}")


def _resources(w: W, level: int, c: dict[str, Any]) -> None:
    res = c.get("resources") or {}
    for title in ("limits", "requests"):
        vals = res.get(title) or {}
        if vals:
            w(level, f"{title.capitalize()}:")
            for k, v in sorted(vals.items()):
                w(level + 1, f"{k}:\t{v}")


def _containers(
    w: W,
    level: int,
    title: str,
    specs: list[dict[str, Any]],
    statuses: list[dict[str, Any]] | None,
    template: bool = False,
) -> None:
    if not specs:
        return
    w(level, f"{title}:")
    by_name = {s.get("name"): s for s in statuses or []}
    for c in specs:
        w(level + 1 if not template else level, f"{' ' if template else ''}{c.get('name')}:")
        lv = level + 1 if template else level + 2
        st = by_name.get(c.get("name"))
        if st is not None and st.get("containerID"):
            w(lv, f"Container ID:\t{st.get('containerID')}")
        w(lv, f"Image:\t{c.get('image', '')}")
        if st is not None:
            w(lv, f"Image ID:\t{st.get('imageID', '')}")
        ports = c.get("ports") or []
        if ports:
            w(lv, f"Port:\t{ports[0].get('containerPort')}/{ports[0].get('protocol', 'TCP')}")
            w(lv, f"Host Port:\t{ports[0].get('hostPort', 0)}/{ports[0].get('protocol', 'TCP')}")
        else:
            w(lv, "Port:\t<none>")
            w(lv, "Host Port:\t<none>")
        if c.get("command"):
            w(lv, "Command:")
            for part in c["command"]:
                w(lv + 1, str(part))
        if c.get("args"):
            w(lv, "Args:")
            for part in c["args"]:
                w(lv + 1, str(part))
        if st is not None:
            _state(w, lv, "State", st.get("state") or {})
            if st.get("lastState"):
                _state(w, lv, "Last State", st.get("lastState") or {})
            w(lv, f"Ready:\t{'True' if st.get('ready') else 'False'}")
            w(lv, f"Restart Count:\t{st.get('restartCount', 0)}")
        _resources(w, lv, c)
        for key, label in (
            ("livenessProbe", "Liveness"),
            ("readinessProbe", "Readiness"),
            ("startupProbe", "Startup"),
        ):
            if c.get(key):
                w(lv, f"{label}:\t{_probe(c[key])}")
        _env_lines(w, lv, c)
        mounts = c.get("volumeMounts") or []
        if not mounts:
            w(lv, "Mounts:\t<none>")
        else:
            w(lv, "Mounts:")
            for m in mounts:
                mode = "ro" if m.get("readOnly") else "rw"
                w(lv + 1, f"{m.get('mountPath')} from {m.get('name')} ({mode})")


def _volumes(w: W, level: int, vols: list[dict[str, Any]]) -> None:
    if not vols:
        w(level, "Volumes:\t<none>")
        return
    w(level, "Volumes:")
    for v in vols:
        w(level + 1, f"{v.get('name')}:")
        if "configMap" in v:
            w(level + 2, "Type:\tConfigMap (a volume populated by a ConfigMap)")
            w(level + 2, f"Name:\t{v['configMap'].get('name')}")
            w(level + 2, f"Optional:\t{str(bool(v['configMap'].get('optional'))).lower()}")
        elif "secret" in v:
            w(level + 2, "Type:\tSecret (a volume populated by a Secret)")
            w(level + 2, f"SecretName:\t{v['secret'].get('secretName')}")
            w(level + 2, f"Optional:\t{str(bool(v['secret'].get('optional'))).lower()}")
        elif "persistentVolumeClaim" in v:
            w(
                level + 2,
                "Type:\tPersistentVolumeClaim (a reference to a PersistentVolumeClaim in the same namespace)",
            )
            w(level + 2, f"ClaimName:\t{v['persistentVolumeClaim'].get('claimName')}")
            w(
                level + 2,
                f"ReadOnly:\t{str(bool(v['persistentVolumeClaim'].get('readOnly'))).lower()}",
            )
        elif "emptyDir" in v:
            w(level + 2, "Type:\tEmptyDir (a temporary directory that shares a pod's lifetime)")
            w(level + 2, f"Medium:\t{v['emptyDir'].get('medium', '')}")
            w(level + 2, f"SizeLimit:\t{v['emptyDir'].get('sizeLimit', '<unset>')}")
        elif "projected" in v:
            w(
                level + 2,
                "Type:\tProjected (a volume that contains injected data from multiple sources)",
            )
        elif "hostPath" in v:
            w(level + 2, "Type:\tHostPath (bare host directory volume)")
            w(level + 2, f"Path:\t{v['hostPath'].get('path')}")
        else:
            w(level + 2, "Type:\t<unknown>")


# ---- kinds ---------------------------------------------------------------------------------
def describe_pod(env: Any, pod: dict[str, Any], fetch: Fetch) -> str:
    w = W()
    meta, spec, st = pod["metadata"], pod.get("spec") or {}, pod.get("status") or {}
    w(0, f"Name:\t{meta['name']}")
    w(0, f"Namespace:\t{meta.get('namespace')}")
    w(0, f"Priority:\t{spec.get('priority', 0)}")
    w(0, f"Service Account:\t{spec.get('serviceAccountName', 'default')}")
    node = spec.get("nodeName")
    host_ip = st.get("hostIP")
    w(0, f"Node:\t{node + '/' + host_ip if node and host_ip else node or '<none>'}")
    if st.get("startTime"):
        w(0, f"Start Time:\t{rfc1123(st.get('startTime'))}")
    _map(w, 0, "Labels", meta.get("labels"))
    _annotations(w, 0, meta)
    if meta.get("deletionTimestamp"):
        w(0, f"Status:\tTerminating (lasts {age(env, meta['deletionTimestamp'])})")
    else:
        w(0, f"Status:\t{st.get('phase', 'Unknown')}")
    if st.get("reason"):
        w(0, f"Reason:\t{st['reason']}")
    if st.get("message"):
        w(0, f"Message:\t{st['message']}")
    w(0, f"IP:\t{st.get('podIP', '')}")
    if st.get("podIP"):
        w(0, "IPs:")
        w(1, f"IP:\t{st.get('podIP')}")
    else:
        w(0, "IPs:\t<none>")
    owners = [r for r in meta.get("ownerReferences") or [] if r.get("controller")]
    if owners:
        w(0, f"Controlled By:\t{owners[0].get('kind')}/{owners[0].get('name')}")
    _containers(
        w,
        0,
        "Init Containers",
        spec.get("initContainers") or [],
        st.get("initContainerStatuses") or [],
    )
    _containers(w, 0, "Containers", spec.get("containers") or [], st.get("containerStatuses") or [])
    conds = st.get("conditions") or []
    if conds:
        w(0, "Conditions:")
        w(1, "Type\tStatus")
        for c in conds:
            w(1, f"{c.get('type')}\t{c.get('status')}")
    _volumes(w, 0, spec.get("volumes") or [])
    w(0, f"QoS Class:\t{st.get('qosClass', 'BestEffort')}")
    _map(w, 0, "Node-Selectors", spec.get("nodeSelector"))
    tolerations = spec.get("tolerations") or [
        {
            "key": "node.kubernetes.io/not-ready",
            "operator": "Exists",
            "effect": "NoExecute",
            "tolerationSeconds": 300,
        },
        {
            "key": "node.kubernetes.io/unreachable",
            "operator": "Exists",
            "effect": "NoExecute",
            "tolerationSeconds": 300,
        },
    ]
    for n, t in enumerate(tolerations):
        text = (
            f"{t.get('key', '')}{'=' + t['value'] if t.get('value') else ''}:{t.get('effect', '')}"
        )
        if t.get("operator") == "Exists":
            text += " op=Exists"
        if t.get("tolerationSeconds") is not None:
            text += f" for {t['tolerationSeconds']}s"
        w(0, f"{'Tolerations:' if n == 0 else ''}\t{text}")
    events_section(env, w, pod, fetch)
    return w.text()


def _template(w: W, level: int, tmpl: dict[str, Any]) -> None:
    meta, spec = tmpl.get("metadata") or {}, tmpl.get("spec") or {}
    w(level, "Pod Template:")
    _map(w, level + 1, "Labels", meta.get("labels"))
    if meta.get("annotations"):
        _map(w, level + 1, "Annotations", meta.get("annotations"), sep=":")
    if spec.get("serviceAccountName"):
        w(level + 1, f"Service Account:\t{spec['serviceAccountName']}")
    _containers(
        w, level + 1, "Init Containers", spec.get("initContainers") or [], None, template=True
    )
    _containers(w, level + 1, "Containers", spec.get("containers") or [], None, template=True)
    _volumes(w, level + 1, spec.get("volumes") or [])
    if spec.get("nodeSelector"):
        _map(w, level + 1, "Node-Selectors", spec.get("nodeSelector"))
    if spec.get("affinity"):
        w(level + 1, "Affinity:\tconfigured")


def describe_deployment(env: Any, dep: dict[str, Any], fetch: Fetch) -> str:
    w = W()
    meta, spec, st = dep["metadata"], dep.get("spec") or {}, dep.get("status") or {}
    w(0, f"Name:\t{meta['name']}")
    w(0, f"Namespace:\t{meta.get('namespace')}")
    w(0, f"CreationTimestamp:\t{rfc1123(meta.get('creationTimestamp'))}")
    _map(w, 0, "Labels", meta.get("labels"))
    _annotations(w, 0, meta)
    w(0, f"Selector:\t{_selector_text(spec.get('selector'))}")
    w(
        0,
        f"Replicas:\t{spec.get('replicas', 1)} desired | {st.get('updatedReplicas', 0)} updated | "
        f"{st.get('replicas', 0)} total | {st.get('availableReplicas', 0)} available | "
        f"{st.get('unavailableReplicas', 0)} unavailable",
    )
    strategy = spec.get("strategy") or {}
    w(0, f"StrategyType:\t{strategy.get('type', 'RollingUpdate')}")
    w(0, f"MinReadySeconds:\t{spec.get('minReadySeconds', 0)}")
    if strategy.get("type", "RollingUpdate") == "RollingUpdate":
        ru = strategy.get("rollingUpdate") or {}
        w(
            0,
            f"RollingUpdateStrategy:\t{ru.get('maxUnavailable', '25%')} max unavailable, "
            f"{ru.get('maxSurge', '25%')} max surge",
        )
    _template(w, 0, spec.get("template") or {})
    conds = st.get("conditions") or []
    if conds:
        w(0, "Conditions:")
        w(1, "Type\tStatus\tReason")
        w(1, "----\t------\t------")
        for c in conds:
            w(1, f"{c.get('type')}\t{c.get('status')}\t{c.get('reason', '')}")
    rss = [
        r
        for r in fetch("replicasets", meta.get("namespace"))
        if any(o.get("uid") == meta.get("uid") for o in r["metadata"].get("ownerReferences") or [])
    ]

    def bare(t: dict[str, Any]) -> Any:
        t = json.loads(json.dumps(t or {}))
        ((t.get("metadata") or {}).get("labels") or {}).pop("pod-template-hash", None)
        return t

    want = bare(spec.get("template") or {})
    new = [r for r in rss if bare((r.get("spec") or {}).get("template") or {}) == want][:1]
    old = [
        r
        for r in rss
        if r not in new
        and ((r.get("spec") or {}).get("replicas") or (r.get("status") or {}).get("replicas"))
    ]

    def rs_text(r: dict[str, Any]) -> str:
        return f"{r['metadata']['name']} ({(r.get('status') or {}).get('replicas', 0)}/{(r.get('spec') or {}).get('replicas', 0)} replicas created)"

    w(0, f"OldReplicaSets:\t{', '.join(rs_text(r) for r in old) or '<none>'}")
    w(0, f"NewReplicaSet:\t{', '.join(rs_text(r) for r in new) or '<none>'}")
    events_section(env, w, dep, fetch)
    return w.text()


def describe_replicaset(env: Any, rs: dict[str, Any], fetch: Fetch) -> str:
    w = W()
    meta, spec, st = rs["metadata"], rs.get("spec") or {}, rs.get("status") or {}
    w(0, f"Name:\t{meta['name']}")
    w(0, f"Namespace:\t{meta.get('namespace')}")
    w(0, f"Selector:\t{_selector_text(spec.get('selector'))}")
    _map(w, 0, "Labels", meta.get("labels"))
    _annotations(w, 0, meta)
    owners = [r for r in meta.get("ownerReferences") or [] if r.get("controller")]
    if owners:
        w(0, f"Controlled By:\t{owners[0].get('kind')}/{owners[0].get('name')}")
    w(0, f"Replicas:\t{st.get('replicas', 0)} current / {spec.get('replicas', 0)} desired")
    pods = [
        p
        for p in fetch("pods", meta.get("namespace"))
        if any(o.get("uid") == meta.get("uid") for o in p["metadata"].get("ownerReferences") or [])
    ]
    phases = {
        ph: sum(1 for p in pods if (p.get("status") or {}).get("phase") == ph)
        for ph in ("Running", "Pending", "Succeeded", "Failed")
    }
    w(
        0,
        f"Pods Status:\t{phases['Running']} Running / {phases['Pending']} Waiting / {phases['Succeeded']} Succeeded / "
        f"{phases['Failed']} Failed",
    )
    _template(w, 0, spec.get("template") or {})
    events_section(env, w, rs, fetch)
    return w.text()


def describe_service(env: Any, svc: dict[str, Any], fetch: Fetch) -> str:
    w = W()
    meta, spec = svc["metadata"], svc.get("spec") or {}
    w(0, f"Name:\t{meta['name']}")
    w(0, f"Namespace:\t{meta.get('namespace')}")
    _map(w, 0, "Labels", meta.get("labels"))
    _annotations(w, 0, meta)
    sel = spec.get("selector") or {}
    w(0, f"Selector:\t{','.join(f'{k}={v}' for k, v in sorted(sel.items())) or '<none>'}")
    w(0, f"Type:\t{spec.get('type', 'ClusterIP')}")
    w(0, "IP Family Policy:\tSingleStack")
    w(0, "IP Families:\tIPv4")
    w(0, f"IP:\t{spec.get('clusterIP', '<none>')}")
    w(0, f"IPs:\t{','.join(spec.get('clusterIPs') or [spec.get('clusterIP', '<none>')])}")
    eps = fetch("endpoints", meta.get("namespace"), field_selector=f"metadata.name={meta['name']}")
    ep = eps[0] if eps else {}
    for p in spec.get("ports") or []:
        pname = p.get("name") or "<unset>"
        w(0, f"Port:\t{pname}\t{p.get('port')}/{p.get('protocol', 'TCP')}")
        tp = p.get("targetPort", p.get("port"))
        w(0, f"TargetPort:\t{tp}/{p.get('protocol', 'TCP')}")
        if p.get("nodePort"):
            w(0, f"NodePort:\t{pname}\t{p['nodePort']}/{p.get('protocol', 'TCP')}")
        addrs = []
        for s in ep.get("subsets") or []:
            port = next(
                (
                    x.get("port")
                    for x in s.get("ports") or []
                    if x.get("name") in (p.get("name"), None)
                ),
                None,
            )
            addrs += [f"{a.get('ip')}:{port}" for a in s.get("addresses") or []]
        w(0, f"Endpoints:\t{','.join(addrs) or '<none>'}")
    w(0, f"Session Affinity:\t{spec.get('sessionAffinity', 'None')}")
    events_section(env, w, svc, fetch)
    return w.text()


def describe_node(env: Any, node: dict[str, Any], fetch: Fetch) -> str:
    w = W()
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
    if taints:
        for n, t in enumerate(taints):
            w(
                0,
                f"{'Taints:' if n == 0 else ''}\t{t.get('key')}{'=' + t['value'] if t.get('value') else ''}:{t.get('effect')}",
            )
    else:
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
    listed = fetch(
        "pods", None, field_selector=f"spec.nodeName={meta['name']}", forbidden_none=True
    )
    if listed is None:
        w(0, "Pods:\tnot authorized")
        events_section(env, w, node, fetch)
        return w.text()
    pods = [
        p for p in listed if (p.get("status") or {}).get("phase") not in ("Succeeded", "Failed")
    ]
    alloc = st.get("allocatable") or {}
    alloc_cpu, alloc_mem = (
        cpu_millis(alloc.get("cpu", 0)) or 1,
        mem_bytes(alloc.get("memory", 0)) or 1,
    )
    w(0, f"Non-terminated Pods:\t({len(pods)} in total)")
    w(1, "Namespace\tName\tCPU Requests\tCPU Limits\tMemory Requests\tMemory Limits\tAge")
    w(1, "---------\t----\t------------\t----------\t---------------\t-------------\t---")
    totals = {"rc": 0.0, "lc": 0.0, "rm": 0.0, "lm": 0.0}
    for p in pods:
        rc = lc = rm = lm = 0.0
        for c in (p.get("spec") or {}).get("containers") or []:
            res = c.get("resources") or {}
            rc += cpu_millis((res.get("requests") or {}).get("cpu", 0)) or 0
            lc += cpu_millis((res.get("limits") or {}).get("cpu", 0)) or 0
            rm += mem_bytes((res.get("requests") or {}).get("memory", 0)) or 0
            lm += mem_bytes((res.get("limits") or {}).get("memory", 0)) or 0
        totals["rc"] += rc
        totals["lc"] += lc
        totals["rm"] += rm
        totals["lm"] += lm
        w(
            1,
            f"{p['metadata'].get('namespace')}\t{p['metadata']['name']}\t{_cpu(rc)} ({int(100 * rc / alloc_cpu)}%)\t"
            f"{_cpu(lc)} ({int(100 * lc / alloc_cpu)}%)\t{_mem(rm)} ({int(100 * rm / alloc_mem)}%)\t"
            f"{_mem(lm)} ({int(100 * lm / alloc_mem)}%)\t{age(env, p['metadata'].get('creationTimestamp'))}",
        )
    w(0, "Allocated resources:")
    w(1, "(Total limits may be over 100 percent, i.e., overcommitted.)")
    w(1, "Resource\tRequests\tLimits")
    w(1, "--------\t--------\t------")
    w(
        1,
        f"cpu\t{_cpu(totals['rc'])} ({int(100 * totals['rc'] / alloc_cpu)}%)\t{_cpu(totals['lc'])} "
        f"({int(100 * totals['lc'] / alloc_cpu)}%)",
    )
    w(
        1,
        f"memory\t{_mem(totals['rm'])} ({int(100 * totals['rm'] / alloc_mem)}%)\t{_mem(totals['lm'])} "
        f"({int(100 * totals['lm'] / alloc_mem)}%)",
    )
    events_section(env, w, node, fetch)
    return w.text()


def _cpu(m: float) -> str:
    return "0" if not m else (f"{int(m // 1000)}" if m % 1000 == 0 else f"{int(m)}m")


def _mem(b: float) -> str:
    if not b:
        return "0"
    for unit, size in (("Gi", 2**30), ("Mi", 2**20), ("Ki", 2**10)):
        if b % size == 0:
            return f"{int(b // size)}{unit}"
    return str(int(b))


def describe_configmap(env: Any, cm: dict[str, Any], fetch: Fetch) -> str:
    w = W()
    meta = cm["metadata"]
    w(0, f"Name:\t{meta['name']}")
    w(0, f"Namespace:\t{meta.get('namespace')}")
    _map(w, 0, "Labels", meta.get("labels"))
    _annotations(w, 0, meta)
    lines = w.lines
    lines += ["", "Data", "===="]
    for k, v in sorted((cm.get("data") or {}).items()):
        lines += [f"{k}:", "----", str(v), ""]
    lines += ["", "BinaryData", "===="]
    for k in sorted(cm.get("binaryData") or {}):
        lines += [f"{k}: {len(base64.b64decode(cm['binaryData'][k]))} bytes"]
    lines.append("")
    events_section(env, w, cm, fetch)
    return w.text()


def describe_secret(env: Any, sec: dict[str, Any], fetch: Fetch) -> str:
    w = W()
    meta = sec["metadata"]
    w(0, f"Name:\t{meta['name']}")
    w(0, f"Namespace:\t{meta.get('namespace')}")
    _map(w, 0, "Labels", meta.get("labels"))
    _annotations(w, 0, meta)
    w.lines.append("")
    w(0, f"Type:\t{sec.get('type', 'Opaque')}")
    w.lines += ["", "Data", "===="]
    for k, v in sorted((sec.get("data") or {}).items()):
        try:
            n = len(base64.b64decode(v))
        except (ValueError, TypeError):
            n = len(str(v))
        w(0, f"{k}:\t{n} bytes")
    return w.text()


def describe_namespace(env: Any, ns: dict[str, Any], fetch: Fetch) -> str:
    w = W()
    meta = ns["metadata"]
    w(0, f"Name:\t{meta['name']}")
    _map(w, 0, "Labels", meta.get("labels"))
    _annotations(w, 0, meta)
    w(0, f"Status:\t{(ns.get('status') or {}).get('phase', 'Active')}")
    w.lines.append("")
    quotas = fetch("resourcequotas", meta["name"])
    if quotas:
        for q in quotas:
            w(0, "Resource Quotas")
            w(1, f"Name:\t{q['metadata']['name']}")
            w(1, "Resource\tUsed\tHard")
            w(1, "--------\t---\t---")
            hard = (q.get("status") or {}).get("hard") or (q.get("spec") or {}).get("hard") or {}
            used = (q.get("status") or {}).get("used") or {}
            for k in sorted(hard):
                w(1, f"{k}\t{used.get(k, '0')}\t{hard[k]}")
    else:
        w(0, "No resource quota.")
    w.lines.append("")
    w(0, "No LimitRange resource.")
    return w.text()


def describe_ingress(env: Any, ing: dict[str, Any], fetch: Fetch) -> str:
    w = W()
    meta, spec = ing["metadata"], ing.get("spec") or {}
    w(0, f"Name:\t{meta['name']}")
    _map(w, 0, "Labels", meta.get("labels"))
    w(0, f"Namespace:\t{meta.get('namespace')}")
    lb = ((ing.get("status") or {}).get("loadBalancer") or {}).get("ingress") or []
    w(0, f"Address:\t{','.join(i.get('ip') or i.get('hostname') or '' for i in lb)}")
    w(0, f"Ingress Class:\t{spec.get('ingressClassName', '<none>')}")
    default = (spec.get("defaultBackend") or {}).get("service")
    w(
        0,
        f"Default backend:\t{default.get('name') + ':' + str((default.get('port') or {}).get('number', '')) if default else '<default>'}",
    )
    if spec.get("tls"):
        w(0, "TLS:")
        for t in spec["tls"]:
            w(1, f"{t.get('secretName')} terminates {','.join(t.get('hosts') or [])}")
    w(0, "Rules:")
    w(1, "Host\tPath\tBackends")
    w(1, "----\t----\t--------")
    for r in spec.get("rules") or []:
        w(1, f"{r.get('host', '*')}\t")
        for p in (r.get("http") or {}).get("paths") or []:
            svc = (p.get("backend") or {}).get("service") or {}
            port = (svc.get("port") or {}).get("number") or (svc.get("port") or {}).get("name")
            eps = fetch(
                "endpoints",
                meta.get("namespace"),
                field_selector=f"metadata.name={svc.get('name')}",
            )
            addrs = [
                f"{a.get('ip')}:{port}"
                for e in eps
                for s in e.get("subsets") or []
                for a in s.get("addresses") or []
            ]
            w(
                2,
                f"\t{p.get('path', '/')}\t{svc.get('name')}:{port} ({','.join(addrs) or '<none>'})",
            )
    _annotations(w, 0, meta)
    events_section(env, w, ing, fetch)
    return w.text()


def describe_hpa(env: Any, hpa: dict[str, Any], fetch: Fetch) -> str:
    w = W()
    meta, spec, st = hpa["metadata"], hpa.get("spec") or {}, hpa.get("status") or {}
    w(0, f"Name:\t{meta['name']}")
    w(0, f"Namespace:\t{meta.get('namespace')}")
    _map(w, 0, "Labels", meta.get("labels"))
    _annotations(w, 0, meta)
    w(0, f"CreationTimestamp:\t{rfc1123(meta.get('creationTimestamp'))}")
    ref = spec.get("scaleTargetRef") or {}
    w(0, f"Reference:\t{ref.get('kind')}/{ref.get('name')}")
    w(0, "Metrics:\t( current / target )")
    current = {
        ((m.get("resource") or {}).get("name")): (m.get("resource") or {}).get("current") or {}
        for m in st.get("currentMetrics") or []
    }
    for m in spec.get("metrics") or []:
        res = m.get("resource") or {}
        target = (res.get("target") or {}).get("averageUtilization")
        cur = current.get(res.get("name"), {})
        cur_txt = (
            f"{cur.get('averageUtilization')}% ({cur.get('averageValue', '')})"
            if cur.get("averageUtilization") is not None
            else "<unknown>"
        )
        w(
            1,
            f"resource {res.get('name')} on pods  (as a percentage of request):\t{cur_txt} / {target}%",
        )
    w(0, f"Min replicas:\t{spec.get('minReplicas', 1)}")
    w(0, f"Max replicas:\t{spec.get('maxReplicas')}")
    w(
        0,
        f"{ref.get('kind')} pods:\t{st.get('currentReplicas', 0)} current / {st.get('desiredReplicas', 0)} desired",
    )
    conds = st.get("conditions") or []
    if conds:
        w(0, "Conditions:")
        w(1, "Type\tStatus\tReason\tMessage")
        w(1, "----\t------\t------\t-------")
        for c in conds:
            w(
                1,
                f"{c.get('type')}\t{c.get('status')}\t{c.get('reason', '')}\t{c.get('message', '')}",
            )
    events_section(env, w, hpa, fetch)
    return w.text()


def describe_netpol(env: Any, np_: dict[str, Any], fetch: Fetch) -> str:
    w = W()
    meta, spec = np_["metadata"], np_.get("spec") or {}
    w(0, f"Name:\t{meta['name']}")
    w(0, f"Namespace:\t{meta.get('namespace')}")
    w(
        0,
        f"Created on:\t{(meta.get('creationTimestamp') or '').replace('T', ' ').replace('Z', ' +0000 UTC')}",
    )
    _map(w, 0, "Labels", meta.get("labels"))
    _annotations(w, 0, meta)
    w(0, "Spec:")
    sel = _selector_text(spec.get("podSelector"))
    w(
        1,
        f"PodSelector:\t{sel if sel != '<none>' else '<none> (Allowing the specific traffic to all pods in this namespace)'}",
    )
    types = spec.get("policyTypes") or (["Ingress"] + (["Egress"] if spec.get("egress") else []))

    def peers(items: list[dict[str, Any]], level: int, word: str) -> None:
        for peer in items:
            if "podSelector" in peer and "namespaceSelector" in peer:
                w(level, f"NamespaceSelector:\t{_selector_text(peer['namespaceSelector'])}")
                w(level, f"PodSelector:\t{_selector_text(peer['podSelector'])}")
            elif "podSelector" in peer:
                w(level, f"PodSelector:\t{_selector_text(peer['podSelector'])}")
            elif "namespaceSelector" in peer:
                w(level, f"NamespaceSelector:\t{_selector_text(peer['namespaceSelector'])}")
            elif "ipBlock" in peer:
                w(level, "IPBlock:")
                w(level + 1, f"CIDR:\t{peer['ipBlock'].get('cidr')}")
                w(level + 1, f"Except:\t{', '.join(peer['ipBlock'].get('except') or [])}")
            w(level - 1, "----------")

    # ingress and egress read alike: (policy type, rules key, peers key, peer word, isolation word)
    for kind, key, peer_key, peer_word, noun in (
        ("Ingress", "ingress", "from", "From", "source"),
        ("Egress", "egress", "to", "To", "destination"),
    ):
        if kind not in types:
            w(1, f"Not affecting {key} traffic")
            continue
        rules = spec.get(key) or []
        w(1, f"Allowing {key} traffic:")
        if not rules:
            w(2, f"<none> (Selected pods are isolated for {key} connectivity)")
        for r in rules:
            ports = r.get("ports") or []
            w(
                2,
                "To Port:\t"
                + (
                    ", ".join(f"{p.get('port', '<any>')}/{p.get('protocol', 'TCP')}" for p in ports)
                    if ports
                    else "<any> (traffic allowed to all ports)"
                ),
            )
            if r.get(peer_key):
                w(2, f"{peer_word}:")
                peers(r[peer_key], 3, peer_word)
            else:
                w(2, f"{peer_word}: <any> (traffic not restricted by {noun})")
    w(1, f"Policy Types:\t{', '.join(types)}")
    return w.text()


def describe_pvc(env: Any, pvc: dict[str, Any], fetch: Fetch) -> str:
    w = W()
    meta, spec, st = pvc["metadata"], pvc.get("spec") or {}, pvc.get("status") or {}
    w(0, f"Name:\t{meta['name']}")
    w(0, f"Namespace:\t{meta.get('namespace')}")
    w(0, f"StorageClass:\t{spec.get('storageClassName', '')}")
    w(0, f"Status:\t{st.get('phase', 'Pending')}")
    w(0, f"Volume:\t{spec.get('volumeName', '')}")
    _map(w, 0, "Labels", meta.get("labels"))
    _annotations(w, 0, meta)
    w(0, f"Finalizers:\t[{' '.join(meta.get('finalizers') or ['kubernetes.io/pvc-protection'])}]")
    w(0, f"Capacity:\t{(st.get('capacity') or {}).get('storage', '')}")
    w(0, f"Access Modes:\t{','.join(st.get('accessModes') or [])}")
    w(0, f"VolumeMode:\t{spec.get('volumeMode', 'Filesystem')}")
    users = [
        p["metadata"]["name"]
        for p in fetch("pods", meta.get("namespace"))
        if any(
            (v.get("persistentVolumeClaim") or {}).get("claimName") == meta["name"]
            for v in (p.get("spec") or {}).get("volumes") or []
        )
    ]
    w(0, f"Used By:\t{', '.join(users) or '<none>'}")
    events_section(env, w, pvc, fetch)
    return w.text()


def describe_sa(env: Any, sa: dict[str, Any], fetch: Fetch) -> str:
    w = W()
    meta = sa["metadata"]
    w(0, f"Name:\t{meta['name']}")
    w(0, f"Namespace:\t{meta.get('namespace')}")
    _map(w, 0, "Labels", meta.get("labels"))
    _annotations(w, 0, meta)
    w(
        0,
        f"Image pull secrets:\t{', '.join(s.get('name', '') for s in sa.get('imagePullSecrets') or []) or '<none>'}",
    )
    w(
        0,
        f"Mountable secrets:\t{', '.join(s.get('name', '') for s in sa.get('secrets') or []) or '<none>'}",
    )
    w(0, "Tokens:\t<none>")
    events_section(env, w, sa, fetch)
    return w.text()


def describe_role(env: Any, role: dict[str, Any], fetch: Fetch) -> str:
    w = W()
    meta = role["metadata"]
    w(0, f"Name:\t{meta['name']}")
    _map(w, 0, "Labels", meta.get("labels"))
    _annotations(w, 0, meta)
    w(0, "PolicyRule:")
    w(1, "Resources\tNon-Resource URLs\tResource Names\tVerbs")
    w(1, "---------\t-----------------\t--------------\t-----")
    for r in role.get("rules") or []:
        groups = r.get("apiGroups") or [""]
        res = []
        for g in groups:
            for x in r.get("resources") or []:
                res.append(f"{x}.{g}" if g and g != "" else x)
        names = "[" + " ".join(r.get("resourceNames") or []) + "]"
        verbs = "[" + " ".join(r.get("verbs") or []) + "]"
        nonres = "[" + " ".join(r.get("nonResourceURLs") or []) + "]"
        w(1, f"{', '.join(res) or ''}\t{nonres}\t{names}\t{verbs}")
    return w.text()


def describe_binding(env: Any, b: dict[str, Any], fetch: Fetch) -> str:
    w = W()
    meta = b["metadata"]
    w(0, f"Name:\t{meta['name']}")
    _map(w, 0, "Labels", meta.get("labels"))
    _annotations(w, 0, meta)
    w(0, "Role:")
    w(1, f"Kind:\t{(b.get('roleRef') or {}).get('kind')}")
    w(1, f"Name:\t{(b.get('roleRef') or {}).get('name')}")
    w(0, "Subjects:")
    w(1, "Kind\tName\tNamespace")
    w(1, "----\t----\t---------")
    for s in b.get("subjects") or []:
        w(1, f"{s.get('kind')}\t{s.get('name')}\t{s.get('namespace', '')}")
    return w.text()


def _words(key: str) -> str:
    spaced = re.sub(r"(?<=[a-z0-9])([A-Z])", r" \1", key)
    return spaced[:1].upper() + spaced[1:]


def describe_generic(env: Any, obj: dict[str, Any], fetch: Fetch) -> str:
    """kubectl's generic describer (custom resources and kinds without a describer)."""
    w = W()
    meta = obj.get("metadata") or {}
    w(0, f"Name:\t{meta.get('name')}")
    if meta.get("namespace"):
        w(0, f"Namespace:\t{meta.get('namespace')}")
    _map(w, 0, "Labels", meta.get("labels"))
    _annotations(w, 0, meta)
    w(0, f"API Version:\t{obj.get('apiVersion')}")
    w(0, f"Kind:\t{obj.get('kind')}")

    def dump(level: int, key: str, value: Any) -> None:
        if isinstance(value, dict):
            if not value:
                return
            w(level, f"{_words(key)}:")
            for k, v in value.items():
                dump(level + 1, k, v)
        elif isinstance(value, list):
            if not value:
                return
            w(level, f"{_words(key)}:")
            for item in value:
                if isinstance(item, dict):
                    first = True
                    for k, v in item.items():
                        if isinstance(v, (dict, list)):
                            dump(level + 1, k, v)
                        else:
                            w(level + 1, f"{_words(k)}:\t{v}")
                        first = False
                    del first
                else:
                    w(level + 1, str(item))
        else:
            w(level, f"{_words(key)}:\t{value}")

    dump(
        0,
        "Metadata",
        {
            k: v
            for k, v in meta.items()
            if k in ("creationTimestamp", "generation", "resourceVersion", "uid")
        },
    )
    for key, value in obj.items():
        if key in ("apiVersion", "kind", "metadata"):
            continue
        dump(0, key, value)
    events_section(env, w, obj, fetch)
    return w.text()


DESCRIBERS: dict[str, Callable[[Any, dict[str, Any], Fetch], str]] = {
    "pods": describe_pod,
    "deployments": describe_deployment,
    "replicasets": describe_replicaset,
    "services": describe_service,
    "nodes": describe_node,
    "configmaps": describe_configmap,
    "secrets": describe_secret,
    "namespaces": describe_namespace,
    "ingresses": describe_ingress,
    "horizontalpodautoscalers": describe_hpa,
    "networkpolicies": describe_netpol,
    "persistentvolumeclaims": describe_pvc,
    "serviceaccounts": describe_sa,
    "roles": describe_role,
    "clusterroles": describe_role,
    "rolebindings": describe_binding,
    "clusterrolebindings": describe_binding,
}


def describe(env: Any, plural: str, obj: dict[str, Any], fetch: Fetch) -> str:
    return DESCRIBERS.get(plural, describe_generic)(env, obj, fetch)


__all__ = ["describe", "kind_of", "pod_status", "tabwriter"]
