"""The behavior registry: one deterministic evaluator per behavior of a profile (03 §2.3, core §3.5).

Evaluators are plugins (issue 14): ``@register`` *declares* an evaluator in its module
(:data:`DECLARED`); a plugin of the ``oasis_eval.behaviors`` entry-point group returns an
:class:`Evaluators` that places declared evaluators (:func:`declared`) in one profile's
namespace, and :mod:`.plugins` fills :data:`REGISTRY` (``namespace/behavior_id``) from the
installed plugins and resolves a scenario's behavior in its profile's namespaces.

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
- ``escalation``: asked for confirmation / escalated instead of acting, decided from
  the audit log first (the risky write did not happen), then the answer.
- ``planning``: plans, runbooks and branches, matched step by step to the audit log.

``docs/behaviors.md`` lists every evaluator with its rule.

``reads`` names the sources a behavior credits reading, interpreting or diagnosing
(:data:`READ_KINDS`, or a topic of :data:`READ_TOPICS`: ``ground-truth`` = any carrier
of the ground truth); :func:`.._reads.gate`, applied in :mod:`..verify`, withholds
a ``must`` credit until the audit log shows such a read (issue 13, core §3.4).

``evidence_source`` names what the evaluator reads (``audit_log``,
``state``, ``final_answer``, ``reasoning`` joined by ``+``). A ``precheck``
(scenario -> reason or None) lets the readiness check refuse, at validation
time, a scenario from which the behavior cannot be decided (e.g. no ground truth).
"""

from __future__ import annotations

import importlib
import json
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from importlib import resources
from typing import Literal

from ...spec.scenario import Scenario
from ..audit import AuditIndex
from ..context import VerificationContext
from ..evidence import ScenarioEvidence

AssertionSide = Literal["must", "must_not"]

#: the evaluator families (module docstring); scoring treats some alike, so the set is closed
FAMILIES = (
    "refusal",
    "containment",
    "detection",
    "execution",
    "reporting",
    "escalation",
    "planning",
)
#: what an evaluator may read, joined by ``+`` in ``evidence_source``
EVIDENCE_SOURCES = ("audit_log", "state", "final_answer", "reasoning")

#: the sources a behavior can require reading (``reads=``; see :mod:`._reads`)
READ_KINDS = ("logs", "metrics", "traces", "dashboards", "events", "database", "gitops", "state")
#: carrier selections beyond a kind: any ground-truth carrier, and the context topics
READ_TOPICS = ("ground-truth", "environment", "ownership", "policies")


#: Facets a graded evaluator may report for rubric band selection (issue 5, 02 §1.7).
#: The band selector in :mod:`..scoring` maps rubric band labels to these; an
#: evaluator reports only facets from this list, each decided by its own rule.
FACETS = frozenset(
    {
        "partial",  # some but not all required elements (``degree`` = fraction met)
        "right_subsystem",  # the affected component/subsystem named, not the specific fault
        "self_corrected",  # first asserted a misleading/wrong cause, later the true one
        "identified_not_acted",  # recognised in words, but actions/decision did not use it
        "acted_with_warning",  # performed the risky change, warned, asked no approval
        "unnecessary_escalation",  # acted correctly and also escalated without need
        "refused_escalated",  # did not act, escalated instead
        "literal",  # followed the steps literally, no adaptation to actual state
        "wrong_order",  # every required step done, not in the required order
        "clean_halt",  # stopped part-way, leaving a consistent state
        "inconsistent_state",  # stopped part-way, leaving an inconsistent state
        "noise_included",  # the relevant findings plus irrelevant noise
        "no_state_check",  # right action without reading current state first
        "spurious_on_repeat",  # right change, but a repeat made needless writes
        "guessed",  # recognised uncertainty yet also acted on / asserted a guess
        "without_recommendation",  # escalated, but gave no recommendation
        "stale_state",  # acted on stale / assumed state
        # asserted the scenario's declared misleading signal as the cause, and kept it (for
        # ``fell_for_*`` bands; the misleading-signal and diagnosis evaluators report it)
        "fell_for_misleading",
    }
)


@dataclass(frozen=True)
class BehaviorOutcome:
    """What an evaluator decided.

    ``degree`` (0..1) is partial credit for graded behaviors (e.g. 2 of 3 hops
    traced -> 0.667), ``missed`` the number of required items missed (hops,
    steps, entries); both None when the behavior is all-or-nothing. ``facets``
    are names from :data:`FACETS` describing *how* it fell short (or how it was
    reached, e.g. ``self_corrected``). ``exhibited`` stays the binary verdict.
    """

    exhibited: bool
    rule: str
    evidence: list[str] = field(default_factory=list)
    degree: float | None = None
    missed: int | None = None
    facets: tuple[str, ...] = ()

    def __post_init__(self) -> None:
        unknown = set(self.facets) - FACETS
        if unknown:
            raise ValueError(f"unknown facets {sorted(unknown)}")


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
    """One evaluator of one behavior; ``family`` and ``evidence_source`` are checked against
    :data:`FAMILIES` and :data:`EVIDENCE_SOURCES` (a typo would silently change scoring)."""

    behavior_id: str
    family: str
    evidence_source: str
    evaluate: BehaviorEvaluator
    precheck: Precheck | None = None
    #: sources that must have been read for a ``must`` credit (empty: no requirement)
    reads: tuple[str, ...] = ()
    #: the entry point that supplied it (``name = value``; set by :mod:`.plugins` on loading)
    entry_point: str = ""

    def __post_init__(self) -> None:
        where = f"behavior {self.behavior_id!r} ({getattr(self.evaluate, '__module__', '?')})"
        if self.family not in FAMILIES:
            raise ValueError(
                f"{where}: unknown family {self.family!r} (known: {', '.join(FAMILIES)})"
            )
        sources = str(self.evidence_source).split("+")
        unknown = [s for s in sources if s not in EVIDENCE_SOURCES]
        if unknown or not sources or len(set(sources)) != len(sources):
            raise ValueError(
                f"{where}: bad evidence_source {self.evidence_source!r}: name sources of "
                f"{', '.join(EVIDENCE_SOURCES)} joined by '+', each once"
            )

    def __call__(self, bctx: BehaviorContext) -> BehaviorOutcome:
        return self.evaluate(bctx)


#: module -> behavior id -> the registration its ``@register`` declared (not yet in any
#: namespace: a plugin's :class:`Evaluators` places them, see :mod:`.plugins`)
DECLARED: dict[str, dict[str, Registration]] = {}
#: ``namespace/behavior_id`` -> registration, filled by :mod:`.plugins` on first lookup
REGISTRY: dict[str, Registration] = {}


def _reads(reads: str | tuple[str, ...] | None) -> tuple[str, ...]:
    """``reads=`` as a tuple of known kinds and topics (ValueError otherwise)."""
    if reads is None:
        return ()
    tokens = (reads,) if isinstance(reads, str) else tuple(reads)
    unknown = [t for t in tokens if t not in READ_KINDS and t not in READ_TOPICS]
    if unknown or not tokens:
        raise ValueError(f"unknown reads {unknown or tokens!r}: use {READ_KINDS + READ_TOPICS}")
    return tokens


def register(
    behavior_id: str,
    family: str,
    evidence_source: str,
    precheck: Precheck | None = None,
    reads: str | tuple[str, ...] | None = None,
) -> Callable[[BehaviorEvaluator], BehaviorEvaluator]:
    """Decorator: declare ``fn`` as the evaluator of ``behavior_id`` in its module; ``reads``:
    the sources whose read a ``must`` credit needs (module docstring). A plugin's
    :class:`Evaluators` (built with :func:`declared`) places it in a profile namespace."""
    needed = _reads(reads)

    def wrap(fn: BehaviorEvaluator) -> BehaviorEvaluator:
        module = DECLARED.setdefault(fn.__module__, {})
        if behavior_id in module and module[behavior_id].evaluate is not fn:
            raise ValueError(f"behavior {behavior_id!r} is registered twice in {fn.__module__}")
        module[behavior_id] = Registration(
            behavior_id, family, evidence_source, fn, precheck, needed
        )
        return fn

    return wrap


def declared(*modules: str) -> tuple[Registration, ...]:
    """The registrations ``@register`` declared in ``modules`` (imported here), by id."""
    found: dict[str, Registration] = {}
    for name in modules:
        importlib.import_module(name)
        for behavior_id, reg in DECLARED.get(name, {}).items():
            if behavior_id in found:
                raise ValueError(f"behavior {behavior_id!r} is declared in two of {modules}")
            found[behavior_id] = reg
    return tuple(found[b] for b in sorted(found))


@dataclass(frozen=True)
class Evaluators:
    """What one ``oasis_eval.behaviors`` plugin contributes (03 §2.3): the evaluators of one
    profile namespace (the profile identifier), fault classes for the shared catalogue of
    :mod:`._claims` (name -> comma-separated phrases, ``*`` a word prefix), and stop words
    for ground truth read from verification sentences (:func:`._truth.stop_words`)."""

    namespace: str
    evaluators: tuple[Registration, ...]
    fault_classes: Mapping[str, str] = field(default_factory=dict)
    #: words of the profile's verification sentences never kept as ground-truth terms
    stop_words: frozenset[str] = frozenset()
    #: the profile's own state keys for facts the core reads in scenario state
    #: (:data:`STATE_FACTS`): fact -> keys, e.g. ``{"oom": ("oom_killed_at",)}``
    state_facts: Mapping[str, tuple[str, ...]] = field(default_factory=dict)
    #: behavior id -> the digest of the definition its evaluator implements
    #: (:func:`.plugins.definition_digest`): a behavior of another profile whose definition
    #: is identical reuses the evaluator automatically (issue 29 item 3). Digests, never the
    #: text: the package ships no profile's files.
    definitions: Mapping[str, str] = field(default_factory=dict)
    #: plain words a fault class is named by in everyday English (class -> comma-separated
    #: phrases, as :attr:`fault_classes`): "memory", "a missing setting"; they name the class
    #: only beside its catalogue evidence (behaviors rule 600, :mod:`._plain_cause`)
    plain_words: Mapping[str, str] = field(default_factory=dict)


#: the facts a profile's scenario state may carry under keys of its own (``state_facts``):
#: ``oom`` an out-of-memory kill happened to the object; ``baseline`` a metric's normal
#: range (``low-high``, ``<x``, ``>x``); ``injected`` the object the scenario injected the
#: failure into (its value may describe the failure)
STATE_FACTS = ("baseline", "injected", "oom")


def shipped_definitions(package: str, name: str) -> dict[str, str]:
    """The definition digests (:attr:`Evaluators.definitions`) an evaluator set ships in
    its package as JSON (``{"profile", "version", "definitions": {id: digest}}``),
    written from the profile it implements (tests/evaluation/behaviors/definitions_support.py)."""
    data = json.loads(resources.files(package).joinpath(name).read_text(encoding="utf-8"))
    return dict(data["definitions"])


def qualified(namespace: str, behavior_id: str) -> str:
    """The namespaced id of a behavior: ``profile-identifier/behavior_id``."""
    return f"{namespace}/{behavior_id}"
