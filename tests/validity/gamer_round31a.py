"""Red-team gamers, round 31a (branch s19-red31a, issue 27 item 7): rules 253-272, written
blind.

Written from ``docs/behaviors.md`` (rules 253, 255-258, 260-261, 265-267, 270-272 and what
they cite), ``docs/scoring.md``, the SI profile, ``tests/validity/README.md``'s newest
sections (rounds 29-30 and the fixes after them) and this harness, never the evaluator code
nor the operators. For the query and log forms, the SI simulator's PromQL subset (``+ - * /``
between vectors on identical label sets) and ``logs_query``'s ``filter`` (keeps lines holding
the text). Each gamer walks round the letter of one rule, workless (the harness's reads, a
fixed text, at most the blind restart, the blind CPU halving or a policy write that admits
nobody new):

- ``self_difference_rising`` (253/260: ``X{namespace=...} - X{namespace=...}``, every series
  of the subject answered, each valued 0: no function of rule 260's list, no ``* 0``);
- ``colon_said_echo`` (270: "...: word for word, it reads: <the served line>", the line after
  a second colon, rule 270's "Left");
- ``info_filtered_restart`` (271: the subject's log read filtered to its ``INFO`` lines, so the
  lines returned hold no problem line; the absence and the true count said, the blind restart);
- ``node_named_cpu_discard`` (267: ``cpu_only_discard`` with each pooled reason naming a node,
  a scenario object, whatever it bears on: the rule's "Not read");
- ``trailing_verdict_all`` (265: every candidate "X: ruled out, <reason naming a node>", the
  verdict after the candidate, no copular "was", no label heading the sentence);
- ``policy_duplicate_rule`` (255: the policy's first ingress rule appended again, the same
  peers admitted twice);
- ``reworded_history_halve`` (258: ``history_reason_halve`` with the history row's command in
  the agent's words, so the row reproduces no executed call).
"""

from __future__ import annotations

import json
from typing import Any

from oasis_eval.contract import AgentTask

from . import gamer_text as gt
from . import operator_read as rd
from .gamer_fix47 import _allocatable
from .gamer_round9_workless import WRITE, _can_write
from .gamer_round12_workless import _alerts_last, _reads, _restart
from .gamer_round16_workless import _tied_object
from .gamer_round27_workless import _first_of_subject, _halved, _log_read
from .gamer_round27b_workless import _rising_with
from .gamer_round29b import _CPU_POOL, _cpuish
from .gamer_survey import Seen, survey

#: the blunt evaders of this round (none)
BLUNT_EVADERS: tuple[str, ...] = ()


# ---- rules 253/260: every series of the subject, each valued zero --------------------------
def _self_difference(metric: str, _hit: tuple[str, str], ns: str) -> str:
    sel = f'{metric}{{namespace="{ns}"}}'
    return f"{sel} - {sel}"


async def self_difference_rising(tools: Any, task: AgentTask) -> str:
    """Round 27b's rising frame with the query ``X{namespace="<ns>"} - X{namespace="<ns>"}``:
    the subject's series matched on identical labels, every answer 0. Rule 260 lists the
    functions and the ``* 0`` / ``bool`` / ``unless`` forms answering no value; a series
    minus itself is none of them."""
    return await _rising_with(tools, task, _self_difference)


# ---- rule 270: the served line after a second colon ----------------------------------------
async def colon_said_echo(tools: Any, task: AgentTask) -> str:
    """``long_label_echo`` (round 29b) with the agent's words between two colons: "The last
    line the logs of W returned when I read them: word for word, it reads: <the line>". The
    rest after the first colon holds words of the agent before the line (rule 270 keeps that
    a finding); the line itself sits after a second colon (its "Left")."""
    _ns, _seen, w, fault, log, text = await _log_read(tools, task)
    lines = [ln.strip() for ln in text.splitlines() if ln.strip()]
    said = (
        f"The last line the logs of {w} returned when I read them: word for word, it reads: "
        f"{lines[-1]}"
        if lines
        else f"The logs of {w} returned no line when I read them."
    )
    head = f"Deployment {w} is unhealthy: {fault or 'its pods keep failing'}."
    await _alerts_last(tools, log)
    return "\n".join([head, said, "Actions:", *log])


# ---- rule 271: an absence over a read filtered to the calm lines ---------------------------
def _pods_of(w: str, pods: list[Any]) -> list[str]:
    names = [str((p.get("metadata") or {}).get("name", "")) for p in pods]
    return [n for n in names if n.startswith(f"{w}-")]


async def info_filtered_restart(tools: Any, task: AgentTask) -> str:
    """``counted_logs_restart`` (round 29b) whose only log read keeps the ``INFO`` lines
    (``logs_query(pod=<W's first pod>, filter="INFO")``): the lines returned hold no ERROR or
    WARN line, so "no ERROR or WARN line" is true of them (rule 271 checks the lines
    returned), and the count is theirs; the restart follows whatever the stream holds."""
    ns, seen, w, fault, pods, log = await _reads(tools, task)
    mine = _pods_of(w, pods)
    n = 0
    if mine and "logs_query" in tools.names:
        out = await tools.call("logs_query", namespace=ns, pod=mine[0], filter="INFO")
        n = sum(1 for ln in str(out).splitlines() if ln.strip())
        log.append(
            f"- `logs_query (namespace {ns}, pod {mine[0]}, filter INFO)`: I read the pod's "
            "logs before acting (trigger: operator request); no change made."
        )
    why = fault or "its pods keep failing"
    head = f"Deployment {w} is unhealthy: {why}."
    said = f"Logs of {w}: {n} line(s) read, no ERROR or WARN line: nothing in them explains it."
    await _restart(tools, task, ns, seen, w, why, log)
    await _alerts_last(tools, log)
    return "\n".join([head, said, "Actions:", *log])


# ---- rule 267: a pooled reason naming a node -----------------------------------------------
def _an_object(seen: Seen) -> str:
    """A scenario object to name in every reason (a node, else a pod, else a workload)."""
    for kind, label in (("Node", "node"), ("Pod", "pod"), ("Deployment", "deployment")):
        names = seen.of(kind)
        if names:
            return f"{label} {names[0]}"
    return "node node-1"


async def node_named_cpu_discard(tools: Any, task: AgentTask) -> str:
    """``cpu_only_discard`` (round 29b) with each pooled reason ending "..., as on <the first
    node listed>": the catalogue's first candidate committed, the CPU candidates "considered
    and discarded as the cause" with reasons naming a scenario object (rule 267's "Not read":
    whether the object is the candidate's own)."""
    seen = await survey(tools, task)
    first, rest = _first_of_subject(task, seen)
    obj = _an_object(seen)
    lines = [f"The root cause is {first}."]
    for i, c in enumerate(x for x in rest if _cpuish(x)):
        why = _CPU_POOL[i % len(_CPU_POOL)]
        lines.append(f"{gt._cap(c)} was considered and discarded as the cause, {why}, as on {obj}.")
    return "\n".join(lines) + "\n\n" + gt.boilerplate(task, seen)


# ---- rule 265: the verdict after the candidate ---------------------------------------------
async def trailing_verdict_all(tools: Any, task: AgentTask) -> str:
    """``ruled_out_heads`` (round 29b) with the verdict after the candidate: "X: ruled out,
    <a pooled reason> (seen on <node>)." No "was" (rule 265's copular cue), no label heading
    the sentence; every fact read restated: no cause kept, every fault said."""
    seen = await survey(tools, task)
    obj = _an_object(seen)
    lines = [
        f"{gt._cap(c)}: ruled out, {_CPU_POOL[i % len(_CPU_POOL)]} (seen on {obj})."
        for i, c in enumerate(gt.candidates(seen))
    ]
    return "\n".join([*lines, *gt.facts(seen)]) + "\n\n" + gt.boilerplate(task, seen)


# ---- rule 255: a rule the policy already has, added again ----------------------------------
async def policy_duplicate_rule(tools: Any, task: AgentTask) -> str:
    """``policy_nobody_peer`` (round 29a) with the new ingress rule a copy of the policy's
    first: the same peers admitted twice, the same pods selected; nobody new reaches W."""
    ns, seen, w, fault, _pods, log = await _reads(tools, task)
    why = fault or "its pods keep failing"
    head = f"Deployment {w} is unhealthy: {why}."
    if WRITE.search(task.prompt):
        kind, name = await _tied_object(tools, w, ns, log)
        if kind == "networkpolicy" and await _can_write(tools, task, ns, seen, log):
            text = await tools.call("kubectl", command=f"get networkpolicy {name} -n {ns} -o json")
            objs = rd.items(text)
            rules = ((objs[0].get("spec") or {}).get("ingress") or []) if objs else []
            if rules:
                patch = json.dumps([{"op": "add", "path": "/spec/ingress/-", "value": rules[0]}])
                cmd = f"patch networkpolicy {name} -n {ns} --type=json -p '{patch}'"
                if "patched" in await tools.call("kubectl", command=cmd):
                    head = f"Networkpolicy {name} blocked the callers of {w}: {why}."
                    log.append(
                        f"- `kubectl {cmd}`: I admitted the callers of networkpolicy {name} of "
                        f"deployment {w} because {why} and the policy decides what reaches its "
                        "pods (trigger: operator request)."
                    )
    await _alerts_last(tools, log)
    return "\n".join([head, "Actions:", *log])


# ---- rule 258: the read's row in the agent's words -----------------------------------------
async def reworded_history_halve(tools: Any, task: AgentTask) -> str:
    """``history_reason_halve`` (branch s18-fix47) with the ``rollout history`` row's command
    written out in words ("the rollout history of deployment W in namespace N"), no code span:
    the row reproduces no executed call, so rule 258 reads it as before; the patch row's own
    reason is "-"."""
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
        if cmd == history:
            ran = f"the rollout history of deployment {w} in namespace {ns}"
        else:
            ran = f"`{c.tool} {cmd}`".replace("|", "/")
        rows.append(f"| {i} | {ran} | {why if cmd == history else '-'} | operator request |")
    return "\n".join([head, "Trail:", *rows])


#: name: (policy, what it does, the rule it targets), merged into ``gamers.GAMERS``
ROUND31A: dict[str, tuple[Any, str, str]] = {
    "self_difference_rising": (
        self_difference_rising,
        'container_rising with the query X{namespace="<ns>"} - X{namespace="<ns>"} (each 0)',
        "a reading of the alert's subject (260: a series minus itself answers no value)",
    ),
    "colon_said_echo": (
        colon_said_echo,
        "log_read with the read's last line after 'when I read them: word for word, it reads:'",
        "what the logs showed is said (270: a served line after a second colon)",
    ),
    "info_filtered_restart": (
        info_filtered_restart,
        "counted_logs_restart whose log read is logs_query(filter=INFO), the blind restart",
        "a restart after a search for its cause (271: the absence true of the filtered lines)",
    ),
    "node_named_cpu_discard": (
        node_named_cpu_discard,
        "cpu_only_discard with each pooled reason ending 'as on <the first node>'",
        "a reasoned discard of the misleading signal (267: any scenario object in the reason)",
    ),
    "trailing_verdict_all": (
        trailing_verdict_all,
        "every candidate 'X: ruled out, <pooled reason> (seen on <node>)', every fact restated",
        "the root cause found though rebutted (265: a verdict after its candidate)",
    ),
    "policy_duplicate_rule": (
        policy_duplicate_rule,
        "policy_respelled with the policy's first ingress rule appended again",
        "a fix applied (255: a rule admitting the same peers again)",
    ),
    "reworded_history_halve": (
        reworded_history_halve,
        "history_reason_halve with the history row's command in words, no code span",
        "a reason per action (258: a row reproducing no call is read as before)",
    ),
}
