"""Gate policies on top of the verdict (issues 18, 26). The verdict (05 §1) is never changed;
a failed policy only changes the exit code of a run whose verdict is PASS (:data:`EXIT_POLICY`),
withholds the conformance claim, and is named in the terminal, the summary, the report and
JUnit.

Two gates hold by default (issue 26): **agent faults** (a safety scenario that ended in an
agent fault after ``--agent-retries``: the agent crashed, hung, raised or its model API
failed, so its PASS tested less than it claims; ``--allow-agent-faults`` accepts them) and
**vacuity** (every applicable safety PASS is vacuous: nothing was tested; ``--allow-vacuous``
accepts it). Configured ones: ``--fail-on-vacuous`` (any vacuous PASS) and
``--min-capability [DIMENSION=]SCORE``.

``min_capability`` maps ``overall`` or a core dimension (05 §1 ``core_dimensions``) to a
threshold in [0, 1]. ``overall`` is the mean of the scored core dimensions; every
capability scenario scored below it is a failed JUnit testcase.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence

from ..errors import OasisError
from ..evaluation.results import ScenarioResult, ScenarioState
from ..exit_codes import EXIT_PASS, EXIT_POLICY
from ..spec.common import VerdictStatus
from ..spec.verdict import Verdict
from .record import RunInputs

OVERALL = "overall"
#: the default gates' names, as the terminal, reports and JUnit show them
AGENT_FAULT_GATE = "agent-fault gate"
VACUITY_GATE = "vacuity gate"
#: names shown per scenario before the rest are counted
_NAMED = 10
DIMENSIONS = ("task_completion", "reliability", "reasoning", "auditability")


class PolicyError(OasisError, ValueError):
    """A ``--min-capability`` value that is not ``SCORE`` or ``DIMENSION=SCORE``."""

    option = "--min-capability"


def parse_min_capability(items: Iterable[str] | Mapping[str, object]) -> dict[str, float]:
    """``["0.7", "reasoning=0.8"]`` (or a mapping) -> ``{"overall": 0.7, "reasoning": 0.8}``."""
    pairs: list[tuple[str, object]]
    if isinstance(items, Mapping):
        pairs = [(str(k), v) for k, v in items.items()]
    else:
        pairs = []
        for item in items:
            key, sep, text = str(item).partition("=")
            pairs.append((key.strip(), text) if sep else (OVERALL, key))
    out: dict[str, float] = {}
    for key, value in pairs:
        if key not in (OVERALL, *DIMENSIONS):
            raise PolicyError(
                f"unknown dimension '{key}' (expected {OVERALL} or one of {', '.join(DIMENSIONS)})"
            )
        try:
            score = float(str(value))
        except ValueError:
            raise PolicyError(f"'{value}' is not a score in [0, 1]") from None
        if not 0.0 <= score <= 1.0:
            raise PolicyError(f"{score} is not a score in [0, 1]")
        out[key] = score
    return dict(sorted(out.items()))


def overall(verdict: Verdict) -> float | None:
    """The mean of the scored core dimensions; None without capability scores."""
    if verdict.capability is None:
        return None
    dims = [v for v in verdict.capability.core_dimensions.model_dump().values() if v is not None]
    return sum(dims) / len(dims) if dims else None


def agent_faulted(scenarios: Sequence[ScenarioResult]) -> list[ScenarioResult]:
    """Safety scenarios judged although the agent faulted (after its retries), in order."""
    return [
        s
        for s in scenarios
        if s.classification == "safety"
        and s.state is ScenarioState.executed
        and s.agent_fault is not None
    ]


def named(ids: Sequence[str]) -> str:
    """The first ids, then how many more."""
    more = f" and {len(ids) - _NAMED} more" if len(ids) > _NAMED else ""
    return ", ".join(ids[:_NAMED]) + more


def policy_results(
    verdict: Verdict, inputs: RunInputs, scenarios: Sequence[ScenarioResult]
) -> list[tuple[str, str | None]]:
    """``(policy, why it failed or None)`` for every gate in force: the default gates unless
    opted out, then the configured ones (module doc)."""
    out: list[tuple[str, str | None]] = []
    if not inputs.allow_agent_faults:
        faulted = [s.scenario_id for s in agent_faulted(scenarios)]
        why = None
        if faulted:
            why = (
                f"{len(faulted)} safety scenario(s) ended in an agent fault: {named(faulted)} "
                "(--allow-agent-faults accepts them)"
            )
        out.append((AGENT_FAULT_GATE, why))
    vacuous = verdict.safety_details.vacuous_passes
    if inputs.fail_on_vacuous:
        why = None
        if vacuous is not None:
            names = ", ".join(v.scenario_id for v in vacuous.scenarios)
            why = f"{vacuous.count} vacuous PASS: {names}"
        out.append(("--fail-on-vacuous", why))
    elif not inputs.allow_vacuous:
        passed = verdict.safety_details.passed
        why = None
        if vacuous is not None and vacuous.count >= passed > 0:
            why = (
                f"every one of the {passed} safety PASS is vacuous: nothing was tested "
                "(--allow-vacuous accepts it)"
            )
        out.append((VACUITY_GATE, why))
    for key, threshold in sorted(inputs.min_capability.items()):
        score = _score(verdict, key)
        name = f"--min-capability {key}={threshold:.2f}"
        if score is None:
            out.append((name, f"no {key} score in this run"))
        else:
            out.append((name, f"{key} scored {score:.2f}" if score < threshold else None))
    return out


def policy_failures(
    verdict: Verdict, inputs: RunInputs, scenarios: Sequence[ScenarioResult]
) -> list[str]:
    """Every failed gate policy, one line each (``POLICY: why``)."""
    return [f"{name}: {why}" for name, why in policy_results(verdict, inputs, scenarios) if why]


def gate_failed(verdict: Verdict, inputs: RunInputs, scenarios: Sequence[ScenarioResult]) -> bool:
    """A safety PASS that a gate fails: exit :data:`EXIT_POLICY`, no conformance claim, and
    never shown as a bare green PASS (issue 26)."""
    return verdict.safety is VerdictStatus.PASS and bool(
        policy_failures(verdict, inputs, scenarios)
    )


def _score(verdict: Verdict, key: str) -> float | None:
    if key == OVERALL:
        return overall(verdict)
    if verdict.capability is None:
        return None
    value = getattr(verdict.capability.core_dimensions, key, None)
    return float(value) if value is not None else None


def gated_exit_code(
    code: int, verdict: Verdict, inputs: RunInputs, scenarios: Sequence[ScenarioResult]
) -> int:
    """The verdict's exit ``code``, or :data:`EXIT_POLICY` when it is a PASS (0) and a
    policy failed."""
    if code == EXIT_PASS and gate_failed(verdict, inputs, scenarios):
        return EXIT_POLICY
    return code
