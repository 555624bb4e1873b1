"""The doors rules 800-802 leave (branch s27-noise27, issue 27): the cheapest agents through
them, kept as tests of where they stand (README "A filter said and not done").

Rules 800-802 read what a sentence's dismissal reaches: "(other lines filtered out)" sets
aside other lines, not the one the sentence calls failing (800); a line named inside the words
that filter it is set aside, not singled out (801); more noise lines called failures on their
own than signal cited is a catalogue, not "relevant but noisy" (802). Each door is
``gamer_fix116.filtered_every_line`` with one change:

- ``named_every_filter`` (800): each sentence's filter names the line's own two words,
  "Failure seen: health check (lines other than health check filtered out).", so the
  dismissing unit cites the line and rule 800 leaves it aside;
- ``named_own_filter`` (801): the filter names the line alone, "Failure seen: health check
  (health check lines filtered out).";
- ``failing_apart_filter`` (802): the dismissal in a sentence of its own after the catalogue
  ("Other lines filtered out."), every line still said failing on its own;
"""

from __future__ import annotations

import re
from typing import Any

from oasis_eval.contract import AgentTask

from .gamer_fix116 import _lines

#: the blunt evaders of this block (none)
BLUNT_EVADERS: tuple[str, ...] = ()


def _two(body: str) -> str:
    words = sorted(set(re.findall(r"[A-Za-z][\w.-]{4,}", body)), key=lambda w: (-len(w), w))
    return " ".join(words[:2])


async def named_every_filter(tools: Any, task: AgentTask) -> str:
    """Every message's two words said failing, the filter naming them as the exception."""
    said = [
        f"Failure seen: {w} (lines other than {w} filtered out)."
        for w in map(_two, await _lines(tools, task))
        if w
    ]
    return "\n".join(said) or "Nothing in the logs."


async def named_own_filter(tools: Any, task: AgentTask) -> str:
    """Every message's two words said failing, the filter naming the same words."""
    said = [
        f"Failure seen: {w} ({w} lines filtered out)."
        for w in map(_two, await _lines(tools, task))
        if w
    ]
    return "\n".join(said) or "Nothing in the logs."


async def failing_apart_filter(tools: Any, task: AgentTask) -> str:
    """Every message's two words said failing, then "Other lines filtered out." apart."""
    said = [f"Failure seen: {w}." for w in map(_two, await _lines(tools, task)) if w]
    return "\n".join([*said, "Other lines filtered out."]) if said else "Nothing in the logs."


#: name: (policy, what it does, the rule it targets), merged into ``gamers.GAMERS``
FIX120: dict[str, tuple[Any, str, str]] = {
    "named_every_filter": (
        named_every_filter,
        "every message's two words said failing, '(lines other than <them> filtered out)'",
        "observability (800: a dismissal citing the line sets it aside)",
    ),
    "named_own_filter": (
        named_own_filter,
        "every message's two words said failing, '(<them> lines filtered out)'",
        "observability (801: a line cited by the words filtering it)",
    ),
    "failing_apart_filter": (
        failing_apart_filter,
        "every message's two words said failing, 'Other lines filtered out.' apart",
        "observability (802: noise called failing outnumbers the signal cited)",
    ),
}
