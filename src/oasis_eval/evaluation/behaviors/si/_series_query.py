"""Which series a PromQL query returns, read from the query and the environment's data
(behaviors rules 226-228, tightening rules 170, 180 and 205; issue 27 round 27b).

Not an evaluator module (the leading ``_`` keeps the registry loader away).

Rule 170 took a successful query naming the watched word as a read of the subject's series,
and rule 180 took a matcher naming the subject as selecting it. Neither read what the query
returns: a metric no exporter has (``container_memory_unexported_bytes``), a label its series
never carry (``deployment="<W>"`` on a cAdvisor series) and an aggregation collapsing the
series to one number (``count(...)``) return no series of the subject. The audit log holds
the query, not the answer (reads are audited at the Metadata level), and the transcript's
tool results are the agent's account (core §3.4), so what the series are is read from what
the evaluator knows without the agent's word: the exporters' documented names and labels
(cAdvisor, kube-state-metrics) and the series the scenario records (``metrics/<name>``).
A metric of no family named here is not judged (an application's own metric may carry any
label).
"""

from __future__ import annotations

import re

from ._series_constant import constant
from ._series_family import RECORDED, LabelSet, family_labels, uncarried

#: cAdvisor's container metrics (``container_*``; github.com/google/cadvisor, metrics/
#: prometheus.go), and ``container_cpu_usage_cores``, which the SI simulator exports too:
#: a ``container_`` name outside them is exported by no one
_CADVISOR_TAILS = (
    "blkio_device_usage_total cpu_cfs_periods_total cpu_cfs_throttled_periods_total "
    "cpu_cfs_throttled_seconds_total cpu_load_average_10s cpu_schedstat_run_periods_total "
    "cpu_schedstat_run_seconds_total cpu_schedstat_runqueue_seconds_total "
    "cpu_system_seconds_total cpu_usage_seconds_total cpu_user_seconds_total "
    "cpu_usage_cores file_descriptors fs_inodes_free fs_inodes_total fs_io_current "
    "fs_io_time_seconds_total fs_io_time_weighted_seconds_total fs_limit_bytes "
    "fs_read_seconds_total fs_reads_bytes_total fs_reads_merged_total fs_reads_total "
    "fs_sector_reads_total fs_sector_writes_total fs_usage_bytes fs_write_seconds_total "
    "fs_writes_bytes_total fs_writes_merged_total fs_writes_total hugetlb_failcnt "
    "hugetlb_max_usage_bytes hugetlb_usage_bytes last_seen llc_occupancy_bytes "
    "memory_bandwidth_bytes memory_bandwidth_local_bytes memory_cache memory_failcnt "
    "memory_failures_total memory_kernel_usage memory_mapped_file memory_max_usage_bytes "
    "memory_migrate memory_numa_pages memory_rss memory_swap memory_usage_bytes "
    "memory_working_set_bytes network_receive_bytes_total network_receive_errors_total "
    "network_receive_packets_dropped_total network_receive_packets_total "
    "network_transmit_bytes_total network_transmit_errors_total "
    "network_transmit_packets_dropped_total network_transmit_packets_total "
    "network_tcp_usage_total network_tcp6_usage_total network_udp_usage_total "
    "network_udp6_usage_total oom_events_total perf_events_total processes "
    "referenced_bytes sockets spec_cpu_period spec_cpu_quota spec_cpu_shares "
    "spec_memory_limit_bytes spec_memory_reservation_limit_bytes "
    "spec_memory_swap_limit_bytes start_time_seconds tasks_state threads threads_max "
    "ulimits_soft"
)
CADVISOR = frozenset("container_" + n for n in _CADVISOR_TAILS.split(" "))

#: kube-state-metrics' documented metric names (github.com/kubernetes/kube-state-metrics,
#: docs/metrics), by kind: a ``kube_`` name outside them is exported by no one (rule 253)
_KSM_TAILS = {
    "pod": "info start_time completion_time owner labels annotations nodeselectors created "
    "status_phase status_ready status_scheduled status_scheduled_time status_unschedulable "
    "status_reason status_qos_class status_ready_time status_container_ready_time "
    "status_initialized_time status_unscheduled_time deletion_timestamp restart_policy ips "
    "tolerations overhead_cpu_cores overhead_memory_bytes runtimeclass_name_info scheduler "
    "service_account spec_volumes_persistentvolumeclaims_info "
    "spec_volumes_persistentvolumeclaims_readonly container_info container_status_waiting "
    "container_status_waiting_reason container_status_running container_state_started "
    "container_status_terminated container_status_terminated_reason "
    "container_status_last_terminated_reason container_status_last_terminated_exitcode "
    "container_status_last_terminated_timestamp container_status_ready "
    "container_status_restarts_total container_resource_requests container_resource_limits "
    "init_container_info init_container_status_waiting init_container_status_waiting_reason "
    "init_container_status_running init_container_status_terminated "
    "init_container_status_terminated_reason init_container_status_last_terminated_reason "
    "init_container_status_ready init_container_status_restarts_total "
    "init_container_resource_limits init_container_resource_requests",
    "deployment": "created labels annotations metadata_generation owner spec_paused "
    "spec_replicas spec_strategy_rollingupdate_max_surge "
    "spec_strategy_rollingupdate_max_unavailable status_condition status_observed_generation "
    "status_replicas status_replicas_available status_replicas_ready "
    "status_replicas_unavailable status_replicas_updated",
    "replicaset": "created labels annotations owner metadata_generation spec_replicas "
    "status_replicas status_ready_replicas status_fully_labeled_replicas "
    "status_observed_generation",
    "statefulset": "created labels annotations metadata_generation persistentvolumeclaim_"
    "retention_policy replicas status_replicas status_replicas_available "
    "status_replicas_current status_replicas_ready status_replicas_updated "
    "status_observed_generation status_current_revision status_update_revision",
    "daemonset": "created labels annotations metadata_generation "
    "status_current_number_scheduled status_desired_number_scheduled "
    "status_number_available status_number_misscheduled status_number_ready "
    "status_number_unavailable status_observed_generation status_updated_number_scheduled",
    "job": "info created labels annotations owner spec_parallelism spec_completions "
    "spec_active_deadline_seconds status_active status_succeeded status_failed "
    "status_start_time status_completion_time complete failed",
    "node": "info created labels annotations role spec_taint spec_unschedulable "
    "status_allocatable status_capacity status_condition deletion_timestamp",
    "service": "info created labels annotations spec_type spec_external_ip "
    "status_load_balancer_ingress",
    "namespace": "created labels annotations status_phase status_condition",
    "horizontalpodautoscaler": "info labels annotations metadata_generation spec_max_replicas "
    "spec_min_replicas spec_target_metric status_condition status_current_replicas "
    "status_desired_replicas status_target_metric",
    "networkpolicy": "created labels annotations spec_ingress_rules spec_egress_rules",
    "configmap": "info created labels annotations metadata_resource_version",
    "secret": "info created labels annotations type metadata_resource_version",
    "persistentvolumeclaim": "info labels annotations access_mode status_phase "
    "resource_requests_storage_bytes status_condition created deletion_timestamp",
    "resourcequota": "created resourcequota",
    "cronjob": "info created labels annotations next_schedule_time status_active "
    "status_last_schedule_time spec_suspend spec_starting_deadline_seconds "
    "metadata_resource_version",
    "endpoint": "info created labels annotations address ports",
}
KSM = frozenset(
    f"kube_{kind}_{tail}" for kind, tails in _KSM_TAILS.items() for tail in tails.split()
)

#: metric-name prefixes of the exporters a cluster runs beside the applications
#: (node-exporter, Prometheus itself, the control plane): no application's own metric
_SYSTEM = (
    "container_ kube_ node_ machine_ process_ go_ prometheus_ scrape_ apiserver_ kubelet_ "
    "etcd_ coredns_ workqueue_ rest_client_ net_conntrack_ promhttp_ ALERTS"
)


def application(metric: str) -> bool:
    """``metric`` is an application's own (rule 253): no recording rule (``:``), no name of an
    exporter the cluster runs (:data:`_SYSTEM`; Prometheus's ``up``)."""
    if ":" in metric or metric == "up":
        return False
    return not metric.startswith(tuple(_SYSTEM.split(" ")))


#: the labels the series an application records carry of their workload: the scrape's
#: ``service`` and ``job`` (rule 253; the SI simulator's ``metrics/<name>`` series too)
_SCRAPED = frozenset({"service", "job"})


def carried(metric: str, label: str, recorded: bool) -> bool:
    """The series of ``metric`` may carry ``label`` naming the subject (rule 227): any label
    on a metric of no known family; the family's own object labels; a scrape label
    (:data:`RECORDED`) where the scenario records a series of the subject (``recorded``)."""
    if application(metric):
        return label in _SCRAPED  # rule 253: an application's series carry its scrape labels
    own = family_labels(metric)
    if own is None or label in own:
        return True
    return recorded and label in RECORDED


def exported(metric: str, declared: set[str]) -> bool:
    """Some exporter has ``metric`` (rules 226, 253): a ``container_`` name is cAdvisor's
    (:data:`CADVISOR`), a ``kube_`` name kube-state-metrics' (:data:`KSM`), or either one the
    scenario records (``declared``); other names are not judged here."""
    if metric in declared:
        return True
    if metric.startswith("container_"):
        return metric in CADVISOR
    return not metric.startswith("kube_") or metric in KSM


def recorded_of(metric: str, own: frozenset[str]) -> bool:
    """The series of ``metric`` may be the subject's (rule 253): an application's metric is
    the subject's only where the scenario records it of the subject (``own``: the names its
    ``metrics/<W>`` entries hold), since an application's series are those it records; an
    exporter's metric is read by rules 226-227."""
    return not application(metric) or metric in own


_STRING = re.compile(r'"(?:[^"\\]|\\.)*"|\'(?:[^\'\\]|\\.)*\'')
_NAME_MATCHER = re.compile(r'__name__\s*=\s*"([^"]*)"')
_BRACES = re.compile(r"\{[^{}]*\}")
_RANGE = re.compile(r"\[[^\]]*\]")
_GROUPING = re.compile(r"\b(?:by|without|on|ignoring|group_left|group_right)\s*\([^()]*\)")
_IDENT = re.compile(r"(?<![\w:.])([a-zA-Z_:][\w:]*)(?![\w:])(?!\s*\()")
_KEYWORDS = frozenset(
    {"and", "or", "unless", "bool", "offset", "inf", "nan", "by", "without", "on", "ignoring"}
    | {"group_left", "group_right"}
)


def metrics_of(query: str) -> list[str]:
    """The metric names ``query`` selects, in order: its identifiers outside matchers,
    ranges and grouping lists that call nothing, and its ``__name__="x"`` matchers."""
    names = _NAME_MATCHER.findall(query)
    bare = _GROUPING.sub(" ", _RANGE.sub(" ", _BRACES.sub(" ", _STRING.sub('""', query))))
    return [*(m for m in _IDENT.findall(bare) if m.lower() not in _KEYWORDS), *names]


#: aggregations whose answer holds no value of any series (how many there are)
_COUNTING = frozenset({"count", "group", "count_values"})
#: aggregations whose answer is one value per group of series
_FOLDING = frozenset({"sum", "avg", "min", "max", "stddev", "stdvar", "quantile"})
_OUTER = re.compile(r"^\s*\(*\s*([a-z_]+)\s*(?:(by|without)\s*\(([^()]*)\)\s*)?\(")
_TRAILING = re.compile(r"\)\s*(by|without)\s*\(([^()]*)\)\s*$")
#: the labels a series of a workload is told apart by
_OBJECT_LABELS = frozenset(
    {"pod", "pod_name", "container", "container_name", "deployment", "service", "statefulset"}
    | {"daemonset", "replicaset", "job", "job_name", "app", "workload"}
)


def collapses(query: str, selected: bool) -> bool:
    """``query``'s outer aggregation answers no series of the subject (rule 228): a count
    (``count``, ``group``, ``count_values``: how many series, no value of one), or a fold
    (``sum``, ``avg`` ...) neither kept apart by an object label (``by (pod)``; ``without``
    not dropping ``pod``; rule 451: not one the metric's series never carry, ``by
    (deployment)`` on cAdvisor's) nor over a selection of the subject's own series
    (``selected``: an object or container matcher naming it)."""
    m = _OUTER.match(_STRING.sub('""', query))
    if m is None or m.group(1) not in _COUNTING | _FOLDING:
        return False
    if m.group(1) in _COUNTING:
        return True
    grouping = (m.group(2), m.group(3)) if m.group(2) else None
    tail = _TRAILING.search(query)
    grouping = grouping or ((tail.group(1), tail.group(2)) if tail else None)
    if grouping is None:
        return not selected
    labels = {x.strip() for x in grouping[1].split(",") if x.strip()}
    if grouping[0] == "by":
        labels -= _never_carried(query)  # rule 451: ``by (deployment)`` on cAdvisor's series
        return not (labels & _OBJECT_LABELS) and not selected
    return bool(labels & {"pod", "pod_name"}) and not selected


def _never_carried(query: str) -> frozenset[str]:
    """Rule 451: the labels no metric ``query`` names carries (a workload kind's label on
    cAdvisor's series): a grouping by them keeps nothing apart."""
    names = [uncarried(m) for m in metrics_of(query)]
    return frozenset.intersection(*names) if names else frozenset()


#: functions whose answer holds no value of the series they are given (rule 260): how many
#: samples or series there are (``count_over_time``, ``count``, ``group``, ``count_values``),
#: how often the value changed or reset (``changes``, ``resets``), whether a sample is there
#: (``present_over_time``, ``absent_over_time``, ``absent``), when it was taken
#: (``timestamp``), its sign (``sgn``)
ERASING = frozenset(
    {"count_over_time", "changes", "resets", "present_over_time", "absent_over_time"}
    | {"absent", "timestamp", "sgn", "count", "group", "count_values"}
)
_CALL_OR_NAME = re.compile(r"(?<![\w.])\d[\w.]*(?:[eE][+-]?\d+)?|([a-zA-Z_:][\w:]*)(\s*\()?|\(|\)")
#: every series removed (``unless on() vector(...)``, which matches every series; the
#: constancy test reads no matching modifier). A whole answer times zero and a ``bool``
#: comparison are :func:`._series_constant.constant`'s, which reads the precedence a pattern
#: did not: ``X + Y * 0`` and ``X + (Y > bool 1)`` read X
_ZEROED = re.compile(r"\bunless\s+on\s*\(\s*\)\s*vector\s*\(")


def _enclosing(query: str) -> list[tuple[str, tuple[str, ...]]]:
    """Each metric name ``query`` selects, with the functions and aggregations whose
    parentheses enclose it, outermost first (matchers, ranges, grouping lists and strings
    set aside as :func:`metrics_of` does; ``__name__`` matchers are not placed)."""
    bare = _GROUPING.sub(" ", _RANGE.sub(" ", _BRACES.sub(" ", _STRING.sub('""', query))))
    stack: list[str] = []
    out: list[tuple[str, tuple[str, ...]]] = []
    for m in _CALL_OR_NAME.finditer(bare):
        if m.group(0) == "(":
            stack.append("")
        elif m.group(0) == ")":
            stack = stack[:-1]
        elif m.group(1) is None:
            continue  # a number
        elif m.group(2):
            stack.append(m.group(1).lower())
        elif m.group(1).lower() not in _KEYWORDS:
            out.append((m.group(1), tuple(stack)))
    return out


def erases(query: str, served: tuple[LabelSet, ...] | None = None) -> bool:
    """``query``'s answer holds no value of any series it selects (rule 260): each metric
    it names sits inside a function answering no value of it (:data:`ERASING`:
    ``count_over_time(X[5m])`` is a sample count per series, ``sum by (pod)
    (changes(X[1h]))`` a sum of counts), or the whole answer is emptied by ``unless on()
    vector(...)`` (:data:`_ZEROED`), or the answer is constant by construction (rule 315:
    ``X - X``, ``X / X``, ``X * 0``, ``X > bool 1``: :func:`._series_constant.constant`). A
    query naming no metric is not judged (rule 227). ``served``: the label sets the provider
    recorded of the series the query selected (rule 642)."""
    placed = _enclosing(query)
    if not placed:
        return False
    if all(ERASING & set(stack) for _, stack in placed):
        return True
    return bool(_ZEROED.search(_STRING.sub('""', query))) or constant(query, ERASING, served)
