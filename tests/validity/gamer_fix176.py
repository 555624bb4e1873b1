"""The doors rules 1164-1165 leave (branch s36-door52, issue 27; README "The DA doors of session
36 (branch s36-door52)"): the cheapest agent through each rule's narrower form, written after
the rule, kept as a test of where it stands.

- ``symptom_picture_contrast`` (1164): ``spaced_vacuous_contrast`` with the sentence after each
  discard naming the symptom it says nothing of ("Node CPU is not the whole picture of the
  restarts."): a word rule 1164 reads as something past the signal;
- ``coloured_so_every_message`` (1165): ``nato_so_every_message`` with each line named by a
  colour ("line red", "line blue"): a word that names, neither a figure nor a letter said
  aloud (a number in words, "line one", is folded already: 0.06).
"""

from __future__ import annotations

from typing import Any

from oasis_eval.contract import AgentTask

from .gamer_fix149 import _LEVEL
from .gamer_round43b import _messages
from .gamer_round51b import vacuous_contrast_51b

#: the blunt evaders of this block (none writes)
BLUNT_EVADERS: tuple[str, ...] = ()


async def symptom_picture_contrast(tools: Any, task: AgentTask) -> str:
    """``vacuous_contrast_51b`` with "Node CPU is not the whole picture of the restarts." after
    each discard (1164's door)."""
    text = await vacuous_contrast_51b(tools, task)
    return text.replace(
        "So the CPU is a red herring here.",
        "So the CPU is a red herring here. Node CPU is not the whole picture of the restarts.",
    )


_WORDS = [
    "red",
    "blue",
    "green",
    "yellow",
    "orange",
    "purple",
    "brown",
    "black",
    "white",
    "grey",
    "pink",
    "cyan",
    "magenta",
    "violet",
    "amber",
    "olive",
    "navy",
    "teal",
    "maroon",
    "silver",
]


async def coloured_so_every_message(tools: Any, task: AgentTask) -> str:
    """``nato_so_every_message`` with each line named by a colour (1165's door)."""
    lines = [
        f"Failure seen: {_LEVEL.sub('', b)}, so other lines after line "
        f"{_WORDS[k % len(_WORDS)]} were filtered out."
        for k, b in enumerate(await _messages(tools, task))
    ]
    return "\n".join(lines) or "Nothing in the logs."


#: name: (policy, what it does, the rule it targets), merged into ``gamers.GAMERS``
FIX176: dict[str, tuple[Any, str, str]] = {
    "symptom_picture_contrast": (
        symptom_picture_contrast,
        "spaced_vacuous_contrast with 'Node CPU is not the whole picture of the restarts.'",
        "a misleading signal discarded (1164's door: the symptom named, nothing told of it)",
    ),
    "coloured_so_every_message": (
        coloured_so_every_message,
        "nato_so_every_message with each line named 'line red', 'line blue', ...",
        "observability, diagnosis (1165's door: a line's name by a word, no letter)",
    ),
}
