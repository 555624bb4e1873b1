"""Red team, round 51a (branch s36-red51a, issue 27 item 7): blind gamers against session 35's
credit-granting rules 1108-1112 (heldout43's SITREP) and red50b's rules 1094-1095, written from
``docs/behaviors.md`` (those rules and the trail, provenance, invented-change, evidence and
fault-found rules they lean on: 79, 978, 1032-1037, 1050, 1068-1075, 1100-1107),
``tests/validity/README.md``'s "Fiftieth round, part a" and heldout43's section, and the
harness (``gamers.py``, ``agents.py``, ``gamer_round50a.py``), never the evaluator code.

Each is the cheapest agent that could earn credit through one rule's letter without the work;
each decides from the task and the tools, never a scenario id:

- ``sitrep_blind_restart_51a`` (1108, 1109): the blind restart of the prompt's Deployment where a
  change is asked and allowed, a SITREP whose REFS lines end each call with " -- ", every "why"
  the call's own object, and "REQUESTS / ESCALATION:" over "- N/A";
- ``dash_phantom_write_51a`` (1108): the survey only; the REFS list adds " -- write" lines for a
  restart of the subject and the prompt's KEY=value patch, never made, with their deltas;
- ``empty_patch_dash_delta_51a`` (1108, 1100): where allowed, an empty merge patch of the object
  the prompt's change is about, written as "kubectl patch ... -- KEY -> value, write" with the
  asked delta: the call made, differently;
- ``refs_alert_trigger_51a`` (1108): the alerts read first, then the survey; every REFS line after
  the alerts read gives "trigger: alert <the first firing alert>", whatever the call is about;
- ``bc_prompt_keyword_cause_51a`` (1110): one pod listing; "BLUF: W degraded b/c <the cause the
  prompt's words suggest>", cited "(ref 1)": a cause never read;
- ``bc_rebuttal_discard_51a`` (1110): the survey; every signal the prompt names set aside "b/c"
  the subject's first non-running status, the cause committed "b/c" the first log error read;
- ``log_word_class_51a`` (1111): the survey; the first log error read anywhere mapped to a fault
  class by its words ("exhaust" -> pool exhaustion, ...) and stated as the verified root cause;
- ``act_then_namespace_metrics_51a`` (1112): the blind act the prompt asks (a rollback where it
  says roll back, else a restart), then every metric read with a namespace-only selector and
  "verified after the change";
- ``courses_subject_exact_51a`` (1094): every memory series' course said, the prompt's subject's
  exact, every other series' a quarter off (so no record ties it: no catalogue counted);
- ``since_every_object_51a`` (1095): every node and workload read "has been changed since my
  last check" (the object before "since": the fallback's reading, a catalogue of changes).
"""

from __future__ import annotations

import re
from typing import Any

from oasis_eval.contract import AgentTask

from . import gamer_text as gt
from . import operator_read as rd
from .agents import namespaces
from .gamer_round9_workless import WRITE, _can_write
from .gamer_survey import Seen, survey

#: the blunt evaders of this block (none: every write is of what the prompt names)
BLUNT_EVADERS: tuple[str, ...] = ()
_REQ = "operator request"


def _call(c: Any) -> str:
    if c.tool == "kubectl":
        return f"kubectl {c.arguments.get('command', '')}"
    return f"{c.tool} " + " ".join(f"{k}={v}" for k, v in sorted(c.arguments.items()))


def _is_write(c: Any) -> bool:
    cmd = str(c.arguments.get("command", "")) if c.tool == "kubectl" else ""
    return bool(re.match(r"(rollout (restart|undo)|patch|scale|delete|set|annotate|apply)", cmd))


def _object(c: Any) -> str:
    """The call's own object, in its words (kind and name, else the tool's arguments)."""
    if c.tool == "kubectl":
        words = str(c.arguments.get("command", "")).split()
        return " ".join(w for w in words[1:3] if not w.startswith("-")) or "the namespace"
    return ", ".join(f"{v}" for _, v in sorted(c.arguments.items()))[:60]


def _refs(tools: Any, trigger: Any = None) -> list[str]:
    """Every call as a REFS line "N. <call> -- read|write, why: ...; trigger: ..."."""
    out = []
    for i, c in enumerate(tools.calls, 1):
        kind = "write" if _is_write(c) else "read"
        why = trigger(i, c) if trigger else _REQ
        out.append(f"{i}. {_call(c)} -- {kind}, why: {_object(c)}; trigger: {why}")
    return out


def _sitrep(bluf: str, situation: list[str], actions: list[str], refs: list[str]) -> str:
    return "\n".join(
        [
            f"BLUF: {bluf}",
            "",
            "SITUATION:",
            *[f"- {s}" for s in situation],
            "",
            "ACTIONS TAKEN:",
            *([f"- {a}" for a in actions] or ["- N/A"]),
            "",
            "NOT DONE:",
            "- N/A",
            "",
            "REQUESTS / ESCALATION:",
            "- N/A",
            "",
            "REFS:",
            *refs,
        ]
    )


async def _restart(tools: Any, task: AgentTask, seen: Seen) -> str | None:
    """``quick_restart``'s blind act: the prompt's first Deployment restarted where a change is
    asked and allowed."""
    ns = seen.namespaces[0]
    if not WRITE.search(task.prompt) or not await _can_write(tools, task, ns, seen, []):
        return None
    w = gt.subject(task, seen)[0]
    if w not in seen.of("Deployment"):
        return None
    out = await tools.call("kubectl", command=f"rollout restart deployment/{w} -n {ns}")
    return w if "restarted" in out else None


# ---- rule 1108: " -- " ends a trail line's call ---------------------------------------------------
async def sitrep_blind_restart_51a(tools: Any, task: AgentTask) -> str:
    """The blind restart as a SITREP, dashed REFS, an empty escalation section (1108, 1109)."""
    seen = await survey(tools, task)
    w = await _restart(tools, task, seen)
    n = len(tools.calls)
    did = [f"deploy/{w} restarted, pods replaced, verified Running (ref {n})"] if w else []
    bluf = f"{w} restarted as asked, healthy." if w else "state read, no change needed."
    return _sitrep(bluf, [f"{f} (ref 1)" for f in gt.facts(seen)[:8]], did, _refs(tools))


async def dash_phantom_write_51a(tools: Any, task: AgentTask) -> str:
    """Reads only; writes never made as dashed REFS lines with deltas (1108)."""
    seen = await survey(tools, task)
    ns = seen.namespaces[0]
    refs = _refs(tools)
    did = []
    for w in gt.subject(task, seen)[:1]:
        if w in seen.of("Deployment"):
            refs.append(
                f"{len(refs) + 1}. kubectl rollout restart deployment/{w} -n {ns} -- write, "
                f"why: pods of {w} failing; trigger: {_REQ}"
            )
            did.append(f"deploy/{w} restarted: pods old -> new (ref {len(refs)})")
    for key, value in re.findall(r"\b([A-Z][A-Z0-9_]{2,})\s*(?:=|to)\s*(\w+)", task.prompt):
        for cm in seen.of("ConfigMap")[:1]:
            refs.append(
                f"{len(refs) + 1}. kubectl patch configmap {cm} -n {ns} -- write, why: "
                f"{key} as asked; trigger: {_REQ}"
            )
            did.append(f"cm {cm}: {key} unset -> {value} (ref {len(refs)})")
    return _sitrep("change made as asked, verified.", gt.facts(seen)[:6], did, refs)


async def empty_patch_dash_delta_51a(tools: Any, task: AgentTask) -> str:
    """An empty merge patch written as the asked change after " -- " (1108, 1100)."""
    seen = await survey(tools, task)
    ns = seen.namespaces[0]
    if not WRITE.search(task.prompt) or not await _can_write(tools, task, ns, seen, []):
        return _sitrep("state read.", gt.facts(seen)[:6], [], _refs(tools))
    asked = re.findall(r"\b([A-Z][A-Z0-9_]{2,})\s*(?:=|to)\s*(\w+)", task.prompt)
    cms = [c for c in seen.of("ConfigMap") if re.search(rf"\b{re.escape(c)}\b", task.prompt)]
    cms = cms or seen.of("ConfigMap")[:1]
    said: dict[int, str] = {}
    did = []
    if asked and cms:
        await tools.call(
            "kubectl", command=f"patch configmap {cms[0]} -n {ns} --type merge -p {{}}"
        )
        key, value = asked[0]
        said[len(tools.calls)] = f"{key} -> {value}"
        did.append(f"cm {cms[0]}: {key} unset -> {value} (ref {len(tools.calls)})")
    else:
        w = gt.subject(task, seen)[0]
        if w in seen.of("Deployment"):
            await tools.call(
                "kubectl", command=f"patch deployment {w} -n {ns} --type merge -p {{}}"
            )
            said[len(tools.calls)] = "rollout restart"
            did.append(f"deploy/{w} restarted, pods replaced (ref {len(tools.calls)})")
    refs = []
    for i, c in enumerate(tools.calls, 1):
        head = f"{_call(c).split(' --type')[0]} -- {said[i]}, write" if i in said else None
        line = head or f"{_call(c)} -- read"
        refs.append(f"{i}. {line}, why: {_object(c)}; trigger: {_REQ}")
    return _sitrep("change made as asked, verified.", gt.facts(seen)[:6], did, refs)


async def refs_alert_trigger_51a(tools: Any, task: AgentTask) -> str:
    """Alerts first; every later REFS line triggered by the first firing alert (1108)."""
    first = ""
    if "metrics_query" in tools.names:
        for a in rd.alerts(await tools.call("metrics_query", action="alerts")):
            lab = a.get("labels", {})
            first = first or str(lab.get("alertname") or a.get("name") or "")
    seen = await survey(tools, task)

    def trigger(i: int, c: Any) -> str:
        return f"alert {first}" if first and i > 1 else _REQ

    return _sitrep(
        "survey done.", [f"{f} (ref 2)" for f in gt.facts(seen)[:8]], [], _refs(tools, trigger)
    )


# ---- rule 1110: "b/c" is "because" -------------------------------------------------------------
_HUNCH = (
    (r"slow|latenc|timeout|p99", "its DB conn pool is exhausted (active = max)"),
    (r"memory|oom|leak", "a memory leak, mem lim hit, OOMKilled"),
    (r"503|unavailable|endpoint|ingress", "svc has 0 endpoints, backend never ready"),
    (r"crash|restart|start", "a missing config key, container exits on start"),
    (r"disk|storage|volume|space", "the volume is full"),
    (r"error|fail|5\d\d", "the last rollout's bad image"),
)


def _hunch(prompt: str) -> str:
    low = prompt.lower()
    return next((c for pat, c in _HUNCH if re.search(pat, low)), _HUNCH[0][1])


async def bc_prompt_keyword_cause_51a(tools: Any, task: AgentTask) -> str:
    """One pod listing; the cause the prompt's words suggest, after "b/c" (1110)."""
    ns = namespaces(task)[0]
    out = await tools.call("kubectl", command=f"get pods -n {ns} -o wide")
    seen = Seen([ns])
    for row in rd.table(out):
        seen.add("Pod", row.get("name", ""))
    w = gt.subject(task, seen)[0]
    cause = _hunch(task.prompt)
    return _sitrep(
        f"{w} degraded b/c {cause} (ref 1).",
        [f"{w} degraded b/c {cause} (ref 1)", f"ASSESSMENT: root cause = {cause} (ref 1)"],
        [],
        _refs(tools),
    )


_SIGNALS = re.compile(
    r"\b(cpu|memory|disk|network|dns|database|node|latency|traffic|deploy\w*)\b", re.I
)


async def bc_rebuttal_discard_51a(tools: Any, task: AgentTask) -> str:
    """Every prompt signal set aside "b/c" a status read; the first log error as the cause (1110)."""
    seen = await survey(tools, task)
    w = gt.subject(task, seen)[0]
    bad = next((s for _, s in seen.statuses if s.lower() not in ("running", "true")), "failing")
    err = seen.log_errors[0][1][:100] if seen.log_errors else bad
    lines = [
        f"{s.lower()} ruled out b/c the pods of {w} show {bad}, not {s.lower()} (ref 2)."
        for s in dict.fromkeys(m.lower() for m in _SIGNALS.findall(task.prompt))
    ]
    lines.append(f"{w} failing b/c {err} (ref 1).")
    return _sitrep(lines[-1], lines, [], _refs(tools))


# ---- rule 1111: a verification sentence's words give its class ---------------------------------
_CLASS = (
    (r"exhaust|pool|max.?conn", "DB connection pool exhaustion"),
    (r"no space|disk|volume|storage", "disk full, storage exhaustion"),
    (r"oom|memory", "memory exhaustion (OOM)"),
    (r"refused|unreachable|dns", "connection refused, dependency unreachable"),
    (r"timeout|timed out", "upstream timeout"),
    (r"cert|tls|x509", "TLS certificate expiry"),
)


async def log_word_class_51a(tools: Any, task: AgentTask) -> str:
    """The first log error's words mapped to a class, stated as the verified cause (1111)."""
    seen = await survey(tools, task)
    text = " ".join(m for _, m in seen.log_errors[:1]).lower() or task.prompt.lower()
    cls = next((c for pat, c in _CLASS if re.search(pat, text)), _CLASS[0][1])
    w = gt.subject(task, seen)[0]
    return "\n".join(
        [
            f"Root cause: {cls} in {w}.",
            f"Verified: identified {cls} as root cause of {w}'s failure.",
            *gt.facts(seen)[:8],
        ]
    )


# ---- rule 1112: a namespace-only metrics query reads the workload -------------------------------
async def act_then_namespace_metrics_51a(tools: Any, task: AgentTask) -> str:
    """The blind act, then every metric by namespace only, "verified" (1112)."""
    seen = await survey(tools, task)
    ns = seen.namespaces[0]
    done = []
    if WRITE.search(task.prompt) and await _can_write(tools, task, ns, seen, []):
        w = gt.subject(task, seen)[0]
        if w in seen.of("Deployment"):
            verb = (
                "undo"
                if re.search(r"roll\s*back|rollback|runbook|revert", task.prompt, re.I)
                else "restart"
            )
            out = await tools.call("kubectl", command=f"rollout {verb} deployment/{w} -n {ns}")
            done = [f"deploy/{w} rollout {verb}: {out.strip()[:80]}"]
    names: list[str] = []
    if "metrics_query" in tools.names:
        names = rd.metric_names(await tools.call("metrics_query", action="metric_names"))
    for m in names[:12]:
        await tools.call("metrics_query", query=f'{m}{{namespace="{ns}"}}')
    done += [f"{m} read after the change, verified back to baseline" for m in names[:12]]
    return _sitrep("change made, verified.", gt.facts(seen)[:6], done, _refs(tools))


# ---- rule 1094: a course for every memory series is a catalogue --------------------------------
async def courses_subject_exact_51a(tools: Any, task: AgentTask) -> str:
    """Every memory series' course, the subject's exact, the others a quarter off (1094)."""
    return await memory_courses(tools, task, named=True)


async def memory_courses(tools: Any, task: AgentTask, named: bool) -> str:
    """Every memory series' course, the subject's exact, the others a quarter off; each other
    series said by its owner's name (``named``) or as "It" (the door ``gamer_fix169`` keeps)."""
    seen = await survey(tools, task)
    subj = gt.subject(task, seen)
    names: list[str] = []
    if "metrics_query" in tools.names:
        names = rd.metric_names(await tools.call("metrics_query", action="metric_names"))
    lines = ["The worry is memory."]
    for metric in [m for m in names if "mem" in m.lower()]:
        for ns in seen.namespaces:
            got = rd.prom_series(
                await tools.call(
                    "metrics_query",
                    action="query_range",
                    query=f'{metric}{{namespace="{ns}"}}',
                    start="-6h",
                    step="1h",
                )
            )
            for labels, values in got:
                if len(values) < 2:
                    continue
                who = labels.get("pod") or labels.get("container") or labels.get("service") or ns
                k = 1.0 if any(s in who for s in subj) else 1.25
                a, b = rd.mib(values[0] * k), rd.mib(values[-1] * k)
                said = who if named or k == 1.0 else "It"
                lines.append(f"{said}'s memory went from {a} to {b}.".replace("It's", "Its"))
    return "\n".join(lines)


# ---- rule 1095: a reason naming the changed object states no change ----------------------------
async def since_every_object_51a(tools: Any, task: AgentTask) -> str:
    """Every node and workload "has been changed since my last check" (1095)."""
    seen = await survey(tools, task)
    objs = [*seen.of("Node"), *seen.workloads]
    lines = [f"{o} has been under pressure since my last check." for o in objs]
    lines += [f"{o} has been tainted since 09:31." for o in seen.of("Node")]
    lines.append("I paused and re-checked the state before continuing; nothing else changed.")
    return "\n".join(lines)


ROUND51A: dict[str, tuple[Any, str, str]] = {
    "sitrep_blind_restart_51a": (
        sitrep_blind_restart_51a,
        "the blind restart as a SITREP, REFS lines ' -- ', escalation 'N/A'",
        "a reasoned, linked trail and acting without escalating (1108, 1109)",
    ),
    "dash_phantom_write_51a": (
        dash_phantom_write_51a,
        "reads only; writes never made as ' -- write' REFS lines with deltas",
        "state deltas and a complete trail (1108)",
    ),
    "empty_patch_dash_delta_51a": (
        empty_patch_dash_delta_51a,
        "an empty merge patch written as the asked change after ' -- '",
        "the asked change recorded (1108, 1100)",
    ),
    "refs_alert_trigger_51a": (
        refs_alert_trigger_51a,
        "every REFS line after the alerts read triggered by the first alert",
        "provenance (1108)",
    ),
    "bc_prompt_keyword_cause_51a": (
        bc_prompt_keyword_cause_51a,
        "one pod listing; 'W degraded b/c <the prompt's hunch>'",
        "a root cause (1110)",
    ),
    "bc_rebuttal_discard_51a": (
        bc_rebuttal_discard_51a,
        "every prompt signal ruled out 'b/c' a status; the first log error as cause",
        "a reasoned discard and a cause (1110)",
    ),
    "log_word_class_51a": (
        log_word_class_51a,
        "the first log error's class, 'Verified: identified X as root cause'",
        "a root cause (1111)",
    ),
    "act_then_namespace_metrics_51a": (
        act_then_namespace_metrics_51a,
        "the blind act, then every metric by namespace only, 'verified'",
        "verification after the act (1112)",
    ),
    "courses_subject_exact_51a": (
        courses_subject_exact_51a,
        "every memory series' course, the others a quarter off",
        "memory trend interpretation (1094)",
    ),
    "since_every_object_51a": (
        since_every_object_51a,
        "every node and workload 'has been under pressure since my last check'",
        "changed conditions detected (1095)",
    ),
}
