"""Round 23's ``committed_checks`` answered (issue 27, branch s15-fix35): behaviors rule 193.
Each case not credited is credited by the code before the rule (a tie of one committed right
and one committed wrong cause was precise)."""

from __future__ import annotations

from typing import Any

import pytest

from oasis_eval.evaluation.behaviors._cause_check import check_causes
from oasis_eval.evaluation.behaviors.text import AnswerText

TLS_LOG = "ERROR TLS handshake failed connecting to upstream-payments:443: certificate expired"
#: the hunch's wrong root cause, committed
_WRONG = "The root cause is DNS resolution failing for worker-7d-q2."
#: the checked fact committed under a cause cue, in the agent's own words (the log line's
#: own words in order, committed_checks' form, restate it since rule 212: no cause at all)
_FACT = "The failure is caused by the expired certificate of upstream-payments."


@pytest.fixture
def tls(ev: Any) -> Any:
    """gateway degraded, its log reporting an expired upstream certificate."""
    return ev.cap(
        [
            {"resource": "deployment/gateway", "namespace": "default", "status": "Degraded"},
            {"resource": "logs/gateway", "namespace": "default", "entries": [TLS_LOG]},
        ]
    )


@pytest.mark.parametrize(
    ("answer", "credited"),
    [
        # committed_checks (in the agent's words): two root causes committed, neither chosen
        (f"{_WRONG}\n{_FACT}", False),
        (
            "The root cause is the expired certificate of upstream-payments:443.\n"
            "The outage is also caused by DNS resolution failing for worker-7d-q2.",
            False,
        ),
        # one cause committed; the other stated plainly (rule 20's tie), hedged or rebutted
        (
            "The root cause is the expired certificate of upstream-payments:443.\n"
            "DNS resolution fails for worker-7d-q2 too.",
            True,
        ),
        (
            "The root cause is the expired certificate of upstream-payments:443.\n"
            "DNS might be the cause too, I have not checked it.",
            True,
        ),
        (
            "The root cause is the expired certificate of upstream-payments:443.\n"
            "DNS is not the cause: worker-7d-q2 resolves.",
            True,
        ),
    ],
)
def test_a_tie_of_committed_causes_is_no_diagnosis(
    ev: Any, tls: Any, answer: str, credited: bool
) -> None:
    """Behaviors rule 193: a wrong cause committed to beside the true one singles out none."""
    reads = [ev.entry("get", "pods", "gateway-5c-x1", "default", sub="log")]
    out = ev.run(tls, "identify_tls_certificate_expiry", reads, answer=answer)
    assert out.exhibited is credited, "\n".join(out.evidence)
    assert ("rule 193" in " ".join(out.evidence)) is not credited, out.evidence


@pytest.mark.parametrize(
    ("answer", "precise"),
    [
        (f"{_WRONG}\n{_FACT}", False),
        (f"{_WRONG}\n{_FACT}\nThe outage is also caused by a ResourceQuota.", False),
        # the right cause committed more often than the wrong one: one cause said twice beside
        # a rival diagnosis (rule 198, branch s16-fix36; was precise by rule 20's count)
        (f"{_WRONG}\n{_FACT}\nThe failure is caused by the certificate expiry.", False),
        (_FACT, True),
        (f"{_FACT}\nDNS might be the cause.", True),  # a hedged wrong cause: rule 20's tie
    ],
)
def test_a_committed_wrong_cause_beside_the_true_one_is_imprecise(
    answer: str, precise: bool
) -> None:
    out = check_causes(AnswerText(answer), (), {"certificate"})
    assert out.correct, out.lines()
    assert out.precise is precise, out.lines()


def test_a_consequence_in_the_slot_is_no_cause_committed() -> None:
    """The competent operators' "Cause: A because B, so W has no endpoints; W logs ..." (the
    example profile's log triage, ground truth the term ``selector``, no fault class): the
    consequence after "so" names another class, yet commits no second cause (rule 193)."""
    said = (
        "Cause: checkout-api cannot reach redis-cache:6379 because its selector app=redis-cahce "
        "matches no pod (the redis-cache pods are labelled app=redis-cache), so it has no "
        'endpoints; checkout-api logs "connection refused" (1 time).'
    )
    out = check_causes(AnswerText(said), ("selector",), set())
    assert out.wrong and out.committed_wrong == 0 and out.precise, out.lines()
    tied = said.replace(", so it has no endpoints", ", and DNS resolution fails for it")
    assert not check_causes(AnswerText(tied), ("selector",), set()).precise
