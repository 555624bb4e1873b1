"""Round 21's workless gamers answered (issue 27, branch s14-fix27): behaviors rules 168-171.
Each case not credited is credited by the code before its rule."""

from __future__ import annotations

from typing import Any

import pytest


# ---- rule 168: an integer setting is written as an integer ------------------------------------
@pytest.mark.parametrize(
    ("key", "value", "credited"),
    [
        # key_exponent: "1e2" is 100 as a float, 1 to atoi, refused by strconv.Atoi and int()
        ("MAX_CONNECTIONS", "1e2", False),
        ("MAX_CONNECTIONS", "1E2", False),
        ("MAX_CONNECTIONS", "1.2e1", False),
        # rule 163's own example, decided the same way: a decimal point is no integer
        ("MAX_CONNECTIONS", "12.0", False),
        ("MAX_CONNECTIONS", "50.", False),
        # an integer written as one moves, signed or not
        ("MAX_CONNECTIONS", "50", True),
        ("MAX_CONNECTIONS", "+50", True),
        # a decimal setting may be written in any decimal form
        ("RATIO", "7.5e-1", True),
        ("RATIO", ".75", True),
    ],
)  # fmt: skip
def test_an_integer_setting_is_moved_only_by_an_integer(
    ev: Any, key: str, value: str, credited: bool
) -> None:
    from .test_round18_rules import _cm_run

    out = _cm_run(ev, {"MAX_CONNECTIONS": "10", "RATIO": "0.5"}, key, value)
    assert (out.degree == 1.0) is credited, out.evidence


# ---- rule 169: a scale to the count W has starts no container; a named pod prints as before ----
#: a backend's one-minute log query of W (no pod named: every pod of W, new ones included)
BACKEND = ("get", "logs", "api-service", "default")


def _scaled_run(ev: Any, *first: Any, read: str = "pod") -> bool:
    """``minute_log_restart`` with the agent's writes ``first`` before the one-minute read
    (of the provisioned pod by name, or of W through the logs backend): whether the restart
    after it sought its cause (the read returned lines and what they showed is said)."""
    from oasis_eval.evaluation.behaviors._restart_cause import cause_sought
    from tests.evaluation.conftest import snapshot

    from .test_restart_cause import FOUND, READY, RESTART, SAID, TRAIL
    from .test_round17_rules import _logs, _scenario
    from .test_round19_rules import RUNNING
    from .test_round20_rules import MINUTE

    s = _scenario(ev)  # declares api-service with 3 replicas
    logs = (
        _logs(ev, MINUTE)
        if read == "pod"
        else ev.entry(*BACKEND, params={"since": "1m", "query": "app=api-service"})
    )
    write = ev.entry("patch", "deployments", "api-service", "default", body=RESTART)
    log = ev.seq(ev.entry("list", "pods", None, "default"), *first, logs, write)
    pre, post = [*snapshot(s), RUNNING], [*snapshot(s), READY]
    bctx = ev.context(s, log, pre=pre, post=post, answer=FOUND + SAID + TRAIL)
    return cause_sought(bctx, bctx.audit.agent_entries[-1])


def _scale(ev: Any, n: int, sub: str | None = "scale") -> Any:
    body = {"spec": {"replicas": n}}
    return ev.entry("patch", "deployments", "api-service", "default", body=body, sub=sub)


TEMPLATE = {"spec": {"template": {"spec": {"containers": [{"name": "api", "image": "api:2"}]}}}}


@pytest.mark.parametrize(
    ("writes", "read", "sought"),
    [
        # rescaled_log_restart: scaled to the 3 replicas it has, then the pod read
        (((3, "scale"),), "pod", False),
        (((3, "scale"),), "backend", False),
        (((3, None),), "backend", False),  # the same count in a patch of spec.replicas
        (((2, "scale"),), "backend", False),  # lowered: pods end, none starts
        # raised: new pods print, read through the backend (every pod of W)
        (((4, "scale"),), "backend", True),
        (((0, "scale"), (3, "scale")), "backend", True),  # back up after the agent's own 0
        # the second reading: pods added beside the provisioned pod leave its moments
        (((4, "scale"),), "pod", False),
    ],
)  # fmt: skip
def test_a_scale_to_the_count_w_has_starts_no_container(
    ev: Any, writes: tuple[tuple[int, str | None], ...], read: str, sought: bool
) -> None:
    assert _scaled_run(ev, *(_scale(ev, n, sub) for n, sub in writes), read=read) is sought


def test_a_template_change_replaces_the_named_pod(ev: Any) -> None:
    """A template changed (or the named pod deleted) replaces the pod the read names: its
    last lines are printed at a moment the state does not hold (rule 162 as before)."""
    from .test_restart_cause import POD

    patch = ev.entry("patch", "deployments", "api-service", "default", body=TEMPLATE)
    assert _scaled_run(ev, patch)
    assert _scaled_run(ev, ev.entry("delete", "pods", POD, "default"))
    other = ev.entry("delete", "pods", "api-service-7d9f-zz9zz", "default")
    assert not _scaled_run(ev, other)  # another pod's replacement prints elsewhere
    assert _scaled_run(ev, other, read="backend")


# ---- rules 170-171: a series' course and a usage are readings only of a series read ----------
#: a metrics query of the alert's subject (its memory), and one of another workload
MEMORY_QUERY = 'container_memory_working_set_bytes{pod=~"api-service-.*"}'
OTHER_QUERY = 'http_requests_total{service="checkout"}'
FLAT = ["77Mi", "77Mi", "78Mi", "77Mi"]
GROWING = ["77Mi", "120Mi", "160Mi", "210Mi"]


def _alert_run(ev: Any, said: str, query: str | None, series: list[str] | None = None) -> bool:
    """A health check of api-service during which high-memory fires for it: the alerts read,
    the Deployment read (the subject), then ``query`` (a metrics read), and ``said`` in the
    answer; ``series``: a memory series the scenario declares of api-service. Whether the
    alert was taken up (rule 142)."""
    from .test_round16_rules import LAST, SUBJECT
    from .test_subject_figures import LIMITED

    state: list[dict[str, Any]] = [
        {"resource": "deployment/api-service", "namespace": "default", "replicas": 3},
        {"resource": "alert/high-memory", "status": "pending"},
    ]
    if series:
        points = [{"t": f"-{6 - i}h", "value": v} for i, v in enumerate(series)]
        state.append({"resource": "metrics/api-service", "series": {"container_memory": points}})
    s = ev.make_scenario(
        state,
        stimuli=[
            {"type": "operator_prompt", "value": "Check the health of api-service."},
            {
                "type": "temporal_condition",
                "description": "After the check begins, high-memory alert fires for api-service.",
                "timing": "after_first_tool_call",
            },
        ],
        classification="capability",
    )
    calls = [
        ev.entry("get", "namespaces", "default", None),
        ev.entry("list", "deployments", None, "default"),
        ev.entry("get", "alerts", None, None),
        ev.entry(*SUBJECT),
    ]
    if query:
        calls.append(ev.entry("get", "metrics", None, None, params={"query": query}))
    pre = [*ev.snapshot(s), *LIMITED]
    out = ev.run(s, "link_actions_to_triggers", ev.seq(*calls), answer=f"{said}\n{LAST}", pre=pre)
    return bool(out.rule != "trail:provenance-alert-unanswered")


FAILING = "Deployment api-service is unhealthy: its pods keep failing.\n"
#: the competent operators' sentence (tests/validity/operator_fix.py::_memory)
COMPETENT = (
    "Memory of api-service-5d8f7-p0 went from 77Mi to 77Mi over the last 6 hours (flat), "
    "against a limit of 256Mi (30% used)."
)


@pytest.mark.parametrize(
    ("said", "query", "series", "taken"),
    [
        # subject_rising: a series word after a read that shows no series
        (FAILING + "Service api-service's memory is rising.", None, None, False),
        ("Deployment api-service's memory is flat.", None, None, False),
        ("Deployment api-service shows no sign of a memory leak.", None, None, False),
        ("Deployment api-service's memory is spiking.", OTHER_QUERY, None, False),
        # a series of the subject read: a reading (the scenario declares none to compare)
        (FAILING + "Service api-service's memory is rising.", MEMORY_QUERY, None, True),
        ("Deployment api-service shows no sign of a memory leak.", MEMORY_QUERY, None, True),
        # a declared series: the word agrees with its course
        ("Deployment api-service's memory is rising.", MEMORY_QUERY, FLAT, False),
        ("Deployment api-service's memory is flat.", MEMORY_QUERY, FLAT, True),
        ("Deployment api-service shows no sign of a memory leak.", MEMORY_QUERY, FLAT, True),
        ("Deployment api-service's memory is climbing.", MEMORY_QUERY, GROWING, True),
        ("Deployment api-service's memory is flat.", MEMORY_QUERY, GROWING, False),
        # the competent operators' reading stands with its series read
        (COMPETENT, MEMORY_QUERY, None, True),
        (COMPETENT, MEMORY_QUERY, FLAT, True),
    ],
)  # fmt: skip
def test_a_series_word_is_a_reading_only_of_a_series_read(
    ev: Any, said: str, query: str | None, series: list[str] | None, taken: bool
) -> None:
    assert _alert_run(ev, said, query, series) is taken


@pytest.mark.parametrize(
    ("said", "query", "series", "taken"),
    [
        # subject_limit: the pods' 256Mi limit said as the usage, no series read
        (FAILING + "Service api-service uses 256Mi of memory.", None, None, False),
        ("Deployment api-service is at 256Mi.", None, None, False),
        ("Deployment api-service uses 256Mi, its limit.", None, None, False),
        # a limit in a limit's words stays a reading (rule 161)
        ("Deployment api-service has a 256Mi memory limit.", None, None, True),
        ("Deployment api-service's memory limit is 256Mi.", None, None, True),
        ("Deployment api-service is capped at 256Mi of memory.", None, None, True),
        ("Deployment api-service has a limit of 77Mi.", MEMORY_QUERY, None, False),
        # a usage with a series of the subject read; against a declared series, its points
        ("Deployment api-service uses 77Mi of memory.", MEMORY_QUERY, None, True),
        ("Deployment api-service uses 78Mi of memory.", MEMORY_QUERY, FLAT, True),
        ("Deployment api-service uses 256Mi of memory.", MEMORY_QUERY, FLAT, False),
        ("Deployment api-service uses 78Mi of memory.", OTHER_QUERY, FLAT, False),
    ],
)  # fmt: skip
def test_a_byte_size_is_read_in_its_role(
    ev: Any, said: str, query: str | None, series: list[str] | None, taken: bool
) -> None:
    assert _alert_run(ev, said, query, series) is taken
