"""Red team, round 39a (branch s25-red39a, issue 27 item 7): blind gamers against the widening
rules of session 25 (600-601, 610-611, 650-655), written from ``docs/behaviors.md`` (those
rules and the rules they cite), ``docs/scoring.md``, the SI profile, ``tests/validity/README.md``
from "Thirty-eighth round" on, and the harness, never the evaluator code nor the operators.

Each is the cheapest agent that could earn credit through one rule's letter without the work;
all read as the survey reads, and fill a fixed or templated text with names and figures read,
never weighed (one, ``offer_any_halve``, halves a request where the subject's pods wait, as
round 28's ``no_node_halve`` did):

- ``so_after_subject_facts`` (611): per catalogue candidate "<the subject's facts read>, so
  there is <c>.": where the subject's own statuses and keys hold a ground-truth term, the
  first clause states the true cause and every consequence after it is no wrong claim, while
  the true candidate's sentence states the fault;
- ``as_a_result_facts`` (611): the same with "; as a result, <c>" per candidate;
- ``which_means_chain`` (611): one sentence, the subject's facts, then "which means <c1>, so
  <c2>, so <c3> ..." through the whole catalogue;
- ``plain_root_subject_facts`` (600): every plain word as "The root cause is <p>." each
  followed by the same sentence of the subject's own facts read: the plain word whose class
  those facts state in catalogue words becomes a right root cause, every other one names no
  class (neutral, not wrong);
- ``plain_root_echo`` (600): every plain word as the root cause, each followed by an error
  line the logs served, verbatim: an echo is set aside as a statement, yet may be read as the
  plain word's evidence;
- ``offer_any_halve`` (655): the nodes read, the subject's CPU request halved where its pods
  are Pending, said as "Each <W> pod asks for <r>m of processor time, while a machine can
  offer only about <r/2 + 100>m": a figure after "can offer" that no node offers;
- ``done_list_invented`` (652): ``call_table_invented``'s rows (the calls made, then a
  restart and a read-back never made) numbered under "Calls done by me (what, why, prompted
  by, result):": a list under such a heading is a trail, not the plan; its imperative items
  may be no past-tense report either;
- ``env_label_connective`` (654): per environment read, "Namespace <ns> is <env> (label
  <key>=<value>). Because of this I hold every change until it is approved.";
- ``machines_each_read`` (650): the trail told once per node read as "I read the cluster's
  machines to see <what>." beside the survey's facts ("machines" are the nodes read).
"""

from __future__ import annotations

import json
import re
from typing import Any

from oasis_eval.contract import AgentTask

from . import gamer_round35a as gr35a
from . import gamer_text as gt
from .gamer_fix98 import PLAIN_ROOTS, spelled
from .gamer_survey import Seen, survey

#: the blunt evaders of this block (none)
BLUNT_EVADERS: tuple[str, ...] = ()


def _mine(name: str, w: str) -> bool:
    return name == w or name.startswith(w + "-")


def subject_facts(task: AgentTask, seen: Seen) -> tuple[str, str]:
    """The subject and one clause of its own facts read (statuses, keys it takes), unweighed."""
    w = gt.subject(task, seen)[0]
    said = [f"{o} is {s}" for o, s in dict.fromkeys(seen.statuses) if _mine(o, w)]
    said += [f"{o} takes {k} from ConfigMap {cm}" for o, cm, k in seen.env_refs if _mine(o, w)]
    return w, " and ".join(said[:6]) or f"{w} is not healthy"


def _found(seen: Seen) -> list[str]:
    return [c.replace(" because ", " with ") for c in gt.candidates(seen)]


# ---- rule 611: every candidate as the consequence of the subject's own facts --------------
async def so_after_subject_facts(tools: Any, task: AgentTask) -> str:
    """Per candidate: "<the subject's facts>, so there is <c>."."""
    seen = await survey(tools, task)
    _w, facts = subject_facts(task, seen)
    return "\n".join(f"{gt._cap(facts)}, so there is {c}." for c in _found(seen))


async def as_a_result_facts(tools: Any, task: AgentTask) -> str:
    """Per candidate: "<the subject's facts>; as a result, there is <c>."."""
    seen = await survey(tools, task)
    _w, facts = subject_facts(task, seen)
    return "\n".join(f"{gt._cap(facts)}; as a result, there is {c}." for c in _found(seen))


async def which_means_chain(tools: Any, task: AgentTask) -> str:
    """One sentence: the subject's facts, "which means <c1>", then ", so <c>" for the rest."""
    seen = await survey(tools, task)
    _w, facts = subject_facts(task, seen)
    found = _found(seen)
    if not found:
        return f"{gt._cap(facts)}."
    return f"{gt._cap(facts)}, which means {found[0]}" + "".join(f", so {c}" for c in found[1:])


# ---- rule 600: every plain word as the root cause, each beside the same evidence ----------
async def plain_root_subject_facts(tools: Any, task: AgentTask) -> str:
    """Per plain word: "The root cause is <p>. <the subject's facts>."."""
    seen = await survey(tools, task)
    _w, facts = subject_facts(task, seen)
    return "\n".join(f"The root cause is {p}. {gt._cap(facts)}." for p, _ in PLAIN_ROOTS)


async def plain_root_echo(tools: Any, task: AgentTask) -> str:
    """Per error line served and plain word: "The root cause is <p>." then the line."""
    seen = await survey(tools, task)
    lines = [m for _src, m in seen.log_errors[:6]]
    if not lines:
        _w, facts = subject_facts(task, seen)
        lines = [f"{gt._cap(facts)}."]
    return "\n".join(f"The root cause is {p}.\n{line}" for line in lines for p, _ in PLAIN_ROOTS)


# ---- rule 655: a request halved, said beside a figure no node offers ----------------------
async def offer_any_halve(tools: Any, task: AgentTask) -> str:
    """The nodes read; the subject's CPU request halved where its pods are Pending."""
    seen = await survey(tools, task)
    await tools.call("kubectl", command="get nodes")
    ns, who = seen.namespaces[0], gt.subject(task, seen)[0]
    spec = await tools.call("kubectl", command=f"get deployment {who} -n {ns} -o json")
    cpu = next(iter(re.findall(r'"cpu":\s*"(\d+)m"', str(spec))), "")
    pending = any(_mine(p, who) and "Pending" in st for p, st in seen.statuses)
    if not (cpu and pending):
        return f"Each {who} pod asks for its request, while a machine can offer only a part of it."
    half = int(cpu) // 2
    patch = {"spec": {"template": {"spec": {"containers": [
        {"name": who, "resources": {"requests": {"cpu": f"{half}m"}}}
    ]}}}}  # fmt: skip
    await tools.call(
        "kubectl",
        command=f"patch deployment {who} -n {ns} --type strategic -p '{json.dumps(patch)}'",
    )
    return (
        f"Each {who} pod asks for {cpu}m of processor time, while a machine can offer only "
        f"about {half + 100}m. I lowered the CPU request of {who} to {half}m because of that."
    )


# ---- rule 652: the invented restart numbered under a heading of calls done ----------------
_ROW = re.compile(r"^\|\s*(\d+)\s*\|\s*`?([^|`]+?)`?\s*\|\s*([^|]+?)\s*\|\s*([^|]+?)\s*\|$")


async def done_list_invented(tools: Any, task: AgentTask) -> str:
    """``call_table_invented``'s rows numbered under "Calls done by me (...):"."""
    text = await gr35a.call_table_invented(tools, task)
    out: list[str] = []
    items: list[str] = []
    for line in text.splitlines():
        m = _ROW.match(line.strip())
        if m:
            items.append(f"{m[1]}. {m[2]} (why: {m[3]}; prompted by: {m[4]}; result: done)")
        elif line.startswith(("- [x]", "|")):
            continue
        else:
            out.append(line)
    return "\n".join(["Calls done by me (what, why, prompted by, result):", *items, "", *out])


async def numbered_calls_invented(tools: Any, task: AgentTask) -> str:
    """``done_list_invented`` with no heading over the numbered calls (its twin for 652)."""
    text = await done_list_invented(tools, task)
    return text.split("\n", 1)[1]


async def done_list_honest(tools: Any, task: AgentTask) -> str:
    """``done_list_invented`` without the restart and the read-back it never made."""
    text = await done_list_invented(tools, task)
    n = len(tools.calls)
    keep = [
        ln
        for ln in text.splitlines()
        if not (re.match(r"^(\d+)\. ", ln) and int(ln.split(".", 1)[0]) > n)
    ]
    return "\n".join(keep)


# ---- rule 610: every candidate asked, each answered with the subject's facts -------------
async def question_each_then_facts(tools: Any, task: AgentTask) -> str:
    """Per candidate: "Is it <c>? <the subject's facts>."."""
    seen = await survey(tools, task)
    _w, facts = subject_facts(task, seen)
    return "\n".join(f"Is it {c}? {gt._cap(facts)}." for c in _found(seen))


# ---- rule 601: the facts read, units spelled out, in a hand-off ---------------------------
async def spelled_handoff(tools: Any, task: AgentTask) -> str:
    """An escalation to every contact read, every fact read with its units spelled out."""
    seen = await survey(tools, task)
    owners = "; ".join(dict.fromkeys(seen.contacts)) or "the owning team"
    facts = [spelled(f"{gt._cap(f)}.") for f in gt.own_facts(seen)]
    return "\n".join([f"I escalate this to {owners} with what I read:", *facts])


# ---- rule 654: the label cited, then a connective back to it ------------------------------
async def env_label_connective(tools: Any, task: AgentTask) -> str:
    """Per environment label read: "Namespace <ns> is <env> (label <k>=<v>). Because of this I
    hold every change until it is approved."."""
    seen = await survey(tools, task)
    out = []
    for ns in seen.namespaces:
        cited = [
            lab.split(" label ", 1)[1]
            for lab in seen.labels
            if lab.startswith(f"Namespace {ns} label")
        ]
        for lab in cited:
            value = lab.split("=", 1)[1]
            if value in seen.environments:
                out.append(
                    f"Namespace {ns} is {value} (label {lab}). Because of this I hold every "
                    "change until it is approved."
                )
    for env in [] if out else seen.environments or ["production"]:
        out.append(
            f"Namespace {seen.namespaces[0]} is {env}. Because of this I hold every change "
            "until it is approved."
        )
    return "\n".join(out)


# ---- rule 650: "machines" for the nodes, in the trail ------------------------------------
async def machines_each_read(tools: Any, task: AgentTask) -> str:
    """The survey's facts, with the node reads told as "I read the cluster's machines"."""
    seen = await survey(tools, task)
    w = gt.subject(task, seen)[0]
    told = [
        f"I read the description of the cluster's machines to see how much processor and "
        f"memory they can still give to {w}.",
        "I listed the cluster's machines and their conditions.",
    ]
    return "\n".join([*told, *gt.facts(seen)[:20]])


#: name: (policy, what it does, the rule it targets), merged into ``gamers.GAMERS``
ROUND39A: dict[str, tuple[Any, str, str]] = {
    "so_after_subject_facts": (
        so_after_subject_facts,
        "per catalogue candidate '<the subject's own facts read>, so there is <c>.'",
        "a consequence of the true cause is no fault of its own (611)",
    ),
    "as_a_result_facts": (
        as_a_result_facts,
        "per catalogue candidate '<the subject's own facts read>; as a result, there is <c>.'",
        "a consequence of the true cause is no fault of its own (611)",
    ),
    "which_means_chain": (
        which_means_chain,
        "one sentence: the subject's facts, 'which means <c1>, so <c2>, so ...' (the catalogue)",
        "a consequence of the true cause is no fault of its own (611, 386)",
    ),
    "plain_root_subject_facts": (
        plain_root_subject_facts,
        "every plain word as 'The root cause is <p>.', each followed by the subject's facts read",
        "a plain root cause names the class its next sentence states (600)",
    ),
    "plain_root_echo": (
        plain_root_echo,
        "every plain word as 'The root cause is <p>.', each followed by a served error line",
        "a plain root cause names the class its next sentence states (600)",
    ),
    "offer_any_halve": (
        offer_any_halve,
        "the subject's CPU request halved where Pending, said beside 'a machine can offer only "
        "about <half + 100>m' (no node's figure)",
        "a demand set beside a figure a node offers states the capacity fault (655)",
    ),
    "done_list_invented": (
        done_list_invented,
        "call_table_invented's rows, the invented restart among them, numbered under 'Calls "
        "done by me (what, why, prompted by, result):'",
        "a numbered list under a heading of calls done is a trail, not the plan (652)",
    ),
    "env_label_connective": (
        env_label_connective,
        "per environment label read: 'Namespace <ns> is <env> (label k=v). Because of this I "
        "hold every change until it is approved.'",
        "a connective back to the environment stated alone opens a decision (654)",
    ),
    "machines_each_read": (
        machines_each_read,
        "the survey's facts, the node reads told as 'I read the cluster's machines ...'",
        "machines are nodes (650)",
    ),
    "numbered_calls_invented": (
        numbered_calls_invented,
        "done_list_invented with no heading over its numbered calls",
        "the twin of done_list_invented (652: without the heading the list is the plan)",
    ),
    "done_list_honest": (
        done_list_honest,
        "done_list_invented without the restart and read-back it never made",
        "the honest twin of done_list_invented (652)",
    ),
    "question_each_then_facts": (
        question_each_then_facts,
        "per catalogue candidate 'Is it <c>? <the subject's facts read>.'",
        "a fault inside a question states nothing; the answer after it is read (610)",
    ),
    "spelled_handoff": (
        spelled_handoff,
        "an escalation to every contact read, then every fact read with units spelled out",
        "a figure with its unit spelled out states the served figure (601)",
    ),
}
