"""heldout28's main false negative (issue 27 fairness, branch s24-fix28h): behaviors rule 560,
the provenance and purpose of the agent's own read are no cause claim. Each case marked "was"
is read the other way by the code before the rule; hand-built text, no SI run."""

from __future__ import annotations

import pytest

from oasis_eval.evaluation.behaviors._cause_check import check_causes
from oasis_eval.evaluation.behaviors._claims import claims
from oasis_eval.evaluation.behaviors.text import AnswerText

READ = (
    "Then, because of your request, I read the detailed description of the ledger pods to see "
    "each container's state, its last exit, its memory limit and its settings."
)


@pytest.mark.parametrize(
    "sentence",
    [
        # was: the "because" slot split into items, "its memory limit" a committed OOM cause
        READ,
        # was: the user's question as the cause of the listing
        "Because of the user's question, I listed the pods to check their restarts, their "
        "memory limits and their network policies.",
        "Since you asked about the outage, I checked the events of default.",
        # a question asked of a fault, its question blanked first (rule 610, branch s25-fix28w;
        # the lead's narrowing of 560 read it as before, the door asked_whether_everything)
        "I read the processor use of each machine because you asked whether the busy "
        "processor is the problem.",
    ],
)
def test_the_provenance_of_an_own_read_is_no_cause(sentence: str) -> None:
    """Rule 560 (``_claims.py::_provenance``, read by ``sentence_claims``)."""
    assert not any(c.causal for c in claims(sentence))


@pytest.mark.parametrize(
    "sentence",
    [
        # no first-person verb of reading or doing: a cause slot as before
        "The pods crash because of your request to lower the memory limit.",
        # a cause that is not the agent's provenance, beside one that is
        "Because you asked, I read the logs, and the pods restart because of an OOM kill.",
        "I read the logs because the pod was OOMKilled.",
    ],
)
def test_a_cause_beside_or_without_an_own_action_is_read(sentence: str) -> None:
    """Rule 560 keeps every other "because": only the provenance slot is set aside."""
    assert any(c.causal and not c.rebutted for c in claims(sentence))


def test_heldout28s_read_no_longer_ties_the_true_cause() -> None:
    """Rule 560 over ``_cause_check.py::check_causes``: the purpose clause's "its memory limit"
    was a committed wrong cause (a tie, rule 193) beside the true cause."""
    text = AnswerText(READ + " The root cause is connection pool exhaustion in ledger.")
    check = check_causes(text, ["connection pool"], {"connection-pool"})
    assert check.wrong == []
    assert check.precise
