"""The object labels an exporter family's series carry, and those they never carry
(behaviors rules 227, 443 and 451; issue 27 rounds 27b, 35b and 36a).

Not an evaluator module (the leading ``_`` keeps the registry loader away). Split from
``_series_query.py`` (branch s22-red35b) so that the constancy test
(``_series_constant.py``, which ``_series_query.py`` imports) reads the same table.

cAdvisor's container series carry ``pod`` (``pod_name`` on older kubelets), ``container``,
``namespace`` and the scrape's labels, never a workload kind's (``deployment``,
``statefulset`` ...); kube-state-metrics' families carry their own kind's label
(github.com/kubernetes/kube-state-metrics, docs/metrics). A grouping by a label no series
carries groups nothing (rule 451): Prometheus gives every series the same empty value.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Iterable

#: the object labels an exporter family's series carry, by metric-name prefix (longest
#: first): cAdvisor's and kube-state-metrics' pod-level series carry ``pod``; a workload
#: kind's own family (``kube_deployment_*``) its kind's label
_FAMILIES: tuple[tuple[str, frozenset[str]], ...] = (
    ("kube_pod_", frozenset({"pod"})),
    ("kube_deployment_", frozenset({"deployment"})),
    ("kube_statefulset_", frozenset({"statefulset"})),
    ("kube_daemonset_", frozenset({"daemonset"})),
    ("kube_replicaset_", frozenset({"replicaset"})),
    ("kube_job_", frozenset({"job_name"})),
    ("kube_service_", frozenset({"service"})),
    ("container_", frozenset({"pod", "pod_name"})),
)

#: labels a scrape or a recording attaches to a series (a ServiceMonitor's ``service`` and
#: ``job``, an application's ``app``): an exporter family's series carry them of the subject
#: only where the scenario records a series of it (``metrics/<name>``)
RECORDED = frozenset({"service", "job", "app", "workload"})

#: rule 451: the object labels of every family that no scrape attaches: a family's series
#: carry none of them but its own
_KIND_LABELS = frozenset(x for _, own in _FAMILIES for x in own) - RECORDED

#: rule 443: every label cAdvisor's container series carry (its own, the kubelet scrape's
#: target labels): a grouping label outside it is carried by none of them (``by (pod,
#: version)`` groups as ``by (pod)``), where rule 451 listed the other families' labels only
CADVISOR = frozenset(
    {"container", "container_name", "pod", "pod_name", "namespace", "image", "name", "id"}
    | {"cpu", "device", "interface", "mode", "scope", "state", "failure_type", "le"}
    | {"major", "minor", "operation", "instance", "job", "node", "endpoint", "service"}
    | {"metrics_path", "cluster", "prometheus"}
)

_NAME = re.compile(r"[a-zA-Z_:][\w:]*")
_NAME_MATCHER = re.compile(r'__name__\s*=\s*"([^"]*)"')


def family_labels(metric: str) -> frozenset[str] | None:
    """The object labels the series of ``metric`` carry (:data:`_FAMILIES`), or None for a
    metric of no family named here (not judged)."""
    return next((labels for prefix, labels in _FAMILIES if metric.startswith(prefix)), None)


@functools.lru_cache(maxsize=512)
def uncarried(selector: str, named: frozenset[str] = frozenset()) -> frozenset[str]:
    """Rule 451: the labels the series a selector (``container_memory_usage_bytes{...}``,
    ``{__name__="x"}``) selects never carry: another family's object labels (a cAdvisor series
    has no ``deployment``); none for a metric of no family named here (any label). Rule 443:
    of the labels a query ``named``, those cAdvisor's series do not carry (:data:`CADVISOR`)."""
    metric = _metric(selector)
    own = family_labels(metric)
    if own is None:
        return frozenset()
    return (_KIND_LABELS - own) | (named - CADVISOR if metric.startswith("container_") else set())


#: rule 531: the labels that tell one pod's cAdvisor series apart (its containers and their
#: cgroups; a cpu of a cpu series, an interface of a network series, a device of a
#: filesystem's ...), by metric-name prefix; every other label a pod's series carry is the
#: pod's own, the same on each of them (its node, the kubelet scrape's ``instance``, ``job``,
#: ``endpoint``, its namespace)
_SPLITTING: tuple[tuple[str, frozenset[str]], ...] = (
    ("container_", frozenset({"container", "container_name", "id", "name", "image"})),
    ("container_cpu_", frozenset({"cpu"})),
    ("container_network_", frozenset({"interface"})),
    ("container_fs_", frozenset({"device", "major", "minor", "operation"})),
    ("container_blkio_", frozenset({"device", "major", "minor", "operation"})),
    ("container_memory_failures_", frozenset({"failure_type", "scope"})),
    ("container_tasks_state", frozenset({"state"})),
)


def splitting(metric: str) -> frozenset[str]:
    """Rule 531: the labels that tell the series of one pod of cAdvisor's ``metric`` apart."""
    return frozenset().union(*(labels for p, labels in _SPLITTING if metric.startswith(p)))


def pod_attributes(selectors: Iterable[str], named: frozenset[str]) -> frozenset[str]:
    """Rule 531: of the labels a query's groupings ``named``, those that are a function of the
    pod (every one but ``pod``, ``pod_name`` and the metrics' :func:`splitting` labels) where
    every selector the query reads is a cAdvisor series (``container_*``); none else (an
    application's series may carry any label, one of its own splitting a pod's series)."""
    metrics = [_metric(x) for x in selectors]
    if not metrics or not all(m.startswith("container_") for m in metrics):
        return frozenset()
    return named - frozenset().union(*map(splitting, metrics)) - {"pod", "pod_name"}


#: a served series' label set, as the provider records it (rule 642): sorted (label, value)
#: pairs, ``__name__`` among them
LabelSet = tuple[tuple[str, str], ...]


def one_per_pod(served: Iterable[LabelSet], named: frozenset[str]) -> frozenset[str]:
    """Rule 642: of the labels a query's groupings ``named``, those that split no pod's
    series in what the provider served: on the selected series of each metric and pod
    (``pod``, else ``pod_name``; the series carrying neither form one group), the label takes
    one value at most (carried by none of them is the one value ""). ``by (pod, container)``
    groups as ``by (pod)`` where each pod served one container's series; real cAdvisor serves
    a pod-level series (``container=""``) beside the containers', and there it splits."""
    values: dict[tuple[str, str, str], set[str]] = {}
    for pairs in served:
        labels = dict(pairs)
        pod = labels.get("pod") or labels.get("pod_name") or ""
        for name in named:
            values.setdefault((labels.get("__name__", ""), pod, name), set()).add(
                labels.get(name, "")
            )
    split = {name for (_, _, name), seen in values.items() if len(seen) > 1}
    return named - split - {"pod", "pod_name"}


def pod_remainder(served: Iterable[LabelSet], dropped: frozenset[str]) -> bool:
    """Rule 643: ``without (dropped)`` keeps every other label of a series; in what the
    provider served, those take one value on each metric's pod (``pod``, else ``pod_name``):
    the grouping is the pod's own, as ``by (pod)``. ``max without (node) (X)`` over one
    series a pod is X by pod; real cAdvisor's pod-level series beside the containers' splits
    it. A series of no pod (a job's, a service's) is no pod's to split; a ``without`` dropping
    the pod itself is never the pod's."""
    if dropped & {"pod", "pod_name"}:
        return False
    seen: dict[tuple[str, str], set[LabelSet]] = {}
    for pairs in served:
        labels = dict(pairs)
        pod = labels.get("pod") or labels.get("pod_name")
        if pod:
            rest = tuple(pair for pair in pairs if pair[0] not in dropped)
            seen.setdefault((labels.get("__name__", ""), pod), set()).add(rest)
    return bool(seen) and all(len(values) <= 1 for values in seen.values())


def _metric(selector: str) -> str:
    m = _NAME.match(selector) or _NAME_MATCHER.search(selector)
    return (m.group(1) if m.re is _NAME_MATCHER else m.group(0)) if m else ""


def one_series_each(served: Iterable[LabelSet]) -> bool:
    """Rule 673: in what the provider served, each metric's pod (``pod``, else ``pod_name``;
    the series carrying neither form one group, as Prometheus groups them by the empty value)
    has one series: each series is its pod's one, every label of it the pod's own, and a
    grouping ``by (pod)`` over a selector folds one series (``max by (pod) (X) - min by (pod)
    (X)`` is 0). Real cAdvisor's pod-level series beside the containers' gives a pod two."""
    seen: set[tuple[str, str]] = set()
    for pairs in served:
        labels = dict(pairs)
        key = (labels.get("__name__", ""), labels.get("pod") or labels.get("pod_name") or "")
        if key in seen:
            return False
        seen.add(key)
    return bool(seen)
