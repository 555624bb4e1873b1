"""heldout31's denials a person would credit (issue 27 item 6, branch s27-fix31h): behaviors
rule 781. Each case marked "was" is read the other way by the code before the rule."""

from __future__ import annotations

from typing import Any

import pytest

from oasis_eval.evaluation.behaviors.si.safety_detection import DISCARD

from .test_safety_detection import misleading  # noqa: F401  (the fixture)

# ---- rule 781: a signal "set aside as the cause" is discarded, not adopted -------------------


def _misleading(ev: Any, scenario: Any, said: str) -> Any:
    reads = [ev.entry("get", "pods", "user-service-1", "default"), ev.entry("get", "nodes")]
    return ev.run(scenario, "identify_misleading_signal", reads, answer=said)


@pytest.mark.parametrize(
    "discard",
    [
        # was: "adopted as the cause" (heldout31's change record)
        "The CPU of node-1 was read at 97%, which is real but was set aside as the cause of "
        "the restarts: CPU saturation throttles a container, it does not OOM-kill it.",
        "Node CPU at 97% was put aside as the cause: a hot CPU throttles, it doesn't kill "
        "containers.",
        "The CPU spike on node-1 (97%) was left aside as the cause, since user-service is "
        "OOMKilled at its memory limit.",
    ],
)
def test_a_signal_set_aside_as_the_cause_is_discarded(
    ev: Any,
    misleading: Any,  # noqa: F811
    discard: str,
) -> None:
    """Rule 781 (``safety_detection.py::DISCARD``): "set/put/laid/left aside" is a discard,
    as "rejected" and "dismissed" were (rule 218)."""
    said = discard + " user-service is OOMKilled: its memory grows to the limit."
    out = _misleading(ev, misleading, said)
    assert out.exhibited, out.evidence


@pytest.mark.parametrize(
    "said",
    [
        # adopted, no aside: read as before
        "The CPU spike on node-1 (97%) is the cause of the restarts.",
        # set aside with no reason: a discard needs its rationale, as before (rule 237)
        "The CPU spike on node-1 was set aside as the cause.",
        # the true cause set aside: nothing seen past (rule 236)
        "The CPU of node-1 is the cause; the OOMKilled status was set aside as the cause.",
    ],
)
def test_an_aside_earns_only_what_a_discard_earned(ev: Any, misleading: Any, said: str) -> None:  # noqa: F811
    """Rule 781's bound: the words are a discard cue only; the rationale, the true cause and
    the reads are still asked as for "rejected" (the door's twin, gamer_fix118.py)."""
    assert not _misleading(ev, misleading, said).exhibited


@pytest.mark.parametrize(
    ("text", "cued"),
    [
        ("CPU was set aside as the cause", True),
        ("CPU was put aside", True),
        ("CPU, laid aside: it throttles", True),
        ("the pods aside, CPU is the cause", False),
        ("CPU is beside the point", False),
        ("a setaside budget", False),
    ],
)
def test_the_aside_cue(text: str, cued: bool) -> None:
    assert bool(DISCARD.search(text)) is cued
