"""heldout38's reads: what the request names (namespace, workload, pod, config map, key),
the workload's pods, events, logs and series. Generic: names come from the cluster's own
listings matched against the request's words, never from a scenario."""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from . import operator_read as rd
from .operator_heldout38_calls import Session


def words_of(prompt: str) -> set[str]:
    return set(re.findall(r"[a-z0-9][a-z0-9._-]*[a-z0-9]", prompt.lower()))


def named_in(prompt: str, names: list[str]) -> list[str]:
    """Names the request spells, longest first (``api-service-canary`` before ``api-service``)."""
    text = prompt.lower()
    hits = [
        n
        for n in names
        if any(
            re.search(rf"(?<![\w-]){re.escape(form)}(?![\w-])", text)
            for form in (n.lower(), n.lower().replace("-", " "))
        )
    ]
    return sorted(hits, key=len, reverse=True)


@dataclass
class Workload:
    ns: str
    name: str
    kind: str = "deployment"
    pods: list[dict[str, str]] = field(default_factory=list)
    views: list[rd.PodView] = field(default_factory=list)
    describe: str = ""
    events: list[str] = field(default_factory=list)
    logs: str = ""
    previous: str = ""

    @property
    def ref(self) -> str:
        return f"{self.kind}/{self.name}"


async def deployments(s: Session, ns: str) -> list[str]:
    out = await s.k(f"get deployments -n {ns}", f"list the workloads in namespace {ns}")
    return [r.get("name", "") for r in rd.table(out) if r.get("name")]


async def pods_of(s: Session, w: Workload) -> None:
    """The workload's pods (by its app label, else by name prefix) and their describe."""
    out = await s.k(
        f"get pods -n {w.ns} -l app={w.name} -o wide",
        f"see the state and restarts of the {w.name} pods",
    )
    rows = rd.table(out)
    if not rows:
        out = await s.k(f"get pods -n {w.ns} -o wide", f"find the pods of {w.name} by name")
        rows = [r for r in rd.table(out) if r.get("name", "").startswith(w.name)]
    w.pods = rows
    if w.kind == "pod" or not rows:
        target = f"pod {w.name}" if w.kind == "pod" else f"pods -l app={w.name}"
    else:
        target = f"pods -l app={w.name}"
    w.describe = await s.k(
        f"describe {target} -n {w.ns}",
        f"read container states, last termination, limits and events of {w.name}",
    )
    w.views = rd.describe_pods(w.describe)
    for v in w.views:
        w.events += v.events


async def events_of(s: Session, w: Workload) -> list[str]:
    out = await s.k(
        f"get events -n {w.ns} --sort-by=.lastTimestamp",
        f"check recent events for {w.name} (rollouts, back-offs, failures)",
    )
    mine = [ln for ln in out.splitlines() if re.search(rf"/{re.escape(w.name)}(\b|-)", ln)]
    w.events += mine
    return mine


async def logs_of(s: Session, w: Workload) -> None:
    sel = {"pod": w.name} if w.kind == "pod" else {"deployment": w.name}
    w.logs = await s.q(
        "logs_query", f"read the recent log lines of {w.name}", namespace=w.ns, tail=200, **sel
    )
    restarted = any(c.restarts for v in w.views for c in v.containers) or any(
        "CrashLoop" in p.get("status", "") or "Error" in p.get("status", "") for p in w.pods
    )
    if restarted:
        w.previous = await s.q(
            "logs_query",
            f"read the logs of the crashed {w.name} containers (previous)",
            namespace=w.ns,
            previous=True,
            tail=200,
            **sel,
        )


def signals(text: str) -> list[tuple[str, str, int]]:
    return rd.signal_patterns(rd.log_lines(text))


def log_time(text: str, needle: str) -> str:
    """The first timestamp of a log line holding ``needle``."""
    for line in text.splitlines():
        if needle in line:
            m = re.match(r"(\d{4}-\d\d-\d\dT(\d\d:\d\d)(:\d\d)?Z?)", line)
            if m:
                return m.group(2)
    return ""


def now_of(text: str) -> str:
    """The latest log timestamp read (HH:MM), the response's 'now' for the timeline."""
    stamps = re.findall(r"\d{4}-\d\d-\d\dT(\d\d:\d\d):\d\dZ", text)
    return max(stamps) if stamps else ""


async def ns_labels(s: Session, ns: str) -> tuple[dict[str, str], dict[str, str]]:
    """The namespace's labels and annotations."""
    doc = rd.load_yaml(
        await s.k(
            f"get namespace {ns} -o yaml",
            f"read the labels and annotations of namespace {ns} "
            "(environment, owning team, contacts)",
        )
    )
    meta = doc.get("metadata", {}) if isinstance(doc, dict) else {}
    return dict(meta.get("labels") or {}), dict(meta.get("annotations") or {})


def prod_words(labels: dict[str, str], ns: str, zones: list[str]) -> str:
    """Why this is production, from labels, zones or the namespace name ('' if it is not)."""
    for k, v in sorted(labels.items()):
        if k.split("/")[-1] in ("env", "environment", "tier", "stage") and "prod" in v.lower():
            return f"namespace {ns} carries the label {k}={v}"
    for z in zones:
        if z.lower().startswith("prod"):
            return f"the scope's zone is {z}"
    return f"the namespace is named {ns}" if "prod" in ns.lower() else ""


async def series(
    s: Session, expr: str, why: str, start: str = "-6h"
) -> list[tuple[dict[str, str], list[float]]]:
    out = await s.q("metrics_query", why, action="query_range", query=expr, start=start, step="30m")
    return rd.prom_series(out)
