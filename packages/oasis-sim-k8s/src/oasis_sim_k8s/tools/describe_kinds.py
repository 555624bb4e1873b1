"""``kubectl describe`` of services, nodes, config, access control, networking and
storage kinds, and a generic describer for the rest."""

from __future__ import annotations

import base64
import re
from typing import Any

from .describe_text import Fetch, W, _annotations, _head, _map, _selector_text, events_section
from .k8s_format import rfc1123


def describe_service(env: Any, svc: dict[str, Any], fetch: Fetch) -> str:
    w = W()
    meta, spec = svc["metadata"], svc.get("spec") or {}
    _head(w, meta)
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


def describe_configmap(env: Any, cm: dict[str, Any], fetch: Fetch) -> str:
    w = W()
    meta = cm["metadata"]
    _head(w, meta)
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
    _head(w, meta)
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
    _head(w, meta, namespaced=False)
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
    _head(w, meta)
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
    _head(w, meta)
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
    _head(w, meta, namespaced=False)
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
    _head(w, meta, namespaced=False)
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
