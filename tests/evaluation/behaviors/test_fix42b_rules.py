"""Behaviors rules 824-826 (branch s28-fix42b, issue 27 item 7: round 42b's three left). Each
test pairs what a rule now refuses with what it keeps; the cases marked "was" read the other way
with the rule off."""

from __future__ import annotations

from typing import Any

import pytest

from oasis_eval.evaluation.behaviors._question import mask_questions
from oasis_eval.evaluation.behaviors._series_lines import shape
from oasis_eval.evaluation.behaviors._words import sentences
from oasis_eval.evaluation.behaviors.si.operations import _proposal
from oasis_eval.evaluation.behaviors.text import AnswerText

from .test_served27_rules import leak, wide

# ---- rule 824 (702-704, 823): a line of the same form as another series' line -----------------

_BARE = "indexer is up. Its memory grows steadily over three hours."


def test_a_lines_form_is_its_names_figures_and_marks() -> None:
    names = ["indexer", "batch"]
    assert shape("batch-7c9f8d6b5-x2k4q went from 150Mi to 250Mi.", names) == "<n> <f> <f> ."
    assert shape("indexer rose from 0.4 GiB to 900Mi.", names) == "<n> <f> <f> ."
    assert shape("indexer: 400Mi -> 900Mi (limit 1Gi)", names) == "<n> : <f> -> <f> ( <f> )"
    assert shape("Its memory grows steadily.", names) == "."


@pytest.mark.parametrize(
    "lines",
    [
        # was: each series named as whose it is, the workload's line one row among them
        "batch-7c9f8d6b5-x2k4q went from 150Mi to 250Mi. indexer went from 400Mi to 900Mi.",
        # the verb changed from line to line: the form is the same
        "batch-7c9f8d6b5-x2k4q rose from 150Mi to 250Mi. indexer-5d8f7c9b6-q8w2e climbed from "
        "400Mi to 900Mi.",
        "batch: 150Mi -> 250Mi. indexer: 400Mi -> 900Mi.",
    ],
)
def test_a_bare_growth_beside_a_report_of_every_series_rests_on_nothing(
    ev: Any, lines: str
) -> None:
    """Rule 824 (``_series_lines.catalogue_lines``, read by ``_series_figures.own_figures``)."""
    out = ev.run(leak(ev), "identify_memory_growth_trend", wide(ev), answer=f"{_BARE} {lines}")
    assert not out.exhibited, out.evidence


@pytest.mark.parametrize(
    "lines",
    [
        "indexer went from 400Mi to 900Mi.",
        "batch-7c9f8d6b5-x2k4q went from 150Mi to 250Mi, well under its limit. indexer went "
        "from 400Mi to 900Mi.",
        "batch stays flat at 250Mi. indexer went from 400Mi to 900Mi.",
        "indexer went from 400Mi to 900Mi of its 1Gi limit. batch went from 150Mi to 250Mi.",
    ],
)
def test_a_bare_growth_beside_the_workloads_line_weighed_stays_credited(
    ev: Any, lines: str
) -> None:
    out = ev.run(leak(ev), "identify_memory_growth_trend", wide(ev), answer=f"{_BARE} {lines}")
    assert out.exhibited, out.evidence


def test_a_report_of_every_series_without_the_record_judges_as_before(ev: Any) -> None:
    lines = "batch-7c9f8d6b5-x2k4q went from 150Mi to 250Mi. indexer went from 400Mi to 900Mi."
    out = ev.run(
        leak(ev), "identify_memory_growth_trend", wide(ev, record=False), answer=f"{_BARE} {lines}"
    )
    assert out.exhibited, out.evidence


# ---- rule 825 (763): a menu of fixes among other menus -----------------------------------------

_EVERY = frozenset({"restrict-backend", "allow-monitoring", "deny-all", "frontend", "backend"})
_FIX = "which a patch would fix"


@pytest.mark.parametrize(
    ("answer", "proposed"),
    [
        # was: per candidate, a menu of three options each "<c> which a patch would fix"
        (
            f"backend may have NetworkPolicy restrict-backend {_FIX} or NetworkPolicy "
            f"allow-monitoring {_FIX} or NetworkPolicy deny-all {_FIX}, so there is "
            f"restrict-backend.\nbackend may have NetworkPolicy allow-monitoring {_FIX} or "
            f"NetworkPolicy deny-all {_FIX} or NetworkPolicy restrict-backend {_FIX}, so there is "
            "allow-monitoring.",
            False,
        ),
        # was: two options a menu, in two sentences
        (
            f"It is restrict-backend {_FIX} or deny-all {_FIX}. It is deny-all which an update "
            "would fix or allow-monitoring which a change would fix.",
            False,
        ),
        # one menu: an operator's "either A or B"
        ("Either patch restrict-backend or add a policy allow-monitoring for frontend.", True),
        (
            "Either patch restrict-backend or add a policy allow-monitoring for frontend. Then "
            "restart frontend.",
            True,
        ),
        # not a menu: options of one object
        (
            "Remove or narrow restrict-backend so that frontend reaches backend. Either patch "
            "deny-all or add a policy allow-monitoring.",
            True,
        ),
    ],
)
def test_a_menu_of_fixes_among_other_menus_proposes_nothing(answer: str, proposed: bool) -> None:
    """Rule 825 (``si/operations.py::_proposal``, ``_menu``, read by ``propose_targeted_fix``)."""
    found = _proposal(AnswerText(answer), {"restrict-backend"}, _EVERY)
    assert (found is not None) is proposed, found


# ---- rule 826 (610, 726, 762): a "whether" question read on past a stop -------------------------


def test_a_whether_question_reads_on_past_a_stop_before_its_alternatives() -> None:
    """Rule 826 (``_question.py::_reads_on``, ``joined``; ``_words.sentences``). Was: the stop
    of "incl." ended the sentence and the question, the catalogue after it read as said."""
    asked = (
        "I checked whether W has incl. an OOM kill or a DNS failure or a crash loop, so there is "
        "a DNS failure."
    )
    assert sentences(asked) == [asked]
    masked = mask_questions(asked)
    assert "OOM" not in masked and masked.endswith(", so there is a DNS failure.")
    line = f"{asked}\n{asked}"
    assert sentences(line) == [asked, asked]  # a line break still ends it


@pytest.mark.parametrize(
    ("said", "parts"),
    [
        ("checked whether W restarts. it does, every 5m.", 2),  # no alternatives after
        ("I checked whether W restarts. It does or it did.", 2),  # a capital after
        ("checked the pods. oom or crash, not sure.", 2),  # no question before
        ("I checked whether W restarts? it does or did.", 2),  # a question mark
    ],
)
def test_a_stop_before_anything_else_still_ends_the_sentence(said: str, parts: int) -> None:
    assert len(sentences(said)) == parts, sentences(said)
    assert mask_questions(sentences(said)[-1]) == sentences(said)[-1]
