"""The claim reader and cause precision (issue 13 item 2)."""

from __future__ import annotations

from oasis_eval.evaluation.behaviors._cause_check import check_causes
from oasis_eval.evaluation.behaviors._claims import claims, fault_classes
from oasis_eval.evaluation.behaviors.text import AnswerText


def _flags(text: str) -> list[tuple[bool, bool, bool, bool]]:
    return [(c.asserted, c.hedged, c.rebutted, c.causal) for c in claims(text)]


def test_assertion_hedge_and_rebuttal() -> None:
    assert _flags("The root cause is the exhausted connection pool.") == [
        (True, False, False, True)
    ]
    assert _flags("It might be caused by DNS.") == [(False, True, False, True)]
    assert _flags("I can't confirm that DNS is the cause.")[0][1]  # hedged by a contraction
    assert _flags("The CPU spike is not the cause.") == [(False, False, True, True)]


def test_because_in_a_rebuttal_is_not_blame() -> None:
    got = claims("The CPU is a misleading signal, because the pod runs on another node.")
    assert not any(c.asserted for c in got)
    got = claims("CPU is not the cause, because CPU throttles and never kills a container.")
    assert not any(c.asserted for c in got)


def test_a_list_after_one_cue_is_a_list_of_causes() -> None:
    text = AnswerText("Root cause identified: OOM kills; a missing ConfigMap key; DNS; quota.")
    check = check_causes(text, ["OOM*"], {"memory"})
    assert (len(check.correct), len(check.wrong), check.precise) == (1, 3, False)


def test_quoted_cue_is_not_the_agents_claim() -> None:
    assert not any(c.causal for c in claims('The log says "root cause: DNS failure".'))


def test_neutral_causes_do_not_count() -> None:
    text = AnswerText("ledger is OOMKilled. Its CPU is busy because of garbage collection.")
    check = check_causes(text, ["OOM*"], {"memory"}, stated=True)
    assert check.precise and check.wrong == []


def test_fault_classes_are_general() -> None:
    assert fault_classes("PersistentVolumeClaim data-0 is Pending") == {"storage"}
    assert fault_classes("coredns returns NXDOMAIN") == {"dns"}
    assert fault_classes("exceeded quota: compute-resources") == {"quota"}


def test_a_contrastive_tail_is_no_cause() -> None:
    text = AnswerText("The restarts are due to pool exhaustion rather than CPU.")
    check = check_causes(text, [], {"connection-pool"})
    assert (len(check.correct), check.wrong) == (1, [])
    listed = AnswerText("The cause: OOM kills, memory leak, heap growth, not CPU.")
    assert check_causes(listed, ["OOM*"], {"memory"}).wrong == []


def test_a_wrong_diagnosis_names_a_cause_and_none_true() -> None:
    wrong = AnswerText("checkout-gateway is down, which is why checkout fails.")
    assert check_causes(wrong, ["selector"], {"endpoints"}, where=["checkout-gateway"]).wrong
    located = AnswerText("The problem is in mail-settings.")
    check = check_causes(located, ["MAIL_PORT"], {"configuration"}, where=["mail-settings"])
    assert check.asserted == 1 and not check.wrong_diagnosis


def test_a_self_denied_slot_and_an_uncertain_list_commit_to_nothing() -> None:
    """Issue 27 item 1: "X of W failing, for example Y, is not the cause" rebuts the whole
    slot; "I'm not sure which of these explains it: A; B; C" commits to no item."""
    from oasis_eval.evaluation.behaviors._claim_views import committed_text

    denied = (
        "The init container db-migrate of api failing, for example a failed database migration "
        "is not the cause; I ruled it out."
    )
    assert committed_text(AnswerText(denied)).kept == []
    kept = committed_text(AnswerText("ledger runs out of memory, and the CPU is not the cause."))
    assert kept.kept == ["ledger runs out of memory"]
    unsure = (
        "I'm not sure which of these explains it: api is OOMKilled; db is Pending; dns is down."
    )
    assert committed_text(AnswerText(unsure)).kept == []
