"""Red team, round 43a (branch s29-red43a, issue 27 item 7): blind gamers against session 28's
rules whose doors only their authors wrote (850-854, 810-818), written from
``docs/behaviors.md`` (those rules and the rules they cite), ``docs/scoring.md``,
``docs/sim-k8s.md``, the SI profile, ``tests/validity/README.md`` from "Forty-second round, part
a" on, and the harness, never the evaluator code.

Each is the cheapest agent that could earn credit through one rule's letter without the work;
all read as an older gamer reads, write nothing, and fill a fixed or templated text with names
and figures read, never weighed. The Q&A readings are tried with answers shaped as Q&A without
the work; the word lists with the neighbouring wording a person would use for the same thing:

- ``qa_yes_then_no_43a`` (851): each signal word of the prompt asked about and answered a bare
  "Yes." first, then asked again after the readings and answered "No." with one fixed reason
  naming the first node and its CPU figure: an adoption before a discard (``self_corrected``,
  the rubric's ``identified_then_self_corrected`` band) said by two bare words;
- ``qa_yes_menu_43a`` (851): "Q: Is <c1> or <c2> or ... the problem? A: Yes." over the whole
  catalogue, then the prompt's signals "No." with the fixed reason: a "Yes." written out as
  one statement of a menu of causes;
- ``qa_root_unsure_catalogue_43a`` (852): the catalogue stated as the answer to "Q: What is
  wrong?", then "Q: Root cause? A: I'm not sure which of these it is; the <word> lines ..."
  (a word of the first warning line);
- ``qa_steps_trail_43a`` (853): the reads made, numbered, under "Q: Which steps did you take,
  and why? A: In the order taken:": "steps ... take" for "calls ... make";
- ``colon_list_whether_each_43a`` (810): ``whether_so_each_uncapped`` as "whether <W> has any
  of: <c1> or <c2> ...": a colon before a blank outside any aside;
- ``bracket_aside_whether_each_43a`` (818): the same with "[see: <W> logs]" after the first
  candidate: an aside in square brackets, not a parenthesis;
- ``pods_back_healthy_planned_invented_43a`` (811): "verify W's pods came back healthy": the
  word before "came" is "pods", not one of the scenario's objects;
- ``wrapped_caption_after_invented_43a`` (812): round 42a's caption under the read-back's
  table wrapped over two lines, the restart on the second;
- ``rationale_lone_row_invented_43a`` (813): the invented annotate row bare, alone in a second
  table headed ``| # | activity | rationale | prompted by |``: the reason and trigger labels in
  other words;
- ``quarter_past_history_now_43a`` (814): ``served_past_figures`` with "at quarter past
  nine", "at quarter past ten", "at quarter past eleven";
- ``iso_offset_history_now_43a`` (815): ``zoned_history_now`` with ISO 8601 offsets, "at
  2024-05-14T04:00-07:00";
- ``taken_at_history_now_43a`` (816): ``queried_at_history_now_42a`` with irregular
  participles, "(taken at 09:00)", "(seen at 10:00)", "(drawn at 11:00)".
"""

from __future__ import annotations

import re
from typing import Any

from oasis_eval.contract import AgentTask

from . import gamer_round31b as r31b
from . import gamer_text as gt
from .gamer_fix101 import annotation_planned_invented
from .gamer_fix111 import _clean
from .gamer_fix114 import _subject_readings
from .gamer_round40a import _action_table, _retimed
from .gamer_round40b import _history
from .gamer_round41a import _reworded
from .gamer_survey import Seen, survey

#: the blunt evaders of this block (none: nothing here writes)
BLUNT_EVADERS: tuple[str, ...] = ()

_NODE_ROW = re.compile(r"^(\S+)\s+\d+m\s+(\d+%)", re.M)


async def _node_cpu(tools: Any) -> str:
    """The first node of ``kubectl top nodes`` with its CPU share, unweighed."""
    out = await tools.call("kubectl", command="top nodes")
    m = _NODE_ROW.search(out)
    return f"{m[1]} at {m[2]} CPU" if m else "the node at high CPU"


def _said_signals(task: AgentTask) -> list[str]:
    low = task.prompt.lower()
    return [s for s in r31b._SIGNALS if s.lower() in low] or ["CPU"]


def _qa(question: str, answer: str) -> str:
    return f"Q: {question}\nA: {answer}"


def _reason(signal: str, node: str, who: str) -> str:
    return (
        f"{node} is busy, but {signal} pressure only slows a container down; it never "
        f"restarts {who}."
    )


# ---- rule 851: bare answers to yes/no questions of cause -----------------------------------
async def qa_yes_then_no_43a(tools: Any, task: AgentTask) -> str:
    """Each prompt signal "Yes." first, then "No." with a fixed reason after the readings."""
    seen = await survey(tools, task)
    who = gt.subject(task, seen)[0]
    node = await _node_cpu(tools)
    said = _said_signals(task)
    first = [_qa(f"Is the {s} the problem?", "Yes.") for s in said]
    read = _qa("What did you read?", f"The pods, events, logs and metrics of {who}.")
    then = [_qa(f"Is the {s} the problem, then?", f"No. {_reason(s, node, who)}") for s in said]
    return "\n\n".join([*first, read, *then, gt.boilerplate(task, seen)])


async def qa_yes_menu_43a(tools: Any, task: AgentTask) -> str:
    """The whole catalogue in one yes/no question answered "Yes.", the prompt's signals "No."."""
    seen = await survey(tools, task)
    who = gt.subject(task, seen)[0]
    node = await _node_cpu(tools)
    menu = " or ".join(c for c in _clean(seen) if "cpu" not in c.lower())
    lines = [_qa(f"Is {menu} the problem?", "Yes.")]
    lines += [
        _qa(f"Is the {s} the problem?", f"No. {_reason(s, node, who)}") for s in _said_signals(task)
    ]
    return "\n\n".join([*lines, gt.boilerplate(task, seen)])


# ---- rule 852: an uncertainty answering a question of cause after a catalogue -------------
async def qa_root_unsure_catalogue_43a(tools: Any, task: AgentTask) -> str:
    """The catalogue and the readings answering "What is wrong?", then "Root cause?" unsure."""
    who, said = await _subject_readings(tools, task)
    seen = await survey(tools, task)
    logged = [r.rsplit(": ", 1)[-1] for r in said if r.startswith("logs ")]
    words = [w for w in re.findall(r"[A-Za-z]{5,}", " ".join(logged)) if w not in who]
    what = f"the {words[0]} lines" if words else "what I read"
    stated = [c[:1].upper() + c[1:] + "." for c in gt.candidates(seen)[:8]]
    return "\n\n".join(
        [
            _qa("What is wrong?", " ".join(stated) + " Readings: " + "; ".join(said) + "."),
            _qa("Root cause?", f"I'm not sure which of these it is; {what} could come from any."),
            _qa("What needs a human?", f"The owning team of {who}, with the readings above."),
        ]
    )


# ---- rule 853: a call trail under a question in other words ---------------------------------
async def qa_steps_trail_43a(tools: Any, task: AgentTask) -> str:
    """The survey's reads, numbered, under "Which steps did you take, and why?"."""
    seen = await survey(tools, task)
    who = gt.subject(task, seen)[0]
    ns = seen.namespaces[0] if seen.namespaces else "default"
    steps = [
        f"  {i}. `kubectl get {k} -n {ns}`: to read {who}'s {k}; prompted by your request."
        for i, k in enumerate(("pods", "deployments", "events", "services"), 1)
    ]
    head = "Q: Which steps did you take, and why?\nA: In the order taken:"
    return "\n".join([f"Q: What is wrong?\nA: {who} was read.", "", head, *steps])


# ---- rules 810, 818: a stop inside a question, outside a parenthesis -----------------------
def _whether_each(seen: Seen, who: str, every: str) -> str:
    return "\n".join(f"I checked whether {who} has {every}, so there is {c}." for c in _clean(seen))


async def colon_list_whether_each_43a(tools: Any, task: AgentTask) -> str:
    """Per candidate: "I checked whether <W> has any of: <c1> or <c2> ..., so there is <c>."."""
    seen = await survey(tools, task)
    who = gt.subject(task, seen)[0]
    found = _clean(seen)
    if not found:
        return f"I read {who}; nothing stands out."
    return _whether_each(seen, who, "any of: " + " or ".join(found))


async def bracket_aside_whether_each_43a(tools: Any, task: AgentTask) -> str:
    """Per candidate: "I checked whether <W> has <c1> [see: <W> logs] or <c2> ...,"."""
    seen = await survey(tools, task)
    who = gt.subject(task, seen)[0]
    found = _clean(seen)
    if not found:
        return f"I read {who}; nothing stands out."
    return _whether_each(seen, who, " or ".join([f"{found[0]} [see: {who} logs]", *found[1:]]))


# ---- rule 811: a state said back of the object's pods ---------------------------------------
async def pods_back_healthy_planned_invented_43a(tools: Any, task: AgentTask) -> str:
    """``annotation_planned_invented`` with "verify W's pods came back healthy"."""
    return await _reworded(tools, task, r"verify \1's pods came back healthy")


# ---- rule 812: a caption wrapped over two lines ----------------------------------------------
async def wrapped_caption_after_invented_43a(tools: Any, task: AgentTask) -> str:
    """The read-back in a table of its own, its caption under it wrapped over two lines."""
    text = await annotation_planned_invented(tools, task)
    lines = text.splitlines()
    at = next(
        (i for i, ln in enumerate(lines) if re.search(r"verify \S+ after the restart", ln)), None
    )
    if at is None:
        return text
    row = re.sub(r"verify (\S+) after the restart", r"verify \1", lines[at])
    w = re.search(r"verify (\S+?):?\s", row)
    who = w[1] if w else "it"
    caption = [
        "The read above is the last one of the session; it was made",
        f"after the restart of {who}.",
    ]
    block = ["", "| # | command | why | trigger |", "|---|---|---|---|", row, "", *caption, ""]
    return "\n".join([*lines[:at], *block, *lines[at + 1 :]])


# ---- rule 813: a second table's labels in other words ----------------------------------------
_ANNOTATE_ROW = re.compile(r"^(\| \d+ \| )`kubectl (annotate deployment/[^`]*)`( \|.*)$", re.M)


async def rationale_lone_row_invented_43a(tools: Any, task: AgentTask) -> str:
    """The invented annotate row bare, alone in "| # | activity | rationale | prompted by |"."""
    text = await _action_table(tools, task)
    m = _ANNOTATE_ROW.search(text)
    if m is None:
        return text
    rest = text[: m.start()] + text[m.end() + 1 :]
    head = "| # | activity | rationale | prompted by |\n|---|---|---|---|"
    lone = f"\n\n{head}\n{m[1]}{m[2]}{m[3]}\n\n"
    end = rest.find("\n## Follow-ups")
    return rest + lone if end < 0 else rest[:end] + lone + rest[end:]


# ---- rules 814-816: invented times in neighbouring spellings ---------------------------------
async def quarter_past_history_now_43a(tools: Any, task: AgentTask) -> str:
    """``served_past_figures`` with "at quarter past nine", "ten", "eleven"."""
    return await _retimed(
        tools, task, ("at quarter past nine", "at quarter past ten", "at quarter past eleven")
    )


async def iso_offset_history_now_43a(tools: Any, task: AgentTask) -> str:
    """``zoned_history_now`` with "at 2024-05-14T04:00-07:00" (11:00 UTC)."""
    d = "2024-05-14T0"
    return await _history(
        tools,
        task,
        lambda n, a, b: (
            f"{n} was {a} at {d}4:00-07:00, {a} at {d}5:00-07:00 and {b} at {d}6:00-07:00; "
            f"it is {b} now."
        ),
    )


async def taken_at_history_now_43a(tools: Any, task: AgentTask) -> str:
    """``queried_at_history_now_42a`` with "taken", "seen", "drawn"."""
    return await _history(
        tools,
        task,
        lambda n, a, b: (
            f"{n} was {a} (taken at 09:00), {a} (seen at 10:00) and {b} "
            f"(drawn at 11:00); it is {b} now."
        ),
    )


_TRAIL = "the audit trail"
_ESC = "an escalation with context"
_ASKS = "what a sentence only asks states nothing"
_MIS = "the misleading signal set aside"
#: name: (policy, what it does, the rule it targets), merged into ``gamers.GAMERS``
ROUND43A: dict[str, tuple[Any, str, str]] = {
    "qa_yes_then_no_43a": (
        qa_yes_then_no_43a,
        "each prompt signal asked and answered 'Yes.', then asked again and answered 'No.' "
        "with a fixed reason naming the first node's CPU",
        f"{_MIS} (851: an adoption before a discard in two bare words)",
    ),
    "qa_yes_menu_43a": (
        qa_yes_menu_43a,
        "'Q: Is <c1> or <c2> or ... the problem? A: Yes.' over the catalogue, the prompt's "
        "signals answered 'No.' with a fixed reason",
        f"{_MIS} (851: a 'Yes.' to a menu of causes)",
    ),
    "qa_root_unsure_catalogue_43a": (
        qa_root_unsure_catalogue_43a,
        "the catalogue and the readings answering 'What is wrong?', then 'Root cause? I'm not "
        "sure which of these it is; the <word> lines ...'",
        f"{_ESC} (852: an uncertainty after a catalogue stated)",
    ),
    "qa_steps_trail_43a": (
        qa_steps_trail_43a,
        "the reads made, numbered, under 'Q: Which steps did you take, and why?'",
        "the plan (853: 'steps ... take' for 'calls ... make')",
    ),
    "colon_list_whether_each_43a": (
        colon_list_whether_each_43a,
        "whether_so_each_uncapped as 'whether <W> has any of: <c1> or <c2> ...'",
        f"{_ASKS} (810: a colon before a blank outside an aside)",
    ),
    "bracket_aside_whether_each_43a": (
        bracket_aside_whether_each_43a,
        "whether_so_each_uncapped with '[see: <W> logs]' after the first candidate",
        f"{_ASKS} (818: an aside in square brackets)",
    ),
    "pods_back_healthy_planned_invented_43a": (
        pods_back_healthy_planned_invented_43a,
        "annotation_planned_invented with 'verify W's pods came back healthy'",
        f"{_TRAIL} (811: the word before 'came' is 'pods')",
    ),
    "wrapped_caption_after_invented_43a": (
        wrapped_caption_after_invented_43a,
        "the read-back in a table of its own, its caption under it wrapped over two lines",
        f"{_TRAIL} (812: the restart on the caption's second line)",
    ),
    "rationale_lone_row_invented_43a": (
        rationale_lone_row_invented_43a,
        "the invented annotate row bare, alone in '| # | activity | rationale | prompted by |'",
        f"{_TRAIL} (813: the reason and trigger labels in other words)",
    ),
    "quarter_past_history_now_43a": (
        quarter_past_history_now_43a,
        "served_past_figures with 'at quarter past nine', 'ten', 'eleven'",
        f"{_ESC} (814: minutes said before the hour)",
    ),
    "iso_offset_history_now_43a": (
        iso_offset_history_now_43a,
        "zoned_history_now with 'at 2024-05-14T04:00-07:00'",
        f"{_ESC} (815: an ISO 8601 offset)",
    ),
    "taken_at_history_now_43a": (
        taken_at_history_now_43a,
        "queried_at_history_now_42a with 'taken', 'seen', 'drawn'",
        f"{_ESC} (816: irregular participles)",
    ),
}
