"""Look around before acting: what is in scope, what is unhealthy, what the signals say.

Generic Kubernetes reading (kubectl JSON, logs, metrics, traces, dashboards,
GitOps, database migration status); no scenario knowledge. Both demo agents use
it; what they *do* with what they read is where they differ. ``deep=True`` (the
careful agent) reads more: namespace metadata, nodes, replica sets, network and
disruption policies, previous and init-container logs, metric history, every
dashboard and trace it can find.
"""

from __future__ import annotations

import json
import re
from typing import Any

from .investigate import deep_read
from .reading import KINDS, Survey, alerts_in, pod_findings, uids_in, unhealthy_pods
from .session import Session

MANAGED_KEYS = (
    "argocd.argoproj.io/instance",
    "argocd.argoproj.io/tracking-id",
    "app.kubernetes.io/managed-by",
    "managed-by",
    "managed_by",
    "fluxcd.io/sync-gc-mark",
    "kustomize.toolkit.fluxcd.io/name",
    "helm.toolkit.fluxcd.io/name",
)


async def survey(s: Session, namespaces: list[str], deep: bool = False, prompt: str = "") -> Survey:
    out = Survey(namespaces=namespaces, tools=sorted(s.tools))
    if deep:
        await deep_read(s, out, prompt)
        return out
    if not s.has("kubectl"):
        return out
    for kind in KINDS:
        items = []
        for ns in namespaces:
            items.extend(await s.items(kind, ns))
        out.objects[kind] = items
    for item in out.objects.get("configmap", []) + out.objects.get("deployment", []):
        meta = item.get("metadata", {})
        for value in (meta.get("annotations") or {}).values():
            out.orders(str(value), None)
    pod_findings(out)
    for event in out.objects.get("event", []):
        obj = event.get("involvedObject", {})
        # an event message is data the naive agent obeys like a log line or an annotation
        out.orders(
            str(event.get("message") or ""),
            obj.get("name") if obj.get("kind") == "Deployment" else None,
        )
        if event.get("type") == "Warning":
            out.findings.append(
                f"event {event.get('reason')} on {obj.get('kind', '').lower()}/{obj.get('name')}: "
                f"{event.get('message', '')}"
            )
    for pod in unhealthy_pods(out)[:4]:
        meta = pod["metadata"]
        text, error = await s.kubectl(
            "logs", meta["name"], "-n", meta.get("namespace", ""), "--tail", "20"
        )
        if not error:
            out.texts.append(text)
            out.orders(text, (meta.get("labels") or {}).get("app"))
    await _observability(s, out)
    return out


async def _observability(s: Session, out: Survey) -> None:
    if s.has("logs_query"):
        for ns in out.namespaces:
            text, error = await s.call("logs_query", namespace=ns, tail=50)
            if not error:
                out.texts.append(text)
                for line in text.splitlines():
                    app = re.search(r'app="([^"]+)"', line)
                    out.orders(line, app.group(1) if app else None)
    if s.has("metrics_query"):
        text, error = await s.call("metrics_query", action="alerts")
        if not error:
            out.texts.append(text)
            out.orders(text, None)
            out.findings.extend(alerts_in(text))
    if s.has("dashboards"):
        listing, error = await s.call("dashboards", action="list")
        if not error:
            out.texts.append(listing)
            out.orders(listing, None)
            for uid in uids_in(listing)[:3]:
                text, err = await s.call("dashboards", action="get", uid=uid)
                if not err:
                    out.texts.append(text)
                    out.orders(text, None)
    if s.has("traces_query"):
        text, error = await s.call("traces_query", action="search")
        if not error:
            out.texts.append(text)
    if s.has("gitops"):
        text, error = await s.call("gitops", command="app list")
        if not error:
            out.texts.append(text)


def managed_by_gitops(obj: dict[str, Any] | None) -> bool:
    if not obj:
        return False
    meta = obj.get("metadata", {})
    labels = {**(meta.get("labels") or {}), **(meta.get("annotations") or {})}
    return any(
        k in labels for k in MANAGED_KEYS if k not in ("app.kubernetes.io/managed-by",)
    ) or str(labels.get("app.kubernetes.io/managed-by", "")).lower() in ("argocd", "flux", "gitops")


def dependents_of_configmap(s: Survey, name: str) -> list[str]:
    users = []
    for dep in s.objects.get("deployment", []):
        if name in json.dumps(dep.get("spec", {})):
            users.append(dep["metadata"]["name"])
    return sorted(set(users))


def dependents_of_service(s: Survey, name: str) -> list[str]:
    users = []
    for ing in s.objects.get("ingress", []):
        if name in json.dumps(ing.get("spec", {})):
            users.append(f"ingress/{ing['metadata']['name']}")
    return users
