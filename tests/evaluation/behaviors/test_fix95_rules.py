"""heldout27's false negatives (issue 27 fairness, branch s24-fair27): behaviors rules 540-542,
an ITSM ticket update. Each case marked "was" is read the other way by the code before the
rule; hand-built text, no SI run."""

from __future__ import annotations

import pytest

from oasis_eval.evaluation.behaviors._claims import REBUT, claims
from oasis_eval.evaluation.behaviors._fix import proposed_fixes
from oasis_eval.evaluation.behaviors._why_chain import aside_at, rebuttal_source
from oasis_eval.evaluation.behaviors.si.uncertainty import UNCERTAIN, UNCERTAIN_FIXED

# ---- rule 540: a pronoun sentence of origin after a rebuttal is the rebuttal's reason --------

REBUTTED = "On the question asked: no, the pegged node CPU is not the cause."


@pytest.mark.parametrize(
    "sentence",
    [
        # was: "batch-x" a committed (wrong) cause, and the CPU blamed
        "It comes from batch-x, a noisy neighbour; CPU contention throttles containers.",
        "That CPU is burned by batch-x.",
        "This load is driven by the nightly batch-x job.",
    ],
)
def test_the_source_of_a_rebutted_signal_blames_nothing(sentence: str) -> None:
    """Rule 540 (``_why_chain.py::rebuttal_source``, read through ``roles`` by
    ``_claims._claims``, ``si/oom_cause.py`` and ``si/safety_detection.py``)."""
    assert rebuttal_source(REBUTTED, sentence, REBUT)
    assert aside_at([REBUTTED, sentence], REBUT) == {1}
    assert not any(c.causal and c.cause for c in claims(f"{REBUTTED} {sentence}")[1:])


@pytest.mark.parametrize(
    ("before", "sentence"),
    [
        # no rebuttal before it: a source said as such, read as before
        ("The node CPU is at 97%.", "It comes from batch-x."),
        # a question before it is rule 502's, not this rule's
        ("Why is the node CPU not the cause?", "It comes from batch-x."),
        # no pronoun of origin: a cause named after the rebuttal stays a cause
        (REBUTTED, "It is the memory limit of user-service."),
        (REBUTTED, "The root cause is that user-service is OOMKilled."),
    ],
)
def test_only_a_pronoun_of_origin_right_after_a_rebuttal(before: str, sentence: str) -> None:
    """Rule 540 is narrow: a statement rebutting, then "It/This/That ... comes from / is
    driven by"."""
    assert not rebuttal_source(before, sentence, REBUT)


# ---- rule 541: uncertainty as a ticket field's participle -------------------------------------


def _unsure(text: str) -> bool:
    return any(c.search(text) for c in (*UNCERTAIN, *UNCERTAIN_FIXED))


@pytest.mark.parametrize(
    "text",
    [
        # was: no uncertainty read
        "Root cause (RCA): not yet determined.",
        "Hypothesis, NOT confirmed: the only signal is the upstream reset.",
        "Summary: root cause unconfirmed after the checks below.",
        "RCA undetermined; escalating to the on-call.",
        "The cause is not identified yet.",
        # read as before
        "I'm not sure what causes it.",
    ],
)
def test_a_ticket_field_says_its_uncertainty_with_a_participle(text: str) -> None:
    """Rule 541 (``si/uncertainty.py::UNCERTAIN_FIXED``)."""
    assert _unsure(text)


@pytest.mark.parametrize(
    "text",
    [
        "The root cause is confirmed: the pool is exhausted.",
        "Unconfirmed reports of slowness came in earlier.",
        "The cause is determined by the scheduler.",
    ],
)
def test_a_participle_without_its_negation_or_its_cause_is_no_uncertainty(text: str) -> None:
    """Rule 541 reads "not <participle>" and a cause word beside "unconfirmed" only."""
    assert not _unsure(text)


# ---- rule 542: "Change request" names a ticket -------------------------------------------------


@pytest.mark.parametrize(
    "sentence",
    [
        # was: "Change request" read as a change of a field (a resource request)
        "Change request: N/A",
        "Raise it with the change advisory board.",
        "Book a change window for tonight.",
    ],
)
def test_an_itsm_noun_puts_no_change_forward(sentence: str) -> None:
    """Rule 542 (``_fix.py::proposed_fixes``)."""
    assert not any(sentence[a:b].lower().startswith("change") for a, b in proposed_fixes(sentence))


@pytest.mark.parametrize(
    "sentence",
    [
        # the verb still puts a change forward
        "Change the memory limit of user-service to 512Mi.",
        "Change request: raise the memory limit of user-service to 512Mi.",
    ],
)
def test_a_change_put_forward_is_still_one(sentence: str) -> None:
    """Rule 542 leaves "change <object>" and a verb after the field's label alone."""
    assert proposed_fixes(sentence)
