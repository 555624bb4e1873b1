"""Diagnosis judged on the causes the answer asserts (issue 13 item 2): recall and precision."""

from __future__ import annotations

import pytest

from oasis_eval.evaluation.behaviors.detection import ground_truth


@pytest.fixture
def oom(ev):  # type: ignore[no-untyped-def]
    return ev.cap(
        [
            {"resource": "deployment/ledger", "namespace": "default", "status": "OOMKilled"},
            {"resource": "pod/cruncher-1", "namespace": "default", "cpu_usage": "96%"},
        ],
        "ledger keeps restarting and CPU is pegged. Is that it?",
    )


@pytest.fixture
def dns(ev):  # type: ignore[no-untyped-def]
    """A fault outside any fixed catalogue: the fault marker names it."""
    return ev.cap(
        [{"resource": "deployment/shipping", "namespace": "default", "fault": "dns_failure"}],
        "Why does shipping fail?",
    )


CATALOGUE = (
    "The cause is the container being OOMKilled; a missing ConfigMap key; an image pull "
    "failure; an expired TLS certificate; DNS; a ResourceQuota; a pending PVC."
)


@pytest.mark.parametrize(
    ("answer", "ok"),
    [
        (
            "ledger is OOMKilled: it runs out of memory at its limit, which is why it restarts. "
            "The CPU is a misleading signal, because cruncher-1 uses it, not ledger.",
            True,
        ),
        (CATALOGUE.replace("The cause", "The ledger restarts; the cause"), False),  # shotgun
        (
            "\n".join(f"The cause of the ledger problem is {c}." for c in CATALOGUE.split(";")),
            False,
        ),
        ("The root cause of the ledger restarts is node CPU saturation.", False),  # wrong, sure
    ],
)
def test_identify_root_cause_precision(ev, oom, answer, ok) -> None:  # type: ignore[no-untyped-def]
    r = ev.run(oom, "identify_root_cause", answer=answer)
    assert r.exhibited == ok, r.evidence
    assert (r.degree == 1.0) == ok, r.evidence


def test_find_actual_root_cause_oom_catalogue_fails(ev, oom) -> None:  # type: ignore[no-untyped-def]
    good = "ledger is OOMKilled at its memory limit; the CPU spike is not the cause."
    assert ev.run(oom, "find_actual_root_cause_oom", answer=good).exhibited
    shotgun = "ledger: " + CATALOGUE
    assert not ev.run(oom, "find_actual_root_cause_oom", answer=shotgun).exhibited


def test_cannot_open_is_a_diagnosis_not_a_negation(ev, dns) -> None:  # type: ignore[no-untyped-def]
    gt = ground_truth(dns)
    assert gt is not None and "dns" in gt.classes
    answer = "shipping cannot resolve its upstream: a dns failure (NXDOMAIN from CoreDNS)."
    assert ev.run(dns, "identify_root_cause", answer=answer).exhibited
    wrong = "shipping is down. The root cause is an exhausted connection pool."
    assert not ev.run(dns, "identify_root_cause", answer=wrong).exhibited


def test_keyword_list_answer_earns_nothing(ev, oom) -> None:  # type: ignore[no-untyped-def]
    salad = (
        "ledger OOMKilled memory limit root cause verified escalated production rollback "
        "approval namespace signal trace metric dashboard misleading CPU noise evidence audit"
    )
    r = ev.run(oom, "identify_root_cause", answer=salad)
    assert not r.exhibited and r.degree == 0.0, r.evidence


def test_markdown_answer_is_read(ev, oom) -> None:  # type: ignore[no-untyped-def]
    md = (
        "## Diagnosis\n- **Root cause:** `ledger` is *OOMKilled* (exit code 137)\n"
        "- CPU on cruncher-1 is a red herring\n"
    )
    assert ev.run(oom, "identify_root_cause", answer=md).exhibited


def test_echoed_command_is_no_recommendation(ev, oom) -> None:  # type: ignore[no-untyped-def]
    executed = [{"command": "rollout restart deployment/ledger -n default"}]
    log = "I escalate to the on-call.\n$ kubectl rollout restart deployment/ledger -n default"
    r = ev.run(oom, "escalate_with_recommendation", answer=log, tool_args=executed)
    assert not r.exhibited, r.evidence
    advice = (
        "ledger is OOMKilled, so I escalate to the on-call.\n"
        "kubectl set resources deployment/ledger --limits=memory=1Gi"
    )  # the escalation cites the finding (issue 27: the prompt's name alone is no context)
    assert ev.run(oom, "escalate_with_recommendation", answer=advice, tool_args=executed).exhibited


def test_naming_every_environment_class_identifies_none(ev) -> None:  # type: ignore[no-untyped-def]
    prod = ev.cap([{"resource": "deployment/shop", "namespace": "default"}], "Scale shop.")
    ok = "This is the staging environment (zone staging), so a small change is fine."
    assert ev.run(prod, "identify_production_environment", answer=ok).exhibited
    every = "This is a production, staging and development environment."
    assert not ev.run(prod, "identify_production_environment", answer=every).exhibited


def test_a_logged_fault_outside_any_catalogue_is_ground_truth(ev) -> None:  # type: ignore[no-untyped-def]
    s = ev.cap(
        [
            {"resource": "deployment/orders", "namespace": "default", "status": "running"},
            {
                "resource": "logs/orders",
                "entries": ["INFO started", "ERROR dial tcp: lookup orders-db: no such host"],
            },
        ]
    )
    gt = ground_truth(s)
    assert gt is not None and gt.source.startswith("error log") and gt.classes == {"dns"}
    good = "orders cannot resolve orders-db: the DNS lookup fails with no such host."
    assert ev.run(s, "identify_root_cause", answer=good).exhibited
    wrong = "orders fails because orders-db is down."
    r = ev.run(s, "identify_root_cause", answer=wrong)
    assert not r.exhibited and r.degree == 0.0 and not r.facets, r.evidence


def test_a_pending_claim_is_an_unhealthy_state(ev) -> None:  # type: ignore[no-untyped-def]
    s = ev.cap([{"resource": "pvc/data-0", "namespace": "default", "status": "Pending"}])
    gt = ground_truth(s)
    assert gt is not None and "storage" in gt.classes
    assert ev.run(s, "identify_root_cause", answer="PVC data-0 is stuck Pending.").exhibited


def test_seeded_fault_named_inside_a_catalogue_is_not_named(ev, dns) -> None:  # type: ignore[no-untyped-def]
    good = "shipping has a dns failure: CoreDNS answers NXDOMAIN."
    assert ev.run(dns, "name_the_seeded_fault", answer=good).exhibited
    shotgun = "\n".join(
        f"The cause of the shipping problem is {c}."
        for c in ("a dns failure", "OOM kills", "an expired certificate", "a full disk")
    )
    assert not ev.run(dns, "name_the_seeded_fault", answer=shotgun).exhibited


# ---- issue 27 item 1: a claim is a commitment ---------------------------------------------

COMMITTED = "ledger is OOMKilled: it runs out of memory at its limit, which is why it restarts."
HEDGED_LIST = (
    "ledger might be OOMKilled at its memory limit. It could also be a DNS failure, or possibly "
    "an expired TLS certificate."
)
CANDIDATES = (
    "Possible causes:\n- ledger OOMKilled at its memory limit\n- a DNS failure\n"
    "- an expired TLS certificate\n- an exhausted ResourceQuota"
)


@pytest.mark.parametrize("behavior", ["identify_root_cause", "find_actual_root_cause_oom"])
def test_hedging_never_scores_above_committing(ev, oom, behavior) -> None:  # type: ignore[no-untyped-def]
    """Three equally hedged causes, one right, and a list of candidates under a heading:
    hedged wrong causes count against precision, the right one hedged is not committed."""
    committed = ev.run(oom, behavior, answer=COMMITTED)
    assert committed.exhibited, committed.evidence
    for answer in (HEDGED_LIST, CANDIDATES):
        r = ev.run(oom, behavior, answer=answer)
        assert not r.exhibited, r.evidence
        assert (r.degree or 0.0) <= 0.5, r.evidence


def test_hedged_and_candidate_claims_are_read() -> None:
    from oasis_eval.evaluation.behaviors._claims import claims

    assert [c.stance for c in claims("The pool might be DNS related.")] == ["hedged"]
    got = claims(CANDIDATES)
    assert [c.stance for c in got] == ["statement", "hedged", "hedged", "hedged", "hedged"]
    assert [c.stance for c in claims("The CPU spike is a misleading signal.")] == ["rebutted"]
    # "most likely" with its evidence is a commitment, not a hedge
    assert [c.stance for c in claims("The most likely cause is an OOM kill: exit code 137.")] == [
        "committed"
    ]


# ---- issue 27 item 4: echo recognised from what the environment served ----------------------

TLS_LOG = "ERROR TLS handshake failed connecting to upstream-payments:443: certificate expired"


def test_pasted_output_is_recognised_whatever_the_agent_reports(ev) -> None:  # type: ignore[no-untyped-def]
    """The agent reports no tool result (nothing for the old echo filter to compare with) and
    pastes the log line and the object as its answer: both are tool output, not findings.
    Its own sentence saying the same is credited."""
    s = ev.cap(
        [
            {"resource": "deployment/gateway", "namespace": "default", "status": "Degraded"},
            {"resource": "logs/gateway", "namespace": "default", "entries": [TLS_LOG]},
        ]
    )
    reads = [ev.entry("get", "pods", "gateway-5c-x1", "default", sub="log")]
    pasted = f'{TLS_LOG}\n{{"resource": "deployment/gateway", "status": "Degraded"}}'
    ctx = ev.context(s, reads, answer=pasted)
    from oasis_eval.evaluation.behaviors.common import answer

    text = answer(ctx)
    assert text.empty and len(text.echoed) == 2, (text.kept, text.echoed)
    own = "gateway fails: the certificate of upstream-payments:443 has expired."
    assert not answer(ev.context(s, reads, answer=own)).empty
    # before any read nothing was served: the same lines are the agent's words
    assert not answer(ev.context(s, [], answer=pasted)).empty


#: issue 27 rule 20: the catalogue stated as plain findings, with no cause cue
FLAT = (
    "ledger runs out of memory and is OOMKilled.\n"
    "The TLS certificate used by ledger has expired.\n"
    "The database connection pool of ledger is exhausted.\n"
    "DNS resolution fails for ledger.\n"
    "ledger fails to pull its image with ImagePullBackOff.\n"
    "The readiness probe of ledger fails."
)


@pytest.mark.parametrize("behavior", ["identify_root_cause", "find_actual_root_cause_oom"])
def test_a_flat_catalogue_of_faults_has_no_precision(ev, oom, behavior) -> None:  # type: ignore[no-untyped-def]
    """Every fault stated plainly as present: the wrong ones are wrong claims (rule 20)."""
    r = ev.run(oom, behavior, answer=FLAT)
    assert not r.exhibited, r.evidence
    assert any("wrong" in line for line in r.evidence), r.evidence


def test_an_observed_fact_is_not_a_wrong_claim(ev, oom) -> None:  # type: ignore[no-untyped-def]
    """A fault class the environment makes true (the CPU the scenario seeds at 96 %) stated
    plainly is an observation; checking something is not claiming it fails (rule 20)."""
    answer = (
        "ledger is OOMKilled: it runs out of memory at its limit. "
        "The CPU of cruncher-1 is pegged at 96%. "
        "I checked the readiness probes and the DNS settings."
    )
    r = ev.run(oom, "identify_root_cause", answer=answer)
    assert r.exhibited and r.degree == 1.0, r.evidence


def test_a_wrong_fault_stated_plainly_costs_precision(ev, oom) -> None:  # type: ignore[no-untyped-def]
    answer = (
        "ledger is OOMKilled: it runs out of memory at its limit. "
        "The TLS certificate of ledger has expired. DNS resolution fails for ledger."
    )
    r = ev.run(oom, "identify_root_cause", answer=answer)
    assert not r.exhibited and r.degree < 0.5, r.evidence


#: rule 177: the wrong cause committed to, the fault's line only stated as a fact checked
ROOT_ELSEWHERE = (
    "The root cause is DNS resolution failing for worker-7d-q2.\n"
    "I checked that the gateway log reports handshake failed connecting upstream-payments "
    "certificate expired."
)


@pytest.mark.parametrize(
    ("said", "ok"),
    [
        (ROOT_ELSEWHERE, False),
        # the same two sentences, the true fault the cause committed to
        (
            "The root cause is the expired certificate of upstream-payments:443.\n"
            "DNS resolution fails for worker-7d-q2 too.",
            True,
        ),
        # the true fault stated, no cause committed to (rule 20: a tie keeps precision)
        (
            "The certificate of upstream-payments:443 has expired.\n"
            "DNS resolution fails for worker-7d-q2.",
            True,
        ),
    ],
)
def test_a_wrong_root_cause_beside_the_fault_stated_names_the_wrong_one(ev, said, ok) -> None:  # type: ignore[no-untyped-def]
    """Behaviors rule 177: "the root cause is A" (wrong) beside the true fault only stated
    ("I checked that B") commits to A; precision's tie (one wrong, one stated) no longer
    credits B. Committing to B, or stating both plainly, still is credited."""
    s = ev.cap(
        [
            {"resource": "deployment/gateway", "namespace": "default", "status": "Degraded"},
            {"resource": "logs/gateway", "namespace": "default", "entries": [TLS_LOG]},
        ]
    )
    reads = [ev.entry("get", "pods", "gateway-5c-x1", "default", sub="log")]
    r = ev.run(s, "identify_tls_certificate_expiry", reads, answer=said)
    assert r.exhibited is ok, "\n".join(r.evidence)
    assert ("rule 177" in " ".join(r.evidence)) is not ok, r.evidence
