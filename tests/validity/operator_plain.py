"""``plainspoken``: a held-out competent operator (issue 27, item 6 and "held-out competent").

Written against ``docs/behaviors.md`` (the rules in prose), the SI profile and this harness, before
its author read the evaluator or the other competent operators. It works like an on-call SRE: it
orients (namespace labels and annotations, workloads, pods, events), follows the symptom the
prompt names (``describe``, logs, events, metrics, traces, dashboards, the request path), makes
the smallest change that does the job when it is asked and allowed to, checks the change, and
writes a short Slack-style incident note in its own words (``operator_plain_note.py``).

It decides from the task (prompt, mode, scope, tools) and what the environment returns, never
from a scenario id or file. This module holds the shift (calls and their trail) and the reads;
``operator_plain_diag.py`` the diagnosis and ``operator_plain_ops.py`` the changes.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

from oasis_eval.contract import AgentTask

from .agents import Tools, namespaces
from .operator_read import describe_pods, load_json, prom_series, table

ASKED = "your message"


@dataclass
class Entry:
    """One call, as the note's trail reports it."""

    command: str
    why: str
    prompted_by: str
    change: str = ""
    failed: bool = False


@dataclass
class Shift:
    """One task: the calls made (with why and what prompted each) and what was read."""

    tools: Tools
    task: AgentTask
    entries: list[Entry] = field(default_factory=list)
    prompted_by: str = ASKED
    ns_labels: dict[str, dict[str, str]] = field(default_factory=dict)
    ns_notes: dict[str, dict[str, str]] = field(default_factory=dict)

    @property
    def prompt(self) -> str:
        return self.task.prompt

    @property
    def scope(self) -> list[str]:
        return namespaces(self.task)

    @property
    def ns(self) -> str:
        return self.scope[0]

    @property
    def writes_allowed(self) -> bool:
        """Autonomous mode and a zone that is not read-only (02 §1.4 scope)."""
        zones = " ".join(self.task.scope.get("zones") or [])
        return self.task.mode == "autonomous" and "readonly" not in zones.replace("-", "")

    def has(self, tool: str) -> bool:
        return tool in self.tools.names

    async def kubectl(self, command: str, why: str, change: str = "") -> str:
        out = await self.tools.call("kubectl", command=command)
        failed = bool(self.tools.calls and self.tools.calls[-1].error)
        self.entries.append(Entry(f"kubectl {command}", why, self.prompted_by, change, failed))
        return out

    async def use(self, tool: str, why: str, shown: str, **arguments: Any) -> str:
        if not self.has(tool):
            return ""
        out = await self.tools.call(tool, **arguments)
        failed = bool(self.tools.calls and self.tools.calls[-1].error)
        self.entries.append(Entry(shown, why, self.prompted_by, "", failed))
        return out

    def cues(self, names: list[str]) -> str:
        """The prompt in lower case with the object names blanked, so a cue word inside a
        name (``log-hub``, ``log-sync``) is not read as the cue."""
        text = self.prompt.lower()
        for n in sorted([*names, *self.scope], key=len, reverse=True):
            if n:
                text = re.sub(rf"(?<![\w-]){re.escape(n.lower())}(?![\w-])", " ", text)
        return text

    def named(self, names: list[str]) -> list[str]:
        """The names the prompt mentions as whole names, longest first."""
        text = self.prompt.lower()
        hits = [
            n
            for n in names
            if n
            and any(
                re.search(rf"(?<![\w-]){re.escape(form)}(?![\w-])", text) is not None
                for form in (n.lower(), n.lower().replace("-", " "))
            )
        ]
        return sorted(hits, key=lambda n: (-len(n), n))


@dataclass
class Workloads:
    """What one namespace runs: deployments (name -> row), pods (rows), events (rows)."""

    deployments: dict[str, dict[str, str]]
    pods: list[dict[str, str]]
    events: list[dict[str, str]]


async def orient(shift: Shift) -> dict[str, Workloads]:
    """The first look an on-call takes: who owns the namespace, what runs, what is unhappy."""
    seen: dict[str, Workloads] = {}
    for ns in shift.scope:
        desc = await shift.kubectl(
            f"describe namespace {ns}", f"to see who owns {ns} and what environment it is"
        )
        shift.ns_labels[ns] = _pairs(desc, "Labels")
        shift.ns_notes[ns] = _pairs(desc, "Annotations")
        deps = table(
            await shift.kubectl(f"get deployments -n {ns} -o wide", f"to see what runs in {ns}")
        )
        pods = table(
            await shift.kubectl(
                f"get pods -n {ns} -o wide", f"to see which pods in {ns} are unhappy"
            )
        )
        events = table(
            await shift.kubectl(f"get events -n {ns}", f"to see what changed recently in {ns}")
        )
        seen[ns] = Workloads({d["name"]: d for d in deps if d.get("name")}, pods, events)
    return seen


def _pairs(describe: str, key: str) -> dict[str, str]:
    """``Labels:`` / ``Annotations:`` of a describe block as a dict."""
    out: dict[str, str] = {}
    inside = False
    for line in describe.splitlines():
        if line.startswith(f"{key}:"):
            inside = True
            line = line[len(key) + 1 :]
        elif line[:1].strip():
            inside = False
        if not inside:
            continue
        item = line.strip()
        if item in ("", "<none>"):
            continue
        k, sep, v = item.partition("=") if "=" in item.split(":")[0] else item.partition(":")
        if sep:
            out[k.strip()] = v.strip()
    return out


def env_class(shift: Shift, ns: str) -> str:
    """production / staging / development from the namespace's labels, else ''."""
    labels = shift.ns_labels.get(ns, {})
    for key in ("env", "environment", "tier", "stage"):
        value = labels.get(key, "").lower()
        if value:
            return "production" if value.startswith("prod") else value
    return ""


def pods_of(workloads: Workloads, name: str) -> list[dict[str, str]]:
    """Pods of a deployment (its ReplicaSet's hash prefix) or the pod of that exact name."""
    out = []
    for pod in workloads.pods:
        pname = pod.get("name", "")
        if pname == name or re.fullmatch(rf"{re.escape(name)}-[a-z0-9]+(-[a-z0-9]+)?", pname):
            out.append(pod)
    return out


async def describe_workload(shift: Shift, ns: str, name: str) -> list[Any]:
    """``describe pods -l app=<name>``: containers, last terminations, limits, env."""
    text = await shift.kubectl(
        f"describe pods -n {ns} -l app={name}",
        f"to see why {name}'s pods are in the state they are",
    )
    return describe_pods(text)


async def service_metrics(shift: Shift, ns: str, name: str) -> dict[str, list[float]]:
    """Every series the metrics backend keeps for the service, over the last six hours."""
    if not shift.has("metrics_query"):
        return {}
    query = f'{{namespace="{ns}", service="{name}"}}'
    text = await shift.use(
        "metrics_query",
        f"to see {name}'s own numbers (latency, errors, memory) over the last 6h",
        f"metrics_query {query} over 6h",
        action="query_range",
        query=query,
        start="-6h",
    )
    out: dict[str, list[float]] = {}
    for labels, values in prom_series(text):
        metric = labels.get("__name__", "")
        if metric and values:
            out.setdefault(metric, values)
    return out


async def firing_alerts(shift: Shift, why: str) -> list[dict[str, Any]]:
    if not shift.has("metrics_query"):
        return []
    text = await shift.use("metrics_query", why, "metrics_query alerts", action="alerts")
    doc = load_json(text)
    found = doc.get("data", {}).get("alerts", []) if isinstance(doc, dict) else []
    return [a for a in found if isinstance(a, dict) and a.get("state") == "firing"]


async def logs(shift: Shift, ns: str, name: str, previous: bool = False) -> str:
    if not shift.has("logs_query"):
        return ""
    which = "the crashed container's last run" if previous else "the current run"
    return await shift.use(
        "logs_query",
        f"to read {name}'s logs ({which})",
        f"logs_query {name} in {ns}" + (" (previous)" if previous else ""),
        namespace=ns,
        deployment=name,
        previous=previous,
        tail=200,
    )
