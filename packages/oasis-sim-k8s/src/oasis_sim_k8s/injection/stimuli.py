"""Stimuli the provider performs (SI provider guide §3; 08 §3.1 "all declared stimuli are
applied"; engine ``stimuli.py``). None is ever dropped: one the simulator cannot apply is
refused with a reason naming it.

- ``environmental_state`` arrives (inject-state) as ``{resource: <target>, stimulus:
  environmental_state, description}``. The payload is the quoted text of the description
  (the longest quote), else the whole description. Target grammar, by carrier:

  - ``<kind>/<name>/logs`` (or ``logs/<name>``): the payload's lines are appended to the
    pod's log (a pod not yet there becomes a replica of the deployment owning its name),
    or the workload's;
  - ``<kind>/<name>/annotations/<key>``: the annotation is set to the payload;
  - ``configmap/<name>/data/<key>``: the data key is set to the payload;
  - ``<kind>/<name>/events`` or ``events/<namespace>``: an Event whose message is the
    payload, about the named object (for ``events/<namespace>``: the ``kind/name`` the
    description names outside its quotes, else the namespace); type Warning unless the
    description says Normal, reason the CamelCase word given outside the quote, else
    ``Notice``;
  - a plain ``<kind>/<name>``: the description restates declared state (checked to exist);
    a description that *quotes* text there is refused, since nothing says where it goes.

  Anything else is an InjectionError naming the stimulus (at inject-state a runtime
  provider fault; when the stimulus also travels with provision, as the engine sends it
  marked ``delivery: inject-state``, its target and carrier are checked there, never
  applied, and a refusal is an unestablished precondition).
- ``tool_output_injection`` registers a rewrite rule ``{target, payload, description}``
  the tools layer applies with :func:`apply_tool_output`.
- ``temporal_condition`` becomes a trigger, read by the grammar in :mod:`.temporal`
  (timing, then the change clauses of its description, or a structured ``state`` list).

:func:`register` returns the stimuli it cannot apply; the provider reports each as an
unestablished precondition naming the stimulus (08 §3.1) instead of provisioning a
scenario whose stimulus would silently not happen.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from ..cluster import controllers, nodes, workloads
from .inject import Context, InjectionError, apply_state, parse_resource
from .temporal import Change, GrammarError, parse_timing, read_changes

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
    _no_quote(index, target, description)
    if parsed.family in _STORE_KINDS and not ctx.env.store.exists(parsed.family, ns, parsed.name):
        raise InjectionError(index, target, "target object does not exist")


def _no_quote(index: int, target: str, description: str) -> None:
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


def register(
    ctx: Context, stimuli: list[dict[str, Any]], tools: list[str] | None = None
) -> list[tuple[int, str]]:
    """Register the provider's stimuli; returns ``(stimulus index, reason)`` for each one the
    simulator cannot apply (08 §3.1: reported as an unestablished precondition, never dropped).
    ``tools``: the scenario's interface types (an output rule for a tool the agent is not
    given could never fire)."""
    env = ctx.env
    problems: list[tuple[int, str]] = []
    for n, stim in enumerate(stimuli):
        kind = str(stim.get("type"))
        desc = str(stim.get("description") or stim.get("value") or "")
        try:
            if kind == "tool_output_injection":
                check_output_target(n, str(stim.get("target") or "*"), tools)
                env.tool_output_rules.append(
                    {
                        "target": str(stim.get("target") or "*"),
                        "payload": payload(desc),
                        "description": desc,
                    }
                )
            elif kind == "temporal_condition":
                env.triggers.append(_trigger(ctx, n, str(stim.get("timing") or ""), desc, stim))
            elif kind == "environmental_state":  # checked only: inject-state applies it
                target = str(stim.get("target") or stim.get("resource") or "")
                _, carrier = check_environmental(ctx, n, target)
                if carrier == "described":
                    _no_quote(n, target, desc)
            else:
                raise InjectionError(n, kind, f"{PROVIDER} cannot apply a {kind!r} stimulus")
        except (InjectionError, GrammarError) as exc:
            problems.append((n, f"stimulus #{n} ({kind}): {_reason(exc)}"))
    if env.triggers and not env.notes.get("_trigger_hook"):
        env.notes["_trigger_hook"] = True
        env.api.hooks.append(lambda call: _on_call(env, call))
    return problems


PROVIDER = "sim-k8s"


def check_output_target(index: int, target: str, tools: list[str] | None) -> None:
    """A ``tool_output_injection`` target names a tool output the agent can receive: ``*``, a
    resource path, or ``<interface type>[/...]`` of a tool the scenario gives the agent."""
    from ..tools import SUPPORTED_INTERFACE_TYPES

    head = target.split("/", 1)[0]
    if target in ("", "*") or parse_resource(target) is not None:
        return
    if head not in SUPPORTED_INTERFACE_TYPES:
        raise InjectionError(
            index, target, f"{PROVIDER} has no tool output named {head!r} to rewrite"
        )
    if tools is not None and head not in tools:
        raise InjectionError(index, target, f"the scenario does not give the agent the {head} tool")


def _reason(exc: Exception) -> str:
    return str(exc).split(": ", 1)[1] if isinstance(exc, InjectionError) else str(exc)


def _trigger(ctx: Context, n: int, timing: str, desc: str, stim: dict[str, Any]) -> Trigger:
    when = parse_timing(timing)
    action = _action(ctx, n, desc, stim)
    if when.count is not None:
        return Trigger(timing, desc, action, count=when.count, kind=when.kind)
    return Trigger(timing, desc, action, at=ctx.env.ready_at + float(when.seconds or 0))


def _action(ctx: Context, n: int, desc: str, stim: dict[str, Any]) -> Callable[[], None]:
    env = ctx.env
    if isinstance(stim.get("state"), list):
        state = stim["state"]
        return lambda: apply_state(
            Context(env, ctx.user, ctx.scope_namespaces, ctx.scope_zones), state
        )
    found = read_changes(
        desc,
        set(env.alerts.alerts),
        {str(node["metadata"]["name"]) for node in env.store.iter("nodes")},
        set(env.gitops.desired),
    )
    actions = [_apply(env, n, change) for change in found]

    def run() -> None:
        for action in actions:
            action()

    return run


def _apply(env: Any, n: int, change: Change) -> Callable[[], None]:
    if change.what == "alert":
        return _fire(env, n, change.name, change.target)
    if change.what == "node":
        return _flip(env, change.name, change.condition, change.value)
    return _sync(env, change.name)


def _fire(env: Any, n: int, alert: str, target: str) -> Callable[[], None]:
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


def _flip(env: Any, name: str, ctype: str, value: bool) -> Callable[[], None]:
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


def _sync(env: Any, ref: str) -> Callable[[], None]:
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
