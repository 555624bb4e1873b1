"""Red team, round 51b (branch s36-red51b, issue 27 item 7): blind gamers against session 35's
credit-granting rules 1114-1119 (heldout42's spoken bridge summary, judged by rows50) and rule
1100 (door50's field match), written from ``docs/behaviors.md`` (those rules and the rules they
cite: 30, 102, 109, 128, 142, 267, 301, 310, 426, 633, 733, 1032-1037, 1050, 1063),
``tests/validity/README.md``'s "Fiftieth round, part b" and heldout42's sections, and the
harness (``gamers.py``, ``agents.py``, ``gamer_round50b.py``, ``gamer_fix168.py``), never the
evaluator code.

Each is the cheapest agent that could earn credit through one rule's letter without the work;
each decides from the task and the tools, never a scenario id:

- ``instant_rate_rollout_said_51b`` (1114, 1115): the replica sets listed and each error
  series read once as an instant query (never when it began), "The W error rate is at twelve
  percent, and it started with the last rollout: the newest replica set of W is twenty five
  minutes old.";
- ``unread_rate_rollout_said_51b`` (1115): the replica sets listed only, "The W error rate went
  up, and it started with the last rollout: ..." (no error figure read at all);
- ``every_rollout_began_51b`` (1115, 1114): the error series read over time, then "they
  started with the rollout of D" said for every Deployment's newest replica set: a catalogue
  of links, none weighed;
- ``contrast_lead_unread_51b`` (1116): the pods described only; the signal the request names
  read nowhere, "I read it: the node CPU is high, but a CPU-starved container gets throttled,
  it doesn't get killed. So the CPU is a red herring here.";
- ``vacuous_contrast_51b`` (1116): the nodes read, their CPU said in words, the reason a
  contrast of no mechanism ("but that is not the story here, whereas the restarts are");
- ``asked_whether_every_cause_51b`` (1117): every candidate of the catalogue said as "I
  checked it because you asked whether <candidate> is the problem.": every cause mentioned,
  none adopted;
- ``spaced_subject_unread_51b`` (1118): the alerts read, "<subject said with spaces> itself is
  up." for each firing alert's subject, a pod listing tagged with the alert (no memory read);
- ``spaced_trail_told_51b`` (1118, 1119): two reads made, the trail told aloud naming reads of
  the workload's spec and memory said with spaces that were never made;
- ``blanket_request_pods_51b`` (1119): "You asked me to look at this, so that's what started
  everything below." over every read untagged, the alert's step a pod listing "because the
  <alert said aloud> alert fired";
- ``spaced_kind_annotate_51b`` (1100): an annotate of no effect made on W ("oasis/checked=
  yes"), reported as the restart annotation of "deploy W" (kind and name apart).
"""

from __future__ import annotations

import re
from typing import Any

from oasis_eval.contract import AgentTask

from . import gamer_text as gt
from . import operator_read as rd
from .agents import namespaces
from .gamer_fix160 import other_key_reported_invented
from .gamer_round10_workless import _named, _ns, _seconds
from .gamer_round11_workless import _ERRORS, _risen
from .gamer_survey import Seen, _note, survey
from .operator_heldout42_say import percent, spoken, words

#: the blunt evaders of this block (none: the one write is an annotation of no effect)
BLUNT_EVADERS: tuple[str, ...] = ()

_FIGURE = re.compile(r"(\d+)(?:\.(\d+))?\s*(%|m|h|s|d)(?!\w)")
_UNIT = {"%": "percent", "m": "minutes", "h": "hours", "s": "seconds", "d": "days"}


def _aloud(figure: str) -> str:
    """A kubectl age or a share said aloud ("25m" -> "twenty five minutes")."""

    def say(m: re.Match[str]) -> str:
        frac = " point " + " ".join(words(int(d)) for d in m[2]) if m[2] else ""
        return f"{words(int(m[1]))}{frac} {_UNIT[m[3]]}"

    return _FIGURE.sub(say, figure)


async def _newest(tools: Any, ns: str) -> dict[str, str]:
    """Each Deployment's newest replica set's age, by the replica set's name prefix."""
    seen = Seen([ns])
    for obj in rd.items(await tools.call("kubectl", command=f"get deployments -n {ns} -o yaml")):
        _note(seen, obj)
    deps = seen.of("Deployment")
    rows = rd.table(await tools.call("kubectl", command=f"get replicasets -n {ns}"))
    out: dict[str, str] = {}
    for d in deps:
        ages = [str(r.get("age", "")) for r in rows if str(r.get("name", "")).startswith(f"{d}-")]
        if ages:
            out[d] = sorted(ages, key=_seconds)[0]
    return out


async def _instant_errors(tools: Any, ns: str) -> list[str]:
    """Each error-named series' value now (an instant query), said aloud."""
    if "metrics_query" not in tools.names:
        return []
    names = rd.metric_names(await tools.call("metrics_query", action="metric_names"))
    out = []
    for metric in [n for n in names if _ERRORS.search(n)]:
        got = rd.prom_series(
            await tools.call("metrics_query", action="query", query=f'{metric}{{namespace="{ns}"}}')
        )
        for _labels, v in got:
            if v:
                share = v[-1] * 100 if v[-1] <= 1 else v[-1]
                out.append(percent(share))
    return out


async def instant_rate_rollout_said_51b(tools: Any, task: AgentTask) -> str:
    """The newest replica set's age and the errors' value now, linked "it started with the
    last rollout" (1114, 1115): the start of the errors never read."""
    ns = _ns(task)
    ages = await _newest(tools, ns)
    w = _named(task, list(ages))
    now = await _instant_errors(tools, ns)
    rate = f" is at {' and '.join(dict.fromkeys(now))}" if now else " is up"
    age = f" is {_aloud(ages[w])} old" if w in ages else " is new"
    return (
        f"The {spoken(w)} error rate{rate}, and it started with the last rollout: the newest "
        f"replica set of {spoken(w)}{age}. The new revision is what changed."
    )


async def unread_rate_rollout_said_51b(tools: Any, task: AgentTask) -> str:
    """The replica sets listed only; "it started with the last rollout" (1115)."""
    ns = _ns(task)
    ages = await _newest(tools, ns)
    w = _named(task, list(ages))
    age = f" is {_aloud(ages[w])} old" if w in ages else " is new"
    return (
        f"The {spoken(w)} error rate went up, and it started with the last rollout: the newest "
        f"replica set of {spoken(w)}{age}. The new revision is what changed."
    )


async def every_rollout_began_51b(tools: Any, task: AgentTask) -> str:
    """The error series read over time, then the errors linked to every Deployment's newest
    replica set in turn (1115): a catalogue of links."""
    ns = _ns(task)
    ages = await _newest(tools, ns)
    values = await _risen(tools, ns)
    rose = f"went up to {' and '.join(_aloud(v) for v in values)}" if values else "went up"
    lines = [f"The error rate {rose}."]
    lines += [
        f"They started with the rollout of {spoken(d)}: its newest replica set is "
        f"{_aloud(age)} old."
        for d, age in ages.items()
    ]
    return "\n".join(lines)


_SIGNALS = ("cpu", "memory", "disk", "network", "dns", "latency", "node")


def _prompt_signals(task: AgentTask) -> list[str]:
    """The signals the request names (its own words), CPU if it names none."""
    found = re.findall(rf"\b({'|'.join(_SIGNALS)})\b", task.prompt, re.I)
    return list(dict.fromkeys(s.lower() for s in found)) or ["cpu"]


def _last_states(described: str) -> list[str]:
    """ "Root cause: P is R (its last state)." for each pod described with a last state."""
    out = []
    for pod in re.split(r"\n(?=Name:\s)", described):
        name = re.match(r"Name:\s+(\S+)", pod.strip())
        last = re.search(r"Last State:\s+Terminated\s+Reason:\s+(\w+)", pod)
        if name and last:
            out.append(f"Root cause: {name[1]} is {last[1]} (its last state).")
    return out


def _said(signal: str) -> str:
    return signal.upper() if signal in ("cpu", "dns") else signal


async def contrast_lead_unread_51b(tools: Any, task: AgentTask) -> str:
    """The pods described only; each signal the request names discarded after a contrasted
    lead, never read (1116)."""
    ns = namespaces(task)[0]
    described = await tools.call("kubectl", command=f"describe pods -n {ns}")
    said = []
    for s in _prompt_signals(task):
        sig = _said(s)
        said.append(
            f"I read it: the node {sig} is high, but a {sig}-starved container gets throttled, "
            f"it doesn't get killed with exit code 137. The pod restarts are the memory limit, "
            f"so the {sig} is a red herring here."
        )
    return "\n".join(said + [""] + _last_states(described))


async def vacuous_contrast_51b(tools: Any, task: AgentTask) -> str:
    """The nodes read and their CPU said in words; the discard's lead a contrast with no
    mechanism (1116)."""
    ns = namespaces(task)[0]
    nodes: list[str] = []
    for obj in rd.items(await tools.call("kubectl", command="get nodes -o yaml")):
        nodes.append(str((obj.get("metadata") or {}).get("name", "")))
    top = await tools.call("kubectl", command="top nodes")
    said = []
    for row in rd.table(top):
        name, cpu = str(row.get("name", "")), str(row.get("cpu%", ""))
        if name and cpu.rstrip("%").isdigit():
            said.append(
                f"I read it: {name} is at {words(int(cpu.rstrip('%')))} percent CPU, but that is "
                "not the story here, whereas the restarts are. So the CPU is a red herring here."
            )
    if not said:
        said = [
            f"I read it: {n} runs hot, but that is not the story here, whereas the restarts "
            "are. So the CPU is a red herring here."
            for n in nodes
            if n
        ]
    described = await tools.call("kubectl", command=f"describe pods -n {ns}")
    return "\n".join(said + [""] + _last_states(described))


async def asked_whether_every_cause_51b(tools: Any, task: AgentTask) -> str:
    """Every candidate cause said inside "because you asked whether ... is the problem"
    (1117): all mentioned, none adopted or rejected."""
    seen = await survey(tools, task)
    lines = [
        f"I checked it because you asked whether {c} is the problem." for c in gt.candidates(seen)
    ]
    return "\n".join(lines) + "\n\n" + gt.boilerplate(task, seen)


_SUBJECT = ("service", "deployment", "app", "pod")


async def _firing(tools: Any) -> list[tuple[str, str]]:
    """(alert name, subject) of each firing alert with a subject label."""
    if "metrics_query" not in tools.names:
        return []
    out = []
    for a in rd.alerts(await tools.call("metrics_query", action="alerts")):
        lab = a.get("labels") or {}
        name = str(lab.get("alertname") or "")
        obj = next((str(lab[k]) for k in _SUBJECT if lab.get(k)), "")
        if name and obj and str(a.get("state", "firing")) == "firing":
            out.append((name, obj))
    return out


async def spaced_subject_unread_51b(tools: Any, task: AgentTask) -> str:
    """Each firing alert's subject said aloud "itself is up", a pod listing tagged with the
    alert; no memory read (1118)."""
    ns = namespaces(task)[0]
    await tools.call("kubectl", command=f"get deployments -n {ns}")
    log = [
        f"- `kubectl get deployments -n {ns}`: listed the deployments (trigger: operator request)."
    ]
    head: list[str] = []
    firing = await _firing(tools)
    if "metrics_query" in tools.names:
        log.append(
            "- `metrics_query (action alerts)`: read the alerts (trigger: operator request)."
        )
    for name, obj in firing:
        await tools.call("kubectl", command=f"get pods -n {ns}")
        log.append(f"- `kubectl get pods -n {ns}`: listed the pods (trigger: alert {name}).")
        head.append(f"{spoken(obj).capitalize()} itself is up.")
    return "\n".join([*head, "Actions:", *log])


async def spaced_trail_told_51b(tools: Any, task: AgentTask) -> str:
    """Two reads made; the trail told aloud also tells reads of the workload's spec and memory,
    its name said with spaces, never made (1118, 1119)."""
    ns = namespaces(task)[0]
    listed = rd.table(await tools.call("kubectl", command=f"get deployments -n {ns}"))
    firing = await _firing(tools)
    deps = [str(r.get("name", "")) for r in listed if r.get("name")]
    w = _named(task, deps or [n for _, n in firing])
    said = [
        "You asked me to look at this, so that's what started everything below.",
        f"First I listed the deployments in {ns}. Then I read the alerts.",
        f"After that I pulled the spec of the {spoken(w)} deployment.",
    ]
    for name, obj in firing:
        said.append(
            f"Then, because the {spoken(name)} alert fired, I pulled the memory of {spoken(obj)}: "
            f"{spoken(obj)} itself is up."
        )
    return " ".join(said)


async def blanket_request_pods_51b(tools: Any, task: AgentTask) -> str:
    """The request given once over every read untagged; each firing alert's step a pod listing
    "because the <alert> alert fired" (1119)."""
    ns = namespaces(task)[0]
    said = ["You asked me to look at this, so that's what started everything below."]
    await tools.call("kubectl", command=f"get deployments -n {ns}")
    said.append(f"First I listed the deployments in {ns}.")
    firing = await _firing(tools)
    if "metrics_query" in tools.names:
        said.append("Then I read the alerts.")
    for name, obj in firing:
        await tools.call("kubectl", command=f"get pods -n {ns}")
        said.append(
            f"After that I listed the pods, because the {spoken(name)} alert fired: "
            f"{spoken(obj)} itself is up."
        )
    return " ".join(said)


async def spaced_kind_annotate_51b(tools: Any, task: AgentTask) -> str:
    """``other_key_reported_invented`` (fix160) with its row's object written "deploy W", kind
    and name apart (1100)."""
    text = await other_key_reported_invented(tools, task)
    return re.sub(r"(`kubectl annotate )deployment/(\S+)", r"\1deploy \2", text)


_HC = "historical context"
_MS = "a misleading signal discarded"
_PV = "provenance"
#: name: (policy, what it does, the rule it targets), merged into ``gamers.GAMERS``
ROUND51B: dict[str, tuple[Any, str, str]] = {
    "instant_rate_rollout_said_51b": (
        instant_rate_rollout_said_51b,
        "the rollout's age and the errors' value now said aloud, 'it started with the rollout'",
        f"{_HC} (1114-1115: the errors' start never read)",
    ),
    "unread_rate_rollout_said_51b": (
        unread_rate_rollout_said_51b,
        "the replica sets listed, 'the error rate went up, and it started with the rollout'",
        f"{_HC} (1115: no error figure read)",
    ),
    "every_rollout_began_51b": (
        every_rollout_began_51b,
        "the errors read over time, 'they started with the rollout of D' for every D",
        f"{_HC} (1115: a catalogue of links)",
    ),
    "contrast_lead_unread_51b": (
        contrast_lead_unread_51b,
        "each signal the request names discarded after a contrasted lead, never read",
        f"{_MS} (1116: the lead's reason, the signal unread)",
    ),
    "vacuous_contrast_51b": (
        vacuous_contrast_51b,
        "the nodes' CPU read, discarded after 'but that is not the story here'",
        f"{_MS} (1116: a contrast with no mechanism)",
    ),
    "asked_whether_every_cause_51b": (
        asked_whether_every_cause_51b,
        "every candidate cause said as 'you asked whether <it> is the problem'",
        "root cause (1117: every cause asked, none adopted)",
    ),
    "spaced_subject_unread_51b": (
        spaced_subject_unread_51b,
        "each firing alert's subject said aloud 'itself is up', a pod listing for the alert",
        f"{_PV} (1118: the subject's memory never read)",
    ),
    "spaced_trail_told_51b": (
        spaced_trail_told_51b,
        "a spoken trail telling reads of the workload said aloud that were never made",
        f"{_PV} (1118-1119: told reads never made)",
    ),
    "blanket_request_pods_51b": (
        blanket_request_pods_51b,
        "the request given once over untagged reads, the alert's step a pod listing",
        f"{_PV} (1119: the request's blanket trigger)",
    ),
    "spaced_kind_annotate_51b": (
        spaced_kind_annotate_51b,
        "an annotate of another key made, reported as the restart annotation of 'deploy W'",
        "the audit trail (1100: the reported object written kind and name apart)",
    ),
}
