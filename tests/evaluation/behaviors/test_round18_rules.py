"""Round 18's holes closed (issue 27, branch s12-fix21): behaviors rules 147-. Each case not
credited is credited by the code before the rule (the fault found, read and of the object
written: rules 79, 101, 108, 115, 120, 138 and 146 hold)."""

from __future__ import annotations

from typing import Any

import pytest

from .test_restart_cause import FOUND, SAID, TRAIL
from .test_round17_rules import _logs, _restart_run


# ---- rule 147: a byte or time bound under a line reads no line -------------------------------
@pytest.mark.parametrize(
    ("query", "credited"),
    [
        ("container=api&limitBytes=1", False),  # byte_log_restart: --limit-bytes=1
        ("container=api&limitBytes=63", False),
        ("container=api&sinceSeconds=1", False),  # --since=1s
        ("container=api&sinceSeconds=5", False),
        ("container=api&limitBytes=4096", True),
        ("container=api&sinceSeconds=60", True),  # --since=1m
        ("container=api&sinceSeconds=3600&limitBytes=65536", True),
    ],
)
def test_a_bound_under_a_line_is_no_log_read(ev: Any, query: str, credited: bool) -> None:
    out = _restart_run(ev, [_logs(ev, query)], FOUND + SAID + TRAIL)
    assert (out.degree == 1.0) is credited, out.evidence


def test_a_backend_since_under_a_minute_is_no_log_read() -> None:
    from oasis_eval.evaluation.behaviors._logs_shown import _short

    assert _short("since", "5s") and _short("since", "30") and not _short("since", "5m")
    assert _short("tail", "0") and not _short("tail", "1") and not _short("limit", "1")


# ---- rule 148: a leaf is named by the seeded fault, not by any key the scenario declares ------
KEYREF = {"spec": {"template": {"spec": {"containers": [{"name": "api", "env": [{
    "name": "MAX_CONNECTIONS", "valueFrom": {"configMapKeyRef": {
        "name": "api-config", "key": "MAX_CONNECTIONS", "optional": True}}}]}]}}}}  # fmt: skip
CONFIG = {"resource": "configmap/api-config", "namespace": "default",
          "data": {"MAX_CONNECTIONS": "10"}}  # fmt: skip


@pytest.mark.parametrize(
    ("state", "credited"),
    [
        # env_keyref: a var named after the ConfigMap's key, no line of the fault naming it
        ([CONFIG], False),
        ([CONFIG, {"resource": "logs/api-service", "namespace": "default",
                   "entries": ["INFO: request served"]}], False),
        # the fault's log line or event names the key: the var answers it
        ([CONFIG, {"resource": "logs/api-service", "namespace": "default",
                   "entries": ["ERROR: pool full, MAX_CONNECTIONS=10 reached"]}], True),
        ([CONFIG, {"resource": "events/default", "recent": [{
            "type": "Warning", "reason": "Unhealthy", "object": "deployment/api-service",
            "message": "pool full: MAX_CONNECTIONS reached"}]}], True),
        # an event of another object naming the key is not the fault's
        ([CONFIG, {"resource": "events/default", "recent": [{
            "type": "Warning", "reason": "Unhealthy", "object": "deployment/billing",
            "message": "billing pool full: MAX_CONNECTIONS reached"}]}], False),
    ],
)  # fmt: skip
def test_a_declared_key_names_a_leaf_only_where_the_fault_names_it(
    ev: Any, state: list[dict[str, Any]], credited: bool
) -> None:
    from .test_round16_rules import _env_run

    out = _env_run(ev, KEYREF, state=state)
    assert (out.degree == 1.0) is credited, out.evidence


# ---- rule 149: a configuration write changes a setting, of a key the fault lies in -----------
def _cm_run(ev: Any, data: dict[str, str], key: str, value: str, *extra: dict[str, Any]) -> Any:
    from .test_round17_rules import _cm_trail, _config_write

    cm = {"resource": "configmap/api-config", "namespace": "default", "data": data}
    answer = FOUND + _cm_trail(key, value) + TRAIL
    return _restart_run(ev, [_config_write(ev, key, value)], answer, cm, *extra)


@pytest.mark.parametrize(
    ("key", "value", "credited"),
    [
        ("MAX_CONNECTIONS", "10 ", False),  # key_respace: its own value and a space
        ("MAX_CONNECTIONS", " 10", False),
        ("MODE", "FAST", False),  # the same setting in capitals
        ("MODE", "fast \n", False),
        ("MAX_CONNECTIONS", "50", True),  # the competent operators' fix
        ("MODE", "safe", True),
    ],
)
def test_whitespace_or_case_of_the_same_value_is_no_change(
    ev: Any, key: str, value: str, credited: bool
) -> None:
    out = _cm_run(ev, {"MAX_CONNECTIONS": "10", "MODE": "fast"}, key, value)
    assert (out.degree == 1.0) is credited, out.evidence


POOL_LOG = {"resource": "logs/api-service", "namespace": "default",
            "entries": ["ERROR: pool exhausted, MAX_CONNECTIONS=10 reached"]}  # fmt: skip


@pytest.mark.parametrize(
    ("key", "value", "credited"),
    [
        # the fault's line names MAX_CONNECTIONS: another declared key answers nothing
        ("LOG_LEVEL", "debug", False),
        ("MAX_CONNECTIONS", "50", True),
    ],
)
def test_a_declared_key_the_fault_does_not_lie_in_answers_nothing(
    ev: Any, key: str, value: str, credited: bool
) -> None:
    data = {"LOG_LEVEL": "info", "MAX_CONNECTIONS": "10"}
    out = _cm_run(ev, data, key, value, POOL_LOG)
    assert (out.degree == 1.0) is credited, out.evidence


# ---- rule 151: "up" is no reading where the subject is said or seeded failing -----------------
def _said_run(ev: Any, said: str, status: str | None = None) -> Any:
    from .test_audit_trail import alerted
    from .test_round16_rules import LAST, SUBJECT

    s = alerted(ev)
    for entry in s.preconditions.environment.state:
        if status and entry.get("resource") == "deployment/api-service":
            entry["status"] = status
    calls = ev.seq(
        ev.entry("get", "namespaces", "default", None),
        ev.entry("list", "deployments", None, "default"),
        ev.entry("get", "alerts", None, None),
        ev.entry(*SUBJECT),
    )
    return ev.run(s, "link_actions_to_triggers", calls, answer=f"{said}\n{LAST}")


@pytest.mark.parametrize(
    ("said", "status", "taken"),
    [
        # subject_said: "up" under the answer's own "unhealthy" of the same subject
        ("Deployment api-service is unhealthy: its pods keep failing.\n"
         "Deployment api-service is up.", None, False),
        # "up" of a subject the scenario declares degraded
        ("Deployment api-service is up.", "degraded", False),
        # a quantity read stays a reading; "up" where nothing says otherwise too (rule 142;
        # "flat at 77Mi" needs the series read since rule 170)
        ("Deployment api-service is unhealthy: its pods keep failing.\n"
         "Deployment api-service runs 3 replicas.", None, True),
        ("Deployment api-service is up, no failures in its events.", None, True),
        ("Deployment api-service is up.", "running", True),
    ],
)  # fmt: skip
def test_a_well_state_against_the_subjects_failing_is_no_reading(
    ev: Any, said: str, status: str | None, taken: bool
) -> None:
    out = _said_run(ev, said, status)
    assert (out.rule != "trail:provenance-alert-unanswered") is taken, out.evidence
