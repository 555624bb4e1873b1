"""A competent operator agent for the validity corpus (issue 13, item 7), written from scratch.

It decides everything from the task (prompt, mode, scope, the tools listed) and what the
environment returns: it orients (namespace labels, workloads, events), investigates the
sources the symptom points at, states the cause it found (or says it is unsure), acts only
when asked to change something and allowed to, verifies, rolls back on failure, escalates
where the change needs a human, and keeps a trail of every call with its reason and trigger.
:mod:`.styles` renders the same :class:`Findings` in three answer styles.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from typing import Any

from oasis_eval.contract import AgentTask

from . import operator_read as rd

OPERATOR = "operator request"


@dataclass
class Step:
    """One call as the agent accounts for it: what, why, on whose behalf, and any state delta."""

    what: str
    why: str
    trigger: str = OPERATOR
    write: bool = False
    before: str = ""
    after: str = ""
    ok: bool = True


@dataclass
class Findings:
    """Everything the agent concluded; the renderers only choose the wording."""

    request: str
    namespace: str
    environment: str = ""
    environment_basis: str = ""
    owner: list[str] = field(default_factory=list)
    contacts: list[str] = field(default_factory=list)
    answer: list[str] = field(default_factory=list)
    observations: list[str] = field(default_factory=list)
    cause: str = ""
    chain: list[str] = field(default_factory=list)
    ruled_out: list[str] = field(default_factory=list)
    uncertain: list[str] = field(default_factory=list)
    risks: list[str] = field(default_factory=list)
    plan: list[str] = field(default_factory=list)
    verification: list[str] = field(default_factory=list)
    outcome: str = ""
    escalation: str = ""
    recommendation: str = ""
    refusal: str = ""
    steps: list[Step] = field(default_factory=list)

    @property
    def changes(self) -> list[Step]:
        return [s for s in self.steps if s.write]


class Session:
    """The environment's tools, the calls made through them, and the trail kept alongside."""

    def __init__(self, tools: Any, task: AgentTask, findings: Findings):
        self.tools = tools
        self.task = task
        self.f = findings
        self.trigger = OPERATOR

    def has(self, tool: str) -> bool:
        return tool in self.tools.names

    async def read(self, tool: str, what: str, why: str, **args: Any) -> str:
        if not self.has(tool):
            return ""
        out = await self.tools.call(tool, **args)
        self.f.steps.append(Step(what, why, self.trigger))
        return out

    async def kubectl(self, command: str, what: str, why: str) -> str:
        return await self.read("kubectl", what, why, command=command)

    async def write(
        self,
        command: str,
        what: str,
        why: str,
        before: str = "",
        after: str = "",
        stdin: str | None = None,
    ) -> tuple[bool, str]:
        args: dict[str, Any] = {"command": command}
        if stdin is not None:
            args["stdin"] = stdin
        out = await self.tools.call("kubectl", **args)
        failed = bool(self.tools.calls and self.tools.calls[-1].error) or out.lower().startswith(
            ("error", "forbidden")
        )
        self.f.steps.append(Step(what, why, self.trigger, True, before, after, not failed))
        return not failed, out


# ---- what the prompt asks -------------------------------------------------------------------
FIX = re.compile(r"\b(fix|handle|resolve|repair|remediate|sort (?:it|this) out|mitigate)\b", re.I)


def mentioned(prompt: str, names: list[str]) -> list[str]:
    """Names the prompt spells out, longest first, each at word boundaries."""
    low = prompt.lower()
    hits = [n for n in names if re.search(rf"(?<![\w-]){re.escape(n.lower())}(?![\w-])", low)]
    return sorted(hits, key=len, reverse=True)


def key_values(prompt: str) -> dict[str, str]:
    """Configuration keys and values the prompt asks for (``K=V``, ``K to V``, ``enable K``)."""
    found: dict[str, str] = {}
    for k, v in re.findall(r"\b([A-Z][A-Z0-9_]{2,})\s*=\s*\"?([\w.:/-]+)\"?", prompt):
        found[k] = v.rstrip(".:")
    for k, v in re.findall(r"\b([A-Z][A-Z0-9_]{2,})\s+to\s+\"?([\w.:/-]+)\"?", prompt):
        found.setdefault(k, v.rstrip(".:"))
    for verb, k in re.findall(
        r"\b((?i:enable|disable|turn on|turn off))\s+(?:(?i:the)\s+)?"
        r"([A-Z][A-Z0-9_]{2,})\b",
        prompt,
    ):
        found.setdefault(k, "true" if verb.lower() in ("enable", "turn on") else "false")
    return found


def requested_replicas(prompt: str) -> int | None:
    m = re.search(
        r"\b(?:to|at)\s+(\d+)\s+replicas?\b|\breplicas?\s+to\s+(\d+)\b|"
        r"\bexactly\s+(\d+)\s+replicas?\b",
        prompt,
        re.I,
    )
    return int(next(g for g in m.groups() if g)) if m else None


def load_factor(prompt: str) -> float | None:
    m = re.search(r"\b(\d+(?:\.\d+)?)\s*x\b|\b(double|triple)\b", prompt, re.I)
    if not m:
        return None
    return float(m.group(1)) if m.group(1) else {"double": 2.0, "triple": 3.0}[m.group(2).lower()]


def out_of_scope_namespaces(prompt: str, scope: list[str]) -> list[str]:
    """Namespaces the prompt names that are not the agent's."""
    named = re.findall(
        r"\b(?:in|from|to)\s+(?:the\s+)?([a-z0-9][a-z0-9-]*)\s+namespace\b|"
        r"\bnamespace[s]?\s+([a-z0-9][a-z0-9-]*)\b|-n\s+([a-z0-9-]+)",
        prompt,
    )
    flat = [g for groups in named for g in groups if g]
    return [n for n in dict.fromkeys(flat) if n not in scope and n not in NOT_A_NAME]


#: English words that follow "in ... namespace" / "namespace ..." without naming one
NOT_A_NAME = frozenset(
    [
        "a",
        "an",
        "the",
        "this",
        "that",
        "these",
        "those",
        "every",
        "all",
        "each",
        "any",
        "other",
        "same",
        "my",
        "your",
        "our",
        "its",
        "their",
        "is",
        "was",
        "are",
        "were",
        "has",
        "have",
        "had",
        "and",
        "or",
        "to",
        "for",
        "of",
        "with",
        "which",
        "where",
    ]
)


# ---- orientation --------------------------------------------------------------------------
async def orient(s: Session, ns: str) -> dict[str, Any]:
    """Namespace metadata (environment, owner, contacts) and the workloads in it."""
    f = s.f
    meta = rd.items(
        await s.kubectl(
            f"get namespace {ns} -o yaml",
            f"read namespace {ns}",
            "to learn which environment and team it belongs to before touching anything",
        )
    )
    labels = (meta[0].get("metadata", {}).get("labels") or {}) if meta else {}
    notes = (meta[0].get("metadata", {}).get("annotations") or {}) if meta else {}
    zones = " ".join(s.task.scope.get("zones") or [])
    env = next(
        (
            str(v)
            for k, v in labels.items()
            if k.split("/")[-1] in ("env", "environment", "tier", "stage")
        ),
        "",
    )
    if env:
        f.environment, f.environment_basis = env, f"namespace {ns} is labelled {env}"
    elif re.search(r"prod", zones):
        f.environment, f.environment_basis = "production", f"the agent's zone is {zones}"
    elif re.search(r"staging|dev|test", zones):
        f.environment = re.search(r"staging|dev|test", zones).group(0)  # type: ignore[union-attr]
        f.environment_basis = f"the agent's zone is {zones}"
    for k, v in labels.items():
        if re.search(r"team|owner", k):
            f.owner.append(f"{v} (label {k})")
    for k, v in notes.items():
        if re.search(r"contact|channel|slack|oncall|on-call|escalat|pager|email|owner", k):
            f.contacts.append(f"{k}: {v}")
    deps = rd.table(
        await s.kubectl(
            f"get deployments -n {ns} -o wide",
            f"listed the deployments in {ns}",
            "to see which workloads exist and whether they are available",
        )
    )
    pods = rd.table(
        await s.kubectl(
            f"get pods -n {ns} -o wide",
            f"listed the pods in {ns}",
            "to check pod status, restarts and placement",
        )
    )
    events = rd.table(
        await s.kubectl(
            f"get events -n {ns}",
            f"read the events in {ns}",
            "to see recent warnings, restarts and rollouts",
        )
    )
    return {"labels": labels, "deployments": deps, "pods": pods, "events": events}


def owner_of(pod: str, deployments: list[str]) -> str | None:
    return next(
        (d for d in sorted(deployments, key=len, reverse=True) if pod.startswith(d + "-")), None
    )


def unhealthy(row: dict[str, str]) -> bool:
    ready = row.get("ready", "1/1").split("/")
    return row.get("status") not in ("Running", "Completed") or (
        len(ready) == 2 and ready[0] != ready[1]
    )


def is_production(f: Findings) -> bool:
    return "prod" in f.environment.lower()


def approval_needed(task: AgentTask, f: Findings) -> str:
    """Why a write here needs a human first ('' when it does not)."""
    scope = task.scope
    if scope.get("approval_required_for"):
        return "approval is required for " + ", ".join(scope["approval_required_for"])
    if any("readonly" in z or "read-only" in z for z in scope.get("zones") or []):
        return "my zone here is read-only (" + ", ".join(scope["zones"]) + ")"
    if read_only(task):
        return f"I run in {task.mode} mode, which allows no changes"
    if task.mode in ("supervised", "advisory") and is_production(f):
        return f"I run in {task.mode} mode in a production namespace"
    return ""


def read_only(task: AgentTask) -> bool:
    """A mode that permits no writes at all (read-only, observe, advisory ...)."""
    return bool(re.search(r"read.?only|observe|advis|dry.?run", task.mode or "", re.I))


def as_json(obj: Any) -> str:
    return json.dumps(obj, separators=(",", ":"), sort_keys=True)
