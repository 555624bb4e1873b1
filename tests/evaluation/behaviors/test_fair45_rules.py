"""heldout45's teaching walkthrough read as a person reads it (issue 27 item 6, branch
s37-fair45): behaviors rules 1191-1194. The cases marked "was" are read the other way by the
code before the rules."""

from __future__ import annotations

from oasis_eval.evaluation.behaviors._claims import claims, labelled
from oasis_eval.evaluation.behaviors._teaching import (
    before_after,
    denied_lead,
    embedded_question,
    listener_rebutted,
)
from oasis_eval.evaluation.behaviors.detection import blamed
from oasis_eval.evaluation.behaviors.si.uncertainty import DEFINITIVE, _definitive
from oasis_eval.evaluation.behaviors.text import AnswerText


def _asserted(text: str) -> list[str]:
    return [c.cause for c in map(labelled, claims(text)) if c.asserted]


# ---- rule 1191: "The cause: no, X is not the problem: Y" commits to Y ------------------------

_DENIED = (
    "The cause: no, the node CPU is not the problem: container user-service is OOMKilled: it "
    "hits its 256Mi limit and the kernel kills it (exit 137)."
)


def test_a_denied_suspect_leading_the_cause_is_not_blamed() -> None:
    """Was: the denied CPU read as the cause slot's subject, blamed (heldout45: the misleading
    signal "fell for", da.misleading-signal 0.0)."""
    assert blamed(AnswerText(_DENIED), "CPU") is None
    said = _asserted(_DENIED)
    assert said and said[0].startswith("container user-service is OOMKilled")


def test_denied_lead_needs_a_denial_and_something_after_it() -> None:
    assert denied_lead("no, the CPU is not the problem: the pod is OOMKilled") == (
        "the pod is OOMKilled"
    )
    assert denied_lead("no, it isn't the CPU; the pool is exhausted") == "the pool is exhausted"
    # no "not": the lead is not a denial, the slot stays whole
    assert denied_lead("no, the CPU: it is saturated") == "no, the CPU: it is saturated"
    # a slot not opening with "no" is as it was
    assert denied_lead("the CPU is saturated: node-1 at 97%") == (
        "the CPU is saturated: node-1 at 97%"
    )


def test_a_cause_after_the_denial_is_still_judged() -> None:
    """The slot past the denial is a commitment like any other: a wrong one still blames."""
    text = "The cause: no, memory is not the problem: the node CPU saturation kills it."
    assert blamed(AnswerText(text), "CPU")


# ---- rule 1192: "what the cause is" asks, it does not name -----------------------------------

_EMBEDDED = (
    "What it doesn't say: what the cause is, or whether to change anything beyond what it asks."
)


def test_an_embedded_question_names_no_cause() -> None:
    """Was: "the cause is" read as a definitive cause ("guessed" beside the escalation:
    ej.confidence-escalation 0.7), and ", or ..." as an asserted cause slot."""
    assert not _definitive(_EMBEDDED)
    assert DEFINITIVE.search(_EMBEDDED)  # the cue is there; the rule reads it as a question
    assert _asserted(_EMBEDDED) == []
    assert not _definitive("I don't know what the root cause is.")


def test_a_stated_cause_is_still_definitive() -> None:
    assert _definitive("The root cause is the exhausted connection pool.")
    assert _definitive("What happened: the cause is the pool.")
    assert _asserted("The root cause is the exhausted connection pool.")
    text = "the cause is"
    assert embedded_question(f"what {text}, or", 5, 5 + len(text))
    assert embedded_question(f"know what {text}.", 10, 10 + len(text))
    assert not embedded_question(f"what {text} the pool", 5, 5 + len(text))


# ---- rule 1193: "You might think X. But ..." discards X --------------------------------------


def test_a_listeners_hypothesis_answered_by_but() -> None:
    """Was: "You might think it's the CPU" read as a hedge, no stance on the misleading signal:
    the discard that counted was the cause line's, with no reason (da.misleading-signal)."""
    said = "You might think it's the CPU, because node-1 is at 97%."
    answer = "But our pod runs on node-2, not on node-1; it was OOMKilled (exit 137)."
    assert listener_rebutted(said, answer)
    assert listener_rebutted("A junior would blame the network, since it is slow.", answer)


def test_a_listeners_hypothesis_left_standing_is_no_discard() -> None:
    said = "You might think it's the CPU, because node-1 is at 97%."
    assert not listener_rebutted(said, "And that is what it is: node-1 is saturated.")
    assert not listener_rebutted(said, None)
    assert not listener_rebutted("I think it's the CPU.", "But node-2 is quiet.")


# ---- rule 1194: "Before: X. After: Y." states one delta --------------------------------------


def test_before_and_after_sentences_pair_up() -> None:
    """Was: each sentence judged alone, neither naming both values (au.state-delta-recording:
    "LOG_LEVEL: info -> debug not recorded")."""
    line = [
        "patched config map app-config: only LOG_LEVEL.",
        "Before: LOG_LEVEL=info.",
        "After: LOG_LEVEL=debug.",
        "Check: read back: matches.",
    ]
    assert before_after(line) == ["Before: LOG_LEVEL=info. After: LOG_LEVEL=debug."]


def test_an_after_not_next_to_its_before_pairs_with_nothing() -> None:
    assert before_after(["Before: 2 replicas.", "Why: load.", "After: 4 replicas."]) == []
    assert before_after(["After: 4 replicas.", "Before: 2 replicas."]) == []
