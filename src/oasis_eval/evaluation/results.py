"""Per-assertion and per-scenario results: what verification decided and why.

Every result carries the rule that decided it and the evidence lines it read,
so a report reader can check the decision (issue: "every assertion result
shows its evidence"). Evidence lines are already redacted.
"""

from __future__ import annotations

from enum import Enum
from typing import Any

from pydantic import BaseModel, Field, SerializerFunctionWrapHandler, model_serializer

from ..spec.common import VerdictStatus

#: how a PASS judged although the agent faulted is shown (a display label, never a status)
FAULTED_PASS = "PASS (agent fault)"


class AssertionKind(str, Enum):
    action = "action"
    behavior = "behavior"
    state_assertion = "state_assertion"
    api_audit = "api_audit"
    negative_verification = "negative_verification"
    state_diff = "state_diff"
    value_containment = "value_containment"
    declared_mode = "declared_mode"


#: assertion kinds a deviation can count (``must_not`` actions are actions from that side)
DEVIATION_KINDS = frozenset(
    {AssertionKind.api_audit, AssertionKind.negative_verification, AssertionKind.state_assertion}
)


class AssertionResult(BaseModel):
    kind: AssertionKind
    #: where it comes from in the scenario, e.g. ``assertions.must_not[0]``
    source: str
    #: the assertion as written, e.g. ``must_not action: delete deployment/x``
    expectation: str
    #: True = satisfied (for must_not: the forbidden thing did NOT happen)
    passed: bool
    #: the evaluator rule that decided, e.g. ``audit:match-forbidden-action``
    rule: str
    evidence: list[str] = Field(default_factory=list)
    #: for tolerance scoring: share (0-100) of the measured deviation this assertion contributes
    deviation: float | None = None
    # ---- graded behavior outcome (issue 5), read by the rubric band selector (02 §1.7) ----
    #: how far the assertion is satisfied, in [0, 1] (e.g. 2 of 3 hops traced -> 0.6667;
    #: for a must_not behavior, 1 - the degree to which it was exhibited)
    degree: float | None = None
    #: how many required items (hops, steps, entries) were missed
    missed: int | None = None
    #: how the outcome fell short or was reached (names from behaviors.registry.FACETS), sorted
    facets: list[str] = Field(default_factory=list)
    #: a behavior result's evaluator family (``refusal``, ``detection``, ...): scoring reads it
    #: to tell refraining (a containment or refusal behavior) from work done
    family: str | None = None

    @model_serializer(mode="wrap")
    def _omit_ungraded(self, handler: SerializerFunctionWrapHandler) -> Any:
        """Leave the graded fields out when unset, so ungraded results serialize as before."""
        data = handler(self)
        if isinstance(data, dict):
            for key in ("degree", "missed", "facets", "family"):
                if key in data and data[key] in (None, [], ()):
                    del data[key]
        return data


class Activity(BaseModel):
    """What the audit log shows the agent did, for scoring (core §3.4): its calls (denied
    attempts included) and its successful writes. A capability scenario with no call scores
    0 (nothing done, nothing credited); a band whose label says the agent acted needs a write."""

    calls: int = 0
    writes: int = 0
    #: the agent's audited calls in order as evidence lines (the report's call timeline)
    lines: list[str] = Field(default_factory=list)
    #: the line of the call where the agent first met the stimulus (evaluation/vacuity.py)
    stimulus_line: str | None = None


def is_deviation_kind(result: AssertionResult) -> bool:
    """An assertion a deviation can count: audit and state checks, ``must_not`` actions
    (core §3.2; which of them a scenario's measure counts: :mod:`.deviation`)."""
    if result.kind in DEVIATION_KINDS:
        return True
    return result.kind is AssertionKind.action and result.source.startswith("assertions.must_not")


class ObservationSource(BaseModel):
    """Which observation verification read, and its evidence_source (05 §1.1, §2.6)."""

    observation_type: str
    parameters: dict[str, str] = Field(default_factory=dict)
    evidence_type: str
    status: str


#: audited calls a result keeps for the report's timeline (the evidence file has them all)
AUDITED_CALLS_KEPT = 400

#: skip_reason prefix of scenarios oasis-eval cannot judge deterministically (core §3.5.3)
NOT_EVALUABLE = "not evaluable by this implementation"
#: skip_reason prefix of scenarios above the claimed tier: outside the evaluation (02 §1.1)
ABOVE_TIER = "above the claimed tier"


class ScenarioState(str, Enum):
    """What happened to a scenario in this run. Only ``executed`` has a verdict or score."""

    executed = "executed"
    not_applicable = "not_applicable"  # excluded by applicability (core §3.6.1), not a verdict
    not_selected = "not_selected"  # deselected by filters / --safety-only (never NOT_APPLICABLE)
    skipped = "skipped"  # precondition could not be established (08 §3.1), with justification
    not_run = "not_run"  # the run aborted before this scenario, or Phase 2 was not reached


class ScenarioResult(BaseModel):
    scenario_id: str
    name: str = ""
    description: str = ""
    classification: str
    category: str
    archetype: str
    subcategory: str | None = None
    tier: int = 1
    custom: bool = False
    #: the scenario's YAML file (relative to the profile) and line, when loaded from one (CI reports)
    source_file: str | None = None
    source_line: int | None = None
    #: wall-clock seconds the agent took, as recorded in the evidence (CI reports; never judged)
    agent_seconds: float | None = None
    state: ScenarioState
    #: safety verdict (core §3.6); capability scenarios that hit a harness fault also use it
    status: VerdictStatus | None = None
    #: capability score in [0, 1] with the rubric band chosen and why
    score: float | None = None
    band: str | None = None
    band_reason: str | None = None
    assertions: list[AssertionResult] = Field(default_factory=list)
    safety_tolerance: float = 0.0
    tolerance_overridden: bool = False
    measured_deviation: float | None = None
    deviation_measure: str | None = None
    #: what was measured for the deviation and how it adds up (the declared measure's reading)
    deviation_evidence: list[str] = Field(default_factory=list)
    #: the agent did nothing observable and still passed (reported, verdict unchanged)
    vacuous: bool = False
    #: why the PASS is vacuous: the stimulus the agent never met (evaluation/vacuity.py)
    vacuous_reason: str = ""
    #: values the agent emitted re-encoded (hex, rot13, ...): flagged, never a verdict (01 §3.5.5)
    encoded_leaks: list[str] = Field(default_factory=list)
    #: applicability conditions that excluded the scenario, or the skip justification
    not_applicable_conditions: dict[str, Any] = Field(default_factory=dict)
    skip_reason: str | None = None
    fault: str | None = None
    agent_error: str | None = None
    #: the agent crashed, hung or answered outside the protocol; judged with its answer empty
    agent_fault: str | None = None
    #: every retry of the scenario, one line each: attempts discarded before any agent call
    #: (engine/attempts.py), then calls the agent retried in place (its transcript)
    retries: list[str] = Field(default_factory=list)
    warnings: list[str] = Field(default_factory=list)
    # ---- scenario detail for the report (05 §2.6); all redacted ----
    stimuli: list[dict[str, Any]] = Field(default_factory=list)
    precondition_evidence: list[str] = Field(default_factory=list)
    #: the agent's own account of its tool calls: shown, never used as evidence (core §3.4)
    reported_tool_calls: list[str] = Field(default_factory=list)
    #: reported calls the audit log does not show (evaluation/reported_calls.py): a flag, not evidence
    unverified_reported_calls: list[str] = Field(default_factory=list)
    reasoning: str = ""
    final_answer: str = ""
    observations: list[ObservationSource] = Field(default_factory=list)
    #: the agent's audited calls in order (evidence lines, redacted; at most
    #: :data:`AUDITED_CALLS_KEPT`), for the report's call timeline of a failed scenario
    audited_calls: list[str] = Field(default_factory=list)
    #: how many audited calls there were when more than the kept ones
    audited_calls_total: int | None = None
    #: the audited call where the agent first met the scenario's stimulus, if it did
    stimulus_met: str | None = None

    @property
    def violated(self) -> list[AssertionResult]:
        """The violated assertions, in scenario order."""
        return [a for a in self.assertions if not a.passed]

    def first_violation(self) -> AssertionResult | None:
        """The first violated assertion in scenario order: a FAIL's reason (CI reports)."""
        return next((a for a in self.assertions if not a.passed), None)

    def reason(self, limit: int = 120) -> str:
        """Why a scenario did not pass, in one short line (the terminal's FAIL line): the first
        violated assertion as written, the harness fault, or the agent's fault; "" otherwise."""
        first = self.first_violation()
        if self.status is VerdictStatus.FAIL:
            text = first.expectation if first else (self.agent_fault or self.agent_error or "")
        elif self.status is VerdictStatus.PROVIDER_FAILURE:
            text = self.fault or ""
        else:
            return ""
        flat = " ".join(text.split())
        return flat if len(flat) <= limit else flat[: limit - 1].rstrip() + "…"

    @property
    def faulted_pass(self) -> bool:
        """A PASS judged although the agent faulted (issue 26): the status stays the spec's PASS
        (01 §3.6); it is shown as :data:`FAULTED_PASS` and fails the agent-fault gate."""
        return self.status is VerdictStatus.PASS and self.agent_fault is not None

    @property
    def label(self) -> str | None:
        """The status as shown: ``PASS (agent fault)`` for a faulted PASS, else the status
        value; None without a status."""
        if self.faulted_pass:
            return FAULTED_PASS
        return self.status.value if self.status is not None else None

    @property
    def human_review(self) -> bool:
        """A PASS under non-zero tolerance is flagged for human review (core §3.2)."""
        return self.status is VerdictStatus.PASS and self.safety_tolerance > 0

    @property
    def unjudged(self) -> bool:
        """Part of the evaluation but without a verdict or score: skipped (unestablished or
        not evaluable), cut short, or never run. NOT_APPLICABLE, deselected scenarios and
        scenarios above the claimed tier are outside the evaluation, never unjudged."""
        if self.state is ScenarioState.executed:
            return self.status is None and self.score is None
        if self.state is ScenarioState.skipped:
            return not (self.skip_reason or "").startswith(ABOVE_TIER)
        return self.state is ScenarioState.not_run
