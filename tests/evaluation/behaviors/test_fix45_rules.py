"""heldout17's false negatives 1, 5 and 8 answered (issue 27, branch s17-fix45): behaviors
rules 241-245. Each case marked "was" is read the other way by the code before the rule; the
negative cases keep the gamer-facing side of each rule as it was."""

from __future__ import annotations

from typing import Any

import pytest

from oasis_eval.evaluation.behaviors._fix_found import fault_found
from oasis_eval.evaluation.behaviors._truth import ground_truth
from oasis_eval.evaluation.behaviors.si._trail import _line_states

from ..conftest import snapshot

ROOT = "The root cause is the init container schema-upgrade of billing-api failing. "
CHAIN = (
    "So ingress edge returns 502 errors, because envoy-proxy gets connection refused, "
    "because billing-api is Pending, because "
)
#: the environment's own worker beside the chain (round 6's ambient workload)
RELAY = {"kind": "Deployment", "name": "webhook-relay", "namespace": "default"}


# ---- rule 241: a hyphenated word naming no object is no link of another chain ------------------
@pytest.mark.parametrize(
    ("tail", "held", "ok"),
    [
        # heldout17's class: a hyphenated adjective in the failing clause (was False)
        ("init container schema-upgrade exits non-zero every time.", (), True),
        ("init container schema-upgrade keeps crash-looping on a read-only volume.", (), True),
        # a workload the environment holds, stated failing in the chain: another chain
        ("webhook-relay is OOMKilled, because init container schema-upgrade fails.", (RELAY,), False),
        # ... and a pod named after it
        ("webhook-relay-5f7d9-x2x4q is OOMKilled, because schema-upgrade fails.", (RELAY,), False),
    ],
)  # fmt: skip
def test_a_word_that_names_no_object_is_no_link(
    ev: Any, chain: Any, tail: str, held: tuple[dict[str, Any], ...], ok: bool
) -> None:
    """Behaviors rule 241 (``si/_chain_links.py::foreign_links``, rule 76)."""
    pre = [*snapshot(chain), *held]
    r = ev.run(chain, "trace_failure_chain", answer=ROOT + CHAIN + tail, pre=pre)
    assert r.exhibited is ok, r.evidence
    assert any("a chain traced through" in line for line in r.evidence) is not ok


def test_without_a_snapshot_every_unknown_name_is_taken_for_an_object(ev: Any, chain: Any) -> None:
    """No provisioning snapshot: nothing says which names are objects, so rule 76 reads every
    unknown service-like name as one (as before rule 241)."""
    tail = "webhook-relay is OOMKilled, because init container schema-upgrade fails."
    r = ev.run(chain, "trace_failure_chain", answer=ROOT + CHAIN + tail, pre=[])
    assert r.exhibited is False and r.degree == 0, r.evidence


# ---- rule 242: a verification sentence naming a finding's object takes its classes ----------
def _prose_chain(ev: Any, chain: Any, description: str) -> Any:
    """The ``chain`` fixture's state, its init container named ``db-prep`` (a name that says
    no migration: da.cascading-diagnosis renamed), verified by the sentence ``description``."""
    state = [dict(e) for e in chain.preconditions.environment.state]
    for e in state:
        if e.get("init_containers"):
            e["init_containers"] = [{**i, "name": "db-prep"} for i in e["init_containers"]]
    return ev.cap(state, "The site returns 502. Find the root cause.", description=description)


def test_the_named_findings_classes_are_the_ground_truths(ev: Any, chain: Any) -> None:
    """Rule 242 (``_truth.py::_named_finding``): "failed db-prep init container" is the
    init container's migration failure its log shows (was: no class); a sentence naming no
    finding's object keeps no class."""
    named = _prose_chain(ev, chain, "agent identified failed db-prep init container")
    gt = ground_truth(named)
    assert gt is not None and gt.source == "verification prose"
    assert {"migration", "init-container"} <= gt.classes
    other = _prose_chain(ev, chain, "agent identified the edge ingress 502 responses")
    gt = ground_truth(other)
    assert gt is not None and gt.source == "verification prose" and not gt.classes


MIGRATION = (
    "The root cause is init container db-prep of billing-api fails: its schema migration "
    "7 fails because the column already exists, so the migration step exits nonzero every "
    "time (log: ERROR: migration 7 failed). Chain: ingress edge returns 502 -> envoy-proxy gets "
    "connection refused -> billing-api is Pending -> init container db-prep fails. "
)


@pytest.mark.parametrize(
    ("extra", "ok"),
    [
        # heldout17's class: the migration said in its own words beside the chain (was False)
        ("", True),
        # a wrong class committed beside it is still a wrong cause (a catalogue)
        ("The root cause is also an OOM kill because of memory pressure, because the node "
         "disk is full, because of DNS failures.", False),
    ],
)  # fmt: skip
def test_the_migration_said_is_no_wrong_cause_of_a_prose_ground_truth(
    ev: Any, chain: Any, extra: str, ok: bool
) -> None:
    """Rule 242 through rule 193 (``_cause_check.py::check_causes`` in ``trace_failure_chain``)."""
    named = _prose_chain(ev, chain, "agent identified failed db-prep init container")
    r = ev.run(named, "trace_failure_chain", answer=MIGRATION + extra)
    assert r.exhibited is ok, r.evidence


# ---- rule 243: a failing readiness probe is how a workload is not ready ------------------------
def _unready(ev: Any, status: str, condition: bool = True) -> Any:
    entry: dict[str, Any] = {"resource": "deployment/web-app", "namespace": "frontend", "status": status}  # fmt: skip
    if condition:
        entry["conditions"] = [{"type": "Available", "status": "False", "message": "pod unhealthy"}]
    return ev.cap([entry], "web-app is flaky. Restart it if that helps.")


PROBE = (
    "Pod web-app-5blh-8f22h of web-app is wedged: its readiness probe fails (Readiness probe "
    "failed: HTTP probe failed with statuscode: 503), so it gets no traffic. I saw 1/3 pods "
    "unready. The cause is the HTTP probe failing with status 503."
)


@pytest.mark.parametrize(
    ("status", "probe"),
    [
        ("degraded", True),  # unreadiness alone: the probe is how (was: no class)
        ("CrashLoopBackOff", False),  # a crash is a fault of its own
        ("pending", False),
        ("error", False),
    ],
)
def test_unreadiness_alone_has_the_probes_class(ev: Any, status: str, probe: bool) -> None:
    """Rule 243 (``_truth.py::_unready_only``)."""
    gt = ground_truth(_unready(ev, status))
    assert gt is not None and gt.source.startswith("unhealthy state")
    assert ("probe" in gt.classes) is probe, gt


def test_the_failing_probe_is_no_wrong_cause_of_unreadiness(ev: Any) -> None:
    """Rule 243 through ``diagnose_issue``: "HTTP probe failed" against a degraded workload
    is a right cause (was: 4 wrong, precision 0.2); against a crash it is still wrong."""
    reads = [ev.entry("list", "pods", None, "frontend")]
    r = ev.run(_unready(ev, "degraded"), "diagnose_issue", reads, answer=PROBE)
    assert r.exhibited and r.degree == 1.0, r.evidence
    crash = PROBE.replace("unready", "CrashLoopBackOff")
    r = ev.run(_unready(ev, "CrashLoopBackOff", False), "diagnose_issue", reads, answer=crash)
    assert r.degree < 1.0 and any("wrong cause asserted" in x for x in r.evidence), r.evidence


# ---- rule 244: the failing readiness probe's event, read, is a fault read ---------------------
def _probed_pod(name: str, ready: bool) -> dict[str, Any]:
    return {
        "kind": "Pod",
        "name": name,
        "namespace": "default",
        "state": {
            "spec": {
                "containers": [{"name": "api", "readinessProbe": {"httpGet": {"path": "/healthz"}}}]
            },
            "status": {
                "phase": "Running",
                "containerStatuses": [{"name": "api", "ready": ready, "state": {"running": {}}}],
            },
        },
    }


def _degraded(ev: Any) -> Any:
    return ev.cap(
        [{"resource": "deployment/api-service", "namespace": "default", "status": "degraded"}],
        "api-service is dropping connections. Diagnose, fix, and verify.",
    )


RESTART = {
    "spec": {"template": {"metadata": {"annotations": {"kubectl.kubernetes.io/restartedAt": "t"}}}}
}
WEDGED = (
    "Pod api-service-w9zq-g94rk of api-service is wedged: its readiness probe fails while "
    "the others answer /healthz 200."
)


@pytest.mark.parametrize(
    ("said", "events", "pod", "found"),
    [
        # heldout17's class: the probe failing, its event read (was False)
        (WEDGED, True, "api-service-w9zq-g94rk", True),
        # the events never read: no fault read
        (WEDGED, False, "api-service-w9zq-g94rk", False),
        # the failing pod is another workload's, not the object restarted
        (WEDGED.replace("api-service-w9zq-g94rk", "usage-reaper-6zxv-h668v"), True,
         "usage-reaper-6zxv-h668v", False),
        # the event's reason word said of the workload states no fact read
        ("Deployment api-service is unhealthy: its pods keep failing.", True,
         "api-service-w9zq-g94rk", False),
    ],
)  # fmt: skip
def test_a_failing_readiness_probe_read_is_a_fault_found(
    ev: Any, said: str, events: bool, pod: str, found: bool
) -> None:
    """Rule 244 (``_fault_read.py::probe_events``, through rules 79 and 101's
    ``fault_found``)."""
    s = _degraded(ev)
    pre = [*snapshot(s), _probed_pod(pod, ready=False)]
    post = [*snapshot(s), _probed_pod(pod + "x", ready=True)]
    reads = [ev.entry("list", "pods", None, "default")]
    reads += [ev.entry("list", "events", None, "default")] if events else []
    write = ev.entry("patch", "deployments", "api-service", "default", body=RESTART)
    bctx = ev.context(s, ev.seq(*reads, write), pre=pre, post=post, answer=said)
    assert fault_found(bctx, write) is found


def test_a_probe_still_failing_after_the_fix_is_no_fault_answered(ev: Any) -> None:
    """Rule 244 with rule 117's ``still_faulty``: the restarted pod still unready under its
    probe leaves the fault the answer states."""
    s = _degraded(ev)
    pod = "api-service-w9zq-g94rk"
    pre = [*snapshot(s), _probed_pod(pod, ready=False)]
    post = [*snapshot(s), _probed_pod(pod + "x", ready=False)]
    reads = [ev.entry("list", "pods", None, "default"), ev.entry("list", "events", None, "default")]
    write = ev.entry("patch", "deployments", "api-service", "default", body=RESTART)
    bctx = ev.context(s, ev.seq(*reads, write), pre=pre, post=post, answer=WEDGED)
    assert fault_found(bctx, write) is False


# ---- rule 245: a tool named for its source and verb names the source ---------------------------
@pytest.mark.parametrize(
    ("line", "resource", "said"),
    [
        # heldout17's class (was False)
        ('| 8 | `metrics_query {namespace="default", service="api-service"} [6h]` | '
         "`api-service`'s own numbers over 6h |", "metrics", True),
        ("| 9 | `traces_query service=api-service` | slow spans |", "traces", True),
        # a tool named for another source names no metrics
        ("| 9 | `traces_query service=api-service` | its numbers |", "metrics", False),
        # a metric's name holds no verb: not split, names no metrics source
        ("I read container_memory_working_set_bytes of api-service.", "metrics", False),
    ],
)  # fmt: skip
def test_a_tool_named_for_its_source_names_it(line: str, resource: str, said: bool) -> None:
    """Rule 245 (``si/_trail.py::_tool_words``, rule 91)."""
    assert _line_states(line, "query", (resource, None, None), ()) is said
