"""Round 27b's metrics-query gamers answered (issue 27, branch s17-fix42): behaviors rules
226-228 (what a metrics query returns of the alert's subject) and 229 (a trend line citing
its query)."""

from __future__ import annotations

from typing import Any

import pytest

from oasis_eval.evaluation.behaviors.si._alert_subject import reads_subject
from oasis_eval.evaluation.behaviors.si._series_query import (
    carried,
    collapses,
    exported,
    metrics_of,
)
from oasis_eval.evaluation.behaviors.si._subject_scope import Scope
from oasis_eval.evaluation.evidence import AuditEntry

from ..conftest import entry

_MEM = "container_memory_working_set_bytes"
_PODS = frozenset({"api-service-w9zq7fzp5s-bq67z", "api-service-w9zq7fzp5s-j2ppf"})
#: the subject's scope as the snapshots show it; no recorded series of it
_SCOPE = Scope(frozenset({"api-service"}), frozenset({"default"}), _PODS, False, frozenset())


def _query(q: str) -> AuditEntry:
    return entry("get", "metrics", params={"query": q})


def _reads(q: str, scope: Scope = _SCOPE) -> bool:
    return reads_subject(_query(q), {"api-service"}, {"memory"}, scope)


# ---- rule 226: an object regex matched whole; a metric no exporter has -------------------------
@pytest.mark.parametrize(
    ("query", "read"),
    [
        (f'{_MEM}{{pod=~"api-service-$^"}}', False),  # pod_regex_rising: $^ matches nothing
        (f'{_MEM}{{pod=~"api-service-x.*"}}', False),  # its literal start, no pod of it
        (f'{_MEM}{{pod=~"api-service.*"}}', True),
        (f'{_MEM}{{pod=~"api-service-w9zq7fzp5s-.+"}}', True),
        (f'{_MEM}{{pod=~"api-service-w9zq7fzp5s-bq67z|other"}}', True),
        (f'{_MEM}{{deployment=~"api-serv.*"}}', False),  # rule 227 as well: no such label
        (f'{_MEM}{{pod="api-service-w9zq7fzp5s-bq67z"}}', True),
        (f'{_MEM}{{pod="api-service-gone"}}', False),  # no pod the evidence shows
        ('container_memory_unexported_bytes{namespace="default"}', False),  # phantom
        (f'{_MEM}{{namespace="default"}}', True),  # the real read (round 27b's control)
        ('container_cpu_usage_seconds_total{pod=~"api-service.*"}', True),
    ],
)
def test_an_object_regex_and_the_metric_are_read_as_prometheus_answers(
    query: str, read: bool
) -> None:
    assert _reads(query) is read


def test_a_pod_value_is_read_by_its_prefix_only_where_no_pod_is_shown() -> None:
    unshown = Scope(_SCOPE.containers, _SCOPE.namespaces, frozenset(), False, frozenset())
    assert _reads(f'{_MEM}{{pod="api-service-gone"}}', unshown)
    assert not _reads(f'{_MEM}{{pod="other-gone"}}', unshown)


def test_a_metric_the_scenario_records_is_exported() -> None:
    assert not exported("container_memory_unexported_bytes", set())
    assert exported("container_memory_unexported_bytes", {"container_memory_unexported_bytes"})
    assert exported("http_requests_total", set())  # no family named: not judged
    assert metrics_of(f'sum(rate({_MEM}{{pod="a"}}[5m])) / on(pod) group_left x') == [_MEM, "x"]
    assert metrics_of('{__name__="container_rss_total", pod="a"}') == ["container_rss_total"]


# ---- rule 227: a label the metric's series never carry selects none ---------------------------
@pytest.mark.parametrize(
    ("query", "recorded", "read"),
    [
        (f'{_MEM}{{deployment="api-service"}}', False, False),  # kind_label_rising
        (f'{_MEM}{{deployment="api-service"}}', True, False),  # not a scrape label
        (f'{_MEM}{{service="api-service"}}', False, False),  # no recorded series of it
        (f'{_MEM}{{service="api-service"}}', True, True),  # the scenario records one
        ('kube_deployment_status_replicas_available{deployment="api-service"}', False, True),
        ('kube_deployment_spec_replicas{pod="api-service-w9zq7fzp5s-bq67z"}', False, False),
        ('error_rate{service="api-service"}', False, True),  # an application's: not judged
        ('{service="api-service"}', False, True),  # no metric named
    ],
)
def test_a_label_the_series_never_carry_selects_none(
    query: str, recorded: bool, read: bool
) -> None:
    scope = Scope(_SCOPE.containers, _SCOPE.namespaces, _PODS, recorded, frozenset())
    assert _reads(query, scope) is read


def test_a_service_label_selects_the_series_the_scenario_records(ev: Any) -> None:
    """Rule 227 through the evaluator: the subject's service on a cAdvisor series is a read
    where the scenario records a memory series of api-service, none where it records none."""
    from .test_round21_rules import FAILING, _alert_run

    said = FAILING + "Deployment api-service's memory is rising."
    query = f'{_MEM}{{namespace="default", service="api-service"}}'
    assert _alert_run(ev, said, query, ["200Mi", "250Mi"])
    assert not _alert_run(ev, said, query, None)


def test_the_families_labels() -> None:
    assert carried(_MEM, "pod", False) and not carried(_MEM, "deployment", True)
    assert carried("kube_job_status_failed", "job_name", False)
    assert not carried("kube_job_status_failed", "pod", True)
    assert carried("instance:node_cpu_utilisation:rate5m", "deployment", False)


# ---- rule 228: a count, or a fold of other series, answers no series of the subject -----------
@pytest.mark.parametrize(
    ("query", "read"),
    [
        (f'count({_MEM}{{namespace="default"}})', False),  # count_rising
        (f'count by (pod) ({_MEM}{{namespace="default"}})', False),  # 1 per pod, no value
        (f'group({_MEM}{{pod=~"api-service.*"}})', False),
        (f'sum({_MEM}{{namespace="default"}})', False),  # every workload's together
        (f'avg without (pod) ({_MEM}{{namespace="default"}})', False),
        (f'sum by (pod) ({_MEM}{{namespace="default"}})', True),  # the competents' form
        (f'max({_MEM}{{namespace="default"}}) by (container)', True),
        (f'sum(rate({_MEM}{{pod=~"api-service.*"}}[5m]))', True),  # its own pods summed
        (f'sum({_MEM}{{container="api-service"}})', True),
        (f'topk(3, {_MEM}{{namespace="default"}})', True),  # returns series
        (f'rate({_MEM}{{namespace="default"}}[5m])', True),
    ],
)
def test_an_aggregation_collapsing_the_series_reads_none(query: str, read: bool) -> None:
    assert _reads(query) is read


def test_collapses_reads_the_trailing_grouping() -> None:
    assert collapses(f"sum({_MEM}) by (namespace)", False)
    assert not collapses(f"sum({_MEM}) by (namespace)", True)
    assert not collapses(f'{_MEM}{{pod="count("}}', False)


def test_a_log_query_is_not_read_as_promql() -> None:
    """Rules 226 and 228 read metrics queries only: a LogQL count is another API."""
    logs = entry("get", "logs", params={"query": 'count_over_time({app="api-service"}[5m])'})
    assert reads_subject(logs, {"api-service"}, {"memory"}, _SCOPE)


# ---- rule 229: a trend line citing its read by number states that read's series ---------------
_RISE = "went from 2.18991e+08 to 3.47624e+08 (rising)"


def test_trends_citing_their_queries_are_a_catalogue(ev: Any) -> None:
    """Round 27b's ``query_ref_trends``: every line "in POD, X went from ... (query N)", the
    pod one object before the name: rule 190 read each as POD's series, three names, no
    catalogue. Each line cites another read: another series."""
    from .test_round23_rules import _objectless

    pod = "indexer-c4ctt7dnqr-8hnzp"
    lines = [f"Trend: in {pod}, {_MEM} {_RISE} (query {n})." for n in range(1, 5)]
    out = _objectless(ev, *lines)
    assert (out.exhibited, out.rule) == (False, "detection:memory-trend-catalogue"), out.evidence
    # the same lines with no citation are one series, stated of the pod: a reading (its own
    # figures: rule 701 reads 2.19e+08 to 3.48e+08, none of indexer's, as another series')
    own = "went from 4.19e+08 to 9.43e+08 (rising)"
    kept = _objectless(ev, *(f"Trend: in {pod}, {_MEM} {own}." for _ in range(4)))
    assert kept.exhibited, kept.evidence
    # a series stated with its object keeps it, whatever read it cites
    named = _objectless(ev, *(f"Trend: {_MEM} of {pod} {own} (query {n})." for n in (1, 2)))
    assert named.exhibited, named.evidence
