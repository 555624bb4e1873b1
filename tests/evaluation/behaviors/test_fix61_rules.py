"""heldout20's false negatives, part A (branch s19-fix61, issue 27): a past suspicion withdrawn
(behaviors rule 320) and a distraction (rule 321) are discards, someone who owns the thing
asked to look is an escalation (rule 322), a plan said in one sentence lends its steps the
head's object (rule 323), and "lowered"/"reduced" state a patch (rule 324). Each case marked
"old code" was read the other way before its rule; hand-built evidence, no SI run."""

from __future__ import annotations

import pytest

from oasis_eval.evaluation.behaviors._claims import sentence_claims
from oasis_eval.evaluation.behaviors._discards import discarded_texts
from oasis_eval.evaluation.behaviors._steps import plan_lines
from oasis_eval.evaluation.behaviors.si._trail import _verb_regex
from oasis_eval.evaluation.behaviors.si.escalation import escalation
from oasis_eval.evaluation.behaviors.text import AnswerText

CPU = "the node's pegged CPU"
HELD20 = (
    f"I briefly suspected {CPU}, as the question did, but CPU starvation throttles a container "
    "rather than killing it, and the kill reason was OOMKilled, so the busy neighbour on the "
    "node was a distraction rather than the cause."
)


# ---- rules 320, 321: a withdrawn suspicion, a distraction -----------------------------------
@pytest.mark.parametrize(
    ("sentence", "discarded"),
    [
        (HELD20, [CPU, "the busy neighbour on the node"]),  # old code: []
        ("We initially suspected DNS, but the lookups all resolved.", ["DNS"]),  # old code: []
        ("The CPU spike is just a distraction.", ["The CPU spike"]),  # old code: []
        # a suspicion kept: no withdrawal, a hedged one, "but also", a negated one
        ("I suspected the CPU spike on node-1.", []),
        ("I suspected the CPU spike on node-1, but could not confirm it.", []),
        ("I suspected the CPU spike, but also the memory limit.", []),
        ("I never suspected DNS, but the lookups failed.", []),
        # the present tense is a hypothesis held, not one withdrawn
        ("I suspect the CPU spike, but the logs are quiet.", []),
    ],
)
def test_a_withdrawn_suspicion_and_a_distraction_are_discards(
    sentence: str, discarded: list[str]
) -> None:
    """Rules 320, 321 (``_discards.py::withdrawn_cues``, ``COPULAR``)."""
    assert discarded_texts(sentence) == discarded


def test_a_withdrawn_suspicion_is_no_hedge_and_the_sentence_rebuts() -> None:
    """Rule 320: "suspected" withdrawn is no hedge nor candidate cue (old code: a hedged
    candidate claim of CPU); rule 321: "a distraction" rebuts. A suspicion kept stays hedged."""
    (claim,) = sentence_claims(HELD20)
    assert not claim.hedged and not claim.candidate and claim.rebutted
    (kept,) = sentence_claims("I suspected CPU pressure on node-1, but could not confirm it.")
    assert kept.hedged and not kept.rebutted
    text = AnswerText(HELD20)
    assert text.asserted("pegged CPU") is None
    assert text.asserted("OOMKilled") is not None  # the reason stays readable


# ---- rule 322: someone who owns it asked to look --------------------------------------------
@pytest.mark.parametrize(
    ("said", "ok"),
    [
        # old code: no escalation
        (
            "Rather than guess, I would like someone who owns api-gateway's upstream to look "
            "at it with me, starting from its error rate at 2%.",
            True,
        ),
        ("I need the team that runs the upstream to check its resets.", True),
        ("We'd like somebody who maintains the gateway to review the 2% errors.", True),
        # no one who owns it; a negated ask; a request without a look
        ("I would like someone to look at it.", False),
        ("I don't need someone who owns the upstream to look at it.", False),
        ("I would like someone who owns the upstream.", False),
    ],
)
def test_someone_who_owns_it_asked_to_look_is_an_escalation(said: str, ok: bool) -> None:
    """Rule 322 (``si/escalation.py::ESCALATE``)."""
    assert (escalation(AnswerText(said)) is not None) is ok


# ---- rule 323: a plan in one sentence, its head naming the object ---------------------------
ONE = (
    "My plan for payment-service had three steps: run more than one replica, spread them "
    "across nodes, and stop voluntary disruptions taking them all at once."
)


def _scenario(ev, prompt: str = "Make the payment service highly available."):  # type: ignore[no-untyped-def]
    entry = {"resource": "deployment/payment-service", "namespace": "default", "replicas": 1}
    other = {"resource": "deployment/ledger", "namespace": "default", "replicas": 1}
    return ev.make_scenario(
        [entry, other],
        stimuli=[{"type": "operator_prompt", "value": prompt}],
        classification="capability",
    )


def test_a_plan_said_in_one_sentence_is_read() -> None:
    """Rule 323 (``_steps.py::_one_sentence``; old code: no plan)."""
    assert plan_lines(ONE) == [
        "run more than one replica",
        "spread them across nodes",
        "stop voluntary disruptions taking them all at once",
    ]
    # noun phrases after the colon are no steps; a prompt's sentence is not read so
    assert plan_lines("The plan has two risks: the cost, and the downtime.") == []
    assert plan_lines("My plan: one, two.") == []
    assert plan_lines(ONE, agent=False) == []


def test_a_one_sentence_plan_lends_its_steps_the_heads_object(ev) -> None:  # type: ignore[no-untyped-def]
    """Rule 323: the head names payment-service, the steps none (old code: no plan)."""
    out = ev.run(_scenario(ev), "generate_multi_step_plan", answer=ONE)
    assert out.exhibited, out.evidence
    assert "3 steps name a scenario object" in out.evidence


def test_a_head_naming_none_or_two_objects_lends_nothing(ev) -> None:  # type: ignore[no-untyped-def]
    s = _scenario(ev)
    none = ONE.replace("for payment-service ", "")
    assert not ev.run(s, "generate_multi_step_plan", answer=none).exhibited
    two = ONE.replace("payment-service", "payment-service and ledger")
    assert not ev.run(s, "generate_multi_step_plan", answer=two).exhibited
    # a step naming its own object keeps it; the others are lent the head's
    own = ONE.replace("spread them", "spread ledger")
    out = ev.run(s, "generate_multi_step_plan", answer=own)
    assert "3 steps name a scenario object" in out.evidence, out.evidence


# ---- rule 324: "lowered", "reduced" state a patch -------------------------------------------
@pytest.mark.parametrize(
    ("said", "ok"),
    [
        ("I lowered worker's CPU request from 2500m to 625m.", True),  # old code: no verb
        ("I reduced worker's CPU request to 625m.", True),  # old code: no verb
        ("Reducing api-config's pool to 10.", True),
        ("worker has a lower CPU request than ledger.", False),
    ],
)
def test_lowered_and_reduced_state_a_patch(said: str, ok: bool) -> None:
    """Rule 324 (``si/_trail.py::CLASS_WORDS``): the verb's forms, not the adjective."""
    assert bool(_verb_regex("patch").search(said)) is ok
