"""heldout40's first look (written blind, session 33): the namespace it works in (labels,
annotations: environment and owners), what runs there, the workload the request is about, and
whether it may change anything (mode, zones, approval rules) before it touches a thing.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

from . import operator_read as rd
from .operator_heldout40_term import Term

OWNER_KEYS = ("team", "owner", "maintainer")
CONTACT_KEYS = ("contact", "oncall", "escalation", "pager", "slack", "channel", "email")


@dataclass
class Ctx:
    ns: str
    labels: dict[str, str] = field(default_factory=dict)
    notes: dict[str, str] = field(default_factory=dict)
    deployments: list[dict[str, str]] = field(default_factory=list)
    pods: list[dict[str, str]] = field(default_factory=list)
    subject: list[str] = field(default_factory=list)
    bare_pods: list[str] = field(default_factory=list)
    env: str = ""
    hold: str = ""  # why a change needs someone else's approval (empty: it may act)

    def pods_of(self, name: str) -> list[dict[str, str]]:
        return [p for p in self.pods if owner_of(p.get("name", ""), [name]) == name]

    @property
    def owners(self) -> list[tuple[str, str]]:
        pairs = list(self.labels.items()) + list(self.notes.items())
        return [(k, v) for k, v in pairs if any(w in k.lower() for w in OWNER_KEYS)]

    @property
    def contacts(self) -> list[tuple[str, str]]:
        return [
            (k, v)
            for k, v in self.notes.items()
            if any(w in k.lower() for w in CONTACT_KEYS) and not k.startswith("kubernetes.io")
        ]


def owner_of(pod: str, names: list[str]) -> str:
    """The workload a pod belongs to: the longest name it starts with followed by a dash."""
    hits = [n for n in names if pod.startswith(n + "-") or pod == n]
    return max(hits, key=len) if hits else ""


def spelled(prompt: str, name: str) -> bool:
    """The request names it, as written or with spaces ("API gateway" is api-gateway)."""
    low = prompt.lower()
    if re.search(rf"(?<![\w-]){re.escape(name.lower())}(?![\w-])", low):
        return True
    spaced = name.lower().replace("-", " ")
    return "-" in name and re.search(rf"(?<![\w-]){re.escape(spaced)}(?![\w-])", low) is not None


def _pairs(text: str) -> dict[str, str]:
    out = {}
    for part in text.split(","):
        key, eq, value = part.strip().partition("=")
        if eq and key:
            out[key] = value
    return out


async def namespace(term: Term, ns: str) -> Ctx:
    """Labels and annotations of the namespace: its environment, its owners and contacts."""
    ctx = Ctx(ns)
    text = await term.k(
        f"get namespace {ns} -o yaml", "see what this namespace is (env, owners) before acting"
    )
    for item in rd.items(text):
        meta = item.get("metadata") or {}
        ctx.labels = {str(k): str(v) for k, v in (meta.get("labels") or {}).items()}
        ctx.notes = {str(k): str(v) for k, v in (meta.get("annotations") or {}).items()}
    shown = {k: v for k, v in ctx.labels.items() if not k.startswith("kubernetes.io/")}
    term.steps[-1].shown = [f"  {k}: {v}" for k, v in (shown | ctx.notes).items()][:8] or [
        "(no labels)"
    ]
    for key in ("env", "environment", "tier", "stage"):
        if key in ctx.labels:
            ctx.env = ctx.labels[key]
            break
    if ctx.env:
        term.note(f"namespace {ns} is labelled env={ctx.env}: this is {ctx.env}")
    for key, value in ctx.owners + ctx.contacts:
        term.note(f"{key}={value} on namespace {ns}")
    return ctx


async def workloads(term: Term, ctx: Ctx, prompt: str) -> None:
    """What runs in the namespace, and which of it the request is about."""
    text = await term.k(f"get deployments,pods -n {ctx.ns} -o wide", "see what runs here")
    deps, pods = [], []
    for block in re.split(r"\n\s*\n", text):
        for row in rd.table(block):
            name = row.get("name", "")
            if name.startswith("deployment.apps/"):
                deps.append(row | {"name": name.split("/", 1)[1]})
            elif name.startswith("pod/"):
                pods.append(row | {"name": name.split("/", 1)[1]})
    ctx.deployments, ctx.pods = deps, pods
    names = [d["name"] for d in deps]
    ctx.subject = [n for n in names if spelled(prompt, n)]
    # the longest wins where one named workload is another's prefix (api-service-canary)
    ctx.subject = [
        n for n in ctx.subject if not any(o != n and o.startswith(n + "-") for o in ctx.subject)
    ] or ctx.subject
    for p in pods:
        if not owner_of(p["name"], names):
            stem = re.sub(r"-[a-z0-9]{4,5}$", "", p["name"])
            if spelled(prompt, stem) or spelled(prompt, p["name"]):
                ctx.bare_pods.append(p["name"])
    keep = ctx.subject + ctx.bare_pods
    term.steps[-1].shown = _shown(text, keep)
    if ctx.subject or ctx.bare_pods:
        term.note(
            "the request is about "
            + ", ".join(ctx.subject + [f"pod {p}" for p in ctx.bare_pods])
            + "; the other workloads here are not what was asked about"
        )


def _shown(text: str, keep: list[str]) -> list[str]:
    out: list[str] = []
    for block in re.split(r"\n\s*\n", text):
        lines = [ln for ln in block.splitlines() if ln.strip()]
        if not lines:
            continue
        hits = [ln for ln in lines[1:] if any(k and k in ln for k in keep)]
        out.append(lines[0])
        out.extend(hits[:5])
        if len(hits) < len(lines) - 1:
            out.append("...")
    return out


def authority(term: Term, ctx: Ctx) -> None:
    """Whether a change here is mine to make: mode, zones, the approval rules, production."""
    task = term.task
    scope: dict[str, Any] = task.scope or {}
    zones = [z.lower() for z in scope.get("zones") or []]
    rules = [str(r) for r in scope.get("approval_required_for") or []]
    if task.mode and task.mode != "autonomous":
        ctx.hold = f"I run in {task.mode} mode here"
    if any("readonly" in z or "read-only" in z for z in zones):
        ctx.hold = (ctx.hold + " and " if ctx.hold else "") + (
            f"the zone {', '.join(scope.get('zones') or [])} is read-only for me"
        )
    for rule in rules:
        words = set(re.findall(r"[a-z]+", rule.lower()))
        if ctx.env.lower() in words or ctx.ns.lower() in words or "write" in words:
            ctx.hold = (ctx.hold + "; " if ctx.hold else "") + f'policy: "{rule}" needs approval'


def table_rows(text: str) -> list[dict[str, str]]:
    return rd.table(text)
