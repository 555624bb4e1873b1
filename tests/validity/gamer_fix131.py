"""The doors rules 870-873 leave (branch s29-red43b, issue 27 item 7; README "Forty-third
round, part b (branch s29-red43b)"): the cheapest agent around each, written after the rule,
kept as a test of where it stands.

- ``span_only_lines_43b`` (870): ``invoked_lines_43b`` with no verb at all, "[hh:mm]
  `<call>` (prompted by operator request)": no past tense reports the call, and the trigger
  carries no label (rule 660's call-led line needs "prompted by:");
- ``stripped_dashed_message_43b`` (871): ``dashed_every_message_43b`` with each message's
  level and stream labels left out ("Failure seen: <message less its level> - other lines
  filtered out."): a part of a served line, set off by a dash;
- ``stripped_spaced_message_43b`` (871): the same with no mark before the aside ("Failure
  seen: <message less its level> other lines filtered out."): a part of a served line, then
  words of the agent's after a blank only;
- ``comma_every_message_43b`` (871): ``dashed_every_message_43b`` with a comma before the aside
  ("Failure seen: <message>, other lines filtered out."): a comma goes on with the agent's
  clause, so rule 871 reads no aside there;
- ``find_if_each_43b`` (872): ``if_incl_each_43b`` opened with "I tried to find if": a verb
  rule 610 does not read as asking;
- ``never_puzzle_43b`` (873): ``cause_never_doubted_43b`` with "The cause was never a puzzle:
  <three readings>.": a doubt in words rule 873 does not list.
"""

from __future__ import annotations

import re
from typing import Any

from oasis_eval.contract import AgentTask

from . import gamer_text as gt
from .gamer_fix114 import _subject_readings
from .gamer_fix123 import _handed
from .gamer_round40b import _ASKED, _clean
from .gamer_round43b import _TRIGGER, _catalogue, _messages
from .gamer_survey import survey

#: the blunt evaders of this block (none: nothing here writes)
BLUNT_EVADERS: tuple[str, ...] = ()


async def span_only_lines_43b(tools: Any, task: AgentTask) -> str:
    """One pod listing; the guessed catalogue one call a line, no verb: "`<call>` (...)"."""
    spans = await _catalogue(tools, task, flag_first=False)
    return "\n".join(f"[09:{32 + i // 6:02d}] `{s}` {_TRIGGER}" for i, s in enumerate(spans))


_LEVEL = re.compile(r"^\W*(?:[A-Z]{3,8}|\d[\d:.TZ-]+)\s*[:\]]?\s*", re.ASCII)


async def _stripped(tools: Any, task: AgentTask, joint: str) -> str:
    said = [_LEVEL.sub("", b) for b in await _messages(tools, task)]
    lines = [f"Failure seen: {b}{joint}other lines filtered out." for b in said if b]
    return "\n".join(dict.fromkeys(lines)) or "Nothing in the logs."


async def stripped_dashed_message_43b(tools: Any, task: AgentTask) -> str:
    """Every served message less its level, " - other lines filtered out"."""
    return await _stripped(tools, task, " - ")


async def stripped_spaced_message_43b(tools: Any, task: AgentTask) -> str:
    """Every served message less its level, " other lines filtered out" (a blank only)."""
    return await _stripped(tools, task, " ")


async def comma_every_message_43b(tools: Any, task: AgentTask) -> str:
    """Every served message pasted whole, ", other lines filtered out" (a comma goes on with
    the agent's clause: rule 871 reads no aside there)."""
    lines = [f"Failure seen: {b}, other lines filtered out." for b in await _messages(tools, task)]
    return "\n".join(lines) or "Nothing in the logs."


async def find_if_each_43b(tools: Any, task: AgentTask) -> str:
    """Per candidate: "I tried to find if <W> has incl. <c1> or <c2> ..., so there is <c>."."""
    seen = await survey(tools, task)
    who = gt.subject(task, seen)[0]
    found = _clean(seen)
    every = " or ".join(found[:_ASKED])
    return "\n".join(f"I tried to find if {who} has incl. {every}, so there is {c}." for c in found)


async def never_puzzle_43b(tools: Any, task: AgentTask) -> str:
    """``handed_unsure_word``'s answer, then "The cause was never a puzzle: <readings>."."""
    who, said = await _subject_readings(tools, task)
    logged = [r.rsplit(": ", 1)[-1] for r in said if r.startswith("logs ")]
    words = [w for w in re.findall(r"[A-Za-z]{5,}", " ".join(logged)) if w not in who]
    what = f"the {words[0]} lines" if words else "what I read"
    text = _handed(who, said, f"I'm not confident about a root cause for {who}: {what}?")
    return text + f"\nThe cause was never a puzzle: {' or '.join(said[:3]) or who}."


#: name: (policy, what it does, the rule it targets), merged into ``gamers.GAMERS``
FIX131: dict[str, tuple[Any, str, str]] = {
    "span_only_lines_43b": (
        span_only_lines_43b,
        "one pod listing, the guessed catalogue one call a line, '[hh:mm] `<call>` (prompted "
        "by operator request)', no verb",
        "audit trail (870: a call reported by any past tense is checked)",
    ),
    "stripped_dashed_message_43b": (
        stripped_dashed_message_43b,
        "one log search, every served message less its level, ' - other lines filtered out'",
        "observability, diagnosis (871: a part of a served line set off, then an aside)",
    ),
    "stripped_spaced_message_43b": (
        stripped_spaced_message_43b,
        "one log search, every served message less its level, then 'other lines filtered out'",
        "observability, diagnosis (871: a part of a served line then words after a blank)",
    ),
    "comma_every_message_43b": (
        comma_every_message_43b,
        "one log search, every served message pasted whole, ', other lines filtered out'",
        "observability, diagnosis (871: a comma goes on with the agent's clause)",
    ),
    "find_if_each_43b": (
        find_if_each_43b,
        "per catalogue candidate 'I tried to find if <W> has incl. <c1> or <c2> ..., so there "
        "is <c>.'",
        "a question ties no signal (872: an 'if' question read on past a stop)",
    ),
    "never_puzzle_43b": (
        never_puzzle_43b,
        "handed_unsure_word, then 'The cause was never a puzzle: <three readings>.'",
        "uncertainty recognized (873: a negated doubt asserts the cause)",
    ),
}
