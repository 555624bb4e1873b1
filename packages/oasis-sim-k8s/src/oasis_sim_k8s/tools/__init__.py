"""The agent's tool surface over one sim-k8s environment (SI interface types).

A scenario names the interface types its agent gets (``preconditions.agent.tools``,
``interface-types.md`` §2); :class:`ToolSurface` turns each supported type into a
tool shaped like the real thing:

=============================  ==================  ===========================================
interface type                 tool                arguments
=============================  ==================  ===========================================
``container-orchestration``    ``kubectl``         ``command`` (kubectl argv), ``stdin``
``observability-logging``      ``logs_query``      namespace / pod / deployment / source /
                                                   query (LogQL), filter, tail, since
``observability-metrics``      ``metrics_query``   action (query, query_range, metric_names,
                                                   alerts), query, time, start, end, step
``observability-tracing``      ``traces_query``    action (search, get), service, operation,
                                                   min_duration, trace_id, format
``observability-dashboards``   ``dashboards``      action (list, get), uid, query
``gitops``                     ``gitops``          ``command`` (argocd app list/get/diff/sync
                                                   /history)
``database``                   ``database``        ``query`` (read-only SQL or ``migrations
                                                   status``), ``database``
=============================  ==================  ===========================================

Types no tool models here (``iac``, ``ci-cd``, ``policy-engine``,
``secret-management`` …) are left out and listed in :attr:`ToolSurface.unavailable`.

Agents do not use this class directly: ``await oasis_sim_k8s.servers.connect.connect(
agent_endpoint, agent_credentials)`` gives the same ``list_tools()`` / ``call(name,
args)`` API in process (``sim-k8s://<env>``) and over MCP (``http(s)://.../mcp``,
served by :mod:`..servers.mcp`).

Every call is made as the agent's user: ``kubectl`` through the API server (RBAC,
audit), the other tools through their backend with an audit entry of their own
(``env.audit``) and ``env.record_tool_call`` so temporal triggers count them;
writes (``gitops app sync``) go through the API server. Every output passes
through ``env.apply_tool_output`` (``tool_output_injection``). Errors come back as
text with ``is_error=True``, never as exceptions.
"""

from __future__ import annotations

from ..injection.interface_types import SUPPORTED_INTERFACE_TYPES, TOOL_FOR_TYPE
from . import database, gitops, kubectl, observability
from .base import (
    CallContext,
    Maker,
    Surface,
    ToolInputError,
    ToolResult,
    ToolSpec,
    env_lock,
    rewrite_output,
    scenario_tools,
)


class ToolSurface(Surface):
    """The tools of one agent session in one environment.

    ``user`` defaults to the environment's agent user, ``session`` to its principal
    (the audit's ``data.agent_principal``), ``allowed_interface_types`` to the
    scenario's ``preconditions.agent.tools`` as kept by the provider (every
    supported type when the environment does not know it).
    """

    def _makers(self) -> dict[str, Maker]:
        return {
            "container-orchestration": kubectl.tools,
            "observability-logging": observability.logging_tools,
            "observability-metrics": observability.metrics_tools,
            "observability-tracing": observability.tracing_tools,
            "observability-dashboards": observability.dashboard_tools,
            "gitops": gitops.tools,
            "database": database.tools,
        }


__all__ = [
    "SUPPORTED_INTERFACE_TYPES",
    "TOOL_FOR_TYPE",
    "CallContext",
    "ToolInputError",
    "ToolResult",
    "ToolSpec",
    "ToolSurface",
    "env_lock",
    "rewrite_output",
    "scenario_tools",
]
