"""heldout41's first look (session 34, written blind): the namespace it works in (labels,
owners, zone), what it may do there (mode, read-only zones, approval rules), and the
workloads the request names, found by their own names in the request (never a scenario id).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

from oasis_eval.contract import AgentTask

from . import operator_read as rd
from .operator_heldout41_react import React

OWNER_KEYS = ("team", "owner", "app.kubernetes.io/managed-by-team", "owning-team")
CONTACT_KEYS = ("contact", "escalation", "oncall", "on-call", "slack", "pager")


@dataclass
class Ctx:
    task: AgentTask
    ns: str
    prompt: str
    labels: dict[str, str] = field(default_factory=dict)
    annotations: dict[str, str] = field(default_factory=dict)
    deployments: list[dict[str, str]] = field(default_factory=list)
    pods: list[dict[str, str]] = field(default_factory=list)

    @property
    def zones(self) -> list[str]:
        return list(self.task.scope.get("zones") or [])

    @property
    def approval(self) -> list[str]:
        return list(self.task.scope.get("approval_required_for") or [])

    @property
    def production(self) -> bool:
        marks = " ".join([*self.labels.values(), *self.zones, self.ns]).lower()
        return bool(re.search(r"\bprod(uction)?\b|prod-", marks))

    @property
    def read_only(self) -> bool:
        mode = (self.task.mode or "").lower()
        return any("readonly" in z or "read-only" in z for z in self.zones) or mode in (
            "read_only",
            "readonly",
            "observe",
        )

    @property
    def needs_approval(self) -> str:
        """The approval rule that covers a write here ('' when none)."""
        for rule in self.approval:
            low = rule.lower()
            if "write" in low and ("production" not in low or self.production):
                return rule
        mode = (self.task.mode or "").lower()
        return "supervised mode: writes are proposed, not made" if mode == "supervised" else ""

    def owners(self) -> dict[str, str]:
        """The namespace's owner and contact marks, as read."""
        out = {}
        for key, value in [*self.labels.items(), *self.annotations.items()]:
            low = key.lower()
            if any(k in low for k in OWNER_KEYS + CONTACT_KEYS):
                out[key] = value
        return out


def namespace(task: AgentTask) -> str:
    return next(iter(task.scope.get("namespaces") or ["default"]))


async def look(r: React, task: AgentTask) -> Ctx:
    """The namespace's labels and the workloads in it."""
    ns = namespace(task)
    ctx = Ctx(task, ns, task.prompt)
    doc = rd.load_yaml(
        await r.kubectl(
            f"Before touching anything I want to know where I am: namespace {ns}'s labels say "
            "which environment this is and who owns it.",
            f"get namespace {ns} -o yaml",
        )
    )
    meta = doc.get("metadata", {}) if isinstance(doc, dict) else {}
    ctx.labels = {str(k): str(v) for k, v in (meta.get("labels") or {}).items()}
    ctx.annotations = {str(k): str(v) for k, v in (meta.get("annotations") or {}).items()}
    ctx.deployments = rd.table(
        await r.kubectl(
            "Next, the workloads in the namespace, to find the one the request is about.",
            f"get deployments -n {ns} -o wide",
        )
    )
    ctx.pods = rd.table(
        await r.kubectl("And their pods, with status and restarts.", f"get pods -n {ns} -o wide")
    )
    return ctx


def _said(name: str, prompt: str) -> bool:
    """The request names this object: spelled as is, or with spaces for its dashes."""
    low = prompt.lower()
    for form in {name.lower(), name.lower().replace("-", " ")}:
        if re.search(rf"(?<![\w-]){re.escape(form)}(?![\w-])", low):
            return True
    return False


def named(ctx: Ctx) -> list[str]:
    """The Deployments the request names, longest name first (a name inside another's
    does not count twice: "api-service" before "api")."""
    names = sorted({d.get("name", "") for d in ctx.deployments if d.get("name")}, key=len)
    found = [n for n in reversed(names) if _said(n, ctx.prompt)]
    kept: list[str] = []
    for n in found:
        if not any(n != k and n in k for k in kept):
            kept.append(n)
    return kept


def bare_pods(ctx: Ctx) -> list[str]:
    """Pods the request names by their own prefix, with no Deployment of that name."""
    deps = {d.get("name", "") for d in ctx.deployments}
    out = []
    for p in ctx.pods:
        name = p.get("name", "")
        stem = re.sub(r"-[a-z0-9]{4,5}$", "", name)
        if stem not in deps and (_said(stem, ctx.prompt) or _said(name, ctx.prompt)):
            out.append(name)
    return out


def pods_of(ctx: Ctx, workload: str) -> list[dict[str, str]]:
    """A Deployment's pods (its ReplicaSet's hash and suffix after its name)."""
    pat = re.compile(rf"^{re.escape(workload)}-[a-z0-9]+-[a-z0-9]+$")
    return [p for p in ctx.pods if pat.match(p.get("name", ""))]


def unhealthy(pod: dict[str, str]) -> bool:
    ready = pod.get("ready", "1/1")
    a, _, b = ready.partition("/")
    return pod.get("status") != "Running" or a != b or restarts(pod) > 0


def restarts(pod: dict[str, str]) -> int:
    m = re.match(r"(\d+)", pod.get("restarts", "0"))
    return int(m.group(1)) if m else 0


def worst(pods: list[dict[str, str]]) -> dict[str, str] | None:
    """The pod to look at first: not ready or restarting, most restarts first."""
    if not pods:
        return None
    return sorted(pods, key=lambda p: (not unhealthy(p), -restarts(p)))[0]


def image_of(ctx: Ctx, workload: str) -> str:
    for d in ctx.deployments:
        if d.get("name") == workload:
            return d.get("images", "")
    return ""


def first(items: list[Any]) -> Any:
    return items[0] if items else None
