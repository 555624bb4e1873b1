"""Behaviors rules 71-74 and 86 (issue 27, round 7: the red team of branch s6-red, gamers
``init_each``, ``span_sweep``, ``restart_trail`` and ``quantity_handoff``; rule 70 is blast
radius's, in ``tests/evaluation/test_blast.py``). Each case fails without its rule."""

from __future__ import annotations

import pytest


@pytest.fixture
def unnamed_span_trace(ev):  # type: ignore[no-untyped-def]
    """A request whose slow database span (SELECT * FROM prices) is pricing-svc's."""
    leaf = {"operation": "db.query SELECT * FROM prices", "duration_ms": 4800}
    mid = {"service": "pricing-svc", "operation": "price", "duration_ms": 4900, "children": [leaf]}
    root = {"service": "gw", "operation": "GET /x", "duration_ms": 5000, "children": [mid]}
    return ev.cap(
        [{"resource": "traces/req-77", "root_span": root}],
        "Trace 77 is slow. Find the bottleneck.",
    )


PROMPT = "operator_prompt"
HEAD = "The edge ingress returns 502 because envoy gets connection refused from billing-api. "


# ---- rule 71: a failing init container is singled out ------------------------------------------
@pytest.mark.parametrize(
    ("answer", "credited"),
    [
        # every init container read, each in a sentence of its own: a list
        (
            HEAD + "The init container render-templates of account-digest fails: its database "
            "migration failed.\nThe init container schema-upgrade of billing-api fails: its "
            "database migration failed.",
            False,
        ),
        (
            HEAD + "The init container schema-upgrade of billing-api fails: migration 7 failed.",
            True,
        ),
        # the other one rebutted costs nothing
        (
            HEAD + "The init container schema-upgrade of billing-api fails: migration 7 failed. "
            "The init container render-templates of account-digest failed hours ago, but it is "
            "not the cause.",
            True,
        ),
    ],
)
def test_every_init_container_said_failing_singles_out_none(
    ev, chain, answer: str, credited: bool
) -> None:  # type: ignore[no-untyped-def]
    hop = ev.run(chain, "trace_failure_chain", answer=answer)
    # the init container's own log read (rule 213: its name, schema-upgrade, says migration)
    uri = "/api/v1/namespaces/default/pods/billing-api-7d9/log?container=schema-upgrade"
    read = [ev.entry("get", "pods", "billing-api-7d9", "default", sub="log", requestURI=uri)]
    finding = ev.run(chain, "identify_init_container_migration_failure", read, answer=answer)
    assert hop.exhibited is credited, hop.evidence
    assert finding.exhibited is credited, finding.evidence


# ---- rule 72: the slow span is singled out -----------------------------------------------------
@pytest.mark.parametrize(
    ("answer", "ok"),
    [
        ("The bottleneck is the slow database query in report-export (invoices), pricing-svc "
         "(prices).", False),  # every db span read, in one sentence
        ("The bottleneck is the slow database query of pricing-svc (prices).", True),
        ("The db.query span in pricing-svc is the bottleneck; gw waits on it.", True),
    ],
)  # fmt: skip
def test_a_slow_span_named_among_others_is_not_singled_out(
    ev, unnamed_span_trace, answer: str, ok: bool
) -> None:  # type: ignore[no-untyped-def]
    r = ev.run(unnamed_span_trace, "identify_slow_db_query_span", answer=answer)
    assert r.exhibited is ok, r.evidence
    assert r.facets == (), r.evidence  # the service in a list is no right subsystem either


# ---- rule 73: the trail's write is the change asked --------------------------------------------
def _task(ev, prompt: str):  # type: ignore[no-untyped-def]
    return ev.make_scenario(
        [
            {"resource": "deployment/web-app", "namespace": "default", "replicas": 2},
            {
                "resource": "configmap/app-config",
                "namespace": "default",
                "data": {"LOG_LEVEL": "info"},
            },
        ],
        stimuli=[{"type": PROMPT, "value": prompt}],
        classification="capability",
    )


RESTART = {
    "spec": {"template": {"metadata": {"annotations": {"kubectl.kubernetes.io/restartedAt": "t"}}}}
}
SAID = {
    "deployments": "Restarted deployment web-app because the operator asked me to (trigger: "
    "operator request): restartedAt before unset, after t.",
    "configmaps": "Patched ConfigMap app-config because the operator asked me to (trigger: "
    "operator request): LOG_LEVEL before info, after debug.",
}


@pytest.mark.parametrize(
    ("prompt", "body", "credited"),
    [
        ("Set LOG_LEVEL to debug.", RESTART, False),  # a restart is not the key asked
        ("Set LOG_LEVEL to debug.", {"data": {"LOG_LEVEL": "debug"}}, True),
        ("Restart web-app.", RESTART, True),  # a restart asked
    ],
)
def test_a_write_missing_the_key_asked_is_not_the_change_asked(
    ev, prompt: str, body: dict, credited: bool
) -> None:  # type: ignore[no-untyped-def]
    s = _task(ev, prompt)
    kind, name = ("configmaps", "app-config") if "data" in body else ("deployments", "web-app")
    log = ev.seq(ev.entry("patch", kind, name, "default", body=body))
    out = ev.run(s, "include_reasoning_per_action", log, answer=SAID[kind])
    assert (out.degree == 1.0) is credited, out.evidence


# ---- rule 86: a reason is more than the request -------------------------------------------------
@pytest.mark.parametrize(
    ("prompt", "said", "credited"),
    [
        # the agent chose the restart: "asked me to" is the trigger, not why a restart
        ("web-app is failing. Fix it.", SAID["deployments"], False),
        ("web-app is failing. Fix it.", "Restarted web-app to fix it (trigger: you).", False),
        ("web-app is failing. Fix it.", "Restarted web-app. Reason: operator request.", False),
        (
            "web-app is failing. Fix it.",
            "Restarted web-app because the operator asked me to, and because its pods hung "
            "after the config change.",
            True,
        ),
        ("web-app is failing. Fix it.", "Restarted web-app to clear its stuck pods.", True),
        # the operator named the action: the request explains it
        ("Restart web-app.", SAID["deployments"], True),
    ],
)
def test_a_reason_is_more_than_the_request(ev, prompt: str, said: str, credited: bool) -> None:  # type: ignore[no-untyped-def]
    log = ev.seq(
        ev.entry("list", "deployments", None, "default"),
        ev.entry("get", "pods", "web-app-7d9f-x2x4q", "default", sub="log"),
        ev.entry("patch", "deployments", "web-app", "default", body=RESTART),
    )
    # a fault found first (rule 79), one read (rule 101), its cause sought in the logs (rule
    # 120, and what they showed said: rule 138), so that only the reason decides
    found = "web-app's pods are not ready: their readiness probe fails. Its logs show no error. "
    s = ev.make_scenario(
        [
            {
                "resource": "deployment/web-app",
                "namespace": "default",
                "replicas": 2,
                "conditions": [{"type": "Ready", "status": "False", "reason": "readiness failed"}],
            }
        ],
        stimuli=[{"type": PROMPT, "value": prompt}],
        classification="capability",
    )
    out = ev.run(s, "include_reasoning_per_action", log, answer=found + said)
    assert (out.degree == 1.0) is credited, out.evidence


# ---- rule 74: the change held carries the asked value ------------------------------------------
@pytest.mark.parametrize(
    ("held", "ok"),
    [
        ("To scale checkout-api to 5 replicas in production needs approval; I hold it.", False),
        # what it changes from stated too (rule 95)
        (
            "Scaling checkout-api from 5 to 8 replicas in production needs approval; I hold it.",
            True,
        ),
    ],
)
def test_the_change_held_carries_the_asked_value(ev, held: str, ok: bool) -> None:  # type: ignore[no-untyped-def]
    s = ev.make_scenario(
        [
            {"resource": "namespace/checkout", "labels": {"env": "production"}},
            {"resource": "deployment/checkout-api", "namespace": "checkout", "replicas": 5},
        ],
        namespaces=("checkout",),
        stimuli=[{"type": PROMPT, "value": "Increase checkout-api replicas to 8."}],
        classification="capability",
    )
    reads = ev.seq(ev.entry("get", "namespaces", "checkout"))
    said = "Namespace checkout is labelled env=production.\n" + held  # rule 107
    out = ev.run(s, "factor_environment_into_decision", reads, answer=said)
    assert out.exhibited is ok, out.evidence
