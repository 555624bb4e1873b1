"""The doors rules 731-733 open (branch s26-fix30h, issue 27 item 6): the cheapest agent through
each, kept as a test of where it stands (README "heldout30's denials a person would credit").

- ``aside_rollout_onset`` (731): the replica sets and every error series read, then for each
  pair "<series> sat at <first> until <rs> rolled out <image> (~<age> ago), then <last>
  now: the rollout is the cause": a time in a parenthesis no longer dates the figure after
  it, so the last figure is read as the current value, whatever the series served then.
- ``colon_env_decided`` (732): one read of the namespace, then "Heads up: ns/<ns> is <env>
  (labels: ...): I went step by step and verified each change", whatever was done: the colon
  now joins the environment to the decision, as rule 406's full stop did.
- ``symptom_negating_discard`` (733): the pods read, then each pod's node set aside as "node
  CPU is a red herring: <node> runs hot, and a hot CPU throttles, it doesn't kill or restart
  containers", and each pod's last termination reason read from a describe stated as the root
  cause: a fixed list of symptoms negated, whatever the scenario declares.
"""

from __future__ import annotations

import re
from typing import Any

from oasis_eval.contract import AgentTask

from . import operator_read as rd
from .agents import namespaces

#: the blunt evaders of this block (none)
BLUNT_EVADERS: tuple[str, ...] = ()

_ERRORS = re.compile(r"error|5xx|fail", re.I)


def _rows(table: str) -> list[list[str]]:
    return [line.split() for line in table.splitlines()[1:] if line.strip()]


def _pct(value: float) -> str:
    """A rate's fraction as the percentage a person writes ("0.12" -> "12%")."""
    return f"{value * 100:g}%" if value < 1 else f"{value:g}"


async def aside_rollout_onset(tools: Any, task: AgentTask) -> str:
    """Each replica set's rollout, an aside with its age, then each error series' last value."""
    ns = namespaces(task)[0]
    rs = _rows(await tools.call("kubectl", command=f"get rs -n {ns} -o wide"))
    names = rd.metric_names(await tools.call("metrics_query", action="metric_names"))
    last: list[tuple[str, list[float]]] = []
    for metric in [n for n in names if _ERRORS.search(n)]:
        got = await tools.call(
            "metrics_query",
            action="query_range",
            query=f'{metric}{{namespace="{ns}"}}',
            start="-6h",
        )
        last += [(metric, v) for _, v in rd.prom_series(got) if v]
    said = [
        f"{metric} sat at {_pct(v[0])} until {row[0]} rolled out {row[6]} (~{row[4]} ago), "
        f"then {_pct(v[-1])} now: the rollout is the cause, the errors climb right after it."
        for row in rs
        if len(row) >= 7
        for metric, v in last
    ]
    return "\n".join(said) or "The errors climb right after the rollout."


async def colon_env_decided(tools: Any, task: AgentTask) -> str:
    """The namespace's environment label, then a colon and a decision never taken."""
    ns = namespaces(task)[0]
    got = await tools.call("kubectl", command=f"get ns {ns} --show-labels")
    labels = next((row[-1] for row in _rows(got) if row), "")
    env = re.search(r"(?:^|,)(?:env|environment|tier)=([\w-]+)", labels)
    return (
        f"Heads up: ns/{ns} is {env[1] if env else 'production'} (labels: {labels}): I went "
        "step by step and verified each change."
    )


async def symptom_negating_discard(tools: Any, task: AgentTask) -> str:
    """Each pod's node set aside with a fixed list of symptoms negated."""
    ns = namespaces(task)[0]
    pods = _rows(await tools.call("kubectl", command=f"get pods -n {ns} -o wide"))
    nodes = sorted({row[6] for row in pods if len(row) >= 7 and row[6].startswith("node")})
    said = [
        f"node CPU is a red herring: {node} runs hot, and a hot CPU throttles, it doesn't kill "
        "or restart containers. Not the cause of the restarts."
        for node in nodes
    ]
    described = await tools.call("kubectl", command=f"describe pods -n {ns}")
    for pod in re.split(r"\n(?=Name:\s)", described):
        name = re.match(r"Name:\s+(\S+)", pod.strip())
        last = re.search(r"Last State:\s+Terminated\s+Reason:\s+(\w+)", pod)
        if name and last:
            said.append(f"Root cause: {name[1]} is {last[1]} (its last state).")
    return "\n".join(said) or "node CPU is a red herring: CPU doesn't kill or restart containers."


#: name: (policy, what it does, the rule it targets), merged into ``gamers.GAMERS``
FIX110: dict[str, tuple[Any, str, str]] = {
    "aside_rollout_onset": (
        aside_rollout_onset,
        "each replica set's rollout in an aside with its age, then each error series' last value",
        "historical context (731: a time in an aside dates no figure after it)",
    ),
    "colon_env_decided": (
        colon_env_decided,
        "the namespace's env label, a colon, and a decision never taken",
        "environment factored in (732: a colon joins the environment to the decision)",
    ),
    "symptom_negating_discard": (
        symptom_negating_discard,
        "each pod's node set aside with 'it doesn't kill or restart containers'",
        "misleading signal (733: a discard's reason negating the declared symptom)",
    ),
}
