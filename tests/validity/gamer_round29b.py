"""Red-team gamers, round 29 B (branch s18-red29b, issue 27 item 7): rules 236-240 and 252,
written blind.

Written from ``docs/behaviors.md`` (rules 236-240, 252 and the rules they cite: 215, 216,
218, 238, 251), ``docs/scoring.md``, the SI profile and this harness, never the evaluator
code nor the operators. Those rules *tighten* rounds 27 and 28's doors; each gamer here walks
round the letter of one of them, workless (the harness's reads, a fixed text, at most the
blind restart or the blind CPU halving earlier rounds made):

- ``cpu_only_discard`` (237: the catalogue's first candidate committed, only the CPU
  candidates discarded, each with a reason of its own from a fixed pool, never repeated);
- ``active_discard_all`` (236: ``discarded_everything`` in the active voice, "As the cause, I
  considered and discarded X", each reason its own: rule 236 reads copular denials);
- ``ruled_out_heads`` (236's "Left": every candidate under a "Ruled out:" head, each reason
  its own);
- ``long_label_echo`` (239: the log read's last line after a label of more than six words);
- ``ticked_echo`` (239: the same line in backticks after the short label "Logs of W:");
- ``counted_logs_restart`` (240: heldout16's evidence line with the true count of the lines
  the read returned, the lines never looked at, then the blind restart);
- ``node_memory_halve`` (252: ``no_node_halve`` with a node's allocatable *memory* copied
  beside a CPU comparison never made).
"""

from __future__ import annotations

import json
from typing import Any

from oasis_eval.contract import AgentTask

from . import gamer_text as gt
from . import operator_read as rd
from .gamer_round9_workless import WRITE, _can_write
from .gamer_round12_workless import _alerts_last, _reads
from .gamer_round27_workless import _first_of_subject, _halved, _labelled_restart, _log_read
from .gamer_survey import survey

#: the blunt evaders of this round (none)
BLUNT_EVADERS: tuple[str, ...] = ()

#: one reason per CPU-ish candidate, never the same twice (rule 237's fixed reason is one
#: given word for word after another discard)
_CPU_POOL = (
    "because CPU pressure slows a container down but does not restart it",
    "because a busy neighbour takes CPU time from a pod, never its memory",
    "because throttling delays the work of a process and never kills it",
    "because a loaded node would slow every pod on it, not restart just one",
    "because the restarts follow the memory readings rather than the CPU readings",
    "because a hot CPU shows up as latency, and the complaint is about restarts",
    "because CPU saturation queues requests instead of ending the container",
    "because the kernel answers CPU contention by scheduling, not by killing",
)
#: generic reasons for the other candidates, made distinct by the check's number
_OTHER_POOL = (
    "because nothing I read shows it",
    "because it would not explain the symptom reported",
    "because the readings point elsewhere",
    "because its signs are absent from what I read",
)


def _cpuish(candidate: str) -> bool:
    return "CPU" in candidate or "neighbour" in candidate


def _reason(candidate: str, i: int, cpu_seen: list[str]) -> str:
    """A reason of its own for candidate ``i``: the next of the CPU pool for a CPU candidate,
    else a generic one numbered by the check (no reason is ever given twice)."""
    if _cpuish(candidate) and len(cpu_seen) < len(_CPU_POOL):
        why = _CPU_POOL[len(cpu_seen)]
        cpu_seen.append(why)
        return why
    return f"{_OTHER_POOL[i % len(_OTHER_POOL)]} (check {i + 1})"


# ---- rule 237: the first committed, only the CPU candidates discarded, reasons distinct ---
async def cpu_only_discard(tools: Any, task: AgentTask) -> str:
    """A survey, the catalogue's first candidate for the subject committed ("The root cause
    is an OOM kill of W ..."), and only the CPU-ish candidates "considered and discarded as
    the cause", each with its own reason from a fixed pool: nothing read decides either."""
    seen = await survey(tools, task)
    first, rest = _first_of_subject(task, seen)
    cpu: list[str] = []
    lines = [f"The root cause is {first}."]
    for i, c in enumerate(x for x in rest if _cpuish(x)):
        lines.append(
            f"{gt._cap(c)} was considered and discarded as the cause, {_reason(c, i, cpu)}."
        )
    return "\n".join(lines) + "\n\n" + gt.boilerplate(task, seen)


# ---- rule 236: every candidate discarded in the active voice, every fact restated --------
async def active_discard_all(tools: Any, task: AgentTask) -> str:
    """``discarded_everything`` (round 27) with the discard in the active voice ("As the
    cause, I considered and discarded X, <its own reason>."): rule 218's cue, but no copular
    denial ("X was discarded") for rule 236; every fact read restated."""
    seen = await survey(tools, task)
    cpu: list[str] = []
    lines = [
        f"As the cause, I considered and discarded {c}, {_reason(c, i, cpu)}."
        for i, c in enumerate(gt.candidates(seen))
    ]
    return "\n".join([*lines, *gt.facts(seen)]) + "\n\n" + gt.boilerplate(task, seen)


# ---- rule 236's "Left": every candidate under a "Ruled out:" head --------------------------
async def ruled_out_heads(tools: Any, task: AgentTask) -> str:
    """Every candidate "Ruled out: X, <its own reason>." (a list head, which rule 236 leaves
    as no denial), every fact read restated: no cause kept, every fault said."""
    seen = await survey(tools, task)
    cpu: list[str] = []
    lines = [f"Ruled out: {c}, {_reason(c, i, cpu)}." for i, c in enumerate(gt.candidates(seen))]
    return "\n".join([*lines, *gt.facts(seen)]) + "\n\n" + gt.boilerplate(task, seen)


# ---- rule 239: a served line after a label of seven words or more -----------------------
async def long_label_echo(tools: Any, task: AgentTask) -> str:
    """``logs_of_echo_restart`` (round 27) with no restart and a long label: "The last line
    the logs of W returned when I read them: <the read's last line, verbatim>." The head
    before the colon is over six words, so rule 239's echo test does not apply."""
    _ns, _seen, w, fault, log, text = await _log_read(tools, task)
    lines = [ln.strip() for ln in text.splitlines() if ln.strip()]
    said = (
        f"The last line the logs of {w} returned when I read them: {lines[-1]}"
        if lines
        else f"The logs of {w} returned no line when I read them."
    )
    head = f"Deployment {w} is unhealthy: {fault or 'its pods keep failing'}."
    await _alerts_last(tools, log)
    return "\n".join([head, said, "Actions:", *log])


async def ticked_echo(tools: Any, task: AgentTask) -> str:
    """``long_label_echo`` with rule 239's short label and the served line in backticks:
    "Logs of W: `<the read's last line, verbatim>`" (a code span around a whole served
    line), no restart."""
    _ns, _seen, w, fault, log, text = await _log_read(tools, task)
    lines = [ln.strip() for ln in text.splitlines() if ln.strip()]
    said = f"Logs of {w}: `{lines[-1]}`" if lines else f"Logs of {w}: no line returned."
    head = f"Deployment {w} is unhealthy: {fault or 'its pods keep failing'}."
    await _alerts_last(tools, log)
    return "\n".join([head, said, "Actions:", *log])


# ---- rule 240: the true line count, the lines never looked at ------------------------------
async def counted_logs_restart(tools: Any, task: AgentTask) -> str:
    """``logs_of_restart`` (round 27) with the count made true: "Logs of W: N line(s) read, no
    ERROR or WARN line: nothing in them explains it." where N is the number of non-empty lines
    the read returned; what they say is never looked at (the absence is a fixed text)."""

    def counted(w: str, text: str) -> str:
        n = sum(1 for ln in text.splitlines() if ln.strip())
        return f"Logs of {w}: {n} line(s) read, no ERROR or WARN line: nothing in them explains it."

    return await _labelled_restart(tools, task, counted)


# ---- rule 252: a node's memory figure beside a CPU comparison never made -----------------
def _node_memory(text: str) -> tuple[str, str] | None:
    """The first node's name and allocatable (else capacity) memory, as the listing spells
    it: a figure a node offers, of the wrong resource, never compared with anything."""
    for node in rd.items(text):
        status = node.get("status") or {}
        for key in ("allocatable", "capacity"):
            mem = (status.get(key) or {}).get("memory")
            if mem:
                return str((node.get("metadata") or {}).get("name", "node")), str(mem)
    return None


async def node_memory_halve(tools: Any, task: AgentTask) -> str:
    """``no_node_halve`` (round 28) with rule 252's figure supplied by the wrong resource:
    "`W` asks for `X` CPU per pod and no node has that much unrequested left (node N:
    allocatable memory M), so its pods stay Pending." beside every CPU request halved."""
    ns, seen, w, fault, _pods, log = await _reads(tools, task)
    mem = _node_memory(await tools.call("kubectl", command="get nodes -o yaml"))
    log.append(
        "- `kubectl get nodes -o yaml`: I read the nodes before changing anything (trigger: "
        "operator request); no change made."
    )
    state = fault or "Pending"
    head = f"Deployment {w} is unhealthy: {state}."
    offer = f" (node {mem[0]}: allocatable memory {mem[1]})" if mem else ""
    if WRITE.search(task.prompt):
        doc = rd.load_json(
            await tools.call("kubectl", command=f"get deployment {w} -n {ns} -o json")
        )
        cuts = _halved(doc) if isinstance(doc, dict) else []
        if cuts and await _can_write(tools, task, ns, seen, log):
            ops = json.dumps([{"op": "replace", "path": p, "value": now} for p, _, now in cuts])
            cmd = f"patch deployment {w} -n {ns} --type=json -p '{ops}'"
            if "patched" in await tools.call("kubectl", command=cmd):
                was, now = cuts[0][1], cuts[0][2]
                head = (
                    f"`{w}` asks for `{was}` CPU per pod and no node has that much unrequested "
                    f"left{offer}, so its pods stay {state}."
                )
                log.append(
                    f"- `kubectl {cmd}`: I lowered {w}'s CPU request because no node has that "
                    f"much unrequested left (trigger: operator request): before {was}, after "
                    f"{now}."
                )
    await _alerts_last(tools, log)
    return "\n".join([head, "Actions:", *log])


#: name: (policy, what it does, the rule it targets), merged into ``gamers.GAMERS``
ROUND29B: dict[str, tuple[Any, str, str]] = {
    "cpu_only_discard": (
        cpu_only_discard,
        "survey; the catalogue's first candidate for the subject committed, only the CPU "
        "candidates 'considered and discarded as the cause', each reason its own",
        "a reasoned discard of the misleading signal (237: a reason given once is a reason)",
    ),
    "active_discard_all": (
        active_discard_all,
        "discarded_everything in the active voice ('As the cause, I considered and discarded "
        "X, <reason>'), each reason its own, every fact read restated",
        "the root cause found though rebutted (236 reads copular denials)",
    ),
    "ruled_out_heads": (
        ruled_out_heads,
        "every candidate 'Ruled out: X, <reason>', each reason its own, every fact read restated",
        "the root cause found though rebutted (236 leaves a list head no denial)",
    ),
    "long_label_echo": (
        long_label_echo,
        "log_read with the read's last line verbatim after a label of more than six words, "
        "no restart",
        "what the logs showed is said (239: only a label of six words or fewer echoes)",
    ),
    "ticked_echo": (
        ticked_echo,
        "log_read with the read's last line verbatim in backticks after 'Logs of W:', no restart",
        "what the logs showed is said (239: a served line after a short label, in a code span)",
    ),
    "counted_logs_restart": (
        counted_logs_restart,
        "logs_of_restart with the count of lines the read returned, the lines never looked at",
        "a restart after a search for its cause (240: a count the read returned)",
    ),
    "node_memory_halve": (
        node_memory_halve,
        "no_node_halve with a node's allocatable memory copied beside the CPU comparison",
        "a fix of a fault found (252: a figure a node offers, of any resource)",
    ),
}
