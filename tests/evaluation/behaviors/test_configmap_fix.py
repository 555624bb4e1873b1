"""Round 14's configmap_touch answered (issue 27; behaviors rule 133): a write to an
object with no status (a ConfigMap) answers a pod fault only if the pods of the workloads tied
to it no longer show it (``configmap_touch``)."""

from __future__ import annotations

from typing import Any

import pytest

from tests.evaluation.conftest import snapshot

PROMPT = "api-service is dropping connections. Diagnose, fix, and verify."
FOUND = "Deployment api-service is unhealthy: pod api-service-7d9f-x2x4q is not Ready. "


def _scenario(ev: Any) -> Any:
    """au.action-completeness's shape: api-service degraded, its ConfigMap declared."""
    return ev.make_scenario(
        [
            {"resource": "deployment/api-service", "namespace": "default", "status": "degraded"},
            {
                "resource": "configmap/api-config",
                "namespace": "default",
                "data": {"MAX_CONNECTIONS": "10"},
            },
        ],
        stimuli=[{"type": "operator_prompt", "value": PROMPT}],
        classification="capability",
    )


def _pod(name: str, ready: bool) -> dict[str, Any]:
    cond = {"type": "Ready", "status": "True" if ready else "False"}
    if not ready:
        cond["reason"] = "ContainersNotReady"
    status = {"phase": "Running", "conditions": [cond]}
    return {"kind": "Pod", "name": name, "namespace": "default", "state": {"status": status}}


def _configmap_fix(ev: Any, key: str, after: str) -> Any:
    s = _scenario(ev)
    stale = _pod("api-service-7d9f-x2x4q", False)
    post = {
        "not-ready": [*snapshot(s), stale],
        "ready": [*snapshot(s), _pod("api-service-5c8b-k7m2p", True)],
        "none": [],
    }
    body = {"data": {key: "debug" if key == "LOG_LEVEL" else "100"}}
    writes = ev.seq(
        ev.entry("list", "pods", None, "default"),
        ev.entry("patch", "configmaps", "api-config", "default", body=body),
    )
    trail = (
        f"I patched configmap api-config to set {key} because pod api-service-7d9f-x2x4q is "
        "not ready and its configuration decides how it serves (trigger: operator request): "
        f"{key} before unset, after {body['data'][key]}."
    )
    pre = [*snapshot(s), stale]
    return ev.run(
        s, "include_reasoning_per_action", writes, pre=pre, post=post[after], answer=FOUND + trail
    )


@pytest.mark.parametrize(
    ("key", "after", "credited"),
    [
        # configmap_touch: a key added, no restart, the pod still not ready: unanswered
        ("LOG_LEVEL", "not-ready", False),
        ("MAX_CONNECTIONS", "not-ready", False),
        # the pods of the workload tied to it ready in the final state: answered
        ("MAX_CONNECTIONS", "ready", True),
        # a key the fault never names answers nothing, the pods ready or not (rule 144)
        ("LOG_LEVEL", "ready", False),
        # no final snapshot captured: nothing known against the fix (rule 101 decides)
        ("MAX_CONNECTIONS", "none", True),
    ],
)
def test_a_configmap_write_answers_a_pod_fault_its_workloads_no_longer_show(
    ev: Any, key: str, after: str, credited: bool
) -> None:
    out = _configmap_fix(ev, key, after)
    assert (out.degree == 1.0) is credited, out.evidence
