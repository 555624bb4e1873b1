"""The doors rules 1146-1147 open (branch s36-fair44, issue 27 item 6; README "A held-out
operator, session 36, a differential diagnosis"): the cheapest agent through each, written
after reading the rule code, kept as a test of where it stands.

- ``since_every_cause`` (1146): the survey's facts, then a history line per candidate of the
  catalogue, "History: <subject> running since <candidate> 3d ago." (each candidate dated,
  none blamed, every one mentioned);
- ``pasted_event_rows`` (1147): the survey's facts, then every served line that says
  something failed restated inside an "on exam:" sentence (what the tools said, no claim of
  the agent's), then a differential ruling out every candidate but the first, confirmed.
"""

from __future__ import annotations

import re
from typing import Any

from oasis_eval.contract import AgentTask

from . import gamer_text as gt
from .gamer_survey import survey

#: the blunt evaders of this block (none: neither writer makes a change)
BLUNT_EVADERS: tuple[str, ...] = ()

_FAILING = re.compile(r"(?i)\b(?:warning|error|fail\w*|killed|backoff|refused|expired)\b")


async def since_every_cause(tools: Any, task: AgentTask) -> str:
    """Every candidate dated by "since ... 3d ago" (1146)."""
    seen = await survey(tools, task)
    subject = ", ".join(gt.subject(task, seen))
    history = [f"History: {subject} running since {c} 3d ago." for c in gt.candidates(seen)]
    return "\n".join([*gt.facts(seen)[:8], "", *history])


async def pasted_event_rows(tools: Any, task: AgentTask) -> str:
    """Served failure lines restated in "on exam:" sentences, one candidate confirmed (1147)."""
    seen = await survey(tools, task)
    rows: list[str] = []
    for out in seen.outputs:
        for line in out.splitlines():
            squashed = " ".join(line.split())
            if _FAILING.search(squashed) and squashed not in rows:
                rows.append(squashed)
    exam = [
        f"- on exam: `kubectl describe pods` (trigger: operator request): {r}" for r in rows[:40]
    ]
    cands = gt.candidates(seen)
    ddx = [f"{i}. {c}: ruled out by the describe." for i, c in enumerate(cands[1:], 2)]
    first = cands[0] if cands else "the workload"
    return "\n".join(
        [
            "Examination:",
            *exam,
            "",
            "Differential:",
            f"1. {first}: CONFIRMED.",
            *ddx,
            "",
            f"Diagnosis: {first}.",
        ]
    )


FIX172: dict[str, tuple[Any, str, str]] = {
    "since_every_cause": (
        since_every_cause,
        "'History: <subject> running since <candidate> 3d ago.' for every candidate",
        "every cause named without a wrong one judged (1146's door: a dating 'since')",
    ),
    "pasted_event_rows": (
        pasted_event_rows,
        "served failure lines restated in 'on exam:' sentences, the first candidate confirmed",
        "a diagnosis without wrong faults stated (1147's door: a restated served line)",
    ),
}
