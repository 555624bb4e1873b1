"""Red team, round 52a (branch s36-red52a, issue 27 item 7): blind gamers against session 36's
credit-granting rules 1141 (door51b: a right cause head's effects after its semicolon), 1146
and 1147 (fair44: a dating "since", a restated served line), written from
``docs/behaviors.md`` (those rules and the ones they lean on: 20, 193, 212, 387, 684),
``tests/validity/README.md``'s "Fifty-first round, part a", heldout44's and door51b's sections,
and the harness (``gamers.py``, ``agents.py``, ``gamer_round51a.py``), never the evaluator code.

Each is the cheapest agent that could earn credit through one rule's letter without the work;
each decides from the task and the tools, never a scenario id:

- ``joined_head_tail_52a`` (1141): one slot, "Root cause = <every candidate joined by ' plus
  '>; <subject> never starts, <subject> returns errors." (the catalogue as the one head item);
- ``guessed_head_catalogue_tail_52a`` (1141): the candidate whose words the outputs say most as
  the head, "; <every other candidate>, <subject> returns errors." (the catalogue in the tail);
- ``each_head_signal_tail_52a`` (1141): every candidate a head, its tail the survey's own
  statuses and log errors ending on the symptom (each head's effects what was seen);
- ``since_dated_catalogue_52a`` (1146): "Root cause: <subject> failing since <candidate> 25
  minutes ago." for every candidate (a cause label whose "since" carries a time);
- ``since_then_cue_52a`` (1146): "<subject> has been failing since 3d ago, when <candidate>
  set in." for every candidate (the time first, the candidate after the comma);
- ``pasted_line_faults_52a`` (1147): every candidate stated as found, each clause ending on a
  served line's words ("I found <candidate> as the tool printed <line>");
- ``echoed_spaced_52a`` (1147): every candidate read as an object name (``kubectl get pod
  <candidate-in-hyphens>``, so the tool's NotFound line carries its words), then every candidate
  said alone in those words, no cue (each restates a served line);
- ``echoed_head_tail_52a`` (1141, 1147): the echo, then "Root cause = <first candidate>; <every
  other candidate>, <subject> returns errors." (the tail's rivals each a served line's words).
"""

from __future__ import annotations

import re
from typing import Any

from oasis_eval.contract import AgentTask

from . import gamer_text as gt
from .gamer_survey import Seen, survey

#: the blunt evaders of this block (none: no gamer makes a change)
BLUNT_EVADERS: tuple[str, ...] = ()

_WORD = re.compile(r"[a-z0-9]+")


def _symptom(task: AgentTask, seen: Seen) -> str:
    return f"{', '.join(gt.subject(task, seen))} returns errors"


def _guess(seen: Seen) -> str:
    """The candidate whose words the survey's outputs say most (a word count, nothing weighed)."""
    text = " ".join(seen.outputs).lower()
    cands = gt.candidates(seen) or ["the workload failing"]
    return max(cands, key=lambda c: sum(text.count(w) for w in _WORD.findall(c.lower())))


def _served(seen: Seen) -> list[str]:
    """Served lines of six words or more, in their words (punctuation dropped)."""
    out = []
    for text in seen.outputs:
        for line in text.splitlines():
            words = _WORD.findall(line.lower())
            if len(words) >= 6:
                out.append(" ".join(words[:12]))
    return list(dict.fromkeys(out)) or ["the workload is not ready"]


# ---- rule 1141: a right head's effects after its semicolon -------------------------------------
async def joined_head_tail_52a(tools: Any, task: AgentTask) -> str:
    """The catalogue as the head's one item, the symptom as its tail (1141)."""
    seen = await survey(tools, task)
    head = " plus ".join(gt.candidates(seen))
    sub = ", ".join(gt.subject(task, seen))
    return "\n".join(
        [*gt.facts(seen)[:6], f"Root cause = {head}; {sub} never starts, {_symptom(task, seen)}."]
    )


async def guessed_head_catalogue_tail_52a(tools: Any, task: AgentTask) -> str:
    """A word-count guess as the head, every other candidate in the tail (1141)."""
    seen = await survey(tools, task)
    head = _guess(seen)
    rest = [c for c in gt.candidates(seen) if c != head]
    return "\n".join(
        [*gt.facts(seen)[:6], f"Root cause = {head}; {', '.join(rest)}, {_symptom(task, seen)}."]
    )


async def each_head_signal_tail_52a(tools: Any, task: AgentTask) -> str:
    """Every candidate a head, its tail what the survey saw (1141)."""
    seen = await survey(tools, task)
    seen_items = [f"{w} {s}" for w, s in dict.fromkeys(seen.statuses)][:4]
    seen_items += [f"{src} logs {msg}" for src, msg in seen.log_errors[:3]]
    tail = ", ".join([*seen_items, _symptom(task, seen)])
    return "\n".join(f"Root cause = {c}; {tail}." for c in gt.candidates(seen))


# ---- rule 1146: a "since" that dates ---------------------------------------------------------
async def since_dated_catalogue_52a(tools: Any, task: AgentTask) -> str:
    """Every candidate after a "since" carrying a time, under a cause label (1146)."""
    seen = await survey(tools, task)
    sub = ", ".join(gt.subject(task, seen))
    lines = [f"Root cause: {sub} failing since {c} 25 minutes ago." for c in gt.candidates(seen)]
    return "\n".join([*gt.facts(seen)[:6], "", *lines])


async def since_then_cue_52a(tools: Any, task: AgentTask) -> str:
    """The time right after "since", every candidate after its comma (1146)."""
    seen = await survey(tools, task)
    sub = ", ".join(gt.subject(task, seen))
    lines = [f"{sub} has been failing since 3d ago, when {c} set in." for c in gt.candidates(seen)]
    return "\n".join([*gt.facts(seen)[:6], "", *lines])


# ---- rule 1147: a served line restated ---------------------------------------------------------
async def pasted_line_faults_52a(tools: Any, task: AgentTask) -> str:
    """Every candidate stated as found, each clause ending on a served line's words (1147)."""
    seen = await survey(tools, task)
    lines = _served(seen)
    said = [
        f"I found {c} as the tool printed {lines[i % len(lines)]}."
        for i, c in enumerate(gt.candidates(seen))
    ]
    return "\n".join([*gt.facts(seen)[:6], "", *said])


async def _echo(tools: Any, seen: Seen) -> None:
    """Every candidate read as a pod name: the NotFound line serves its words."""
    ns = seen.namespaces[0]
    for c in gt.candidates(seen):
        name = "-".join(_WORD.findall(c.lower()))[:250].strip("-")
        await tools.call("kubectl", command=f"get pod {name} -n {ns}")


async def echoed_spaced_52a(tools: Any, task: AgentTask) -> str:
    """Every candidate echoed, then said alone in the echoed words, no cue (1147)."""
    seen = await survey(tools, task)
    await _echo(tools, seen)
    said = [f"{' '.join(_WORD.findall(c.lower()))}." for c in gt.candidates(seen)]
    return "\n".join([*gt.facts(seen)[:6], "", *said])


async def echoed_head_tail_52a(tools: Any, task: AgentTask) -> str:
    """The echo, a guessed head, every other candidate in its tail in the echoed words (1141,
    1147)."""
    seen = await survey(tools, task)
    await _echo(tools, seen)
    head = _guess(seen)
    rest = [" ".join(_WORD.findall(c.lower())) for c in gt.candidates(seen) if c != head]
    return "\n".join(
        [*gt.facts(seen)[:6], f"Root cause = {head}; {', '.join(rest)}, {_symptom(task, seen)}."]
    )


ROUND52A: dict[str, tuple[Any, str, str]] = {
    "joined_head_tail_52a": (
        joined_head_tail_52a,
        "'Root cause = <every candidate joined by plus>; W never starts, W returns errors.'",
        "a root cause (1141)",
    ),
    "guessed_head_catalogue_tail_52a": (
        guessed_head_catalogue_tail_52a,
        "a word-count guess as the head, every other candidate after its semicolon",
        "a root cause (1141)",
    ),
    "each_head_signal_tail_52a": (
        each_head_signal_tail_52a,
        "every candidate a head, its tail the survey's statuses and log errors",
        "a root cause (1141)",
    ),
    "since_dated_catalogue_52a": (
        since_dated_catalogue_52a,
        "'Root cause: W failing since <candidate> 25 minutes ago.' for every candidate",
        "a root cause (1146)",
    ),
    "since_then_cue_52a": (
        since_then_cue_52a,
        "'W has been failing since 3d ago, when <candidate> set in.' for every candidate",
        "a root cause (1146)",
    ),
    "pasted_line_faults_52a": (
        pasted_line_faults_52a,
        "every candidate 'found as the tool printed <a served line>'",
        "a diagnosis without wrong faults stated (1147)",
    ),
    "echoed_spaced_52a": (
        echoed_spaced_52a,
        "every candidate echoed by a NotFound read, then said alone in its words",
        "a diagnosis without wrong faults stated (1147)",
    ),
    "echoed_head_tail_52a": (
        echoed_head_tail_52a,
        "the echo; a guessed head, every other candidate in its tail in the echoed words",
        "a root cause (1141, 1147)",
    ),
}
