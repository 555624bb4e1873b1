"""The ``environmental_state`` stimulus (SI provider guide §3.1): its payload written where
its target names, by carrier (logs, annotation, configmap data, events, or a restatement of
declared state). The target grammar is in :mod:`.stimuli`'s module doc; state injection
(:mod:`.state`) applies an entry marked ``stimulus: environmental_state`` through it.
"""

from __future__ import annotations

import re
from typing import Any

from ..cluster import controllers, workloads
from .inject import Context, InjectionError, parse_resource

_QUOTED = re.compile(r"\"([^\"]+)\"|“([^”]+)”")


def payload(description: str) -> str:
    """The quoted text of a description (the longest quote), else the description itself."""
    quotes = [a or b for a, b in _QUOTED.findall(description or "")]
    return max(quotes, key=len).strip() if quotes else (description or "").strip()


def check_environmental(ctx: Context, index: int, target: str) -> tuple[Any, str]:
    """The parsed target and its carrier (logs, annotation, data, events, described), or an
    InjectionError when the target is outside the grammar of the module doc."""
    parsed = parse_resource(target)
    if parsed is None or not parsed.name:
        raise InjectionError(
            index, target, "environmental_state needs a <kind>/<name>[/...] target"
        )
    sub = [s.lower() for s in parsed.sub]
    if sub[:1] == ["logs"] or parsed.family == "logs":
        return parsed, "logs"
    if sub[:1] == ["annotations"] and len(sub) == 2:
        return parsed, "annotation"
    if sub[:1] == ["data"] and len(sub) == 2 and parsed.family == "configmaps":
        return parsed, "data"
    if sub == ["events"] or (parsed.family == "events" and not sub):
        return parsed, "events"
    if not sub:
        return parsed, "described"
    raise InjectionError(
        index, target, f"unsupported environmental_state target path /{'/'.join(parsed.sub)}"
    )


def environmental(ctx: Context, index: int, entry: dict[str, Any]) -> None:
    """Apply one environmental_state stimulus by its target's carrier (module doc)."""
    env = ctx.env
    target = str(entry.get("resource") or "")
    description = str(entry.get("description") or "")
    text = payload(description)
    parsed, carrier = check_environmental(ctx, index, target)
    ns = str(
        entry.get("namespace")
        or (parsed.name if carrier == "events" and parsed.family == "events" else None)
        or _find_ns(env, parsed.family, parsed.name)
        or ctx.default_ns()
    )
    record = {"target": target, "namespace": ns, "payload": text, "carrier": carrier}
    if carrier == "logs":
        _log(ctx, index, parsed.family, ns, parsed.name, text)
    elif carrier == "annotation":
        _patch(
            ctx,
            index,
            target,
            parsed.family,
            ns,
            parsed.name,
            {"metadata": {"annotations": {parsed.sub[1]: text}}},
        )
    elif carrier == "data":
        _patch(ctx, index, target, "configmaps", ns, parsed.name, {"data": {parsed.sub[1]: text}})
    elif carrier == "events":
        record["event"] = _event(ctx, index, parsed, ns, description, text)
    else:
        _described(ctx, index, target, parsed, ns, description)
        record["kind"] = "described"
    env.applied_stimuli.append({"type": "environmental_state", **record})


def _patch(
    ctx: Context, index: int, target: str, family: str, ns: str, name: str, body: dict[str, Any]
) -> None:
    if ctx.env.store.get(family, ns, name) is None:
        raise InjectionError(index, target, "target object does not exist")
    res = ctx.env.api.request(ctx.user, "patch", family, ns, name, body=body)
    if not res.ok:
        raise InjectionError(index, target, str(res.body))


def _described(
    ctx: Context, index: int, target: str, parsed: Any, ns: str, description: str
) -> None:
    """A plain ``<kind>/<name>`` target: its description restates declared state, which
    provisioning established. Quoted text has no carrier there: refused, never dropped."""
    no_quote(index, target, description)
    if parsed.family in _STORE_KINDS and not ctx.env.store.exists(parsed.family, ns, parsed.name):
        raise InjectionError(index, target, "target object does not exist")


def no_quote(index: int, target: str, description: str) -> None:
    """A plain ``<kind>/<name>`` target has no carrier for quoted text: refused, never dropped."""
    if _QUOTED.search(description):
        raise InjectionError(
            index,
            target,
            "the description quotes text to inject but the target names no carrier for it "
            "(use <kind>/<name>/logs, /annotations/<key>, /events or configmap/<name>/data/<key>)",
        )


_REASON = re.compile(r"\b(?:reason\s+)?([A-Z][a-z]+(?:[A-Z][a-z]+)+)\b")


def _event(ctx: Context, index: int, parsed: Any, ns: str, description: str, text: str) -> str:
    """An Event carrying the payload: about the named object (``<kind>/<name>/events``), or,
    for ``events/<namespace>``, about an object the description names in that namespace,
    else about the namespace. Type Warning unless the description says Normal; reason the
    CamelCase word the description gives outside the quote, else ``Notice``."""
    env = ctx.env
    if parsed.family == "events":
        ref = re.search(r"\b([a-z]+)/([a-z0-9][\w.-]*)", _QUOTED.sub(" ", description))
        about = None
        if ref:
            hit = parse_resource(f"{ref.group(1)}/{ref.group(2)}")
            about = env.store.raw(hit.family, ns, hit.name) if hit else None
        space = env.store.raw("namespaces", None, ns)
        # an event about the namespace itself, kept in that namespace (where the agent lists it)
        obj = about or (
            {**space, "metadata": {**space["metadata"], "namespace": ns}} if space else None
        )
    else:
        obj = env.store.raw(parsed.family, ns, parsed.name)
        if obj is None and parsed.family == "pods":
            adopt_pod(ctx, index, ns, parsed.name)
            obj = env.store.raw("pods", ns, parsed.name)
    if obj is None:
        raise InjectionError(index, f"{parsed.kind}/{parsed.name}", "target object does not exist")
    outside = _QUOTED.sub(" ", description)
    reason = _REASON.search(outside)
    etype = "Normal" if re.search(r"\bnormal\b", outside, re.I) else "Warning"
    env.event(obj, etype, reason.group(1) if reason else "Notice", text, "oasis-stimulus")
    return f"{obj.get('kind', '').lower()}/{obj['metadata']['name']}"


_STORE_KINDS = {
    "namespaces",
    "deployments",
    "pods",
    "configmaps",
    "secrets",
    "services",
    "ingresses",
    "nodes",
}


def _find_ns(env: Any, family: str, name: str) -> str | None:
    for plural in (family, "deployments", "pods"):
        for obj in env.store.iter(plural) if plural in env.store._by else []:
            if obj["metadata"]["name"] == name and obj["metadata"].get("namespace"):
                return obj["metadata"]["namespace"]
    for dep in env.store.iter("deployments"):
        if (
            name.startswith(dep["metadata"]["name"] + "-")
            and dep["metadata"]["namespace"] not in env.system_namespaces
        ):
            return dep["metadata"]["namespace"]
    return None


def _log(ctx: Context, index: int, family: str, ns: str, name: str, text: str) -> None:
    env = ctx.env
    lines = [ln for ln in text.splitlines() if ln.strip()] or [text]
    if family == "pods":
        if not env.store.exists("pods", ns, name):
            adopt_pod(ctx, index, ns, name)
        env.logs.add_pod(ns, name, lines)
    elif family == "deployments" or env.store.exists("deployments", ns, name):
        dep = env.store.raw("deployments", ns, name)
        if dep is None:
            raise InjectionError(index, f"{family}/{name}", "target workload does not exist")
        env.logs.add_workload(
            ns, name, lines, dep["spec"]["template"]["spec"]["containers"][0].get("image")
        )
    else:
        env.logs.add_source(ns, name, lines)


def adopt_pod(ctx: Context, index: int, ns: str, name: str) -> None:
    """A stimulus names a pod that does not exist yet: it becomes one of its deployment's replicas."""
    env = ctx.env

    owner = max(
        (
            d
            for d in env.store.iter("deployments", ns)
            if name.startswith(d["metadata"]["name"] + "-")
        ),
        key=lambda d: len(d["metadata"]["name"]),
        default=None,
    )
    if owner is None:
        raise InjectionError(
            index, f"pod/{name}", "the pod does not exist and no deployment owns that name"
        )
    h = workloads.template_hash(env, owner)
    rs = env.store.raw("replicasets", ns, f"{owner['metadata']['name']}-{h}")
    if rs is None:
        raise InjectionError(
            index, f"pod/{name}", "the owning deployment has no current ReplicaSet"
        )
    victims = sorted(
        p["metadata"]["name"]
        for p in workloads.owned(env, "pods", ns, rs["metadata"]["uid"])
        if (p.get("status") or {}).get("phase") == "Running"
    )
    was = env.provisioning
    env.provisioning = True
    try:
        rs_facts = env.facts.setdefault(("replicasets", ns, rs["metadata"]["name"]), {})
        rs_facts.setdefault("pod_names", []).insert(0, name)
        if victims:
            created = env.store.raw("pods", ns, victims[-1])["metadata"]["creationTimestamp"]
            env.delete_object("pods", ns, victims[-1])
            rs_facts["pods_ago"] = env.age(created)
        controllers.reconcile(env)
    finally:
        env.provisioning = was
