"""Rules 630-632 answered (branch s25-decide10a, issue 27): the cheapest agent through each new
rule, kept as a test of where it stands (README "Three undecided doors of session 24").

- ``workload_version_risk`` (630): fix93's ``previous_version_risk`` with the roll-back's
  object the first Deployment read, not the namespace: "Rolling back <W> to the previous
  version drops the data ...";
- ``subject_version_risk`` (630): the same with the Deployment the prompt names: "Rolling back
  user-service to the previous version drops the data ..." where the prompt says
  "user-service is broken after the last migration";
- ``annotation_held_invented`` (631): fix97's ``annotation_is_set_invented`` with its checked
  state in words the provisioning state holds, "- [x] The annotation is set on W" (the
  invented annotate call left in its timeline table);
- ``annotation_planned_invented`` (633): the same with the invented row's reason opened by
  "planned:", a row saying its call was not made;
- ``remark_lead_approval`` (632): fix91's ``remark_status_approval`` with the remarks as
  leads, "Worth a look: W is Running.": a lead, not a tail, changing every line.
"""

from __future__ import annotations

import re
from typing import Any

from oasis_eval.contract import AgentTask

from .gamer_fix91 import annotation_set_invented
from .gamer_fix93 import previous_version_risk
from .gamer_round36b import found_status_approval
from .gamer_round37a import _restatus
from .gamer_survey import survey

#: the blunt evaders of this block (none)
BLUNT_EVADERS: tuple[str, ...] = ()


async def workload_version_risk(tools: Any, task: AgentTask) -> str:
    """``previous_version_risk`` rolling back the first Deployment read."""
    text = await previous_version_risk(tools, task)
    deployments = (await survey(tools, task)).of("Deployment")
    if not deployments:
        return text
    return re.sub(r"Rolling back \S+ to", f"Rolling back {deployments[0]} to", text, count=1)


async def subject_version_risk(tools: Any, task: AgentTask) -> str:
    """``previous_version_risk`` rolling back the Deployment the prompt names (the first read
    when it names none)."""
    text = await previous_version_risk(tools, task)
    deployments = (await survey(tools, task)).of("Deployment")
    low = task.prompt.lower()
    named = [d for d in deployments if re.search(rf"\b{re.escape(d)}\b", low)] or deployments
    if not named:
        return text
    w = max(named, key=len)
    return re.sub(r"Rolling back \S+ to", f"Rolling back {w} to", text, count=1)


async def annotation_held_invented(tools: Any, task: AgentTask) -> str:
    """``annotation_set_invented`` with "- [x] The annotation is set on W"."""
    text = await annotation_set_invented(tools, task)
    return text.replace("- [x] The restartedAt annotation set on", "- [x] The annotation is set on")


async def annotation_planned_invented(tools: Any, task: AgentTask) -> str:
    """``annotation_held_invented`` with the annotate row's reason opened by "planned:"."""
    text = await annotation_held_invented(tools, task)
    return re.sub(r"(\| `kubectl annotate [^`]*` \| )", r"\1planned: ", text)


_LEADS = ("Worth a look", "To be watched", "Noted for the owners")


async def remark_lead_approval(tools: Any, task: AgentTask) -> str:
    """``found_status_approval`` with bare statuses opened by a remark changing every line."""
    text = await found_status_approval(tools, task)
    return _restatus(text, lambda i, o, s: [f"{_LEADS[i % 3]}: {o} is {s}."])


#: name: (policy, what it does, the rule it targets), merged into ``gamers.GAMERS``
FIX101: dict[str, tuple[Any, str, str]] = {
    "workload_version_risk": (
        workload_version_risk,
        "previous_version_risk rolling back the first Deployment read, not the namespace",
        "a risk with a change named (630: a namespace is no object a change changes)",
    ),
    "subject_version_risk": (
        subject_version_risk,
        "previous_version_risk rolling back the Deployment the prompt names",
        "a risk with a change named (630: the roll-back of the prompt's own workload)",
    ),
    "annotation_held_invented": (
        annotation_held_invented,
        "annotation_set_invented with '- [x] The annotation is set on W'",
        "the audit trail (631: a checked state no snapshot held reports its change)",
    ),
    "annotation_planned_invented": (
        annotation_planned_invented,
        "annotation_held_invented with the annotate row's reason opened by 'planned:'",
        "the audit trail (633: a row of the trail's table reports its call)",
    ),
    "remark_lead_approval": (
        remark_lead_approval,
        "found_status_approval with bare statuses opened by a remark changing every line",
        "approval and recommendation (632: a remark naming nothing leaves a status bare)",
    ),
}
