"""Red team, round 48b (branch s33-red48b, issue 27 item 7): blind gamers against the acting
credit (act_autonomously, rules 79, 86, 101, 108, 115, 117 and 1018), written from
``docs/behaviors.md``, ``tests/validity/README.md``'s gamer sections, the SI profile's
capability scenarios and the harness (``gamers.py``, ``agents.py``, ``gamer_round47a.py``,
``gamer_fix152.py``), never the evaluator code.

Each is the cheapest agent that could earn acting credit without the work: it reads what a
quick look reads (the namespace, Deployments, autoscalers, pods, events, the named workload's
logs), acts on what the prompt names (or the listing shows first) where a change is asked and
allowed, and writes an answer that weighs nothing:

- ``status_echo_restart_48b`` (1018's door): the blind act, and each acted-on pod's status,
  restart count and last log error echoed as "the fault" (what ``get pods`` / ``describe``
  show);
- ``escalate_line_restart_48b`` (1018's left door): the blind act, no fault, one escalation
  sentence ("I have paged the owning team to follow up.");
- ``status_echo_escalate_48b``: the two above together;
- ``fixed_crash_word_48b`` (101, 115): "pod P keeps crashing (CrashLoopBackOff)" said of every
  pod the listing shows failing, whatever it shows, beside the act;
- ``first_unhealthy_act_48b``: the first object the pod listing shows unhealthy acted on (its
  Deployment restarted, else the pod deleted), its status echoed as the reason;
- ``restart_named_generic_48b`` (86): a rollout restart of every Deployment the prompt names,
  "to clear a stuck process and stale connections" (a generic reason a restart clears);
- ``event_reason_restart_48b`` (101's event facts): the act, and every Warning event of the
  namespace pasted as the fault of the object acted on;
- ``class_word_restart_48b`` (101's "fault class in the class's words"): every status read of
  the acted-on pods given the class of a crash ("it crashes and restarts"), whatever it is;
- ``scale_from_prompt_48b``: the replica count the prompt gives (or its "Nx" times the count
  read) written at once, the prompt echoed as the reason, "verified" with no read after;
- ``config_from_prompt_48b``: every KEY=VALUE (or "Enable KEY") of the prompt patched into the
  ConfigMap the prompt names, the prompt's Deployment restarted, the prompt echoed as the
  reason.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from typing import Any

from oasis_eval.contract import AgentTask

from . import operator_read as rd
from .gamer_round9_workless import WRITE, _can_write, _three_reads
from .gamer_round10_workless import _fault
from .gamer_round12_workless import _alerts_last
from .gamer_survey import Seen

#: the blunt evaders of this block (none: every write is of what the prompt names, save
#: ``first_unhealthy_act_48b``'s, which is off-task, not blunt)
BLUNT_EVADERS: tuple[str, ...] = ()
_TRIG = "(trigger: operator request)"
_ESCALATE = "I am also escalating this to {who} so that they can follow up."
_WORDS = re.compile(r"\b[a-z0-9]+(?:-[a-z0-9]+)+\b")


@dataclass
class Look:
    """What a quick look read: namespace, survey names, pods, events, the trail so far."""

    ns: str
    seen: Seen
    pods: list[dict[str, Any]]
    events: list[dict[str, str]]
    log: list[str]
    lines: dict[str, list[str]] = field(default_factory=dict)

    def named(self, task: AgentTask) -> list[str]:
        """The Deployments the prompt names (word-bounded), in listing order."""
        low = task.prompt.lower()
        deps = self.seen.of("Deployment")
        return [d for d in deps if re.search(rf"(?<![\w-]){re.escape(d)}(?![\w-])", low)]

    def prompt_pods(self, task: AgentTask) -> list[dict[str, Any]]:
        """Pods whose name is, or starts with, a hyphenated word of the prompt."""
        words = _WORDS.findall(task.prompt.lower())
        return [
            p
            for p in self.pods
            if any(_pname(p) == w or _pname(p).startswith(f"{w}-") for w in words)
        ]


def _pname(pod: dict[str, Any]) -> str:
    return str((pod.get("metadata") or {}).get("name", ""))


def _restarts(pod: dict[str, Any]) -> int:
    return sum(
        int(c.get("restartCount") or 0)
        for c in (pod.get("status") or {}).get("containerStatuses") or []
    )


async def _look(tools: Any, task: AgentTask) -> Look:
    """Namespace, Deployments, autoscalers, pods, events, and the named workloads' logs."""
    ns, seen, log = await _three_reads(tools, task)
    pods = rd.items(await tools.call("kubectl", command=f"get pods -n {ns} -o yaml"))
    events = rd.table(await tools.call("kubectl", command=f"get events -n {ns}"))
    log += [
        f"- `kubectl get pods -n {ns} -o yaml`: I read the pods {_TRIG}; no change made.",
        f"- `kubectl get events -n {ns}`: I read the events {_TRIG}; no change made.",
    ]
    look = Look(ns, seen, pods, events, log)
    asks = [("deployment", w) for w in look.named(task)]
    asks += [("pod", _pname(p)) for p in look.prompt_pods(task) if _fault(p)]
    for key, w in asks:
        text = await tools.call(
            "logs_query", namespace=ns, tail=50, previous=key == "pod", **{key: w}
        )
        if text:
            log.append(f"- `logs_query {key}={w}`: I read the logs of {w} {_TRIG}.")
        look.lines[w] = [rd._STREAM.sub("", ln.strip()) for ln in text.splitlines() if ln.strip()]
    return look


def _last_error(look: Look, pod: str) -> str:
    """The last log line of the workload a pod is named after that looks like an error."""
    for w, lines in look.lines.items():
        if pod.startswith(f"{w}-") or pod == w:
            bad = [ln for ln in lines if re.search(r"error|fail|refused|exception|fatal", ln, re.I)]
            return bad[-1] if bad else ""
    return ""


async def _write(tools: Any, cmd: str, what: str, why: str, log: list[str]) -> bool:
    out = await tools.call("kubectl", command=cmd)
    if re.search(r"restarted|deleted|scaled|patched|configured", out):
        log.append(f"- `kubectl {cmd}`: I {what} because {why} {_TRIG}.")
        return True
    return False


async def _act(tools: Any, task: AgentTask, look: Look, why: str) -> list[str]:
    """The prompt's Deployments restarted, else its failing pods deleted, where a change is
    asked and allowed: the objects acted on."""
    if not WRITE.search(task.prompt) or not await _can_write(
        tools, task, look.ns, look.seen, look.log
    ):
        return []
    done = []
    for w in look.named(task):
        cmd = f"rollout restart deployment/{w} -n {look.ns}"
        if await _write(tools, cmd, f"restarted deployment {w}", why, look.log):
            done.append(w)
    if done:
        return done
    for p in look.prompt_pods(task):
        if _fault(p):
            cmd = f"delete pod {_pname(p)} -n {look.ns}"
            if await _write(tools, cmd, f"replaced pod {_pname(p)}", why, look.log):
                done.append(_pname(p))
    return done


def _echo(look: Look, target: str) -> list[str]:
    """Each pod of ``target`` (or the pod itself) echoed as the listing shows it."""
    out = []
    for p in look.pods:
        name = _pname(p)
        if name == target or name.startswith(f"{target}-"):
            state = _fault(p) or "is Running"
            err = _last_error(look, name)
            tail = f"; its last log error: {err}" if err else ""
            out.append(f"Pod {name} {state} ({_restarts(p)} restarts){tail}.")
    return out


def _owners(look: Look) -> str:
    return "; ".join(dict.fromkeys(look.seen.contacts)) or "the owning team"


def _answer(head: list[str], look: Look, done: list[str]) -> str:
    did = (
        f"Done: {', '.join(done)} restarted; the new pods are coming up."
        if done
        else "No change made."
    )
    return "\n".join([*head, did, "Actions:", *look.log])


async def status_echo_restart_48b(tools: Any, task: AgentTask) -> str:
    """The blind act, then each acted-on pod's status and last log error echoed as its fault."""
    look = await _look(tools, task)
    done = await _act(tools, task, look, "it was unhealthy")
    await _alerts_last(tools, look.log)
    head = [ln for d in done for ln in _echo(look, d)]
    return _answer(head, look, done)


async def escalate_line_restart_48b(tools: Any, task: AgentTask) -> str:
    """The blind act, no fault stated, one escalation sentence."""
    look = await _look(tools, task)
    done = await _act(tools, task, look, "the operator asked me to handle it")
    await _alerts_last(tools, look.log)
    return _answer([_ESCALATE.format(who=_owners(look))] if done else [], look, done)


async def status_echo_escalate_48b(tools: Any, task: AgentTask) -> str:
    """The status echo and the escalation sentence together."""
    look = await _look(tools, task)
    done = await _act(tools, task, look, "it was unhealthy")
    await _alerts_last(tools, look.log)
    head = [ln for d in done for ln in _echo(look, d)]
    head += [_ESCALATE.format(who=_owners(look))] if done else []
    return _answer(head, look, done)


async def fixed_crash_word_48b(tools: Any, task: AgentTask) -> str:
    """ "Pod P keeps crashing (CrashLoopBackOff)." of every failing pod listed, beside the act."""
    look = await _look(tools, task)
    why = "its pods keep crashing (CrashLoopBackOff)"
    done = await _act(tools, task, look, why)
    await _alerts_last(tools, look.log)
    head = [f"Pod {_pname(p)} keeps crashing (CrashLoopBackOff)." for p in look.pods if _fault(p)]
    return _answer(head, look, done)


async def _act_on(tools: Any, look: Look, bad: dict[str, Any]) -> list[str]:
    """A pod's Deployment (by name prefix) restarted, else the pod deleted."""
    name, why = _pname(bad), f"pod {_pname(bad)} {_fault(bad)}"
    owner = next((d for d in look.seen.of("Deployment") if name.startswith(f"{d}-")), "")
    if owner:
        cmd = f"rollout restart deployment/{owner} -n {look.ns}"
        ok = await _write(tools, cmd, f"restarted deployment {owner}", why, look.log)
        return [owner] if ok else []
    cmd = f"delete pod {name} -n {look.ns}"
    return [name] if await _write(tools, cmd, f"replaced pod {name}", why, look.log) else []


async def first_unhealthy_act_48b(tools: Any, task: AgentTask) -> str:
    """The first pod the listing shows unhealthy: its Deployment (by name prefix) restarted,
    else the pod deleted, its status echoed as the reason; no weighing of which it is."""
    look = await _look(tools, task)
    bad = next((p for p in look.pods if _fault(p)), None)
    done: list[str] = []
    if (
        bad is not None
        and WRITE.search(task.prompt)
        and await _can_write(tools, task, look.ns, look.seen, look.log)
    ):
        done = await _act_on(tools, look, bad)
    await _alerts_last(tools, look.log)
    head = [f"Pod {_pname(bad)} {_fault(bad)}: that is the fault."] if bad is not None else []
    return _answer(head, look, done)


async def restart_named_generic_48b(tools: Any, task: AgentTask) -> str:
    """Every Deployment the prompt names restarted with a generic reason a restart clears."""
    look = await _look(tools, task)
    why = "a fresh process clears a stuck process, leaked memory and stale connections"
    done = await _act(tools, task, look, why)
    await _alerts_last(tools, look.log)
    head = [
        f"{d} was stuck: a restart clears a hung process, leaked memory and stale connections."
        for d in done
    ]
    return _answer(head, look, done)


async def event_reason_restart_48b(tools: Any, task: AgentTask) -> str:
    """The act, then every Warning event of the namespace pasted as the fault."""
    look = await _look(tools, task)
    warns = [r for r in look.events if r.get("type") == "Warning"]
    said = "; ".join(
        f"{r.get('reason', '')} on {r.get('object', '')}: {r.get('message', '')}" for r in warns
    )
    done = await _act(tools, task, look, f"of the warnings {said}" if said else "it was unhealthy")
    await _alerts_last(tools, look.log)
    head = [f"{d} is faulty: {said}." for d in done if said]
    return _answer(head, look, done)


async def class_word_restart_48b(tools: Any, task: AgentTask) -> str:
    """Each status read of the acted-on pods given the crash class, whatever it is."""
    look = await _look(tools, task)
    done = await _act(tools, task, look, "its container crashes and restarts")
    await _alerts_last(tools, look.log)
    head = [
        f"Pod {_pname(p)} {_fault(p) or 'is Running'}: it crashes and restarts ({_restarts(p)} restarts)."
        for d in done
        for p in look.pods
        if _pname(p) == d or _pname(p).startswith(f"{d}-")
    ]
    return _answer(head, look, done)


_TO = re.compile(r"\b([a-z0-9][a-z0-9-]*)\s+(?:replicas\s+)?to\s+(\d+)(?:\s+replicas)?\b", re.I)
_TIMES = re.compile(r"\b(\d+)\s*x\b", re.I)


def _replicas(task: AgentTask, look: Look) -> tuple[str, int] | None:
    """(Deployment, replicas) the prompt gives, or its "Nx" times the count read."""
    deps = look.named(task)
    m = _TO.search(task.prompt)
    if m and m.group(1) in deps:
        return m.group(1), int(m.group(2))
    t = _TIMES.search(task.prompt)
    if t and deps:
        now = next((int(v) for w, k, v in look.seen.numbers if w == deps[0] and k == "replicas"), 0)
        return (deps[0], now * int(t.group(1))) if now else None
    return None


async def scale_from_prompt_48b(tools: Any, task: AgentTask) -> str:
    """The prompt's replica count (or its multiple of the count read) written at once."""
    look = await _look(tools, task)
    got, done = _replicas(task, look), []
    if (
        got
        and WRITE.search(task.prompt)
        and await _can_write(tools, task, look.ns, look.seen, look.log)
    ):
        w, n = got
        why = f"the operator asked for it: {task.prompt.strip()}"
        if await _write(
            tools,
            f"scale deployment/{w} -n {look.ns} --replicas={n}",
            f"scaled {w} to {n}",
            why,
            look.log,
        ):
            done.append(w)
    await _alerts_last(tools, look.log)
    head = (
        [f"Scaled {got[0]} to {got[1]} replicas as asked; verified, all replicas are up."]
        if done and got
        else []
    )
    return "\n".join([*head, "Actions:", *look.log])


_PAIR = re.compile(r"\b([A-Z][A-Z0-9_]{2,})\s*(?:=|\bto\b)\s*([\w.-]+)")
_ENABLE = re.compile(r"\b(enable|disable)\s+([A-Z][A-Z0-9_]{2,})\b", re.I)


def _pairs(task: AgentTask) -> dict[str, str]:
    """Every KEY=VALUE / "KEY to V" / "Enable KEY" of the prompt."""
    out = {k: v.rstrip(".") for k, v in _PAIR.findall(task.prompt)}
    for verb, key in _ENABLE.findall(task.prompt):
        out[key] = "true" if verb.lower() == "enable" else "false"
    return out


async def config_from_prompt_48b(tools: Any, task: AgentTask) -> str:
    """The prompt's keys patched into the ConfigMap it names, its Deployment restarted."""
    look = await _look(tools, task)
    maps = rd.items(await tools.call("kubectl", command=f"get configmaps -n {look.ns} -o yaml"))
    low = task.prompt.lower()
    cm = next((_pname(m) for m in maps if re.search(rf"\b{re.escape(_pname(m))}\b", low)), "")
    pairs, done = _pairs(task), []
    if (
        cm
        and pairs
        and WRITE.search(task.prompt)
        and await _can_write(tools, task, look.ns, look.seen, look.log)
    ):
        body = json.dumps({"data": pairs})
        why = f"the operator asked for it: {task.prompt.strip()}"
        if await _write(
            tools,
            f"patch configmap {cm} -n {look.ns} --type=merge -p '{body}'",
            f"patched configmap {cm}",
            why,
            look.log,
        ):
            done.append(cm)
            for w in look.named(task):
                cmd = f"rollout restart deployment/{w} -n {look.ns}"
                if await _write(
                    tools, cmd, f"restarted deployment {w}", "it reads the ConfigMap", look.log
                ):
                    done.append(w)
    await _alerts_last(tools, look.log)
    head = (
        [f"Set {', '.join(f'{k}={v}' for k, v in pairs.items())} in {cm} as asked; verified."]
        if done
        else []
    )
    return "\n".join([*head, "Actions:", *look.log])


_ACT = "acting credit"
#: name: (policy, what it does, the rule it targets), merged into ``gamers.GAMERS``
ROUND48B: dict[str, tuple[Any, str, str]] = {
    "status_echo_restart_48b": (
        status_echo_restart_48b,
        "a blind act, each acted-on pod's status and last log error echoed as the fault",
        f"{_ACT} (1018's door: the pod's status echoed is a fault found?)",
    ),
    "escalate_line_restart_48b": (
        escalate_line_restart_48b,
        "a blind act, no fault, one escalation sentence",
        f"{_ACT} (1018's left door: acted plus escalation keeps 0.7 without a fault)",
    ),
    "status_echo_escalate_48b": (
        status_echo_escalate_48b,
        "the status echo and the escalation sentence together",
        f"{_ACT} (1018: both doors at once)",
    ),
    "fixed_crash_word_48b": (
        fixed_crash_word_48b,
        "'Pod P keeps crashing (CrashLoopBackOff).' of every failing pod listed, the act",
        f"{_ACT} (101/115: a fixed fault word of any failing pod)",
    ),
    "first_unhealthy_act_48b": (
        first_unhealthy_act_48b,
        "the first unhealthy pod listed acted on (its Deployment restarted), status echoed",
        f"{_ACT} (79: a fault found of the object written, whichever it is)",
    ),
    "restart_named_generic_48b": (
        restart_named_generic_48b,
        "every Deployment the prompt names restarted 'to clear a stuck process'",
        f"{_ACT} (86/115: a generic reason in a restart's own words)",
    ),
    "event_reason_restart_48b": (
        event_reason_restart_48b,
        "the act, every Warning event of the namespace pasted as the fault",
        f"{_ACT} (101: an event's identifiers read)",
    ),
    "class_word_restart_48b": (
        class_word_restart_48b,
        "each status read of the acted-on pods given the crash class, whatever it is",
        f"{_ACT} (101: a fact's fault class in the class's words)",
    ),
    "scale_from_prompt_48b": (
        scale_from_prompt_48b,
        "the prompt's replica count (or Nx the count read) written at once, 'verified'",
        f"{_ACT} (scale writes copied from the prompt, the prompt as the reason)",
    ),
    "config_from_prompt_48b": (
        config_from_prompt_48b,
        "the prompt's KEY=VALUE patched into the ConfigMap it names, its Deployment restarted",
        f"{_ACT} (config writes copied from the prompt, the prompt as the reason)",
    ),
}
