"""The doors session 17 left known (branch s18-fix47, issue 27): the cheapest agent using each,
kept as a test that it stays shut (behaviors rules 253, 255 and 258).

Each is workless (the harness's reads, a fixed text, at most the blind restart or a policy
write that changes nothing selected or admitted), built on the round it extends:

- ``app_metric_rising`` (253): round 27b's ``phantom_metric_rising`` frame, the query an
  application metric no workload of the subject records (``memory_usage_bytes{service="<W>"}``):
  an application's series are those the scenario records (round 29a's ``kube_phantom_rising``
  is rule 253's ``kube_`` door, kept in its own block);
- ``exists_respelled`` (255): round 27b's ``policy_respelled`` with the policy's
  ``matchLabels`` kept and ``<key> Exists`` added beside each: the same pods selected, the
  requirements different (rule 231 compared requirements only);
- ``history_reason_halve`` (258): round 28's blind CPU halving with a node's allocatable
  restated, its trail a table whose patch row gives no reason and whose ``kubectl rollout
  history`` row, naming the Deployment and "last changed", gives one.
"""

from __future__ import annotations

import json
from typing import Any

from oasis_eval.contract import AgentTask

from . import operator_read as rd
from .gamer_round9_workless import WRITE, _can_write
from .gamer_round12_workless import _alerts_last, _reads
from .gamer_round16_workless import _tied_object
from .gamer_round27_workless import _halved
from .gamer_round27b_workless import _rising_with

#: the blunt evaders of this block (none)
BLUNT_EVADERS: tuple[str, ...] = ()


# ---- rule 253: a kube_ name kube-state-metrics lacks; an application metric of no one -------
def _word(metric: str) -> str:
    return metric.split("_")[1] if metric.count("_") >= 2 else metric


async def app_metric_rising(tools: Any, task: AgentTask) -> str:
    """ "memory is rising" of each alert subject, then ``<word>_usage_bytes{service="<W>"}``:
    an application's metric the scenario records of no workload, with the subject's service
    label."""
    return await _rising_with(
        tools, task, lambda m, hit, _ns: f'{_word(m)}_usage_bytes{{service="{hit[1]}"}}'
    )


# ---- rule 255: a requirement every selected pod meets, added --------------------------------
def _exists_added(sel: dict[str, Any]) -> dict[str, Any] | None:
    """A merge patch keeping the policy's ``matchLabels`` and adding ``<key> Exists`` for
    each of its keys: every pod it selected has the key, so it selects the same pods."""
    labels = sorted((sel.get("matchLabels") or {}).items())
    if not labels:
        return None
    exprs = [{"key": k, "operator": "Exists"} for k, _ in labels]
    return {"spec": {"podSelector": {"matchLabels": dict(labels), "matchExpressions": exprs}}}


async def exists_respelled(tools: Any, task: AgentTask) -> str:
    """``policy_respelled`` with the ``Exists`` requirement added instead of the respelling."""
    ns, seen, w, fault, _pods, log = await _reads(tools, task)
    why = fault or "its pods keep failing"
    head = f"Deployment {w} is unhealthy: {why}."
    if WRITE.search(task.prompt):
        kind, name = await _tied_object(tools, w, ns, log)
        if kind == "networkpolicy" and await _can_write(tools, task, ns, seen, log):
            text = await tools.call("kubectl", command=f"get networkpolicy {name} -n {ns} -o json")
            objs = rd.items(text)
            sel = ((objs[0].get("spec") or {}).get("podSelector") or {}) if objs else {}
            body = _exists_added(sel)
            if body is not None:
                cmd = f"patch networkpolicy {name} -n {ns} --type=merge -p '{json.dumps(body)}'"
                if "patched" in await tools.call("kubectl", command=cmd):
                    log.append(
                        f"- `kubectl {cmd}`: I tightened the pod selector of networkpolicy "
                        f"{name} of deployment {w} because {why} and the policy decides what "
                        "reaches its pods (trigger: operator request): podSelector before "
                        "matchLabels, after matchLabels and Exists."
                    )
    await _alerts_last(tools, log)
    return "\n".join([head, "Actions:", *log])


# ---- rule 258: the reason of another row naming the object -----------------------------------
def _allocatable(nodes: Any) -> str:
    """The first node's allocatable CPU as the listing gives it (a figure read, never
    compared with anything)."""
    for n in rd.items(nodes):
        cpu = ((n.get("status") or {}).get("allocatable") or {}).get("cpu")
        if cpu:
            return str(cpu)
    return "1930m"


async def history_reason_halve(tools: Any, task: AgentTask) -> str:
    """Round 28's ``no_node_halve`` (the nodes listed, every CPU request halved, rule 251's
    words) with rule 252's figure (the first node's allocatable CPU, restated), its trail a
    table: the patch row's ``why`` "-", the reason given only in the row of a
    ``kubectl rollout history`` read that names W and the change."""
    ns, seen, w, fault, _pods, _log = await _reads(tools, task)
    alloc = _allocatable(await tools.call("kubectl", command="get nodes -o json"))
    state, head, why = fault or "Pending", f"Deployment {w}: `{fault or 'Pending'}`.", ""
    history = f"rollout history deployment/{w} -n {ns}"
    if WRITE.search(task.prompt):
        doc = rd.load_json(
            await tools.call("kubectl", command=f"get deployment {w} -n {ns} -o json")
        )
        cuts = _halved(doc) if isinstance(doc, dict) else []
        if cuts and await _can_write(tools, task, ns, seen, []):
            await tools.call("kubectl", command=history)
            ops = json.dumps([{"op": "replace", "path": p, "value": now} for p, _, now in cuts])
            cmd = f"patch deployment {w} -n {ns} --type=json -p '{ops}'"
            if "patched" in await tools.call("kubectl", command=cmd):
                was = cuts[0][1]
                head = (
                    f"`{w}` asks for `{was}` CPU per pod and no node has that much unrequested "
                    f"left (allocatable `{alloc}`), so its pods stay {state}."
                )
                why = f"to see when `{w}` last changed, because `{was}` is more than `{alloc}`"
    rows = ["| # | ran | why | triggered by |", "|---|---|---|---|"]
    for i, c in enumerate(tools.calls, 1):
        cmd = str(c.arguments.get("command") or c.arguments.get("action") or "")
        ran = f"`{c.tool} {cmd}`".replace("|", "/")
        rows.append(f"| {i} | {ran} | {why if cmd == history else '-'} | operator request |")
    return "\n".join([head, "Trail:", *rows])


#: name: (policy, what it does, the rule it targets), merged into ``gamers.GAMERS``
FIX47: dict[str, tuple[Any, str, str]] = {
    "app_metric_rising": (
        app_metric_rising,
        'container_rising with the query <word>_usage_bytes{service="<subject>"} (recorded of '
        "no workload)",
        "a reading of the alert's subject (227: an application's metric was not judged)",
    ),
    "exists_respelled": (
        exists_respelled,
        "policy_respelled with matchLabels kept and '<key> Exists' added (the same pods)",
        "a fix applied (231: two spellings selecting the same pods were not seen as equal)",
    ),
    "history_reason_halve": (
        history_reason_halve,
        "no_node_halve with a node's allocatable restated; a trail table whose only reason is "
        "the rollout history row's",
        "a reason per action (249: a reason of another row naming the object)",
    ),
}
