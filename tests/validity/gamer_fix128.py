"""The door rule 851 opens (branch s28-fix33h, issue 27 item 6): the cheapest agents through it,
kept as a test of where it stands (README "heldout33's bare "No." (branch s28-fix33h)").

Rule 851 reads a bare "No"/"Yes" answering a yes/no question of cause ("Q: Is X the problem?
A: No.") as the statement it makes ("X is not the cause"). Each door asks the question of a
generic catalogue and answers it without weighing anything:

- ``qa_no_every_candidate``: the survey, then every catalogue candidate asked ("Q: Is {c} the
  problem?") and answered "A: No.";
- ``qa_yes_no_hashed``: the same, each answered "Yes." or "No." by a hash of its words (at
  random, reproducibly);
- ``qa_no_cpu_every_object``: every node and pod read asked about by its CPU ("Q: Is the CPU
  of {x} the problem?"), each answered "No." and the one fixed reason heldout33 gives (CPU
  pressure slows a container, it never restarts it), then every other candidate "Yes.";
- ``qa_no_cpu_all_at_once``: one question naming the CPU of every node read, answered
  "No." with that fixed reason, then every other candidate "Yes.".
"""

from __future__ import annotations

import zlib
from typing import Any

from oasis_eval.contract import AgentTask

from . import gamer_round31b as r31b
from . import gamer_text as gt
from .gamer_survey import Seen, survey

#: the blunt evaders of this block (none)
BLUNT_EVADERS: tuple[str, ...] = ()

_REASON = (
    "The CPU is busy, but CPU pressure only slows a container down, it never restarts or kills it."
)


def _asked(c: str, word: str, reason: str = "") -> str:
    return f"Q: Is {c} the problem?\nA: {word}." + (f" {reason}" if reason else "")


def _others(seen: Seen) -> list[str]:
    return [_asked(c, "Yes") for c in gt.candidates(seen) if "cpu" not in c.lower()]


def _objects(seen: Seen) -> list[str]:
    return list(dict.fromkeys(seen.of("Node") + seen.of("Pod")))[:30]


async def qa_no_every_candidate(tools: Any, task: AgentTask) -> str:
    """The survey; every catalogue candidate asked and answered a bare "No."."""
    seen = await survey(tools, task)
    lines = [_asked(c, "No") for c in gt.candidates(seen)]
    return "\n\n".join(lines) + "\n\n" + gt.boilerplate(task, seen)


async def qa_yes_no_hashed(tools: Any, task: AgentTask) -> str:
    """The survey; every catalogue candidate answered "Yes." or "No." by a hash of its words."""
    seen = await survey(tools, task)
    lines = [_asked(c, "Yes" if zlib.crc32(c.encode()) % 2 else "No") for c in gt.candidates(seen)]
    return "\n\n".join(lines) + "\n\n" + gt.boilerplate(task, seen)


async def qa_no_cpu_every_object(tools: Any, task: AgentTask) -> str:
    """Every node and pod read: its CPU denied with one fixed reason; every other candidate
    answered "Yes."."""
    seen = await survey(tools, task)
    lines = [_asked(f"the CPU of {x}", "No", _REASON) for x in _objects(seen)]
    return "\n\n".join(lines + _others(seen)) + "\n\n" + gt.boilerplate(task, seen)


async def qa_no_cpu_all_at_once(tools: Any, task: AgentTask) -> str:
    """One question naming the CPU of every node read, a bare "No." and the fixed
    reason; every other candidate answered "Yes."."""
    seen = await survey(tools, task)
    every = ", ".join(seen.of("Node")) or "the node"
    reason = f"The CPU of {every} is busy, but CPU pressure only slows a container down, it never restarts or kills it."
    lines = [_asked(f"the CPU of {every}", "No", reason), *_others(seen)]
    return "\n\n".join(lines) + "\n\n" + gt.boilerplate(task, seen)


#: name: (policy, what it does, the rule it targets), merged into ``gamers.GAMERS``
FIX128: dict[str, tuple[Any, str, str]] = {
    "qa_no_every_candidate": (
        qa_no_every_candidate,
        "the survey, then every catalogue candidate asked ('Q: Is X the problem?') and "
        "answered 'A: No.'",
        "a bare 'No' answering a yes/no question of cause reads as its denial (851)",
    ),
    "qa_yes_no_hashed": (
        qa_yes_no_hashed,
        "the survey, then every catalogue candidate asked and answered 'Yes.' or 'No.' by a "
        "hash of its words",
        "a bare 'No'/'Yes' answering a yes/no question of cause reads as its statement (851)",
    ),
    "qa_no_cpu_every_object": (
        qa_no_cpu_every_object,
        "every node and pod read asked about by its CPU and answered 'No.' with one fixed "
        "reason (CPU only slows a container), every other candidate answered 'Yes.'",
        "a bare 'No' answering a yes/no question of cause reads as its denial (851)",
    ),
    "qa_no_cpu_all_at_once": (
        qa_no_cpu_all_at_once,
        "one question naming the CPU of every node read, answered 'No.' with one "
        "fixed reason, every other candidate answered 'Yes.'",
        "a bare 'No' answering a yes/no question of cause reads as its denial (851)",
    ),
}


async def qa_no_cpu_rest_asserted(tools: Any, task: AgentTask) -> str:
    """As :func:`qa_no_cpu_all_at_once`, every other candidate asserted as the root cause."""
    seen = await survey(tools, task)
    every = ", ".join(seen.of("Node")) or "the node"
    reason = (
        f"The CPU of {every} is busy, but CPU pressure only slows a container down, it never "
        "restarts or kills it."
    )
    rest = [f"The root cause is {c}." for c in gt.candidates(seen) if "cpu" not in c.lower()]
    lines = [_asked(f"the CPU of {every}", "No", reason), *rest]
    return "\n\n".join(lines) + "\n\n" + gt.boilerplate(task, seen)


FIX128["qa_no_cpu_rest_asserted"] = (
    qa_no_cpu_rest_asserted,
    "one question naming the CPU of every node read, answered 'No.' with one fixed reason "
    "naming them, every other candidate asserted as the root cause",
    "a bare 'No' answering a yes/no question of cause reads as its denial (851)",
)


async def qa_contrarian_mechanism(tools: Any, task: AgentTask) -> str:
    """The Q&A twin of ``contrarian_mechanism`` (gamer_round31b.py): each signal word the
    prompt uses asked about ("Q: Is the CPU the problem?") and answered "No." with "<Signal>
    only slows W down; it does not kill it.", then W's first fault read as the cause."""
    seen = await survey(tools, task)
    low = task.prompt.lower()
    said = [s for s in r31b._SIGNALS if s.lower() in low] or ["CPU"]
    lines = []
    for w in gt.subject(task, seen)[:1]:
        for s in said:
            why = f"{s[:1].upper() + s[1:]} only slows {w} down; it does not kill it."
            lines.append(_asked(f"the {s}", "No", why))
        lines.append(f"Q: What is the cause?\nA: The cause is {r31b._head(task, seen, w)}.")
    return "\n\n".join(lines)


FIX128["qa_contrarian_mechanism"] = (
    qa_contrarian_mechanism,
    "the Q&A twin of contrarian_mechanism: each signal word of the prompt asked about and "
    "answered 'No.' with a fixed mechanism, then the subject's first fault read as the cause",
    "a bare 'No' answering a yes/no question of cause reads as its denial (851)",
)
