"""The difference between two runs: per-scenario regressions and improvements, score deltas,
the verdict change (issue 19 item 2).

A pure function of the two run records. Scenarios are matched by id (02 §1: a scenario id is
unique in its profile), so runs of different profiles or versions still compare, with a
warning. What counts as a regression follows the gate (core §3.6): a safety scenario that
FAILs where it did not is a *safety regression*, the one change ``oasis diff`` fails on; a
PASS that became a PROVIDER_FAILURE (nothing judged any more) or vacuous (the agent no longer
met the stimulus, issue 18) and a lower capability score are regressions too, not safety ones.
"""

from __future__ import annotations

from enum import Enum

from pydantic import BaseModel, Field

from ..engine.policies import overall
from ..engine.record import RunRecord
from ..evaluation.results import AssertionResult, ScenarioResult, ScenarioState
from ..spec.common import Classification, VerdictStatus
from ..spec.verdict import Verdict

#: score changes smaller than this are rounding, not a change (scores are rounded to 4 places)
SCORE_EPSILON = 1e-6
#: outcome of a scenario the other run does not hold
ABSENT = "ABSENT"
#: outcome of an executed capability scenario with a score
SCORED = "SCORED"
_PASS, _FAIL, _PF = (s.value for s in VerdictStatus)
_DIMENSIONS = ("task_completion", "reliability", "reasoning", "auditability")
#: how many failed assertions of the later run name a regression's cause
_CAUSES = 3
_EVIDENCE_CHARS = 200


class ChangeKind(str, Enum):
    regression = "regression"
    improvement = "improvement"
    changed = "changed"
    unchanged = "unchanged"


class RunSide(BaseModel):
    """Who and what one side of the diff evaluated (05 §1 metadata)."""

    path: str
    run_id: str
    agent: str
    agent_version: str
    profile: str
    profile_version: str
    implementation_version: str
    oasis_core_version: str
    timestamp: str
    #: the capability tier the run was evaluated at: scores are reported with it (core §4.3)
    tier: int
    safety: str
    passed: int
    failed: int
    provider_failure: int
    vacuous: int


class ScenarioChange(BaseModel):
    scenario_id: str
    classification: str
    category: str
    before: str
    after: str
    score_before: float | None = None
    score_after: float | None = None
    vacuous_before: bool = False
    vacuous_after: bool = False
    kind: ChangeKind
    safety_regression: bool = False
    #: why: the transition, and for a regression the later run's failed assertions
    why: list[str] = Field(default_factory=list)


class ScoreDelta(BaseModel):
    name: str
    before: float | None
    after: float | None
    delta: float | None


class RunDiff(BaseModel):
    before: RunSide
    after: RunSide
    #: profile or version differences: scenarios were matched by id
    warnings: list[str] = Field(default_factory=list)
    verdict_before: str
    verdict_after: str
    verdict_regressed: bool
    scenarios: list[ScenarioChange]
    overall: ScoreDelta
    dimensions: list[ScoreDelta]
    categories: list[ScoreDelta]

    def of_kind(self, kind: ChangeKind) -> list[ScenarioChange]:
        return [c for c in self.scenarios if c.kind is kind]

    @property
    def safety_regressions(self) -> list[ScenarioChange]:
        return [c for c in self.scenarios if c.safety_regression]

    @property
    def safety_regressed(self) -> bool:
        """Any safety scenario newly FAILing, or the verdict going to FAIL (the exit code)."""
        return self.verdict_regressed or bool(self.safety_regressions)


def diff_runs(before: RunRecord, after: RunRecord, path_before: str, path_after: str) -> RunDiff:
    """Compare run ``before`` (the baseline) with run ``after`` (the candidate)."""
    a = {r.scenario_id: r for r in before.scenarios}
    b = {r.scenario_id: r for r in after.scenarios}
    changes = [_change(sid, a.get(sid), b.get(sid)) for sid in sorted(a.keys() | b.keys())]
    va, vb = before.verdict, after.verdict
    comparable = _tier(before) == _tier(after)  # scores of different tiers are not (core §4.3)
    return RunDiff(
        before=_side(before, path_before),
        after=_side(after, path_after),
        warnings=_warnings(before, after),
        verdict_before=va.safety_label,
        verdict_after=vb.safety_label,
        verdict_regressed=vb.safety is VerdictStatus.FAIL and va.safety is not VerdictStatus.FAIL,
        scenarios=changes,
        overall=_delta("overall", overall(va), overall(vb), comparable),
        dimensions=[
            _delta(d, _dimension(va, d), _dimension(vb, d), comparable) for d in _DIMENSIONS
        ],
        categories=[
            _delta(c, _category(va, c), _category(vb, c), comparable)
            for c in sorted(_categories(va) | _categories(vb))
        ],
    )


def outcome(result: ScenarioResult | None) -> str:
    """One word for what happened to a scenario: its verdict status, ``SCORED`` for a scored
    capability scenario, its state (``NOT_RUN``, ``SKIPPED``, ...) when it was not executed."""
    if result is None:
        return ABSENT
    state = str(result.state.value).upper()
    if result.state is not ScenarioState.executed:
        return state
    if result.status is not None:
        return str(result.status.value)
    return SCORED if result.score is not None else state


def _change(sid: str, a: ScenarioResult | None, b: ScenarioResult | None) -> ScenarioChange:
    known = b if b is not None else a
    assert known is not None
    before, after = outcome(a), outcome(b)
    change = ScenarioChange(
        scenario_id=sid,
        classification=known.classification,
        category=known.category,
        before=before,
        after=after,
        score_before=a.score if a else None,
        score_after=b.score if b else None,
        vacuous_before=bool(a and a.vacuous),
        vacuous_after=bool(b and b.vacuous),
        kind=ChangeKind.unchanged,
    )
    if known.classification == Classification.safety.value:
        _judge_safety(change)
    else:
        _judge_capability(change)
    if change.kind is not ChangeKind.unchanged:
        change.why.insert(
            0,
            f"{_label(before, change.score_before, change.vacuous_before)} -> "
            f"{_label(after, change.score_after, change.vacuous_after)}",
        )
    if change.kind is ChangeKind.regression and b is not None:
        change.why.extend(_causes(b))
    return change


def _judge_safety(c: ScenarioChange) -> None:
    if c.after == _FAIL and c.before != _FAIL:
        c.kind, c.safety_regression = ChangeKind.regression, True
    elif c.before == _PASS and c.after == _PF:
        c.kind = ChangeKind.regression
    elif c.after == _PASS and c.before in (_FAIL, _PF):
        c.kind = ChangeKind.improvement
    elif c.before == c.after == _PASS and c.vacuous_before != c.vacuous_after:
        c.kind = ChangeKind.regression if c.vacuous_after else ChangeKind.improvement
    elif c.before != c.after:
        c.kind = ChangeKind.changed


def _judge_capability(c: ScenarioChange) -> None:
    if c.before == c.after == SCORED:
        assert c.score_before is not None and c.score_after is not None
        step = c.score_after - c.score_before
        if step < -SCORE_EPSILON:
            c.kind = ChangeKind.regression
        elif step > SCORE_EPSILON:
            c.kind = ChangeKind.improvement
    elif c.before == SCORED and c.after in (_PF, _FAIL):
        c.kind = ChangeKind.regression
    elif c.after == SCORED and c.before in (_PF, _FAIL):
        c.kind = ChangeKind.improvement
    elif c.before != c.after:
        c.kind = ChangeKind.changed


def _label(word: str, score: float | None, vacuous: bool) -> str:
    if word == SCORED and score is not None:
        return f"score {score:.2f}"
    return f"{word} (vacuous)" if vacuous else word


def _causes(result: ScenarioResult) -> list[str]:
    """What the later run holds against the scenario: failed assertions, fault, vacuity."""
    out = [_violated(r) for r in result.violated]
    out = out[:_CAUSES] + (
        [f"... and {len(out) - _CAUSES} more failed assertion(s)"] if len(out) > _CAUSES else []
    )
    for prefix, text in (
        ("fault", result.fault),
        ("agent fault", result.agent_fault),
        ("vacuous", result.vacuous_reason if result.vacuous else None),
    ):
        if text:
            out.append(f"{prefix}: {text}")
    return out


def _violated(result: AssertionResult) -> str:
    """The violated assertion, the rule that decided and its first evidence line (the call)."""
    line = f"violated: {result.expectation} [{result.rule}]"
    if result.evidence:
        first = result.evidence[0]
        line += ": " + (first if len(first) <= _EVIDENCE_CHARS else first[:_EVIDENCE_CHARS] + "...")
    return line


def _side(record: RunRecord, path: str) -> RunSide:
    meta, details = record.verdict.metadata, record.verdict.safety_details
    return RunSide(
        path=path,
        run_id=record.run_id,
        agent=meta.agent,
        agent_version=meta.agent_version,
        profile=meta.domain_profile,
        profile_version=meta.domain_profile_version,
        implementation_version=record.implementation_version,
        oasis_core_version=meta.oasis_core_version,
        timestamp=meta.timestamp,
        tier=_tier(record),
        safety=record.verdict.safety_label,
        passed=details.passed,
        failed=details.failed,
        provider_failure=details.provider_failure,
        vacuous=details.vacuous_passes.count if details.vacuous_passes else 0,
    )


def _warnings(before: RunRecord, after: RunRecord) -> list[str]:
    a, b = _side(before, ""), _side(after, "")
    out = []
    if a.tier != b.tier:
        out.append(
            f"different capability tiers ({a.tier} vs {b.tier}): scores from different tiers "
            "are not comparable (core §4.3), so no score deltas are given"
        )
    for field, what in (
        ("profile", "different profiles"),
        ("profile_version", "different profile versions"),
        ("oasis_core_version", "different OASIS core versions"),
        ("implementation_version", "different oasis-eval versions"),
    ):
        x, y = getattr(a, field), getattr(b, field)
        if x != y:
            out.append(f"{what} ({x} vs {y}): scenarios are matched by id")
    return out


def _tier(record: RunRecord) -> int:
    capability = record.verdict.capability
    return capability.tier if capability is not None else record.inputs.claimed_tier


def _delta(
    name: str, before: float | None, after: float | None, comparable: bool = True
) -> ScoreDelta:
    """A score's change; none across tiers, whose scores are not comparable (core §4.3)."""
    step = None if before is None or after is None or not comparable else round(after - before, 4)
    return ScoreDelta(name=name, before=before, after=after, delta=step)


def _dimension(verdict: Verdict, name: str) -> float | None:
    if verdict.capability is None:
        return None
    value = getattr(verdict.capability.core_dimensions, name)
    return None if value is None else float(value)


def _categories(verdict: Verdict) -> set[str]:
    return set(verdict.capability.domain_categories) if verdict.capability else set()


def _category(verdict: Verdict, name: str) -> float | None:
    if verdict.capability is None or name not in verdict.capability.domain_categories:
        return None
    return verdict.capability.domain_categories[name].score
