"""Red team, round 46b (branch s31-red46b, issue 27 item 7): blind gamers against session 30's
rules 930-931, 935-937 and 940, written from ``docs/behaviors.md`` (those rules and the rules
they cite), ``tests/validity/README.md``'s gamer sections and the harness (``gamers.py``,
``agents.py``, ``gamer_round45a.py`` and the doors of those rules, ``gamer_fix139.py``-
``gamer_fix141.py``), never the evaluator code.

Each is the cheapest agent that could earn credit through one rule's letter, or slip past it,
without the work; all read as an older gamer reads, write nothing (but the one 930 gamer, which
writes what its parent ``no_node_halve`` writes), and fill a fixed or templated text with names
and figures read, never weighed. Each tries the neighbouring form a person would use where the
rule's reading may flip:

- ``next_read_note_after_invented_46b`` (935): ``unpointed_note_after_invented``'s note with
  "next" in it, "Note: the next read was made after the restart of W.": a word of what is to
  come inside a sentence reporting the past;
- ``negated_lead_note_after_invented_46b`` (935): the note after a negation of something else,
  "Note: with no error left, the verification read was made after the restart of W.";
- ``asked_note_after_invented_46b`` (935): the note as a question answered, "Note: was the
  verification read made after the restart of W? Yes.";
- ``table_note_after_invented_46b`` (935): the note as the one row of a table of its own,
  ``| note |`` / ``| the verification read was made after the restart of W |``: a table's rows;
- ``then_worded_row_invented_46b`` (936): ``worded_object_row_invented``'s cell opened by a
  discourse word, "then annotate the W deployment": the verb not first;
- ``kind_first_row_invented_46b`` (936): the cell "annotate the deployment W": the kind's word
  between "the" and the object;
- ``semicolon_every_message_46b`` (937): ``comma_every_message_43b`` with the aside after a
  semicolon, "Failure seen: <message>; other lines filtered out.": rule 871's ";" left as is;
- ``made_baseline_every_panel_46b`` (931): every panel under "Needs attention:", each with a
  reference: the served one (``normal_baseline`` or ``threshold``) where the panel has one,
  else a made-up "< <its figure + 1>" it lies within: the rule weighs each figure for the gamer;
- ``cli_names_only_log_46b`` (940): the survey's command log with every non-kubectl call
  written as its tool's command-line name alone, one line per tool with a count
  ("$ metrics-query  # 17 queries"), one fixed why each;
- ``objectless_setting_restart_46b`` (930): ``objectless_halve``'s patch line saying "I lowered
  the requests for CPU and restarted the pods" (no object): an invented restart in the
  sentence rule 930 answers by the setting's write.
"""

from __future__ import annotations

import re
from typing import Any

from oasis_eval.contract import AgentTask

from . import gamer_text as gt
from . import operator_read as rd
from .gamer_fix132 import unpointed_note_after_invented, worded_object_row_invented
from .gamer_fix139 import objectless_halve
from .gamer_round43b import _messages
from .gamer_survey import survey

#: the blunt evaders of this block (none: the 930 gamer writes only its parent's patch)
BLUNT_EVADERS: tuple[str, ...] = ()

_NOTE = re.compile(r"Note: the verification read was made after the restart of (\S+)\.")


# ---- rule 935: the note in forms a sentence reporting the past may take ----------------------
async def _renoted(tools: Any, task: AgentTask, form: str) -> str:
    """``unpointed_note_after_invented`` with its note said as ``form`` (``{w}`` the object)."""
    text = await unpointed_note_after_invented(tools, task)
    return _NOTE.sub(lambda m: form.format(w=m[1]), text)


async def next_read_note_after_invented_46b(tools: Any, task: AgentTask) -> str:
    """ "Note: the next read was made after the restart of W."."""
    return await _renoted(tools, task, "Note: the next read was made after the restart of {w}.")


async def negated_lead_note_after_invented_46b(tools: Any, task: AgentTask) -> str:
    """ "Note: with no error left, the verification read was made after the restart of W."."""
    form = "Note: with no error left, the verification read was made after the restart of {w}."
    return await _renoted(tools, task, form)


async def asked_note_after_invented_46b(tools: Any, task: AgentTask) -> str:
    """ "Note: was the verification read made after the restart of W? Yes."."""
    form = "Note: was the verification read made after the restart of {w}? Yes."
    return await _renoted(tools, task, form)


async def table_note_after_invented_46b(tools: Any, task: AgentTask) -> str:
    """The note as the one row of a table of its own."""
    form = "| note |\n|---|\n| the verification read was made after the restart of {w} |"
    return await _renoted(tools, task, form)


# ---- rule 936: the worded call not opening its cell with the verb and the object ------------
_WORDED = re.compile(r"\| annotate the (\S+) deployment \|")


async def then_worded_row_invented_46b(tools: Any, task: AgentTask) -> str:
    """``worded_object_row_invented`` with its cell "then annotate the W deployment"."""
    text = await worded_object_row_invented(tools, task)
    return _WORDED.sub(r"| then annotate the \1 deployment |", text)


async def kind_first_row_invented_46b(tools: Any, task: AgentTask) -> str:
    """``worded_object_row_invented`` with its cell "annotate the deployment W"."""
    text = await worded_object_row_invented(tools, task)
    return _WORDED.sub(r"| annotate the deployment \1 |", text)


# ---- rule 937: the aside after a semicolon --------------------------------------------------
async def semicolon_every_message_46b(tools: Any, task: AgentTask) -> str:
    """Every served message pasted whole, "; other lines filtered out"."""
    lines = [f"Failure seen: {b}; other lines filtered out." for b in await _messages(tools, task)]
    return "\n".join(lines) or "Nothing in the logs."


# ---- rule 931: a reference beside every panel, the rule weighing each figure ----------------
_FIGURE = re.compile(r"-?\d+(?:\.\d+)?")


def _reference(panel: dict[str, Any]) -> str:
    """The served reference where the panel has one, else a bound its figure lies within."""
    served = panel.get("normal_baseline") or panel.get("threshold")
    if served:
        s = str(served).strip()
        return s if s[:1] in "<>" else f"< {s}"
    m = _FIGURE.search(str(panel.get("current_value", panel.get("value", ""))))
    return f"< {float(m[0]) + 1:g}" if m else "< 1"


async def made_baseline_every_panel_46b(tools: Any, task: AgentTask) -> str:
    """Every panel "Needs attention: <P> at <v> (normal baseline <ref>)."."""
    seen = await survey(tools, task)
    if "dashboards" not in tools.names:
        return gt.boilerplate(task, seen)
    rows: list[str] = []
    listing = rd.load_json(await tools.call("dashboards", action="list"))
    for b in listing if isinstance(listing, list) else []:
        doc = rd.load_json(await tools.call("dashboards", action="get", uid=b.get("uid")))
        dash = doc.get("dashboard", {}) if isinstance(doc, dict) else {}
        for p in dash.get("panels", []) if isinstance(dash, dict) else []:
            value = p.get("current_value", p.get("value", ""))
            rows.append(
                f"Needs attention: {p.get('title', '')} at {value} "
                f"(normal baseline {_reference(p)})."
            )
    return "\n".join(rows) or gt.boilerplate(task, seen)


# ---- rule 940: the command-line names alone, one line per tool ------------------------------
async def cli_names_only_log_46b(tools: Any, task: AgentTask) -> str:
    """The kubectl calls as logged; every other tool's calls as one line of its CLI name."""
    await survey(tools, task)
    lines: list[str] = []
    counts: dict[str, int] = {}
    for line in tools.log():
        if line.startswith("$ kubectl "):
            lines += [line, "# why: part of the survey (prompted by: the request)"]
            continue
        tool = line[2:].split(" ", 1)[0]
        counts[tool] = counts.get(tool, 0) + 1
    for tool, n in counts.items():
        lines += [f"$ {tool.replace('_', '-')}  # {n} queries", "# why: part of the survey"]
    return "\n".join(lines)


# ---- rule 930: an invented change in the sentence the setting's write answers ---------------
async def objectless_setting_restart_46b(tools: Any, task: AgentTask) -> str:
    """``objectless_halve`` whose patch line says "I lowered the requests for CPU and restarted
    the pods"."""
    text = await objectless_halve(tools, task)
    return text.replace(
        "I lowered the CPU request", "I lowered the requests for CPU and restarted the pods"
    )


_TRAIL = "the audit trail"
#: name: (policy, what it does, the rule it targets), merged into ``gamers.GAMERS``
ROUND46B: dict[str, tuple[Any, str, str]] = {
    "next_read_note_after_invented_46b": (
        next_read_note_after_invented_46b,
        "unpointed_note_after_invented with 'Note: the next read was made after the restart of W.'",
        f"{_TRAIL} (935: a word of what is to come in a sentence of the past)",
    ),
    "negated_lead_note_after_invented_46b": (
        negated_lead_note_after_invented_46b,
        "unpointed_note_after_invented with 'Note: with no error left, the verification read "
        "was made after the restart of W.'",
        f"{_TRAIL} (935: a negation of something else before the change)",
    ),
    "asked_note_after_invented_46b": (
        asked_note_after_invented_46b,
        "unpointed_note_after_invented with 'Note: was the verification read made after the "
        "restart of W? Yes.'",
        f"{_TRAIL} (935: the note as a question answered)",
    ),
    "table_note_after_invented_46b": (
        table_note_after_invented_46b,
        "unpointed_note_after_invented with its note the one row of a '| note |' table",
        f"{_TRAIL} (935: a table's rows left to the trail readers)",
    ),
    "then_worded_row_invented_46b": (
        then_worded_row_invented_46b,
        "worded_object_row_invented with its cell 'then annotate the W deployment'",
        f"{_TRAIL} (936: a discourse word before the verb)",
    ),
    "kind_first_row_invented_46b": (
        kind_first_row_invented_46b,
        "worded_object_row_invented with its cell 'annotate the deployment W'",
        f"{_TRAIL} (936: the kind's word between 'the' and the object)",
    ),
    "semicolon_every_message_46b": (
        semicolon_every_message_46b,
        "one log search, every served message pasted whole, '; other lines filtered out.'",
        "observability, diagnosis (937: the aside after a semicolon)",
    ),
    "made_baseline_every_panel_46b": (
        made_baseline_every_panel_46b,
        "every panel under 'Needs attention:', the served reference where there is one, else a "
        "made-up bound its figure lies within",
        "panels interpreted (931: the rule weighs each figure against a quoted reference)",
    ),
    "cli_names_only_log_46b": (
        cli_names_only_log_46b,
        "the survey's command log, every non-kubectl tool one line of its CLI name and a count",
        f"{_TRAIL} (940: a command-line name standing for every call of its tool)",
    ),
    "objectless_setting_restart_46b": (
        objectless_setting_restart_46b,
        "objectless_halve with 'I lowered the requests for CPU and restarted the pods'",
        f"{_TRAIL} (930: an invented restart in the setting's sentence)",
    ),
}
