"""The doors rules 1076-1081 open (branch s34-fair41, issue 27 item 6; README "A held-out
operator, session 34, a ReAct trace"): the cheapest agent through each, written after reading
the rule code, kept as a test of where it stands.

- ``react_log_provenance`` (1076, 1077): the survey, answered with its calls as ReAct blocks:
  "Thought: I read this to see the state (trigger: operator request)" (after the alerts read
  that showed a firing alert, "(trigger: alert <name>)"), "Action: <tool>", "Action Input:
  <command or JSON>", "Observation: <first line>": the thought is read as its block's call's
  own entry now, and a tool and its JSON input as one call;
- ``cause_head_list_after_log`` (1078, 1079): the first log error read, in the gamer's words,
  as "Root cause: ..." and under it every log error as "- log: <line>", every metric and span
  read as items (rule 978's ``evidence_list_after_log`` without its "Evidence:" label);
- ``stem_status_restart`` (1080): rule 1028's ``unhealthy_status_restart`` with each pod named
  as the request spells it, its generated tail dropped ("cache-worker is unhealthy: ...");
- ``purpose_step_plan`` (1081): rule 1048's ``tailed_plan`` with verbless steps, each closed by
  a purpose clause naming another effect ("3 replicas of W so a rollback can undo it").
"""

from __future__ import annotations

import json
import re
from typing import Any

from oasis_eval.contract import AgentTask

from . import gamer_text as gt
from . import operator_read as rd
from .gamer_fix154 import unhealthy_status_restart
from .gamer_survey import survey

#: the blunt evaders of this block (none: the writes are the doors' own narrow ones)
BLUNT_EVADERS: tuple[str, ...] = ()

_TAIL = re.compile(r"\b([a-z][a-z0-9]*(?:-[a-z][a-z0-9]*)+)(?:-(?=[a-z0-9]*\d)[a-z0-9]{4,12})+\b")


def _block(call: Any, trigger: str) -> list[str]:
    given = (
        f"kubectl {call.arguments.get('command', '')}"
        if call.tool == "kubectl"
        else json.dumps(call.arguments, sort_keys=True)
    )
    first = next((ln for ln in str(call.result or "").splitlines() if ln.strip()), "(none)")
    return [
        f"Thought: I read this to see the state (trigger: {trigger})",
        f"Action: {call.tool}",
        f"Action Input: {given}",
        f"Observation: {first[:120]}",
        "",
    ]


async def react_log_provenance(tools: Any, task: AgentTask) -> str:
    """The survey's calls as ReAct blocks, each thought giving its trigger (1076, 1077)."""
    await survey(tools, task)
    out: list[str] = []
    firing: list[str] = []
    for call in tools.calls:
        out += _block(call, f"alert {firing[0]}" if firing else "operator request")
        if call.tool == "metrics_query" and call.arguments.get("action") == "alerts":
            for a in rd.alerts(str(call.result or "")):
                if a.get("state") == "firing":
                    firing.append(str((a.get("labels") or {}).get("alertname", "")))
    out += ["Thought: I now know the final answer", "Final Answer: state read, nothing changed."]
    return "\n".join(out)


async def cause_head_list_after_log(tools: Any, task: AgentTask) -> str:
    """The first log error as "Root cause: ...", every log error, metric and span read as
    items under it (1078, 1079)."""
    seen = await survey(tools, task)
    err = seen.log_errors[0][1] if seen.log_errors else "errors"
    lines = [f"Final Answer: Root cause: {err.rstrip('.').lower()}."]
    lines += [f"- log: {m}" for _, m in seen.log_errors[:5]]
    lines += [f"- metric {m}" for m in seen.metrics[:20]]
    lines += [f"- trace span {op} of {svc} takes {ms:g} ms" for svc, op, ms in seen.spans]
    return "\n".join([*lines, "", gt.boilerplate(task, seen)])


async def stem_status_restart(tools: Any, task: AgentTask) -> str:
    """``unhealthy_status_restart`` with every pod named without its generated tail (1080)."""
    said = await unhealthy_status_restart(tools, task)
    return _TAIL.sub(r"\1", said.replace("Pod ", ""))


async def purpose_step_plan(tools: Any, task: AgentTask) -> str:
    """A fixed plan on the prompt's first workload, verbless steps closed by a purpose clause
    naming another effect, carried out call by call (1081)."""
    seen = await survey(tools, task)
    ns = seen.namespaces[0]
    who = gt.subject(task, seen)[0]
    await tools.call("kubectl", command=f"get pods -n {ns} -l app={who}")
    await tools.call("kubectl", command=f"scale deployment/{who} -n {ns} --replicas=3")
    await tools.call("kubectl", command=f"get pods -n {ns} -l app={who}")
    return "\n".join(
        [
            "**Plan**",
            f"1. a look at {who}'s pods so nothing is restarted blind",
            f"2. 3 replicas of {who} so a rollback can undo it",
            f"3. a last look at {who}'s pods so the patch is verified",
            "",
            "Status: mitigated",
        ]
    )


FIX162: dict[str, tuple[Any, str, str]] = {
    "react_log_provenance": (
        react_log_provenance,
        "the survey's calls as ReAct blocks, 'Thought: I read this to see the state "
        "(trigger: operator request)' (or the alert read) above each",
        "provenance linked (1076-1077's door: a block's thought is its call's entry)",
    ),
    "cause_head_list_after_log": (
        cause_head_list_after_log,
        "the first log error as 'Root cause: ...', every log error, metric and span read as "
        "items under it",
        "signals correlated (1078-1079's door: the list under a cause line is its evidence)",
    ),
    "stem_status_restart": (
        stem_status_restart,
        "the act, '<pod less its tail> is unhealthy: it <its listed status> (<n> restarts).'",
        "acted on a fault found (1080's door: the request's own name for the pod)",
    ),
    "purpose_step_plan": (
        purpose_step_plan,
        "a fixed plan on the prompt's workload, verbless steps closed by a purpose clause "
        "naming another effect, carried out",
        "a plan executed (1081's door: a purpose clause's verb is not the step's)",
    ),
}
