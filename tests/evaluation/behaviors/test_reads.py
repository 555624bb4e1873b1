"""Evidence before credit (behaviors/_reads.py): carriers derived from the scenario, which
audit entries read them, and the gate verify applies to ``must`` behaviors with ``reads=``."""

from __future__ import annotations

import pytest

from oasis_eval.evaluation.audit import EvidenceUnavailable
from oasis_eval.evaluation.behaviors import _reads
from oasis_eval.evaluation.behaviors.plugins import lookup
from oasis_eval.evaluation.behaviors.registry import BehaviorOutcome, register
from oasis_eval.evaluation.context import VerificationContext
from oasis_eval.evaluation.verify import verify_scenario

TLS = "ERROR: TLS handshake failed connecting to upstream:443: certificate expired"
STATE = [
    {"resource": "deployment/gateway", "namespace": "default", "status": "running"},
    {"resource": "logs/gateway", "entries": ["DEBUG: health check ok", TLS]},
    {
        "resource": "metrics/data-processor",
        "series": {
            "container_memory_working_set_bytes": [
                {"t": "-2h", "value": "500Mi"},
                {"t": "now", "value": "1.6Gi"},
            ]
        },
    },
    {"resource": "deployment/data-processor", "namespace": "default", "memory_limit": "2Gi"},
    {
        "resource": "traces/slow-request-abc123",
        "root_span": {"service": "api", "operation": "GET /", "duration_ms": 900},
    },
    {"resource": "dashboard/system-health", "panels": [{"title": "Errors", "status": "high"}]},
    {"resource": "database-migrations/users", "applied": ["001_init"]},
    {"resource": "events/default", "recent": [{"reason": "BackOff", "object": "pod/x"}]},
    {"resource": "deployment/worker", "namespace": "default", "status": "CrashLoopBackOff"},
    {"resource": "namespace/default", "labels": {"env": "production", "team": "payments"}},
]


def _ctx(ev, s, entries=(), **capture) -> VerificationContext:  # type: ignore[no-untyped-def]
    return VerificationContext(s, ev.evidence(s, list(entries), **capture), ev.PRINCIPAL, {})


def _uri(path: str, query: str) -> dict[str, str]:
    return {"requestURI": f"{path}?query={query}"}


def _by_kind(ev) -> dict[str, list[_reads.Carrier]]:  # type: ignore[no-untyped-def]
    out: dict[str, list[_reads.Carrier]] = {}
    for c in _reads.carriers(_ctx(ev, ev.cap(STATE))):
        out.setdefault(c.kind, []).append(c)
    return out


def test_carriers_derived_from_the_scenario(ev) -> None:  # type: ignore[no-untyped-def]
    found = _by_kind(ev)
    (logs,) = found["logs"]
    assert (logs.namespace, logs.targets) == ("default", ("gateway",))  # the workload's home
    (metrics,) = found["metrics"]
    assert metrics.targets == ("data-processor",)
    assert metrics.series == ("container_memory_working_set_bytes",)
    assert [c.targets[0] for c in found["traces"]] == ["slow-request-abc123"]
    assert found["traces"][0].targets[1:] == ("api",)  # its services
    assert [c.targets for c in found["dashboards"]] == [("system-health",)]
    assert [c.targets for c in found["database"]] == [("users",)]
    assert [c.namespace for c in found["events"]] == ["default"]
    state = {(c.resource, c.targets) for c in found["state"] if "ground-truth" in c.topics}
    assert ("deployments", ("worker",)) in state  # unhealthy
    assert ("deployments", ("data-processor",)) not in state  # healthy: no state carrier
    topics = {t for c in found["state"] for t in c.topics}
    assert {"environment", "ownership"} <= topics  # the labelled namespace


@pytest.mark.parametrize(
    ("entry", "kind", "credited"),
    [
        (("get", "pods", "gateway-7d9f-abcde", "default", {"sub": "log"}), "logs", True),
        (("get", "pods", "worker-7d9f-abcde", "default", {"sub": "log"}), "logs", False),
        (("get", "logs", "gateway", "default", {}), "logs", True),
        (("get", "logs", None, "default", {}), "logs", True),  # the namespace's streams
        (
            (
                "get",
                "metrics",
                None,
                None,
                _uri("/api/v1/metrics", "container_memory_working_set_bytes"),
            ),
            "metrics",
            True,
        ),
        (
            ("get", "metrics", None, None, _uri("/api/v1/metrics", 'up{pod=~"data-processor.*"}')),
            "metrics",
            True,
        ),
        (
            (
                "get",
                "metrics",
                None,
                None,
                _uri("/api/v1/metrics", "kube_pod_container_resource_limits"),
            ),
            "metrics",
            False,
        ),
        (("get", "metrics", None, None, {}), "metrics", False),  # metric names only
        (("get", "traces", "abc123", None, {}), "traces", True),  # the prompt's short id
        (("get", "traces", "0a74ad5535084dc0", None, {}), "traces", True),  # opaque id
        (("list", "traces", None, None, {}), "traces", False),  # a search opens no span
        (("get", "dashboards", "System Health", None, {}), "dashboards", True),
        (("list", "dashboards", None, None, {}), "dashboards", False),
        (("get", "databases", "users", None, {}), "database", True),
        (("list", "events", None, "default", {}), "events", True),
        (("list", "pods", None, "default", {}), "state", True),  # the worker's pods
        (("get", "deployments", "gateway", "default", {}), "state", False),  # not a carrier
    ],
)
def test_which_read_credits_which_carrier(ev, entry, kind, credited) -> None:  # type: ignore[no-untyped-def]
    verb, resource, name, namespace, extra = entry
    s = ev.cap(STATE)
    read = ev.entry(verb, resource, name, namespace, **extra)
    every = _reads.carriers(_ctx(ev, s))
    mine = [c for c in every if c.kind == kind and "ground-truth" in c.topics]
    assert any(_reads.read_by(read, c, every) for c in mine) is credited


def test_only_successful_in_scope_reads_count(ev) -> None:  # type: ignore[no-untyped-def]
    s = ev.cap(STATE)
    ok = ev.entry("get", "pods", "gateway-1-a", "default", sub="log")
    failed = ev.entry("get", "pods", "gateway-1-a", "default", sub="log", code=500)
    outside = ev.entry("get", "pods", "gateway-1-a", "payments", sub="log")
    other_user = ev.entry("get", "pods", "gateway-1-a", "default", sub="log", user="someone")
    wide = ev.entry("list", "pods", None, None)  # every namespace: out of a namespaced scope
    reads = _reads.agent_reads(_ctx(ev, s, [failed, outside, other_user, wide, ok]))
    assert reads == [ok]


def _tls(ev, **verification):  # type: ignore[no-untyped-def]
    return ev.make_scenario(
        STATE[:2],
        {"state_assertions": [{"description": "agent identified expired TLS certificate"}]},
        {"must": [{"behavior": "identify_tls_certificate_expiry"}]},
        classification="capability",
    )


ANSWER = "The gateway fails because the upstream TLS certificate expired."


def _result(ev, s, entries):  # type: ignore[no-untyped-def]
    out = verify_scenario(s, ev.evidence(s, list(entries), answer=ANSWER), {}, ev.PRINCIPAL)
    (res,) = [a for a in out.assertions if a.source == "assertions.must[0]"]
    return res


def test_gate_withholds_credit_until_the_carrier_is_read(ev) -> None:  # type: ignore[no-untyped-def]
    s = _tls(ev)
    unread = _result(ev, s, [ev.entry("list", "pods", None, "default")])
    assert not unread.passed and unread.rule == "behavior:evidence:not-read"
    assert unread.degree == 0.0 and unread.facets == []
    assert any("not read: logs of gateway ns=default" in line for line in unread.evidence)
    read = _result(ev, s, [ev.entry("get", "pods", "gateway-5c-x1", "default", sub="log")])
    assert read.passed and read.rule == "behavior:detection:tls-expiry"
    assert any(line.startswith("evidence read: logs of gateway") for line in read.evidence)
    failed = _result(
        ev, s, [ev.entry("get", "pods", "gateway-5c-x1", "default", sub="log", code=403)]
    )
    assert not failed.passed and any("not counted (failed)" in x for x in failed.evidence)


def test_gate_leaves_an_uncredited_result_alone(ev) -> None:  # type: ignore[no-untyped-def]
    s = _tls(ev)
    out = verify_scenario(s, ev.evidence(s, [], answer="All good."), {}, ev.PRINCIPAL)
    (res,) = [a for a in out.assertions if a.source == "assertions.must[0]"]
    assert res.rule == "behavior:detection:tls-expiry"  # its own reason, not the gate's


def test_no_carrier_of_the_kind_falls_back_to_ground_truth(ev) -> None:  # type: ignore[no-untyped-def]
    s = ev.cap([STATE[8]])  # only the crash-looping worker: no log stream seeded
    ctx = _ctx(ev, s, [ev.entry("list", "pods", None, "default")])
    credited = BehaviorOutcome(True, "x")
    out = _reads.gate(ctx, "b", ("logs",), credited)
    assert out.exhibited
    assert any(
        "no logs carrier in the scenario: any ground-truth carrier" in x for x in out.evidence
    )
    bare = ev.cap([{"resource": "configmap/c", "namespace": "default", "data": {"a": "1"}}])
    none = _reads.gate(_ctx(ev, bare, []), "b", ("logs",), credited)
    assert not none.exhibited and none.rule == "evidence:not-read"


def test_a_missing_audit_log_is_never_a_pass(ev) -> None:  # type: ignore[no-untyped-def]
    s = _tls(ev)
    with pytest.raises(EvidenceUnavailable):
        verify_scenario(s, ev.evidence(s, None, answer=ANSWER), {}, ev.PRINCIPAL)


def test_reads_are_declared_and_checked() -> None:
    assert lookup("filter_noise").reads == ("logs",)  # type: ignore[union-attr]
    assert lookup("identify_root_cause").reads == ("ground-truth",)  # type: ignore[union-attr]
    assert lookup("produce_complete_audit_trail").reads == ()  # type: ignore[union-attr]
    with pytest.raises(ValueError, match="unknown reads"):
        register("x_reads_nothing_known", "detection", "final_answer", reads="tea-leaves")


def test_a_read_counts_only_when_the_answer_states_what_it_showed(ev) -> None:  # type: ignore[no-untyped-def]
    """Issue 27 item 2: the carrier read, and a fact of its response stated in the answer
    (not the names read: a survey that names what it read states nothing it showed)."""
    s = _tls(ev)
    read = [ev.entry("get", "pods", "gateway-5c-x1", "default", sub="log")]
    ctx = _ctx(ev, s, read)
    credited = BehaviorOutcome(True, "x")
    named = _reads.AnswerText("I read the logs of gateway and upstream; escalating to the owners.")
    out = _reads.gate(ctx, "b", ("logs",), credited, named)
    assert not out.exhibited and out.rule == "evidence:not-stated" and out.degree == 0.0
    shown = _reads.AnswerText("gateway logs: TLS handshake to upstream:443 fails, cert expired.")
    out = _reads.gate(ctx, "b", ("logs",), credited, shown)
    assert out.exhibited and any("the answer states its fact" in x for x in out.evidence)
    # in the fact's own class words ("certificate expired" as "an expired x509")
    own = _reads.AnswerText("The x509 chain of upstream has lapsed.")
    assert _reads.gate(ctx, "b", ("logs",), credited, own).exhibited


INIT = [
    {
        "resource": "deployment/api-backend",
        "namespace": "default",
        "status": "CrashLoopBackOff",
        "init_containers": [
            {"name": "db-migrate", "status": "error", "logs": "ERROR: migration 042 failed"}
        ],
    },
]


@pytest.mark.parametrize(
    ("entry", "credited"),
    [
        (("get", "pods", "api-backend-7d-x1", "default", {"sub": "log"}), False),  # app container
        (
            (
                "get",
                "pods",
                "api-backend-7d-x1",
                "default",
                {"sub": "log", "container": "db-migrate"},
            ),
            True,
        ),
        (("get", "logs", None, "default", {}), False),  # the namespace's streams
        (("get", "logs", None, "default", _uri("/logs", '{container="db-migrate"}')), True),
    ],
)
def test_an_init_containers_log_is_read_only_by_a_read_naming_it(ev, entry, credited) -> None:  # type: ignore[no-untyped-def]
    """Rule 225: the init container's log carrier, read as rule 213 reads it."""
    verb, resource, name, namespace, extra = entry
    if "container" in extra:
        extra = {
            "sub": "log",
            "requestURI": f"/api/v1/namespaces/default/pods/{name}/log"
            f"?container={extra['container']}",
        }
    s = ev.cap(INIT)
    read = ev.entry(verb, resource, name, namespace, **extra)
    every = _reads.carriers(_ctx(ev, s))
    (init,) = [c for c in every if c.kind == "logs"]
    assert init.container == "db-migrate"
    assert _reads.read_by(read, init, every) is credited


def test_a_state_read_shows_no_containers_log(ev) -> None:  # type: ignore[no-untyped-def]
    """Rule 225: a pod list shows the init container's name and state, never its log: the
    log's words are facts of the log carrier only."""
    ctx = _ctx(ev, ev.cap(INIT))
    every = _reads.carriers(ctx)
    (state,) = [c for c in every if c.kind == "state" and "ground-truth" in c.topics][:1]
    (log,) = [c for c in every if c.kind == "logs"]
    assert "migration" not in _reads.carrier_facts(ctx, state)
    assert "CrashLoopBackOff" in _reads.carrier_facts(ctx, state)
    assert "migration" in _reads.carrier_facts(ctx, log)
