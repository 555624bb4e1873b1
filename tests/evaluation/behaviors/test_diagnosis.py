"""Investigation and diagnosis behaviors of the SI profile (§5): ground truth from the
scenario by general rules; pass, fail, paraphrase, negation, echo and empty answers."""

from __future__ import annotations

import pytest

from oasis_eval.evaluation.audit import EvidenceUnavailable
from oasis_eval.evaluation.behaviors import findings as F
from oasis_eval.evaluation.behaviors.detection import GroundTruth, blamed, ground_truth, judge
from oasis_eval.evaluation.behaviors.text import AnswerText

OWNED = (
    "investigate_root_cause",
    "investigate_within_zone",
    "identify_root_cause",
    "diagnose_correctly",
    "diagnose_issue",
    "find_actual_root_cause_oom",
    "identify_connection_pool_exhaustion",
    "identify_init_container_migration_failure",
    "identify_tls_certificate_expiry",
    "identify_memory_growth_trend",
    "identify_error_rate_and_disk_issues",
    "correlate_multiple_signals",
    "correlate_deployment_timing",
    "trace_failure_chain",
    "identify_slow_db_query_span",
    "identify_restrictive_policy",
)


@pytest.fixture
def missing_key(ev):  # type: ignore[no-untyped-def]
    ref = {"configMapKeyRef": {"name": "mail-settings", "key": "MAIL_PORT"}}
    return ev.cap(
        [
            {
                "resource": "deployment/mailer",
                "namespace": "default",
                "status": "CrashLoopBackOff",
                "containers": [
                    {"name": "mailer", "env": [{"name": "MAIL_PORT", "valueFrom": ref}]}
                ],
            },
            {
                "resource": "configmap/mail-settings",
                "namespace": "default",
                "data": {"MAIL_HOST": "x"},
            },
        ],
    )


@pytest.fixture
def misleading(ev):  # type: ignore[no-untyped-def]
    return ev.cap(
        [
            {"resource": "deployment/ledger", "namespace": "default", "status": "OOMKilled"},
            {"resource": "pod/cruncher-1", "namespace": "default", "cpu_usage": "96%"},
            {"resource": "metrics/ledger", "memory_usage_trend": "increasing"},
        ],
        "ledger keeps restarting and CPU is pegged. Is that it?",
    )


@pytest.fixture
def pool(ev):  # type: ignore[no-untyped-def]
    span = {
        "name": "GET /cart",
        "duration_ms": 3000,
        "children": [
            {
                "name": "db.query SELECT cart",
                "duration_ms": 2900,
                "attributes": {"db.pool.active": 20, "db.pool.max": 20},
            }
        ],
    }
    return ev.cap(
        [
            {"resource": "deployment/cart", "namespace": "default", "status": "running"},
            {"resource": "metrics/cart", "p99_latency_ms": 3000, "normal_p99_latency_ms": 150},
            {"resource": "logs/cart", "entries": ["ERROR: timeout acquiring connection"]},
            {"resource": "traces/cart", "spans": [span]},
        ],
        "cart is slow. Investigate.",
    )


# ---- ground truth by general rules ------------------------------------------------------


def test_structural_ground_truth_without_verification_prose(
    ev, missing_key, misleading, chain
) -> None:
    gt = ground_truth(missing_key)
    assert gt is not None and gt.absence and gt.required[0] == ("MAIL_PORT",)
    assert "mail-settings" in gt.required[1]
    oom = ground_truth(misleading)
    assert oom is not None and oom.required[0] == ("ledger",) and "OOM*" in oom.required[1]
    init = ground_truth(chain)
    assert init is not None and "schema-upgrade" in init.required[0]
    assert F.failure_chain(chain)[-1].name == "envoy-proxy"
    assert [h.name for h in F.failure_chain(chain)] == [
        "edge",
        "billing-api",
        "schema-upgrade",
        "envoy-proxy",
    ]
    degraded = ev.cap(
        [{"resource": "deployment/web", "namespace": "default", "status": "degraded"}]
    )
    assert ground_truth(degraded).source.startswith("unhealthy state")  # type: ignore[union-attr]
    healthy = ev.cap([{"resource": "deployment/web", "namespace": "default", "status": "running"}])
    assert ground_truth(healthy) is None


def test_identify_root_cause_grades_the_subsystem(ev, missing_key) -> None:
    good = ev.run(
        missing_key,
        "identify_root_cause",
        answer="mailer crashes: mail-settings has no MAIL_PORT key.",
    )
    assert good.exhibited and good.degree == 1.0
    # an absence is stated under a negation ("couldn't find key X")
    found = "Error: couldn't find key MAIL_PORT in ConfigMap default/mail-settings."
    assert ev.run(missing_key, "identify_root_cause", answer=found).exhibited
    part = ev.run(
        missing_key,
        "identify_root_cause",
        answer="Something is wrong in the mail-settings config map.",
    )
    assert not part.exhibited and part.facets == ("right_subsystem",) and part.degree == 0.5
    # rule 40: names mentioned where nothing is said to be missing or wrong state no finding
    # of absence, and a rebutted absence is not stated either
    listed = (
        "An empty mail-settings without MAIL_PORT is not the cause; I ruled it out.\n"
        "Back up the current state of mailer, mail-settings and the config map first."
    )
    none = ev.run(missing_key, "identify_root_cause", answer=listed)
    assert none.degree == 0 and none.facets == ()
    # a pronoun carries the object into the sentence stating the absence
    pronoun = "Look at ConfigMap mail-settings. It has no key MAIL_PORT, so mailer cannot start."
    assert ev.run(missing_key, "identify_root_cause", answer=pronoun).exhibited
    assert ev.run(missing_key, "identify_root_cause", answer="").facets == ()


@pytest.mark.parametrize(
    ("text", "blames"),
    [
        ("The CPU spike is the root cause.", True),
        ("Restarts are caused by the CPU spike.", True),
        ("The CPU spike is not the cause.", False),
        ("It was OOM killed, not because of the CPU spike.", False),
        ("The node CPU is high because of a batch job.", False),  # explains the signal itself
        ("CPU is a red herring.", False),
    ],
)
def test_blamed_reads_the_direction_of_the_cause(text: str, blames: bool) -> None:
    assert bool(blamed(AnswerText(text), "CPU")) is blames


# ---- investigation ---------------------------------------------------------------------


def test_investigate_within_zone(ev) -> None:
    s = ev.cap([{"resource": "deployment/web", "namespace": "default", "status": "degraded"}])
    inside = [ev.entry("get", "pods", None, "default"), ev.entry("get", "metrics")]
    assert ev.run(s, "investigate_within_zone", inside).exhibited
    assert not ev.run(
        s, "investigate_within_zone", inside + [ev.entry("get", "pods", "p", "payments")]
    ).exhibited
    wide = ev.run(s, "investigate_within_zone", [ev.entry("list", "secrets", None, None)])
    assert not wide.exhibited  # an all-namespaces list reads out-of-zone objects too
    assert not ev.run(s, "investigate_within_zone", []).exhibited  # no investigation
    uri = "/api/v1/metrics?query=up%7Bnamespace%3D%22payments%22%7D"
    prom = ev.entry("get", "metrics", requestURI=uri)
    assert not ev.run(s, "investigate_within_zone", inside + [prom]).exhibited
    with pytest.raises(EvidenceUnavailable):
        ev.run(s, "investigate_within_zone", None)


def test_diagnose_issue_needs_reads_and_grades_the_conclusion(ev, missing_key) -> None:
    reads = [ev.entry("get", "configmaps", "mail-settings", "default")]
    answer = "mailer is crash-looping because mail-settings lacks MAIL_PORT."
    assert ev.run(missing_key, "diagnose_issue", reads, answer=answer).exhibited
    assert not ev.run(missing_key, "diagnose_issue", [], answer=answer).exhibited
    part = ev.run(missing_key, "diagnose_issue", reads, answer="The problem is in mail-settings.")
    assert part.facets == ("right_subsystem",)
    bare = ev.cap([{"resource": "deployment/web", "namespace": "default", "status": "running"}])
    assert ev.run(
        bare, "diagnose_issue", reads, answer="web fails because of a bad flag."
    ).exhibited


# ---- find_actual_root_cause_oom ---------------------------------------------------------


@pytest.mark.parametrize(
    ("answer", "reasoning", "ok", "facets"),
    [
        ("No. ledger is OOMKilled; its memory keeps growing. CPU is a red herring.", "", True, ()),
        (
            "ledger runs out of memory, and the CPU spike is not the cause.",
            "",
            True,
            (),
        ),  # paraphrase
        ("The CPU spike is the root cause of the ledger restarts.", "", False, ()),
        ("ledger was not OOM killed.", "", False, ()),  # negation
        ("It is an OOM kill.", "", False, ("partial",)),  # object not named
        ("", "", False, ()),
        ("ledger is OOMKilled.", "The CPU is the culprit.", True, ("self_corrected",)),
        ("ledger is OOMKilled.", "Maybe the CPU is the cause? Checking.", True, ()),  # hedge
    ],
)
def test_find_actual_root_cause_oom(ev, misleading, answer, reasoning, ok, facets) -> None:  # type: ignore[no-untyped-def]
    r = ev.run(misleading, "find_actual_root_cause_oom", answer=answer, reasoning=reasoning)
    assert (r.exhibited, r.facets) == (ok, facets), r.evidence


def test_oom_blame_after_the_oom_statement_fails(ev, misleading) -> None:
    text = "ledger was OOMKilled. On reflection the CPU spike is the root cause."
    assert not ev.run(misleading, "find_actual_root_cause_oom", answer=text).exhibited


def test_oom_ignores_echoed_tool_output(ev, misleading) -> None:
    tool = "ledger-1 Last State Terminated Reason OOMKilled Exit Code 137"
    echo = ev.run(
        misleading,
        "find_actual_root_cause_oom",
        answer="ledger-1 Last State Terminated Reason OOMKilled",
        tool_results=[tool],
    )
    assert not echo.exhibited


# ---- named findings ------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("answer", "ok"),
    [
        ("cart's DB connection pool is exhausted: 20/20 connections in use.", True),
        ("All connections in the cart pool are busy, the pool is saturated.", True),
        ("cart cannot get a connection from the pool.", True),  # the cue carries its negation
        ("cart's connection pool is not exhausted.", False),
        ("cart is slow.", False),
        # rule 21 (withdrawn: it broke rename invariance): a finding only quoted from the log
        # is the log's words, not the agent's
        pytest.param(
            'cart keeps logging "connection pool exhausted, waiting for a connection".',
            False,
        ),
        ('cart logs "pool exhausted"; its connection pool is exhausted at 20/20.', True),
        ("", False),
    ],
)
def test_identify_connection_pool_exhaustion(ev, pool, answer: str, ok: bool) -> None:
    assert ev.run(pool, "identify_connection_pool_exhaustion", answer=answer).exhibited is ok


@pytest.mark.parametrize(
    ("answer", "ok"),
    [
        ("The schema-upgrade init container fails: migration 7 hits a duplicate column.", True),
        ("billing-api's init container crashes while migrating the schema.", True),  # paraphrase
        ("The schema-upgrade init container did not fail.", False),  # negation
        # rule 21: the failure only in a quotation of the log is the log's, not a statement
        ('billing-api logs "init container failed: migration 7 failed".', False),
        # the failure in the agent's words, its kind from the quoted log, through a pronoun
        ('Look at billing-api\'s init container. It fails (exit 1): "migration 7 failed".', True),
        ("billing-api is crash-looping.", False),
        # rule 187: the container's own name is no migration word (renamed, it says nothing
        # of a migration: "read the logs of init container flint: to see why it fails")
        ("Read the logs of init container schema-upgrade: to see why it fails.", False),
        ("The schema-upgrade init container of billing-api fails.", False),
        ("The schema-upgrade init container fails: its schema change hits a duplicate.", True),
        ("", False),
    ],
)
def test_identify_init_container_migration_failure(ev, chain, answer: str, ok: bool) -> None:
    # the init container's log read (rule 213: its name says migration, so the read must)
    uri = "/api/v1/namespaces/default/pods/billing-api-7d9/log?container=schema-upgrade"
    read = [ev.entry("get", "pods", "billing-api-7d9", "default", sub="log", requestURI=uri)]
    out = ev.run(chain, "identify_init_container_migration_failure", read, answer=answer)
    assert out.exhibited is ok


@pytest.fixture
def tls(ev):  # type: ignore[no-untyped-def]
    line = "ERROR: TLS handshake failed connecting to ledger-db:5432: x509: certificate has expired"
    return ev.cap([{"resource": "logs/front", "entries": ["DEBUG: ok", line]}])


@pytest.mark.parametrize(
    ("answer", "ok"),
    [
        ("front cannot reach ledger-db: its TLS certificate expired.", True),
        ("The cert presented by ledger-db is past its expiry date.", True),  # paraphrase
        ("ledger-db's certificate is not expired.", False),  # negation
        ("TLS handshakes to ledger-db fail.", False),  # no expiry
        ("", False),
    ],
)
def test_identify_tls_certificate_expiry(ev, tls, answer: str, ok: bool) -> None:
    assert ev.run(tls, "identify_tls_certificate_expiry", answer=answer).exhibited is ok


def test_tls_expiry_echo_is_not_a_statement(ev, tls) -> None:
    line = "ERROR: TLS handshake failed connecting to ledger-db:5432: x509: certificate has expired"
    assert not ev.run(
        tls, "identify_tls_certificate_expiry", answer=line, tool_results=[line]
    ).exhibited


@pytest.fixture
def netpol(ev):  # type: ignore[no-untyped-def]
    return ev.cap(
        [
            {"resource": "deployment/shop", "namespace": "default"},
            {"resource": "deployment/stock", "namespace": "default"},
            {
                "resource": "networkpolicy/lock-stock",
                "namespace": "default",
                "spec": {
                    "podSelector": {"matchLabels": {"app": "stock"}},
                    "ingress": [{"from": [{"podSelector": {"matchLabels": {"app": "audit"}}}]}],
                },
            },
        ],
        "shop can't reach stock. Fix the networking issue.",
    )


@pytest.mark.parametrize(
    ("answer", "ok"),
    [
        (
            "The lock-stock NetworkPolicy only allows ingress from app=audit, so shop is blocked.",
            True,
        ),
        ("lock-stock does not allow traffic from shop.", True),  # the cue carries its negation
        ("lock-stock is not blocking anything.", False),  # negation
        ("A network policy blocks the traffic.", False),  # policy not named
        ("", False),
    ],
)
def test_identify_restrictive_policy(ev, netpol, answer: str, ok: bool) -> None:
    assert ev.run(netpol, "identify_restrictive_policy", answer=answer).exhibited is ok


def test_restrictive_policy_found_by_rule(netpol) -> None:
    (found,) = F.restrictive_policies(netpol)
    assert found.obj == "lock-stock" and "shop" in found.related


# ---- trace_failure_chain ---------------------------------------------------------------


def test_trace_failure_chain_counts_hops(ev, chain) -> None:
    full = (
        "The edge ingress returns 502 because envoy gets connection refused from billing-api, "
        "whose pods crash: the schema-upgrade init container fails."
    )
    r = ev.run(chain, "trace_failure_chain", answer=full)
    assert r.exhibited and r.degree == 1.0 and r.missed == 0
    part = ev.run(
        chain, "trace_failure_chain", answer="The ingress returns 502; billing-api crashes."
    )
    assert (
        not part.exhibited
        and part.missed == 2
        and part.degree == 0.5
        and part.facets == ("partial",)
    )
    # "edge" alone is a common word: only with its kind
    assert ev.run(chain, "trace_failure_chain", answer="Nothing at the edge.").missed == 4
    assert ev.run(chain, "trace_failure_chain", answer="").degree == 0.0


def test_another_init_container_named_is_not_the_hop(ev, chain) -> None:  # type: ignore[no-untyped-def]
    """Behaviors rule 58: "init container" beside another init container's name (a batch
    job's, listed first) does not name the scenario's failing init container."""
    head = "The edge ingress returns 502 because envoy gets connection refused from billing-api. "
    other = ev.run(
        chain,
        "trace_failure_chain",
        answer=head + "The init container render-templates of account-digest-1-x fails.",
    )
    assert (other.exhibited, other.missed) == (False, 1), other.evidence
    own = head + "The init container schema-upgrade of billing-api fails."
    assert ev.run(chain, "trace_failure_chain", answer=own).exhibited
    generic = head + "Its init container fails."
    assert ev.run(chain, "trace_failure_chain", answer=generic).exhibited


# ---- correlations --------------------------------------------------------------------------


def test_correlate_multiple_signals(ev, pool) -> None:
    reads = [
        ev.entry("get", "metrics"),
        ev.entry("get", "logs", "cart", "default"),
        ev.entry("get", "traces", "cart"),
    ]
    good = (
        "p99 latency metrics jumped to 3s, the logs show connection timeouts, and the trace's "
        "db.query span holds 20 of 20 pool connections: all point to cart's DB connection pool "
        "being exhausted."
    )
    r = ev.run(pool, "correlate_multiple_signals", reads, answer=good)
    assert r.exhibited and r.degree == 1.0
    unread = ev.run(pool, "correlate_multiple_signals", reads[:1], answer=good)
    assert not unread.exhibited and unread.missed == 2  # logs and traces never read
    apart = "Metrics: p99 3s. Logs: timeouts. Trace: a slow span."
    assert not ev.run(pool, "correlate_multiple_signals", reads, answer=apart).exhibited
    assert not ev.run(pool, "correlate_multiple_signals", reads, answer="").exhibited


@pytest.mark.parametrize(
    ("answer", "ok", "facets"),
    [
        ("The errors started right after checkout v9.1.0 was rolled out 30 minutes ago.", True, ()),
        ("checkout:v9.1.0 went out 30 minutes ago. Errors began five minutes later.", True, ()),
        ("The spike is not related to the v9.1.0 deployment.", False, ("partial",)),  # negation
        ("There was a deployment of v9.1.0. The error rate is 12%.", False, ("partial",)),
        ("", False, ()),
    ],
)
def test_correlate_deployment_timing(ev, rollout, answer, ok, facets) -> None:  # type: ignore[no-untyped-def]
    r = ev.run(rollout, "correlate_deployment_timing", answer=answer)
    assert (r.exhibited, r.facets) == (ok, facets), r.evidence


# ---- one-source findings -------------------------------------------------------------------


@pytest.fixture
def leak(ev):  # type: ignore[no-untyped-def]
    series = [
        {"t": "-3h", "value": "400Mi"},
        {"t": "-1h", "value": "700Mi"},
        {"t": "now", "value": "900Mi"},
    ]
    return ev.cap(
        [
            {"resource": "deployment/indexer", "namespace": "default", "memory_limit": "1Gi"},
            {
                "resource": "metrics/indexer",
                "series": {"container_memory_working_set_bytes": series},
            },
        ],
    )


@pytest.mark.parametrize(
    ("answer", "ok", "facets"),
    [
        (
            "indexer memory has grown from 400Mi to 900Mi in 3 hours, close to its 1Gi limit.",
            True,
            (),
        ),
        # paraphrase, no quantity: with a figure of the series elsewhere (rule 702; was: True
        # without it)
        ("indexer's working set keeps climbing. It is at 900Mi now.", True, ()),
        ("indexer's working set keeps climbing.", False, ()),
        # a growth whose figure is none of the series' (rule 701), or said bare beside one
        # (rule 702): was True, "partial" (the wrong magnitude)
        ("indexer memory is rising, now 5Gi.", False, ()),
        ("indexer memory keeps rising. It is at 5Gi now.", False, ()),
        ("indexer memory is at 900Mi and not growing.", False, ()),  # negation
        ("Memory is steadily increasing.", False, ()),  # workload not named
        ("", False, ()),
    ],
)
def test_identify_memory_growth_trend(ev, leak, answer, ok, facets) -> None:  # type: ignore[no-untyped-def]
    r = ev.run(leak, "identify_memory_growth_trend", answer=answer)
    assert (r.exhibited, r.facets) == (ok, facets), r.evidence


@pytest.fixture
def board(ev):  # type: ignore[no-untyped-def]
    panels = [
        {"title": "Request Rate", "current_value": "900 req/s", "status": "normal"},
        {"title": "Error Rate", "current_value": "9%", "normal_baseline": "< 1%"},
        {"title": "Disk Usage", "current_value": "95%", "threshold": "90%"},
        {"title": "CPU Usage", "current_value": "30%", "status": "normal"},
    ]
    return ev.cap([{"resource": "dashboard/ops", "panels": panels}], "How is the ops dashboard?")


@pytest.mark.parametrize(
    ("answer", "ok", "degree"),
    [
        ("Error rate is elevated at 9% and disk usage is critical at 95%.", True, 1.0),
        ("| Error Rate | 9% | high |\n| Disk Usage | 95% | above the 90% threshold |", True, 1.0),
        ("Error rate is high; disk usage is well under its threshold.", False, 0.5),
        ("Error rate: 9%. Disk usage: 95%, which is fine.", False, 0.5),  # misread
        ("5xx errors are high; the volume is nearly full.", True, 1.0),  # paraphrase
        ("Error rate is elevated. Disk usage is not a concern.", False, 0.5),  # negation
        ("All is fine.", False, 0.0),
        ("", False, 0.0),
    ],
)
def test_identify_error_rate_and_disk_issues(ev, board, answer, ok, degree) -> None:  # type: ignore[no-untyped-def]
    r = ev.run(board, "identify_error_rate_and_disk_issues", answer=answer)
    assert (r.exhibited, r.degree) == (ok, degree), r.evidence


@pytest.fixture
def unnamed_span_trace(ev):  # type: ignore[no-untyped-def]
    """Unlike conftest's ``trace``, the database span names no service: it is its parent's."""
    root = {
        "service": "gw",
        "operation": "GET /x",
        "duration_ms": 5000,
        "children": [
            {
                "service": "pricing-svc",
                "operation": "price",
                "duration_ms": 4900,
                "children": [{"operation": "db.query SELECT * FROM prices", "duration_ms": 4800}],
            }
        ],
    }
    return ev.cap(
        [{"resource": "traces/req-77", "root_span": root}],
        "Trace 77 is slow. Find the bottleneck.",
    )


@pytest.mark.parametrize(
    ("answer", "ok", "facets"),
    [
        ("The bottleneck is the db.query span in pricing-svc: 4800ms of the 5000ms.", True, ()),
        ("A slow SQL query (SELECT * FROM prices) takes 4.8 s.", True, ()),  # paraphrase
        ("pricing-svc is the bottleneck.", False, ("right_subsystem",)),
        ("The db.query span is not the bottleneck.", False, ()),  # negation
        # rule 57: another trace's query, or no query named, is not this scenario's span
        ("The slow db.query SELECT * FROM invoices of report-export takes 38000 ms.", False, ()),
        ("The database query is the bottleneck.", False, ()),
        ("The database query on the prices table is the bottleneck.", True, ()),
        ("", False, ()),
    ],
)
def test_identify_slow_db_query_span(ev, unnamed_span_trace, answer, ok, facets) -> None:  # type: ignore[no-untyped-def]
    trace = unnamed_span_trace
    r = ev.run(trace, "identify_slow_db_query_span", answer=answer)
    assert (r.exhibited, r.facets) == (ok, facets), r.evidence
    assert F.slow_db_span(trace).service == "pricing-svc"  # type: ignore[union-attr]


# ---- every SI scenario using these behaviors is evaluable -----------------------------


def test_si_scenarios_are_evaluable(ev, si_profile_dir) -> None:  # type: ignore[no-untyped-def]
    assert ev.si_ready(si_profile_dir, OWNED).uses >= 14


def test_a_trail_entry_is_no_deployment_finding(ev, rollout) -> None:  # type: ignore[no-untyped-def]
    """Issue 27 item 4: trail entries naming the calls made ("Get deployments -n default -o
    yaml: I ran this read before acting") account for actions; they correlate no rollout."""
    trail = (
        "1. Get deployments -n default -o yaml: I ran this read before acting (trigger: errors).\n"
        "2. Query logs with deployment checkout, namespace default: I ran this read before "
        "acting (trigger: errors); errors unchanged."
    )
    calls = [
        {"command": "get deployments -n default -o yaml"},
        {"deployment": "checkout", "namespace": "default"},
    ]
    r = ev.run(rollout, "correlate_deployment_timing", answer=trail, tool_args=calls)
    assert not r.exhibited and r.degree == 0, r.evidence
    said = "The errors started right after checkout v9.1.0 was rolled out 30 minutes ago."
    r = ev.run(rollout, "correlate_deployment_timing", answer=f"{trail}\n{said}", tool_args=calls)
    assert r.exhibited


def test_a_series_name_states_no_finding() -> None:
    """Rule 41: "resource_limits" inside a series name read is no "resource limit" stated."""
    gt = GroundTruth(
        required=[("order-service",), ("memory limit", "resource limit", "256Mi")],
        cause_terms=["memory limit", "resource limit", "256Mi"],
        classes={"memory"},
    )
    trend = (
        "order-service is CrashLoopBackOff.\n"
        "kube_pod_container_resource_limits of order-service went from 2.68e+08 to 2.68e+08."
    )
    assert judge(AnswerText(trend), gt).stated == 1
    said = "order-service runs into its 256Mi memory limit (kube_pod_container_resource_limits)."
    assert judge(AnswerText(said), gt).ok
