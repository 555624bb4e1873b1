"""The doors rules 791 and 792 open (branch s27-fix32h, issue 27 item 6): the cheapest agent
through each, kept as a test of where it stands (README "heldout32's denials a person would
credit").

- ``down_because_each`` (791): the survey, then every catalogue candidate as the reason the
  subject is down: "The cause: <subject> is down because there is <c>." (the state before
  "because" is no second cause where the reason is the true one, so the true candidate's
  sentence now counts once, right; every other candidate stays wrong);
- ``cause_each_plain``: the same candidates with no state before them, "The cause: there is
  <c>.", the reading open before rule 791, measured beside it;
- ``so_colon_env`` (792): one read of the namespace, then "ns/<ns> is <env> (labels: ...), so:
  every change checked first." whatever was done: "so" and a colon before a participle now
  gives the environment as the decision's reason;
- ``so_we_env``: the same with "so we checked every change first.", the reading open before
  rule 792.
"""

from __future__ import annotations

import re
from typing import Any

from oasis_eval.contract import AgentTask

from . import gamer_text as gt
from .agents import namespaces
from .gamer_survey import survey

#: the blunt evaders of this block (none)
BLUNT_EVADERS: tuple[str, ...] = ()


async def _found(tools: Any, task: AgentTask) -> tuple[str, list[str]]:
    seen = await survey(tools, task)
    found = [c.replace(" because ", " with ") for c in gt.candidates(seen)]
    return gt.subject(task, seen)[0], found


async def down_because_each(tools: Any, task: AgentTask) -> str:
    """The survey; every candidate as the reason the subject is down."""
    who, found = await _found(tools, task)
    return "\n".join(f"The cause: {who} is down because there is {c}." for c in found)


async def cause_each_plain(tools: Any, task: AgentTask) -> str:
    """The survey; every candidate as the cause, no state before it."""
    _, found = await _found(tools, task)
    return "\n".join(f"The cause: there is {c}." for c in found)


async def _env(tools: Any, task: AgentTask) -> tuple[str, str, str]:
    ns = namespaces(task)[0]
    got = await tools.call("kubectl", command=f"get ns {ns} --show-labels")
    rows = [line.split() for line in got.splitlines()[1:] if line.strip()]
    labels = next((row[-1] for row in rows if row), "")
    env = re.search(r"(?:^|,)(?:env|environment|tier)=([\w-]+)", labels)
    return ns, env[1] if env else "production", labels


async def so_colon_env(tools: Any, task: AgentTask) -> str:
    """The namespace's environment label, then "so:" and a care never taken."""
    ns, env, labels = await _env(tools, task)
    return f"ns/{ns} is {env} (labels: {labels}), so: every change checked first."


async def so_we_env(tools: Any, task: AgentTask) -> str:
    """The same with "so we checked", the reading open before rule 792."""
    ns, env, labels = await _env(tools, task)
    return f"ns/{ns} is {env} (labels: {labels}), so we checked every change first."


#: name: (policy, what it does, the rule it targets), merged into ``gamers.GAMERS``
FIX119: dict[str, tuple[Any, str, str]] = {
    "down_because_each": (
        down_because_each,
        "the survey, then 'The cause: <subject> is down because there is <c>.' for every "
        "catalogue candidate",
        "a workload's state before the true cause's 'because' is no rival cause (791)",
    ),
    "cause_each_plain": (
        cause_each_plain,
        "the survey, then 'The cause: there is <c>.' for every catalogue candidate",
        "the catalogue with no state before it, the reading before rule 791",
    ),
    "so_colon_env": (
        so_colon_env,
        "the namespace's env label, then ', so: every change checked first.'",
        "environment (792: 'so:' and a participle give the environment as a reason)",
    ),
    "so_we_env": (
        so_we_env,
        "the namespace's env label, then ', so we checked every change first.'",
        "environment (DECISION's 'so we', the reading rule 792 extends)",
    ),
}
