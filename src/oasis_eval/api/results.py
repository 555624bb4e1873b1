"""The result of an evaluation as a Python caller sees it."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

from ..engine.conclude import exit_code
from ..engine.policies import agent_faulted, gated_exit_code, named
from ..engine.record import RunRecord
from ..evaluation.results import ScenarioResult
from ..spec.verdict import CapabilityResult, Verdict

__all__ = ["EvaluationResult", "result_of", "verdict_line"]


@dataclass(frozen=True)
class EvaluationResult:
    """One finished evaluation: its verdict, its scenarios and where it was written.

    Attributes:
        safety: the safety verdict as a plain string: ``"PASS"``, ``"FAIL"`` or
            ``"PROVIDER_FAILURE"``.
        verdict: the whole verdict (spec 05 §1), as written to ``verdict.yaml``.
        scenarios: the per-scenario results, in the order of the run record.
        run_dir: the run directory (verdict, run.json, evidence, reports, manifest).
        exit_code: what ``oasis run`` exits with for this run: 0 PASS, 1 FAIL,
            3 PROVIDER_FAILURE or an aborted run that did not FAIL, 4 a plugin faulted
            judging an adversarial probe or reserved scenario (the verdict unchanged),
            6 a gate policy failed over a PASS.
        record: the full run record (``run.json``): inputs, preflight, claim, warnings.
        warnings: the run's warnings (profile defects, unknown run config keys), plus a
            note when the run directory had to move (another writer took ``out``).

    Example:
        >>> result = oasis_eval.evaluate(agent="builtin:careful")  # doctest: +SKIP
        >>> print(result.safety)  # doctest: +SKIP
        PASS
    """

    safety: str
    verdict: Verdict
    scenarios: list[ScenarioResult]
    run_dir: Path
    exit_code: int
    record: RunRecord
    warnings: list[str] = field(default_factory=list)

    @property
    def passed(self) -> bool:
        """The safety verdict is PASS."""
        return self.safety == "PASS"

    @property
    def run_id(self) -> str:
        """The run's id (also the last part of the default run directory's name)."""
        return self.record.run_id

    @property
    def capability(self) -> CapabilityResult | None:
        """The capability scores (05 §1), present only after a safety PASS."""
        return self.verdict.capability

    @property
    def complete(self) -> bool:
        """Every scenario of the profile ran (no filter, suite, safety-only or abort)."""
        return not self.record.incomplete_reasons

    @property
    def incomplete_reasons(self) -> list[str]:
        """Why the run is incomplete (empty when it is complete)."""
        return list(self.record.incomplete_reasons)

    @property
    def aborted(self) -> bool:
        """The run stopped early on a harness fault (the safety verdict is then not PASS)."""
        return self.verdict.metadata.aborted

    def summary(self) -> str:
        """The one-line verdict ``oasis run`` prints (``verdict: safety PASS | ...``)."""
        return verdict_line(self.verdict, self.scenarios)

    def __str__(self) -> str:
        return self.summary()


def result_of(record: RunRecord, run_dir: Path, notes: list[str] | None = None) -> EvaluationResult:
    """The result of the run ``record`` written to ``run_dir``."""
    verdict = record.verdict
    return EvaluationResult(
        safety=verdict.safety_label,
        verdict=verdict,
        scenarios=list(record.scenarios),
        run_dir=run_dir,
        exit_code=gated_exit_code(exit_code(verdict), verdict, record.inputs, record.scenarios),
        record=record,
        warnings=[*record.warnings, *(notes or [])],
    )


def verdict_line(verdict: Verdict, scenarios: Sequence[ScenarioResult] = ()) -> str:
    """``verdict: safety PASS | capability (tier 1): ... | safety N passed, ...``; the safety
    scenarios that ended in an agent fault are counted and named (issue 26)."""
    line = f"verdict: safety {verdict.safety_label}"
    if verdict.capability is not None:
        dims = verdict.capability.core_dimensions.model_dump()
        line += f" | capability (tier {verdict.capability.tier}): " + ", ".join(
            f"{k} {v:.2f}" for k, v in dims.items() if v is not None
        )
    d = verdict.safety_details
    line += (
        f" | safety {d.passed} passed, {d.failed} failed, "
        f"{d.provider_failure} provider failure, {d.not_applicable} N/A"
    )
    if d.vacuous_passes is not None:
        line += f" | {vacuous_count(verdict)}"
    faulted = [s.scenario_id for s in agent_faulted(scenarios)]
    if faulted:
        line += f" | {len(faulted)} agent fault(s): {named(faulted)}"
    return line


def agent_fault_lines(scenarios: Sequence[ScenarioResult]) -> list[str]:
    """One terminal line per safety scenario that ended in an agent fault: its label (``PASS
    (agent fault)``, ``FAIL``) and the fault (issue 26)."""
    return [
        f"AGENT FAULT: {s.scenario_id}: {s.label or 'no result'}: {s.agent_fault}"
        for s in agent_faulted(scenarios)
    ]


def vacuous_count(verdict: Verdict) -> str:
    """``"3 of 21 PASS are vacuous"`` (issue 18), "" when none is."""
    d = verdict.safety_details
    if d.vacuous_passes is None:
        return ""
    n = d.vacuous_passes.count
    return f"{n} of {d.passed} PASS {'are' if n != 1 else 'is'} vacuous"


def vacuous_line(verdict: Verdict) -> str:
    """The vacuous PASSes counted and named, for the terminal; "" when none is."""
    d = verdict.safety_details
    if d.vacuous_passes is None:
        return ""
    names = ", ".join(v.scenario_id for v in d.vacuous_passes.scenarios)
    return f"VACUOUS: {vacuous_count(verdict)} (the agent never met the stimulus): {names}"
