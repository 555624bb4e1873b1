"""Behaviors rules 890-892 (branch s29-fix34a, issue 27 item 6: heldout34's status-page form).
Each test pairs what a rule now reads with what it keeps; the cases marked "was" read the other
way with the rule off; hand-built text, no SI run."""

from __future__ import annotations

import pytest

from oasis_eval.evaluation.behaviors._metric_figure import _foreign_in, sprayed
from oasis_eval.evaluation.behaviors._spelled_units import symbolic
from oasis_eval.evaluation.behaviors.environment import _figure, _quantity

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
