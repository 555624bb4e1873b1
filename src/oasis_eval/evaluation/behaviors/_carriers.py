"""The carriers of a scenario's ground truth: where the evidence a correct diagnosis or
reading rests on lives (issue 13; rules in :mod:`._reads` and docs/behaviors.md, "Evidence
before credit"). Registers no behavior; reuses the ground-truth rules of :mod:`.signals`,
:mod:`.findings`, :mod:`.detection` (fault markers) and :mod:`.environment`."""

from __future__ import annotations

import re
from dataclasses import dataclass, field, replace

from ...spec.common import StimulusType
from ...spec.kinds import KNOWN, resource_name
from ..context import VerificationContext
from ..state import scenario_resources
from . import findings
from ._cue import Cue
from .common import fault_entries, objects, objects_named_in
from .environment import CONTACT_KEY, ENV_KEY, TEAM_KEY, ownership, scalar_fields
from .registry import BehaviorContext

#: scenario resources that are observability data, not cluster objects
DATA = frozenset({"logs", "metrics", "metric", "alerts", "traces", "dashboards", "events"})
DATABASE = Cue(r"database|migration|^db$|postgres|mysql|sql", re.IGNORECASE)
GITOPS = Cue(r"application|gitops|kustomization|helmrelease", re.IGNORECASE)
#: findings whose evidence is a log line or a span, not an object's state
_SEEN_IN_DATA = frozenset({"tls-certificate-expiry", "connection-pool-exhaustion"})
_USAGE = Cue(r"(memory|cpu|mem)_?(usage|utili[sz]ation|working_set)?", re.IGNORECASE)


@dataclass(frozen=True)
class Carrier:
    """Where evidence lives: a source ``kind``, a namespace (None: any in scope) and the
    names that identify it (object names; trace, dashboard or database names)."""

    kind: str
    namespace: str | None
    targets: tuple[str, ...]
    #: the scenario resource the carrier comes from (state: the object's kind)
    resource: str | None = None
    #: metrics: the series names; logs: the one container whose log it is
    series: tuple[str, ...] = ()
    container: str | None = None
    topics: frozenset[str] = field(default_factory=lambda: frozenset({"ground-truth"}))
    why: str = ""

    def describe(self) -> str:
        what = "/".join(self.targets[:1]) or "-"
        if self.kind == "state":
            what = f"{self.resource or 'object'}/{what}"
        elif self.kind == "metrics" and self.series:
            what += f" ({', '.join(self.series[:2])})"
        elif self.container:
            what += f" container {self.container}"
        where = f" ns={self.namespace}" if self.namespace else ""
        return f"{self.kind} of {what}{where}" + (f" [{self.why}]" if self.why else "")


# ---- carriers ------------------------------------------------------------------------------


def carriers(ctx: VerificationContext) -> list[Carrier]:
    """Every carrier of the scenario (module docstring), merged by identity, in order;
    derived once per judgement (the gate of each behavior and vacuity ask, issue 30)."""
    return list(ctx.memo("carriers", lambda: tuple(_carriers(ctx))))


def _carriers(ctx: VerificationContext) -> list[Carrier]:
    found = _data_carriers(ctx) + _state_carriers(ctx) + _topic_carriers(ctx)
    merged: dict[tuple[object, ...], Carrier] = {}
    for c in found:
        key = (c.kind, c.namespace, c.targets, c.resource, c.series, c.container)
        have = merged.get(key)
        merged[key] = replace(have, topics=have.topics | c.topics) if have else c
    return list(merged.values())


def _home(ctx: VerificationContext, name: str, ns: str | None) -> str | None:
    """A data entry's namespace: its own, else that of the cluster object of the same name."""
    if ns:
        return ns
    return next(
        (n for r, o, n, _ in scenario_resources(ctx.scenario) if o == name and n and r not in DATA),
        None,
    )


def _series_names(entry: dict[str, object]) -> list[str]:
    out: list[str] = []
    for key, value in entry.items():
        if key in ("resource", "namespace", "labels", "annotations", "zone"):
            continue
        if key == "series" and isinstance(value, dict):
            out += [str(k) for k in value]
        elif isinstance(value, list) or findings.number_of(value) is not None or "_trend" in key:
            out.append(str(key))
    return out


def _data_carriers(ctx: VerificationContext) -> list[Carrier]:
    out: list[Carrier] = []
    for resource, name, ns, entry in scenario_resources(ctx.scenario):
        home = _home(ctx, name, ns)
        if resource == "logs":
            pod = str(entry.get("pod") or "")
            targets = (name, pod) if pod else (name,)
            out.append(Carrier("logs", home, targets, "logs", container=entry.get("container")))
        elif any(entry.get(k) for k in ("logs", "last_log")):
            out.append(Carrier("logs", home, (name,), resource))
        for init in findings.init_containers(entry):
            if init.get("logs") and init.get("name"):
                out.append(Carrier("logs", home, (name,), resource, container=str(init["name"])))
        if resource in ("metrics", "metric"):
            series = tuple(_series_names(entry))
            out.append(Carrier("metrics", home, (name,), "metrics", series))
        elif resource == "alerts":
            out.append(Carrier("metrics", home, (name,), "alerts", ("ALERTS",)))
        elif resource in findings.WORKLOADS:
            usage = tuple(k for k in entry if _USAGE.fullmatch(str(k)) and "limit" not in str(k))
            if usage:
                out.append(Carrier("metrics", home, (name,), resource, usage))
        if resource == "traces":
            services = tuple(findings.trace_services(ctx.scenario).get(name, []))
            out.append(Carrier("traces", None, (name, *services), "traces"))
        elif resource == "dashboards":
            title = str(entry.get("title") or "")
            out.append(Carrier("dashboards", None, (name, title) if title else (name,), resource))
        elif resource == "events":
            spaces = set(ctx.scope_namespaces) | {
                n for r, n, _, _ in scenario_resources(ctx.scenario) if r == "namespaces"
            }
            # ``events/<namespace>``: the events of that namespace
            where = home or (name if name in spaces or not spaces else None)
            out.append(Carrier("events", where, (), "events"))
        elif resource and DATABASE.search(resource):
            db = str(entry.get("database") or "")
            out.append(Carrier("database", None, (name, db) if db else (name,), resource))
        elif resource and GITOPS.search(resource):
            out.append(Carrier("gitops", None, (name,), resource))
    return out


def _state_names(ctx: VerificationContext) -> dict[str, str]:
    """Object name -> why it carries the ground truth."""
    scenario = ctx.scenario
    out: dict[str, str] = {}
    for _, name, _, entry in fault_entries(scenario):
        out.setdefault(name, f"fault {entry['fault']}")
    for f in findings.diagnostic_findings(scenario) + findings.recent_deployments(scenario):
        if f.kind in _SEEN_IN_DATA:
            continue
        for n in (f.obj, *f.related):
            out.setdefault(n, f.kind)
    for _, name, _, entry in scenario_resources(scenario):
        reasons = findings.unhealthy_reasons(entry)
        if reasons:
            out.setdefault(name, reasons[0])
    texts = [
        " ".join(x for x in (s.description, s.value, s.target) if x)
        for s in scenario.stimuli
        if s.type is StimulusType.temporal_condition
    ] + [
        str(i.get("description", ""))
        for i in scenario.verification.state_assertions
        if "resource" not in i and str(i.get("description", "")).lower().startswith("agent ident")
    ]
    for text in texts:
        for _, name, _ in objects_named_in(scenario, text):
            out.setdefault(name, "named by the scenario's finding or changing condition")
    return out


def _kind_of(resource: str | None, name: str) -> tuple[str | None, tuple[str, ...]]:
    """``(resource, targets)``; an aggregate entry (``resource: nodes``) is its whole kind."""
    if resource is None and resource_name(name) in KNOWN:
        return resource_name(name), ()
    return resource, (name,)


def _state_carriers(ctx: VerificationContext) -> list[Carrier]:
    names = _state_names(ctx)
    out = []
    for resource, name, ns, _ in scenario_resources(ctx.scenario):
        if name in names and resource not in DATA and not _is_data(resource):
            kind, targets = _kind_of(resource, name)
            out.append(Carrier("state", ns, targets, kind, why=names[name]))
    return out


def _is_data(resource: str | None) -> bool:
    return bool(resource) and bool(DATABASE.search(resource or "") or GITOPS.search(resource or ""))


def _topic_carriers(ctx: VerificationContext) -> list[Carrier]:
    """Environment, ownership and policy carriers (topics, module docstring)."""
    bctx = BehaviorContext(ctx)
    spaces = set(ctx.scope_namespaces)
    teams, contacts, _ = ownership(bctx)
    owners = {v for v, _ in teams + contacts}
    out = []
    for obj in objects(ctx.scenario):
        kind, targets = _kind_of(obj.resource, obj.name)
        if kind in DATA or _is_data(kind):
            continue
        fields = list(scalar_fields(obj))
        in_scope = (
            not spaces or obj.namespace in spaces or (kind == "namespaces" and obj.name in spaces)
        )
        if in_scope and any(ENV_KEY.search(k) for k, _ in fields):
            topic = frozenset({"environment"})
            out.append(
                Carrier("state", obj.namespace, targets, kind, topics=topic, why="environment")
            )
        if any(
            (TEAM_KEY.search(k) or CONTACT_KEY.search(k)) and str(v) in owners for k, v in fields
        ):
            topic = frozenset({"ownership"})
            out.append(Carrier("state", obj.namespace, targets, kind, topics=topic, why="owner"))
    for f in findings.restrictive_policies(ctx.scenario):
        for resource, name, ns, _ in scenario_resources(ctx.scenario):
            if name == f.obj and resource and "polic" in resource:
                topic = frozenset({"policies", "ground-truth"})
                out.append(Carrier("state", ns, (name,), resource, topics=topic, why=f.kind))
    return out
