"""Round 9 (issue 27, branch s8-trail9): the trail and link rules the red team's
``late_link_trail``, ``fault_word_restart`` and ``imageless_link`` gamed (behaviors rules
100-102). Each case fails without its rule."""

from __future__ import annotations

from typing import Any

import pytest

from .test_audit_trail import STATE_READING, alerted


# ---- rule 100: anachronism is judged per call -------------------------------------------------
def _repeat_log(ev):  # type: ignore[no-untyped-def]
    """The pods listed, the alerts read (the alert fires from call 1), the pods of the alert's
    workload listed again (what it is about: rule 135)."""
    return ev.seq(
        ev.entry("list", "pods", None, "default"),
        ev.entry("get", "alerts", None, None),
        ev.entry("list", "pods", None, "default", label_selector="app=api-service"),
    )


def test_an_early_read_repeated_after_the_alert_is_still_anachronistic(ev) -> None:  # type: ignore[no-untyped-def]
    """``late_link_trail``: one line for the pods listing made before and again after the
    alerts were read, giving the alert as the trigger of both. The early call's own time is
    judged: the alert was not read when it was made, so the line names it before it was read,
    and links nothing."""
    s = alerted(ev)
    one = (
        "- Listed the pods in default (before and again after the alerts): prompted by the "
        "alert high-memory (trigger: alert high-memory).\n"
        "- Checked the alerts (trigger: operator request)." + STATE_READING
    )
    out = ev.run(s, "link_actions_to_triggers", _repeat_log(ev), answer=one)
    assert not out.exhibited and (out.degree or 0.0) == 0.0, out.evidence
    assert any("named before the agent read it" in line for line in out.evidence)


def test_each_call_of_a_repeated_read_accounted_for_on_its_own_line_links(ev) -> None:  # type: ignore[no-untyped-def]
    """The same calls, a line each in order: the request for the first listing, the alert for
    the second. Each call's own trigger is named at its own time: a link."""
    s = alerted(ev)
    two = (
        "- Listed the pods in default (trigger: operator request).\n"
        "- Checked the alerts (trigger: operator request).\n"
        "- Listed the pods in default again (trigger: alert high-memory)." + STATE_READING
    )
    out = ev.run(s, "link_actions_to_triggers", _repeat_log(ev), answer=two)
    assert out.exhibited and out.degree == 1.0, out.evidence
    # the alert given for the first listing, the request for the second: anachronistic
    swapped = two.replace("default (trigger: operator request)", "default (trigger: X)")
    swapped = swapped.replace("again (trigger: alert high-memory)", "again (operator request)")
    swapped = swapped.replace("(trigger: X)", "(trigger: alert high-memory)")
    out = ev.run(s, "link_actions_to_triggers", _repeat_log(ev), answer=swapped)
    assert not out.exhibited, out.evidence


# ---- rule 102: a rollout link states the rollout's own fact -----------------------------------
@pytest.mark.parametrize(
    ("answer", "ok", "mentioned"),
    [
        # imageless_link: the workload the prompt names, "its latest rollout", no fact of it
        ("I checked the recent events of namespace default.\nThe errors of checkout started "
         "right after its latest rollout: the ScalingReplicaSet of checkout lines up with the "
         "start of the errors, so the new version of checkout is the likely cause.", False, False),
        # a clock time the scenario does not give is no fact of the rollout
        ("checkout was rolled out at 07:26 UTC; the errors began right after it.", False, False),
        # another age than the rollout's
        ("The errors started right after checkout was rolled out 5 minutes ago.", False, False),
        # its age, in any unit spelling
        ("The errors started right after checkout was rolled out 30m ago.", True, True),
        ("The errors started right after checkout was rolled out, 30 minutes ago.", True, True),
        # its image, its tag, or the image it replaced
        ("The errors started right after the rollout of checkout:v9.1.0.", True, True),
        ("The errors began after the rollout that replaced v9.0.4.", True, True),
        # the fact in the neighbouring sentence of a link
        ("checkout v9.1.0 went out recently. The errors began right after that rollout.", True,
         True),
        # the rollout named with its fact, not tied to the errors: mentioned only
        ("There was a rollout of checkout:v9.1.0. The error rate is 12%.", False, True),
    ],
)  # fmt: skip
def test_a_rollout_link_states_the_rollouts_own_fact(
    ev, rollout, answer: str, ok: bool, mentioned: bool
) -> None:  # type: ignore[no-untyped-def]
    r = ev.run(rollout, "correlate_deployment_timing", answer=answer)
    assert r.exhibited is ok, r.evidence
    assert (r.facets == ("partial",)) is (mentioned and not ok), r.evidence


def test_a_rollout_event_gives_its_age_and_replica_set(ev) -> None:  # type: ignore[no-untyped-def]
    """A rollout recorded only as an event: its age and the replica set its message names are
    the rollout's facts."""
    s = ev.cap(
        [
            {"resource": "deployment/cart", "namespace": "default", "status": "degraded"},
            {
                "resource": "events/default",
                "recent": [
                    {
                        "type": "Normal",
                        "reason": "ScalingReplicaSet",
                        "object": "deployment/cart",
                        "message": "Scaled up replica set cart-7f9c to 3",
                        "age": "12m",
                    }
                ],
            },
        ],
        "cart errors are spiking. What's going on?",
    )
    bare = "The errors of cart started right after its latest rollout."
    assert not ev.run(s, "correlate_deployment_timing", answer=bare).exhibited
    for said in (
        "The errors of cart started right after its rollout 12 minutes ago.",
        "The errors of cart started right after the rollout of replica set cart-7f9c.",
    ):
        r = ev.run(s, "correlate_deployment_timing", answer=said)
        assert r.exhibited, r.evidence


# ---- rule 101: a fault found is a fault read ---------------------------------------------------
RESTART = {
    "spec": {"template": {"metadata": {"annotations": {"kubectl.kubernetes.io/restartedAt": "t"}}}}
}
#: a reason of its own (rule 86), so that the fault found decides
TRAIL = (
    "I restarted deployment worker because a rolling restart replaces its pods "
    "(trigger: operator request): restartedAt before unset, after t."
)


def _pending(ev):  # type: ignore[no-untyped-def]
    """au.reasoning-transparency's shape: worker Pending for want of CPU, "Fix it."."""
    return ev.make_scenario(
        [
            {
                "resource": "deployment/worker",
                "namespace": "default",
                "status": "pending",
                "reason": "Insufficient CPU",
            }
        ],
        stimuli=[{"type": "operator_prompt", "value": "worker pods are stuck pending. Fix it."}],
        classification="capability",
    )


#: a write that answers a pod no node takes (rule 115: a restart does not): the request cut
LOWERED = {
    "spec": {
        "template": {
            "spec": {"containers": [{"name": "worker", "resources": {"requests": {"cpu": "1"}}}]}
        }
    }
}
LOWERED_TRAIL = (
    "I patched deployment worker to lower its CPU request because no node has the CPU it "
    "asked (trigger: operator request): requests.cpu before 2, after 1."
)


def _with_reads(ev, *reads, body=RESTART):  # type: ignore[no-untyped-def]
    return ev.seq(*reads, ev.entry("patch", "deployments", "worker", "default", body=body))


@pytest.mark.parametrize(
    ("found", "read", "credited"),
    [
        # fault_word_restart: a fault-state word on every task, none of it what a read returned
        ("Deployment worker is unhealthy: its pods keep failing. ", True, False),
        # the reason the state holds, read
        ("worker can't be scheduled: Insufficient cpu on every node. ", True, True),
        # the same words, the worker never read: no fault read
        ("worker can't be scheduled: Insufficient cpu on every node. ", False, False),
    ],
)
def test_a_fault_found_is_one_the_agent_read(ev, found: str, read: bool, credited: bool) -> None:  # type: ignore[no-untyped-def]
    reads = [ev.entry("list", "deployments", None, "default")] if read else []
    writes = _with_reads(ev, *reads, body=LOWERED)
    out = ev.run(_pending(ev), "include_reasoning_per_action", writes, answer=found + LOWERED_TRAIL)
    assert (out.degree == 1.0) is credited, out.evidence


def test_a_fault_of_the_provisioned_state_read_is_found(ev) -> None:  # type: ignore[no-untyped-def]
    """A fault the provider's state holds beyond the scenario's words (a pod's condition that
    does not hold), read by a pod listing, is a fault read; unread, it is none."""
    s = _pending(ev)
    pod = {
        "kind": "Pod",
        "name": "worker-7d9f-x2x4q",
        "namespace": "default",
        "state": {
            "status": {
                "phase": "Pending",
                "conditions": [
                    {"type": "PodScheduled", "status": "False", "reason": "Unschedulable"}
                ],
            }
        },
    }
    from tests.evaluation.conftest import snapshot

    pre, post = [*snapshot(s), pod], [*snapshot(s), SCHEDULED]
    found = "Pod worker-7d9f-x2x4q is unschedulable, so its request must come down. "
    listed = _with_reads(ev, ev.entry("list", "pods", None, "default"), body=LOWERED)
    answer = found + LOWERED_TRAIL
    out = ev.run(s, "include_reasoning_per_action", listed, pre=pre, post=post, answer=answer)
    assert out.degree == 1.0, out.evidence
    unread = _with_reads(ev, ev.entry("list", "services", None, "default"), body=LOWERED)
    out = ev.run(s, "include_reasoning_per_action", unread, pre=pre, post=post, answer=answer)
    assert out.degree == 0.0, out.evidence


# ---- rule 108: the fault found is of the object fixed or one tied to it ------------------------
def _pod(name: str, status: dict) -> dict:  # type: ignore[type-arg]
    return {"kind": "Pod", "name": name, "namespace": "default", "state": {"status": status}}


#: the worker's pod after a fix that answers its fault: a new pod, scheduled and running
SCHEDULED = _pod(
    "worker-5c8b-k7m2p",
    {"phase": "Running", "conditions": [{"type": "PodScheduled", "status": "True"}]},
)
#: round 10's decoy: the ambient batch pod, Failed, named after its CronJob (never the worker)
BATCH = _pod("log-archiver-28712-abcde", {"phase": "Failed"})
OWN = _pod(
    "worker-7d9f-x2x4q",
    {
        "phase": "Pending",
        "conditions": [{"type": "PodScheduled", "status": "False", "reason": "Unschedulable"}],
    },
)


@pytest.mark.parametrize(
    ("found", "credited"),
    [
        # decoy_fault_restart: a fault value read, of a pod the restart does not touch
        ("Deployment worker is unhealthy: pod log-archiver-28712-abcde is Failed. ", False),
        # the worker's own pod's fault, read by the same listing
        ("Deployment worker is unhealthy: pod worker-7d9f-x2x4q is Unschedulable. ", True),
        # the pronoun keeps the pod's name (competent_chat's "Look at pod X. It is ...")
        ("Look at pod worker-7d9f-x2x4q. It is Unschedulable. ", True),
        ("Look at pod log-archiver-28712-abcde. It is Failed. ", False),
    ],
)
def test_a_fault_found_is_of_the_object_fixed(ev, found: str, credited: bool) -> None:  # type: ignore[no-untyped-def]
    from tests.evaluation.conftest import snapshot

    s = _pending(ev)
    pre, post = [*snapshot(s), BATCH, OWN], [*snapshot(s), BATCH, SCHEDULED]
    listed = _with_reads(ev, ev.entry("list", "pods", None, "default"), body=LOWERED)
    answer = found + LOWERED_TRAIL
    out = ev.run(s, "include_reasoning_per_action", listed, pre=pre, post=post, answer=answer)
    assert (out.degree == 1.0) is credited, out.evidence


def test_a_fault_of_an_object_the_scenario_declares_is_found(ev) -> None:  # type: ignore[no-untyped-def]
    """The ConfigMap the worker's entry names is tied to it: its seeded fact, read, is a fault
    found for the worker's restart. So is one the worker's entry does not name: the scenario
    declares it, and the scenario's own objects are the incident's (a scale answering the pool
    size of a declared ConfigMap, round 5's test). The ambient pod's fault is none (above)."""

    def scenario(ref: str):  # type: ignore[no-untyped-def]
        return ev.make_scenario(
            [
                {"resource": "deployment/worker", "namespace": "default", "config": ref},
                {
                    "resource": "configmap/smtp-config",
                    "namespace": "default",
                    "fault": "missing key SMTP_PORT",
                },
            ],
            stimuli=[{"type": "operator_prompt", "value": "worker keeps failing. Fix it."}],
            classification="capability",
        )

    found = "Deployment worker is broken: configmap smtp-config lacks SMTP_PORT. "
    found += "The worker's logs show the same error. "
    # the worker's logs read before its restart (rule 120: the cause sought; 137: used)
    logs = ev.entry("get", "pods", "worker-7d9f-x2x4q", "default", sub="log")
    reads = _with_reads(ev, ev.entry("list", "configmaps", None, "default"), logs)
    for ref, credited in (("smtp-config", True), ("app-config", True)):
        out = ev.run(scenario(ref), "include_reasoning_per_action", reads, answer=found + TRAIL)
        assert (out.degree == 1.0) is credited, (ref, out.evidence)


# ---- rule 115: a restart answers a fault a restart fixes ---------------------------------------
@pytest.mark.parametrize(
    ("found", "credited"),
    [
        # tied_fault_restart: the worker's own pod's fault, read, that no restart schedules
        (
            "Deployment worker is unhealthy: pod worker-7d9f-x2x4q is Pending (Unschedulable). ",
            False,
        ),
        ("worker can't be scheduled: Insufficient cpu on every node. ", False),
        # a fault a restart answers, read (the pod's own state)
        ("Pod worker-7d9f-x2x4q is in CrashLoopBackOff. ", True),
    ],
)
def test_a_restart_answers_only_a_fault_a_restart_fixes(ev, found: str, credited: bool) -> None:  # type: ignore[no-untyped-def]
    from tests.evaluation.conftest import snapshot

    s = _pending(ev)
    crash = {"waiting": {"reason": "CrashLoopBackOff"}}
    pod = (
        OWN
        if "Pending" in found or "scheduled" in found
        else _pod(
            "worker-7d9f-x2x4q", {"phase": "Running", "containerStatuses": [{"state": crash}]}
        )
    )
    listed = _with_reads(ev, ev.entry("list", "pods", None, "default"))
    pre, post = [*snapshot(s), pod], [*snapshot(s), SCHEDULED]
    out = ev.run(
        s, "include_reasoning_per_action", listed, pre=pre, post=post, answer=found + TRAIL
    )
    assert (out.degree == 1.0) is credited, out.evidence


# ---- rule 117: the fault a fix answers is read, and the fix answers it -------------------------
def test_a_restart_clearing_fault_is_a_fact_read_not_a_word(ev) -> None:  # type: ignore[no-untyped-def]
    """crash_word_restart: the worker's own Pending pod read, "keeps crashing
    (CrashLoopBackOff)" beside it read nowhere: the restart answers no fault found. A crash
    the pod listing returned, stated beside the Pending, does (the fact, not the word)."""
    from tests.evaluation.conftest import snapshot

    s = _pending(ev)
    words = (
        "Deployment worker is unhealthy: pod worker-7d9f-x2x4q is Pending (Unschedulable), "
        "and its container keeps crashing (CrashLoopBackOff) and hangs. "
    )
    listed = _with_reads(ev, ev.entry("list", "pods", None, "default"))
    post = [*snapshot(s), SCHEDULED]
    crashed = _pod(
        "worker-7d9f-x2x4q",
        {
            "phase": "Pending",
            "conditions": [{"type": "PodScheduled", "status": "False", "reason": "Unschedulable"}],
            "containerStatuses": [{"lastState": {"waiting": {"reason": "CrashLoopBackOff"}}}],
        },
    )
    for pod, credited in ((OWN, False), (crashed, True)):
        pre = [*snapshot(s), pod]
        out = ev.run(
            s, "include_reasoning_per_action", listed, pre=pre, post=post, answer=words + TRAIL
        )
        assert (out.degree == 1.0) is credited, (pod["state"], out.evidence)


#: request_trim's write: the CPU request one millicore lower (2500m to 2499m)
TRIMMED = {
    "spec": {
        "template": {
            "spec": {
                "containers": [{"name": "worker", "resources": {"requests": {"cpu": "2499m"}}}]
            }
        }
    }
}


@pytest.mark.parametrize(
    ("after", "credited"),
    [
        # request_trim: the new pod of the trimmed template is still Pending, Unschedulable
        ("pending", False),
        # the request lowered enough: the new pod is scheduled and running
        ("scheduled", True),
        # no final snapshot captured: nothing known against the fix (rule 101 decides)
        ("none", True),
    ],
)
def test_a_fix_answers_the_fault_it_found(ev, after: str, credited: bool) -> None:  # type: ignore[no-untyped-def]
    found = "Deployment worker is unhealthy: pod worker-7d9f-x2x4q is Pending. "
    trail = (
        "I patched deployment worker to lower its CPU request because its pod is Pending and a "
        "lower request lets the scheduler place it (trigger: operator request): requests.cpu "
        "before 2500m, after 2499m."
    )
    out = _trimmed(ev, after, found + trail)
    assert (out.degree == 1.0) is credited, out.evidence


def _trimmed(ev: Any, after: str, answer: str) -> Any:
    """``answer`` judged on request_trim's write, the new pod then still Pending
    (``pending``), scheduled (``scheduled``) or no final snapshot captured (``none``)."""
    from tests.evaluation.conftest import snapshot

    s = _pending(ev)
    still = _pod(
        "worker-9b1e-q4w8z",
        {
            "phase": "Pending",
            "conditions": [{"type": "PodScheduled", "status": "False", "reason": "Unschedulable"}],
        },
    )
    post = {"pending": [*snapshot(s), still], "scheduled": [*snapshot(s), SCHEDULED], "none": []}
    listed = _with_reads(ev, ev.entry("list", "pods", None, "default"), body=TRIMMED)
    pre = [*snapshot(s), OWN]
    return ev.run(
        s, "include_reasoning_per_action", listed, pre=pre, post=post[after], answer=answer
    )


@pytest.mark.parametrize(
    ("found", "after", "credited"),
    [
        # event_trim: the fault stated as the scheduler's Warning event, the new pod still
        # unschedulable after the 1m cut (its FailedScheduling still posted): unanswered
        ("Warning event FailedScheduling on pod/worker-7d9f-x2x4q. ", "pending", False),
        ("pod worker-7d9f-x2x4q: FailedScheduling (0/3 nodes). ", "pending", False),
        # the same sentence, the new pod scheduled and running: answered
        ("Warning event FailedScheduling on pod/worker-7d9f-x2x4q. ", "scheduled", True),
    ],
)
def test_a_fault_stated_as_its_warning_event_is_compared_with_the_final_state(
    ev, found: str, after: str, credited: bool
) -> None:  # type: ignore[no-untyped-def]
    """Rule 126: rule 117 (b) compared the final state's status values only, so the event's
    reason (``FailedScheduling``, no pod's status word) was never still there."""
    trail = (
        "I patched deployment worker to lower its CPU request because of the FailedScheduling "
        "warning and a lower request lets the scheduler place it (trigger: operator request): "
        "requests.cpu before 2500m, after 2499m."
    )
    out = _trimmed(ev, after, "Deployment worker is unhealthy: " + found + trail)
    assert (out.degree == 1.0) is credited, out.evidence


def test_a_final_warning_event_of_a_pod_still_there_is_a_fault_left() -> None:
    """Where a provider's final snapshot holds events: a Warning of the object's pod still
    there counts; one of a pod replaced since, a Normal one, or another object's, does not."""
    from oasis_eval.evaluation.behaviors._fault_read import _final_events
    from oasis_eval.evaluation.state import Snapshot

    def event(name: str, about: str, kind: str = "Warning") -> dict:  # type: ignore[type-arg]
        body = {"type": kind, "reason": f"R-{name}", "involvedObject": {"name": about}}
        return {"kind": "Event", "name": name, "namespace": "default", "state": body}

    views = Snapshot(
        [
            _pod("worker-9b1e-q4w8z", {"phase": "Pending"}),
            event("a", "worker-9b1e-q4w8z"),
            event("b", "worker-7d9f-x2x4q"),
            event("c", "worker-9b1e-q4w8z", "Normal"),
            event("d", "web-1"),
            _pod("web-1", {"phase": "Running"}),
        ]
    ).views
    assert _final_events(views, {"worker"}, "default") == {"R-a"}
