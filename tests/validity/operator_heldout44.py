"""heldout44 (session 36, written blind): a held-out operator that writes a differential diagnosis.

Its answer is a clinician's note (:mod:`operator_heldout44_note`): presenting complaint,
history, examination, a ranked differential with "for:" / "against:" and a status per cause,
the diagnosis with its confidence, plan / treatment, referral and follow-up. What it reads
and does is decided from the request, the scope and what the environment returns
(:mod:`operator_heldout44_exam`, :mod:`operator_heldout44_ddx`, :mod:`operator_heldout44_tx`,
:mod:`operator_heldout44_look`), never from a scenario id.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from oasis_eval.contract import AgentTask

from . import operator_read as rd
from .agents import Tools
from .operator_heldout44_chart import Chart, Exam
from .operator_heldout44_note import write


@dataclass
class Ask:
    """What the request asks, read from its words."""

    text: str
    sets: dict[str, str] = field(default_factory=dict)
    replicas: int | None = None
    factor: float | None = None
    restart: bool = False
    fix: bool = False
    destroy: bool = False
    trace_id: str = ""


_KEY = r"([A-Z][A-Z0-9_]{2,})"


def read_ask(prompt: str) -> Ask:
    ask = Ask(prompt)
    for k, v in re.findall(_KEY + r"\s*=\s*\"?([\w.\-:/]+)\"?", prompt):
        ask.sets[k] = v
    for k, v in re.findall(
        r"(?i:set|update|change)\s+" + _KEY + r"\s+to\s+\"?([\w.\-:/]+)\"?", prompt
    ):
        ask.sets[k] = v
    for k in re.findall(r"(?i:enable)\s+(?:the\s+)?" + _KEY, prompt):
        ask.sets.setdefault(k, "true")
    for k in re.findall(r"(?i:disable)\s+(?:the\s+)?" + _KEY, prompt):
        ask.sets.setdefault(k, "false")
    ask.sets = {k: v.rstrip(".,;:") for k, v in ask.sets.items()}
    low = prompt.lower()
    m = re.search(r"(?:to|exactly)\s+(\d+)\s+replicas|replicas\s+to\s+(\d+)", low)
    if m:
        ask.replicas = int(m[1] or m[2])
    m = re.search(r"(\d+(?:\.\d+)?)\s*x\s+(?:the\s+)?(?:current\s+)?load", low)
    if m:
        ask.factor = float(m[1])
    ask.restart = bool(re.search(r"\brestart\b", low)) and not re.search(
        r"restarting|restarts", low
    )
    ask.fix = bool(re.search(r"\b(fix|handle|resolve|remediate|sort it)\b", low))
    ask.destroy = bool(re.search(r"\b(delete|drain|cordon|remove|wipe|purge)\b", low))
    m = re.search(r"\btrace\s+([0-9a-z]{4,})\b", low)
    ask.trace_id = m[1] if m and m[1] not in ("the", "issue") else ""
    return ask


@dataclass
class Ctx:
    """Where the operator stands: scope, mode, the namespace's labels and what it may do."""

    ns: str
    namespaces: list[str]
    mode: str
    zones: list[str]
    approval: list[str]
    labels: dict[str, str] = field(default_factory=dict)
    notes: dict[str, str] = field(default_factory=dict)

    @property
    def production(self) -> bool:
        env = (self.labels.get("env") or self.labels.get("environment") or "").lower()
        return env.startswith("prod") or any("prod" in z for z in self.zones)

    @property
    def read_only(self) -> bool:
        return any("readonly" in z.replace("-", "") for z in self.zones)

    def needs_approval(self) -> str:
        """Why a write here needs a human's approval ("" when it does not)."""
        if self.read_only:
            return f"the zone {', '.join(self.zones)} is read-only for me"
        if self.mode == "supervised":
            return "I run supervised here"
        for rule in self.approval:
            if "prod" in rule.lower() and self.production:
                return f"policy requires approval for {rule}"
        return ""


async def run(tools: Tools, task: AgentTask) -> str:
    from .operator_heldout44_flows import dispatch

    scope = task.scope or {}
    namespaces = list(scope.get("namespaces") or ["default"])
    ctx = Ctx(
        ns=namespaces[0],
        namespaces=namespaces,
        mode=str(getattr(task, "mode", "") or scope.get("mode") or "autonomous"),
        zones=[str(z) for z in scope.get("zones") or []],
        approval=[str(a) for a in scope.get("approval_required_for") or []],
    )
    chart = Chart(prompt=task.prompt, namespace=ctx.ns)
    chart.complaint = " ".join(task.prompt.split())
    ex = Exam(tools, chart)
    await dispatch(ex, chart, ctx, read_ask(task.prompt))
    return write(chart)


def deployments(text: str) -> list[str]:
    return [r["name"] for r in rd.table(text) if r.get("name")]
