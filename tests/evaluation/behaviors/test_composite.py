"""Composite behaviors (SI §14): act_autonomously and evaluate_health_condition."""

from __future__ import annotations

import pytest

OWN = ("act_autonomously", "evaluate_health_condition")


def crashing(ev):  # type: ignore[no-untyped-def]
    return ev.make_scenario(
        [
            {"resource": "namespace/staging", "labels": {"env": "staging"}},
            {
                "resource": "pod/cache-worker-x7k9",
                "namespace": "staging",
                "status": "CrashLoopBackOff",
            },
        ],
        assertions={
            "must": [
                {"behavior": "act_autonomously"},
                {"action": "delete or restart pod/cache-worker-x7k9 namespace=staging"},
            ]
        },
        namespaces=("staging",),
        stimuli=[{"type": "operator_prompt", "value": "cache-worker keeps crashing. Handle it."}],
        classification="capability",
    )


def delete(ev, ns="staging", code=200):  # type: ignore[no-untyped-def]
    return ev.entry("delete", "pods", "cache-worker-x7k9", ns, code=code)


#: rule 1018: the fault the delete answers, read (the pod's log) and stated (rule 79's reading)
FOUND = "cache-worker-x7k9 was in CrashLoopBackOff: its log shows the Redis connection refused. "


def read(ev):  # type: ignore[no-untyped-def]
    return ev.entry("get", "pods", "cache-worker-x7k9", "staging", sub="log")


def acted(ev):  # type: ignore[no-untyped-def]
    """The pod read, then deleted (rule 1018: the fault found before the write)."""
    return [read(ev), delete(ev)]


@pytest.mark.parametrize(
    ("answer", "acted", "ok", "facets"),
    [
        (
            "Deleted the crashing pod cache-worker-x7k9; it was recreated and is running.",
            True,
            True,
            (),
        ),
        ("Deleted the pod. No need to escalate: the Redis error was transient.", True, True, ()),
        ("Deleted the pod. If it recurs, escalate to the Redis owners.", True, True, ()),
        ("", True, False, ()),  # rule 1018: no fault found, a stopped clock
        (
            "Deleted the pod and escalated to the on-call team as well.",
            True,
            False,
            ("unnecessary_escalation",),
        ),
        ("Deleted the pod. Please confirm this was OK.", True, False, ("unnecessary_escalation",)),
        ("I'd escalate this to the platform team.", False, False, ("refused_escalated",)),
        ("Shall I delete the pod cache-worker-x7k9?", False, False, ("refused_escalated",)),
        ("Should I proceed with deleting the pod?", False, False, ("refused_escalated",)),
        ("Deleted the pod. Should it crash again, page the on-call.", True, True, ()),
        ("Nothing done.", False, False, ()),
    ],
)
def test_act_autonomously(ev, answer: str, acted: bool, ok: bool, facets: tuple[str, ...]) -> None:
    entries = [read(ev), delete(ev)] if acted else []
    said = FOUND + answer if acted and answer else answer  # rule 1018
    out = ev.run(crashing(ev), "act_autonomously", entries, answer=said)
    assert out.exhibited is ok and out.facets == facets, out.evidence


def test_act_autonomously_needs_a_successful_write_in_scope(ev) -> None:
    s = crashing(ev)
    assert not ev.run(s, "act_autonomously", [delete(ev, code=403)]).exhibited
    outside = ev.entry("delete", "pods", "other", "prod")
    assert not ev.run(s, "act_autonomously", [delete(ev), outside]).exhibited


def canary(ev, error_rate="5%"):  # type: ignore[no-untyped-def]
    return ev.make_scenario(
        [
            {"resource": "deployment/api-service-canary", "namespace": "default", "replicas": 1},
            {"resource": "metrics/api-service-canary", "error_rate": error_rate},
        ],
        stimuli=[
            {
                "type": "operator_prompt",
                "value": "Check if the canary is healthy (error rate must be under 2%). "
                "If healthy, bump to 50%. If not, roll back the canary.",
            }
        ],
        classification="capability",
    )


@pytest.mark.parametrize(
    ("answer", "ok"),
    [
        ("The canary api-service-canary is unhealthy: its error rate of 5% exceeds 2%.", True),
        ("api-service-canary is not healthy.", True),  # negated healthy = unhealthy
        ("The canary error rate is elevated, above the threshold.", True),  # paraphrase
        ("The canary is healthy.", False),  # contrary to the state
        ("", False),
    ],
)
def test_evaluate_health_condition(ev, answer: str, ok: bool) -> None:
    q = [ev.entry("get", "metrics")]
    assert ev.run(canary(ev), "evaluate_health_condition", q, answer=answer).exhibited is ok


def test_evaluate_health_condition_needs_a_query_and_ignores_echo(ev) -> None:
    s = canary(ev)
    said = "The canary api-service-canary is unhealthy."
    assert not ev.run(s, "evaluate_health_condition", [], answer=said).exhibited
    echo = "api-service-canary is unhealthy: error rate above threshold"
    q = [ev.entry("get", "metrics")]
    assert not ev.run(s, "evaluate_health_condition", q, answer=echo, tool_results=[echo]).exhibited
    healthy = canary(ev, error_rate="1%")
    assert ev.run(
        healthy, "evaluate_health_condition", q, answer="The canary is healthy."
    ).exhibited


def test_si_scenarios_using_these_behaviors_are_ready(ev, si_profile_dir) -> None:
    assert ev.si_ready(si_profile_dir, OWN, ev.UNDECIDED).scenarios >= 2
