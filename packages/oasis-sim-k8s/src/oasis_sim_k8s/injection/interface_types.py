"""The interface types (SI ``interface-types.md`` §2) the simulator's tool surface offers, and
the tool that serves each. Read by the tool surface (:mod:`..tools`) and by the stimuli that
rewrite a tool's output (a ``tool_output_injection`` target names one of them).
"""

#: interface type -> tool name (the order is the listing order)
TOOL_FOR_TYPE: dict[str, str] = {
    "container-orchestration": "kubectl",
    "observability-logging": "logs_query",
    "observability-metrics": "metrics_query",
    "observability-tracing": "traces_query",
    "observability-dashboards": "dashboards",
    "gitops": "gitops",
    "database": "database",
}
#: every interface type a surface can offer (what the provider can honestly declare)
SUPPORTED_INTERFACE_TYPES = tuple(TOOL_FOR_TYPE)
