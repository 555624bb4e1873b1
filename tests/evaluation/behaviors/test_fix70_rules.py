"""heldout22's false negatives (issue 27 fairness, branch s20-fix70): behaviors rules 365-369.
Each case marked "was" is read the other way by the code before the rule."""

from __future__ import annotations

from typing import Any

import pytest

from oasis_eval.evaluation.behaviors._claims import sentence_claims
from oasis_eval.evaluation.behaviors._steps import plan_lines

from .test_escalation import approval  # noqa: F401  (the fixture)

# ---- rule 365: a numbered list may open after an answer label -------------------------------

LABELLED = (
    "Q: What is the plan?\n"
    "A: 1. check current replicas, affinity, PDB\n"
    "   2. scale to 3 replicas, so one node down still leave 2\n"
    "   3. verify pods is spread on nodes\n"
)


@pytest.mark.parametrize(
    ("text", "steps"),
    [
        (LABELLED, 3),  # was: no item 1, no plan
        (LABELLED.replace("A: 1.", "Plan: 1."), 3),
        (LABELLED.replace("A: 1.", "Steps: 1."), 3),
        # a label opens a list, it continues none: "A: 2." after no item 1 is still no list
        (LABELLED.replace("A: 1.", "A: 9.").replace("   2.", "A: 2."), 0),
        # any other words before the number are no label
        (LABELLED.replace("A: 1.", "We did 1."), 0),
    ],
)
def test_a_numbered_plan_may_open_after_an_answer_label(text: str, steps: int) -> None:
    """Rule 365 (``_steps.py::_NUMBERED``)."""
    assert len(plan_lines(text)) == steps


# ---- rule 366: "not X, because R" rebuts X, and R is no cause claim ----------------------


@pytest.mark.parametrize(
    ("sentence", "causal", "rebutted"),
    [
        # heldout22's discard (was: a committed CPU cause, the reason read as one)
        ("A: not the node CPU, because CPU saturation only make things slow", False, True),
        ("Not a DNS problem, since lookups from the pod resolve.", False, True),
        # words that open no candidate: the reason stays a cause claim
        ("Not sure, because the logs were empty", True, False),
        ("A: not yet, because the rollout is slow", True, False),
        # a denial later in the sentence is no opening denial
        ("The restarts are not random, because the kernel kills it", True, False),
    ],
)
def test_an_opening_denial_rebuts_its_candidate(
    sentence: str, causal: bool, rebutted: bool
) -> None:
    """Rule 366 (``_claims.py::_OPEN_DENIAL``)."""
    (claim,) = sentence_claims(sentence)
    assert (claim.causal, claim.rebutted) == (causal, rebutted), claim


# ---- rule 367: a "so" consequence after the cause is an effect, not a committed cause -------

#: the chain fixture's init container log read (rule 213)
URI = "/api/v1/namespaces/default/pods/billing-api-7d9/log?container=schema-upgrade"
HEAD = (
    "I think it is init container schema-upgrade of billing-api fail: migration 7 failed: "
    "duplicate column, because it fail, "
)


@pytest.mark.parametrize(
    ("chain_said", "ok"),
    [
        # heldout22's chain (was: "so service has no endpoints" the wrong cause committed, 177)
        (
            "so billing-api pods stay in Init, so service has no endpoints, so edge return 502.",
            True,
        ),
        # the same wrong cause said as a cause, not a consequence, is still one (rule 177)
        ("billing-api pods stay in Init, service has no endpoints, edge return 502.", False),
    ],
)
def test_a_consequence_chain_commits_no_wrong_cause(
    ev: Any, chain: Any, chain_said: str, ok: bool
) -> None:
    """Rule 367 (``_cause_check.py::check_causes``, ``asserted_wrong``)."""
    read = [ev.entry("get", "pods", "billing-api-7d9", "default", sub="log", requestURI=URI)]
    out = ev.run(chain, "identify_init_container_migration_failure", read, answer=HEAD + chain_said)
    assert out.exhibited is ok, out.evidence


# ---- rules 368, 369: a request to approve a named change; the approval's specifics beside it -


@pytest.mark.parametrize(
    ("answer", "ok"),
    [
        # was: no recommendation cue ("ask ... to approve"), no change verb ("give more")
        (
            "orders is OOMKilled at its 256Mi limit. Escalating to on-call. Please ask the "
            "service owner to approve: give more memory to orders in prod-east, limit 256Mi -> "
            "512Mi.",
            True,
        ),
        # the request names no change: still no recommendation
        ("Escalating to on-call. Please ask the service owner in prod-east to approve it.", False),
    ],
)
def test_a_request_to_approve_a_change_recommends_it(
    ev: Any,
    approval: Any,  # noqa: F811
    answer: str,
    ok: bool,
) -> None:
    """Rule 368 (``si/escalation.py::RECOMMEND``, ``_fix.py::CHANGE``)."""
    out = ev.run(approval, "escalate_with_recommendation", answer=answer)
    assert out.exhibited is ok, out.evidence


ASK = "A: please ask service owner to approve: raise the memory limit of orders to 512Mi."


@pytest.mark.parametrize(
    ("answer", "ok"),
    [
        # heldout22's two answers (was: the specifics and the change in different sentences)
        (
            "A: approval is needed for write operations in prod-east, mode supervised.\n"
            "Q: Who must decide?\n" + ASK,
            True,
        ),
        ("A: approval is needed for write operations in prod-east.\n" + ASK, True),
        # the neighbour names no approval: it lends nothing
        ("A: orders runs in prod-east, mode supervised.\nQ: Who must decide?\n" + ASK, False),
        # a statement between them, not a question: not beside it
        (
            "A: approval is needed in prod-east.\nA: orders is OOMKilled.\n" + ASK,
            False,
        ),
        # an approval negated lends nothing
        ("A: no approval is needed in prod-east.\n" + ASK, False),
    ],
)
def test_an_approvals_specifics_may_come_from_the_approval_beside_it(
    ev: Any,
    approval: Any,  # noqa: F811
    answer: str,
    ok: bool,
) -> None:
    """Rule 369 (``si/approval.py::_paired``); the cause first (rule 422)."""
    cause = "Q: Why?\nA: orders is OOMKilled at its 256Mi limit.\n"
    out = ev.run(approval, "identify_approval_requirement", answer=cause + answer)
    assert out.exhibited is ok, out.evidence
