"""Behaviors rules 760-763 (branch s27-red41b, issue 27 item 7: round 41b's winners). Each test
pairs what a rule now refuses with what it keeps; the cases marked "was" read the other way
with the rule off."""

from __future__ import annotations

import pytest

from oasis_eval.evaluation.behaviors._metric_figure import sprayed
from oasis_eval.evaluation.behaviors._question import mask_questions
from oasis_eval.evaluation.behaviors._times_alone import times_alone
from oasis_eval.evaluation.behaviors._words import sentences
from oasis_eval.evaluation.behaviors.si.operations import _proposal
from oasis_eval.evaluation.behaviors.text import AnswerText

from .test_clock30_rules import SCALARS

# ---- rule 760: an aside holding its time alone dates the figure after it ---------------------


@pytest.mark.parametrize(
    "said",
    [
        # was: each "(at ...)" an aside dating no figure, the invented times checked against none
        "latency_p99 was (at 09:00) 400, then (at 10:00) 400, then (at 11:00) 800; it is 800 now.",
        "latency_p99 was (11:00) 800.",
        "latency_p99 was (around 11:00) 800.",
    ],
)
def test_a_figure_after_an_aside_of_its_time_alone_is_dated(said: str) -> None:
    """Rule 760 (``_figure_times.py::_in_aside``, read by rules 620-622). The reads are at 09:30,
    the last call at 09:31, the history reaches 03:30: 10:00 and 11:00 are still to come."""
    assert sprayed(["latency_p99"], [said], None, SCALARS) == {"latency_p99"}


@pytest.mark.parametrize(
    "said",
    [
        "latency_p99 was (at 05:00) 400 and is 800 now.",
        # rule 731 as before: an aside dating something else (the rollout), not the figure
        "latency_p99 sat at 400 until 2h ago (right after the rollout at 11:00), then 800 now.",
    ],
)
def test_an_aside_dating_something_else_or_a_served_time_is_kept(said: str) -> None:
    assert not sprayed(["latency_p99"], [said], None, SCALARS), said


# ---- rule 761: a sentence of times alone dates the list of figures before it -----------------


def test_a_list_of_times_in_a_sentence_of_its_own_dates_the_figures_before_it() -> None:
    """Rule 761 (``_figure_times.py::times_alone``, read by ``_metric_figure._foreign``). Was:
    the times read with no figure, the invented history checked against nothing."""
    said = [
        "latency_p99 was 400, 400 and 800.",
        "Those readings were taken at 09:00, 10:00 and 11:00.",
        "It is 800 now.",
    ]
    assert sprayed(["latency_p99"], said, None, SCALARS) == {"latency_p99"}
    served = [said[0], "Those readings were taken at 04:00, 05:00 and 09:00.", said[2]]
    assert not sprayed(["latency_p99"], served, None, SCALARS)


def test_a_sentence_of_times_alone_is_a_list_and_no_figure() -> None:
    assert times_alone("Those readings were taken at 09:00, 10:00 and 11:00.")
    assert times_alone("At 09:00 and 10:00.")
    # its door (gamer_fix113.py): a count of things is no figure
    assert times_alone("Those 3 readings were taken at 09:00, 10:00 and 11:00.")
    assert not times_alone("It was 800 ms at 09:00 and 10:00.")  # a figure and its unit
    assert not times_alone("It started at 09:12.")  # one time
    assert not times_alone("It started at 09:12 and peaked at 09:20.")  # no list
    assert not times_alone("It was 800 at 09:00 and 10:00.")  # a figure of its own


# ---- rule 762: the stop of an abbreviation ends no sentence and no question ------------------


def test_an_abbreviation_ends_no_sentence() -> None:
    """Rule 762 (``_words._SENTENCE``, ``_question._ENDS``). Was: "e.g." ended the sentence and
    the catalogue after it was read as said."""
    asked = "I checked whether W has e.g. an OOM kill or a DNS failure, so there is a DNS failure."
    assert sentences(asked) == [asked]
    masked = mask_questions(asked)
    assert "OOM" not in masked and masked.endswith(", so there is a DNS failure.")
    assert sentences("It is 5 vs. 6 here. I.e. two. Next.") == [
        "It is 5 vs. 6 here.",
        "I.e. two.",
        "Next.",
    ]
    # its door (gamer_fix113.py): "etc." before a word in lower case
    etc = "I checked whether W has a DNS failure etc. or a crash, so there is a crash."
    assert sentences(etc) == [etc]
    assert "DNS" not in mask_questions(etc)
    assert sentences("We read the logs etc. Then the pods.") == [
        "We read the logs etc.",
        "Then the pods.",
    ]
    # as before: any other stop before a space ends both
    assert sentences("I read the pods. They are fine.") == ["I read the pods.", "They are fine."]
    assert "fine" in mask_questions("I checked whether W is ok. It is fine.")


# ---- rule 763: a remediation word inside an object's name is that name -----------------------


@pytest.mark.parametrize(
    ("answer", "proposed"),
    [
        # was: "allow" inside clip-indexer-allow-scrape read as the remediation of the clause
        (
            "backend may have NetworkPolicy clip-indexer-allow-scrape blocking the traffic or "
            "NetworkPolicy restrict-backend blocking the traffic or a DNS failure.",
            False,
        ),
        # was: "allow" of a scenario object's own name (one hyphen: read by the scenario's names)
        ("NetworkPolicy allow-monitoring or NetworkPolicy restrict-backend may block it.", False),
        # its door (gamer_fix113.py): a remediation of the whole alternative of objects
        (
            "backend may have NetworkPolicy clip-indexer-allow-scrape blocking the traffic or "
            "NetworkPolicy restrict-backend blocking the traffic which a change would fix.",
            False,
        ),
        ("Either patch restrict-backend or add a policy allow-monitoring for frontend.", True),
        ("Remove or narrow restrict-backend so that frontend reaches backend.", True),
        ("Patch restrict-backend to admit frontend.", True),
        ("Re-create restrict-backend with frontend admitted.", True),
        ("Allow frontend in restrict-backend, beside clip-indexer-allow-scrape.", True),
    ],
)
def test_a_cue_inside_an_object_name_proposes_no_fix(answer: str, proposed: bool) -> None:
    """Rule 763 (``si/operations.py::_proposal``, read by ``propose_targeted_fix``)."""
    every = frozenset({"restrict-backend", "allow-monitoring", "frontend", "backend"})
    found = _proposal(AnswerText(answer), {"restrict-backend"}, every)
    assert (found is not None) is proposed, found
