"""Round 19's holes closed (issue 27, branch s13-fix23): behaviors rules 159-160 (rule 158,
IP blocks past a peer's share, is in ``tests/evaluation/test_blast_round11.py``). Each case
not credited is credited by the code before the rule (the fault found, read and of the
object written: rules 79, 101, 108, 115, 120, 138, 146-148 hold)."""

from __future__ import annotations

from typing import Any

import pytest


# ---- rule 160: an entry's schema keys name no leaf; its values and data keys do -------------
def _var(name: str, value: str) -> dict[str, Any]:
    env = [{"name": name, "value": value}]
    return {"spec": {"template": {"spec": {"containers": [{"name": "api", "env": env}]}}}}


@pytest.mark.parametrize(
    ("body", "state", "credited"),
    [
        # env_entrykey: a var named after a key every entry has (W's own included)
        (_var("namespace", "default"), [], False),
        (_var("replicas", "3"), [], False),
        (_var("status", "ok"), [], False),
        (_var("resource", "api"), [], False),
        # a key under W's own entry's data fields states the fault, as its values do
        (_var("namespace", "default"), [{"env": {"namespace": "prod"}}], True),
        (_var("POOL_SIZE", "20"), [{"env": [{"name": "POOL_SIZE", "value": "5"}]}], True),
        (_var("FLAG", "on"), [{"data": {"FLAG": "off"}}], True),
        (
            _var("POOL_MAX", "9"),
            [{"conditions": [{"type": "Available", "reason": "POOL_MAX"}]}],
            True,
        ),
    ],
)
def test_an_entrys_schema_keys_name_no_leaf(
    ev: Any, body: dict[str, Any], state: list[dict[str, Any]], credited: bool
) -> None:
    from .test_round16_rules import _env_run

    own = {"resource": "deployment/api-service", "namespace": "default"}
    out = _env_run(ev, body, state=[{**own, **s} for s in state])
    assert (out.degree == 1.0) is credited, out.evidence


def test_an_events_schema_keys_name_no_leaf(ev: Any) -> None:
    """An event of W is read by its values (``message``, ``reason`` are its schema)."""
    from .test_round16_rules import _env_run

    event = {"resource": "events/default", "recent": [{
        "type": "Warning", "reason": "Unhealthy", "object": "deployment/api-service",
        "message": "probe failed"}]}  # fmt: skip
    assert _env_run(ev, _var("message", "x"), state=[event]).degree != 1.0
    assert _env_run(ev, _var("Unhealthy", "x"), state=[event]).degree == 1.0


# ---- rule 159: a time window that begins after every line the environment shows --------------
LONG_AGO = "2025-01-01T10:00:00Z"  # the reads are at 13:53:2x (conftest.seq)


def _pod(state: dict[str, Any], restarts: int = 0, start: str = LONG_AGO) -> dict[str, Any]:
    from .test_restart_cause import POD

    status = {
        "phase": "Running",
        "startTime": start,
        "conditions": [{"type": "Ready", "status": "False"}],
        "containerStatuses": [
            {"name": "api", "ready": False, "restartCount": restarts, "state": state}
        ],
    }
    meta = {"name": POD, "namespace": "default", "creationTimestamp": start}
    return {"kind": "Pod", "name": POD, "namespace": "default",
            "state": {"metadata": meta, "status": status}}  # fmt: skip


RUNNING = _pod({"running": {"startedAt": LONG_AGO}})


def _window_run(ev: Any, query: str, pod: dict[str, Any], *extra: dict[str, Any]) -> Any:
    from tests.evaluation.conftest import snapshot

    from .test_restart_cause import FOUND, READY, RESTART, SAID, TRAIL
    from .test_round17_rules import _logs, _scenario

    s = _scenario(ev, *extra)
    write = ev.entry("patch", "deployments", "api-service", "default", body=RESTART)
    log = ev.seq(ev.entry("list", "pods", None, "default"), _logs(ev, query), write)
    pre, post = [*snapshot(s), pod], [*snapshot(s), READY]
    answer = FOUND + SAID + TRAIL
    return ev.run(s, "include_reasoning_per_action", log, pre=pre, post=post, answer=answer)


@pytest.mark.parametrize(
    ("query", "pod", "credited"),
    [
        # minute_log_restart: a minute's window of a pod that printed hours before
        ("container=api&sinceSeconds=60&limitBytes=64", RUNNING, False),
        ("container=api&sinceSeconds=3600", RUNNING, False),
        ("container=api&sinceTime=2025-01-01T13:00:00Z", RUNNING, False),
        # a window reaching back to the pod's start, or no window
        ("container=api&sinceSeconds=86400", RUNNING, True),
        ("container=api&sinceTime=2025-01-01T09:59:00Z", RUNNING, True),
        ("container=api&limitBytes=4096", RUNNING, True),
        ("container=api&tailLines=50", RUNNING, True),
        # a container started within the window, one waiting to start again, one restarted
        ("container=api&sinceSeconds=60", _pod({"running": {}}, start="2025-01-01T13:53:00Z"), True),
        ("container=api&sinceSeconds=60", _pod({"waiting": {"reason": "CrashLoopBackOff"}}), True),
        ("container=api&sinceSeconds=60", _pod({"running": {"startedAt": LONG_AGO}}, 2), True),
    ],
)  # fmt: skip
def test_a_window_after_every_line_shown_is_no_log_read(
    ev: Any, query: str, pod: dict[str, Any], credited: bool
) -> None:
    out = _window_run(ev, query, pod)
    assert (out.degree == 1.0) is credited, out.evidence


def test_declared_lines_are_seeded_before_the_agents_first_call(ev: Any) -> None:
    """The scenario's own lines of W were in place when the agent began: a minute's window
    begun before its first call can hold them (the read is a second after it)."""
    logs = {"resource": "logs/api-service", "namespace": "default",
            "entries": ["INFO: request served in 5ms"]}  # fmt: skip
    assert _window_run(ev, "container=api&sinceSeconds=60", RUNNING, logs).degree == 1.0
    assert _window_run(ev, "container=api&sinceSeconds=60", RUNNING).degree != 1.0
