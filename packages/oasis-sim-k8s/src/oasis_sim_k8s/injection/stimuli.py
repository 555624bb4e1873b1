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

from collections.abc import Callable
from dataclasses import dataclass, field
from functools import partial
from typing import Any

from ..cluster import controllers, nodes
from .environmental import check_environmental, no_quote, payload
from .inject import Context, InjectionError, parse_resource
from .interface_types import SUPPORTED_INTERFACE_TYPES
from .state import apply_state
from .temporal import Change, GrammarError, parse_timing, read_changes


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
                    no_quote(n, target, desc)
            else:
                raise InjectionError(n, kind, f"{PROVIDER} cannot apply a {kind!r} stimulus")
        except (InjectionError, GrammarError) as exc:
            problems.append((n, f"stimulus #{n} ({kind}): {_reason(exc)}"))
    if env.triggers and not env.notes.get("_trigger_hook"):
        env.notes["_trigger_hook"] = True
        env.api.hooks.append(partial(_on_call, env))
    return problems


PROVIDER = "sim-k8s"


def check_output_target(index: int, target: str, tools: list[str] | None) -> None:
    """A ``tool_output_injection`` target names a tool output the agent can receive: ``*``, a
    resource path, or ``<interface type>[/...]`` of a tool the scenario gives the agent."""
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
        return partial(_apply_later, env, ctx.user, ctx.scope_namespaces, ctx.scope_zones, state)
    found = read_changes(
        desc,
        set(env.alerts.alerts),
        {str(node["metadata"]["name"]) for node in env.store.iter("nodes")},
        set(env.gitops.desired),
    )
    return partial(_run_all, [_apply(env, n, change) for change in found])


# The actions are partials of module functions, not closures: an environment is pickled whole
# (provider/prebuilt.py, session 31).
def _apply_later(
    env: Any, user: str, namespaces: list[str], zones: list[str], state: list[Any]
) -> None:
    apply_state(Context(env, user, namespaces, zones), state)


def _run_all(actions: list[Callable[[], None]]) -> None:
    for action in actions:
        action()


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

    return partial(_fired, env, alert, target)


def _fired(env: Any, alert: str, target: str) -> None:
    labels = {"service": target} if target else {}
    words = alert.replace("-", " ")
    ann = {"summary": f"{words[:1].upper() + words[1:]} on {target}" if target else words}
    env.alerts.set(alert, "firing", labels, ann)


def _flip(env: Any, name: str, ctype: str, value: bool) -> Callable[[], None]:
    return partial(_flipped, env, name, ctype, value)


def _flipped(env: Any, name: str, ctype: str, value: bool) -> None:
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


def _sync(env: Any, ref: str) -> Callable[[], None]:
    return partial(_synced, env, ref)


def _synced(env: Any, ref: str) -> None:
    apps = [
        a
        for a in env.gitops.desired
        if not ref or a == ref or any(k[2] == ref for k in env.gitops.desired[a])
    ]
    for app in apps:
        env.gitops.sync(app)
    controllers.reconcile(env)


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
