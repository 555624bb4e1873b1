"""Where the careful agent is working: environment class, approval rules, owners.

Read from the task (mode, scope, zones, ``approval_required_for``) and from the
metadata of the namespaces and workloads it reads: environment labels
(``env=production``), zone names (``prod-readonly``), team and contact labels or
annotations. Generic conventions only.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

#: label/annotation keys (last path segment) naming the environment
ENV_KEYS = ("env", "environment", "stage", "tier")
PRODUCTION = re.compile(r"^(prod|production|prd|live)$", re.IGNORECASE)
#: keys naming an owning team, and keys naming a way to reach it
OWNER_KEY = re.compile(r"(^|[-_./])(team|owner|owned-by|squad|maintainer)s?$", re.IGNORECASE)
CONTACT_KEY = re.compile(
    r"contact|on-?call|escalation|slack|channel|pager|email|rota", re.IGNORECASE
)


@dataclass
class Situation:
    namespaces: list[str]
    zones: list[str]
    mode: str
    approval_for: list[str] = field(default_factory=list)
    production: bool = False
    #: why the environment is considered production (or not)
    environment_evidence: list[str] = field(default_factory=list)
    owners: list[tuple[str, str]] = field(default_factory=list)  # (team, where it is declared)
    contacts: list[tuple[str, str]] = field(default_factory=list)
    criticality: str | None = None

    @property
    def read_only_zone(self) -> bool:
        return any(re.search(r"read-?only|readonly|\bro\b", z, re.IGNORECASE) for z in self.zones)

    @property
    def approval_needed(self) -> str | None:
        """Why writes here need a human's approval first (None: they do not)."""
        if self.mode == "read-only":
            return "I am in read-only mode"
        for rule in self.approval_for:
            if "production" in rule.lower() and not self.production:
                continue
            return f"my scope requires approval for {rule}"
        if self.mode == "supervised":
            return "I run in supervised mode: changes need an operator's approval"
        if self.read_only_zone:
            return f"my zone ({', '.join(self.zones)}) is read-only"
        return None

    @property
    def environment(self) -> str:
        return "production" if self.production else "non-production"

    def team(self) -> str | None:
        return self.owners[0][0] if self.owners else None


def situate(
    task_scope: dict[str, Any],
    mode: str,
    ns_meta: dict[str, dict[str, Any]],
    workloads: list[dict[str, Any]],
) -> Situation:
    namespaces = list(task_scope.get("namespaces") or ["default"])
    zones = [str(z) for z in task_scope.get("zones") or []]
    approval = [str(a) for a in task_scope.get("approval_required_for") or []]
    sit = Situation(namespaces, zones, mode, approval)
    for ns in namespaces:
        meta = (ns_meta.get(ns) or {}).get("metadata") or {}
        _read_meta(sit, f"namespace {ns}", meta)
        if PRODUCTION.match(ns):
            sit.production = True
            sit.environment_evidence.append(f"the namespace is called {ns}")
    for obj in workloads:
        meta = obj.get("metadata") or {}
        _read_meta(
            sit, f"{obj.get('kind', 'object').lower()} {meta.get('name')}", meta, environment=False
        )
    for zone in zones:
        if re.search(r"(^|[-_])(prod|production)([-_]|$)", zone, re.IGNORECASE):
            sit.production = True
            sit.environment_evidence.append(f"my zone is {zone}")
    return sit


def _read_meta(sit: Situation, where: str, meta: dict[str, Any], environment: bool = True) -> None:
    labels = meta.get("labels") or {}
    annotations = meta.get("annotations") or {}
    for kind, entries in (("label", labels), ("annotation", annotations)):
        for key, value in sorted(entries.items()):
            last = key.rsplit("/", 1)[-1]
            if environment and last.lower() in ENV_KEYS and PRODUCTION.match(str(value)):
                sit.production = True
                sit.environment_evidence.append(f"{where} is labelled {key}={value}")
            if OWNER_KEY.search(last) and (value, where) not in sit.owners:
                sit.owners.append((str(value), f"{kind} {key} on {where}"))
            elif CONTACT_KEY.search(last):
                sit.contacts.append((str(value), f"{kind} {key} on {where}"))
            if last.lower() in ("criticality", "tier", "priority") and not PRODUCTION.match(
                str(value)
            ):
                sit.criticality = f"{value} ({kind} {key} on {where})"
