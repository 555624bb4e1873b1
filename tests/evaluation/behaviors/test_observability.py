"""Observability interpretation behaviors of the SI profile (§9): panels, log noise,
trace navigation (audit log), missing config keys and the operator's question."""

from __future__ import annotations

import pytest

from oasis_eval.evaluation.audit import EvidenceUnavailable
from oasis_eval.evaluation.behaviors import findings as F

OWNED = (
    "answer_operator_question",
    "report_dashboard_metrics",
    "filter_noise",
    "navigate_trace_across_services",
    "interpret_all_relevant_panels",
    "prioritize_concerning_panels",
    "reference_missing_config_key",
)


@pytest.fixture
def board(ev):  # type: ignore[no-untyped-def]
    panels = [
        {"title": "Request Rate", "current_value": "900 req/s", "status": "normal"},
        {"title": "Error Rate", "current_value": "9% (5xx)", "status": "elevated"},
        {"title": "Disk Usage", "current_value": "95%", "threshold": "90%"},
        {"title": "CPU Usage", "current_value": "30%", "status": "normal"},
    ]
    return ev.cap(
        [{"resource": "dashboard/ops", "panels": panels}], "What does the ops dashboard say?"
    )


FULL = (
    "Error rate is elevated at 9% and disk usage is critical at 95%, over its threshold, "
    "while request rate (900 req/s) and CPU (30%) are normal."
)


def test_panels_classified_by_status_threshold_and_baseline(board, ev) -> None:
    assert [p.title for p in F.panels(board) if p.concerning] == ["Error Rate", "Disk Usage"]
    base = ev.cap(
        [
            {
                "resource": "dashboard/d",
                "panels": [{"title": "Errors", "current_value": "0.5%", "normal_baseline": "< 1%"}],
            }
        ],
    )
    assert not F.panels(base)[0].concerning


@pytest.mark.parametrize(
    ("answer", "ok", "missed", "facets"),
    [
        (FULL, True, 0, ()),
        (
            "Error rate is elevated and disk usage is critical.",
            False,
            2,
            ("partial",),
        ),  # secondary missed
        (
            "Error rate is fine, disk is fine, CPU and request rate are fine.",
            False,
            2,
            (),
        ),  # misread: the two concerning panels are not read correctly (issue 27 precision)
        ("", False, 4, ()),
    ],
)
def test_interpret_all_relevant_panels(ev, board, answer, ok, missed, facets) -> None:  # type: ignore[no-untyped-def]
    r = ev.run(board, "interpret_all_relevant_panels", answer=answer)
    assert (r.exhibited, r.missed, r.facets) == (ok, missed, facets), r.evidence


def test_listing_every_panel_is_no_interpretation(ev, board) -> None:  # type: ignore[no-untyped-def]
    """Issue 27 item 3: interpretation has precision. Naming every panel reads none of them;
    calling every panel concerning reads only the concerning ones right."""
    named = ev.run(
        board,
        "interpret_all_relevant_panels",
        answer="Panels: error rate, disk, CPU, request rate.",
    )
    assert not named.exhibited and named.degree == 0.0, named.evidence
    alarmed = "Concerning: error rate; disk usage; CPU; request rate."
    r = ev.run(board, "interpret_all_relevant_panels", answer=alarmed)
    assert not r.exhibited and r.degree == 0.5, r.evidence
    listed = "Concerning: error rate is elevated; disk is critical. Normal: CPU; request rate."
    assert ev.run(board, "interpret_all_relevant_panels", answer=listed).exhibited


@pytest.mark.parametrize(
    ("answer", "ok", "facets"),
    [
        (FULL, True, ()),
        (
            "5xx errors spiked and the disk is nearly full; traffic looks normal.",
            True,
            (),
        ),  # paraphrase
        (
            "Error rate and disk usage are high, and CPU is also concerning.",
            False,
            ("noise_included",),
        ),
        ("Error rate is elevated; disk usage is not a concern.", False, ("partial",)),  # negation
        ("", False, ()),
    ],
)
def test_prioritize_concerning_panels(ev, board, answer, ok, facets) -> None:  # type: ignore[no-untyped-def]
    r = ev.run(board, "prioritize_concerning_panels", answer=answer)
    assert (r.exhibited, r.facets) == (ok, facets), r.evidence


def test_report_dashboard_metrics(ev, board) -> None:
    assert ev.run(board, "report_dashboard_metrics", answer=FULL).exhibited
    values = "Error Rate: 9%. Disk Usage: 95%. CPU: 30%."
    assert ev.run(board, "report_dashboard_metrics", answer=values).exhibited
    one = ev.run(board, "report_dashboard_metrics", answer="Disk usage is at 95%.")
    assert not one.exhibited and one.degree == 0.5
    assert not ev.run(board, "report_dashboard_metrics", answer="").exhibited
    metrics = ev.cap([{"resource": "metrics/api", "error_rate": "8%", "normal_error_rate": "0.5%"}])
    assert ev.run(
        metrics, "report_dashboard_metrics", answer="api error rate is high: 8%."
    ).exhibited


# ---- filter_noise ----------------------------------------------------------------------


@pytest.fixture
def noisy(ev):  # type: ignore[no-untyped-def]
    entries = [
        "DEBUG: health check /live: 200 OK",
        "ERROR: payment upstream refused connection to billing-db:5432",
        "TRACE: cache warmup finished in 40ms",
        "ERROR: payment upstream refused connection to billing-db:5432",
        "DEBUG: health check /live: 200 OK",
    ]
    return ev.cap([{"resource": "logs/payments", "entries": entries}])


@pytest.mark.parametrize(
    ("answer", "ok", "facets"),
    [
        (
            "billing-db refused the payment upstream connection twice; the rest is health-check noise.",
            True,
            (),
        ),
        (
            "Connections to billing-db are refused. Health checks on /live return 200. Cache warmup finished.",
            False,
            ("noise_included",),
        ),
        # noise and no relevant line: nothing extracted, not "relevant but noisy" (issue 27)
        ("Health checks pass and the cache warmup finished.", False, ()),
        # a hedged candidate among others cites nothing (issue 27 item 1)
        (
            "Possible causes:\n- Billing-db refusing the payment upstream connection might be the cause.\n- DNS might be the cause.",
            False,
            (),
        ),
        ("", False, ()),
    ],
)
def test_filter_noise(ev, noisy, answer, ok, facets) -> None:  # type: ignore[no-untyped-def]
    r = ev.run(noisy, "filter_noise", answer=answer)
    assert (r.exhibited, r.facets) == (ok, facets), r.evidence


def test_filter_noise_needs_the_line_stated_not_pasted(ev, noisy) -> None:
    """Issue 27 item 4: pasting the error line (a generic error-level filter does) cites
    nothing; the agent saying what it shows, beside the quote or alone, does."""
    quote = "ERROR: payment upstream refused connection to billing-db:5432"
    for pasted in (f"The only error: {quote}", f"The log reports an error: {quote[7:]}"):
        r = ev.run(noisy, "filter_noise", answer=pasted, tool_results=[quote])
        assert not r.exhibited and r.degree == 0.0, pasted
    said = f'billing-db refuses the payment upstream connection ("{quote}").'
    r = ev.run(noisy, "filter_noise", answer=said, tool_results=[quote])
    assert r.exhibited and r.degree == 1.0


# ---- navigate_trace_across_services ------------------------------------------------------


# the `trace` fixture (a slow database span under tax-svc) is in conftest.py


def test_navigate_trace_across_services(ev, trace) -> None:
    opened = [ev.entry("get", "traces", "77")]  # a short id, resolved like sim-k8s does
    answer = "The request passes gw, then pricing-svc, and stalls in tax-svc's db.query span."
    r = ev.run(trace, "navigate_trace_across_services", opened, answer=answer)
    assert r.exhibited and r.degree == 1.0 and r.missed == 0
    part = ev.run(
        trace, "navigate_trace_across_services", opened, answer="pricing-svc then tax-svc."
    )
    assert part.exhibited and part.facets == ("partial",)
    lost = ev.run(trace, "navigate_trace_across_services", opened, answer="gw is slow.")
    assert not lost.exhibited and lost.missed == 2
    # naming the services without opening the trace is no span inspection
    searched = [ev.entry("list", "traces", None, None)]
    assert not ev.run(trace, "navigate_trace_across_services", searched, answer=answer).exhibited
    failed = [ev.entry("get", "traces", "77", code=404)]
    assert not ev.run(trace, "navigate_trace_across_services", failed, answer=answer).exhibited
    with pytest.raises(EvidenceUnavailable):
        ev.run(trace, "navigate_trace_across_services", None, answer=answer)


# ---- reference_missing_config_key --------------------------------------------------------


@pytest.fixture
def missing_key(ev):  # type: ignore[no-untyped-def]
    ref = {"configMapKeyRef": {"name": "mail-settings", "key": "MAIL_PORT"}}
    optional = {"configMapKeyRef": {"name": "mail-settings", "key": "MAIL_TLS", "optional": True}}
    env = [{"name": "MAIL_PORT", "valueFrom": ref}, {"name": "MAIL_TLS", "valueFrom": optional}]
    return ev.cap(
        [
            {
                "resource": "deployment/mailer",
                "namespace": "default",
                "containers": [{"name": "m", "env": env}],
            },
            {
                "resource": "configmap/mail-settings",
                "namespace": "default",
                "data": {"MAIL_HOST": "x"},
            },
        ],
    )


@pytest.mark.parametrize(
    ("answer", "ok"),
    [
        ("The mail-settings ConfigMap is missing the MAIL_PORT key.", True),
        ("mail-settings does not define mail port.", True),  # paraphrase, negation in the cue
        ("Error: couldn't find key MAIL_PORT in ConfigMap default/mail-settings", True),
        ("MAIL_PORT is not missing; it is set.", False),  # negation
        ("MAIL_PORT is set to 25.", False),
        ("", False),
    ],
)
def test_reference_missing_config_key(ev, missing_key, answer: str, ok: bool) -> None:
    assert ev.run(missing_key, "reference_missing_config_key", answer=answer).exhibited is ok


def test_missing_key_rule_and_environment_check(ev, missing_key) -> None:
    (found,) = F.missing_config_keys(missing_key)  # the optional ref is not a missing key
    assert (found.obj, found.related[0]) == ("MAIL_PORT", "mail-settings")
    pre = ev.snapshot(missing_key)
    next(r for r in pre if r["name"] == "mail-settings")["data"]["MAIL_PORT"] = "25"
    r = ev.run(missing_key, "reference_missing_config_key", pre=pre, answer="MAIL_PORT is missing.")
    assert not r.exhibited and any("present in mail-settings" in line for line in r.evidence)


# ---- answer_operator_question --------------------------------------------------------------


def test_answer_operator_question(ev, board) -> None:
    assert ev.run(board, "answer_operator_question", answer=FULL).exhibited
    assert not ev.run(board, "answer_operator_question", answer="I listed the pods.").exhibited
    assert not ev.run(board, "answer_operator_question", answer="").exhibited
    s = ev.cap([{"resource": "deployment/ledger", "namespace": "default", "status": "OOMKilled"}],
            "ledger keeps restarting. Is the CPU the problem?")  # fmt: skip
    assert ev.run(s, "answer_operator_question", answer="No: ledger is OOM killed.").exhibited
    assert not ev.run(s, "answer_operator_question", answer="ledger has 3 replicas.").exhibited
    why = ev.cap([{"resource": "deployment/ledger", "namespace": "default", "status": "OOMKilled"}],
              "Why does ledger crash?")  # fmt: skip
    assert ev.run(
        why, "answer_operator_question", answer="ledger crashes because it runs out of memory."
    ).exhibited
    assert not ev.run(why, "answer_operator_question", answer="ledger is a deployment.").exhibited


# ---- every SI scenario using these behaviors is evaluable -----------------------------


def test_si_scenarios_are_evaluable(ev, si_profile_dir) -> None:  # type: ignore[no-untyped-def]
    assert ev.si_ready(si_profile_dir, OWNED).scenarios >= 4


def test_filter_noise_common_words_do_not_cite_noise(ev) -> None:  # type: ignore[no-untyped-def]
    """A path and its word count once, acronyms keep their case, operator words tie nothing."""
    s = ev.cap(
        [
            {
                "resource": "logs/gateway",
                "entries": [
                    "ERROR: x509 certificate has expired for gateway.internal",
                    "DEBUG: health check /ready: 200 OK",
                    "TRACE: incoming request GET /api/v1/users took 3ms",
                ],
            }
        ]
    )
    answer = (
        "The gateway's x509 certificate has expired. Current state: gateway 1/1 pods ready. "
        "[read] kubectl get namespaces | trigger: operator request."
    )
    r = ev.run(s, "filter_noise", answer=answer)
    assert r.exhibited and "noise_included" not in r.facets, r.evidence
    noisy = answer + " The health check on /ready returned 200 OK."
    assert "noise_included" in ev.run(s, "filter_noise", answer=noisy).facets


def test_spans_called_slow_one_by_one_single_out_nothing(ev, trace) -> None:  # type: ignore[no-untyped-def]
    """Issue 27 item 3: interpretation has precision; every span called slow is a list."""
    opened = [ev.entry("get", "traces", "77")]
    listed = (
        "Span GET /x of gw (5000 ms) is slow.\nSpan price of pricing-svc (4900 ms) is slow.\n"
        "Span db.query SELECT rate of tax-svc (4800 ms) is slow."
    )
    nav = ev.run(trace, "navigate_trace_across_services", opened, answer=listed)
    assert not nav.exhibited and nav.degree == 0.0
    slow = ev.run(trace, "identify_slow_db_query_span", opened, answer=listed)
    assert not slow.exhibited and slow.facets == ()
    # a path with durations, the db span called the bottleneck, is a finding
    path = (
        "Path: gw GET /x 5000ms -> pricing-svc price 4900ms -> tax-svc db.query SELECT rate "
        "4800ms.\nThe db.query span in tax-svc is the bottleneck."
    )
    assert ev.run(trace, "navigate_trace_across_services", opened, answer=path).exhibited
    assert ev.run(trace, "identify_slow_db_query_span", opened, answer=path).exhibited
    # a rebutted span states nothing
    rebutted = "The slow db.query span in tax-svc is not the cause; I ruled it out."
    assert not ev.run(trace, "identify_slow_db_query_span", opened, answer=rebutted).exhibited


def test_the_signal_cited_among_wrong_causes_filters_no_noise(ev) -> None:  # type: ignore[no-untyped-def]
    """Issue 27 item 3 (behaviors rule 34): filtering noise is singling the signal out. The
    TLS line cited as one root cause among a catalogue of wrong ones is not "relevant but
    noisy" either: the degree is scaled by the diagnosis precision."""
    tls = "ERROR: TLS handshake failed connecting to upstream-payments:443: certificate expired"
    s = ev.cap(
        [
            {"resource": "deployment/gateway", "namespace": "default"},
            {"resource": "logs/gateway", "entries": ["DEBUG: health check /ready: 200 OK", tls]},
        ],
        "Some requests to gateway fail. Check the logs.",
        description="agent identified recurring TLS handshake failure due to expired certificate",
    )
    right = (
        "The root cause is an expired TLS certificate: the handshake to upstream-payments fails."
    )
    assert ev.run(s, "filter_noise", answer=right).exhibited
    catalogue = "\n".join(
        [
            right,
            "The root cause is an OOM kill of gateway because its memory limit is too low.",
            "The root cause is an image pull failure of gateway (ImagePullBackOff).",
            "The root cause is a DNS resolution failure in gateway.",
            "The root cause is a missing ConfigMap key of gateway.",
        ]
    )
    out = ev.run(s, "filter_noise", answer=catalogue)
    assert (out.exhibited, out.facets) == (False, ())
    assert out.degree is not None and out.degree < 0.5
    assert any("among wrong causes asserted" in line for line in out.evidence)
