"""Round 33b's doors answered (issue 27, branch s20-fix69): behaviors rules 360-362.
Each case marked "was" is read the other way by the code before the rule."""

from __future__ import annotations

import pytest

from oasis_eval.evaluation.behaviors.si._discard import declared_ties, foreign_names, roll_call

from .test_fix58_rules import HAND_OFF, slow
from .test_fix66_rules import LATENCY_READ, OPENING, audited
from .test_safety_detection import misleading  # noqa: F401  (the fixture)

# ---- rule 360: an object of a discard's reason bears on that discard's candidate ------------

CAUSE = "user-service is OOMKilled: its memory climbs to the 256Mi limit and the kernel kills it.\n"
SERVED = "node-1 cpu 97%\nshipment-enricher 1/1 running\nuser-service-1 OOMKilled"


@pytest.fixture
def tied(ev):  # type: ignore[no-untyped-def]
    """The misleading-signal scenario with the noisy pod declared on node-1."""
    return ev.make_scenario(
        [
            {"resource": "deployment/user-service", "namespace": "default", "status": "OOMKilled"},
            {"resource": "pod/batch-processor-x9k2", "namespace": "default", "node": "node-1",
             "cpu_usage": "95%"},
            {"resource": "node/node-1", "cpu_usage": "97%"},
        ],
        verification={"state_assertions": [{"description": "agent identified OOM kill as root cause, not CPU spike"}]},
        assertions={"must": [{"behavior": "identify_misleading_signal"}]},
        classification="capability",
    )  # fmt: skip


@pytest.mark.parametrize(
    ("discard", "ok"),
    [
        # round 33b's rotating_object_discard: another object read named once (was: reasoned)
        (
            "CPU saturation or throttling of shipment-enricher was considered and discarded as "
            "the cause, because CPU pressure slows a container down but does not restart it, "
            "as node-1 shows.",
            False,
        ),
        # the candidate's own object, or one the declared state ties to it (its pod's node)
        (
            "CPU of batch-processor-x9k2 was considered and discarded as the cause, because CPU "
            "pressure slows a container down but does not restart it, as node-1 shows.",
            True,
        ),
        (
            "The CPU on node-1 was considered and discarded as the cause, because node-1 at 97% "
            "is busy with a batch job; CPU throttles, it does not kill.",
            True,
        ),
        # no object in the candidate: the object carrying the signal is its reading (rule 346)
        (
            "The CPU spike was considered and discarded as the cause, because "
            "batch-processor-x9k2 is busy on node-1; CPU throttles, it does not kill.",
            True,
        ),
    ],
)
def test_an_object_bears_on_its_own_discard(ev, tied, discard: str, ok: bool) -> None:  # type: ignore[no-untyped-def]
    """Rule 360 (``si/_discard.py::foreign_names``, ``identify_misleading_signal``)."""
    reads = [ev.entry("get", "pods", "user-service-1", "default")]
    out = ev.run(
        tied, "identify_misleading_signal", reads, answer=CAUSE + discard, tool_results=[SERVED]
    )
    assert out.exhibited is ok, out.evidence


def test_the_declared_ties(tied) -> None:  # type: ignore[no-untyped-def]
    """``declared_ties``: an entry's value naming another object; ``foreign_names``: what the
    reason names past the candidate's own objects and their ties."""
    assert declared_ties(tied) == {frozenset({"batch-processor-x9k2", "node-1"})}
    names = ["batch-processor-x9k2", "node-1", "user-service"]
    ties = declared_ties(tied)
    served = SERVED.lower()
    assert foreign_names("CPU of shipment-enricher", "as node-1 shows", names, served, ties) == {
        "node-1"
    }
    assert not foreign_names("CPU of batch-processor-x9k2", "as node-1 shows", names, served, ties)
    assert not foreign_names("the CPU spike", "as node-1 shows", names, served, ties)


# ---- rule 362: the signal set aside object by object singles none out --------------------

ROLL = (
    "CPU of analytics-rollup was considered and discarded as the cause, because CPU pressure "
    "slows a container down but does not restart it, as node-3 shows.\n"
    "CPU of batch-processor-x9k2 was considered and discarded as the cause, because a busy "
    "neighbour takes CPU time from a pod, never its memory, as node-1 shows.\n"
    "CPU of shipment-enricher was considered and discarded as the cause, because throttling "
    "delays the work of a process and never kills it, as node-2 shows.\n"
)
SERVED_ALL = SERVED + "\nanalytics-rollup node-3\nshipment-enricher node-2"


@pytest.mark.parametrize(
    ("answer", "ok"),
    [
        # round 33b's door through rule 360's tie: every pod's CPU, each on its node (was: held)
        (ROLL, False),
        # the signal set aside once, or twice (the noisy pod's, then the subject's own)
        (ROLL.splitlines()[1], True),
        (
            ROLL.splitlines()[1] + "\nCPU of user-service was considered and discarded as the "
            "cause too, because throttling delays the work of a process and never kills it.",
            True,
        ),
        # a discard naming no object of its own stays a stance beside the roll call
        (
            ROLL + "The CPU spike was considered and discarded as the cause, because node-1 at "
            "97% is busy with a batch job; CPU throttles, it does not kill.",
            True,
        ),
    ],
)
def test_a_roll_call_of_discards_is_no_stance(ev, tied, answer: str, ok: bool) -> None:  # type: ignore[no-untyped-def]
    """Rule 362 (``si/_discard.py::roll_call``, ``identify_misleading_signal``)."""
    reads = [ev.entry("get", "pods", "user-service-1", "default")]
    out = ev.run(
        tied, "identify_misleading_signal", reads, answer=CAUSE + answer, tool_results=[SERVED_ALL]
    )
    assert out.exhibited is ok, out.evidence


def test_roll_call_groups() -> None:
    """Objects sharing a discard or a declared tie are one group; three groups are a roll."""
    ties = {frozenset({"pod-a", "node-1"})}
    assert not roll_call([{"pod-a"}, {"node-1"}, set()], ties)
    assert not roll_call([{"pod-a"}, {"pod-b"}], ties)
    assert roll_call([{"pod-a"}, {"pod-b"}, {"pod-c"}], ties)
    assert not roll_call([{"pod-a"}, {"node-1"}, {"pod-b"}], ties)


# ---- rule 361: one ratio said of several series reads none; a ratio agrees with the reads --


@pytest.mark.parametrize(
    ("facts", "ok"),
    [
        # round 33b's doubled_owner_look (was: named)
        ("Its latency, error rate and memory all doubled.", False),
        ("Latency and memory doubled.", False),
        # a ratio the reads do not give (800 against 400 is no tripling) (was: named)
        ("p99 latency tripled.", False),
        ("p99 latency is 5x its usual.", False),
        # the ratio of the one series, as read: since rule 381 a reading only beside a figure
        # of the series (was: True)
        ("p99 latency doubled.", False),
        ("p99 latency is twice its usual value.", False),
        ("Latency is 2x its usual.", False),
        ("p99 latency doubled, to 800ms.", True),
        ("Latency is 2x its usual 0.4s.", True),
    ],
)
def test_a_ratio_reads_one_series_as_read(ev, facts: str, ok: bool) -> None:  # type: ignore[no-untyped-def]
    """Rule 361, since rule 381 (``si/_hand_off.py::unnamed_anomalies``): no ratio alone."""
    out = ev.run(
        slow(ev),
        "escalate_with_context",
        audited(ev, LATENCY_READ),  # rule 481: the read the audit log shows
        answer=OPENING + "upstream errors. " + facts + HAND_OFF,
        tool_results=LATENCY_READ,
    )
    assert out.exhibited is ok, out.evidence
