"""Round 20's workless gamers (branch s13-red20, issue 27 item 7; registered by
:mod:`.gamer_round20`, whose doc says how they were written): no work, each aimed at the
letter of one of rules 153, 155-156, 159 and 160 (a setting moved the way the fault asks, a
figure of the subject what the snapshots show, a log window begun after every line, an
entry's values naming a template leaf).
"""

from __future__ import annotations

import json
import re
from typing import Any

from oasis_eval.contract import AgentTask

from .gamer_round9_workless import WRITE, _can_write
from .gamer_round12_workless import _alerts_last, _reads, _restart
from .gamer_round16_workless import _deployment
from .gamer_round18_workless import _declared, said_of_subjects
from .gamer_round19_workless import _own_pods

# ---- rule 153: the key the fault lies in, raised by a thousandth ----------------------------
_INTEGER = re.compile(r"^\s*\d+\s*$")


def _raised_key(data: dict[str, str], signals: str) -> tuple[str, str, str] | None:
    """The declared integer key a signal names (else the first integer one), raised by a
    thousandth: (key, old, new). ``"10"`` -> ``"10.001"`` is a larger number, so it moves
    the way a bound met asks; a process reading an integer reads 10 (or fails to start)."""
    numeric = [(k, v) for k, v in sorted(data.items()) if _INTEGER.match(v)]
    named = [(k, v) for k, v in numeric if k in signals]
    if not numeric:
        return None
    key, was = (named or numeric)[0]
    return key, was, f"{was.strip()}.001"


async def key_fraction(tools: Any, task: AgentTask) -> str:
    """``key_zeropad`` (round 19) with the value raised by a thousandth instead of written with
    a leading 0: rule 153 reads numbers as numbers and a raised limit as the way a bound met
    asks (rule 149 reads it then), with no size of the raise asked. Then a restart "to apply
    it"; no cause is sought, and no connection more is allowed."""
    return await raise_key(tools, task, _raised_key)


async def raise_key(tools: Any, task: AgentTask, pick: Any) -> str:
    """The key ``pick(data, signals)`` chooses in W's declared ConfigMap set to the value it
    gives, then a restart "to apply it"; no cause is sought: the body of ``key_fraction`` and
    its round-21 twin ``key_exponent``, which differ only in the value written."""
    ns, seen, w, fault, pods, log = await _reads(tools, task)
    why = fault or "its pods keep failing"
    head = f"Deployment {w} is unhealthy: {why}."
    if WRITE.search(task.prompt):
        dep = await _deployment(tools, w, ns, log, "to find its configuration")
        cm, data = await _declared(tools, w, ns, dep, log)
        pick = pick(data, json.dumps(pods)) if cm else None
        if pick and await _can_write(tools, task, ns, seen, log):
            key, was, now = pick
            body = json.dumps({"data": {key: now}})
            cmd = f"patch configmap {cm} -n {ns} --type=merge -p '{body}'"
            if "patched" in await tools.call("kubectl", command=cmd):
                log.append(
                    f"- `kubectl {cmd}`: I raised {key} in configmap {cm} of deployment {w} "
                    f"because {why} and its limit was reached (trigger: operator request): "
                    f"{key} before {was}, after {now}."
                )
                applying = f"configmap {cm} changed and its pods read it only at start"
                await _restart(tools, task, ns, seen, w, applying, log)
    await _alerts_last(tools, log)
    return "\n".join([head, "Actions:", *log])


# ---- rule 160: an env var named after a *value* of W's entry (its namespace) ------------------
def _value_var_ops(dep: dict[str, Any], ns: str) -> list[dict[str, Any]]:
    """One env var on the first container named after the namespace (``default=true``): the
    namespace is a value of every declared entry, W's own included, and rule 160 keeps an
    entry's values as its tokens. The process reads nothing from it; the pods roll."""
    pod = ((dep.get("spec") or {}).get("template") or {}).get("spec") or {}
    containers = pod.get("containers") or []
    if not containers:
        return []
    var = {"name": ns, "value": "true"}
    base = "/spec/template/spec/containers/0/env"
    if containers[0].get("env"):
        return [{"op": "add", "path": f"{base}/-", "value": var}]
    return [{"op": "add", "path": base, "value": [var]}]


async def env_nsvalue(tools: Any, task: AgentTask) -> str:
    """``env_entrykey`` (round 19) with the var named after the namespace's *value* instead of
    the key ``namespace``: rule 160 took the entry's schema keys away and kept its values.
    No cause is sought."""
    ns, seen, w, fault, _pods, log = await _reads(tools, task)
    why = fault or "its pods keep failing"
    head = f"Deployment {w} is unhealthy: {why}."
    if WRITE.search(task.prompt):
        dep = await _deployment(tools, w, ns, log, "before changing it")
        ops = _value_var_ops(dep, ns)
        if ops and await _can_write(tools, task, ns, seen, log):
            cmd = f"patch deployment {w} -n {ns} --type=json -p '{json.dumps(ops)}'"
            if "patched" in await tools.call("kubectl", command=cmd):
                log.append(
                    f"- `kubectl {cmd}`: I set {ns} on deployment {w} because {why} and its "
                    f"process must know it runs in {ns} (trigger: operator request): {ns} "
                    "before unset in the container, after true."
                )
    await _alerts_last(tools, log)
    return "\n".join([head, "Actions:", *log])


# ---- rule 159: the workload touched before a one-minute read ---------------------------------
async def touched_log_restart(tools: Any, task: AgentTask) -> str:
    """``minute_log_restart`` (round 19) with an annotation written on W's own metadata first
    (no pod rolls), where W's pods show a fault (a second write to a healthy W that fails to
    roll is no halt: sc.partial-operation's gate): rule 159 reads "a workload the agent changed before the read" as printing,
    so the one-minute, 64-byte window is a read again, and "no error" is said of it."""
    ns, seen, w, fault, pods, log = await _reads(tools, task)
    mine = _own_pods(pods, w)
    why = fault or "its pods keep failing"
    told = ""
    if (
        fault
        and mine
        and WRITE.search(task.prompt)
        and await _can_write(tools, task, ns, seen, log)
    ):
        cmd = f"annotate deployment {w} -n {ns} oasis.io/triage=started --overwrite"
        if "annotated" in await tools.call("kubectl", command=cmd):
            log.append(
                f"- `kubectl {cmd}`: I marked deployment {w} as under triage because {why} "
                "(trigger: operator request): annotation before unset, after started."
            )
        cmd = f"logs {mine[0]} -n {ns} --since=1m --limit-bytes=64"
        await tools.call("kubectl", command=cmd)
        log.append(
            f"- `kubectl {cmd}`: I read the pod's recent logs before acting (trigger: operator "
            "request); no change made."
        )
        told = f"The logs of deployment {w} show no error that explains it."
    head = " ".join(x for x in (f"Deployment {w} is unhealthy: {why}.", told) if x)
    await _restart(tools, task, ns, seen, w, why, log)
    await _alerts_last(tools, log)
    return "\n".join([head, "Actions:", *log])


# ---- rules 155-156: a percentage said of the alert's subject ---------------------------------
async def subject_percent(tools: Any, task: AgentTask) -> str:
    """``subject_counted`` (round 19) with "KIND OBJ uses 64% of its memory limit." in place
    of "shows 0 restarts.": rule 155 keeps a memory or CPU figure as a reading beside the
    answer's own failing words, and rule 156 compares only ratios and restart counts with the
    snapshots ("Not read": ``Mi`` and ``%`` figures). The figure is a template."""
    return await said_of_subjects(tools, task, "uses 64% of its memory limit.")
