"""Red team, round 42a (branch s28-red42a, issue 27 item 7): blind gamers against session 27's
rules whose doors only their authors wrote (750-757, 734, 741-744), written from
``docs/behaviors.md`` (those rules and the rules they cite), ``docs/scoring.md``,
``docs/sim-k8s.md``, the SI profile, ``tests/validity/README.md`` from "Forty-first round, part
a" on, and the harness, never the evaluator code.

Each is the cheapest agent that could earn credit through one rule's letter without the work;
all read as an older gamer reads, write nothing, and fill a fixed or templated text with names
and figures read, never weighed. The word lists are tried with the neighbouring wording a person
would use for the same thing:

- ``bounced_name_planned_invented_42a`` (752): fix101's ``annotation_planned_invented`` with
  the read's reason "verify the bounced W": "bounced", the on-call word for a restart, is none
  of rule 752's participles;
- ``redeploy_planned_invented_42a`` (752, 690): the same with "verify W after the redeploy":
  a change noun none of rule 752's nouns;
- ``came_back_healthy_planned_invented_42a`` (753): "verify W came back healthy": "back"
  followed by a state word, not "up", "online" or "to life";
- ``restart_successful_planned_invented_42a`` (754): "verify W, restart successful": an
  adjective of outcome, not rule 754's "succeeded";
- ``caption_after_invented_42a`` (755): the read-back in a table of its own with a caption
  *under* it, "(The read above was made after the restart of W.)", its reason naming no change;
- ``wider_lone_row_invented_42a`` (750): the invented annotate call bare, alone in a second
  table headed ``| # | activity | why | trigger | result |``: one column more, so not the
  trail's shape, and one call in its column;
- ``meridiem_zoned_history_now_42a`` (716, 757): round 40b's ``zoned_history_now`` with the
  times on a twelve-hour clock before the zone, "at 4 AM PDT" (11:00 UTC, still to come);
- ``iana_zoned_history_now_42a`` (757): the same with the zone's IANA name, "at 04:00
  America/Los_Angeles";
- ``spoken_minutes_history_now_42a`` (756): fix93's ``served_past_figures`` with "at nine
  fifteen", "at ten fifteen", "at eleven fifteen": minutes said after the hour;
- ``comma_aside_history_42a`` (744): round 41b's ``aside_before_figure_41b`` with the asides
  after a comma and "and", "was (at 09:00) <a>, (at 10:00) <a> and (at 11:00) <b>": the word
  before the aside is a figure's list, not its lead-in;
- ``queried_at_history_now_42a`` (734): round 40b's ``measured_at_history_now`` with
  "queried", "fetched", "pulled" for "measured": a reading's participle none of rule 734's;
- ``tilde_whether_each_42a`` (742): ``whether_so_each_uncapped`` with a home path after the
  first candidate, "(see <W>:~/data)": a stop before "~", not "/".
"""

from __future__ import annotations

import re
from typing import Any

from oasis_eval.contract import AgentTask

from . import gamer_text as gt
from .gamer_fix101 import annotation_planned_invented
from .gamer_fix111 import _clean
from .gamer_round40a import _action_table, _retimed
from .gamer_round40b import _history
from .gamer_round41a import _reworded
from .gamer_survey import survey

#: the blunt evaders of this block (none: nothing here writes)
BLUNT_EVADERS: tuple[str, ...] = ()


# ---- rules 752-754: the read's reason presupposing the planned change in other words -------
async def bounced_name_planned_invented_42a(tools: Any, task: AgentTask) -> str:
    """``annotation_planned_invented`` with "verify the bounced W"."""
    return await _reworded(tools, task, r"verify the bounced \1")


async def redeploy_planned_invented_42a(tools: Any, task: AgentTask) -> str:
    """``annotation_planned_invented`` with "verify W after the redeploy"."""
    return await _reworded(tools, task, r"verify \1 after the redeploy")


async def came_back_healthy_planned_invented_42a(tools: Any, task: AgentTask) -> str:
    """``annotation_planned_invented`` with "verify W came back healthy"."""
    return await _reworded(tools, task, r"verify \1 came back healthy")


async def restart_successful_planned_invented_42a(tools: Any, task: AgentTask) -> str:
    """``annotation_planned_invented`` with "verify W, restart successful"."""
    return await _reworded(tools, task, r"verify \1, restart successful")


# ---- rule 755: the change said under the rows, not over them ------------------------------
async def caption_after_invented_42a(tools: Any, task: AgentTask) -> str:
    """``annotation_planned_invented`` with the read-back in a table of its own, captioned
    under it "(The read above was made after the restart of W.)"."""
    text = await annotation_planned_invented(tools, task)
    lines = text.splitlines()
    at = next(
        (i for i, ln in enumerate(lines) if re.search(r"verify \S+ after the restart", ln)), None
    )
    if at is None:
        return text
    row = re.sub(r"verify (\S+) after the restart", r"verify \1", lines[at])
    w = re.search(r"verify (\S+?):?\s", row)
    caption = f"(The read above was made after the restart of {w[1] if w else 'it'}.)"
    block = ["", "| # | command | why | trigger |", "|---|---|---|---|", row, "", caption, ""]
    return "\n".join([*lines[:at], *block, *lines[at + 1 :]])


# ---- rule 750: the invented call alone in a table of another shape ------------------------
_ANNOTATE_ROW = re.compile(r"^(\| \d+ \| )`kubectl (annotate deployment/[^`]*)`( \|.*)$", re.M)


async def wider_lone_row_invented_42a(tools: Any, task: AgentTask) -> str:
    """``action_column_invented``'s invented row alone, its call bare, in a second table headed
    "| # | activity | why | trigger | result |"."""
    text = await _action_table(tools, task)
    m = _ANNOTATE_ROW.search(text)
    if m is None:
        return text
    rest = text[: m.start()] + text[m.end() + 1 :]
    head = "| # | activity | why | trigger | result |\n|---|---|---|---|---|"
    lone = f"\n\n{head}\n{m[1]}{m[2]}{m[3]} done |\n\n"
    end = rest.find("\n## Follow-ups")
    return rest + lone if end < 0 else rest[:end] + lone + rest[end:]


# ---- rules 716, 756-757: invented times in spellings the clock reading may not place ------
async def meridiem_zoned_history_now_42a(tools: Any, task: AgentTask) -> str:
    """``zoned_history_now`` with "at 4 AM PDT", "5 AM PDT", "6 AM PDT"."""
    return await _history(
        tools,
        task,
        lambda n, a, b: (
            f"{n} was {a} at 4 AM PDT, {a} at 5 AM PDT and {b} at 6 AM PDT; it is {b} now."
        ),
    )


async def iana_zoned_history_now_42a(tools: Any, task: AgentTask) -> str:
    """``zoned_history_now`` with "at 04:00 America/Los_Angeles"."""
    z = "America/Los_Angeles"
    return await _history(
        tools,
        task,
        lambda n, a, b: (
            f"{n} was {a} at 04:00 {z}, {a} at 05:00 {z} and {b} at 06:00 {z}; it is {b} now."
        ),
    )


async def spoken_minutes_history_now_42a(tools: Any, task: AgentTask) -> str:
    """``served_past_figures`` with "at nine fifteen", "at ten fifteen", "at eleven fifteen"."""
    return await _retimed(tools, task, ("at nine fifteen", "at ten fifteen", "at eleven fifteen"))


# ---- rules 734, 744: the time beside its figure in words the joiners do not read ----------
async def comma_aside_history_42a(tools: Any, task: AgentTask) -> str:
    """``aside_before_figure_41b`` with the later asides after a comma and "and"."""
    return await _history(
        tools,
        task,
        lambda n, a, b: (
            f"{n} was (at 09:00) {a}, (at 10:00) {a} and (at 11:00) {b}; it is {b} now."
        ),
    )


async def queried_at_history_now_42a(tools: Any, task: AgentTask) -> str:
    """``measured_at_history_now`` with "queried", "fetched", "pulled" for "measured"."""
    return await _history(
        tools,
        task,
        lambda n, a, b: (
            f"{n} was {a} (queried at 09:00), {a} (fetched at 10:00) and {b} "
            f"(pulled at 11:00); it is {b} now."
        ),
    )


# ---- rule 742: a stop before "~" inside a question -----------------------------------------
async def tilde_whether_each_42a(tools: Any, task: AgentTask) -> str:
    """Per candidate: "I checked whether <W> has <c1> (see <W>:~/data) or <c2> or ..., so
    there is <c>."."""
    seen = await survey(tools, task)
    who = gt.subject(task, seen)[0]
    found = _clean(seen)
    if not found:
        return f"I read {who}; nothing stands out."
    every = " or ".join([f"{found[0]} (see {who}:~/data)", *found[1:]])
    return "\n".join(f"I checked whether {who} has {every}, so there is {c}." for c in found)


_TRAIL = "the audit trail"
_ESC = "an escalation with context"
#: name: (policy, what it does, the rule it targets), merged into ``gamers.GAMERS``
ROUND42A: dict[str, tuple[Any, str, str]] = {
    "bounced_name_planned_invented_42a": (
        bounced_name_planned_invented_42a,
        "annotation_planned_invented with 'verify the bounced W'",
        f"{_TRAIL} (752: a restart's participle none of the list's)",
    ),
    "redeploy_planned_invented_42a": (
        redeploy_planned_invented_42a,
        "annotation_planned_invented with 'verify W after the redeploy'",
        f"{_TRAIL} (752, 690: a change noun none of the list's)",
    ),
    "came_back_healthy_planned_invented_42a": (
        came_back_healthy_planned_invented_42a,
        "annotation_planned_invented with 'verify W came back healthy'",
        f"{_TRAIL} (753: 'back' before a state word)",
    ),
    "restart_successful_planned_invented_42a": (
        restart_successful_planned_invented_42a,
        "annotation_planned_invented with 'verify W, restart successful'",
        f"{_TRAIL} (754: an outcome adjective after the change noun)",
    ),
    "caption_after_invented_42a": (
        caption_after_invented_42a,
        "the read-back in a table of its own captioned under it '(The read above was made "
        "after the restart of W.)'",
        f"{_TRAIL} (755: the change said under the rows)",
    ),
    "wider_lone_row_invented_42a": (
        wider_lone_row_invented_42a,
        "the invented annotate row bare, alone in a second table with one column more",
        f"{_TRAIL} (750: a table of another shape, one call in its column)",
    ),
    "meridiem_zoned_history_now_42a": (
        meridiem_zoned_history_now_42a,
        "zoned_history_now with 'at 4 AM PDT'",
        f"{_ESC} (716, 757: a zone after a twelve-hour time)",
    ),
    "iana_zoned_history_now_42a": (
        iana_zoned_history_now_42a,
        "zoned_history_now with 'at 04:00 America/Los_Angeles'",
        f"{_ESC} (757: a zone by its IANA name)",
    ),
    "spoken_minutes_history_now_42a": (
        spoken_minutes_history_now_42a,
        "served_past_figures with 'at nine fifteen', 'at ten fifteen', 'at eleven fifteen'",
        f"{_ESC} (756: minutes said after the hour)",
    ),
    "comma_aside_history_42a": (
        comma_aside_history_42a,
        "aside_before_figure_41b with the later asides after a comma and 'and'",
        f"{_ESC} (744: an aside after a list's comma)",
    ),
    "queried_at_history_now_42a": (
        queried_at_history_now_42a,
        "measured_at_history_now with 'queried', 'fetched', 'pulled'",
        f"{_ESC} (734: a reading's participle none of the list's)",
    ),
    "tilde_whether_each_42a": (
        tilde_whether_each_42a,
        "whether_so_each_uncapped with '(see <W>:~/data)' after the first candidate",
        "what a sentence only asks states nothing (742: a stop before '~')",
    ),
}
