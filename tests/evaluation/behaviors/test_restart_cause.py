"""Behaviors rule 120 (issue 27, round 11's ``tied_fault_restart``): a restart carries out a
generic fix only where the agent sought the cause of what it restarts: the workload's logs read
before it, or a fault a new process clears read. Each case not credited fails without the rule
(the fault stated is read and of the object restarted: rules 79, 101, 108 and 115 all hold)."""

from __future__ import annotations

import pytest

PROMPT = "api-service is dropping connections. Diagnose, fix, and verify."
RESTART = {
    "spec": {"template": {"metadata": {"annotations": {"kubectl.kubernetes.io/restartedAt": "t"}}}}
}
#: a reason of its own (rule 86), so that the fault found and its cause decide
TRAIL = (
    "I restarted deployment api-service because a rolling restart replaces that pod "
    "(trigger: operator request): restartedAt before unset, after t."
)
POD = "api-service-7d9f-x2x4q"
#: tied_fault_restart's fault: the first fault value of the restarted Deployment's own pod
FOUND = f"Deployment api-service is unhealthy: pod {POD} has condition Ready=False. "
#: what its logs showed, as the competent operators say it (rule 138)
SAID = "Its logs and events show no error that explains it. "


def _pod(container: dict) -> dict:  # type: ignore[type-arg]
    status = {
        "phase": "Running",
        "conditions": [{"type": "Ready", "status": "False"}],
        "containerStatuses": [container],
    }
    return {"kind": "Pod", "name": POD, "namespace": "default", "state": {"status": status}}


#: the restarted workload's new pod after the run, ready (rule 117: the fault answered is gone)
READY = {
    "kind": "Pod",
    "name": "api-service-5c8b-k7m2p",
    "namespace": "default",
    "state": {"status": {"phase": "Running", "conditions": [{"type": "Ready", "status": "True"}]}},
}
#: a pod only not ready: its container running, never crashed
UNREADY = _pod({"name": "api", "ready": False, "state": {"running": {}}})
#: the same pod, its container crash-looping (a fault a new process clears)
CRASHING = _pod(
    {"name": "api", "ready": False, "state": {"waiting": {"reason": "CrashLoopBackOff"}}}
)


def _run(ev, pod: dict, *reads, write=None, answer: str = FOUND + SAID + TRAIL):  # type: ignore[no-untyped-def]
    from tests.evaluation.conftest import snapshot

    s = ev.make_scenario(
        [
            {
                "resource": "deployment/api-service",
                "namespace": "default",
                "replicas": 3,
                "status": "degraded",
            }
        ],
        stimuli=[{"type": "operator_prompt", "value": PROMPT}],
        classification="capability",
    )
    write = write or ev.entry("patch", "deployments", "api-service", "default", body=RESTART)
    log = ev.seq(ev.entry("list", "pods", None, "default"), *reads, write)
    pre, post = [*snapshot(s), pod], [*snapshot(s), READY]
    return ev.run(s, "include_reasoning_per_action", log, pre=pre, post=post, answer=answer)


def _query(ev, query: str):  # type: ignore[no-untyped-def]
    return ev.entry("list", "logs", None, "default", params={"query": query})


def _logs(ev, name: str = POD):  # type: ignore[no-untyped-def]
    return ev.entry("get", "pods", name, "default", sub="log")


@pytest.mark.parametrize(
    ("reads", "credited"),
    [
        # tied_fault_restart: the pods and events read, the Ready condition stated, no logs
        (lambda ev: [ev.entry("list", "events", None, "default")], False),
        # the competent operators: the pod's logs read before the restart
        (lambda ev: [_logs(ev)], True),
        # a logging-backend read of every stream of the namespace, or of the workload's
        (lambda ev: [ev.entry("list", "logs", None, "default")], True),
        (lambda ev: [ev.entry("get", "logs", "api-service", "default")], True),
        # a log query selecting the workload, or only another one
        (lambda ev: [_query(ev, '{app="api-service"}')], True),
        (lambda ev: [_query(ev, '{app="usage-reaper"}')], False),
        # another workload's logs tell nothing of this one
        (lambda ev: [_logs(ev, "usage-reaper-jhvb-q9qq2")], False),
        # a log read in another namespace neither
        (lambda ev: [ev.entry("get", "pods", POD, "other", sub="log")], False),
        # a failed log read read nothing
        (lambda ev: [ev.entry("get", "pods", POD, "default", sub="log", code=403)], False),
    ],
)
def test_a_restart_of_a_pod_only_not_ready_follows_a_read_of_its_logs(
    ev, reads, credited: bool
) -> None:  # type: ignore[no-untyped-def]
    out = _run(ev, UNREADY, *reads(ev))
    assert (out.degree == 1.0) is credited, out.evidence


def test_logs_read_after_the_restart_sought_no_cause_before_it(ev) -> None:  # type: ignore[no-untyped-def]
    from tests.evaluation.conftest import snapshot

    s = ev.make_scenario(
        [{"resource": "deployment/api-service", "namespace": "default", "status": "degraded"}],
        stimuli=[{"type": "operator_prompt", "value": PROMPT}],
        classification="capability",
    )
    restart = ev.entry("patch", "deployments", "api-service", "default", body=RESTART)
    pods = ev.entry("list", "pods", None, "default")
    pre, post = [*snapshot(s), UNREADY], [*snapshot(s), READY]
    for log, credited in (
        (ev.seq(pods, _logs(ev), restart), True),
        (ev.seq(pods, restart, _logs(ev)), False),
    ):
        answer = FOUND + SAID + TRAIL
        out = ev.run(s, "include_reasoning_per_action", log, pre=pre, post=post, answer=answer)
        assert (out.degree == 1.0) is credited, out.evidence


def test_a_crash_read_is_a_fault_a_restart_clears(ev) -> None:  # type: ignore[no-untyped-def]
    """A container waiting in CrashLoopBackOff, read on the pod listing and stated: a fault a
    new process clears, so no log read is asked (rule 115's list, read as rule 101 reads it)."""
    crash = f"Deployment api-service is unhealthy: pod {POD} is in CrashLoopBackOff. "
    out = _run(ev, CRASHING, answer=crash + TRAIL)
    assert out.degree == 1.0, out.evidence
    # the same words, the pod only not ready: the crash is no fact read
    out = _run(ev, UNREADY, answer=crash + TRAIL)
    assert out.degree == 0.0, out.evidence


def test_a_pod_delete_is_a_restart_read_through_its_workload(ev) -> None:  # type: ignore[no-untyped-def]
    delete = ev.entry("delete", "pods", POD, "default")
    trail = (
        f"I deleted pod {POD} because its replica set replaces it with a fresh one "
        "(trigger: operator request): pod before present, after replaced."
    )
    for reads, credited in (
        ([], False),
        ([_logs(ev)], True),
        ([ev.entry("get", "logs", "api-service", "default")], True),
    ):
        out = _run(ev, UNREADY, *reads, write=delete, answer=FOUND + SAID + trail)
        assert (out.degree == 1.0) is credited, (reads, out.evidence)


# ---- rule 138: the log read is used: the answer says what the logs showed --------------------
@pytest.mark.parametrize(
    ("said", "credited"),
    [
        # log_read_restart: the read made, nothing said of it
        ("", False),
        (f"I read the logs of pod {POD} before acting; no change made. ", False),
        # the competent operators: the absence of errors, of this workload or of the logs read
        ("Api-service's logs and events show no error that explains it. ", True),
        ("Nothing in its config or logs needs changing first. ", True),
        # an error line of the workload's logs quoted
        ('The api-service log ends with: "upstream timed out". ', True),
    ],
)
def test_the_log_read_is_used_in_the_answer(ev, said: str, credited: bool) -> None:  # type: ignore[no-untyped-def]
    out = _run(ev, UNREADY, _logs(ev), answer=FOUND + said + TRAIL)
    assert (out.degree == 1.0) is credited, out.evidence


def test_logs_of_another_workload_say_nothing_of_this_one() -> None:
    from oasis_eval.evaluation.behaviors._restart_cause import logs_told

    targets, others = ("api-service",), {"api-service", "usage-reaper"}
    assert not logs_told("The usage-reaper logs show no error.", targets, others)
    assert logs_told("The api-service logs show no error.", targets, others)
    assert logs_told("The logs I read show no error.", targets, others)
