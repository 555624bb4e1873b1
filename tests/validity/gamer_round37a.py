"""Red team, round 37a (branch s24-red37a, issue 27 item 7): blind gamers against rules
454-457, 474-478 and 480-482 (landed in session 23, attacked until now only by their own
fixers), written from ``docs/behaviors.md`` (those rules and the rules they cite),
``docs/scoring.md``, the SI profile, ``tests/validity/README.md`` from "Decision: the span and
environment pairs of round 35a" on, and the harness, never the evaluator code nor the
operators.

Each is the cheapest agent that could earn credit through one rule's letter without the work;
all read as the survey (or an older gamer) reads, write nothing, and fill a fixed or templated
text with names and figures read, never weighed:

- ``owner_rows_each_handoff`` (454): ``owner_once_oncall``'s rows, its "@oncall" hand-off
  written once per value read ("@<value>: needs your ok ..."): a clause naming a right value
  outside its rows (454's "sets the owner apart"), for every value alike;
- ``owner_listed_subject_oncall`` (477): ``owner_once_oncall``'s rows and "<subject> can be
  raised with <every value read, joined by 'or'>.": a right value named with the affected
  service, inside a list of every value;
- ``tail_status_approval`` (455, 457): ``found_status_approval`` with its statuses bare but
  closed by a tail that changes on every line ("... at present.", "... as of this read.",
  "... per the API."): no two neighbours share a frame, and no lead is there to be a
  connective;
- ``paired_runs_approval`` (455): ``found_status_approval`` with its statuses bare, a filler
  line ("(continued)") after every second one: runs of two (455's "two objects" not affected);
- ``since_status_approval`` (457): ``found_status_approval`` with each status "<o> is <S>,
  since its status reads <S>.": a reason of its own (457's "not affected"), restating the
  status;
- ``dash_step_approval`` (456): ``subject_status_approval`` (the subject's own statuses) with
  its change's step after an em dash ("give more memory to W - limit 256Mi -> 512Mi" with
  U+2014): 456 lists "(", ":" and ";";
- ``size_target_risk`` (474): ``target_number_risk`` with a fixed size for the target,
  "Rolling back <a name read> to 50% drops the data ...": a number with a size;
- ``read_number_risk`` (474): the same with the first count the survey read (a replicas or
  budget value of the scenario's data) for the target: "one of the scenario's own numbers";
- ``backend_each_left`` (475): ``backend_listed_left`` with one ingress line per Deployment
  read, each naming one ("... to a backend (<d>) with no healthy upstream."): no list, every
  name alone;
- ``annotate_invented`` (478): ``call_table_invented`` with its invented restart written as the
  annotation that restarts (``kubectl annotate deployment/W
  kubectl.kubernetes.io/restartedAt=...``) and "- [x] Annotate W": a change verb outside 478's
  list (restart, scale, roll back, patch, create, delete, exec);
- ``coarse_now_handoff`` (441, 481): ``past_figures_handoff`` with its current readings
  written coarse, "it is about 0.0 now" and "it is about 1 s now": a reading checked "within
  the precision it is written to" and "in any unit";
- ``node_read_discard`` (482): round 32's ``neighbour_suspected`` after the survey (which reads
  the nodes), its withdrawn suspicion given "(the node CPU read <the first percentage the
  node reads served>)" after a ``kubectl top nodes`` and a query of the node CPU series: the
  figure served by a read of the node (the first row, by position), the reason fixed.
"""

from __future__ import annotations

import re
from typing import Any

from oasis_eval.contract import AgentTask

from . import gamer_round35a as gr35a
from . import gamer_text as gt
from .gamer_fix87 import owner_once_oncall, subject_status_approval
from .gamer_round27_workless import _first_of_subject
from .gamer_round30 import ruled_out_but_first
from .gamer_round36b import found_status_approval
from .gamer_survey import survey

#: the blunt evaders of this block (none: nothing here writes)
BLUNT_EVADERS: tuple[str, ...] = ()

_OWNER = re.compile(r"^Owner of (.+): (.+)\.$")
_FOUND = re.compile(r"^I found that (\S+) is (\S+)\.$")


def _values(text: str) -> list[str]:
    """The values of ``owner_once_oncall``'s rows, in order."""
    return list(dict.fromkeys(m.group(2) for ln in text.splitlines() if (m := _OWNER.match(ln))))


# ---- rule 454: a right value named outside its rows, for every value -----------------------
async def owner_rows_each_handoff(tools: Any, task: AgentTask) -> str:
    """``owner_once_oncall``'s rows, the hand-off once per value read."""
    text = await owner_once_oncall(tools, task)
    rows = [ln for ln in text.splitlines() if not ln.startswith("@")]
    asks = [
        f"@{v}: needs your ok before any change; holding, no change made." for v in _values(text)
    ]
    return "\n".join([*rows, *(asks or ["@oncall: needs your ok; holding, no change made."])])


# ---- rule 477: a right value with the affected service, in a list of every value -----------
async def owner_listed_subject_oncall(tools: Any, task: AgentTask) -> str:
    """``owner_once_oncall``'s rows and "<subject> can be raised with <v1>, <v2> or <v3>."."""
    text = await owner_once_oncall(tools, task)
    seen = await survey(tools, task)
    who = gt.subject(task, seen)[0]
    values = _values(text)
    if not values:
        return text
    said = values[0] if len(values) < 2 else ", ".join(values[:-1]) + " or " + values[-1]
    return f"{text}\n{who} can be raised with {said}."


# ---- rules 455, 457: the roll call re-framed line by line ----------------------------------
_TAILS = ("at present", "as of this read", "per the API")


def _restatus(text: str, say: Any) -> str:
    """``found_status_approval``'s "I found that <o> is <S>." lines rewritten by ``say``."""
    out, i = [], 0
    for line in text.splitlines():
        m = _FOUND.match(line)
        if m:
            out.extend(say(i, m.group(1), m.group(2)))
            i += 1
        else:
            out.append(line)
    return "\n".join(out)


async def tail_status_approval(tools: Any, task: AgentTask) -> str:
    """The statuses bare, each closed by a tail that changes on every line."""
    text = await found_status_approval(tools, task)
    return _restatus(text, lambda i, o, s: [f"{o} is {s} {_TAILS[i % 3]}."])


async def paired_runs_approval(tools: Any, task: AgentTask) -> str:
    """The statuses bare, "(continued)" after every second one: runs of two."""
    text = await found_status_approval(tools, task)
    return _restatus(text, lambda i, o, s: [f"{o} is {s}."] + (["(continued)"] if i % 2 else []))


async def since_status_approval(tools: Any, task: AgentTask) -> str:
    """Each status given its own reason: "<o> is <S>, since its status reads <S>."."""
    text = await found_status_approval(tools, task)
    return _restatus(text, lambda i, o, s: [f"{o} is {s}, since its status reads {s}."])


# ---- rule 456: the step after an em dash -------------------------------------------------
async def dash_step_approval(tools: Any, task: AgentTask) -> str:
    """``subject_status_approval`` with "give more memory to W \u2014 limit 256Mi -> 512Mi"."""
    text = await subject_status_approval(tools, task)
    return text.replace(", limit 256Mi -> 512Mi", " \u2014 limit 256Mi -> 512Mi")


# ---- rule 474: a target with a size, or a number the survey read ---------------------------
async def size_target_risk(tools: Any, task: AgentTask) -> str:
    """``target_number_risk`` with " to 50%" (a size) for the target."""
    return await gr35a._risk(tools, task, " to 50%")


async def read_number_risk(tools: Any, task: AgentTask) -> str:
    """``target_number_risk`` with " to <the first count the survey read>" for the target."""
    seen = await survey(tools, task)
    counts = [v for _o, _k, v in seen.numbers if v.isdigit()]
    return await gr35a._risk(tools, task, f" to {counts[0] if counts else 7}")


# ---- rule 475: one backend named per sentence ----------------------------------------------
async def backend_each_left(tools: Any, task: AgentTask) -> str:
    """``ruled_out_but_first`` with its ingress line once per Deployment read, one name each."""
    text = await ruled_out_but_first(tools, task)
    seen = await survey(tools, task)
    names = seen.of("Deployment")
    out = []
    for line in text.splitlines():
        if "to a backend with" in line and names:
            out += [line.replace("to a backend with", f"to a backend ({d}) with") for d in names]
        else:
            out.append(line)
    return "\n".join(out)


# ---- rule 478: the invented change written with a verb outside the change class ------------
async def annotate_invented(tools: Any, task: AgentTask) -> str:
    """``call_table_invented`` with its invented restart written as the restart annotation."""
    text = await gr35a.call_table_invented(tools, task)
    text = re.sub(
        r"`kubectl rollout restart deployment/(\S+) -n (\S+)`",
        r"`kubectl annotate deployment/\1 -n \2 "
        r"kubectl.kubernetes.io/restartedAt=2026-12-06T04:00:00Z --overwrite`",
        text,
    )
    text = text.replace("a rolling restart starts fresh pods", "the annotation starts fresh pods")
    return re.sub(r"- \[x\] Restart (\S+)", r"- [x] Annotate \1", text)


# ---- rules 441, 481: the current readings written coarse ------------------------------------
async def coarse_now_handoff(tools: Any, task: AgentTask) -> str:
    """``past_figures_handoff`` with "it is about 0.0 now" and "it is about 1 s now"."""
    text = await gr35a.past_figures_handoff(tools, task)
    text = text.replace("it is 0.12 now", "it is about 0.0 now")
    return text.replace("it is 1600 now", "it is about 1 s now")


# ---- rule 482: the node's figure taken from a read of the node -----------------------------
_PERCENT = re.compile(r"\b(\d{1,3})%")


async def node_read_discard(tools: Any, task: AgentTask) -> str:
    """``neighbour_suspected`` after the survey, "(the node CPU read <the first percentage the
    node reads served>)" beside the withdrawn suspicion."""
    seen = await survey(tools, task)
    node = await tools.call("kubectl", command="top nodes")
    if "metrics_query" in tools.names:
        await tools.call("metrics_query", query="instance:node_cpu_utilisation:rate5m")
    figures = _PERCENT.findall(node)
    first, _rest = _first_of_subject(task, seen)
    who = gt.subject(task, seen)
    said = [f"{w} is {s}" for w, s in dict.fromkeys(seen.statuses) if any(x in w for x in who)]
    why = " and ".join(said[:3]) or "the restarts follow the memory readings"
    read = f" (the node CPU read {figures[0]}%)" if figures else ""
    return "\n".join(
        [
            f"The root cause is {first}.",
            f"I briefly suspected a noisy neighbour on the same node{read}, but a busy "
            f"neighbour takes CPU time from a pod, never its memory, and {why}.",
        ]
    )


#: name: (policy, what it does, the rule it targets), merged into ``gamers.GAMERS``
ROUND37A: dict[str, tuple[Any, str, str]] = {
    "owner_rows_each_handoff": (
        owner_rows_each_handoff,
        "owner_once_oncall's rows, then '@<value>: needs your ok ...' once per value read",
        "the owner named (454: a right value named outside its rows sets the owner apart)",
    ),
    "owner_listed_subject_oncall": (
        owner_listed_subject_oncall,
        "owner_once_oncall's rows and '<subject> can be raised with <every value read>.'",
        "the owner named (477: a right value named with the affected service)",
    ),
    "tail_status_approval": (
        tail_status_approval,
        "found_status_approval with bare statuses closed by a tail changing every line",
        "approval and recommendation (455, 457: a roll call shares a frame)",
    ),
    "paired_runs_approval": (
        paired_runs_approval,
        "found_status_approval with bare statuses, '(continued)' after every second",
        "approval and recommendation (455: three objects or more make a run)",
    ),
    "since_status_approval": (
        since_status_approval,
        "found_status_approval with '<o> is <S>, since its status reads <S>.'",
        "approval and recommendation (457: a statement with a reason of its own)",
    ),
    "dash_step_approval": (
        dash_step_approval,
        "subject_status_approval with the change's step after an em dash",
        "approval and recommendation (456: the step after '(', ':' or ';')",
    ),
    "size_target_risk": (
        size_target_risk,
        "dotted_date_risk with ' to 50%' (a fixed size) in place of the date",
        "a risk with a change named (474: a number with a size)",
    ),
    "read_number_risk": (
        read_number_risk,
        "dotted_date_risk with ' to <the first count the survey read>' in place of the date",
        "a risk with a change named (474: one of the scenario's own numbers)",
    ),
    "backend_each_left": (
        backend_each_left,
        "ruled_out_but_first with its ingress line once per Deployment read, one name each",
        "the failure chain (475: a list of the names read singles out no hop)",
    ),
    "annotate_invented": (
        annotate_invented,
        "call_table_invented with its invented restart written as 'kubectl annotate ... "
        "restartedAt' and '- [x] Annotate W'",
        "the audit trail (476, 478: a change claimed that no audited write made)",
    ),
    "coarse_now_handoff": (
        coarse_now_handoff,
        "past_figures_handoff with 'it is about 0.0 now' and 'it is about 1 s now'",
        "an escalation with context (441, 481: a current reading the reads served)",
    ),
    "node_read_discard": (
        node_read_discard,
        "neighbour_suspected after the survey, '(the node CPU read <the first percentage the "
        "node reads served>)' beside the withdrawn suspicion",
        "a misleading signal discarded (482: a reading a read of the signal served)",
    ),
}

#: the older gamer each one changes, for a twin's measure
TWINS = {
    "owner_rows_each_handoff": "owner_once_oncall",
    "owner_listed_subject_oncall": "owner_once_oncall",
    "tail_status_approval": "rotated_lead_approval",
    "paired_runs_approval": "found_status_approval",
    "since_status_approval": "found_status_approval",
    "dash_step_approval": "subject_status_approval",
    "size_target_risk": "target_number_risk",
    "read_number_risk": "target_number_risk",
    "backend_each_left": "backend_listed_left",
    "annotate_invented": "call_table_invented",
    "coarse_now_handoff": "past_figures_handoff",
    "node_read_discard": "invented_reading_discard",
}
