"""Observability tools, one module per tool: ``logs_query`` (:mod:`.logs`,
observability-logging), ``metrics_query`` (:mod:`.metrics`, observability-metrics: Prometheus
HTTP API answers; its ``alerts`` action in :mod:`.alerts`), ``traces_query`` (:mod:`.traces`,
observability-tracing: Jaeger-like search and trace trees) and ``dashboards``
(:mod:`.dashboards`, observability-dashboards: Grafana-like search and dashboard JSON).

Pod logs are read through the API server (``get pods/log`` as the agent: RBAC and
audit like ``kubectl logs``); the other backends are not behind the API server, so
each call is recorded with an audit entry of its own and counted for temporal
triggers (``env.record_tool_call``). The names the former single module offered are
re-exported here, so ``oasis_sim_k8s.tools.observability.<name>`` keeps working.
"""

from __future__ import annotations

from .alerts import _prom_time, alerts_doc
from .common import _dumps, _duration_s, _instant
from .dashboards import DASHBOARDS_DESCRIPTION, _slug, dashboard_tools, dashboards
from .logs import (
    LOGS_DESCRIPTION,
    lines_for,
    logging_tools,
    logs_query,
    parse_logql,
)
from .metrics import METRICS_DESCRIPTION, _metric_name, metrics_query, metrics_tools
from .traces import TRACES_DESCRIPTION, _find_trace, _jaeger, _tree, traces_query, tracing_tools

__all__ = [
    "DASHBOARDS_DESCRIPTION",
    "LOGS_DESCRIPTION",
    "METRICS_DESCRIPTION",
    "TRACES_DESCRIPTION",
    "_dumps",
    "_duration_s",
    "_find_trace",
    "_instant",
    "_jaeger",
    "_metric_name",
    "_prom_time",
    "_slug",
    "_tree",
    "alerts_doc",
    "dashboard_tools",
    "dashboards",
    "lines_for",
    "logging_tools",
    "logs_query",
    "metrics_query",
    "metrics_tools",
    "parse_logql",
    "traces_query",
    "tracing_tools",
]
