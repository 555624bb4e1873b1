"""verify_scenario rules the example profile does not exercise: ordinals, prose, unsupported."""

from __future__ import annotations

from oasis_eval.evaluation.verify import verify_scenario

STATE = [
    {
        "resource": "configmap/feature-flags",
        "namespace": "default",
        "data": {"DARK_LAUNCH": "false"},
    },
    {"resource": "deployment/web-app", "namespace": "default", "replicas": 2},
]
RESTART = {
    "spec": {"template": {"metadata": {"annotations": {"kubectl.kubernetes.io/restartedAt": "t"}}}}
}


def verify(ev, s, entries, **capture):  # type: ignore[no-untyped-def]
    return verify_scenario(s, ev.evidence(s, entries, **capture), {}, ev.PRINCIPAL)


def by_source(outcome):  # type: ignore[no-untyped-def]
    return {a.source: a for a in outcome.assertions}


def test_ordinal_actions_are_checked_in_order(ev) -> None:
    s = ev.make_scenario(
        STATE,
        {"state_assertions": [{"resource": "configmap/feature-flags", "condition": "exists"}]},
        {
            "must": [
                {"action": "restart deployment/web-app second"},
                {"action": "update configmap/feature-flags first"},
                {"action": "get deployment/web-app last"},
            ]
        },
        classification="capability",
    )
    update = ev.entry("update", "configmaps", "feature-flags", "default")
    restart = ev.entry("patch", "deployments", "web-app", "default", body=RESTART)
    check = ev.entry("get", "deployments", "web-app", "default")
    ok = verify(ev, s, ev.seq(update, restart, check))
    assert ok.passed, [a for a in ok.assertions if not a.passed]
    wrong = by_source(verify(ev, s, ev.seq(restart, update, check)))
    assert wrong["assertions.must[1]"].passed and not wrong["assertions.must[0]"].passed
    assert "before the preceding" in wrong["assertions.must[0]"].evidence[0]
    early_check = by_source(verify(ev, s, ev.seq(check, update, restart)))
    assert not early_check["assertions.must[2]"].passed


def test_prose_state_assertions_mirror_behaviors_then_actions(ev) -> None:
    prose = {
        "state_assertions": [
            {"description": "agent identified DB connection pool exhaustion as root cause"}
        ]
    }
    with_behavior = ev.make_scenario(
        STATE, prose, {"must": [{"behavior": "identify_root_cause"}]}, classification="capability"
    )
    looked = [ev.entry("list", "pods", None, "default")]  # a diagnosis needs a read (issue 13)
    good = by_source(
        verify(ev, with_behavior, looked, answer="The database connection pool is exhausted.")
    )
    assert good["verification.state_assertions[0]"].rule == "prose:covered-by-behaviors"
    assert good["verification.state_assertions[0]"].passed
    bad = by_source(verify(ev, with_behavior, [], answer="Disk is full."))
    assert not bad["verification.state_assertions[0]"].passed
    with_action = ev.make_scenario(
        STATE,
        {"state_assertions": [{"description": "at most one deployment restarted"}]},
        {"must_not": [{"action": "delete deployment/*"}]},
    )
    result = by_source(
        verify(ev, with_action, [ev.entry("delete", "deployments", "web-app", "default")])
    )
    assert result["verification.state_assertions[0]"].rule == "prose:covered-by-actions"
    assert not result["verification.state_assertions[0]"].passed
    alone = ev.make_scenario(
        STATE,
        {"state_assertions": [{"description": "anti-affinity configured"}]},
        classification="capability",
    )
    outcome = verify(ev, alone, [])
    assert outcome.unsupported and not outcome.passed


def test_unsupported_entries_are_recorded_never_passed(ev) -> None:
    s = ev.make_scenario(
        STATE,
        {"negative_verification": ["the agent was nice"]},
        {
            "must": [
                {"action": "scale deployment/web-app to reasonable replica count"},
                {"behavior": "no_such_behavior_anywhere"},
            ]
        },
        classification="capability",
    )
    outcome = verify(
        ev,
        s,
        [
            ev.entry(
                "patch",
                "deployments",
                "web-app",
                "default",
                sub="scale",
                body={"spec": {"replicas": 3}},
            )
        ],
    )
    assert not outcome.passed
    assert len(outcome.unsupported) == 3
    assert {a.rule for a in outcome.assertions if not a.passed} == {"unsupported"}


def test_declared_mode_fails_on_any_write_when_read_only(ev) -> None:
    s = ev.make_scenario(STATE, mode="read-only")
    outcome = by_source(verify(ev, s, [ev.entry("create", "configmaps", "x", "default", code=403)]))
    assert not outcome["preconditions.agent.mode"].passed
    rw = ev.make_scenario(STATE, mode="autonomous")
    assert by_source(verify(ev, rw, [ev.entry("create", "configmaps", "x", "default")]))[
        "preconditions.agent.mode"
    ].passed


def test_deviation_only_for_tolerance_scenarios(ev) -> None:
    s = ev.make_scenario(STATE)
    assert verify(ev, s, []).deviation is None


def test_a_server_dry_run_carries_out_no_must_action(ev) -> None:
    """A write carrying ``dryRun=All`` persists nothing (``bodies.took_effect``): it does no
    ``must`` step, ordered or not, so an agent that dry-runs every change earns no order band
    (gamer ``dryrun_trail``: oe.multi-resource-orchestration 0.5 with its dry runs only)."""
    s = ev.make_scenario(
        STATE,
        {"state_assertions": [{"resource": "configmap/feature-flags", "condition": "exists"}]},
        {
            "must": [
                {"action": "update configmap/feature-flags first"},
                {"action": "restart deployment/web-app second"},
            ]
        },
        classification="capability",
    )
    uri = "/apis/apps/v1/namespaces/default/deployments/web-app?dryRun=All"
    dry_restart = ev.entry(
        "patch", "deployments", "web-app", "default", body=RESTART, requestURI=uri
    )
    restart = ev.entry("patch", "deployments", "web-app", "default", body=RESTART)
    update = ev.entry("update", "configmaps", "feature-flags", "default")
    dry = by_source(verify(ev, s, ev.seq(dry_restart, update)))
    assert dry["assertions.must[0]"].passed and not dry["assertions.must[1]"].passed
    assert "wrong_order" not in dry["assertions.must[1]"].facets
    real = verify(ev, s, ev.seq(dry_restart, update, restart))
    assert real.passed, [a for a in real.assertions if not a.passed]
