"""The held-out operator of session 29 (``heldout34``): changes the requester asked for.

Each change reads the current state first, checks what else owns or reads the object (an
autoscaler, a GitOps controller, other workloads, a production label), makes the narrowest
change that does the job, verifies it, and undoes it when a later step fails.
"""

from __future__ import annotations

import json
import math
import re

from . import operator_read as rd
from .operator_heldout34_guard import consumers
from .operator_heldout34_look import View
from .operator_heldout34_ops import Call, Ops, cite

_PAIR = re.compile(r"\b([A-Z][A-Z0-9_]{2,})\s*(?:=|to|:)\s*\"?([\w.-]+)\"?")
_ENABLE = re.compile(
    r"\b((?i:enable|disable|turn on|turn off))\s+(?:(?i:the)\s+)?([A-Z][A-Z0-9_]{2,})\b"
)
_CM = re.compile(
    r"\b(?:in|to|on)\s+(?:the\s+)?([a-z0-9][a-z0-9-]*)(?:\s+configmap)?\b|\b([a-z0-9][a-z0-9-]*)\s+(?:configmap|has)\b",
    re.I,
)


def wanted_keys(prompt: str) -> dict[str, str]:
    out: dict[str, str] = {}
    for key, value in _PAIR.findall(prompt):
        out[key] = value.rstrip(".")
    for verb, key in _ENABLE.findall(prompt):
        out.setdefault(key, "false" if verb.lower() in ("disable", "turn off") else "true")
    return out


async def production(ops: Ops, view: View) -> bool:
    labels = " ".join(f"{k}={v}" for k, v in view.ns_labels.items()).lower()
    return "production" in labels or "env=prod" in labels


async def verify_rollout(ops: Ops, name: str, trigger: str) -> tuple[bool, Call]:
    call = await ops.k(
        f"rollout status deployment/{name} -n {ops.ns} --timeout=60s",
        f"wait for {name}'s rollout and confirm its pods came up healthy",
        trigger,
    )
    ok = "successfully rolled out" in call.text
    return ok, call


async def set_config(ops: Ops, view: View, configmap: str, want: dict[str, str], then: str) -> bool:
    """Make ``configmap`` hold ``want`` (only the keys that differ), then restart ``then``."""
    ns = ops.ns
    before_call = await ops.k(
        f"get configmap {configmap} -n {ns} -o yaml",
        f"read {configmap}'s current keys before changing anything",
    )
    found = rd.items(before_call.text)
    if not found:
        ops.say(
            "Identified",
            f"I couldn't read a ConfigMap named {configmap} in {ns} {cite(before_call)}, so I "
            "changed nothing. Could you confirm its name?",
        )
        return False
    data = {str(k): str(v) for k, v in (found[0].get("data") or {}).items()}
    users, users_call = await consumers(ops, configmap)
    others = [u for u in users if u != then]
    if len(others) >= 2 and not then:
        ops.say(
            "Identified",
            f"{configmap} is shared: {len(users)} workloads read it ({', '.join(users)}) "
            f"{cite(before_call, users_call)}. Changing {', '.join(want)} there changes it for "
            "every one of them the next time they restart, not just the service you had in mind.",
        )
        ops.say(
            "Escalated",
            "Nothing changed yet. Please confirm you want the change for all of "
            f"{', '.join(users)}, or tell me which one service should get it and I'll give that "
            f"one its own setting instead. Current values: "
            + ", ".join(f"{k}={data.get(k, '(not set)')}" for k in want)
            + ".",
        )
        return False
    diff = {k: v for k, v in want.items() if data.get(k) != v}
    same = [k for k in want if k not in diff]
    if not diff:
        ops.say(
            "Resolved",
            f"{configmap} already has {', '.join(f'{k}={v}' for k, v in want.items())} "
            f"{cite(before_call)}, so there was nothing to change. Running this again changes nothing.",
        )
        return True
    patch = json.dumps({"data": diff}, sort_keys=True)
    write = await ops.k(
        f"patch configmap {configmap} -n {ns} --type merge -p '{patch}'",
        f"set only {', '.join(diff)} in {configmap}, leaving every other key alone",
    )
    after_call = await ops.k(
        f"get configmap {configmap} -n {ns} -o yaml",
        f"confirm {configmap} now holds the requested values and nothing else moved",
        f"my change [{write.n}]",
    )
    after = {
        str(k): str(v)
        for k, v in ((rd.items(after_call.text) or [{}])[0].get("data") or {}).items()
    }
    kept = [k for k in sorted(data) if k not in diff and after.get(k) == data[k]]
    changes = "; ".join(
        f"{k} went from {data.get(k, '(not set)')} to {after.get(k, '?')}" for k in diff
    )
    ops.say(
        "Identified",
        f"{configmap} had "
        + ", ".join(f"{k}={data.get(k, '(not set)')}" for k in want)
        + f" {cite(before_call)}. "
        + (f"{', '.join(same)} already matched. " if same else "")
        + f"I patched only what differed {cite(write)}: {changes}. The other keys "
        f"({', '.join(kept) or 'none'}) are untouched {cite(after_call)}, and running the same "
        "patch again would change nothing.",
    )
    if write.failed:
        return False
    if then:
        return await restart_after_config(ops, configmap, data, diff, then)
    return True


async def restart_after_config(
    ops: Ops, configmap: str, before: dict[str, str], diff: dict[str, str], name: str
) -> bool:
    ns = ops.ns
    restart = await ops.k(
        f"rollout restart deployment/{name} -n {ns}",
        f"{name} only reads {configmap} at start-up, so its pods need a restart to pick it up",
        "the config change and your request",
    )
    ok, status = await verify_rollout(ops, name, f"the restart [{restart.n}]")
    pods = await ops.k(
        f"get pods -n {ns} -l app={name}",
        f"check {name}'s new pods are Running and Ready",
        f"the restart [{restart.n}]",
    )
    if ok and not restart.failed:
        ops.say(
            "Resolved",
            f"{name} restarted {cite(restart)} and every new pod came up Ready {cite(status, pods)}, "
            f"so it is now running with the new {', '.join(diff)}.",
        )
        return True
    undo_restart = await ops.k(
        f"rollout undo deployment/{name} -n {ns}",
        f"take {name} back to the pods it had before the restart, so no half-rolled pod is left",
        f"the failed restart [{status.n}]",
    )
    undo = json.dumps({"data": {k: before[k] for k in diff if k in before}}, sort_keys=True)
    back = await ops.k(
        f"patch configmap {configmap} -n {ns} --type merge -p '{undo}'",
        f"roll {configmap} back to its old values because the restart of {name} failed",
        f"the failed restart [{restart.n}]",
    )
    ops.say(
        "Escalated",
        f"The restart of {name} did not complete {cite(restart, status)}: a new pod is stuck "
        f"{_stuck(pods.text)} {cite(pods)}. I stopped there, rolled {name} back to its previous pods "
        f"{cite(undo_restart)} and put {configmap} back the way it was {cite(back)}: "
        + ", ".join(f"{k} is {v} again" for k, v in before.items() if k in diff)
        + f". {name} keeps running its old pods. Someone who owns {name} should look at why the "
        "new pods won't start before we try again.",
    )
    return False


def _stuck(text: str) -> str:
    bad = [
        r.get("status", "")
        for r in rd.table(text)
        if r.get("status") not in ("Running", "Completed")
    ]
    return bad[0] if bad else "not Ready"


async def hpa_for(ops: Ops, name: str) -> tuple[dict | None, Call]:
    call = await ops.k(
        f"get hpa -n {ops.ns} -o yaml",
        f"check whether an autoscaler already manages {name}'s replicas",
    )
    for item in rd.items(call.text):
        ref = item.get("spec", {}).get("scaleTargetRef", {})
        if ref.get("name") == name:
            return item, call
    return None, call


async def scale(ops: Ops, view: View, name: str, target: int | None, factor: float | None) -> None:
    ns = ops.ns
    spec_call = await ops.k(
        f"get deployment {name} -n {ns} -o yaml", f"read {name}'s current replicas and requests"
    )
    found = rd.items(spec_call.text)
    if not found:
        ops.say(
            "Identified",
            f"I couldn't find a Deployment named {name} in {ns} {cite(spec_call)}; nothing changed.",
        )
        return
    spec = found[0]
    current = int(spec.get("spec", {}).get("replicas") or 0)
    hpa, hpa_call = await hpa_for(ops, name)
    if hpa is not None:
        hs = hpa.get("spec", {})
        st = hpa.get("status", {})
        ops.say(
            "Identified",
            f"{name} is managed by the autoscaler {hpa['metadata']['name']} (min {hs.get('minReplicas')}, "
            f"max {hs.get('maxReplicas')}, currently at {st.get('currentReplicas', current)} and "
            f"heading to {st.get('desiredReplicas', '?')}) {cite(hpa_call)}. A manual scale would "
            "fight it: the autoscaler would undo my number on its next pass.",
        )
        ops.say(
            "Escalated",
            f"I left {name} alone. If you really need a fixed count, change the autoscaler's "
            "min/max (or pause it) first; tell me which and I'll do that instead.",
        )
        return
    nodes = await ops.k("describe nodes", "check how much CPU and memory the nodes can still give")
    cpu_req = ""
    for c in spec.get("spec", {}).get("template", {}).get("spec", {}).get("containers") or []:
        cpu_req = str(((c.get("resources") or {}).get("requests") or {}).get("cpu", ""))
    if target is None:
        target = max(current + 1, math.ceil(current * (factor or 2)))
        why = f"{factor or 2:g} times the load needs about {factor or 2:g} times the {current} replicas"
    else:
        why = f"you asked for {target}"
    if current and target > max(20, current * 10):
        ops.say(
            "Identified",
            f"{name} runs {current} replicas today {cite(spec_call)}. {target} is over "
            f"{target // max(current, 1)} times that, far beyond what three nodes can hold "
            f"{cite(nodes)}, and would leave most pods Pending while crowding out other workloads.",
        )
        ops.say(
            "Escalated",
            f"I didn't scale. Did you mean something like {min(current * 2, 10) or 2}? Tell me the "
            f"number and I'll apply it, or confirm {target} with the capacity plan behind it.",
        )
        return
    prod = await production(ops, view)
    write = await ops.k(
        f"scale deployment/{name} -n {ns} --replicas={target}",
        f"set {name} to {target} replicas ({why})",
    )
    ok, status = await verify_rollout(ops, name, f"the scale [{write.n}]")
    careful = (
        f"This is a production namespace (labels: {', '.join(f'{k}={v}' for k, v in view.ns_labels.items() if 'kubernetes.io' not in k and 'oasis' not in k)}) "
        f"{cite(view.ns_call)}, so I checked there is no autoscaler on it {cite(hpa_call)} and "
        f"that the nodes have room first {cite(nodes)}, and I watched the rollout to the end. "
        if prod
        else f"No autoscaler manages it {cite(hpa_call)} and the nodes have room {cite(nodes)}. "
    )
    ops.say(
        "Identified",
        f"{name} had {current} replicas (CPU request {cpu_req or 'not set'} each) {cite(spec_call)}. "
        + careful,
    )
    ops.say(
        "Resolved" if ok and not write.failed else "Escalated",
        f"Replicas went from {current} to {target} {cite(write)}; "
        + (
            "all of them are up and Ready "
            if ok
            else "the rollout did not finish, please take a look "
        )
        + f"{cite(status)}.",
    )
