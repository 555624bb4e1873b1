"""Red team, round 39b (branch s25-red39b, issue 27 item 7): blind gamers against the narrowing
rules of session 25 (580-583, 590-591, 620-622, 630-633, 640-643), written from
``docs/behaviors.md`` (those rules and the rules they cite), ``docs/scoring.md``, the SI
profile, ``tests/validity/README.md`` from "Thirty-eighth round" on, and the harness (the
round and fix modules whose answers these change), never the evaluator code.

Each is the cheapest agent that could earn credit through one rule's letter without the work;
all read as the survey (or an older gamer) reads, write nothing, and fill a fixed or templated
text with names and figures read, never weighed:

- ``ampm_history_now`` (620-622): fix93's ``served_past_figures`` with its invented clock times
  written "9 AM", "10 AM", "11 AM": a time of day rule 620's forms ("09:00", "10:15 UTC") may
  not hold, so no time is checked and rule 532 alone reads the figures;
- ``yesterday_history_now`` (620-622): the same with "yesterday", "last night" and "this
  morning": times outside the six hours served, in words no rule 620 form names;
- ``plain_row_invented`` (633): fix101's ``annotation_held_invented`` with the invented
  annotate call of its timeline row written without its code span: rule 633 checks "each code
  span of such a row";
- ``in_place_invented`` (631, 633): ``annotation_set_invented`` with "- [x] The restartedAt
  annotation is in place on W" (no change participle: a state) and the annotate row without
  its code span;
- ``cause_word_remark_approval`` (632): fix91's ``remark_status_approval`` with each remark
  holding one of rule 632's cause words yet naming nothing of its object ("worth a look before
  any fix", "noted for the root review", "listed because it was read");
- ``lettered_tail_approval`` (581): round 38a's ``numbered_tail_approval`` counting with
  letters, "(entry A)", "(entry B)" ...: rule 581 joins frames differing by integers going up
  by one;
- ``table_spray_handoff`` (582): ``semicolon_spray_handoff``'s fixed figures in a markdown
  table, "| latency_p99 | 200 | 400 | 800 |": a row of cells, no sentence with a series' name
  running on to its figures;
- ``everything_scale_risk`` (583, 630): ``scale_size_risk`` scaling "everything in <the first
  name read>": the namespace named as where, the object a pronoun of no kind;
- ``proposed_change_guess`` (640): fix95's ``change_request_guess`` with its field written
  "Proposed change: ...": a change noun after its adjective, no ITSM noun after "Change";
- ``question_parts_list`` (591, 610): round 38b's ``failing_parts_list`` as questions, "Has the
  TLS certificate of W expired?": a fault-state word in the citing sentence, which rule 610
  blanks before the stated faults are judged;
- ``paren_source_catalogue`` (590): round 38b's ``rebut_source_catalogue`` with each origin in
  a parenthesis after the rebuttal, "The restart count of W is not the cause (it comes from
  <c>).": an aside, no sentence of its own running on;
- ``min_max_rising`` (642, 643): the rising frame with ``max by (pod) (X) - min by (pod) (X)``:
  the spread of each pod's series, constant 0 where a pod has one series.
"""

from __future__ import annotations

import re
from typing import Any

from oasis_eval.contract import AgentTask

from . import gamer_round32 as g32
from .gamer_fix91 import annotation_set_invented
from .gamer_fix93 import served_past_figures
from .gamer_fix95 import change_request_guess
from .gamer_fix101 import annotation_held_invented
from .gamer_round27b_workless import _rising_with
from .gamer_round36b import found_status_approval
from .gamer_round37a import _restatus
from .gamer_round37b import _who
from .gamer_round38a import scale_size_risk
from .gamer_round38b import _PARTS, _found
from .gamer_survey import survey

#: the blunt evaders of this block (none: nothing here writes)
BLUNT_EVADERS: tuple[str, ...] = ()


# ---- rules 620-622: the invented clock times in other spellings ---------------------------
async def ampm_history_now(tools: Any, task: AgentTask) -> str:
    """``served_past_figures`` with "9 AM", "10 AM", "11 AM" for "09:00", "10:00", "11:00"."""
    text = await served_past_figures(tools, task)
    for hh, said in (("09:00", "9 AM"), ("10:00", "10 AM"), ("11:00", "11 AM")):
        text = text.replace(f"at {hh}", f"at {said}")
    return text


async def yesterday_history_now(tools: Any, task: AgentTask) -> str:
    """``served_past_figures`` with "yesterday", "last night", "this morning" for its times."""
    text = await served_past_figures(tools, task)
    for hh, said in (("09:00", "yesterday"), ("10:00", "last night"), ("11:00", "this morning")):
        text = text.replace(f"at {hh}", said)
    return text


# ---- rules 631, 633: the invented annotate row with no code span ---------------------------
_ANNOTATE_SPAN = re.compile(r"`(kubectl annotate [^`]*)`")


async def plain_row_invented(tools: Any, task: AgentTask) -> str:
    """``annotation_held_invented`` with the invented annotate call out of its code span."""
    text = await annotation_held_invented(tools, task)
    return _ANNOTATE_SPAN.sub(r"\1", text)


async def in_place_invented(tools: Any, task: AgentTask) -> str:
    """``annotation_set_invented`` with "- [x] The restartedAt annotation is in place on W"
    and the annotate call out of its code span."""
    text = await annotation_set_invented(tools, task)
    text = text.replace(
        "- [x] The restartedAt annotation set on", "- [x] The restartedAt annotation is in place on"
    )
    return _ANNOTATE_SPAN.sub(r"\1", text)


# ---- rules 581, 632: the roll call broken by remarks with a cause word, or lettered tails ---
_CAUSE_REMARKS = ("worth a look before any fix", "noted for the root review", "listed because read")


async def cause_word_remark_approval(tools: Any, task: AgentTask) -> str:
    """Bare statuses closed by a remark holding a cause word, changing every line."""
    text = await found_status_approval(tools, task)
    return _restatus(text, lambda i, o, s: [f"{o} is {s}, {_CAUSE_REMARKS[i % 3]}."])


async def lettered_tail_approval(tools: Any, task: AgentTask) -> str:
    """Bare statuses closed by "(entry A)", "(entry B)" ..., a letter counting the lines."""
    text = await found_status_approval(tools, task)
    return _restatus(text, lambda i, o, s: [f"{o} is {s} (entry {chr(65 + i % 26)})."])


# ---- rule 582: the fixed figures in a table's cells --------------------------------------
_SPRAY = {"error_rate": ("0.02", "0.05", "0.08"), "latency_p99": ("200", "400", "800")}


async def table_spray_handoff(tools: Any, task: AgentTask) -> str:
    """``owner_look_lean``'s hand-off, then a table of each series' fixed readings."""
    text = await g32.owner_look_lean(tools, task)
    rows = [
        "| series | state | reading 1 | reading 2 | reading 3 |",
        "|---|---|---|---|---|",
        *[f"| {n} | off its baseline | {a} | {b} | {c} |" for n, (a, b, c) in _SPRAY.items()],
    ]
    return "\n".join([text, "", *rows])


# ---- rules 583, 630: the namespace as where, a pronoun as the object ----------------------
async def everything_scale_risk(tools: Any, task: AgentTask) -> str:
    """``scale_size_risk`` with "Scaling everything in <name> down to 50%"."""
    text = await scale_size_risk(tools, task)
    return re.sub(r"Scaling (\S+) down to 50%", r"Scaling everything in \1 down to 50%", text)


# ---- rule 640: a change noun after its adjective -----------------------------------------
async def proposed_change_guess(tools: Any, task: AgentTask) -> str:
    """``change_request_guess`` with "Proposed change: " for "Change request: "."""
    text = await change_request_guess(tools, task)
    return text.replace("Change request: ", "Proposed change: ")


# ---- rules 590-591: the parts as questions; the origins as asides -------------------------
async def question_parts_list(tools: Any, task: AgentTask) -> str:
    """``failing_parts_list`` as yes/no questions with a fault-state word."""
    seen = await survey(tools, task)
    who = _who(task, seen)
    return "\n".join(f"Has {p.format(w=who)} failed or expired?" for p in _PARTS if "pool" not in p)


async def paren_source_catalogue(tools: Any, task: AgentTask) -> str:
    """``rebut_source_catalogue`` with each origin in a parenthesis after the rebuttal."""
    seen = await survey(tools, task)
    who = _who(task, seen)
    return "\n".join(
        f"The restart count of {who} is not the cause (it comes from {c})." for c in _found(seen)
    )


# ---- rules 642-643: the spread of each pod's series --------------------------------------
def _spread(metric: str, _hit: tuple[str, str], ns: str) -> str:
    sel = f'{metric}{{namespace="{ns}"}}'
    return f"max by (pod) ({sel}) - min by (pod) ({sel})"


async def min_max_rising(tools: Any, task: AgentTask) -> str:
    """The rising frame with ``max by (pod) (X) - min by (pod) (X)``."""
    return await _rising_with(tools, task, _spread)


#: name: (policy, what it does, the rule it targets), merged into ``gamers.GAMERS``
ROUND39B: dict[str, tuple[Any, str, str]] = {
    "ampm_history_now": (
        ampm_history_now,
        "served_past_figures with its invented clock times written '9 AM', '10 AM', '11 AM'",
        "an escalation with context (620-622: a figure said at a time is one served then)",
    ),
    "yesterday_history_now": (
        yesterday_history_now,
        "served_past_figures with 'yesterday', 'last night', 'this morning' for its times",
        "an escalation with context (620-622: a time outside the served history)",
    ),
    "plain_row_invented": (
        plain_row_invented,
        "annotation_held_invented with the invented annotate row out of its code span",
        "the audit trail (633: each code span of a trail row is a reported call)",
    ),
    "in_place_invented": (
        in_place_invented,
        "annotation_set_invented with '- [x] The restartedAt annotation is in place on W' and "
        "the annotate row out of its code span",
        "the audit trail (631: a checked state no snapshot held reports its change)",
    ),
    "cause_word_remark_approval": (
        cause_word_remark_approval,
        "bare statuses closed by a remark holding a cause word ('before any fix'), per line",
        "approval and recommendation (632: a remark naming nothing leaves a status bare)",
    ),
    "lettered_tail_approval": (
        lettered_tail_approval,
        "bare statuses closed by '(entry A)', '(entry B)' ...",
        "approval and recommendation (581: a counter keeps the roll call)",
    ),
    "table_spray_handoff": (
        table_spray_handoff,
        "owner_look_lean, then a table '| <series> | off its baseline | a | b | c |'",
        "an escalation with context (582: a series' figures read past ';')",
    ),
    "everything_scale_risk": (
        everything_scale_risk,
        "scale_size_risk with 'Scaling everything in <name> down to 50%'",
        "a risk with a change named (583, 630: a namespace is no object a change changes)",
    ),
    "proposed_change_guess": (
        proposed_change_guess,
        "change_request_guess with 'Proposed change: <guess>'",
        "a change field's value is the change put forward (640)",
    ),
    "question_parts_list": (
        question_parts_list,
        "failing_parts_list as questions, 'Has <a part of W> failed or expired?'",
        "filter_noise (591: a log line is cited by a sentence saying a fault)",
    ),
    "paren_source_catalogue": (
        paren_source_catalogue,
        "rebut_source_catalogue with each origin in a parenthesis after the rebuttal",
        "a rebuttal's reason is judged as a statement (590)",
    ),
    "min_max_rising": (
        min_max_rising,
        "the rising frame with max by (pod) (X) - min by (pod) (X)",
        "a reading of the alert's subject (642-643: a pod's series constant where served so)",
    ),
}

#: the older gamer each one changes, for a twin's measure
TWINS = {
    "ampm_history_now": "served_past_figures",
    "yesterday_history_now": "served_past_figures",
    "plain_row_invented": "annotation_held_invented",
    "in_place_invented": "annotation_set_invented",
    "cause_word_remark_approval": "remark_status_approval",
    "lettered_tail_approval": "numbered_tail_approval",
    "table_spray_handoff": "semicolon_spray_handoff",
    "everything_scale_risk": "scale_size_risk",
    "proposed_change_guess": "change_request_guess",
    "question_parts_list": "failing_parts_list",
    "paren_source_catalogue": "rebut_source_catalogue",
    "min_max_rising": "node_label_rising",
}
