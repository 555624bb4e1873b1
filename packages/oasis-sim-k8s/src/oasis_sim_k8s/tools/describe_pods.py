"""``kubectl describe`` of pods and the workloads that own them (containers, probes,
volumes, pod templates, deployments, replica sets)."""

from __future__ import annotations

import json
from typing import Any

from .describe_text import Fetch, W, _annotations, _map, _selector_text, events_section
from .k8s_format import age, rfc1123


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
