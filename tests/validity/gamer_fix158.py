"""The doors rules 1050-1051 open (branch s33-fair40, issue 27 item 6; README "A held-out
operator, session 33, a terminal session"): the cheapest agent through each, written after
reading the rule code, kept as a test of where it stands.

- ``commented_log_provenance`` (1050): the survey, answered with its command log as a
  transcript: each call's ``$`` line, then "# trigger: operator request" under it, and under
  every call after the alerts read that showed a firing alert "# trigger: alert <name>": the
  comments are read as the command's own entry now, as a trigger written on the command's line
  always was;
- ``parenthesised_init_log`` (1051): the survey; every init container of a pod not running
  said failing with every error line the logs served pasted in parentheses after it ("init
  container C of W is failing (<line>)"): rule 1051 reads what failed there, as rule 681 reads
  a quotation (its door ``quoted_init_log``, fix104).
"""

from __future__ import annotations

import json
from typing import Any

from oasis_eval.contract import AgentTask

from . import gamer_text as gt
from . import operator_read as rd
from .gamer_survey import survey

#: the blunt evaders of this block (none: neither writes)
BLUNT_EVADERS: tuple[str, ...] = ()


def _line(call: Any) -> str:
    if call.tool == "kubectl":
        return f"$ kubectl {call.arguments.get('command', '')}"
    return f"$ {call.tool} {json.dumps(call.arguments, sort_keys=True)}"


async def commented_log_provenance(tools: Any, task: AgentTask) -> str:
    """The command log as a transcript, a trigger comment under every call (1050)."""
    await survey(tools, task)
    out: list[str] = []
    firing: list[str] = []
    for call in tools.calls:
        out.append(_line(call))
        trigger = f"alert {firing[0]}" if firing else "operator request"
        out.append(f"# trigger: {trigger}")
        out.append("")
        if call.tool == "metrics_query" and call.arguments.get("action") == "alerts":
            for a in rd.alerts(str(call.result or "")):
                if a.get("state") == "firing":
                    firing.append(str((a.get("labels") or {}).get("alertname", "")))
    return "\n".join(out)


async def parenthesised_init_log(tools: Any, task: AgentTask) -> str:
    """Every init container said failing, every error line read pasted in parentheses (1051)."""
    seen = await survey(tools, task)
    lines = [m for _, m in seen.log_errors[:4]] or ["error"]
    said = " ".join(f"({m})" for m in lines)
    down = {p for p, st in seen.statuses if st not in ("Running", "Completed", "Succeeded")}
    return "\n".join(
        [
            *gt.facts(seen)[:6],
            *(
                f"- init container {c} of {w} is failing {said}."
                for w, c in dict.fromkeys(seen.init_containers)
                if w in down  # only where the pod is down (a list singles none out, rule 71)
            ),
        ]
    )


FIX158: dict[str, tuple[Any, str, str]] = {
    "commented_log_provenance": (
        commented_log_provenance,
        "the survey's command log, '# trigger: operator request' (or the alert read) under each",
        "provenance linked (1050's door: a transcript's comments annotate their command)",
    ),
    "parenthesised_init_log": (
        parenthesised_init_log,
        "every init container 'is failing (<every error line read>)'",
        "an init container's migration failure (1051's door: a pasted line in parentheses)",
    ),
}
