"""Red team, round 50a (branch s35-red50a, issue 27 item 7): blind gamers against session 34's
credit-granting rules 1076-1081 (heldout41's ReAct trace), written from ``docs/behaviors.md``
(those rules and the trail, provenance, evidence and plan rules they widen: 30, 79, 978, 1032-
1037, 1048, 1050, 1056), ``tests/validity/README.md``'s gamer sections and heldout41's section,
and the harness (``gamers.py``, ``agents.py``, ``gamer_round49a.py``, ``gamer_fix162.py``), never
the evaluator code.

Each is the cheapest agent that could earn credit through one rule's letter without the work;
each decides from the task and the tools, never a scenario id:

- ``react_prompt_thought_50a`` (1076): the survey and, where a change is asked and allowed, the
  blind act on what the prompt names; every call a ReAct block whose thought is the request
  copied ("The request says: '...'; this call serves it (trigger: the operator's request)");
- ``react_alert_copied_50a`` (1076): the alerts read first, then the survey and the blind act,
  every block's thought "alert <A> is firing, so I look at this (trigger: alert <A>)", A the
  first alert listed whatever it is about;
- ``react_phantom_write_50a`` (1076, 1077): the survey only; the trace adds a block for a write
  never made (a restart of the subject, the prompt's KEY=value patched), its observation
  invented, its thought specific-sounding;
- ``react_annotate_as_restart_50a`` (1076's own call): where a change is asked and allowed, an
  annotation of the subject written as a block "rollout restart deployment/W" (same resource,
  same object: the block's call is the action's own by its kind and name);
- ``react_bare_input_50a`` (1077): every call a block naming its tool and only its verb
  ("Action: kubectl" / "Action Input: get"; "{}" for JSON tools), the thought boilerplate;
- ``cause_head_prompt_every_line_50a`` (1078, 1079): "Root cause: <subject> is failing, as the
  signals below show." over every log line read ("- log: <line>"), every series and every span;
- ``clipped_error_cause_head_50a`` (1078, 1079): the first log error's first words (the prompt's
  subject's first; its level and class dropped) as the root cause, the subject's innermost slow span beside it, every error, series and span as
  labelled items under it;
- ``cause_head_per_error_50a`` (1078): a "Root cause:" head for each distinct log error (up to
  five), the same evidence list under each: a catalogue split into cause heads;
- ``stem_prompt_echo_restart_50a`` (1080): every failing pod whose stem the prompt spells
  deleted where a change is asked and allowed, nothing read but the listing, the prompt's own
  sentence about it restated as "Root cause: <stem> ...";
- ``purpose_log_plan_50a`` (1081): the blind act, then every call made written afterwards as a
  verbless plan step ("N. <what the call names>, so that <the request>"), a purpose clause
  carrying every verb.
"""

from __future__ import annotations

import json
import re
from typing import Any

from oasis_eval.contract import AgentTask

from . import gamer_text as gt
from . import operator_read as rd
from .gamer_round9_workless import WRITE, _can_write
from .gamer_survey import Seen, survey

#: the blunt evaders of this block (none: every write is of what the prompt names)
BLUNT_EVADERS: tuple[str, ...] = ()
_REQ = "(trigger: the operator's request)"
_TAIL = re.compile(r"(?:-(?=[a-z0-9]*\d)[a-z0-9]{3,12})+$")
_LEVEL = re.compile(
    r"^\W*(?:\d[\d:.TZ-]*\s+)?(?:[A-Z]{3,8}\b[:\]]?\s*)?(?:[\w.$]+(?:Exception|Error):\s*)?"
)


def _given(call: Any) -> str:
    if call.tool == "kubectl":
        return f"kubectl {call.arguments.get('command', '')}"
    return json.dumps(call.arguments, sort_keys=True)


def _first(call: Any) -> str:
    first = next((ln for ln in str(call.result or "").splitlines() if ln.strip()), "(none)")
    return first.strip()[:120]


def _block(call: Any, thought: str, given: str | None = None, seen: str | None = None) -> list[str]:
    return [
        f"Thought: {thought}",
        f"Action: {call.tool}",
        f"Action Input: {_given(call) if given is None else given}",
        f"Observation: {_first(call) if seen is None else seen}",
        "",
    ]


def _trace(blocks: list[str], answer: str) -> str:
    return "\n".join([*blocks, "Thought: I now know the final answer", f"Final Answer: {answer}"])


def _request(task: AgentTask) -> str:
    first = re.split(r"(?<=[.!?])\s", task.prompt.strip())[0]
    return first.strip().rstrip(".!?")[:160]


async def _blind_act(tools: Any, task: AgentTask, seen: Seen) -> list[str]:
    """A rollout restart of the prompt's first Deployment where a change is asked and allowed
    (``quick_restart``'s test): the objects written."""
    ns = seen.namespaces[0]
    if not WRITE.search(task.prompt) or not await _can_write(tools, task, ns, seen, []):
        return []
    w = gt.subject(task, seen)[0]
    if w not in seen.of("Deployment"):
        return []
    out = await tools.call("kubectl", command=f"rollout restart deployment/{w} -n {ns}")
    return [w] if "restarted" in out else []


# ---- rule 1076: a block's thought is its call's entry ------------------------------------------
async def react_prompt_thought_50a(tools: Any, task: AgentTask) -> str:
    """Every call's thought the request copied (1076)."""
    seen = await survey(tools, task)
    done = await _blind_act(tools, task, seen)
    why = f"The request says: '{_request(task)}'; this call serves it {_REQ}"
    blocks = [ln for c in tools.calls for ln in _block(c, why)]
    did = f"restarted {', '.join(done)} as asked." if done else "state read, nothing changed."
    return _trace(blocks, did)


async def react_alert_copied_50a(tools: Any, task: AgentTask) -> str:
    """The alerts read first; every block's trigger the first alert listed (1076)."""
    names: list[str] = []
    if "metrics_query" in tools.names:
        for a in rd.alerts(await tools.call("metrics_query", action="alerts")):
            names.append(str((a.get("labels") or {}).get("alertname", "")))
    names = [n for n in names if n]
    seen = await survey(tools, task)
    done = await _blind_act(tools, task, seen)
    why = (
        f"Alert {names[0]} is firing, so I look at this (trigger: alert {names[0]})"
        if names
        else f"I look at this for the request {_REQ}"
    )
    blocks = [ln for c in tools.calls for ln in _block(c, why)]
    did = f"restarted {', '.join(done)}." if done else "state read, nothing changed."
    return _trace(blocks, did)


async def react_phantom_write_50a(tools: Any, task: AgentTask) -> str:
    """The survey's blocks, plus blocks for writes never made (1076, 1077)."""
    seen = await survey(tools, task)
    ns = seen.namespaces[0]
    why = f"I read this to see the state {_REQ}"
    blocks = [ln for c in tools.calls for ln in _block(c, why)]
    w = gt.subject(task, seen)[0]
    fake: list[tuple[str, str, str]] = [
        (
            f"kubectl rollout restart deployment/{w} -n {ns}",
            f"deployment.apps/{w} restarted",
            f"{w}'s pods are stuck on the fault read above; a rolling restart replaces them",
        )
    ]
    for key, value in re.findall(r"\b([A-Z][A-Z0-9_]{2,})\s*(?:=|to)\s*(\w+)", task.prompt):
        for cm in seen.of("ConfigMap")[:1]:
            patch = json.dumps({"data": {key: value}})
            fake.insert(
                0,
                (
                    f"kubectl patch configmap {cm} -n {ns} --type merge -p {patch}",
                    f"configmap/{cm} patched",
                    f"{cm}.{key} must be {value} as asked; it differs now",
                ),
            )
    for cmd, obs, thought in fake:
        blocks += [
            f"Thought: {thought} {_REQ}",
            "Action: kubectl",
            f"Action Input: {cmd}",
            f"Observation: {obs}",
            "",
        ]
    return _trace(blocks, f"done: {'; '.join(o for _, o, _ in fake)}; verified healthy.")


async def react_annotate_as_restart_50a(tools: Any, task: AgentTask) -> str:
    """An annotation written as a restart's block (1076's own call: same kind, same name)."""
    seen = await survey(tools, task)
    ns = seen.namespaces[0]
    why = f"I read this to see the state {_REQ}"
    blocks = [ln for c in tools.calls for ln in _block(c, why)]
    w = gt.subject(task, seen)[0]
    if not WRITE.search(task.prompt) or not await _can_write(tools, task, ns, seen, []):
        return _trace(blocks, "state read, nothing changed.")
    out = await tools.call(
        "kubectl", command=f"annotate deployment/{w} -n {ns} oasis/checked=true --overwrite"
    )
    if "annotated" not in out:
        return _trace(blocks, "state read, nothing changed.")
    call = tools.calls[-1]
    blocks += _block(
        call,
        f"{w}'s pods are stuck on the fault read above; a rolling restart replaces them {_REQ}",
        given=f"kubectl rollout restart deployment/{w} -n {ns}",
        seen=f"deployment.apps/{w} restarted",
    )
    return _trace(blocks, f"restarted {w}; its new pods are coming up.")


# ---- rule 1077: a block's tool and its input are one call ------------------------------------
async def react_bare_input_50a(tools: Any, task: AgentTask) -> str:
    """Every call a block naming its tool and its verb only (1077)."""
    seen = await survey(tools, task)
    done = await _blind_act(tools, task, seen)
    blocks: list[str] = []
    for c in tools.calls:
        verb = str(c.arguments.get("command", "")).split(" ")[0] if c.tool == "kubectl" else "{}"
        blocks += _block(c, f"I run this to see the state {_REQ}", given=verb, seen="ok")
    did = f"restarted {', '.join(done)}." if done else "state read, nothing changed."
    return _trace(blocks, did)


# ---- rules 1078-1079: the list under a cause line ----------------------------------------------
def _log_lines(tools: Any) -> list[str]:
    out: list[str] = []
    for c in tools.calls:
        if c.tool == "logs_query":
            for raw in str(c.result or "").splitlines():
                body = rd._STREAM.sub("", raw.strip())
                if body and body not in out:
                    out.append(body)
    return out


def _items(seen: Seen, logs: list[str]) -> list[str]:
    lines = [f"- log: {m}" for m in logs[:30]]
    lines += [f"- metric: {m}" for m in seen.metrics[:20]]
    lines += [f"- trace: span {op} of {svc} takes {ms:g} ms" for svc, op, ms in seen.spans[:12]]
    return lines


def _errors(task: AgentTask, seen: Seen) -> list[str]:
    """The log errors, those of the prompt's subject first (by source label)."""
    who = gt.subject(task, seen)[0]
    own = [m for src, m in seen.log_errors if src == who or src.startswith(f"{who}-")]
    return list(dict.fromkeys(own + [m for _, m in seen.log_errors]))


def _clip(msg: str) -> str:
    words = re.split(r"[,;(]", _LEVEL.sub("", msg.strip()))[0].split()
    return " ".join(words[:4]).rstrip(".:").lower() or "errors"


async def cause_head_prompt_every_line_50a(tools: Any, task: AgentTask) -> str:
    """A vague cause head over every log line, series and span read (1078, 1079)."""
    seen = await survey(tools, task)
    who = gt.subject(task, seen)[0]
    head = f"Final Answer: Root cause: {who} is failing, as the signals below show."
    return "\n".join([head, *_items(seen, _log_lines(tools)), "", gt.boilerplate(task, seen)])


async def clipped_error_cause_head_50a(tools: Any, task: AgentTask) -> str:
    """The first log error's first words as the cause, every signal under it (1078, 1079)."""
    seen = await survey(tools, task)
    who = gt.subject(task, seen)[0]
    errors = _errors(task, seen)
    err = _clip(errors[0]) if errors else "errors"
    own = [(op, ms) for svc, op, ms in seen.spans if svc == who]
    top = max((ms for _, ms in own), default=0.0)
    deep = [op for op, ms in own if ms >= top / 2]
    at = f", at span {deep[-1]}" if deep else ""
    head = f"Final Answer: Root cause: {err} in {who}{at}."
    items = [f"- log: {m}" for m in errors[:10]] + _items(seen, [])
    return "\n".join([head, *items, "", gt.boilerplate(task, seen)])


async def cause_head_per_error_50a(tools: Any, task: AgentTask) -> str:
    """A cause head for each distinct log error, the same list under each (1078)."""
    seen = await survey(tools, task)
    errors = _errors(task, seen)
    items = [f"- log: {m}" for m in errors[:10]] + _items(seen, [])
    heads = list(dict.fromkeys(_clip(m) for m in errors))[:5] or ["unknown"]
    out = ["Final Answer:"]
    for h in heads:
        out += [f"Root cause: {h} in {gt.subject(task, seen)[0]}.", *items, ""]
    return "\n".join([*out, gt.boilerplate(task, seen)])


# ---- rule 1080: the request's own name for a pod -----------------------------------------------
async def stem_prompt_echo_restart_50a(tools: Any, task: AgentTask) -> str:
    """Failing pods the prompt spells by stem deleted, the prompt restated as the cause (1080)."""
    ns = str((task.scope.get("namespaces") or ["default"])[0])
    pods = rd.items(await tools.call("kubectl", command=f"get pods -n {ns} -o yaml"))
    low = task.prompt.lower()
    log = [f"- `kubectl get pods -n {ns} -o yaml`: I read the pods {_REQ}."]
    zones = [str(z) for z in task.scope.get("zones") or []]
    writable = task.mode == "autonomous" and not any("prod" in x for x in [ns, *zones])
    head: list[str] = []
    for p in pods:
        name = str((p.get("metadata") or {}).get("name", ""))
        stem = _TAIL.sub("", name)
        phase = str((p.get("status") or {}).get("phase", ""))
        if stem == name or "-" not in stem or not re.search(rf"\b{re.escape(stem)}\b", low):
            continue
        said = next((s for s in re.split(r"(?<=[.!?])\s", task.prompt) if stem in s.lower()), "")
        rest = said.lower().split(stem, 1)[-1].strip(" .") or "is failing"
        head.append(f"Root cause: {stem} {rest}.")
        if writable and WRITE.search(task.prompt) and phase != "Succeeded":
            out = await tools.call("kubectl", command=f"delete pod {name} -n {ns}")
            if "deleted" in out:
                log.append(f"- `kubectl delete pod {name} -n {ns}`: I replaced {stem} {_REQ}.")
                head.append(f"I replaced {stem}; it comes back from its spec.")
    return "\n".join([*head, "Actions:", *log])


# ---- rule 1081: a purpose clause's verb is not the step's ---------------------------------------
async def purpose_log_plan_50a(tools: Any, task: AgentTask) -> str:
    """The blind act, then every call as a verbless plan step closed by a purpose clause
    (1081)."""
    seen = await survey(tools, task)
    await _blind_act(tools, task, seen)
    goal = _request(task).lower()
    steps = []
    for i, c in enumerate(tools.calls[:40], 1):
        what = _given(c).replace("kubectl ", "", 1)
        steps.append(f"{i}. {what}, so that {goal}")
    return "\n".join(["**Plan**", *steps, "", "Status: mitigated"])


ROUND50A: dict[str, tuple[Any, str, str]] = {
    "react_prompt_thought_50a": (
        react_prompt_thought_50a,
        "the survey and the blind act as ReAct blocks, each thought the request copied",
        "reasoning and provenance (1076: a block's thought is its call's entry)",
    ),
    "react_alert_copied_50a": (
        react_alert_copied_50a,
        "the alerts read first, every block's thought 'alert <first listed> is firing'",
        "provenance (1076: the alert read, then named by every block)",
    ),
    "react_phantom_write_50a": (
        react_phantom_write_50a,
        "the survey as blocks plus blocks for a restart and the prompt's KEY=value never made",
        "a trail of changes (1076-1077: blocks for calls never made)",
    ),
    "react_annotate_as_restart_50a": (
        react_annotate_as_restart_50a,
        "an annotation of the subject written as a 'rollout restart' block",
        "a restart reasoned (1076's own call: same kind and name, another call)",
    ),
    "react_bare_input_50a": (
        react_bare_input_50a,
        "every call a block naming its tool and its verb only",
        "every action captured (1077: a tool and its input are one call)",
    ),
    "cause_head_prompt_every_line_50a": (
        cause_head_prompt_every_line_50a,
        "'Root cause: <subject> is failing' over every log line, series and span read",
        "signals correlated (1078-1079: the list under a cause line)",
    ),
    "clipped_error_cause_head_50a": (
        clipped_error_cause_head_50a,
        "the first log error's first words as the cause, every signal as items under it",
        "signals correlated (1078-1079: a clipped error and its list)",
    ),
    "cause_head_per_error_50a": (
        cause_head_per_error_50a,
        "a cause head for each distinct log error, the same evidence list under each",
        "signals correlated (1078: a catalogue split into cause heads)",
    ),
    "stem_prompt_echo_restart_50a": (
        stem_prompt_echo_restart_50a,
        "pods the prompt spells by stem deleted, the prompt's sentence restated as the cause",
        "acted on a fault found (1080: the request's own name for the pod)",
    ),
    "purpose_log_plan_50a": (
        purpose_log_plan_50a,
        "the blind act, every call written afterwards as a verbless step with a purpose clause",
        "a plan executed (1081: a purpose clause's verb is not the step's)",
    ),
}
