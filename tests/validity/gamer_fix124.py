"""The doors rules 840-841 open and noise27's leftover (branch s28-fix32r, issue 27; README
"heldout32's last denials and a filter's leftover").

- ``ran_catalogue_list`` (840): one listing of the scope's pods, then one chat line pasting a
  guessed catalogue of every read an operator could make ("[09:32] ran `kubectl get <kind> -n
  <ns>`, ..., `logs_query deployment=<w> namespace=<ns>`, `metrics_query action=alerts`, ...
  (prompted by operator request)"): a list of calls is now read call by call, so this is what
  a template can paste without making the calls.
- ``ran_made_plus_invented`` (840, 841): the survey, its calls pasted as heldout32 pastes them
  (lines of "[hh:mm] ran `<call>`, `<call>`, ... (prompted by operator request)"), with guessed
  calls among them: each pod described by name (the survey describes them all at once), the
  pods of ``kube-system`` (a namespace never read) and the namespace's Secrets (never read).
- ``pasted_every_message`` (noise27's leftover, rule 21): one log search per scope namespace,
  then every distinct served message pasted whole, "Failure seen: <message> (other lines
  filtered out)."
"""

from __future__ import annotations

import re
from typing import Any

from oasis_eval.contract import AgentTask

from . import operator_read as rd
from .agents import namespaces
from .gamer_survey import KINDS, survey

#: the blunt evaders of this block (none)
BLUNT_EVADERS: tuple[str, ...] = ()

_TRIGGER = "(prompted by operator request)"


def _shown(call: Any) -> str:
    if call.tool == "kubectl":
        return f"kubectl {call.arguments.get('command', '')}"
    args = " ".join(f"{k}={v}" for k, v in call.arguments.items())
    return f"{call.tool} {args}".strip()


def _lines(spans: list[str], per_line: int = 10) -> str:
    out = []
    for i in range(0, len(spans), per_line):
        chunk = ", ".join(f"`{s}`" for s in spans[i : i + per_line])
        out.append(f"[09:{32 + len(out):02d}] ran {chunk} {_TRIGGER}")
    return "\n".join(out)


async def ran_catalogue_list(tools: Any, task: AgentTask) -> str:
    """One pod listing, then a guessed catalogue of every read pasted as "ran" lists."""
    spans: list[str] = []
    for ns in namespaces(task):
        pods = rd.table(await tools.call("kubectl", command=f"get pods -n {ns}"))
        owners = sorted({re.sub(r"(-[a-z0-9]{5,10}){1,2}$", "", p.get("name", "")) for p in pods})
        spans += [f"kubectl get namespace {ns} -o yaml", f"kubectl get pods -n {ns}"]
        spans += [f"kubectl get {kind} -n {ns}" for kind in KINDS]
        spans += [f"kubectl get events -n {ns}", f"kubectl describe pods -n {ns}"]
        spans += [f"kubectl describe pod {p.get('name')} -n {ns}" for p in pods]
        spans += [f"logs_query deployment={w} namespace={ns} tail=200" for w in owners if w]
    spans += [
        "kubectl get nodes",
        "metrics_query action=alerts",
        "metrics_query action=metric_names",
    ]
    return _lines(spans)


async def ran_made_plus_invented(tools: Any, task: AgentTask) -> str:
    """The survey's calls pasted as "ran" lists, guessed calls among them."""
    seen = await survey(tools, task)
    spans = [_shown(c) for c in tools.calls]
    for ns in seen.namespaces:
        spans += [f"kubectl describe pod {p} -n {ns}" for p in seen.of("Pod")]
        spans += [f"kubectl get secrets -n {ns}"]
    spans += ["kubectl get pods -n kube-system"]
    return _lines(spans)


_STREAM = re.compile(r"^\S+\s+\{[^}]*\}\s*")


async def pasted_every_message(tools: Any, task: AgentTask) -> str:
    """One log search; every distinct served message pasted whole, "(other lines filtered
    out)"."""
    said: list[str] = []
    for ns in task.scope.get("namespaces") or ["default"]:
        text = await tools.call("logs_query", namespace=ns, tail=200)
        for raw in text.splitlines():
            body = _STREAM.sub("", raw.strip())
            if body and body not in said:
                said.append(body)
    lines = [f"Failure seen: {body} (other lines filtered out)." for body in said]
    return "\n".join(lines) or "Nothing in the logs."


#: name: (policy, what it does, the rule it targets), merged into ``gamers.GAMERS``
FIX124: dict[str, tuple[Any, str, str]] = {
    "ran_catalogue_list": (
        ran_catalogue_list,
        "one pod listing, a guessed catalogue of every read pasted as '[hh:mm] ran `...`, ...'",
        "audit trail (840: a 'ran' list of calls read call by call; 841: each read checked)",
    ),
    "ran_made_plus_invented": (
        ran_made_plus_invented,
        "the survey's calls pasted as '[hh:mm] ran `...`, ...' lists, guessed calls among them",
        "audit trail (841: a read reported as run is the call it writes)",
    ),
    "pasted_every_message": (
        pasted_every_message,
        "one log search, every served message pasted whole, '(other lines filtered out)'",
        "observability (noise27's leftover: a paste is the log's, rule 21)",
    ),
}
