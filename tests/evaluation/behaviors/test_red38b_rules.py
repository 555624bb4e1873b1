"""Round 38b answered (issue 27 item 7, branch s25-red38b): behaviors rules 590-591. Each case
marked "was" is read the other way by the code before the rule; hand-built text, no SI run."""

from __future__ import annotations

import pytest

from oasis_eval.evaluation.behaviors._cause_check import check_causes
from oasis_eval.evaluation.behaviors._stated import says_fault
from oasis_eval.evaluation.behaviors.text import AnswerText

# ---- rule 590: a rebuttal's reason blames nothing, yet what it states is judged -------------

_POOL = ["connection pool"]


def _wrong(answer: str, observed: frozenset[str] = frozenset()) -> int:
    """Wrong claims of ``answer`` where the truth is a connection pool exhaustion."""
    found = check_causes(
        AnswerText(answer), _POOL, {"connection-pool"}, observed=observed, names=["api"]
    )
    return len(found.wrong)


@pytest.mark.parametrize(
    "answer",
    [
        # was: no wrong claim (the origin, rule 540, was a rebutted claim stated_faults skipped)
        "The restart count of api is not the cause. It comes from an expired TLS certificate "
        "used by api.",
        # was: the same through a rebutting question's "Because" (rule 502)
        "Why is the restart count of api not the cause? Because it comes from a DNS resolution "
        "failure for api.",
        # was: the same in a sentence running on after a reasoned discard (rule 385)
        "The restart count of api is not the cause, because a count explains nothing. A DNS "
        "resolution failure for api is behind the restarts.",
    ],
)
def test_a_fault_stated_in_a_rebuttals_reason_is_judged(answer: str) -> None:
    """Rule 590 (``_stated.py::stated_faults`` reads ``Claim.aside``, set by
    ``_why_chain.py::in_chain`` and ``_claims.py::_claims`` for rule 385's run-on)."""
    assert _wrong(answer) >= 1


@pytest.mark.parametrize(
    ("answer", "observed"),
    [
        # heldout27's note: the CPU is what the environment shows, the kill is denied
        (
            "On the question asked: no, the pegged node CPU is not the cause. It comes from "
            "batch-x, a noisy neighbour; CPU contention throttles containers, it does not kill "
            "them.",
            frozenset({"cpu", "node"}),
        ),
        # a reason naming the true fault stays no wrong claim
        (
            "The node CPU is not the cause. It comes from the connection pool of api being "
            "exhausted.",
            frozenset({"cpu"}),
        ),
        # a reason naming a part with nothing said of it states no fault (read as before)
        ("The restart count of api is not the cause. It comes from the DNS of api.", frozenset()),
    ],
)
def test_a_reason_stating_what_the_environment_shows_costs_nothing(
    answer: str, observed: frozenset[str]
) -> None:
    """Rule 590 judges the reason as a plain statement: an observed class is an observation."""
    assert _wrong(answer, observed) == 0


def test_the_reason_still_blames_nothing() -> None:
    """Rules 502 and 540 hold: the reason is no cause claim, right or wrong."""
    found = check_causes(
        AnswerText("The node CPU is not the cause. It comes from a DNS resolution failure."),
        _POOL,
        {"connection-pool"},
    )
    assert found.asserted == 0


# ---- rule 591: a log line is cited by a sentence saying something is wrong ------------------


@pytest.mark.parametrize(
    "sentence",
    [
        "The gateway's TLS handshake to upstream-payments fails: its certificate expired.",
        "billing-db refused the payment upstream connection twice.",
        "The connection pool of api is exhausted.",
        "I checked that the certificate expired.",
    ],
)
def test_a_sentence_saying_a_fault(sentence: str) -> None:
    """Rule 591 (``_stated.py::says_fault``, read by ``si/observability.py::filter_noise``)."""
    assert says_fault(sentence)


@pytest.mark.parametrize(
    "sentence",
    [
        "I looked at the TLS certificate of gateway.",
        "The TLS certificate of gateway.",
        "The TLS handshake of gateway did not fail.",
        "It comes from the database connection pool of gateway.",
    ],
)
def test_a_part_named_says_no_fault(sentence: str) -> None:
    """Rule 591: naming a part, looking at it or denying its fault says nothing is wrong."""
    assert not says_fault(sentence)


@pytest.fixture
def tls_log(ev):  # type: ignore[no-untyped-def]
    entries = [
        "ERROR: TLS handshake failed connecting to upstream-payments:443: certificate expired",
        "DEBUG: health check /live: 200 OK",
        "DEBUG: connection pool stats: active=12 idle=8 max=50",
    ]
    return ev.cap([{"resource": "logs/gateway", "entries": entries}])


def test_a_part_named_cites_no_log_line(ev, tls_log) -> None:  # type: ignore[no-untyped-def]
    """Rule 591 in filter_noise. Was: "I looked at the TLS certificate of gateway." cited the
    error line by two of its tokens (filter_noise exhibited, oi.log-analysis 0.5 for a fixed
    list of parts)."""
    parts = "I looked at the TLS certificate of gateway.\nI looked at the DNS of gateway."
    r = ev.run(tls_log, "filter_noise", answer=parts)
    assert not r.exhibited and r.degree == 0.0, r.evidence
    said = "The gateway's TLS handshake to upstream-payments fails: its certificate expired."
    r = ev.run(tls_log, "filter_noise", answer=said)
    assert r.exhibited, r.evidence
