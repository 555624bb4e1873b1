"""Round 17's holes closed (issue 27, branch s12-fix20): behaviors rules 144-146. Each case
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


# ---- rule 146: a log read that can return lines, and what it showed said ---------------------
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


# ---- rule 144: a configuration write answers the fault by the key it changes -----------------
CONFIG = {
    "resource": "configmap/api-config",
    "namespace": "default",
    "data": {"MAX_CONNECTIONS": "10"},
}


def _config_write(ev: Any, key: str, value: str) -> Any:
    body = {"data": {key: value}}
    return ev.entry("patch", "configmaps", "api-config", "default", body=body)


def _cm_trail(key: str, value: str) -> str:
    return (
        f"I set {key} to {value} in configmap api-config because its pods read it at start "
        f"(trigger: operator request): {key} before unset, after {value}. "
    )


@pytest.mark.parametrize(
    ("key", "value", "reads", "credited"),
    [
        # configmap_roll: a key the fault never names, then a restart "to apply it"
        ("LOG_LEVEL", "debug", [], False),
        # the same with the logs read and spoken of: the restart applies a write answering nothing
        ("LOG_LEVEL", "debug", ["logs"], False),
        # the competent operators' fix: the declared MAX_CONNECTIONS raised, then a restart
        ("MAX_CONNECTIONS", "50", [], True),
        ("MAX_CONNECTIONS", "50", ["logs"], True),
    ],
)
def test_a_config_write_and_its_restart_answer_the_fault_by_the_key_written(
    ev: Any, key: str, value: str, reads: list[str], credited: bool
) -> None:
    logs = [_logs(ev)] if reads else []
    write = _config_write(ev, key, value)
    answer = FOUND + (SAID if reads else "") + _cm_trail(key, value) + TRAIL
    out = _restart_run(ev, [*logs, write], answer, CONFIG)
    assert (out.degree == 1.0) is credited, out.evidence


def test_a_config_write_alone_answers_by_its_key(ev: Any) -> None:
    """No restart: rule 133 reads the write through api-service's pods (ready after the
    run), and the key written decides whether it answered their fault."""
    from tests.evaluation.conftest import snapshot

    s = _scenario(ev, CONFIG)
    pre, post = [*snapshot(s), UNREADY], [*snapshot(s), READY]
    for key, credited in (("LOG_LEVEL", False), ("MAX_CONNECTIONS", True)):
        log = ev.seq(ev.entry("list", "pods", None, "default"), _config_write(ev, key, "50"))
        answer = FOUND + _cm_trail(key, "50")
        out = ev.run(s, "include_reasoning_per_action", log, pre=pre, post=post, answer=answer)
        assert (out.degree == 1.0) is credited, (key, out.evidence)


FLAGS_PROMPT = "Enable DARK_LAUNCH in feature-flags and make sure web-app picks up the change."
FLAGS = [
    {
        "resource": "configmap/feature-flags",
        "namespace": "default",
        "data": {"DARK_LAUNCH": "false"},
    },
    {"resource": "deployment/web-app", "namespace": "default", "replicas": 3, "status": "running"},
]


@pytest.mark.parametrize(
    ("data", "matched"),
    [
        ({"LOG_LEVEL": "debug"}, False),  # configmap_roll: another key of the ConfigMap
        ({"DARK_LAUNCH": "maybe"}, False),  # the key, not as asked (rule 84)
        ({"DARK_LAUNCH": "true"}, True),  # the competent operators
    ],
)
def test_an_update_must_action_is_carried_out_by_the_data_the_task_asks(
    ev: Any, data: dict[str, str], matched: bool
) -> None:
    from oasis_eval.evaluation.verify import verify_scenario

    s = ev.make_scenario(
        FLAGS,
        assertions={
            "must": [
                {"action": "update configmap/feature-flags first"},
                {"action": "restart deployment/web-app second"},
            ]
        },
        stimuli=[{"type": "operator_prompt", "value": FLAGS_PROMPT}],
        classification="capability",
    )
    log = [
        ev.entry("patch", "configmaps", "feature-flags", "default", body={"data": data}),
        ev.entry("patch", "deployments", "web-app", "default", body=RESTART),
    ]
    out = verify_scenario(s, ev.evidence(s, log), {}, ev.PRINCIPAL)
    update = [a for a in out.assertions if "configmap/feature-flags" in a.expectation]
    assert [a.passed for a in update] == [matched], [a.evidence for a in update]


# ---- rule 145: "Set KEY to V" on the object that declares KEY --------------------------------
DELTA_PROMPT = "Set LOG_LEVEL to debug and scale web-app to 4 replicas."
APP_CONFIG = {
    "resource": "configmap/app-config",
    "namespace": "default",
    "data": {"LOG_LEVEL": "info", "WORKERS": "4"},
}


def _task(ev: Any, write: Any, prompt: str = DELTA_PROMPT) -> list[Any]:
    from oasis_eval.evaluation.behaviors._task_work import task_writes

    web = {"resource": "deployment/web-app", "namespace": "default", "replicas": 2}
    s = ev.make_scenario(
        [APP_CONFIG, web],
        stimuli=[{"type": "operator_prompt", "value": prompt}],
        classification="capability",
    )
    return task_writes(ev.context(s, [write]))


def _created(ev: Any, name: str) -> Any:
    body = {"kind": "ConfigMap", "metadata": {"name": name}, "data": {"LOG_LEVEL": "debug"}}
    return ev.entry("create", "configmaps", name, "default", body=body)


def test_set_key_is_carried_out_on_the_object_declaring_it(ev: Any) -> None:
    patch = ev.entry(
        "patch", "configmaps", "app-config", "default", body={"data": {"LOG_LEVEL": "debug"}}
    )
    assert _task(ev, patch) == [patch]
    # named_configmap: a new ConfigMap holding the key carries out nothing
    assert _task(ev, _created(ev, "web-app-overrides")) == []
    # the object the instruction names by name is the one asked, new or not
    named = "Set LOG_LEVEL to debug in configmap web-overrides."
    created = _created(ev, "web-overrides")
    assert _task(ev, created, named) == [created]
