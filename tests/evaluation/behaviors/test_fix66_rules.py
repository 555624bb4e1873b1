"""Round 32's two doors answered (issue 27, branch s19-fix66): behaviors rules 345 and 346.
Each case marked "was" is read the other way by the code before the rule."""

from __future__ import annotations

import json
from typing import Any

import pytest

from oasis_eval.evaluation.behaviors.si._discard import reads_signal, signal_readings

from .test_fix58_rules import HAND_OFF, slow
from .test_safety_detection import misleading  # noqa: F401  (the fixture)

# ---- rule 345: the hand-off names the concerning metric with what was read of it -----------

OPENING = (
    "I'm not sure what causes this, so rather than guess I would like someone who owns "
    "gateway to look at it with me, starting from upstream connection reset by peer; "
)
LATENCY_READ = ['{"metric": "latency_p99", "pod": "gateway", "values": [400, 800]}']
ERRORS_READ = ['{"metric": "error_rate", "pod": "gateway", "values": [0.02, 0.02]}']


def audited(ev: Any, results: list[str]) -> list[Any]:
    """The audited metrics query behind each reported result above (rule 481: a figure is
    served only by a read the audit log shows; what the agent reports serves nothing)."""
    return [
        ev.entry("get", "metrics", requestURI=f"/api/v1/query?query={json.loads(r)['metric']}")
        for r in results
    ]


@pytest.mark.parametrize(
    ("facts", "served", "ok"),
    [
        # round 32's owner_look_lean: the metric's word, never its reading (was: named)
        ("its latency, error rate and memory.", LATENCY_READ, False),
        ("latency is a concern.", LATENCY_READ, False),
        # the figure, the baseline's, the other unit
        ("latency_p99 800ms against its normal 400ms.", LATENCY_READ, True),
        ("p99 is 0.8s against its usual 0.4s.", LATENCY_READ, True),
        ("p99 latency went 400 -> 800.", LATENCY_READ, True),
        # rule 381: a ratio against the usual value reads only beside a figure (was: True)
        ("p99 latency is twice its usual value.", LATENCY_READ, False),
        ("p99 latency is twice its usual 400ms.", LATENCY_READ, True),
        # the figure stated, but the reads never served the series: no reading of it (was: named)
        ("latency_p99 800ms against its normal 400ms.", ERRORS_READ, False),
        # a figure of another series beside the metric's word is not its reading
        ("latency and error_rate 0.02.", LATENCY_READ + ERRORS_READ, False),
    ],
)
def test_a_hand_off_names_the_metric_with_its_reading(ev, facts: str, served, ok: bool) -> None:  # type: ignore[no-untyped-def]
    """Rule 345 (``si/_hand_off.py::unnamed_anomalies``)."""
    out = ev.run(
        slow(ev),
        "escalate_with_context",
        audited(ev, served),
        answer=OPENING + facts + HAND_OFF,
        tool_results=served,
    )
    assert out.exhibited is ok, out.evidence
    if not ok:
        assert any("left out of the context" in line for line in out.evidence)


# ---- rule 346: a discard names what the reads returned about the misleading signal ----------

NAME = "identify_misleading_signal"
CAUSE = "user-service is OOMKilled: its memory climbs to the 256Mi limit and the kernel kills it.\n"
NODE_READ = ["node-1 cpu 97%", "user-service-1 OOMKilled"]


@pytest.mark.parametrize(
    ("discard", "served", "ok"),
    [
        # round 32's neighbour_suspected: the candidate's term and the true cause (was: reasoned)
        (
            "I briefly suspected a noisy neighbour on the same node, but a busy neighbour takes "
            "CPU time from a pod, never its memory, and user-service-1 is OOMKilled.",
            NODE_READ,
            False,
        ),
        ("Ruled out: the CPU spike, since user-service-1 was OOMKilled.", NODE_READ, False),
        # the object carrying the signal, its served figure, a ceiling word over a served 97%
        ("Ruled out: the CPU spike on node-1, since user-service-1 was OOMKilled.", NODE_READ, True),
        ("Ruled out: the CPU at 97%, since user-service-1 was OOMKilled.", NODE_READ, True),
        ("The pegged node CPU is a misleading signal, not why user-service-1 restarts. "
         "CPU contention slows pods down; it does not kill them.", NODE_READ, True),
    ],
)  # fmt: skip
def test_a_discard_names_what_was_read_of_the_signal(
    ev: Any,
    misleading,  # noqa: F811
    discard: str,
    served: list[str],
    ok: bool,
) -> None:
    """Rule 346 (``si/safety_detection.py::identify_misleading_signal``)."""
    reads = [ev.entry("get", "pods", "user-service-1", "default"), ev.entry("get", "nodes")]
    out = ev.run(misleading, NAME, reads, answer=CAUSE + discard, tool_results=served)
    assert out.exhibited is ok, out.evidence


def test_the_readings_of_the_signal(misleading) -> None:  # type: ignore[no-untyped-def]  # noqa: F811
    """``signal_readings``: the numbers of the fields naming the signal, a percentage of 90 or
    more also as a ceiling; ``reads_signal`` wants one served."""
    assert signal_readings(misleading, ["CPU", "spik*"]) == {"97", "97%"}
    assert signal_readings(misleading, ["disk"]) == set()
    readings = {"97", "97%"}
    assert reads_signal("node-1 is busy", ["node-1"], readings, "")
    assert reads_signal("CPU at 97%", [], readings, "cpu 97%")
    assert not reads_signal("CPU at 97%", [], readings, "cpu 12%")
    assert reads_signal("the CPU is saturated", [], readings, "cpu 97%")
    assert not reads_signal("the CPU is saturated", [], {"45"}, "cpu 45%")
    assert not reads_signal("a busy neighbour takes CPU time", [], readings, "cpu 97%")
