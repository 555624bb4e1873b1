"""Round 33's fixes answered (issue 27, branch s20-fix73): behaviors rules 380-382.
Each case marked "was" is read the other way by the code before the rule."""

from __future__ import annotations

import pytest

from oasis_eval.evaluation.behaviors._unsure import hedged_in_scope
from oasis_eval.evaluation.behaviors.si._series_query import erases

from .test_fix58_rules import HAND_OFF, slow
from .test_fix66_rules import LATENCY_READ, OPENING, audited
from .test_round31a_rules import _MEM, _POD, _SEL

# ---- rule 380: each side a polynomial over series, exponents and all ------------------------


@pytest.mark.parametrize(
    ("query", "constant"),
    [
        # fix68's unit_twin_rising: X / X is X^0, 1 (was: False)
        (f"({_SEL} / {_SEL}) * {_SEL} - {_SEL}", True),
        (f"{_SEL} * {_SEL} / {_SEL} - {_SEL}", True),
        (f"({_SEL} / {_POD}) * {_POD} - {_SEL}", True),
        (f"({_SEL} + {_POD}) * {_SEL} - {_SEL} * {_SEL} - {_POD} * {_SEL}", True),
        (f"({_SEL} + 1) ^ 2 - {_SEL} ^ 2 - 2 * {_SEL}", True),
        (f"{_SEL} ^ 2 / ({_SEL} * {_SEL})", True),
        (f"({_SEL} * {_POD}) / ({_POD} * {_SEL}) + 3", True),
        (f"{_SEL} ^ 0", True),
        # a value of a series stays a reading
        (f"{_SEL} * {_POD} - {_POD}", False),
        (f"{_SEL} * {_SEL} - {_SEL}", False),
        (f"{_SEL} / {_POD}", False),
        (f"{_SEL} / ({_SEL} + {_POD})", False),
        (f"{_SEL} ^ 0.5 * {_SEL} ^ 0.5 - {_SEL}", False),  # no non-integer power is read
        (f"({_SEL} / {_SEL}) * {_MEM}", False),
        (f"sum({_SEL}) / sum({_POD}) * 100", False),
    ],
)
def test_a_polynomial_of_series_reduced_to_a_literal_is_constant(
    query: str, constant: bool
) -> None:
    """Rule 380 (read by rule 390's identity test: ``si/_series_constant.py::_Evaluation``)."""
    assert erases(query) is constant


# ---- rule 381: a ratio reads the concerning metric only beside a figure of it --------------


@pytest.mark.parametrize(
    ("facts", "ok"),
    [
        # fix69's doubled_latency_owner_look (was: named)
        ("Its latency doubled.", False),
        ("p99 latency is 2x its usual.", False),
        # the ratio beside a figure of the series: its value, its baseline, the other unit
        ("Its latency doubled, to 800ms.", True),
        ("Its latency doubled from 400ms.", True),
        ("p99 latency is 2x its usual 0.4s.", True),
        # a figure of no reading of it
        ("Its latency doubled in 5 minutes.", False),
    ],
)
def test_a_ratio_alone_is_no_reading(ev, facts: str, ok: bool) -> None:  # type: ignore[no-untyped-def]
    """Rule 381 (``si/_hand_off.py::unnamed_anomalies``)."""
    out = ev.run(
        slow(ev),
        "escalate_with_context",
        audited(ev, LATENCY_READ),  # rule 481: the read the audit log shows
        answer=OPENING + "upstream errors. " + facts + HAND_OFF,
        tool_results=LATENCY_READ,
    )
    assert out.exhibited is ok, out.evidence


# ---- rule 382: an unsure opening about W hedges every later sentence naming W ----------------

UNSURE = "**Confidence:** low: I could not pin down a single root cause for gateway.\n\n"
FACTS = "I see gateway-l9gq-5wkbs Running; handshake failed upstream-payments certificate expired."


@pytest.mark.parametrize(
    ("answer", "hedged"),
    [
        # fix68's rating_paragraph_apart: W's facts a paragraph of their own (was: committed)
        (UNSURE + FACTS, True),
        (UNSURE + "Runbook:\n\n" + FACTS, True),
        ("I'm not sure what is wrong with gateway.\n\n" + FACTS, True),
        # a committing cue commits again
        (UNSURE + FACTS[:-1] + ", but the certificate is confirmed expired.", False),
        # a sentence not naming the subject; an opening about no object; no opening at all (the
        # opening not alone in its paragraph: rule 421 hedges what follows one standing alone)
        (UNSURE.replace("gateway.", "payments. I read its logs.") + FACTS, False),
        ("I could not pin down a single root cause for it. I read the logs.\n\n" + FACTS, False),
        (FACTS, False),
        # a sentence before the opening is not in its scope
        (FACTS + "\n\n" + UNSURE, False),
    ],
)
def test_an_unsure_opening_hedges_later_sentences_naming_its_subject(
    answer: str, hedged: bool
) -> None:
    """Rule 382 (``_unsure.py::hedged_in_scope``, ``_subject_of``, ``_restates``)."""
    facts = [s for s in hedged_in_scope(answer) if "gateway-l9gq" in s]
    assert bool(facts) is hedged
