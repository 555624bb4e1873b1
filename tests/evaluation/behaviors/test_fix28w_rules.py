"""A fault inside a question is no statement, a consequence is no cause (issue 27, branch
s25-fix28w): behaviors rules 610 and 611. Each case marked "was" is read the other way by the
code before the rule; hand-built text, no SI run."""

from __future__ import annotations

import pytest

from oasis_eval.evaluation.behaviors._cause_check import check_causes
from oasis_eval.evaluation.behaviors._claim_views import committed_text, hedged_text
from oasis_eval.evaluation.behaviors._claims import catalogue, claims
from oasis_eval.evaluation.behaviors._question import mask_questions
from oasis_eval.evaluation.behaviors._stated import stated_faults
from oasis_eval.evaluation.behaviors.text import AnswerText


def _said(sentence: str, term: str) -> bool:
    """``term`` committed to or put forward hedged anywhere in ``sentence``."""
    text = AnswerText(sentence)
    return bool(committed_text(text).asserted(term) or hedged_text(text).asserted(term))


def _stated(sentence: str, truth: set[str] | None = None, names: tuple[str, ...] = ()) -> list[str]:
    """The wrong faults ``sentence`` states plainly (rule 20), ``truth`` the true classes."""
    text = AnswerText(sentence)
    found = claims(text)
    return stated_faults(
        text, found, truth or set(), [], names, catalogue(), causes=frozenset(truth or ())
    )


# ---- rule 610: what a sentence only asks ---------------------------------------------------
@pytest.mark.parametrize(
    ("sentence", "term"),
    [
        # was: the ground truth stated (the door whether_each_candidate, one candidate a line)
        ("I read the pods of ledger to see whether it is an OOM kill of ledger.", "OOM"),
        ("I checked if the pods of ledger were OOMKilled.", "OOMKilled"),
        # the whole catalogue in one question, its items after commas
        (
            "I read the events to see whether it is a DNS failure, an OOM kill, or CPU.",
            "OOM",
        ),
        ("Is it an OOM kill of ledger?", "OOM"),
    ],
)
def test_a_fault_asked_about_is_not_stated(sentence: str, term: str) -> None:
    """Rule 610 (``_question.py::mask_questions``, read by ``_claim_views.py``)."""
    assert not _said(sentence, term)


@pytest.mark.parametrize(
    ("sentence", "term"),
    [
        # the finding after the question ends
        ("I checked whether the ConfigMap holds the key, but the pods were OOMKilled.", "OOM"),
        ("I checked whether anything changed; the pods of ledger were OOMKilled.", "OOM"),
        # a conditional is no question; nor a "Why ...?" question (rule 503)
        ("If nothing changes, ledger is OOMKilled again within the hour.", "OOM"),
        ("Why is ledger OOMKilled?", "OOM"),
        ("The pods of ledger were OOMKilled.", "OOM"),
    ],
)
def test_what_is_not_asked_is_read_as_before(sentence: str, term: str) -> None:
    """Rule 610 blanks only the question."""
    assert _said(sentence, term)


@pytest.mark.parametrize(
    "sentence",
    [
        # was: the slot "you asked whether the node CPU is the problem", a wrong cause (the
        # lead's narrowing of rule 560 read a question asked of a fault as before)
        "I read the processor use of each node because you asked whether the node CPU is the "
        "problem.",
        "Because you asked whether the node CPU is the cause, I read the metrics of node-1.",
        # was: a cause cue inside the question
        "I read the logs to see whether the restarts are caused by the node CPU.",
    ],
)
def test_a_cause_asked_about_is_no_claim(sentence: str) -> None:
    """Rules 610 and 560: neither blamed nor stated, the true cause elsewhere unharmed."""
    text = AnswerText(sentence + " The root cause is an OOM kill of ledger.")
    check = check_causes(text, ["OOMKilled", "OOM"], {"memory"}, observed=frozenset({"memory"}))
    assert check.wrong == []
    assert check.precise
    assert check.correct


def test_a_question_states_no_wrong_fault() -> None:
    """Rule 610 in ``_stated.py::stated_faults``: a yes/no question states nothing."""
    assert _stated("The NetworkPolicy of ledger blocks its traffic.")  # the case closed
    assert not _stated("Does the NetworkPolicy of ledger block its traffic?")


def test_the_door_states_no_truth() -> None:
    """whether_each_candidate's shape over ``check_causes``: no statement, no cause."""
    lines = [
        f"I read the pods of ledger to see whether it is {c}."
        for c in ("an OOM kill of ledger", "a DNS resolution failure", "an expired TLS certificate")
    ]
    text = AnswerText("\n".join(lines))
    check = check_causes(text, ["OOMKilled"], {"memory"}, observed=frozenset({"memory"}))
    assert not check.correct and not check.wrong and not check.asserted
    assert not committed_text(text).asserted("OOM")


def test_mask_questions_keeps_positions() -> None:
    """The blanked text has the sentence's length (cause slots are cut by position)."""
    for s in ("Is it DNS?", "I checked whether it is DNS, and it is not.", "no question here"):
        assert len(mask_questions(s)) == len(s)


# ---- rule 611: a consequence after the true cause ------------------------------------------
HELDOUT27 = (
    "web-app-5blhd48b2k-8f22h fails its readiness probe (HTTP 503), so it is taken out of the "
    "Service's endpoints: capacity is reduced and connections to it are dropped."
)


@pytest.mark.parametrize(
    "sentence",
    [
        # was: "so it is taken out of the Service's endpoints" a wrong stated fault (heldout27)
        HELDOUT27,
        "The pods of web-app fail their readiness probe, which means they are taken out of "
        "the Service's endpoints.",
        "The pods of web-app fail their readiness probe; as a result, they are taken out of "
        "the Service's endpoints.",
        "The pods of web-app fail their readiness probe and therefore they are taken out of "
        "the Service's endpoints.",
    ],
)
def test_a_consequence_of_the_true_cause_is_no_wrong_fault(sentence: str) -> None:
    """Rule 611 (``_stated.py::stated_faults``)."""
    assert not _stated(sentence, {"probe"}, ("web-app",))


@pytest.mark.parametrize(
    "sentence",
    [
        # the clause before names no true cause (an observed signal, a bare status): as before
        "The pods of web-app restart, so the pod is taken out of the Service's endpoints.",
        "web-app is failing, so the pod is taken out of the Service's endpoints.",
        # no consequence word: a fault of its own beside the true one
        "The pods of web-app fail their readiness probe and the pod is taken out of the "
        "Service's endpoints.",
        # the consequence before the cause is stated
        "So the pod is taken out of the Service's endpoints, and the pods of web-app fail "
        "their readiness probe.",
    ],
)
def test_a_consequence_of_no_true_cause_is_read_as_before(sentence: str) -> None:
    """Rule 611 excuses only what follows the true cause, in its sentence."""
    assert _stated(sentence, {"probe"}, ("web-app",))


def test_heldout27s_sentence_keeps_its_precision() -> None:
    """Rule 611 over ``_cause_check.py::check_causes``: heldout27's oe.legitimate-restart row
    (the consequence was a wrong claim, precision 0.33)."""
    text = AnswerText(HELDOUT27)
    check = check_causes(
        text, ["readiness"], {"probe"}, observed=frozenset({"probe"}), names=["web-app"]
    )
    assert check.wrong == []
