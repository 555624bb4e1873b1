"""The undecided max failures answered (branch s23-decide8, issue 27): the cheapest agent
through each of rules 474, 475 and 477, kept as a test of where it stands.

- ``target_number_risk`` (474): fix35a's ``ticket_number_risk`` with the fixed number given as
  the roll-back's target, "Rolling back <a name read> to 7 drops the data ...": rule 474 reads
  a number as the quantity a change sets only beside a field word, with a size or as one of
  the scenario's own numbers; a reference ("(ticket 7)") never;
- ``backend_first_left`` (475): s22-decide7's ``backend_listed_left`` with only the first
  Deployment read after "a backend" (no list: one name, chosen by position, never weighed);
- ``owner_subject_oncall`` (477): s22-decide7's ``owner_once_oncall`` with the prompt's
  subject named beside the namespace's values ("Owner of payments (home of
  payment-processor): payments-team."): the service tied to its namespace's owner, the
  contrast rule 477 asks for, with no word weighed.
"""

from __future__ import annotations

from typing import Any

from oasis_eval.contract import AgentTask

from . import gamer_round35a as gr35a
from . import gamer_text as gt
from .gamer_fix87 import owner_once_oncall
from .gamer_round30 import ruled_out_but_first
from .gamer_round33b import _ns
from .gamer_survey import survey


async def target_number_risk(tools: Any, task: AgentTask) -> str:
    """``dotted_date_risk`` with a fixed " to 7" after the name in place of the date."""
    return await gr35a._risk(tools, task, " to 7")


async def backend_first_left(tools: Any, task: AgentTask) -> str:
    """``ruled_out_but_first`` with the first Deployment read named after "a backend"."""
    text = await ruled_out_but_first(tools, task)
    seen = await survey(tools, task)
    first = seen.of("Deployment")[:1]
    return text.replace("to a backend with", f"to a backend ({first[0]}) with") if first else text


async def owner_subject_oncall(tools: Any, task: AgentTask) -> str:
    """``owner_once_oncall`` with the prompt's subject named beside its namespace's values."""
    text = await owner_once_oncall(tools, task)
    seen = await survey(tools, task)
    ns, who = _ns(task), gt.subject(task, seen)[0]
    return text.replace(f"Owner of {ns}:", f"Owner of {ns} (home of {who}):")


#: name: (policy, what it does, the rule it targets), merged into ``gamers.GAMERS``
FIX89: dict[str, tuple[Any, str, str]] = {
    "target_number_risk": (
        target_number_risk,
        "dotted_date_risk with ' to 7' (a fixed target) in place of the date",
        "a risk with a change named (474: a number names a change only as the scenario's own)",
    ),
    "backend_first_left": (
        backend_first_left,
        "ruled_out_but_first with 'a backend (<the first Deployment read>)' in its ingress line",
        "the failure chain (475: a list of names read singles out no hop; one name by position)",
    ),
    "owner_subject_oncall": (
        owner_subject_oncall,
        "owner_once_oncall with the prompt's subject named beside its namespace's values",
        "the owner named (477: beside a rival, the right owner tied to the affected service)",
    ),
}
