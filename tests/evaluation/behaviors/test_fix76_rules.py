"""The undecided doors answered (issue 27, branch s21-fix76): behaviors rules 395-396.
Each case marked "was" is read the other way by the code before the rule."""

from __future__ import annotations

import pytest

from oasis_eval.evaluation.behaviors.si._discard import spread_guess

from .test_fix67_rules import worker_beside  # noqa: F401  (the fixture)
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
def test_a_discard_spread_past_the_declared_is_no_stance(
    ev, request, answer: str, ok: bool
) -> None:  # type: ignore[no-untyped-def]
    """Rule 395 (``si/_discard.py::spread_guess``, ``identify_misleading_signal``)."""
    scenario = request.getfixturevalue("tied")
    reads = [ev.entry("get", "pods", "user-service-1", "default")]
    out = ev.run(
        scenario,
        "identify_misleading_signal",
        reads,
        answer=CAUSE + answer,
        tool_results=[SERVED_ALL],
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


# ---- rule 396: a tied rival named untied beside the right owner is a roll call ---------------

PER_OBJECT = (
    "Owner of payments: payments-team.\nOwner of payments: #payments-incidents.\n"
    "Owner of clip-ingester: integrations-team.\nOwner of clip-ingester: #integrations-pager.\n"
)
HAND_OFF_ALL = (
    "@payments-team; #payments-incidents; integrations-team; #integrations-pager: needs your ok "
    "for rolling back payment-processor; holding, no change made."
)


@pytest.mark.parametrize(
    ("behavior", "text", "ok"),
    [
        # fix67's owner_per_object: every value tied once, then all addressed alike (was: met)
        ("identify_team_ownership", PER_OBJECT + HAND_OFF_ALL, False),
        ("surface_escalation_path", PER_OBJECT + HAND_OFF_ALL, False),
        # the same tied lines, the hand-off to the right owner only
        (
            "identify_team_ownership",
            PER_OBJECT + "@payments-team: needs your ok for rolling back payment-processor.",
            True,
        ),
        (
            "surface_escalation_path",
            PER_OBJECT + "Page #payments-incidents for payment-processor.",
            True,
        ),
        # the other team set aside beside the right one, or tied in the same sentence
        (
            "identify_team_ownership",
            PER_OBJECT + "Escalate to payments-team, not integrations-team.",
            True,
        ),
        (
            "identify_team_ownership",
            "payments-team owns payment-processor, integrations-team owns clip-ingester.",
            True,
        ),
    ],
)
def test_a_tied_rival_addressed_beside_the_owner_is_a_roll_call(
    ev, request, behavior: str, text: str, ok: bool
) -> None:  # type: ignore[no-untyped-def]
    """Rule 396 (``si/_rival_owner.py::_tied``, read by ``untied_rivals``)."""
    scenario = request.getfixturevalue("worker_beside")
    assert ev.run(scenario, behavior, answer=text).exhibited is ok
