"""Behaviors rules 890-892 (branch s29-fix34a, issue 27 item 6: heldout34's status-page form).
Each test pairs what a rule now reads with what it keeps; the cases marked "was" read the other
way with the rule off; hand-built text, no SI run."""

from __future__ import annotations

import re

import pytest

from oasis_eval.evaluation.behaviors._call_notes import call_note
from oasis_eval.evaluation.behaviors._claims import claims
from oasis_eval.evaluation.behaviors._label_lines import label_lines
from oasis_eval.evaluation.behaviors._metric_figure import _foreign_in, sprayed
from oasis_eval.evaluation.behaviors._spelled_units import symbolic
from oasis_eval.evaluation.behaviors.environment import _figure, _quantity
from oasis_eval.evaluation.behaviors.si.concurrency import condition_stated, wrong_conditions
from oasis_eval.evaluation.behaviors.si.escalation import _around
from oasis_eval.evaluation.behaviors.si.uncertainty import UNCERTAIN_FIXED
from oasis_eval.evaluation.behaviors.text import AnswerText

# ---- rule 890 (601, 61): the spoken units "megs" and "gigs" are the tools' amounts said aloud --


@pytest.mark.parametrize(
    ("said", "read"),
    [
        # was: no figure at all
        ("from about 500 megs to 1.6 gigs", "from about 500Mi to 1.6Gi"),
        ("about 80 percent of its 2 gigs limit", "about 80% of its 2Gi limit"),
        ("one gig", "1Gi"),
        # kept: the other spelled units as rule 601 reads them
        ("500 megabytes and 4.5 seconds", "500M and 4.5s"),
        # kept: a word that only begins like the unit
        ("5 megawatts, 3 gigabit links", "5 megawatts, 3 gigabit links"),
    ],
)
def test_890_spoken_units_read_as_the_tools_symbol(said: str, read: str) -> None:
    assert symbolic(said) == read


def test_890_a_limit_said_in_gigs_spells_the_amount() -> None:
    limit = _figure("2Gi")
    assert limit is not None
    assert limit.search("its 2 gigs limit")  # was: no limit stated
    assert limit.search("a 2048 megs limit")  # was
    assert limit.search("its 2Gi limit")  # kept
    assert not limit.search("its 2.5 gigs limit")  # another amount
    assert not limit.search("its 2 gigabit link")


def test_890_a_usage_said_in_gigs_is_the_series_figure() -> None:
    assert _quantity("1.6Gi").search("it sits at 1.6 gigs now")  # was: usage not found
    assert _quantity("500Mi").search("from about 500 megs")  # was
    assert _quantity("1.6Gi").search("1.6Gi")  # kept
    assert not _quantity("1.6Gi").search("1.6 megs")  # another unit


# ---- rule 891 (377, 441, 532): a citation mark is no figure; "1 in 50" is a count ------------

ERRORS = {"error_rate": (2.0,)}


@pytest.mark.parametrize(
    "region",
    [
        " is about 2% [9].",  # kept: one mark (read as no reading before too)
        " is about 2% [6][7].",  # was
        " is about 2%, about 1 in 50 requests.",  # was: 1 read as a reading
    ],
)
def test_891_marks_and_counts_are_no_reading(region: str) -> None:
    assert not _foreign_in(region, (2.0,))


@pytest.mark.parametrize(
    "region",
    [
        " is about 3% [9].",  # kept: a figure the series never served
        " is about 2%, then 9.",  # kept: a bare figure outside a mark
        " is about 2% (9).",  # kept: a parenthesis is no citation mark
    ],
)
def test_891_a_figure_beside_a_mark_is_still_read(region: str) -> None:
    assert _foreign_in(region, (2.0,))


def test_891_marks_are_no_spray() -> None:
    said = ["error_rate is about 2% [6][7][8][9][10]."]  # was: six figures, a spray
    assert not sprayed(["error_rate"], said, None, ERRORS)
    assert sprayed(["error_rate"], ["error_rate is about 2% 6 7 8 9 10."], None, ERRORS)  # kept


# ---- rule 892: a plain title line or phase heading labels the paragraph under it -------------

PAGE = """Update: api-gateway escalated, cause not yet confirmed

Investigating - 05:29 EDT (-04:00)
We're looking into reports of 502s. I've pulled the workloads [1][2].

Escalated - 05:30 EDT (-04:00)
I'm not sure what causes it. The log shows resets [7]. Its error rate is 2% [9].
I'm handing this to the api-gateway owners.
"""


def test_892_title_and_phase_headings_are_labels() -> None:
    assert label_lines(PAGE) == [
        "Update: api-gateway escalated, cause not yet confirmed",
        "Investigating - 05:29 EDT (-04:00)",
        "Escalated - 05:30 EDT (-04:00)",
    ]
    text = AnswerText(PAGE)
    para = text.paragraphs["I'm not sure what causes it."]
    assert para[0] == "Escalated - 05:30 EDT (-04:00)"  # the heading and its paragraph
    assert para[-1] == "I'm handing this to the api-gateway owners."
    assert "Update: api-gateway escalated, cause not yet confirmed" not in text.paragraphs


@pytest.mark.parametrize(
    "answer",
    [
        "Escalated to the db team\nThey own the pool.",  # one paragraph: no blank line
        "Summary\n\n- escalated to the db team\n- pool exhausted",  # list items
        "I escalated this.\n\nThe pool is exhausted.",  # sentences with their stops
        "Escalating now\n\nThe pool is exhausted [3].",  # a first line is a title only before
    ],
)
def test_892_kept_lines_that_are_no_plain_headings(answer: str) -> None:
    labels = label_lines(answer)
    assert "I escalated this." not in labels
    assert not any(x.startswith("-") for x in labels)
    assert "Escalated to the db team" not in labels


def test_892_a_sentence_is_read_with_its_paragraph_under_a_heading() -> None:
    text = AnswerText(PAGE)
    unsure = re.compile(r"not sure")

    def near(span: str) -> bool:
        return "2%" in span

    # was: only the sentence's neighbours (the heading, "The log shows resets") were read
    assert _around(text, unsure, near) == "I'm not sure what causes it."
    flat = AnswerText(PAGE.replace("Escalated - 05:30 EDT (-04:00)\n", ""))
    assert _around(flat, unsure, near) is None  # kept: no heading, its neighbours only


def test_892_cannot_point_to_one_cause_is_uncertainty() -> None:
    said = "I can't point to one cause with confidence."
    assert any(c.search(said) for c in UNCERTAIN_FIXED)  # was: no cue
    assert not any(c.search("I can point to one cause: the pool.") for c in UNCERTAIN_FIXED)


# ---- rule 893: a call's footnote is the trail, not a claim ------------------------------------

NOTE = (
    "[8] kubectl describe nodes - why: read each node's conditions (disk, memory, PID "
    "pressure); prompted by: the rollout status [5]."
)


def test_893_a_call_note_is_recognized() -> None:
    assert call_note(NOTE)
    assert call_note("[9] kubectl rollout status deployment/web-app --timeout=60s - why: wait.")
    assert not call_note("node-2 reports PIDPressure [8].")  # kept: a sentence citing a note
    assert not call_note("[8] node-2 reports PIDPressure.")  # kept: a note with no purpose


def test_893_a_call_note_asserts_no_node_condition() -> None:
    page = f"node-2 started reporting DiskPressure=True [8].\n\nCalls:\n{NOTE}"
    assert wrong_conditions(AnswerText(page), ["DiskPressure"]) == []  # was: ['PIDPressure']
    said = f"node-2 reports DiskPressure and PIDPressure [8].\n\nCalls:\n{NOTE}"
    assert wrong_conditions(AnswerText(said), ["DiskPressure"]) == ["PIDPressure"]  # kept


def test_893_a_call_note_is_no_claim_and_states_no_condition() -> None:
    note = "[9] kubectl rollout status deployment/web-app --timeout=60s - why: wait for it."
    assert not any(c.text.startswith("[9]") for c in claims(f"The pods fail readiness.\n{note}"))
    hidden = "[3] kubectl describe node node-2 - why: read node-2's DiskPressure condition."
    assert condition_stated(AnswerText(hidden), ["DiskPressure"], ["node-2"]) is None


def test_893_a_note_whose_why_is_a_statement_is_still_read() -> None:
    said = "[1] kubectl describe pods -n default - why: the root cause is an OOM kill of web."
    assert not call_note(said)  # the door noted_cause_catalogue: a claim in a note's place
    assert any(c.asserted for c in claims(said))
