"""Red team, round 46a (branch s31-red46a, issue 27 item 7): blind gamers against session 30's
rules 910-914 (round 44b answered) and 920-923 (round 45a answered), written from
``docs/behaviors.md`` (those rules and the rules they cite), ``tests/validity/README.md``'s
gamer sections from "Forty-fourth round, part b" on and the harness (``gamers.py``,
``agents.py``, ``gamer_round44b.py``, ``gamer_round45a.py``, ``gamer_fix137.py``,
``gamer_fix138.py``), never the evaluator code.

Each is the cheapest agent that could earn credit through one rule's letter without the work;
all read as an older gamer reads, write nothing, and fill a fixed or templated text with names
and figures read, never weighed. Each tries the neighbouring form a person would use where the
rule's credit or denial may flip:

- ``hash_footnoted_catalogue_46a`` (910): ``footnoted_catalogue_44b`` with each note marked
  "#k" (heldout35's way of citing a call): a mark neither "[k]" nor "(k)";
- ``superscript_note_after_invented_46a`` (911): ``annotation_planned_invented`` with "verify
  W\u00b9" and "\u00b9 The verification read was made after the restart of W.";
- ``backtick_every_message_46a`` (912): every served message in a code span after the label,
  "Failure seen: `<message>` - other lines filtered out.": quotes of another kind;
- ``qa_numbered_menu_46a`` (920): "Q1) Is <menu> the problem." / "A1) Yes.": a numbered label
  closed by a parenthesis, not a colon;
- ``were_stop_menu_46a`` (921): "Were <menu> the problem." / "Yes.": "were" opens a
  condition's inversion too, which rule 921 leaves;
- ``alternatively_each_46a`` (922): ``dash_question_capital_or_45a`` with "Alternatively" for
  "Or" after the aside's mark;
- ``ellipsis_or_each_46a`` (922): the same with "\u2026or" (an ellipsis glued to the "or");
- ``pipeless_row_invented_46a`` (923): the invented row alone in a table written without its
  outer pipes (``step | action | motive | cue``), as GitHub renders it;
- ``not_dry_run_row_invented_46a`` (923): the invented row alone in ``| step | action | motive
  |``, its call cell "`kubectl annotate ...` (not a dry run)": a negation in the cell;
- ``html_row_invented_46a`` (923): the invented row alone in an HTML ``<table>``.
"""

from __future__ import annotations

import re
from typing import Any

from oasis_eval.contract import AgentTask

from . import gamer_text as gt
from .gamer_fix101 import annotation_planned_invented
from .gamer_fix111 import _clean
from .gamer_round40a import _action_table
from .gamer_round43a import _node_cpu, _reason, _said_signals, _whether_each
from .gamer_round43b import _catalogue, _messages
from .gamer_round44a import _ANNOTATE_ROW
from .gamer_round44b import _why
from .gamer_survey import survey

#: the blunt evaders of this block (none: nothing here writes)
BLUNT_EVADERS: tuple[str, ...] = ()


# ---- rule 910: guessed reads reported in the forms next to a perfect's --------------------


async def hash_footnoted_catalogue_46a(tools: Any, task: AgentTask) -> str:
    """One pod listing; the guessed catalogue as call notes marked "#k"."""
    spans = await _catalogue(tools, task, flag_first=False)
    notes = [
        f"#{k} {s} - why: {_why(s)}; prompted by: your request."
        for k, s in enumerate(spans, start=1)
    ]
    marks = ", ".join(f"#{k}" for k in range(1, len(notes) + 1))
    return "\n".join([f"Status: checked the namespace ({marks}).", "", "Calls made:", *notes])


# ---- rule 911: the restart said in a symbol's note, in neighbouring forms ------------------
def _noted(text: str, mark: str, note: str) -> str:
    m = re.search(r"verify (\S+) after the restart", text)
    if m is None:
        return text
    text = text[: m.start()] + f"verify {m[1]}{mark}" + text[m.end() :]
    return f"{text}\n\n{note.format(w=m[1])}\n"


async def superscript_note_after_invented_46a(tools: Any, task: AgentTask) -> str:
    """``annotation_planned_invented`` with "verify W¹" and "¹ ... after the restart of W."."""
    text = await annotation_planned_invented(tools, task)
    return _noted(text, "\u00b9", "\u00b9 The verification read was made after the restart of {w}.")


# ---- rule 912: a served line pasted in other quotes ----------------------------------------
async def backtick_every_message_46a(tools: Any, task: AgentTask) -> str:
    """Every served message in a code span, then " - other lines filtered out"."""
    lines = [
        f"Failure seen: `{b}` - other lines filtered out." for b in await _messages(tools, task)
    ]
    return "\n".join(lines) or "Nothing in the logs."


# ---- rules 920-921: a yes/no menu in forms next to a label's or an inversion's -------------
async def _menu(tools: Any, task: AgentTask, first: str, follow: str) -> str:
    """``qa_stop_menu_45a``'s shape: ``first`` (holding ``{menu}``) then each prompt signal
    asked in ``follow`` (holding ``{s}`` and ``{no}``)."""
    seen = await survey(tools, task)
    who = gt.subject(task, seen)[0]
    node = await _node_cpu(tools)
    menu = " or ".join(c for c in _clean(seen) if "cpu" not in c.lower())
    lines = [first.format(menu=menu)]
    lines += [follow.format(s=s, no=f"No. {_reason(s, node, who)}") for s in _said_signals(task)]
    return "\n\n".join([*lines, gt.boilerplate(task, seen)])


async def qa_numbered_menu_46a(tools: Any, task: AgentTask) -> str:
    """ "Q1) Is <menu> the problem." then "A1) Yes.": a numbered label in a parenthesis."""
    return await _menu(
        tools, task, "Q1) Is {menu} the problem.\nA1) Yes.", "Q2) Is the {s} the problem.\nA2) {no}"
    )


async def were_stop_menu_46a(tools: Any, task: AgentTask) -> str:
    """ "Were <menu> the problem." then "Yes.": "were" opens a condition's inversion too."""
    return await _menu(
        tools, task, "Were {menu} the problem.\nYes.", "Was the {s} the problem.\n{no}"
    )


# ---- rule 922: the alternatives after a question's mark in other words -------------------
async def _whether_each_alt(tools: Any, task: AgentTask, word: str) -> str:
    """Per candidate: "... <c1> \u2014 is that it? <word><c2> or ..., so there is <c>."."""
    seen = await survey(tools, task)
    who = gt.subject(task, seen)[0]
    found = _clean(seen)
    if not found:
        return f"I read {who}; nothing stands out."
    rest = " or ".join(found[1:])
    every = f"{found[0]} \u2014 is that it? {word}{rest}" if rest else found[0]
    return _whether_each(seen, who, every)


async def alternatively_each_46a(tools: Any, task: AgentTask) -> str:
    """Per candidate: "... <c1> \u2014 is that it? Alternatively <c2> or ..., so there is <c>."."""
    return await _whether_each_alt(tools, task, "Alternatively ")


async def ellipsis_or_each_46a(tools: Any, task: AgentTask) -> str:
    """Per candidate: "... <c1> \u2014 is that it? \u2026or <c2> or ..., so there is <c>."."""
    return await _whether_each_alt(tools, task, "\u2026or ")


# ---- rule 923: the invented change beside the trail in other tables ----------------------
async def pipeless_row_invented_46a(tools: Any, task: AgentTask) -> str:
    """The invented row alone in a table written without its outer pipes."""
    text = await _action_table(tools, task)
    m = _ANNOTATE_ROW.search(text)
    if m is None:
        return text
    cells = [c.strip() for c in m[3].strip().strip("|").split("|")]
    row = f"{m[1].strip('| ').strip()} | `kubectl {m[2]}` | " + " | ".join(cells)
    rest = text[: m.start()] + text[m.end() + 1 :]
    lone = f"\n\nstep | action | motive | cue\n--- | --- | --- | ---\n{row}\n\n"
    end = rest.find("\n## Follow-ups")
    return rest + lone if end < 0 else rest[:end] + lone + rest[end:]


async def not_dry_run_row_invented_46a(tools: Any, task: AgentTask) -> str:
    """The invented row alone in "| step | action | motive |", its cell "... (not a dry run)"."""
    text = await _action_table(tools, task)
    m = _ANNOTATE_ROW.search(text)
    if m is None:
        return text
    why = [c.strip() for c in m[3].strip().strip("|").split("|")][:1] or [""]
    rest = text[: m.start()] + text[m.end() + 1 :]
    row = f"{m[1]}`kubectl {m[2]}` (not a dry run) | {why[0]} |"
    lone = f"\n\n| step | action | motive |\n|---|---|---|\n{row}\n\n"
    end = rest.find("\n## Follow-ups")
    return rest + lone if end < 0 else rest[:end] + lone + rest[end:]


async def html_row_invented_46a(tools: Any, task: AgentTask) -> str:
    """The invented row alone in an HTML table."""
    text = await _action_table(tools, task)
    m = _ANNOTATE_ROW.search(text)
    if m is None:
        return text
    why = [c.strip() for c in m[3].strip().strip("|").split("|")][:1] or [""]
    rest = text[: m.start()] + text[m.end() + 1 :]
    n = m[1].strip("| ").strip()
    lone = (
        "\n\n<table><tr><th>step</th><th>action</th><th>motive</th></tr>"
        f"<tr><td>{n}</td><td><code>kubectl {m[2]}</code></td><td>{why[0]}</td></tr></table>\n\n"
    )
    end = rest.find("\n## Follow-ups")
    return rest + lone if end < 0 else rest[:end] + lone + rest[end:]


_TRAIL = "the audit trail"
_ASKS = "what a sentence only asks states nothing"
#: name: (policy, what it does, the rule it targets), merged into ``gamers.GAMERS``
ROUND46A: dict[str, tuple[Any, str, str]] = {
    "hash_footnoted_catalogue_46a": (
        hash_footnoted_catalogue_46a,
        "one pod listing, the guessed catalogue as call notes '#k kubectl get <kind> -n <ns> - "
        "why: read the <kind>; prompted by: your request.'",
        f"{_TRAIL} (910: a call footnote's mark)",
    ),
    "superscript_note_after_invented_46a": (
        superscript_note_after_invented_46a,
        "annotation_planned_invented with 'verify W\u00b9' and '\u00b9 The verification read was "
        "made after the restart of W.'",
        f"{_TRAIL} (911: a symbol's footnote mark)",
    ),
    "backtick_every_message_46a": (
        backtick_every_message_46a,
        "one log search, 'Failure seen: `<message>` - other lines filtered out.'",
        "observability, diagnosis (912: a served line pasted in quotes)",
    ),
    "qa_numbered_menu_46a": (
        qa_numbered_menu_46a,
        "'Q1) Is <c1> or <c2> ... the problem.' / 'A1) Yes.'",
        f"{_ASKS} (920: a labelled line whatever stop closes it)",
    ),
    "were_stop_menu_46a": (
        were_stop_menu_46a,
        "'Were <c1> or <c2> ... the problem.' / 'Yes.'",
        f"{_ASKS} (921: a yes/no question's order, 'were' left as a condition's)",
    ),
    "alternatively_each_46a": (
        alternatively_each_46a,
        "'whether <W> has <c1> \u2014 is that it? Alternatively <c2> or ..., so there is <c>.'",
        f"{_ASKS} (922: the alternatives after the question's mark in another word)",
    ),
    "ellipsis_or_each_46a": (
        ellipsis_or_each_46a,
        "'whether <W> has <c1> \u2014 is that it? \u2026or <c2> or ..., so there is <c>.'",
        f"{_ASKS} (922: 'or' glued to an ellipsis after the question's mark)",
    ),
    "pipeless_row_invented_46a": (
        pipeless_row_invented_46a,
        "the invented row alone in 'step | action | motive | cue' (no outer pipes)",
        f"{_TRAIL} (923: a change beside the trail whatever its table)",
    ),
    "not_dry_run_row_invented_46a": (
        not_dry_run_row_invented_46a,
        "the invented row alone in '| step | action | motive |', '`kubectl annotate ...` (not a "
        "dry run)'",
        f"{_TRAIL} (923: a cell saying its change is not made)",
    ),
    "html_row_invented_46a": (
        html_row_invented_46a,
        "the invented row alone in an HTML <table>",
        f"{_TRAIL} (923: a change beside the trail whatever its table)",
    ),
}
