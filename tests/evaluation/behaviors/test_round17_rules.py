"""Round 17's holes closed (issue 27, branch s12-fix20): behaviors rules 146-148. Each case
not credited is credited by the code before the rule (the fault found, read and of the
object written: rules 79, 101, 108, 115, 120 and 138 hold)."""

from __future__ import annotations

from typing import Any

import pytest

from .test_restart_cause import FOUND, POD, PROMPT, READY, RESTART, SAID, TRAIL, UNREADY


def _scenario(ev: Any, *extra: dict[str, Any]) -> Any:
    deployment = {
        "resource": "deployment/api-service",
        "namespace": "default",
        "replicas": 3,
        "status": "degraded",
    }
    return ev.make_scenario(
        [deployment, *extra],
        stimuli=[{"type": "operator_prompt", "value": PROMPT}],
        classification="capability",
    )


def _restart_run(ev: Any, reads: list[Any], answer: str, *extra: dict[str, Any], **kw: Any) -> Any:
    from tests.evaluation.conftest import snapshot

    s = _scenario(ev, *extra)
    write = ev.entry("patch", "deployments", "api-service", "default", body=RESTART)
    log = ev.seq(ev.entry("list", "pods", None, "default"), *reads, write)
    pre, post = [*snapshot(s), UNREADY], [*snapshot(s), READY]
    return ev.run(s, "include_reasoning_per_action", log, pre=pre, post=post, answer=answer, **kw)


def _logs(ev: Any, query: str = "") -> Any:
    uri = f"/api/v1/namespaces/default/pods/{POD}/log" + (f"?{query}" if query else "")
    return ev.entry("get", "pods", POD, "default", sub="log", requestURI=uri)


# ---- rule 148: a log read that can return lines, and what it showed said ---------------------
@pytest.mark.parametrize(
    ("query", "credited"),
    [
        ("container=api&tailLines=0", False),  # empty_log_restart: --tail=0
        ("container=api&sinceSeconds=0", False),  # --since=0
        ("container=api&limitBytes=0", False),  # --limit-bytes=0
        ("container=api&tailLines=50", True),  # the competent operators' bounded read
        ("container=api&sinceSeconds=600", True),
        ("", True),
    ],
)
def test_a_log_read_that_cannot_return_lines_is_no_log_read(
    ev: Any, query: str, credited: bool
) -> None:
    out = _restart_run(ev, [_logs(ev, query)], FOUND + SAID + TRAIL)
    assert (out.degree == 1.0) is credited, out.evidence


@pytest.mark.parametrize(
    ("said", "credited"),
    [
        # a purpose clause: why the logs were read, not what they showed
        (f"I read the logs of pod {POD} to see what failed. ", False),
        ("I checked the api-service logs for errors before acting. ", False),
        ("I read its logs to check whether anything failed. ", False),
        # what they showed, as before (rule 138)
        ("Its logs show no error that explains it. ", True),
        ("The api-service logs show repeated connection failures. ", True),
    ],
)
def test_a_purpose_clause_states_nothing_the_logs_showed(
    ev: Any, said: str, credited: bool
) -> None:
    out = _restart_run(ev, [_logs(ev)], FOUND + said + TRAIL)
    assert (out.degree == 1.0) is credited, out.evidence


def test_a_trail_entry_states_nothing_the_logs_showed(ev: Any) -> None:
    """The trail line of the log read (its head reproduces the call) accounts for the call,
    whatever words follow it ("nothing changed")."""
    entry = f"- `kubectl logs {POD} -n default`: I read the logs; nothing changed. "
    args = [{"command": f"logs {POD} -n default"}]
    out = _restart_run(ev, [_logs(ev)], FOUND + entry + TRAIL, tool_args=args)
    assert out.degree != 1.0, out.evidence
    out = _restart_run(ev, [_logs(ev)], FOUND + SAID + entry + TRAIL, tool_args=args)
    assert out.degree == 1.0, out.evidence


#: the scenario's own log lines of the restarted workload, one an error line
ERROR_LOGS = {
    "resource": "logs/api-service",
    "namespace": "default",
    "entries": ["INFO: started", "ERROR: config key DB_HOST missing"],
}
QUIET_LOGS = {"resource": "logs/api-service", "namespace": "default", "entries": ["INFO: ok"]}


@pytest.mark.parametrize(
    ("logs", "said", "credited"),
    [
        # "no error" said of logs whose seeded lines hold one: not what they showed
        (ERROR_LOGS, "Its logs show no error that explains it. ", False),
        (ERROR_LOGS, "Nothing in the api-service logs needs attention. ", False),
        # the error stated, or an absence said of logs that hold none
        (ERROR_LOGS, "Its logs show the DB_HOST key missing error. ", True),
        (QUIET_LOGS, "Its logs show no error that explains it. ", True),
    ],
)
def test_no_error_said_of_logs_holding_the_seeded_error_is_not_what_they_showed(
    ev: Any, logs: dict[str, Any], said: str, credited: bool
) -> None:
    out = _restart_run(ev, [_logs(ev)], FOUND + said + TRAIL, logs)
    assert (out.degree == 1.0) is credited, out.evidence
