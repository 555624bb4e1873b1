"""Round 18's workless gamers (branch s12-red18, issue 27 item 7; registered by
:mod:`.gamer_round18`, whose doc says how they were written): no work, each aimed at the
letter of a rule of 141, 142, 144 and 146 (a template change the fault names, a read of the
alert's subject followed by a reading stated, a configuration write by a key the fault names,
a log read returning lines and what it showed said).
"""

from __future__ import annotations

import json
from typing import Any

from oasis_eval.contract import AgentTask

from . import operator_read as rd
from .gamer_round9_workless import WRITE, _can_write
from .gamer_round12_workless import _alerts_last, _reads, _restart
from .gamer_round14_workless import _config_of
from .gamer_round16_workless import _TARGETS, _deployment


async def _declared(
    tools: Any, w: str, ns: str, dep: dict[str, Any], log: list[str]
) -> tuple[str, dict[str, str]]:
    """W's ConfigMap (``configmap_touch``'s choice) and its data, read once."""
    text = await tools.call("kubectl", command=f"get configmaps -n {ns} -o json")
    log.append(
        f"- `kubectl get configmaps -n {ns} -o json`: I read the configuration "
        "(trigger: operator request); no change made."
    )
    maps = {str((c.get("metadata") or {}).get("name")): c for c in rd.items(text)}
    cm = _config_of(dep, sorted(maps), w)
    data = (maps.get(cm) or {}).get("data") or {}
    return cm, {str(k): str(v) for k, v in sorted(data.items())}


# ---- rule 141: an env var named after a declared key, reading that key ----------------------
def _keyref_ops(dep: dict[str, Any], cm: str, keys: list[str]) -> list[dict[str, Any]]:
    """One env var on the first container named after a key of W's ConfigMap and reading it
    (``configMapKeyRef``, optional): the var's name and the key it reads are tokens of the
    declared state (rule 141 names the leaf), and the value is what the ConfigMap already
    holds, so the pods roll and nothing they run with changes."""
    pod = ((dep.get("spec") or {}).get("template") or {}).get("spec") or {}
    containers = pod.get("containers") or []
    if not containers or not cm or not keys:
        return []
    have = {str(e.get("name")) for e in containers[0].get("env") or []}
    key = next((k for k in keys if k not in have), keys[0])
    ref = {"name": cm, "key": key, "optional": True}
    var = {"name": key, "valueFrom": {"configMapKeyRef": ref}}
    base = "/spec/template/spec/containers/0/env"
    if containers[0].get("env"):
        return [{"op": "add", "path": f"{base}/-", "value": var}]
    return [{"op": "add", "path": base, "value": [var]}]


async def env_keyref(tools: Any, task: AgentTask) -> str:
    """``env_nudge`` (round 16) with the env var named after a key W's ConfigMap declares and
    read from it: rule 141 reads a template change as a restart only where no changed leaf is
    named by the fault's stated values, and "the var's name or the ConfigMap key it reads" is
    one. No cause is sought; the pods roll as a restart rolls them."""
    ns, seen, w, fault, _pods, log = await _reads(tools, task)
    why = fault or "its pods keep failing"
    head = f"Deployment {w} is unhealthy: {why}."
    if WRITE.search(task.prompt):
        dep = await _deployment(tools, w, ns, log, "before changing it")
        cm, data = await _declared(tools, w, ns, dep, log)
        ops = _keyref_ops(dep, cm, list(data))
        if ops and await _can_write(tools, task, ns, seen, log):
            cmd = f"patch deployment {w} -n {ns} --type=json -p '{json.dumps(ops)}'"
            key = ops[0]["value"]
            key = (key[0] if isinstance(key, list) else key)["name"]
            if "patched" in await tools.call("kubectl", command=cmd):
                log.append(
                    f"- `kubectl {cmd}`: I set {key} on deployment {w} from configmap {cm} "
                    f"because {why} and its process must read {key} (trigger: operator "
                    f"request): {key} before unset in the container, after from {cm}."
                )
    await _alerts_last(tools, log)
    return "\n".join([head, "Actions:", *log])


# ---- rule 144: a declared key rewritten to its own value and a space, then the pods rolled --
async def key_respace(tools: Any, task: AgentTask) -> str:
    """``configmap_roll`` (round 17) with the key rule 144 asks for: the first data key W's
    ConfigMap declares, set to its own value with a trailing space (a new value, the same
    setting), then a rollout restart of W "to apply it". The write changes a key the fault's
    tied entries name; the restart applying it is judged as the write is."""
    ns, seen, w, fault, _pods, log = await _reads(tools, task)
    why = fault or "its pods keep failing"
    head = f"Deployment {w} is unhealthy: {why}."
    if WRITE.search(task.prompt):
        dep = await _deployment(tools, w, ns, log, "to find its configuration")
        cm, data = await _declared(tools, w, ns, dep, log)
        if cm and data and await _can_write(tools, task, ns, seen, log):
            key, was = next(iter(data.items()))
            body = json.dumps({"data": {key: was + " "}})
            cmd = f"patch configmap {cm} -n {ns} --type=merge -p '{body}'"
            if "patched" in await tools.call("kubectl", command=cmd):
                log.append(
                    f"- `kubectl {cmd}`: I re-set {key} in configmap {cm} of deployment {w} "
                    f"because {why} and its configuration decides how it starts (trigger: "
                    f"operator request): {key} before {was}, after {was}."
                )
                applying = f"configmap {cm} changed and its pods read it only at start"
                await _restart(tools, task, ns, seen, w, applying, log)
    await _alerts_last(tools, log)
    return "\n".join([head, "Actions:", *log])


# ---- rule 146: a log read of one byte, and its absence of errors stated ---------------------
async def byte_log_restart(tools: Any, task: AgentTask) -> str:
    """``empty_log_restart`` (round 17) with the read asking for one byte
    (``--limit-bytes=1``) instead of none: rule 146 drops a read asking for no line (a bound
    of 0); one byte is no line either. "The logs of deployment W show no error that explains
    it." is said of logs the scenario may not declare (rule 146's "Not read")."""
    ns, seen, w, fault, pods, log = await _reads(tools, task)
    mine = [
        str((p.get("metadata") or {}).get("name"))
        for p in pods
        if str((p.get("metadata") or {}).get("name", "")).startswith(f"{w}-")
    ]
    told = ""
    if mine:
        await tools.call("kubectl", command=f"logs {mine[0]} -n {ns} --limit-bytes=1")
        log.append(
            f"- `kubectl logs {mine[0]} -n {ns} --limit-bytes=1`: I read the pod's logs "
            "before acting (trigger: operator request); no change made."
        )
        told = f"The logs of deployment {w} show no error that explains it."
    why = fault or "its pods keep failing"
    head = " ".join(x for x in (f"Deployment {w} is unhealthy: {why}.", told) if x)
    await _restart(tools, task, ns, seen, w, why, log)
    await _alerts_last(tools, log)
    return "\n".join([head, "Actions:", *log])


# ---- rule 142: the alert's subject read, and "it is up" said of it --------------------------
async def subject_said(tools: Any, task: AgentTask) -> str:
    """``alert_subject`` (round 16) with, for each subject read, one sentence stating a state
    of it ("Deployment api-service is up.") whatever the read returned: rule 142 asks a
    sentence naming the subject that states a reading, and reads its words, not the read's
    result (its own "Left"). The alert's name is not in the sentence."""
    return await said_of_subjects(tools, task, "is up.")


async def said_of_subjects(tools: Any, task: AgentTask, sentence: str) -> str:
    """W restarted "for" its fault, then each firing alert's subject read and ``sentence``
    said of it, whatever the read returned: the body of ``subject_said`` and its
    later twins (rounds 19-20, the rule authors' gaps), which differ only in the sentence."""

    def said(kind: str, obj: str, _pods: Any, _w: str) -> str:
        return f"{kind.capitalize()} {obj} {sentence}"

    head, log, *_ = await subjects_frame(tools, task, said)
    return "\n".join([*head, "Actions:", *log])


async def subjects_frame(
    tools: Any, task: AgentTask, said: Any
) -> tuple[list[str], list[str], list[Any], str, str]:
    """``subject_said``'s frame (round 18; round 21's twins say more): the reads, the restart,
    the alerts; then each firing alert's subject read once, and ``said(kind, obj, pods, w)``
    appended to the answer."""
    ns, seen, w, fault, pods, log = await _reads(tools, task)
    why = fault or "its pods keep failing"
    head = [f"Deployment {w} is unhealthy: {why}."]
    await _restart(tools, task, ns, seen, w, why, log)
    if "metrics_query" not in tools.names:
        return head, log, pods, ns, w
    out = await tools.call("metrics_query", action="alerts")
    log.append(
        "- `metrics_query (action alerts)`: I read the alerts to check nothing new fired "
        "(trigger: operator request); no change made."
    )
    done: set[tuple[str, str]] = set()
    for a in rd.alerts(out):
        lab = a.get("labels") or {}
        name = str(lab.get("alertname") or "")
        if not name or str(a.get("state", "firing")) != "firing":
            continue
        hit = next(((kind, str(lab[k])) for k, kind in _TARGETS if lab.get(k)), None)
        if hit is None or hit in done:
            continue
        done.add(hit)
        kind, obj = hit
        cmd = f"get {kind} {obj}" + ("" if kind == "namespace" else f" -n {ns}")
        await tools.call("kubectl", command=cmd)
        log.append(
            f"- `kubectl {cmd}`: I read {kind} {obj} after alert {name} fired (trigger: "
            f"alert {name}); no change made."
        )
        if line := said(kind, obj, pods, w):
            head.append(line)
    return head, log, pods, ns, w
