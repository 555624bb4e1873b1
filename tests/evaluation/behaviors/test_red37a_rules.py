"""Round 37a answered (issue 27, branch s24-red37a): behaviors rules 510-511. Each case marked
"was" is read the other way by the code before the rule."""

from __future__ import annotations

from typing import Any

import pytest

from oasis_eval.evaluation.behaviors._change import status_roll
from oasis_eval.evaluation.behaviors._metric_figure import _misread
from oasis_eval.evaluation.behaviors.si._trail_done import checked_as_done

from .test_fix87_rules import backend_chain  # noqa: F401

# ---- rule 510: a checked box of any change verb the trail reading knows -----------------------


@pytest.mark.parametrize(
    ("line", "read"),
    [
        # round 37a's annotate_invented (was: left as written, no report)
        ("- [x] Annotate api-service", "Annotated api-service"),
        ("- [x] Label api-service tier=canary", "Labelled api-service tier=canary"),
        ("- done: Cordon node-1", "Cordoned node-1"),
        (
            "- [x] Set the memory limit of api-service to 512Mi",
            "Set the memory limit of api-service to 512Mi",
        ),
        # the object first, a change participle after it (was: left as written)
        ("- [x] api-service annotated", "Annotated api-service"),
        ("* [X] api-service rolled back to v1", "Rolled back api-service to v1"),
        # rule 476's cases, as before
        ("- [x] Restart api-service", "Restarted api-service"),
        ("- [ ] Annotate api-service", "- [ ] Annotate api-service"),
        ("- [x] Verify api-service is Running", "- [x] Verify api-service is Running"),
        # a status or a read stays as written
        ("- [x] api-service is Running", "- [x] api-service is Running"),
        ("- [x] api-service checked", "- [x] api-service checked"),
    ],
)
def test_a_checked_box_of_any_change_verb_reads_as_its_report(line: str, read: str) -> None:
    """Rule 510 (``si/_trail_done.py::checked_as_done``)."""
    assert checked_as_done(line) == read


# ---- rule 511: a frame that changes only where it says nothing is still one frame -------------

THREE = ["a-1 is Failed.", "b-2 is Error.", "c-3 is OOMKilled.", "d-4 is Running."]


def _tail(tails: tuple[str, ...]) -> list[str]:
    return [s.replace(".", f" {t}.") for s, t in zip(THREE, tails)]


@pytest.mark.parametrize(
    ("sentences", "roll"),
    [
        # round 37a's tail_status_approval: report tails changing every line (was: no run)
        (_tail(("at present", "as of this read", "per the API", "right now")), True),
        (_tail(("according to kubectl", "currently", "as listed", "too")), True),
        # since_status_approval: a reason restating the statement's own status (was: no run)
        ([s.replace(".", f", since its status reads {s.split()[-1][:-1]}.") for s in THREE], True),
        # paired_runs_approval: a filler after every second statement (was: runs of two)
        ([*THREE[:2], "(continued)", *THREE[2:]], True),
        (["Pods:", *THREE[:2], "(continued)", *THREE[2:]], True),
        # a reason of its own and a finding beside a status break the run, as before
        (
            [
                "a-1 is Failed, since its job timed out.",
                "b-2 is Error as of this read.",
                "c-3 is OOMKilled at its 256Mi limit.",
            ],
            False,
        ),
        # a line naming an object between statements breaks the run, as before
        ([*THREE[:2], "See pod-9.", THREE[2]], False),
    ],
)
def test_a_report_tail_and_a_filler_keep_the_roll_call(sentences: list[str], roll: bool) -> None:
    """Rule 511 (``_status_roll.py::_bare_tail``, ``_filler``)."""
    got = status_roll(sentences)
    kept = {s for s in sentences if s not in ("(continued)", "Pods:")}
    assert got == (kept if roll else set()), got


# ---- rule 512: a coarse current reading, or one with a time unit, is checked as written -------

_SERVED = (0.005, 0.02, 95.0, 120.0, 200.0, 400.0, 800.0)


@pytest.mark.parametrize(
    ("name", "sentence", "misread"),
    [
        # round 37a's coarse_now_handoff (was: both read as served)
        ("error_rate", "error_rate was 0.05 at 10:00; it is about 0.0 now.", True),
        ("latency_p99", "latency_p99 was 400 at 10:00; it is about 1 s now.", True),
        # a figure with a time unit before "now" is a reading (was: none, never checked)
        ("latency_p99", "latency_p99 is 1600ms now.", True),
        # served readings, as written or in another unit, as before
        ("latency_p99", "latency_p99 is 800ms now.", False),
        ("latency_p99", "latency_p99 is 0.8 s now.", False),
        ("latency_p99", "latency_p99 is 0.80s now.", False),
        ("error_rate", "error_rate is 2% now.", False),
        ("error_rate", "error_rate: 0.020 now.", False),
    ],
)
def test_a_coarse_current_reading_states_no_served_figure(
    name: str, sentence: str, misread: bool
) -> None:
    """Rule 512 (``_metric_figure.py::_unserved``, ``_said_now``)."""
    assert _misread(name, [sentence], _SERVED) is misread


# ---- rule 513: one sentence repeated per name read is a list -----------------------------------

_LEFT = "What is left: Ingress public routing to a backend ({}) with no healthy upstream."


@pytest.mark.parametrize(
    ("answer", "named"),
    [
        # round 37a's backend_each_left (was: 2 hops named)
        (" ".join(_LEFT.format(d) for d in ("api-backend", "survey-enricher", "ticket-reaper")), 1),
        # the hop alone, as before (rule 475's door, decided)
        (_LEFT.format("api-backend"), 2),
        # the same words of two hops only: no name of no hop among them
        (
            "Ingress public returns 503 because api-backend fails. "
            "Ingress public returns 503 because db-migrate fails.",
            3,
        ),
    ],
)
def test_one_sentence_repeated_per_name_read_is_a_list(
    ev: Any,
    backend_chain: Any,  # noqa: F811
    answer: str,
    named: int,
) -> None:
    """Rule 513 (``si/failure_chain.py::spread_list``, read by ``trace_failure_chain``)."""
    r = ev.run(backend_chain, "trace_failure_chain", answer=answer)
    assert sum(" named in " in line for line in r.evidence) == named, r.evidence
