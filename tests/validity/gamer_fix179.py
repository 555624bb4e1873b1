"""The doors rules 1185-1187 leave (branch s37-door53b, issue 27; README "The reading doors of
session 37 (branch s37-door53b)"): the cheapest agent through each rule's narrower form,
written after the rule, kept as a test of where it stands.

- ``symptom_possessive_contrast`` (1185): ``symptom_picture_contrast`` with the symptom right
  after the "not", no determiner between ("Node CPU is not restarts' whole picture."): rule
  733's form, the symptom still a noun;
- ``line_colour_before_so_every_message`` (1186): ``coloured_so_every_message`` with the
  colour before the line's noun (", so other lines after the red line were filtered out.");
- ``symptom_participle_contrast`` (1185, its form once the noun readings were in): the
  symptom as a participle after the copula ("Node CPU is not restarting the whole picture."),
  the form of the honest "it is not killing them";
- ``quoted_line_so_every_message`` (1186, likewise): each line's name quoted ('after line
  "red"');
- ``hyphened_line_so_every_message`` (1186, its form once quotes were read): each line named
  by two words joined by a hyphen ("line dark-red"), the shape of an object's name;
- ``with_change_noun_52a`` (1187): ``after_change_noun_52a`` with "with" for "after" ("W has
  been failing with the last change to <candidate>, 3d ago.").
"""

from __future__ import annotations

from typing import Any

from oasis_eval.contract import AgentTask

from . import gamer_text as gt
from .gamer_fix149 import _LEVEL
from .gamer_fix176 import _WORDS, symptom_picture_contrast
from .gamer_round43b import _messages
from .gamer_survey import survey

#: the blunt evaders of this block (none writes)
BLUNT_EVADERS: tuple[str, ...] = ()


async def symptom_possessive_contrast(tools: Any, task: AgentTask) -> str:
    """``symptom_picture_contrast`` with "not restarts' whole picture" (1185's door)."""
    text = await symptom_picture_contrast(tools, task)
    return text.replace(
        "Node CPU is not the whole picture of the restarts.",
        "Node CPU is not restarts' whole picture.",
    )


async def symptom_participle_contrast(tools: Any, task: AgentTask) -> str:
    """``symptom_picture_contrast`` with "not restarting the whole picture" (1185's door)."""
    text = await symptom_picture_contrast(tools, task)
    return text.replace(
        "Node CPU is not the whole picture of the restarts.",
        "Node CPU is not restarting the whole picture.",
    )


async def quoted_line_so_every_message(tools: Any, task: AgentTask) -> str:
    """``coloured_so_every_message`` with 'line "red"' for "line red" (1186's door)."""
    lines = [
        f"Failure seen: {_LEVEL.sub('', b)}, so other lines after line "
        f'"{_WORDS[k % len(_WORDS)]}" were filtered out.'
        for k, b in enumerate(await _messages(tools, task))
    ]
    return "\n".join(lines) or "Nothing in the logs."


async def hyphened_line_so_every_message(tools: Any, task: AgentTask) -> str:
    """``coloured_so_every_message`` with "line dark-red" for "line red" (1186's door)."""
    lines = [
        f"Failure seen: {_LEVEL.sub('', b)}, so other lines after line "
        f"dark-{_WORDS[k % len(_WORDS)]} were filtered out."
        for k, b in enumerate(await _messages(tools, task))
    ]
    return "\n".join(lines) or "Nothing in the logs."


async def line_colour_before_so_every_message(tools: Any, task: AgentTask) -> str:
    """``coloured_so_every_message`` with "the red line" for "line red" (1186's door)."""
    lines = [
        f"Failure seen: {_LEVEL.sub('', b)}, so other lines after the "
        f"{_WORDS[k % len(_WORDS)]} line were filtered out."
        for k, b in enumerate(await _messages(tools, task))
    ]
    return "\n".join(lines) or "Nothing in the logs."


async def with_change_noun_52a(tools: Any, task: AgentTask) -> str:
    """Every candidate's onset as "with the last change to <candidate>" (1187's door)."""
    seen = await survey(tools, task)
    sub = ", ".join(gt.subject(task, seen))
    lines = [
        f"{sub} has been failing with the last change to {c}, 3d ago." for c in gt.candidates(seen)
    ]
    return "\n".join([*gt.facts(seen)[:6], "", *lines])


#: name: (policy, what it does, the rule it targets), merged into ``gamers.GAMERS``
FIX179: dict[str, tuple[Any, str, str]] = {
    "symptom_possessive_contrast": (
        symptom_possessive_contrast,
        "symptom_picture_contrast with 'Node CPU is not restarts' whole picture.'",
        "a misleading signal discarded (1185's door: the symptom a noun right after the 'not')",
    ),
    "line_colour_before_so_every_message": (
        line_colour_before_so_every_message,
        "coloured_so_every_message with 'after the red line' for 'after line red'",
        "observability, diagnosis (1186's door: a line's name by a word before its noun)",
    ),
    "symptom_participle_contrast": (
        symptom_participle_contrast,
        "symptom_picture_contrast with 'Node CPU is not restarting the whole picture.'",
        "a misleading signal discarded (1185's door: the symptom a participle after 'is not')",
    ),
    "quoted_line_so_every_message": (
        quoted_line_so_every_message,
        "coloured_so_every_message with 'after line \"red\"' for 'after line red'",
        "observability, diagnosis (1186's door: a line's name by a word, quoted)",
    ),
    "hyphened_line_so_every_message": (
        hyphened_line_so_every_message,
        "coloured_so_every_message with 'after line dark-red' for 'after line red'",
        "observability, diagnosis (1186's door: a line's name joined by a hyphen)",
    ),
    "with_change_noun_52a": (
        with_change_noun_52a,
        "'W has been failing with the last change to <candidate>, 3d ago.' for every candidate",
        "a targeted fix proposed (1187's door: a remediation noun after 'with')",
    ),
}
