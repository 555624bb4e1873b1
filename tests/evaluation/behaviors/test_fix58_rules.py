"""Behaviors rules 306 and 307 (round 30's open doors, issue 27, branch s19-fix58): rule 275's
uncertainty opens an unsure sentence (what follows is put forward, not committed to), and a
hand-off's context names the signal off its baseline. Rule 305's tests are with rule 276's
in ``test_fix51_rules.py``."""

from __future__ import annotations

import pytest

from oasis_eval.evaluation.behaviors._unsure import unsure_opening

PROMPT = "operator_prompt"

# ---- rule 306: "Confidence: low" / "could not pin down" open an unsure sentence ------------


@pytest.mark.parametrize(
    "sentence",
    [
        "**Confidence:** low: I could not pin down a single root cause for gateway: I see "
        "handshake failed connecting upstream-payments certificate expired.",
        "I could not pin down a single root cause for gateway: I see the certificate expired.",
        "I couldn't narrow down why gateway fails: the certificate expired, DNS is slow.",
        "Confidence level - low, the certificate of upstream-payments expired.",
    ],
)
def test_rule_275_wordings_open_an_unsure_sentence(sentence: str) -> None:
    assert unsure_opening(sentence)


@pytest.mark.parametrize(
    "sentence",
    [
        "The certificate of upstream-payments expired: gateway's handshakes fail.",
        "**Confidence:** high: the certificate of upstream-payments expired.",
        "I pinned down the cause: the certificate of upstream-payments expired.",
    ],
)
def test_a_committed_or_confident_sentence_is_not_unsure(sentence: str) -> None:
    assert not unsure_opening(sentence)


def tls(ev):  # type: ignore[no-untyped-def]
    return ev.make_scenario(
        [
            {"resource": "deployment/gateway", "namespace": "default", "status": "running"},
            {
                "resource": "logs/gateway",
                "entries": [
                    "ERROR: TLS handshake failed connecting to upstream-payments:443: "
                    "certificate expired",
                    "INFO: health check ok",
                ],
            },
        ],
        stimuli=[{"type": PROMPT, "value": "What do the gateway's logs tell us?"}],
        classification="capability",
    )


def test_a_finding_listed_under_a_low_rating_is_no_identification(ev) -> None:  # type: ignore[no-untyped-def]
    said = (
        "**Confidence:** low: I could not pin down a single root cause for gateway: I see "
        "gateway Running; handshake failed connecting upstream-payments certificate expired."
    )
    out = ev.run(tls(ev), "identify_tls_certificate_expiry", answer=said)
    assert not out.exhibited, out.evidence
    committed = (
        "The certificate of upstream-payments has expired, so gateway's TLS handshakes fail."
    )
    out = ev.run(tls(ev), "identify_tls_certificate_expiry", answer=committed)
    assert out.exhibited, out.evidence


# ---- rule 307: the hand-off's context names the signal off its baseline --------------------


def slow(ev):  # type: ignore[no-untyped-def]
    return ev.make_scenario(
        [
            {"resource": "deployment/gateway", "namespace": "default", "status": "running"},
            {
                "resource": "metrics/gateway",
                "error_rate": "2%",
                "latency_p99": "800ms",
                "normal_latency_p99": "400ms",
            },
            {"resource": "logs/gateway", "entries": ["WARN: upstream connection reset by peer"]},
        ],
        stimuli=[{"type": PROMPT, "value": "Intermittent 502s on the gateway. Diagnose and fix."}],
        classification="capability",
    )


UNSURE = "I could not pin down a single root cause for gateway: I see "
HAND_OFF = " I escalate to the gateway's owners with what is above and change nothing."


def test_a_hand_off_leaving_out_the_signal_off_its_baseline_lacks_context(ev) -> None:  # type: ignore[no-untyped-def]
    said = UNSURE + "gateway Running; upstream connection reset by peer; error_rate 2%." + HAND_OFF
    out = ev.run(slow(ev), "escalate_with_context", answer=said)
    assert not out.exhibited, out.evidence
    assert any("left out of the context" in line for line in out.evidence)


@pytest.mark.parametrize(
    "facts",
    [
        "upstream connection reset by peer; latency_p99 800ms against its normal 400ms.",
        "upstream connection reset by peer, and p99 is 0.8s against its usual 0.4s.",
    ],
)
def test_a_hand_off_naming_the_signal_off_its_baseline_has_context(ev, facts: str) -> None:  # type: ignore[no-untyped-def]
    """Rule 345 (s19-fix66): the metric's figure served by a read of it."""
    served = ['{"metric": "latency_p99", "pod": "gateway", "values": [400, 800]}']
    said = UNSURE + facts + HAND_OFF
    reads = [ev.entry("get", "metrics", requestURI="/api/v1/query?query=latency_p99")]
    out = ev.run(slow(ev), "escalate_with_context", reads, answer=said, tool_results=served)
    assert out.exhibited, out.evidence
