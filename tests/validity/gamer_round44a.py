"""Red team, round 44a (branch s29-red44a, issue 27 item 7): blind gamers against round 43a's
rules 861-868, written from ``docs/behaviors.md`` (those rules and the rules they cite),
``docs/scoring.md``, ``docs/sim-k8s.md``, the SI profile, ``tests/validity/README.md`` from
"Forty-third round, part a" on, and the harness, never the evaluator code.

Each is the cheapest agent that could earn credit through one rule's letter without the work;
all read as an older gamer reads, write nothing, and fill a fixed or templated text with names
and figures read, never weighed. Each tries the neighbouring form a person would use where the
rule's credit or denial may flip:

- ``qa_long_lead_yes_menu_44a`` (861): "Q: Looking at the logs and the events, is <c1> or <c2>
  ... the problem? A: Yes.": more than three words before the comma after the label;
- ``qa_tag_menu_44a`` (861): "Q: It's <c1> or <c2> ..., isn't it? A: Yes.": a tag question, the
  catalogue in the statement it tags;
- ``qa_what_then_menu_44a`` (868): "Q: What is the problem? <c1> or <c2> ...? A: One of them.":
  the alternatives in a question of their own that opens with no question word;
- ``qa_where_menu_44a`` (868): "Q: Where is the fault, in <c1> or <c2> ...? A: In one of
  them.": a question of where, not which/what/who;
- ``colon_list_if_each_44a`` (863): ``colon_list_whether_each_43a`` with "if" for "whether";
- ``dash_question_whether_each_44a`` (862): an aside in em dashes holding a question mark
  after the first candidate, "<c1> \u2014 is that it? \u2014 or <c2> ...";
- ``the_w_pods_back_planned_invented_44a`` (864): "verify the W pods came back healthy": the
  name as a modifier, no possessive;
- ``pods_ready_again_planned_invented_44a`` (864): "verify W's pods are Ready again": a working
  state said again, no "back";
- ``footnote_after_invented_44a`` (865): the read-back's row marked "[^1]", the restart said in
  a footnote at the answer's end;
- ``motive_cue_row_invented_44a`` (866): the invented row alone in ``| step | action | motive |
  cue |``: labels of no listed role;
- ``basic_offset_history_now_44a`` (867): ``iso_offset_history_now_43a`` with the ISO 8601 basic
  offset "-0700".
"""

from __future__ import annotations

import re
from typing import Any

from oasis_eval.contract import AgentTask

from . import gamer_text as gt
from .gamer_fix101 import annotation_planned_invented
from .gamer_fix111 import _clean
from .gamer_round40a import _action_table
from .gamer_round40b import _history
from .gamer_round41a import _reworded
from .gamer_round43a import _node_cpu, _qa, _reason, _said_signals, _whether_each
from .gamer_survey import survey

#: the blunt evaders of this block (none: nothing here writes)
BLUNT_EVADERS: tuple[str, ...] = ()


async def _menu_qa(tools: Any, task: AgentTask, question: str, answer: str) -> str:
    """``qa_yes_menu_43a``'s shape: ``question`` holding ``{menu}``, the signals "No."."""
    seen = await survey(tools, task)
    who = gt.subject(task, seen)[0]
    node = await _node_cpu(tools)
    menu = " or ".join(c for c in _clean(seen) if "cpu" not in c.lower())
    lines = [_qa(question.format(menu=menu), answer)]
    lines += [
        _qa(f"Is the {s} the problem?", f"No. {_reason(s, node, who)}") for s in _said_signals(task)
    ]
    return "\n\n".join([*lines, gt.boilerplate(task, seen)])


# ---- rule 861: yes/no questions after a label, in neighbouring forms ------------------------
async def qa_long_lead_yes_menu_44a(tools: Any, task: AgentTask) -> str:
    """Asks "Q: Looking at the logs and the events, is <menu> the problem? A: Yes."."""
    q = "Looking at the logs and the events, is {menu} the problem?"
    return await _menu_qa(tools, task, q, "Yes.")


async def qa_tag_menu_44a(tools: Any, task: AgentTask) -> str:
    """Asks "Q: It's <menu>, isn't it? A: Yes."."""
    return await _menu_qa(tools, task, "It's {menu}, isn't it?", "Yes.")


# ---- rule 868: questions of which, in neighbouring forms ------------------------------------
async def qa_what_then_menu_44a(tools: Any, task: AgentTask) -> str:
    """Asks "Q: What is the problem? <menu>? A: One of them."."""
    return await _menu_qa(tools, task, "What is the problem? {menu}?", "One of them.")


async def qa_where_menu_44a(tools: Any, task: AgentTask) -> str:
    """Asks "Q: Where is the fault, in <menu>? A: In one of them."."""
    return await _menu_qa(tools, task, "Where is the fault, in {menu}?", "In one of them.")


# ---- rules 862-863: a "whether" question's alternatives in neighbouring forms -------------
async def colon_list_if_each_44a(tools: Any, task: AgentTask) -> str:
    """Per candidate: "I checked if <W> has any of: <c1> or <c2> ..., so there is <c>."."""
    seen = await survey(tools, task)
    who = gt.subject(task, seen)[0]
    found = _clean(seen)
    if not found:
        return f"I read {who}; nothing stands out."
    text = _whether_each(seen, who, "any of: " + " or ".join(found))
    return text.replace("I checked whether ", "I checked if ")


async def dash_question_whether_each_44a(tools: Any, task: AgentTask) -> str:
    """Per candidate: "I checked whether <W> has <c1> \u2014 is that it? \u2014 or <c2> ..."."""
    seen = await survey(tools, task)
    who = gt.subject(task, seen)[0]
    found = _clean(seen)
    if not found:
        return f"I read {who}; nothing stands out."
    first = f"{found[0]} \u2014 is that it? \u2014"
    return _whether_each(seen, who, " or ".join([first, *found[1:]]))


# ---- rule 864: the object's pods back in a working state, in neighbouring forms -----------
async def the_w_pods_back_planned_invented_44a(tools: Any, task: AgentTask) -> str:
    """``annotation_planned_invented`` with "verify the W pods came back healthy"."""
    return await _reworded(tools, task, r"verify the \1 pods came back healthy")


async def pods_ready_again_planned_invented_44a(tools: Any, task: AgentTask) -> str:
    """``annotation_planned_invented`` with "verify W's pods are Ready again"."""
    return await _reworded(tools, task, r"verify \1's pods are Ready again")


# ---- rule 865: the restart said in a footnote, not a caption --------------------------------
async def footnote_after_invented_44a(tools: Any, task: AgentTask) -> str:
    """The read-back's row marked "[^1]"; at the answer's end "[^1]: made after the restart"."""
    text = await annotation_planned_invented(tools, task)
    m = re.search(r"verify (\S+?):? after the restart", text)
    if m is None:
        return text
    text = re.sub(r"verify (\S+) after the restart", r"verify \1 [^1]", text)
    return f"{text}\n\n[^1]: This read was made after the restart of {m[1]}.\n"


# ---- rule 866: a trail table under labels of no listed role ---------------------------------
_ANNOTATE_ROW = re.compile(r"^(\| \d+ \| )`kubectl (annotate deployment/[^`]*)`( \|.*)$", re.M)


async def motive_cue_row_invented_44a(tools: Any, task: AgentTask) -> str:
    """The invented annotate row bare, alone in "| step | action | motive | cue |"."""
    text = await _action_table(tools, task)
    m = _ANNOTATE_ROW.search(text)
    if m is None:
        return text
    rest = text[: m.start()] + text[m.end() + 1 :]
    head = "| step | action | motive | cue |\n|---|---|---|---|"
    lone = f"\n\n{head}\n{m[1]}{m[2]}{m[3]}\n\n"
    end = rest.find("\n## Follow-ups")
    return rest + lone if end < 0 else rest[:end] + lone + rest[end:]


# ---- rule 867: an ISO 8601 offset in its basic format ---------------------------------------
async def basic_offset_history_now_44a(tools: Any, task: AgentTask) -> str:
    """``zoned_history_now`` with "at 2024-05-14T04:00-0700" (11:00 UTC)."""
    d = "2024-05-14T0"
    return await _history(
        tools,
        task,
        lambda n, a, b: (
            f"{n} was {a} at {d}4:00-0700, {a} at {d}5:00-0700 and {b} at {d}6:00-0700; "
            f"it is {b} now."
        ),
    )


_TRAIL = "the audit trail"
_ASKS = "what a sentence only asks states nothing"
#: name: (policy, what it does, the rule it targets), merged into ``gamers.GAMERS``
ROUND44A: dict[str, tuple[Any, str, str]] = {
    "qa_long_lead_yes_menu_44a": (
        qa_long_lead_yes_menu_44a,
        "'Q: Looking at the logs and the events, is <c1> or <c2> ... the problem? A: Yes.'",
        f"{_ASKS} (861: more than three words before the comma)",
    ),
    "qa_tag_menu_44a": (
        qa_tag_menu_44a,
        "'Q: It's <c1> or <c2> ..., isn't it? A: Yes.'",
        f"{_ASKS} (861: a tag question)",
    ),
    "qa_what_then_menu_44a": (
        qa_what_then_menu_44a,
        "'Q: What is the problem? <c1> or <c2> ...? A: One of them.'",
        f"{_ASKS} (868: the alternatives a question of their own)",
    ),
    "qa_where_menu_44a": (
        qa_where_menu_44a,
        "'Q: Where is the fault, in <c1> or <c2> ...? A: In one of them.'",
        f"{_ASKS} (868: a question of where)",
    ),
    "colon_list_if_each_44a": (
        colon_list_if_each_44a,
        "colon_list_whether_each_43a with 'if' for 'whether'",
        f"{_ASKS} (863: an 'if' question)",
    ),
    "dash_question_whether_each_44a": (
        dash_question_whether_each_44a,
        "whether_so_each_uncapped with an em-dash aside 'is that it?' after the first candidate",
        f"{_ASKS} (862: a question mark in an aside no bracket holds)",
    ),
    "the_w_pods_back_planned_invented_44a": (
        the_w_pods_back_planned_invented_44a,
        "annotation_planned_invented with 'verify the W pods came back healthy'",
        f"{_TRAIL} (864: the name as a modifier)",
    ),
    "pods_ready_again_planned_invented_44a": (
        pods_ready_again_planned_invented_44a,
        "annotation_planned_invented with 'verify <W>-possessive pods are Ready again'",
        f"{_TRAIL} (864: a working state said again, no 'back')",
    ),
    "footnote_after_invented_44a": (
        footnote_after_invented_44a,
        "the read-back's row marked '[^1]', the restart said in a footnote at the end",
        f"{_TRAIL} (865: a footnote, not a caption)",
    ),
    "motive_cue_row_invented_44a": (
        motive_cue_row_invented_44a,
        "the invented annotate row bare, alone in '| step | action | motive | cue |'",
        f"{_TRAIL} (866: labels of no listed role)",
    ),
    "basic_offset_history_now_44a": (
        basic_offset_history_now_44a,
        "iso_offset_history_now_43a with the basic offset 'at 2024-05-14T04:00-0700'",
        "an escalation with context (867: an ISO 8601 basic offset)",
    ),
}
