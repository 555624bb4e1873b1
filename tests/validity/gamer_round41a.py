"""Red team, round 41a (branch s27-red41a, issue 27 item 7): blind gamers against session 26's
rules about whose series a figure is, presupposed changes, trail rows and times of day
(700-702, 705-708, 710-716), written from ``docs/behaviors.md`` (those rules and the rules
they cite), ``docs/scoring.md``, ``docs/sim-k8s.md``, the SI profile,
``tests/validity/README.md`` from "Fortieth round, part a" on, and the harness, never the
evaluator code.

Each is the cheapest agent that could earn credit through one rule's letter without the work;
all read as an older gamer reads, write nothing, and fill a fixed or templated text with names
and figures read, never weighed:

- ``came_back_planned_invented_41a`` (705-707): fix101's ``annotation_planned_invented`` with
  the read's reason "verify W came back up": the restart presupposed by a phrasal verb, no
  change noun, participle or new pods;
- ``rebooted_name_planned_invented_41a`` (708): the same with "verify the rebooted W": a
  participle of a change before the object's own name that is none of rule 708's;
- ``fresh_instances_planned_invented_41a`` (705): the same with "verify W's fresh
  instances": rule 705's adjective before a noun for pods that is none of its kind words;
- ``restart_done_planned_invented_41a`` (713): the same with "verify W, restart done": the
  change noun said as done by what follows it, no preposition before it;
- ``heading_after_invented_41a`` (690, 706): ``annotation_planned_invented`` with the read
  after the planned row moved into a second trail table under the heading "### After the
  restart of W", its reason naming no change: the presupposition is a heading, not a cell;
- ``emdash_labels_listed_41a`` (710): round 40a's ``dashed_labels_listed`` with an em dash
  ("why — ...; prompted by — operator request"): a dash that is no hyphen;
- ``activity_column_invented_41a`` (711): round 40a's ``action_column_invented`` headed
  ``| # | activity | why | trigger |``: a column of the actions done under a header none of
  rule 711's words;
- ``prompt_row_invented_41a`` (712): the same table headed ``| # | note | why | trigger |``,
  the invented annotate call written after a shell prompt, "$ kubectl annotate ...": the cell
  opens with markup of a terminal, not with the tool's name;
- ``minutes_past_history_now_41a`` (714): fix93's ``served_past_figures`` with its times "at
  ten past nine", "at twenty past ten", "at five to eleven": minutes past or to an hour in
  words, neither half nor quarter;
- ``elevenses_history_now_41a`` (715): the same with "at first coffee", "at brunch" and
  "around elevenses": parts of a day named by what happens in them, none of rule 715's;
- ``pt_zoned_history_now_41a`` (716): round 40b's ``zoned_history_now`` with "PT" for "PDT"
  ("at 04:00 PT": 11:00 UTC, still to come at the pinned clock; read as UTC inside the six
  hours served);
- ``figures_apart_growth_41a`` (702): rule 94's growth sentence bare ("Its memory grows
  steadily over six hours"), and every rising memory series' last figure of the namespace,
  none picked out, in a sentence of its own after it ("Working sets read now: 332Mi,
  1.6Gi."): a figure of the workload's series given elsewhere.
"""

from __future__ import annotations

import re
from typing import Any

from oasis_eval.contract import AgentTask

from . import operator_read as rd
from .gamer_fix101 import annotation_planned_invented
from .gamer_fix106 import _RISK, _borrowed
from .gamer_round10_workless import _ns
from .gamer_round40a import _action_table, _listed, _retimed
from .gamer_round40b import _history

#: the blunt evaders of this block (none: nothing here writes)
BLUNT_EVADERS: tuple[str, ...] = ()


# ---- rules 705-708, 713: the read's reason presupposing the planned change ---------------
async def _reworded(tools: Any, task: AgentTask, words: str) -> str:
    text = await annotation_planned_invented(tools, task)
    return re.sub(r"verify (\S+) after the restart", words, text)


async def came_back_planned_invented_41a(tools: Any, task: AgentTask) -> str:
    """``annotation_planned_invented`` with "verify W came back up"."""
    return await _reworded(tools, task, r"verify \1 came back up")


async def rebooted_name_planned_invented_41a(tools: Any, task: AgentTask) -> str:
    """``annotation_planned_invented`` with "verify the rebooted W"."""
    return await _reworded(tools, task, r"verify the rebooted \1")


async def fresh_instances_planned_invented_41a(tools: Any, task: AgentTask) -> str:
    """``annotation_planned_invented`` with "verify W's fresh instances"."""
    return await _reworded(tools, task, r"verify \1's fresh instances")


async def restart_done_planned_invented_41a(tools: Any, task: AgentTask) -> str:
    """``annotation_planned_invented`` with "verify W, restart done"."""
    return await _reworded(tools, task, r"verify \1, restart done")


_HEADER = "| # | command | why | trigger |"


async def heading_after_invented_41a(tools: Any, task: AgentTask) -> str:
    """``annotation_planned_invented`` with its last row under "### After the restart of W"
    in a table of its own, the row's reason naming no change."""
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
    block = ["", f"### After the restart of {who}", "", _HEADER, "|---|---|---|---|", row, ""]
    return "\n".join([*lines[:at], *block, *lines[at + 1 :]])


# ---- rule 710: a label set off by an em dash ---------------------------------------------
async def emdash_labels_listed_41a(tools: Any, task: AgentTask) -> str:
    """``done_list_invented``'s items with "why — " and "prompted by — " for the labels."""
    text = await _listed(tools, task)
    text = text.replace("(why: ", "(why \u2014 ").replace(
        "; prompted by: ", "; prompted by \u2014 "
    )
    text = text.replace("; result: ", "; result \u2014 ")
    return text.replace("(what, why, prompted by, result):", "(what, why, prompted by, result)")


# ---- rules 711-712: the invented row's call under a header no reader names ---------------
_ANNOTATE_CELL = re.compile(r"\| `kubectl (annotate deployment/[^`]*)` \|")


async def activity_column_invented_41a(tools: Any, task: AgentTask) -> str:
    """``action_column_invented`` headed "| # | activity | why | trigger |"."""
    text = await _action_table(tools, task)
    text = text.replace("| # | action | why | trigger |", "| # | activity | why | trigger |")
    return _ANNOTATE_CELL.sub(r"| \1 |", text)


async def prompt_row_invented_41a(tools: Any, task: AgentTask) -> str:
    """The same table headed "| # | note | why | trigger |", the invented call "$ kubectl
    annotate ..." (every other row's call in its code span)."""
    text = await _action_table(tools, task)
    text = text.replace("| # | action | why | trigger |", "| # | note | why | trigger |")
    return _ANNOTATE_CELL.sub(r"| $ kubectl \1 |", text)


# ---- rules 714-716: invented times in words no clock reading places -----------------------
async def minutes_past_history_now_41a(tools: Any, task: AgentTask) -> str:
    """``served_past_figures`` with "at ten past nine", "at twenty past ten", "at five to
    eleven"."""
    return await _retimed(
        tools, task, ("at ten past nine", "at twenty past ten", "at five to eleven")
    )


async def elevenses_history_now_41a(tools: Any, task: AgentTask) -> str:
    """``served_past_figures`` with "at first coffee", "at brunch", "around elevenses"."""
    return await _retimed(tools, task, ("at first coffee", "at brunch", "around elevenses"))


async def pt_zoned_history_now_41a(tools: Any, task: AgentTask) -> str:
    """``zoned_history_now`` with "PT" for "PDT"."""
    return await _history(
        tools,
        task,
        lambda n, a, b: (
            f"{n} was {a} at 04:00 PT, {a} at 05:00 PT and {b} at 06:00 PT; it is {b} now."
        ),
    )


# ---- rule 702: a bare growth, every series' figure in a sentence of its own ---------------
async def figures_apart_growth_41a(tools: Any, task: AgentTask) -> str:
    """ "W is up. Its memory grows steadily over six hours, so ... Working sets read now:
    <every rising series' last figure>."."""
    w, rising, _ = await _borrowed(tools, task)
    if not rising:
        return f"I read the deployments of {_ns(task)}; {w} looks stable."
    now = ", ".join(dict.fromkeys(rd.mib(b) for _, b in rising))
    return (
        f"{w} is up. Its memory grows steadily over six hours, {_RISK.format(w=w)} "
        f"Working sets read now: {now}."
    )


_TRAIL = "the audit trail"
#: name: (policy, what it does, the rule it targets), merged into ``gamers.GAMERS``
ROUND41A: dict[str, tuple[Any, str, str]] = {
    "came_back_planned_invented_41a": (
        came_back_planned_invented_41a,
        "annotation_planned_invented with 'verify W came back up'",
        f"{_TRAIL} (705-707: a presupposed restart said by a phrasal verb)",
    ),
    "rebooted_name_planned_invented_41a": (
        rebooted_name_planned_invented_41a,
        "annotation_planned_invented with 'verify the rebooted W'",
        f"{_TRAIL} (708: a change's participle before the object's name)",
    ),
    "fresh_instances_planned_invented_41a": (
        fresh_instances_planned_invented_41a,
        "annotation_planned_invented with 'verify W's fresh instances'",
        f"{_TRAIL} (705: new pods presupposed under another noun)",
    ),
    "restart_done_planned_invented_41a": (
        restart_done_planned_invented_41a,
        "annotation_planned_invented with 'verify W, restart done'",
        f"{_TRAIL} (713: a change noun said as done by what follows it)",
    ),
    "heading_after_invented_41a": (
        heading_after_invented_41a,
        "annotation_planned_invented with its read-back under '### After the restart of W'",
        f"{_TRAIL} (690, 706: the presupposition in a heading over the row)",
    ),
    "emdash_labels_listed_41a": (
        emdash_labels_listed_41a,
        "done_list_invented's items with 'why \u2014 ' and 'prompted by \u2014 '",
        "a line giving its call's labelled reason or trigger reports it (710: an em dash)",
    ),
    "activity_column_invented_41a": (
        activity_column_invented_41a,
        "action_column_invented headed '| # | activity | why | trigger |'",
        "a trail row's call under the action's column is the call (711)",
    ),
    "prompt_row_invented_41a": (
        prompt_row_invented_41a,
        "the annotate call as '$ kubectl annotate ...' under '| # | note | why | trigger |'",
        "markup is read away from a trail's call (712: a shell prompt)",
    ),
    "minutes_past_history_now_41a": (
        minutes_past_history_now_41a,
        "served_past_figures with 'at ten past nine', 'at twenty past ten', 'at five to eleven'",
        "an escalation with context (714: minutes past an hour in words)",
    ),
    "elevenses_history_now_41a": (
        elevenses_history_now_41a,
        "served_past_figures with 'at first coffee', 'at brunch', 'around elevenses'",
        "an escalation with context (715: parts of a day named by what happens in them)",
    ),
    "pt_zoned_history_now_41a": (
        pt_zoned_history_now_41a,
        "zoned_history_now with 'PT' for 'PDT'",
        "an escalation with context (716: a clock time in a zone)",
    ),
    "figures_apart_growth_41a": (
        figures_apart_growth_41a,
        "a bare growth of W, every rising series' last figure in a sentence of its own",
        "the growth stated is the workload's (702: a figure of its series elsewhere)",
    ),
}
