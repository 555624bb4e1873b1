"""Discovery and cluster information: ``events``, ``api-resources``, ``api-versions``,
``cluster-info``, ``version`` and ``explain``."""

from __future__ import annotations

import json

from ...cluster.store import KINDS
from ..k8s_format import age, output_object, table, to_yaml
from .args import UsageError, resolve_type
from .session import SERVER, SERVER_VERSION, Inv, api_error


# ---- events ---------------------------------------------------------------------------------------
def cmd_events(inv: Inv) -> None:
    """``kubectl events``: the namespace's events, oldest first (``--for`` narrows to one object)."""
    p = inv.p
    ns = None if p.on("all-namespaces") else inv.ns
    params = {}
    if p.get("for"):
        t, _, n = str(p.get("for")).partition("/")
        plural = resolve_type(t) if n else None
        if not n or plural is None:
            raise UsageError(f"error: invalid value for --for: {p.get('for')}")
        params["fieldSelector"] = f"involvedObject.kind={KINDS[plural][0]},involvedObject.name={n}"
    res = inv.api("list", "events", ns, params=params)
    if not res.ok:
        inv.error(api_error(res))
        return
    items = list(res.body.get("items") or [])
    types = [t for v in p.all("types") for t in str(v).split(",") if t]
    if types:
        items = [e for e in items if e.get("type") in types]
    items.sort(key=lambda e: e.get("lastTimestamp") or e.get("eventTime") or "")
    if not items:
        inv.err.append(f"No events found in {ns} namespace.\n" if ns else "No events found.\n")
        return
    fmt = p.get("output")
    if fmt:
        inv.say(output_object(items, str(fmt), "events"))
        return
    rows = []
    for e in items:
        inv_obj = e.get("involvedObject") or {}
        rows.append(
            ([e["metadata"].get("namespace", "")] if ns is None else [])
            + [
                age(inv.env, e.get("lastTimestamp") or e["metadata"].get("creationTimestamp")),
                e.get("type", ""),
                e.get("reason", ""),
                f"{inv_obj.get('kind', '')}/{inv_obj.get('name', '')}",
                e.get("message", ""),
            ]
        )
    inv.say(
        table(
            (["NAMESPACE"] if ns is None else [])
            + ["LAST SEEN", "TYPE", "REASON", "OBJECT", "MESSAGE"],
            rows,
            no_headers=p.on("no-headers"),
        )
    )


# ---- discovery / info -------------------------------------------------------------------------------
def cmd_api_resources(inv: Inv) -> None:
    """``kubectl api-resources``: the kinds this cluster serves."""
    inv.api("get", "api", None)
    from .flags import EXTRA_TYPES

    shorts = {
        "pods": "po",
        "services": "svc",
        "configmaps": "cm",
        "namespaces": "ns",
        "nodes": "no",
        "events": "ev",
        "serviceaccounts": "sa",
        "persistentvolumeclaims": "pvc",
        "persistentvolumes": "pv",
        "resourcequotas": "quota",
        "endpoints": "ep",
        "deployments": "deploy",
        "replicasets": "rs",
        "statefulsets": "sts",
        "daemonsets": "ds",
        "ingresses": "ing",
        "networkpolicies": "netpol",
        "horizontalpodautoscalers": "hpa",
        "poddisruptionbudgets": "pdb",
        "storageclasses": "sc",
        "applications": "app,apps",
        "certificates": "cert,certs",
    }
    del EXTRA_TYPES
    rows = []
    for plural, (kind, version, nsd) in sorted(
        KINDS.items(), key=lambda kv: (kv[1][1].count("/"), kv[0])
    ):
        if (
            inv.p.get("namespaced") is not None
            and str(nsd).lower() != str(inv.p.get("namespaced")).lower()
        ):
            continue
        rows.append([plural, shorts.get(plural, ""), version, str(nsd).lower(), kind])
    inv.say(
        table(
            ["NAME", "SHORTNAMES", "APIVERSION", "NAMESPACED", "KIND"],
            rows,
            no_headers=inv.p.on("no-headers"),
        )
    )


def cmd_api_versions(inv: Inv) -> None:
    """``kubectl api-versions``: the group versions this cluster serves."""
    inv.api("get", "api", None)
    versions = sorted(
        {v for _, v, _ in KINDS.values()}
        | {"authorization.k8s.io/v1", "authentication.k8s.io/v1", "metrics.k8s.io/v1beta1"}
    )
    inv.say("\n".join(versions))


def cmd_cluster_info(inv: Inv) -> None:
    """``kubectl cluster-info``: the control plane's address."""
    res = inv.api("list", "services", "kube-system")
    if res.code == 401:
        inv.error(api_error(res))
        return
    inv.say(
        f"Kubernetes control plane is running at {SERVER}\n"
        f"CoreDNS is running at {SERVER}/api/v1/namespaces/kube-system/services/kube-dns:dns/proxy\n\n"
        "To further debug and diagnose cluster problems, use 'kubectl cluster-info dump'."
    )


def cmd_version(inv: Inv) -> None:
    """``kubectl version``: client and server versions."""
    client = {"major": "1", "minor": "29", "gitVersion": "v1.29.4", "platform": "linux/amd64"}
    server = {"major": "1", "minor": "33", "gitVersion": SERVER_VERSION, "platform": "linux/amd64"}
    if not inv.p.on("client"):
        inv.api("get", "version", None)
    fmt = inv.p.get("output")
    if fmt in ("json", "yaml"):
        doc = {"clientVersion": client, "kustomizeVersion": "v5.0.4-0.20230601165947-6ce0bf390ce3"}
        if not inv.p.on("client"):
            doc["serverVersion"] = server
        inv.say(json.dumps(doc, indent=2) if fmt == "json" else to_yaml(doc))
        return
    inv.say(
        "Client Version: v1.29.4\nKustomize Version: v5.0.4-0.20230601165947-6ce0bf390ce3"
        + ("" if inv.p.on("client") else f"\nServer Version: {SERVER_VERSION}")
    )


def cmd_explain(inv: Inv) -> None:
    """``kubectl explain``: a kind's or field's short documentation."""
    if not inv.p.args:
        raise UsageError(
            'error: You must specify the type of resource to explain. Use "kubectl api-resources" for '
            "a complete list of supported resources."
        )
    t = inv.p.args[0].split(".")[0]
    plural = resolve_type(t)
    inv.api("get", "openapi", None)
    if plural is None:
        inv.error(f'error: the server doesn\'t have a resource type "{t}"')
        return
    kind, version, _ = KINDS[plural]
    inv.say(
        f"GROUP:      {version.split('/')[0] if '/' in version else ''}\nKIND:       {kind}\n"
        f"VERSION:    {version.split('/')[-1]}\n\nDESCRIPTION:\n    {kind} is a Kubernetes {kind} object.\n\n"
        "FIELDS:\n  apiVersion\t<string>\n  kind\t<string>\n  metadata\t<ObjectMeta>\n  spec\t<Object>\n"
        "  status\t<Object>"
    )
