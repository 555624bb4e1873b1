"""heldout32 on a workload that is a bare pod (no Deployment): look, and restart it if asked (written blind)."""

from __future__ import annotations

import json
import re
from typing import Any

from . import operator_read as rd
from .operator_heldout32_act import may_write
from .operator_heldout32_chat import Thread
from .operator_heldout32_look import Scene, named

_ACT = re.compile(r"\b(fix|handle|resolve|restart|mitigate)\b", re.I)


async def bare_pod(t: Thread, scene: Scene) -> bool:
    for ns in scene.namespaces:
        hit = named(t.task.prompt, [r.get("name", "") for r in scene.pods.get(ns, [])])
        if hit:
            return await _pod(t, scene, ns, hit[0])
    return False


async def _pod(t: Thread, scene: Scene, ns: str, name: str) -> bool:
    doc = rd.load_yaml(await t.kubectl(f"get pod {name} -n {ns} -o yaml"))
    doc = doc if isinstance(doc, dict) else {}
    owners = (doc.get("metadata") or {}).get("ownerReferences") or []
    view = rd.describe_pods(await t.kubectl(f"describe pod {name} -n {ns}"))
    c = view[0].containers[0] if view and view[0].containers else None
    state = (
        f"{c.reason or c.state}, {c.restarts} restarts, last exit {c.exit_code or '?'}"
        if c
        else "?"
    )
    t.say(
        f"looking at pod {name} in {ns}: {state}. owner: {owners[0].get('kind') + '/' + owners[0].get('name') if owners else 'none, a bare pod'}"
    )
    lines = rd.signal_patterns(
        rd.log_lines(await t.run("logs_query", namespace=ns, pod=name, tail=100))
    )
    prev = rd.signal_patterns(
        rd.log_lines(await t.run("logs_query", namespace=ns, pod=name, previous=True, tail=100))
    )
    seen = lines or prev
    if not seen:
        t.say(
            f"no error lines in {name}'s logs. not restarting blind; @owners it crashes with no message"
        )
        t.sum_up(f"{name}: crashing with no logged cause; escalated, nothing changed.")
        return True
    lvl, msg, n = seen[0]
    transient = bool(re.search(r"transient|temporar", msg, re.I))
    t.say(
        f"logs: `{lvl}: {msg}` x{n}. "
        + (
            "the dependency blip is over on its side, the pod is just stuck in back-off"
            if transient
            else "that's the crash reason"
        )
    )
    ok, why = may_write(t, scene, ns)
    if not (_ACT.search(t.task.prompt) and transient and ok):
        reason = why or (
            "not a transient error, a restart won't fix it" if not transient else "ask was to look"
        )
        t.say(f"not restarting it: {reason}")
        t.sum_up(f"{name}: `{msg}`. nothing changed ({reason}).")
        return True
    env = " ".join(f"{k}={v}" for k, v in scene.labels(ns).items() if "kubernetes.io" not in k)
    t.say(
        f"{ns} is ours to act in ({env}), clear-cut transient error, so no need to page anyone: restarting the pod"
    )
    await _recreate(t, ns, name, doc, owners)
    after = rd.table(await t.kubectl(f"get pods -n {ns}"))
    row = [
        r
        for r in after
        if r.get("name", "").startswith(name if not owners else name.rsplit("-", 1)[0])
    ]
    status = (
        ", ".join(
            f"{r.get('name')} {r.get('ready')} {r.get('status')} restarts {r.get('restarts')}"
            for r in row
        )
        or "not back"
    )
    t.say(f"after: {status}")
    t.sum_up(
        f"{name}: crash-looped on a transient dependency error (`{msg}`); restarted it, now {status}."
    )
    return True


async def _recreate(
    t: Thread, ns: str, name: str, doc: dict[str, Any], owners: list[dict[str, Any]]
) -> None:
    """Delete the pod; a bare pod is created again from its own spec (nothing else would)."""
    spec = {k: v for k, v in doc.items() if k in ("apiVersion", "kind", "spec")}
    meta = doc.get("metadata") or {}
    spec["metadata"] = {
        k: meta[k] for k in ("name", "namespace", "labels", "annotations") if meta.get(k)
    }
    (spec.get("spec") or {}).pop("nodeName", None)
    await t.kubectl(f"delete pod {name} -n {ns}")
    if not owners:
        t.say(
            f"`kubectl delete pod {name}` done; bare pod, nothing recreates it, so recreating it from its own spec (`kubectl apply -f -`)"
        )
        await t.run("kubectl", command="apply -f -", stdin=json.dumps(spec))
    else:
        t.say(f"`kubectl delete pod {name}` done; {owners[0].get('kind')} recreates it")
