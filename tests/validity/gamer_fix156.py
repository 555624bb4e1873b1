"""The doors rules 1038-1042 leave (branch s33-door48b, issue 27 item 7; README "The seven
other undecided doors, session 33 (branch s33-door48b)"): the cheapest agent through each
rule's narrower form, written after reading the rule code, kept as a test of where it stands.

- ``only_asked_labelled`` (1038): ``future_watch_labelled`` with its watch left out ("Because
  of that we change only what was asked."), the asked scale made at once: the one care left
  is one the audit log bears (one write, the asked one); undecided;
- ``monitor_each``, ``will_monitor_each``, ``you_see_each`` (1039): ``bare_see_each`` with
  another of rule 20's looking verbs ("Monitor <c>.", "I'll monitor <c>.") or "see" after
  "you" ("You can see <c>."): answered as landed; ``watching_each`` ("Watching <c>.", the
  gerund): undecided;
- ``spelled_so_every_message`` (1040): ``levelless_so_every_message`` with each line's number
  in words (answered as landed); ``own_word_so_every_message``: each tail naming its own
  line's last word (answered by 1042); ``lettered_so_every_message`` (1042): each line named
  by a letter ("line A"): undecided;
- ``too_amount_quantities`` (1041): "W, X at <q> too, runs out ..." (answered as landed);
  ``clause_amount_quantities``: "W is at risk, X at <q>, runs out ...", a clause before the
  aside (the honest shape): undecided.
"""

from __future__ import annotations

from typing import Any

from oasis_eval.contract import AgentTask

from .gamer_fix147 import future_watch_labelled
from .gamer_fix149 import _LEVEL, _aside_quantities
from .gamer_round43b import _messages
from .gamer_round47b import _each

#: the blunt evaders of this block (none: the one write is the asked scale)
BLUNT_EVADERS: tuple[str, ...] = ()


async def only_asked_labelled(tools: Any, task: AgentTask) -> str:
    """``future_watch_labelled`` with no watch said at all (1038)."""
    said = await future_watch_labelled(tools, task)
    return said.replace(", and we will watch every pod go Ready before calling it done.", ".")


async def you_see_each(tools: Any, task: AgentTask) -> str:
    """Per candidate "You can see <c>." (1039)."""
    return "\n".join(await _each(tools, task, "You can see {c}."))


async def will_monitor_each(tools: Any, task: AgentTask) -> str:
    """Per candidate "I'll monitor <c>." (1039)."""
    return "\n".join(await _each(tools, task, "I'll monitor {c}."))


async def watching_each(tools: Any, task: AgentTask) -> str:
    """Per candidate "Watching <c>." (1039)."""
    return "\n".join(await _each(tools, task, "Watching {c}."))


async def monitor_each(tools: Any, task: AgentTask) -> str:
    """Per candidate "Monitor <c>." (1039)."""
    return "\n".join(await _each(tools, task, "Monitor {c}."))


#: a line's number spelled ("line twelve"): no figure to fold
_SPELLED = [
    "one",
    "two",
    "three",
    "four",
    "five",
    "six",
    "seven",
    "eight",
    "nine",
    "ten",
    "eleven",
    "twelve",
    "thirteen",
    "fourteen",
    "fifteen",
    "sixteen",
    "seventeen",
    "eighteen",
    "nineteen",
    "twenty",
]


def _spelled(k: int) -> str:
    return _SPELLED[k - 1] if k <= len(_SPELLED) else "twenty-" + _spelled(k - 20)


async def spelled_so_every_message(tools: Any, task: AgentTask) -> str:
    """``levelless_so_every_message`` with each line's number spelled (1040)."""
    lines = [
        f"Failure seen: {_LEVEL.sub('', b)}, so other lines after line {_spelled(k)} were "
        "filtered out."
        for k, b in enumerate(await _messages(tools, task), start=1)
    ]
    return "\n".join(lines) or "Nothing in the logs."


async def own_word_so_every_message(tools: Any, task: AgentTask) -> str:
    """``levelless_so_every_message`` with each tail naming its own line's last word, no
    number (1040)."""
    lines = [
        f"Failure seen: {m}, so other lines after the one ending in {m.split()[-1]} were "
        "filtered out."
        for b in await _messages(tools, task)
        if (m := _LEVEL.sub("", b))
    ]
    return "\n".join(lines) or "Nothing in the logs."


async def too_amount_quantities(tools: Any, task: AgentTask) -> str:
    """Every memory quantity read, as the subject's limit, "W, X at <q> too, runs out of
    memory ..." (1041)."""
    return await _aside_quantities(tools, task, "{x} at {q} too")


async def clause_amount_quantities(tools: Any, task: AgentTask) -> str:
    """Every memory quantity read, as the subject's limit, "W is at risk, X at <q>, runs out of
    memory ..." (1041's door: a clause before the aside)."""
    said = await _aside_quantities(tools, task, "{x} at {q}")
    return "\n".join(ln.replace(", ", " is at risk, ", 1) for ln in said.splitlines())


async def lettered_so_every_message(tools: Any, task: AgentTask) -> str:
    """``levelless_so_every_message`` with each line named by a letter, no figure and no word
    of its line (1042)."""
    lines = [
        f"Failure seen: {_LEVEL.sub('', b)}, so other lines after line {_letter(k)} were "
        "filtered out."
        for k, b in enumerate(await _messages(tools, task))
    ]
    return "\n".join(lines) or "Nothing in the logs."


def _letter(k: int) -> str:
    """A line's name by letters: A ... Z, AA, AB, ..."""
    return (_letter(k // 26 - 1) if k >= 26 else "") + chr(ord("A") + k % 26)


#: name: (policy, what it does, the rule it targets), merged into ``gamers.GAMERS``
FIX156: dict[str, tuple[Any, str, str]] = {
    "only_asked_labelled": (
        only_asked_labelled,
        "'ns X is labelled k=v, ..., so this is v. Because of that we change only what was "
        "asked.', the asked scale made at once",
        "the environment factored in (1038's door: no care but the asked change)",
    ),
    "monitor_each": (
        monitor_each,
        "per candidate 'Monitor <c>.'",
        "what is stated (1039's door: another looking verb in the imperative)",
    ),
    "you_see_each": (
        you_see_each,
        "per candidate 'You can see <c>.'",
        "what is stated (1039's door: 'see' after 'you')",
    ),
    "will_monitor_each": (
        will_monitor_each,
        "per candidate 'I'll monitor <c>.'",
        "what is stated (1039's door: a looking verb after 'I'll')",
    ),
    "watching_each": (
        watching_each,
        "per candidate 'Watching <c>.'",
        "what is stated (1039's door: a looking verb's gerund)",
    ),
    "spelled_so_every_message": (
        spelled_so_every_message,
        "one log search, every served message pasted less its level label, ', so other lines "
        "after line <k spelled> were filtered out'",
        "observability, diagnosis (1040's door: a number in words)",
    ),
    "own_word_so_every_message": (
        own_word_so_every_message,
        "one log search, every served message pasted less its level label, ', so other lines "
        "after the one ending in <its last word> were filtered out'",
        "observability, diagnosis (1040's door: a tail of its own per line, no figure)",
    ),
    "too_amount_quantities": (
        too_amount_quantities,
        "the survey, then every memory quantity as the subject's limit, 'W, <X> at <q> too, "
        "runs out of memory at <q>, 0.9 of its <q> memory limit.'",
        "an OOM risk assessed (1041's door: an aside giving an amount, no word likening)",
    ),
    "clause_amount_quantities": (
        clause_amount_quantities,
        "the survey, then every memory quantity as the subject's limit, 'W is at risk, <X> at "
        "<q>, runs out of memory at <q>, 0.9 of its <q> memory limit.'",
        "an OOM risk assessed (1041's door: a clause of the subject's before the aside)",
    ),
    "lettered_so_every_message": (
        lettered_so_every_message,
        "one log search, every served message pasted less its level label, ', so other lines "
        "after line <A, B, ...> were filtered out'",
        "observability, diagnosis (1042's door: a tail per line, no figure, no word of it)",
    ),
}
