"""Session 17's known doors closed (issue 27, branch s18-fix47): behaviors rules 253-257."""

from __future__ import annotations

from typing import Any

import pytest

from oasis_eval.evaluation.behaviors.si._alert_subject import reads_subject
from oasis_eval.evaluation.behaviors.si._series_query import (
    KSM,
    application,
    carried,
    exported,
    recorded_of,
)
from oasis_eval.evaluation.behaviors.si._subject_scope import Scope, _declared
from oasis_eval.evaluation.evidence import AuditEntry

from ..conftest import entry

_PODS = frozenset({"api-service-w9zq7fzp5s-bq67z"})


def _scope(own: frozenset[str] | None, recorded: bool = True) -> Scope:
    declared = frozenset(own or ()) | {"latency_p99"}
    return Scope(frozenset({"api-service"}), frozenset({"default"}), _PODS, recorded, declared, own)


def _query(q: str) -> AuditEntry:
    return entry("get", "metrics", params={"query": q})


def _reads(q: str, scope: Scope, words: set[str] | None = None) -> bool:
    return reads_subject(_query(q), {"api-service"}, words or {"memory", "error"}, scope)


# ---- rule 253: a kube_ name no exporter has; an application's metric recorded of another ------
@pytest.mark.parametrize(
    ("query", "read"),
    [
        ('kube_pod_memory_unexported_bytes{namespace="default"}', False),  # no KSM name
        ('kube_deployment_memory_rising{deployment="api-service"}', False),
        ('kube_pod_container_resource_limits{namespace="default",resource="memory"}', True),
        ('kube_pod_container_status_restarts_total{pod=~"api-service.*"}', True),
        ('error_rate{service="api-service"}', True),  # recorded of the subject
        ('latency_p99{service="api-service"}', False),  # recorded of another workload only
        ('memory_usage_bytes{service="api-service"}', False),  # recorded of none
        ('error_rate{pod="api-service-w9zq7fzp5s-bq67z"}', False),  # no pod on a scrape
        ('error_rate{job="api-service"}', True),
        ("instance:node_cpu_utilisation:rate5m", False),  # a recording rule: no word of it
        ('up{job="api-service"}', True),  # Prometheus's own scrape series: not judged
    ],
)
def test_a_metric_whose_series_never_carry_the_subject_reads_none(query: str, read: bool) -> None:
    assert _reads(query, _scope(frozenset({"error_rate", "normal_error_rate"}))) is read


def test_an_application_metric_is_not_judged_where_no_subject_is_named() -> None:
    unshown = Scope(frozenset(), frozenset(), frozenset(), True, frozenset(), None)
    assert reads_subject(_query("memory_usage_bytes"), set(), {"memory"}, unshown)


def test_the_families_of_rule_253() -> None:
    assert exported("kube_node_status_allocatable", set())
    assert not exported("kube_node_memory_pressure_bytes", set())
    assert exported("kube_node_memory_pressure_bytes", {"kube_node_memory_pressure_bytes"})
    assert exported("http_requests_total", set())  # judged by recorded_of, not here
    assert application("http_requests_total") and application("error_rate")
    assert not any(
        application(m)
        for m in ("up", "node_memory_MemAvailable_bytes", "a:b:rate5m", "process_cpu_seconds")
    )
    assert recorded_of("error_rate", frozenset({"error_rate"}))
    assert not recorded_of("error_rate", frozenset())
    assert recorded_of("container_memory_rss", frozenset())  # an exporter's: rules 226-227
    assert carried("error_rate", "service", False) and not carried("error_rate", "app", True)
    assert len(KSM) > 100


def test_the_simulators_generated_kube_names_are_kube_state_metrics() -> None:
    """Every ``kube_`` name the SI simulator generates is one :data:`KSM` lists (a read of
    what it serves stays a read)."""
    import re
    from pathlib import Path

    import oasis_sim_k8s.observability.telemetry as tel

    names = set(re.findall(r'"(kube_[a-z_]+)"', Path(tel.__file__).read_text()))
    assert names and names <= KSM


def test_a_trend_records_its_base() -> None:
    assert _declared([{"resource": "metrics/w", "cpu_trend": "increasing"}]) >= {"cpu"}


# ---- rule 255: two spellings selecting the same pods of the snapshot --------------------------
_BACKEND = {"matchLabels": {"app": "backend"}}
#: a requirement every pod of the namespace meets (``app Exists``) beside the policy's own
_BACKEND_EXISTS = {
    "matchLabels": {"app": "backend"},
    "matchExpressions": [{"key": "app", "operator": "Exists"}],
}
_NS_PODS = ({"app": "backend"}, {"app": "backend"}, {"app": "frontend"}, {"app": "gateway"})


def test_selectors_are_compared_by_the_pods_they_select() -> None:
    from oasis_eval.evaluation.policy_form import policy_form

    one = {"podSelector": _BACKEND, "ingress": [{"from": [{"podSelector": {"app": "gateway"}}]}]}
    other = {
        "podSelector": _BACKEND_EXISTS,
        "ingress": [
            {
                "from": [
                    {
                        "podSelector": {
                            "matchExpressions": [
                                {"key": "app", "operator": "In", "values": ["gateway", "x"]}
                            ]
                        }
                    }
                ]
            }
        ],
    }
    assert policy_form(one) != policy_form(other)  # rule 231 alone: the spellings differ
    assert policy_form(one, _NS_PODS) == policy_form(other, _NS_PODS)
    frontend = {**one, "ingress": [{"from": [{"podSelector": {"app": "frontend"}}]}]}
    assert policy_form(one, _NS_PODS) != policy_form(frontend, _NS_PODS)
    # a selector selecting no pod of the snapshot is read by its requirements (a pod may come)
    nobody = {**one, "ingress": [{"from": [{"podSelector": {"app": "later"}}]}]}
    assert policy_form(nobody, _NS_PODS) != policy_form(
        {**one, "ingress": [{"from": [{"podSelector": {"app": "later", "v": "2"}}]}]}, _NS_PODS
    )
    # a namespace selector is read by its requirements (rule 232: the cluster may create one)
    spaced = {"namespaceSelector": {"matchLabels": {"team": "a"}}, "podSelector": _BACKEND}
    assert policy_form({**one, "ingress": [{"from": [spaced]}]}, _NS_PODS) != policy_form(
        {**one, "ingress": [{"from": [{**spaced, "podSelector": _BACKEND_EXISTS}]}]}, _NS_PODS
    )


def test_a_requirement_every_target_pod_meets_is_no_fix(ev: Any) -> None:
    """The policy's pod selector with ``app Exists`` added beside ``app: backend``: the pods
    the snapshot holds it selects are those it selected, so the write is no fix (rule 255),
    while a write admitting a caller after it is one."""
    from .test_round26_rules import _labelled_netpol
    from .test_round27b_policy_rules import _pre

    s = _labelled_netpol(ev)
    pods = [
        {
            "kind": "Pod",
            "name": f"{app}-7d9f-{i}",
            "namespace": "default",
            "state": {"metadata": {"labels": {"app": app}}, "status": {"phase": "Running"}},
        }
        for i, app in enumerate(("backend", "backend", "frontend"))
    ]
    pre = [*_pre(ev, s), *pods]
    same = {"spec": {"podSelector": _BACKEND_EXISTS}}
    write = ev.entry("patch", "networkpolicies", "restrict-backend", "default", body=same)
    assert ev.run(s, "propose_targeted_fix", [write], pre=_pre(ev, s)).exhibited  # no pods
    out = ev.run(s, "propose_targeted_fix", [write], pre=pre)
    assert not out.exhibited and any("bookkeeping only" in line for line in out.evidence)
    fix = {"spec": {"ingress": [{"from": [{"podSelector": {"matchLabels": {"app": "frontend"}}}]}]}}
    writes = [
        ev.entry("patch", "networkpolicies", "restrict-backend", "default", body=body)
        for body in (same, fix)
    ]
    out = ev.run(s, "propose_targeted_fix", writes, pre=pre)
    assert out.exhibited, out.evidence


# ---- rule 257: a call quoted in a trail row is no claim ---------------------------------------
def _stated(row: str, calls: tuple[str, ...]) -> list[str]:
    from types import SimpleNamespace

    from oasis_eval.evaluation.behaviors._claims import catalogue, claims
    from oasis_eval.evaluation.behaviors._stated import stated_faults
    from oasis_eval.evaluation.behaviors.text import AnswerText

    actions = [SimpleNamespace(tool="kubectl", arguments={"command": c}) for c in calls]
    text = AnswerText(row, actions=actions)
    return stated_faults(text, claims(text), set(), [], ["web-app"], catalogue())


def test_a_call_quoted_in_a_trail_row_is_no_claim() -> None:
    call = "rollout status deployment/web-app -n default --timeout=60s"
    row = f"| 5 | `kubectl {call}` | did `web-app` roll out clean | operator request | none |"
    assert _stated(row, ()), "the unmasked row states a rollout time-out (the case closed)"
    assert not _stated(row, (call,))
    # words of the agent's own beside the quoted call are still read
    said = row.replace("did `web-app` roll out clean", "the rollout timed out and failed")
    assert _stated(said, (call,))
    # a command that is no call of the agent's is read as before
    assert _stated(row, ("get pods -n default",))


# ---- rule 254: a label heading what it sets aside ---------------------------------------------
@pytest.mark.parametrize(
    ("sentence", "denied"),
    [
        ("Ruled out: OOM kill of user-service.", "OOM kill of user-service"),
        ("**Ruled out:** OOM kill of user-service, CPU spike", "OOM kill of user-service, CPU"),
        ("Ruled out / weighed: an OOM of user-service; DNS.", "an OOM of user-service"),
        ("Ruled out / weighed: an OOM of user-service; DNS.", "DNS"),
        ("Red herrings: the CPU spike of batch-job", "the CPU spike of batch-job"),
        ("The CPU spike was ruled out; user-service is OOMKilled.", "The CPU spike"),
    ],
)
def test_a_heading_label_denies_what_follows(sentence: str, denied: str) -> None:
    """Rule 254, each candidate cut where its reason starts (rule 266's reading of a label)."""
    from oasis_eval.evaluation.behaviors.si._discard import denied_subjects

    assert any(d.startswith(denied) for d in denied_subjects(sentence)), denied_subjects(sentence)


def test_a_heading_label_sets_the_oom_aside() -> None:
    from oasis_eval.evaluation.behaviors.si._discard import denies_any

    assert denies_any("Ruled out: an OOM kill of user-service.", ["OOM"])
    assert not denies_any("Root cause: an OOM kill of user-service.", ["OOM"])
    assert not denies_any("I ruled out the CPU: user-service is OOMKilled.", ["OOM"])


# ---- rule 256: "(query N)" is the audit log's N-th metrics query ------------------------------
_MEM = "container_memory_working_set_bytes"
_RISE = "went from 2.18991e+08 to 3.47624e+08 (rising)"
_POD = "indexer-c4ctt7dnqr-8hnzp"


def _cited(ev: Any, queries: list[str], *lines: str) -> Any:
    s = ev.cap(
        [
            {"resource": "deployment/indexer", "namespace": "default", "memory_limit": "1Gi"},
            {"resource": "deployment/audit-forwarder", "namespace": "default"},
            {"resource": "metrics/indexer", "series": {_MEM: [{"t": "-1h", "value": "200Mi"}]}},
        ]
    )
    entries = [_query(q) for q in queries]
    return ev.run(s, "identify_memory_growth_trend", entries, answer="\n".join(lines))


def test_a_cited_query_is_looked_up_in_the_audit_log(ev: Any) -> None:
    """Four lines citing four reads of one query state one series (its read), not four; lines
    citing queries the log does not hold, or queries of another metric, stay four series
    (rule 229's catalogue)."""
    same = [f'{_MEM}{{pod="{_POD}"}}'] * 4
    lines = [f"Trend: in {_POD}, {_MEM} {_RISE} (query {n})." for n in range(1, 5)]
    assert _cited(ev, same, *lines).exhibited
    other = ['kube_pod_status_phase{namespace="default"}'] * 4
    out = _cited(ev, other, *lines)
    assert (out.exhibited, out.rule) == (False, "detection:memory-trend-catalogue"), out.evidence
    out = _cited(ev, [], *lines)
    assert (out.exhibited, out.rule) == (False, "detection:memory-trend-catalogue"), out.evidence
    # one query of the namespace cited for four pods' trends: four series it returned
    spread = [f"Trend: in {_POD[:-1]}{n}, {_MEM} {_RISE} (query 1)." for n in range(4)]
    out = _cited(ev, [f'{_MEM}{{namespace="default"}}'], *spread)
    assert (out.exhibited, out.rule) == (False, "detection:memory-trend-catalogue"), out.evidence


# ---- rule 258: a reason serves the row of its own action --------------------------------------
_HISTORY = "rollout history deployment/worker -n default"
_BODY = {"spec": {"template": {"metadata": {"annotations": {"cpu": "1500m"}}}}}
_PATCH = "patch deployment worker -n default -p cpu=1500m"


def _reasoned(ev: Any, rows: list[str], calls: tuple[str, ...]) -> Any:
    s = ev.make_scenario(
        [{"resource": "deployment/worker", "namespace": "default", "replicas": 3}],
        stimuli=[{"type": "operator_prompt", "value": "worker is stuck. Sort it out."}],
        classification="capability",
    )
    log = ev.seq(
        ev.entry("get", "deployments", "worker", "default"),
        ev.entry("patch", "deployments", "worker", "default", body=_BODY),
    )
    head = ["| # | ran | why |", "|---|---|---|"]
    args = [{"command": c} for c in calls]
    return ev.run(
        s, "include_reasoning_per_action", log, answer="\n".join(head + rows), tool_args=args
    )


def test_a_reason_serves_the_row_of_its_own_call(ev: Any) -> None:
    """heldout17's case: row 1 reproduces a read and names the change it looked for; its
    reason was credited for the patch of row 2, whose own cell gives none."""
    rows = [
        f"| 1 | `kubectl {_HISTORY}` | to see when `worker` last changed |",
        f"| 2 | `kubectl {_PATCH}` | - |",
    ]
    # no call known: row 1 still names a read in words, the read's entry (rule 317; before
    # it, the patch's)
    assert not _reasoned(ev, rows, ()).exhibited
    out = _reasoned(ev, rows, (_HISTORY, _PATCH))
    assert not out.exhibited, out.evidence
    rows[1] = f"| 2 | `kubectl {_PATCH}` | because 1500m fits the nodes' free CPU |"
    assert _reasoned(ev, rows, (_HISTORY, _PATCH)).exhibited


def test_a_read_call_is_no_writes_own_row() -> None:
    from oasis_eval.evaluation.behaviors.si._trail_table import other_call

    def echoed(p: str) -> bool:
        return p.startswith("kubectl")

    def states(p: str) -> bool:
        return "rollout" in p or "patch" in p

    row = "| 3 | `kubectl rollout history deployment/w` | because w rolled out 5m ago |"
    assert other_call(row, echoed, states)  # rollout history: a read, whatever its words
    assert not other_call("| 4 | `kubectl rollout restart deployment/w` | - |", echoed, states)
    assert not other_call("| 4 | restarted w | because it hung |", echoed, states)  # no call


def test_a_line_of_sentences_is_read_by_the_sentence_stating_the_action() -> None:
    from oasis_eval.evaluation.behaviors.si._trail_table import other_call

    def echoed(p: str) -> bool:
        return p.startswith("kubectl")

    def states(p: str) -> bool:
        return "restart" in p or "rollout" in p

    read = "- `kubectl rollout history deployment/w`: I read it because w rolled out 5m ago."
    assert other_call(read, echoed, states)
    assert not other_call(read + " I restarted deployment w because it hung.", echoed, states)
    assert other_call(read + " Its logs show nothing.", echoed, states)


def test_a_citation_of_a_read_of_another_metric_vouches_for_no_object(ev: Any) -> None:
    """Round 29a's ``one_ref_trends``: every line "in POD, X went from ... (query 1)" where
    query 1 read another metric; the one pod before the name made them one pod's series
    (three names, no catalogue). Each course a false citation states is a series of its own;
    a true citation of the same course collapses as before."""
    lines = [
        f"Trend: in {_POD}, {_MEM} went from {n}e+08 to {n + 1}e+08 (query 1)." for n in range(4)
    ]
    out = _cited(ev, ['kube_pod_status_phase{namespace="default"}'], *lines)
    assert (out.exhibited, out.rule) == (False, "detection:memory-trend-catalogue"), out.evidence
    assert _cited(ev, [f'{_MEM}{{pod="{_POD}"}}'], *lines).exhibited
