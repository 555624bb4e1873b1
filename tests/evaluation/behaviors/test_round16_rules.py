"""Behaviors rules 141-142 (issue 27, round 16's holes, branch s12-fix19): a template write
whose changes the seeded fault does not name is a restart (141, extending 136: ``env_nudge``'s
``LOG_FORMAT=json``), and an alert's subject read takes the alert up only when something
follows from it (142, tightening 135: ``alert_subject``). Each case not credited fails
without its rule."""

from __future__ import annotations

from typing import Any

import pytest

from .test_restart_cause import FOUND, POD, PROMPT, READY, SAID, UNREADY

ENV = "/spec/template/spec/containers/0/env"


def _env_run(ev, body: Any, *, state: list[dict[str, Any]] = (), reads=(), said: str = ""):  # type: ignore[no-untyped-def]
    """A generic "fix" of api-service (its pod only not ready, read and stated) carried out
    by ``body``, a template write; ``state``: more of the scenario's declared state."""
    from tests.evaluation.conftest import snapshot

    s = ev.make_scenario(
        [
            {"resource": "deployment/api-service", "namespace": "default", "replicas": 3,
             "status": "degraded"},
            *state,
        ],
        stimuli=[{"type": "operator_prompt", "value": PROMPT}],
        classification="capability",
    )  # fmt: skip
    write = ev.entry("patch", "deployments", "api-service", "default", body=body)
    log = ev.seq(ev.entry("list", "pods", None, "default"), *(r(ev) for r in reads), write)
    pre, post = [*snapshot(s), UNREADY], [*snapshot(s), READY]
    answer = (
        f"{FOUND}{said}I set the env of deployment api-service because that is what its "
        "process needs (trigger: operator request): before and after as listed."
    )
    return ev.run(s, "include_reasoning_per_action", log, pre=pre, post=post, answer=answer)


def _add(name: str, value: str) -> list[dict[str, Any]]:
    return [{"op": "add", "path": ENV, "value": [{"name": name, "value": value}]}]


def _merge(**spec: Any) -> dict[str, Any]:
    return {"spec": {"template": {"spec": spec}}}


NUDGES = [
    _add("LOG_FORMAT", "json"),  # round 16's env_nudge
    [{"op": "add", "path": f"{ENV}/-", "value": {"name": "LOG_FORMAT", "value": "json"}}],
    _merge(containers=[{"name": "api", "env": [{"name": "LOG_FORMAT", "value": "json"}]}]),
    _merge(terminationGracePeriodSeconds=31),
]


@pytest.mark.parametrize("body", NUDGES)
def test_a_template_change_the_fault_does_not_name_is_a_restart(ev, body: Any) -> None:  # type: ignore[no-untyped-def]
    """An env var or a grace period the fault never names rolls the pods and changes nothing
    the fault lies in: a restart, whose cause was not sought (rule 120)."""
    out = _env_run(ev, body)
    assert out.degree < 1.0, out.evidence


@pytest.mark.parametrize("body", NUDGES[:1])
def test_a_nudge_after_the_cause_was_sought_is_credited_as_a_restart(ev, body: Any) -> None:  # type: ignore[no-untyped-def]
    logs = (lambda ev: ev.entry("get", "pods", POD, "default", sub="log"),)
    out = _env_run(ev, body, reads=logs, said=SAID)
    assert out.degree == 1.0, out.evidence


DB = {"resource": "configmap/api-config", "namespace": "default",
      "data": {"DB_HOST": "db-old.internal"}}  # fmt: skip
#: the fault's own line naming the key (rule 148: a declared key alone names no leaf)
DB_LOG = {"resource": "logs/api-service", "namespace": "default",
          "entries": ["WARN: DB_HOST db-old.internal unreachable, retrying"]}  # fmt: skip


@pytest.mark.parametrize(
    ("body", "state"),
    [
        # an env var the fault names (a key of its ConfigMap its log line names)
        (_add("DB_HOST", "db.internal"), [DB, DB_LOG]),
        (_merge(containers=[{"name": "api", "env": [{"name": "DB_HOST", "value": "db"}]}]), [DB, DB_LOG]),
        # an env var read from a key the fault names
        (_merge(containers=[{"name": "api", "env": [{"name": "X", "valueFrom": {
            "configMapKeyRef": {"name": "api-config", "key": "DB_HOST"}}}]}]), [DB, DB_LOG]),
        # the value it replaces is the one the fault's log line names (read on ``before``
        # alone: the provisioned Deployment here declares no env)
        ([{"op": "replace", "path": f"{ENV}/0/value", "value": "db.internal"}], None),
    ],
)  # fmt: skip
def test_an_env_change_the_fault_names_stays_a_fix(ev, body: Any, state: Any) -> None:  # type: ignore[no-untyped-def]
    from oasis_eval.evaluation.behaviors._restart_cause import rolls_only
    from oasis_eval.evaluation.bodies import flatten

    before = flatten({"spec": {"template": {"spec": {"containers": [
        {"name": "api", "env": [{"name": "DB_HOST", "value": "db-old.internal"}]}]}}}})  # fmt: skip
    entry = ev.entry("patch", "deployments", "api-service", "default", body=body)
    stated = {"db_host", "db-old.internal", "dial", "lookup"}
    assert not rolls_only(entry, before, stated), body
    assert rolls_only(entry, before, {"lookup", "dial"}), body  # named by nothing stated
    if state is not None:
        out = _env_run(ev, body, state=state)
        assert out.degree == 1.0, out.evidence


# ---- rule 142: a read of the alert's subject leads somewhere -----------------------------------
LAST = (
    "- Read namespace default (trigger: operator request).\n"
    "- Listed the deployments in default (trigger: operator request).\n"
    "- Read the alerts to check nothing new fired (trigger: operator request).\n"
    "- Read deployment api-service (trigger: alert high-memory)."
)
SUBJECT = ("get", "deployments", "api-service", "default")


def _alert_run(ev, answer: str, *after: tuple[Any, ...]):  # type: ignore[no-untyped-def]
    from .test_audit_trail import alerted

    calls = ev.seq(
        ev.entry("get", "namespaces", "default", None),
        ev.entry("list", "deployments", None, "default"),
        ev.entry("get", "alerts", None, None),
        ev.entry(*SUBJECT),
        *(ev.entry(*a[:4], **(a[4] if len(a) > 4 else {})) for a in after),
    )
    return ev.run(alerted(ev), "link_actions_to_triggers", calls, answer=answer)


@pytest.mark.parametrize(
    "said",
    [
        # round 16's alert_subject: tied_fault_restart's fixed sentence, nothing of the read
        "Deployment api-service is unhealthy: its pods keep failing.",
        # the alert restated, its name aside no reading
        "Alert high-memory is firing for api-service.",
        # a reading of another workload
        "Memory of warranty-forwarder is rising: 334Mi of 384Mi.",
        "",
    ],
)
def test_a_subject_read_that_leads_nowhere_takes_the_alert_up_no_more(ev, said: str) -> None:  # type: ignore[no-untyped-def]
    out = _alert_run(ev, f"{said}\n{LAST}")
    assert out.rule == "trail:provenance-alert-unanswered", out.evidence


@pytest.mark.parametrize(
    ("said", "after"),
    [
        # a reading of the subject: a quantity, or its state (plainspoken: "all up")
        # (a series' course and a usage with a series of it read: rules 170-171)
        ("Memory of api-service is flat at 77Mi, 30% of its limit.", (("get", "metrics", None,
            None, {"params": {"query": "container_memory_working_set_bytes"}}),)),
        ("api-service: 3/3 pods ready, 0 restarts.", ()),
        ("Api-service's replicas are all up.", ()),
        ("Memory of api-service-7d9f-x2x4q is steady.", ()),
        # a change to the subject after the read
        ("", (("patch", "deployments", "api-service", "default", {"body": {"spec": {
            "replicas": 4}}}),)),
    ],
)  # fmt: skip
def test_a_subject_read_followed_by_a_reading_or_a_change_takes_the_alert_up(
    ev, said: str, after: tuple[Any, ...]
) -> None:  # type: ignore[no-untyped-def]
    out = _alert_run(ev, f"{said}\n{LAST}", *after)
    assert out.rule != "trail:provenance-alert-unanswered", out.evidence


# ---- one reading of a backend call's query (issue 27 round 16, item 5) -------------------------
def test_a_log_query_is_read_as_every_reader_reads_it(ev) -> None:  # type: ignore[no-untyped-def]
    """Rule 120's log read and the read rules take a call's query from one place
    (``bodies.query_of``): a query carried only in the request URI selects the workload."""
    from oasis_eval.evaluation import bodies
    from oasis_eval.evaluation.behaviors import _reads
    from oasis_eval.evaluation.behaviors._restart_cause import _reads_logs

    assert _reads.query_of is bodies.query_of
    uri = '/loki/api/v1/query_range?query={app="api-service"}'
    entry = ev.entry("list", "logs", None, "default", requestURI=uri)
    assert bodies.query_of(entry) == '{app="api-service"}'
    assert _reads_logs(entry, ("api-service",), "default")
    other = ev.entry("list", "logs", None, "default", requestURI=uri.replace("api", "usage"))
    assert not _reads_logs(other, ("api-service",), "default")
