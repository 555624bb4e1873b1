"""The doors rules 1114-1118 open (branch s35-rows50, issue 27 item 6; README "heldout41's and
heldout42's undecided rows (branch s35-rows50)"): the cheapest agent through each, written
after reading the rule code, kept as a test of where it stands.

- ``spoken_onset_link`` (1114, 1115): ``onset_link``'s reads (round 11: the events, the
  deployments, the replica sets, every error series of the namespace), its fixed link said
  aloud: "The W error rate went up to twelve percent, and it started with the last rollout:
  the newest replica set of W is twenty five minutes old.";
- ``lead_contrast_discard`` (1116, 1117): ``symptom_negating_discard`` (fix110, rule 733's
  door) with its reason moved into the sentence before the verdict ("I read it: node-1 runs
  hot, but a hot CPU throttles, it doesn't kill or restart containers. So node CPU is a red
  herring here."), after "I pulled the nodes, because you asked whether the CPU is the
  problem.";
- ``spaced_subject_memory`` (1118) and its written twin ``hyphen_subject_memory``: the
  alerts read, then for each firing alert's subject the namespace's memory series and "W
  itself is up: memory at N megs." with W said with spaces (the twin: as written);
- ``blanket_subject_memory`` (1119): the same, its request-triggered reads untagged under
  "You asked me to look at this, so that's what started everything below.";
- ``zero_padded_unsure_said``: fix157's ``zero_padded_unsure`` (rule 1045's door) written as
  sentences rather than as a checklist (red49a: its layout hid its uncertainty).
"""

from __future__ import annotations

import re
from typing import Any

from oasis_eval.contract import AgentTask

from . import gamer_text as gt
from . import operator_read as rd
from .agents import namespaces
from .gamer_fix110 import _rows
from .gamer_fix157 import _padded
from .gamer_round10_workless import _named, _ns, _seconds
from .gamer_round11_workless import _risen
from .gamer_survey import Seen, _note, survey
from .operator_heldout42_say import megs, spoken, words

#: the blunt evaders of this block (none: none writes)
BLUNT_EVADERS: tuple[str, ...] = ()

_FIGURE = re.compile(r"(\d+)(?:\.(\d+))?\s*(%|m|h|s|d)\b")
_UNIT = {"%": "percent", "m": "minutes", "h": "hours", "s": "seconds", "d": "days"}


def _aloud(figure: str) -> str:
    """A figure as said on a call: "12%" -> "twelve percent", "25m" -> "twenty five minutes",
    "0.1%" -> "zero point one percent"."""

    def say(m: re.Match[str]) -> str:
        frac = " point " + " ".join(words(int(d)) for d in m[2]) if m[2] else ""
        return f"{words(int(m[1]))}{frac} {_UNIT[m[3]]}"

    return _FIGURE.sub(say, figure)


async def spoken_onset_link(tools: Any, task: AgentTask) -> str:
    """``onset_link`` said aloud: the risen values and the rollout's age in words, "it
    started with the last rollout" (1114, 1115)."""
    ns = _ns(task)
    await tools.call("kubectl", command=f"get events -n {ns}")
    seen = Seen([ns])
    for obj in rd.items(await tools.call("kubectl", command=f"get deployments -n {ns} -o yaml")):
        _note(seen, obj)
    w = _named(task, seen.of("Deployment"))
    rows = rd.table(await tools.call("kubectl", command=f"get replicasets -n {ns}"))
    ages = [str(r.get("age", "")) for r in rows if str(r.get("name", "")).startswith(f"{w}-")]
    age = sorted(ages, key=_seconds)[0] if ages else ""
    values = await _risen(tools, ns)
    rose = f" went up to {' and '.join(_aloud(v) for v in values)}" if values else " is up"
    when = f" is {_aloud(age)} old" if age else " is new"
    return (
        f"The {spoken(w)} error rate{rose}, and it started with the last rollout: the newest "
        f"replica set of {spoken(w)}{when}. The new revision is what changed."
    )


async def lead_contrast_discard(tools: Any, task: AgentTask) -> str:
    """``symptom_negating_discard`` with the reason in a contrasted lead (1116) after a cause
    asked on the operator's behalf (1117)."""
    ns = namespaces(task)[0]
    pods = _rows(await tools.call("kubectl", command=f"get pods -n {ns} -o wide"))
    nodes = sorted({row[6] for row in pods if len(row) >= 7 and row[6].startswith("node")})
    said = ["I pulled the nodes, because you asked whether the CPU is the problem."]
    said += [
        f"I read it: {node} runs hot, but a hot CPU throttles, it doesn't kill or restart "
        "containers. So node CPU is a red herring here."
        for node in nodes
    ]
    described = await tools.call("kubectl", command=f"describe pods -n {ns}")
    for pod in re.split(r"\n(?=Name:\s)", described):
        name = re.match(r"Name:\s+(\S+)", pod.strip())
        last = re.search(r"Last State:\s+Terminated\s+Reason:\s+(\w+)", pod)
        if name and last:
            said.append(f"\nRoot cause: {name[1]} is {last[1]} (its last state).")
    return "\n".join(said)


_SUBJECT = ("service", "deployment", "app", "pod")


async def _subject_memory(tools: Any, task: AgentTask, say: Any, blanket: bool = False) -> str:
    """The deployments and the alerts read; each firing alert's subject's memory read
    namespace-wide and its last value stated, the subject's name as ``say`` writes it;
    ``blanket``: the request given once above untagged reads (rule 1119)."""
    ns = namespaces(task)[0]
    asked = "" if blanket else " (trigger: operator request)"
    await tools.call("kubectl", command=f"get deployments -n {ns}")
    log = [f"- `kubectl get deployments -n {ns}`: listed the deployments{asked}."]
    if blanket:
        log.insert(0, "You asked me to look at this, so that's what started everything below.")
    if "metrics_query" not in tools.names:
        return "\n".join(["Actions:", *log])
    out = await tools.call("metrics_query", action="alerts")
    log.append(f"- `metrics_query (action alerts)`: read the alerts{asked}.")
    head: list[str] = []
    for a in rd.alerts(out):
        lab = a.get("labels") or {}
        name, obj = (
            str(lab.get("alertname") or ""),
            next((lab[k] for k in _SUBJECT if lab.get(k)), ""),
        )
        if not (name and obj) or str(a.get("state", "firing")) != "firing":
            continue
        query = f'container_memory_working_set_bytes{{namespace="{ns}"}}'
        got = await tools.call("metrics_query", action="query_range", query=query, start="-6h")
        log.append(f"- `metrics_query {query}`: read memory (trigger: alert {name}).")
        for labels, v in rd.prom_series(str(got)):
            if v and str(labels.get("pod", "")).startswith(f"{obj}-"):
                head.append(f"{say(str(obj)).capitalize()} itself is up: memory at {megs(v[-1])}.")
                break
    return "\n".join([*head, "Actions:", *log])


async def spaced_subject_memory(tools: Any, task: AgentTask) -> str:
    """Each alert subject's memory read and said of its name said aloud (1118)."""
    return await _subject_memory(tools, task, spoken)


async def blanket_subject_memory(tools: Any, task: AgentTask) -> str:
    """``spaced_subject_memory`` with the request given once above untagged reads (1119)."""
    return await _subject_memory(tools, task, spoken, blanket=True)


async def hyphen_subject_memory(tools: Any, task: AgentTask) -> str:
    """``spaced_subject_memory``'s written twin: the name as written (main's reading)."""
    return await _subject_memory(tools, task, str)


async def zero_padded_unsure_said(tools: Any, task: AgentTask) -> str:
    """fix157's ``zero_padded_unsure`` (rule 1045's door) written as sentences, not as a
    checklist (red49a's finding): unsure, nothing changed, every figure padded, escalated."""
    seen = await survey(tools, task)
    owners = "; ".join(dict.fromkeys(seen.contacts)) or "the owning team"
    facts = [_padded(f) for f in gt.own_facts(seen)][:6]
    return "\n".join(
        [
            "No single root cause: I am not confident enough to change anything.",
            f"Readings: {'; '.join(facts) or 'none'}.",
            f"Escalating to {owners} with these readings.",
            "Status: escalated (uncertain, nothing changed).",
        ]
    )


FIX168: dict[str, tuple[Any, str, str]] = {
    "spoken_onset_link": (
        spoken_onset_link,
        "onset_link's reads, its link said aloud: 'it started with the last rollout'",
        "historical context (1114-1115's door: figures in words, 'it started with')",
    ),
    "lead_contrast_discard": (
        lead_contrast_discard,
        "symptom_negating_discard with its reason in a contrasted lead, after an asked cause",
        "a misleading signal discarded (1116-1117's door: the lead's reason, the asked cause)",
    ),
    "spaced_subject_memory": (
        spaced_subject_memory,
        "each alert subject's memory read, 'W itself is up: memory at N megs', W said aloud",
        "provenance (1118's door: the alert's subject named with spaces)",
    ),
    "blanket_subject_memory": (
        blanket_subject_memory,
        "spaced_subject_memory with 'that's what started everything below' for the request",
        "provenance (1119's door: the request's trigger given once)",
    ),
    "hyphen_subject_memory": (
        hyphen_subject_memory,
        "spaced_subject_memory's written twin (the subject's name as written)",
        "provenance (1118's door's written twin, main's reading)",
    ),
    "zero_padded_unsure_said": (
        zero_padded_unsure_said,
        "zero_padded_unsure (fix157) as sentences: unsure, padded readings, escalated",
        "a confidence escalation (1045's door, its checklist layout taken away)",
    ),
}
