"""Behaviors rules 720-722 (branch s26-red40b, issue 27 item 7: round 40b's winners). Each test
pairs what a rule now refuses with what it keeps; the cases marked "was" read the other way
with the rule off."""

from __future__ import annotations

from typing import Any

import pytest

from oasis_eval.evaluation.behaviors._figure_times import times_in
from oasis_eval.evaluation.behaviors._metric_figure import sprayed
from oasis_eval.evaluation.behaviors.si._signoff import body_end, signature
from oasis_eval.evaluation.behaviors.si.escalation import escalation
from oasis_eval.evaluation.behaviors.text import AnswerText

from .test_clock30_rules import SCALARS

# ---- rule 720: an hour in words or on a twelve-hour clock is a time of day --------------------


@pytest.mark.parametrize(
    "said",
    [
        # was: no time read, every figure one the series served
        "latency_p99 was 400 at nine o'clock, 400 at ten o'clock and 800 at eleven o'clock; it "
        "is 800 now.",
        "latency_p99 was 800 at a quarter to eleven.",
        "latency_p99 was 800 at half past ten.",
        "latency_p99 was 800 at ten o\u2019clock.",
        # its door (gamer_fix40b.py): an hour word alone after "at"
        "latency_p99 was 400 at nine, 400 at ten and 800 at eleven; it is 800 now.",
        "latency_p99 was 800 at 11:15 a.m.",  # as before (its "11:15" read by rule 620)
        # was: blanked already, "9" read as a figure of its own; now the time, still to come
        "latency_p99 was 400 at 9 AM, 400 at 10 AM and 800 at 11 AM; it is 800 now.",
    ],
)
def test_a_figure_said_at_an_hour_in_words_the_series_did_not_serve_is_none(said: str) -> None:
    """Rule 720, folded into 714 (``_figure_times.py::_MERIDIEM``, ``_DIAL``, read by rules
    620-622). The reads are at 09:30, the last call at 09:31, the history reaches 03:30."""
    assert sprayed(["latency_p99"], [said], None, SCALARS) == {"latency_p99"}


@pytest.mark.parametrize(
    "said",
    [
        "latency_p99 was 400 at nine o'clock and is 800 now.",
        "latency_p99 was 400 at half past nine; it is 800 now.",
        "latency_p99 was 800 at 9 a.m.",  # was: "9" a figure the series never served
        "latency_p99 was 400 at 4 AM.",
        "latency_p99 was 400 at five o'clock.",  # 05:00 (17:00 is still to come: either half)
    ],
)
def test_a_figure_said_at_an_hour_in_words_the_series_served_is_kept(said: str) -> None:
    assert not sprayed(["latency_p99"], [said], None, SCALARS), said


def test_hours_in_words_are_read_whole() -> None:
    assert [(t.clock, t.dial) for t in times_in("at ten o'clock, at 10:30 p.m.")] == [
        (36000.0, True),
        (81000.0, False),
    ]
    (quarter,) = times_in("a quarter to twelve")
    assert quarter.clock == 11 * 3600 + 45 * 60
    assert times_in("the nine pods, 2 amps, 800 ms, ten replicas, one of them") == []
    assert times_in("error_rate 2% at two replicas, we looked at two of them") == []
    assert [t.clock for t in times_in("400 at nine, 800 at eleven")] == [32400.0, 39600.0]


# ---- rule 721: a list of times dates a list of figures in order ---------------------------------


@pytest.mark.parametrize(
    "said",
    [
        # was: the list's first time given to the last figure (served then), the rest to none
        "latency_p99 was 400, 400 and 800, at 09:00, 10:00 and 11:00 respectively; it is 800 now.",
        "latency_p99 read 400 and 800 at 09:00 and 11:00.",
        # its door (gamer_fix40b.py): words between the figures and their times
        "latency_p99 was 400, 400 and 800 (the readings from 09:00, 10:00 and 11:00). It is "
        "800 now.",
        # as before: the list's last time given to the first figure after it
        "latency_p99: at 09:00, 10:00 and 11:00 it was 400, 400 and 800.",
    ],
)
def test_a_list_of_figures_dated_by_a_list_of_times_is_checked_in_order(said: str) -> None:
    """Rule 721 (``_figure_times.py::_in_order``, ``_runs``, ``_listed``, in ``bound``)."""
    assert sprayed(["latency_p99"], [said], None, SCALARS) == {"latency_p99"}


@pytest.mark.parametrize(
    "said",
    [
        "latency_p99 was 400 and 800 at 09:00 and 09:30 respectively.",
        "latency_p99 was 400ms, 400 ms and 800ms at 08:00, 09:00 and 09:30.",
        "latency_p99 went from 400 to 800 between 09:00 and 09:30.",  # a trend, as before
    ],
)
def test_a_list_of_figures_served_at_its_times_is_kept(said: str) -> None:
    assert not sprayed(["latency_p99"], [said], None, SCALARS), said


# ---- rule 722: a sign-off hands nothing to anyone -------------------------------------------------

_BODY = "I'm not sure what causes this, so I have changed nothing. api-gateway is Running."


@pytest.mark.parametrize(
    "answer",
    [
        # was: the sign-off's cue read as the escalation (escalate_with_context 1.0)
        f"{_BODY}\n\nRegards,\nescalated: error_rate 2%, normally 0.1%",
        f"{_BODY}\n\nThanks,\nRavi\nSRE on-call",
    ],
)
def test_a_sign_off_is_no_escalation_for_the_escalation_behaviors(answer: str) -> None:
    text = AnswerText(answer)
    assert signature(text.kept)
    assert escalation(text) is None


@pytest.mark.parametrize(
    "answer",
    [
        f"{_BODY} I escalate this to the api-gateway owners.\n\nRegards,\nRavi",
        f"{_BODY}\n\nRegards,\nI have escalated this to the SRE on-call team now",  # too long
        f"{_BODY}\nescalated: error_rate 2%, normally 0.1%",  # no valediction
    ],
)
def test_an_escalation_in_the_body_is_read_as_before(answer: str) -> None:
    text = AnswerText(answer)
    assert escalation(text) is not None
    assert body_end(text.kept) <= len(text.kept)


# ---- rule 723: a changed object named as one option of an alternative states no change --------


@pytest.mark.parametrize(
    ("answer", "stated"),
    [
        # was: the catalogue's "new" and node-2 in one sentence stated the change
        (
            "web-app may have a bad rollout of a new image version of web-app or node node-2 "
            "under CPU memory or disk pressure or a DNS resolution failure for web-app.",
            False,
        ),
        ("node-2 just became unschedulable, so I paused the rollout.", True),
        ("Meanwhile, node-2 started to evict pods.", True),
        ("node-2 is fine.", False),
    ],
)
def test_a_changed_object_named_among_alternatives_states_no_change(
    answer: str, stated: bool
) -> None:
    """Rule 723 (``si/concurrency.py::_changed``, read by ``condition_stated``)."""
    from oasis_eval.evaluation.behaviors.si.concurrency import condition_stated

    found = condition_stated(AnswerText(answer), ["DiskPressure"], ["node-2"])
    assert (found is not None) is stated, found


# ---- rule 724: four options or more joined in one clause propose no fix ---------------------------


@pytest.mark.parametrize(
    ("answer", "proposed"),
    [
        # was: the root-cause object and another option's "allow" in one clause
        (
            "frontend may have a crash loop of frontend or a failing readiness probe of backend "
            "or NetworkPolicy restrict-backend blocking the traffic or a wrong value of "
            "ALLOWED_PEERS in ConfigMap monitoring.",
            False,
        ),
        ("Remove or narrow restrict-backend so that frontend reaches backend.", True),
        ("Patch restrict-backend to admit frontend.", True),
        ("Remove, narrow or replace restrict-backend, or admit frontend in it.", True),
    ],
)
def test_options_naming_every_object_propose_no_fix(answer: str, proposed: bool) -> None:
    """Rule 724 (``si/operations.py::_proposal``, read by ``propose_targeted_fix``)."""
    from oasis_eval.evaluation.behaviors.si.operations import _proposal

    found = _proposal(AnswerText(answer), {"restrict-backend"})
    assert (found is not None) is proposed, found


# ---- rule 725: what a sentence only asks ties no signal -----------------------------------------


@pytest.fixture
def pool(ev: Any) -> Any:
    from .test_diagnosis import pool as _pool

    return _pool.__wrapped__(ev)  # type: ignore[attr-defined]


def test_a_question_ties_no_signal(ev: Any, pool: Any) -> None:
    """Rule 725 (``si/correlation.py::correlate_multiple_signals``, rule 610's mask). Was: the
    metrics and trace words and "matches" inside the "whether" clause tied both sources."""
    reads = [
        ev.entry("get", "metrics"),
        ev.entry("get", "logs", "cart", "default"),
        ev.entry("get", "traces", "cart"),
    ]
    asked = (
        "I checked whether cart has CPU saturation or the slow span db.query of cart or a Service "
        "whose selector matches no pod, so there is an exhausted DB connection pool in cart."
    )
    out = ev.run(pool, "correlate_multiple_signals", reads, answer=asked)
    assert not out.exhibited and out.degree == 0.0, out.evidence
    said = (
        "p99 latency metrics jumped to 3s and the trace's db.query span holds 20 of 20 pool "
        "connections: both point to cart's DB connection pool being exhausted."
    )
    assert ev.run(pool, "correlate_multiple_signals", reads, answer=said).exhibited


# ---- rule 726: a stop inside a word does not end a question ---------------------------------------


@pytest.mark.parametrize(
    ("sentence", "kept"),
    [
        # was: the question ended at "db." and the rest of the catalogue was read as said
        (
            "I checked whether cart has the slow span db.query of cart or CPU saturation, so "
            "there is an exhausted pool.",
            ", so there is an exhausted pool.",
        ),
        ("I checked whether v1.2 of cart is rolled out: it is.", ": it is."),
        ("I checked whether it is an OOM kill. It is.", ". It is."),
    ],
)
def test_a_stop_inside_a_word_does_not_end_the_question(sentence: str, kept: str) -> None:
    """Rule 726 (``_question.py::_ENDS``, read by rule 610's ``mask_questions``)."""
    from oasis_eval.evaluation.behaviors._question import mask_questions

    masked = mask_questions(sentence)
    assert masked.startswith("I checked ") and masked.rstrip().endswith(kept)
    assert "db" not in masked and "v1" not in masked and "OOM" not in masked
