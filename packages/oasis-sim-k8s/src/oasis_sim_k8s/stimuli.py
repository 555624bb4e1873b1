"""Stimuli the provider performs (SI provider guide §3; engine ``stimuli.py``).

- ``environmental_state`` arrives as ``{resource: <target>, stimulus: environmental_state,
  description}``. Targets: ``<kind>/<name>/logs`` (append the payload to the pod's
  log, or the workload's), ``<kind>/<name>/annotations/<key>``,
  ``configmap/<name>/data/<key>``, and a plain ``<kind>/<name>`` whose description
  restates declared state (checked to exist and recorded). The payload is the
  quoted text of the description when it quotes one, else the whole description.
- ``tool_output_injection`` registers a rewrite rule ``{target, payload,
  description}`` the tools layer applies with :func:`apply_tool_output`.
- ``temporal_condition`` becomes a trigger: ``after_first_tool_call``,
  ``after_<n>th_tool_call``, ``on_<n>th_query``, ``at_<N>s`` of simulated time. Its
  description is read into a state change: an alert firing, a node condition
  change, a GitOps reconciliation. Unknown timing or an unreadable description is
  an InjectionError at provision time.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from . import controllers, nodes, workloads
from .inject import Context, InjectionError, apply_state, parse_resource

ORDINALS = {"first": 1, "second": 2, "third": 3, "fourth": 4, "fifth": 5}
_QUOTED = re.compile(r"\"([^\"]+)\"|“([^”]+)”")


def payload(description: str) -> str:
    """The quoted text of a description (the longest quote), else the description itself."""
    quotes = [a or b for a, b in _QUOTED.findall(description or "")]
    return max(quotes, key=len).strip() if quotes else (description or "").strip()


def environmental(ctx: Context, index: int, entry: dict[str, Any]) -> None:
    env = ctx.env
    target = str(entry.get("resource") or "")
    text = payload(str(entry.get("description") or ""))
    parsed = parse_resource(target)
    if parsed is None or not parsed.name:
        raise InjectionError(
            index, target, "environmental_state needs a <kind>/<name>[/...] target"
        )
    ns = str(
        entry.get("namespace") or _find_ns(env, parsed.family, parsed.name) or ctx.default_ns()
    )
    sub = [s.lower() for s in parsed.sub]
    record = {"target": target, "namespace": ns, "payload": text}
    if sub[:1] == ["logs"] or parsed.family == "logs":
        _log(ctx, index, parsed.family, ns, parsed.name, text)
    elif sub[:1] == ["annotations"] and len(parsed.sub) == 2:
        obj = env.store.get(parsed.family, ns, parsed.name)
        if obj is None:
            raise InjectionError(index, target, "target object does not exist")
        res = env.api.request(
            ctx.user,
            "patch",
            parsed.family,
            ns,
            parsed.name,
            body={"metadata": {"annotations": {parsed.sub[1]: text}}},
        )
        if not res.ok:
            raise InjectionError(index, target, str(res.body))
    elif sub[:1] == ["data"] and len(parsed.sub) == 2 and parsed.family == "configmaps":
        res = env.api.request(
            ctx.user, "patch", "configmaps", ns, parsed.name, body={"data": {parsed.sub[1]: text}}
        )
        if not res.ok:
            raise InjectionError(index, target, str(res.body))
    elif not sub:
        exists = (
            env.store.exists(parsed.family, ns, parsed.name)
            if parsed.family in _STORE_KINDS
            else True
        )
        if not exists:
            raise InjectionError(index, target, "target object does not exist")
        record["kind"] = "described"
    else:
        raise InjectionError(
            index, target, f"unsupported environmental_state target path /{'/'.join(parsed.sub)}"
        )
    env.applied_stimuli.append({"type": "environmental_state", **record})


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


@dataclass
class Trigger:
    timing: str
    description: str
    action: Any
    count: int | None = None
    kind: str = "tool"
    at: float | None = None
    fired: bool = False
    seen: dict[str, int] = field(default_factory=lambda: {"tool": 0, "query": 0})


def register(ctx: Context, stimuli: list[dict[str, Any]]) -> None:
    env = ctx.env
    for n, stim in enumerate(stimuli):
        kind = str(stim.get("type"))
        desc = str(stim.get("description") or stim.get("value") or "")
        if kind == "tool_output_injection":
            env.tool_output_rules.append(
                {
                    "target": str(stim.get("target") or "*"),
                    "payload": payload(desc),
                    "description": desc,
                }
            )
        elif kind == "temporal_condition":
            env.triggers.append(_trigger(ctx, n, str(stim.get("timing") or ""), desc, stim))
        else:
            raise InjectionError(
                n, kind, "not a provider stimulus (tool_output_injection, temporal_condition)"
            )
    if env.triggers and not env.notes.get("_trigger_hook"):
        env.notes["_trigger_hook"] = True
        env.api.hooks.append(lambda call: _on_call(env, call))


def _trigger(ctx: Context, n: int, timing: str, desc: str, stim: dict[str, Any]) -> Trigger:
    action = _action(ctx, n, desc, stim)
    t = timing.strip().lower()
    m = re.match(
        r"^(?:after|on)_(?P<n>\d+(?:st|nd|rd|th)?|[a-z]+)_(?P<what>tool_call|query|call)$", t
    )
    if m:
        word = m.group("n")
        digits = re.sub(r"(st|nd|rd|th)$", "", word)
        count = ORDINALS.get(word) or (int(digits) if digits.isdigit() else None)
        if count is None:
            raise InjectionError(n, "temporal_condition", f"unsupported timing {timing!r}")
        return Trigger(
            timing,
            desc,
            action,
            count=count,
            kind="query" if m.group("what") == "query" else "tool",
        )
    m = re.match(r"^at_(?P<s>\d+(?:\.\d+)?)s$", t)
    if m:
        return Trigger(timing, desc, action, at=ctx.env.ready_at + float(m.group("s")))
    raise InjectionError(n, "temporal_condition", f"unsupported timing {timing!r}")


def _action(ctx: Context, n: int, desc: str, stim: dict[str, Any]) -> Callable[[], None]:
    env = ctx.env
    if isinstance(stim.get("state"), list):
        state = stim["state"]
        return lambda: apply_state(
            Context(env, ctx.user, ctx.scope_namespaces, ctx.scope_zones), state
        )
    text = " ".join(desc.split())
    m = re.search(r"alert (?P<a>[\w.-]+) fires(?: for (?P<t>[\w./-]+))?", text) or re.search(
        r"(?P<a>[\w.-]+) alert fires(?: for (?P<t>[\w./-]+))?", text
    )
    if m:
        alert, target = m.group("a"), (m.group("t") or "").rpartition("/")[2]
        if alert not in env.alerts.alerts and not target:
            raise InjectionError(
                n, "temporal_condition", f"alert {alert!r} is not declared and names no target"
            )

        def fire() -> None:
            labels = {"service": target} if target else {}
            words = alert.replace("-", " ")
            ann = {"summary": f"{words[:1].upper() + words[1:]} on {target}" if target else words}
            env.alerts.set(alert, "firing", labels, ann)

        return fire
    m = re.search(
        r"(?P<node>[\w.-]+) transitions to (?P<c>\w+)=(?P<v>true|false)", text, re.IGNORECASE
    )
    if m:
        name, ctype, value = m.group("node"), m.group("c"), m.group("v").lower() == "true"
        if not env.store.exists("nodes", None, name):
            raise InjectionError(n, "temporal_condition", f"node {name!r} does not exist")

        def flip() -> None:
            node = env.store.raw("nodes", None, name)
            if node and nodes.set_condition(node, ctype, value, env.clock.ts()):
                env.store.touch(node)
                env.event(
                    node,
                    "Normal" if not value else "Warning",
                    f"NodeHas{ctype}" if value else f"NodeHasNo{ctype}",
                    f"Node {name} status is now: NodeHas{ctype}"
                    if value
                    else f"Node {name} status is now: NodeHasNo{ctype}",
                    "kubelet",
                )
                if value and ctype in ("DiskPressure", "MemoryPressure"):
                    controllers.evict_node_pods(
                        env, name, "ephemeral-storage" if ctype == "DiskPressure" else "memory"
                    )
                controllers.reconcile(env)

        return flip
    m = re.search(
        r"gitops controller (?:reconciles|syncs)(?: and reverts)?(?: (?P<r>[\w./-]+))?",
        text,
        re.IGNORECASE,
    )
    if m:
        ref = (m.group("r") or "").rpartition("/")[2]

        def sync() -> None:
            apps = [
                a
                for a in env.gitops.desired
                if not ref or a == ref or any(k[2] == ref for k in env.gitops.desired[a])
            ]
            for app in apps:
                env.gitops.sync(app)
            controllers.reconcile(env)

        return sync
    raise InjectionError(
        n, "temporal_condition", f"cannot read the state change in {desc.strip()!r}"
    )


def _on_call(env: Any, call: dict[str, Any]) -> None:
    if not call.get("agent") or call.get("internal"):
        return
    for trig in env.triggers:
        if trig.fired or trig.count is None:
            continue
        trig.seen["tool"] += 1
        if call.get("verb") in ("get", "list", "watch", "query"):
            trig.seen["query"] += 1
        if trig.seen[trig.kind] >= trig.count:
            trig.fired = True
            trig.action()
            env.applied_stimuli.append(
                {
                    "type": "temporal_condition",
                    "timing": trig.timing,
                    "description": trig.description,
                    "at": env.clock.stamp(),
                }
            )


def fire_timed(env: Any) -> None:
    for trig in env.triggers:
        if not trig.fired and trig.at is not None and env.clock.seconds() >= trig.at:
            trig.fired = True
            trig.action()
            env.applied_stimuli.append(
                {
                    "type": "temporal_condition",
                    "timing": trig.timing,
                    "description": trig.description,
                    "at": env.clock.stamp(),
                }
            )


def apply_tool_output(env: Any, target: str, text: str) -> str:
    """Append each matching rule's payload to a tool's output (rules match by prefix or ``*``)."""
    for rule in env.tool_output_rules:
        want = rule["target"].rstrip("*")
        if (
            rule["target"] in ("*", "")
            or target == want
            or target.startswith(want.rstrip("/") + "/")
            or (rule["target"].endswith("*") and target.startswith(want))
        ):
            text = f"{text.rstrip()}\n{rule['payload']}" if text else rule["payload"]
    return text
