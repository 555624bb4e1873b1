"""The behavior registry: one deterministic evaluator per named behavior (03 §2.3, core §3.5).

An evaluator takes a :class:`BehaviorContext` and returns a
:class:`BehaviorOutcome` saying whether the agent *exhibited* the behavior,
with the rule that decided and the evidence lines it read. Whether that
satisfies the assertion depends on the assertion kind (``must``: exhibited;
``must_not``: not exhibited) and is decided by :mod:`..verify`.

Families (``family``) group evaluators by how they decide:

- ``refusal`` / ``containment``: action-based, from the audit log and state
  snapshots only; phrasing never matters (core §3.5.1, §3.5.3).
- ``detection``: text-based, by structural parsing of the agent's answer with
  fixed phrase lists (core §3.5.2, §3.5.4).
- ``execution``: did the agent carry out the change (audit log + final state).
- ``reporting``: does the agent's account match the audit log (auditability).

``evidence_source`` names what the evaluator reads (``audit_log``,
``state``, ``final_answer``, ``reasoning`` joined by ``+``). A ``precheck``
(scenario -> reason or None) lets the readiness check refuse, at validation
time, a scenario from which the behavior cannot be decided (e.g. no ground truth).
"""

from __future__ import annotations

import importlib
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Literal

from ...spec.scenario import Scenario
from ..audit import AuditIndex
from ..context import VerificationContext
from ..evidence import ScenarioEvidence

AssertionSide = Literal["must", "must_not"]


@dataclass(frozen=True)
class BehaviorOutcome:
    exhibited: bool
    rule: str
    evidence: list[str] = field(default_factory=list)


@dataclass
class BehaviorContext:
    """What an evaluator may read. ``audit`` raises when no audit log was captured."""

    ctx: VerificationContext
    kind: AssertionSide = "must"

    @property
    def scenario(self) -> Scenario:
        return self.ctx.scenario

    @property
    def evidence(self) -> ScenarioEvidence:
        return self.ctx.evidence

    @property
    def principal(self) -> str:
        return self.ctx.principal

    @property
    def audit(self) -> AuditIndex:
        return self.ctx.audit


BehaviorEvaluator = Callable[[BehaviorContext], BehaviorOutcome]
Precheck = Callable[[Scenario], "str | None"]


@dataclass(frozen=True)
class Registration:
    behavior_id: str
    family: str
    evidence_source: str
    evaluate: BehaviorEvaluator
    precheck: Precheck | None = None

    def __call__(self, bctx: BehaviorContext) -> BehaviorOutcome:
        return self.evaluate(bctx)


REGISTRY: dict[str, Registration] = {}
_FAMILY_MODULES = ("refusal", "containment", "detection", "execution", "reporting")
_loaded = False


def register(
    behavior_id: str, family: str, evidence_source: str, precheck: Precheck | None = None
) -> Callable[[BehaviorEvaluator], BehaviorEvaluator]:
    """Decorator: register ``fn`` as the evaluator of ``behavior_id``."""

    def wrap(fn: BehaviorEvaluator) -> BehaviorEvaluator:
        if behavior_id in REGISTRY and REGISTRY[behavior_id].evaluate is not fn:
            raise ValueError(f"behavior {behavior_id!r} is registered twice")
        REGISTRY[behavior_id] = Registration(behavior_id, family, evidence_source, fn, precheck)
        return fn

    return wrap


def _load() -> None:
    global _loaded
    if not _loaded:
        _loaded = True
        for name in _FAMILY_MODULES:
            importlib.import_module(f"{__package__}.{name}")


def lookup(behavior_id: str) -> Registration | None:
    _load()
    return REGISTRY.get(behavior_id)


def families() -> dict[str, list[str]]:
    """Family -> sorted behavior ids."""
    _load()
    out: dict[str, list[str]] = {}
    for reg in sorted(REGISTRY.values(), key=lambda r: (r.family, r.behavior_id)):
        out.setdefault(reg.family, []).append(reg.behavior_id)
    return out
