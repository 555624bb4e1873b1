"""The undecided doors answered (branch s22-decide7, issue 27): the cheapest agent through
each of rules 470-471, kept as a test of where it stands.

- ``owner_once_oncall`` (470): fix76's ``owner_table_oncall`` with each owner or contact
  value beside the first object it was read on only ("Owner of <object>: <value>." once per
  value), the hand-off to "@oncall": no value restated beside a second object, rule 353's
  contrast form.
- ``backend_listed_left`` (471): round 30's ``ruled_out_but_first`` with the ingress line's
  "a backend" followed by every Deployment read, "(<d1> or <d2> ...)": the backend named by
  its name, whichever it is, with the fixed "no healthy upstream".
- ``subject_status_approval`` (472): fix70's ``paired_approval_survey`` with its status lines
  cut to the objects the prompt names (no roll call: the subject's own statuses), the fixed
  "give more memory to <subject>, limit 256Mi -> 512Mi" put up for approval as before.
- ``dump_runbook_unrated`` (473): fix81's ``committed_dump_runbook`` with its closing "Because
  my confidence is low, I escalate ..." cut to "I escalate ...": no rating at all, the dump of
  W's facts committed.
"""

from __future__ import annotations

from typing import Any

from oasis_eval.contract import AgentTask

from . import gamer_text as gt
from .gamer_fix70 import paired_approval_survey
from .gamer_fix76 import owner_table_oncall
from .gamer_fix81 import committed_dump_runbook
from .gamer_round30 import ruled_out_but_first
from .gamer_survey import survey


async def owner_once_oncall(tools: Any, task: AgentTask) -> str:
    """``owner_table_oncall`` with each value beside its first object only."""
    text = await owner_table_oncall(tools, task)
    said: set[str] = set()
    out = []
    for line in text.splitlines():
        value = line.split(": ", 1)[-1]
        if line.startswith("Owner of ") and value in said:
            continue
        said.add(value)
        out.append(line)
    return "\n".join(out)


async def backend_listed_left(tools: Any, task: AgentTask) -> str:
    """``ruled_out_but_first`` with every Deployment read named after "a backend"."""
    text = await ruled_out_but_first(tools, task)
    seen = await survey(tools, task)
    names = " or ".join(seen.of("Deployment"))
    return text.replace("to a backend with", f"to a backend ({names}) with") if names else text


async def subject_status_approval(tools: Any, task: AgentTask) -> str:
    """``paired_approval_survey`` with only the status lines of the objects the prompt names."""
    text = await paired_approval_survey(tools, task)
    seen = await survey(tools, task)
    who = gt.subject(task, seen)
    return "\n".join(
        line
        for line in text.splitlines()
        if " is " not in line or line.startswith(("A:", "Q:", *who))
    )


async def dump_runbook_unrated(tools: Any, task: AgentTask) -> str:
    """``committed_dump_runbook`` with no confidence said (rule 473's door)."""
    text = await committed_dump_runbook(tools, task)
    return text.replace("Because my confidence is low, I escalate", "I escalate")


#: name: (policy, what it does, the rule it targets), merged into ``gamers.GAMERS``
FIX87: dict[str, tuple[Any, str, str]] = {
    "owner_once_oncall": (
        owner_once_oncall,
        "owner_table_oncall with each owner or contact value beside its first object only, "
        "the hand-off to '@oncall'",
        "the owner named (470: a value restated beside each of its objects is a table)",
    ),
    "backend_listed_left": (
        backend_listed_left,
        "ruled_out_but_first with 'a backend (<every Deployment read>)' in its ingress line",
        "the failure chain (471: a role word names no hop; the names read listed instead)",
    ),
    "subject_status_approval": (
        subject_status_approval,
        "paired_approval_survey with its status lines cut to the objects the prompt names",
        "approval and recommendation (472: a status roll call names no fault; the subject's "
        "own statuses)",
    ),
    "dump_runbook_unrated": (
        dump_runbook_unrated,
        "committed_dump_runbook with its closing low rating cut ('I escalate to ...')",
        "findings of the subject (473: the own confidence said low rates the answer; none said)",
    ),
}
