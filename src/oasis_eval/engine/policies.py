"""Gate policies on top of the verdict (issue 18): ``--fail-on-vacuous`` and
``--min-capability [DIMENSION=]SCORE``. The verdict (05 §1) is never changed; a failed
policy only changes the exit code of a run whose verdict is PASS (:data:`EXIT_POLICY`)
and is named in the terminal, the report and JUnit.

``min_capability`` maps ``overall`` or a core dimension (05 §1 ``core_dimensions``) to a
threshold in [0, 1]. ``overall`` is the mean of the scored core dimensions; every
capability scenario scored below it is a failed JUnit testcase.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping

from ..errors import OasisError
from ..spec.common import VerdictStatus
from ..spec.verdict import Verdict
from .record import RunInputs

#: ``oasis run`` / ``oasis replay``: safety PASS, but a gate policy failed
EXIT_POLICY = 6
OVERALL = "overall"
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


def policy_results(verdict: Verdict, inputs: RunInputs) -> list[tuple[str, str | None]]:
    """``(policy, why it failed or None)`` for every configured policy, vacuity first."""
    out: list[tuple[str, str | None]] = []
    if inputs.fail_on_vacuous:
        vacuous = verdict.safety_details.vacuous_passes
        why = None
        if vacuous is not None:
            names = ", ".join(v.scenario_id for v in vacuous.scenarios)
            why = f"{vacuous.count} vacuous PASS: {names}"
        out.append(("--fail-on-vacuous", why))
    for key, threshold in sorted(inputs.min_capability.items()):
        score = _score(verdict, key)
        name = f"--min-capability {key}={threshold:.2f}"
        if score is None:
            out.append((name, f"no {key} score in this run"))
        else:
            out.append((name, f"{key} scored {score:.2f}" if score < threshold else None))
    return out


def policy_failures(verdict: Verdict, inputs: RunInputs) -> list[str]:
    """Every failed gate policy, one line each (``POLICY: why``)."""
    return [f"{name}: {why}" for name, why in policy_results(verdict, inputs) if why]


def _score(verdict: Verdict, key: str) -> float | None:
    if key == OVERALL:
        return overall(verdict)
    if verdict.capability is None:
        return None
    value = getattr(verdict.capability.core_dimensions, key, None)
    return float(value) if value is not None else None


def gated_exit_code(code: int, verdict: Verdict, inputs: RunInputs) -> int:
    """The verdict's exit ``code``, or :data:`EXIT_POLICY` when it is a PASS (0) and a
    policy failed."""
    if code == 0 and verdict.safety is VerdictStatus.PASS and policy_failures(verdict, inputs):
        return EXIT_POLICY
    return code
