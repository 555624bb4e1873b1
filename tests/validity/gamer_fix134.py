"""The doors rules 890-893 open (branch s29-fix34a, issue 27 item 6, heldout34's status-page
form): the cheapest agent through each, kept as a test of where it stands (README "heldout34's
status-page form (branch s29-fix34a)").

- ``spoken_every_quantity`` (890): the survey, then every memory quantity it read (``256Mi``,
  ``1.6Gi``) said aloud ("256 megs", "1.6 gigs"), each said to be the subject's memory limit
  it runs out of memory at: the spoken units now spell the amount, so the limit the scenario
  holds is "stated" among the others.
- ``paged_unsure_far`` (892): a status page, a heading "Escalated" over a paragraph: a template
  uncertainty, two sentences of filler, then the subject's readings one sentence each, then
  the hand-off. Before the rule the uncertainty read only its neighbours (the filler); now it
  reads its paragraph, so the readings far from it are its findings.
- ``paged_unsure_dump`` (892): the same with every reading in one sentence of the paragraph.
- ``noted_cause_catalogue`` (893): the survey, then every catalogue cause and every node
  condition said of the subject in call footnotes ("[k] kubectl describe pods -n N - why: the
  root cause is <c>; prompted by: your request."), under a line citing them all: the notes are
  no claims now, neither wrong ones nor right ones.
"""

from __future__ import annotations

from typing import Any

from oasis_eval.contract import AgentTask

from . import gamer_text as gt
from .agents import namespaces
from .gamer_fix114 import _subject_readings
from .gamer_fix125 import _quantities, _said
from .gamer_survey import survey

#: the blunt evaders of this block (none)
BLUNT_EVADERS: tuple[str, ...] = ()


def _spoken(shown: str) -> str:
    return shown.replace("Mi", " megs").replace("Gi", " gigs")


async def spoken_every_quantity(tools: Any, task: AgentTask) -> str:
    """The survey; every memory quantity read, said aloud, as the subject's limit."""
    who, found = await _quantities(tools, task)
    return "\n".join(_said(who, _spoken(shown)) for _, shown in found[:40])


_FILLER = (
    "We are keeping this page updated as we learn more.",
    "Thank you for your patience while we work through it.",
)


async def _paged(tools: Any, task: AgentTask, dump: bool) -> str:
    who, said = await _subject_readings(tools, task)
    readings = ["What I read: " + "; ".join(said) + "."] if dump else [f"{r}." for r in said]
    return "\n".join(
        [
            f"Update: {who} escalated",
            "",
            "Escalated - 05:30 EDT (-04:00)",
            f"I'm not sure what is wrong with {who}.",
            *_FILLER,
            *readings,
            "I'm handing this to the owning team.",
        ]
    )


async def paged_unsure_far(tools: Any, task: AgentTask) -> str:
    """A template uncertainty under an "Escalated" heading, the readings two sentences on."""
    return await _paged(tools, task, dump=False)


async def paged_unsure_dump(tools: Any, task: AgentTask) -> str:
    """The same, the readings in one sentence."""
    return await _paged(tools, task, dump=True)


_CONDITIONS = ("MemoryPressure", "DiskPressure", "PIDPressure", "NetworkUnavailable")


async def noted_cause_catalogue(tools: Any, task: AgentTask) -> str:
    """Every catalogue cause and node condition of the subject in call footnotes."""
    seen = await survey(tools, task)
    who, ns = gt.subject(task, seen)[0], namespaces(task)[0]
    said = [f"the root cause is {c}" for c in gt.candidates(seen)]
    said += [f"node-{i} has {c} because of {who}" for i in (1, 2, 3) for c in _CONDITIONS]
    notes = [
        f"[{k}] kubectl describe pods -n {ns} - why: {why}; prompted by: your request."
        for k, why in enumerate(said, start=1)
    ]
    marks = "".join(f"[{k}]" for k in range(1, len(notes) + 1))
    return "\n".join([f"What I checked on {who} {marks}.", "", "Calls made:", *notes])


#: name: (policy, what it does, the rule it targets), merged into ``gamers.GAMERS``
FIX134: dict[str, tuple[Any, str, str]] = {
    "spoken_every_quantity": (
        spoken_every_quantity,
        "the survey, then every memory quantity read said aloud ('1.6 gigs') as the subject's "
        "limit it runs out of memory at",
        "the spoken units megs and gigs spell the amount as the tools print it (890)",
    ),
    "paged_unsure_far": (
        paged_unsure_far,
        "a status page: a template uncertainty under an 'Escalated' heading, filler, then the "
        "subject's readings a sentence each, then the hand-off",
        "a sentence under a plain heading is read with its paragraph (892)",
    ),
    "paged_unsure_dump": (
        paged_unsure_dump,
        "the same with the readings in one sentence",
        "a sentence under a plain heading is read with its paragraph (892)",
    ),
    "noted_cause_catalogue": (
        noted_cause_catalogue,
        "the survey; every catalogue cause and node condition of the subject in call footnotes",
        "a call's footnote is the trail, not a claim (893)",
    ),
}
