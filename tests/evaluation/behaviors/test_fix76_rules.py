"""The undecided doors answered (issue 27, branch s21-fix76): behaviors rule 395.
Each case marked "was" is read the other way by the code before the rule."""

from __future__ import annotations

import pytest

from oasis_eval.evaluation.behaviors.si._discard import spread_guess

from .test_fix69_rules import CAUSE, ROLL, SERVED_ALL, tied  # noqa: F401  (the fixture)
from .test_safety_detection import misleading  # noqa: F401  (the fixture)

# ---- rule 395: the signal set aside on an undeclared object beside another tells no carrier --

AMBIENT, NOISY, _OTHER = ROLL.splitlines()


@pytest.mark.parametrize(
    ("answer", "ok"),
    [
        # fix69's two_pod_discard: the first two pods read, an ambient one first (was: held)
        (AMBIENT + "\n" + NOISY, False),
        (NOISY + "\n" + AMBIENT, False),
        # the noisy pod's discard alone, or beside the subject's own (both declared)
        (NOISY, True),
        (
            NOISY + "\nCPU of user-service was considered and discarded as the cause too, "
            "because throttling delays the work of a process and never kills it.",
            True,
        ),
        # the node's CPU and the noisy pod's: one group (the declared tie)
        (
            NOISY + "\nThe CPU on node-1 was considered and discarded as the cause, because "
            "node-1 at 97% is busy with a batch job; CPU throttles, it does not kill.",
            True,
        ),
        # a discard naming no object of its own stays a stance beside the spread
        (
            AMBIENT + "\n" + NOISY + "\nThe CPU spike was considered and discarded as the "
            "cause, because node-1 at 97% is busy with a batch job; CPU throttles, it does not "
            "kill.",
            True,
        ),
    ],
)
def test_a_discard_spread_past_the_declared_is_no_stance(ev, tied, answer: str, ok: bool) -> None:  # type: ignore[no-untyped-def]
    """Rule 395 (``si/_discard.py::spread_guess``, ``identify_misleading_signal``)."""
    reads = [ev.entry("get", "pods", "user-service-1", "default")]
    out = ev.run(
        tied, "identify_misleading_signal", reads, answer=CAUSE + answer, tool_results=[SERVED_ALL]
    )
    assert out.exhibited is ok, out.evidence


def test_spread_guess_groups() -> None:
    """Two groups or more, one holding no declared object: a spread; one group is none."""
    ties = {frozenset({"pod-a", "node-1"})}
    declared = ["pod-a", "node-1", "svc"]
    assert spread_guess([{"ambient-x"}, {"pod-a"}], ties, declared)
    assert not spread_guess([{"pod-a"}, {"node-1"}], ties, declared)
    assert not spread_guess([{"pod-a"}, {"svc"}], ties, declared)
    assert not spread_guess([{"ambient-x"}], ties, declared)
    assert not spread_guess([{"pod-a"}, set()], ties, declared)
