"""The agent listener: everything an agent under test may reach, and nothing else (core §3.6;
issue 16 item 2). ``oasis provider serve`` runs it on its own port; the in-process provider
starts it on loopback for an agent in another process (:meth:`.provider.SimK8sProvider.agent_access`).

==========================================  ==================================================
path                                        served by
==========================================  ==================================================
``/api``, ``/apis``, ``/version``,          the Kubernetes API server (:mod:`.kubeapi`, when
``/openapi``, ``/healthz`` ... and ``GET /``  installed): what the kubeconfig's server points at
``/mcp`` (and ``POST``/``DELETE``/SSE at    the environment's tools over MCP (:mod:`.mcp`);
``/``)                                      ``/`` too, so a client that takes ``agent_endpoint``
                                            for an MCP endpoint works unchanged
``/prometheus/api/v1/...``                  the Prometheus HTTP API (:mod:`.prometheus_api`)
``/grafana/api/...``, ``/tempo/api/...``    Grafana- and Tempo-shaped dashboard and trace
                                            read APIs (:mod:`.observability_http`)
``/v1/...``                                 refused (403); with an agent's token, audited as
                                            that agent's attempt on the harness
                                            (:func:`.serving.record_denied_call`)
anything else (``/metrics``, ``/swagger``  a Kubernetes 404 ``Status``, audited as no action
...)
==========================================  ==================================================

Each environment's URLs carry its address (``/env/<address>/...``). Every request passes
:class:`.gate.ListenerGate` first: it needs the environment's bearer token, refuses
impersonation, bounds the body, and audits every request in the environment it was
addressed to, before authentication (issue 25 item 2).
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import AsyncExitStack, asynccontextmanager
from typing import Any

import anyio
from starlette.applications import Starlette
from starlette.middleware import Middleware
from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import Mount, Route
from starlette.types import ASGIApp, Receive, Scope, Send

from ..kubeapi import create_kube_app
from ..kubeapi.errors import not_found_path
from ..web.guards import DEFAULT_MAX_BODY_BYTES, asgi_lifespan
from .gate import KUBE_PREFIXES, ListenerGate, is_control, is_kube_path, is_mcp_request
from .observability_http import create_grafana_app, create_tempo_app
from .prometheus import create_prometheus_app
from .routes import GRAFANA_PATH, MCP_PATH, PROMETHEUS_PATH, TEMPO_PATH
from .unrouted import bounded_body, deny_unrouted, load_mcp_app


class AgentDispatch:
    """Pure ASGI middleware: Kubernetes API paths go to the kube app with their scope untouched
    (a Mount would strip the prefix), MCP requests at ``/`` to the MCP app; the rest to the
    routes of the listener."""

    def __init__(self, app: ASGIApp, mcp: ASGIApp, kube: ASGIApp) -> None:
        self.app, self.mcp, self.kube = app, mcp, kube

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] in ("http", "websocket"):  # kubectl exec speaks WebSocket
            path = scope.get("path", "")
            if scope["type"] == "http" and path == "/" and is_mcp_request(scope):
                await self.mcp(scope, receive, send)
                return
            if path == "/" or is_kube_path(path):
                await self.kube(scope, receive, send)
                return
        await self.app(scope, receive, send)


def create_agent_app(
    provider: Any, *, max_body_bytes: int = DEFAULT_MAX_BODY_BYTES, serve_kube: bool = False
) -> Starlette:
    """The agent listener over ``provider``'s environments (see the module docstring).
    ``serve_kube``: its lifespan also runs the Kubernetes API's loopback TLS listener
    (``provider.serve_kube``), whose URL and certificate provision then hands out
    (``oasis provider serve``: kubectl sends its token only over https)."""
    mcp_app = load_mcp_app(provider)
    if mcp_app is None:
        raise RuntimeError("oasis_sim_k8s.servers.mcp.create_mcp_app is not available")
    agent_mcp = mcp_app
    kube = create_kube_app(provider)
    surfaces: Any = mcp_app  # the MCP app's tool surfaces (one per environment and user)
    prometheus = create_prometheus_app(surfaces.surface_for)
    grafana = create_grafana_app(surfaces.surface_for)
    tempo = create_tempo_app(surfaces.surface_for)

    @asynccontextmanager
    async def lifespan(_app: Starlette) -> AsyncIterator[dict[str, Any]]:
        state: dict[str, Any] = {}
        async with AsyncExitStack() as stack:
            await stack.enter_async_context(asgi_lifespan(agent_mcp, state))
            await stack.enter_async_context(asgi_lifespan(kube, state))
            if serve_kube:
                await anyio.to_thread.run_sync(provider.serve_kube)
                stack.callback(provider.stop_kube)
            yield state

    async def refuse(request: Request, exc: Exception) -> Response:
        path = request.url.path
        if is_control(path):
            return deny_unrouted(  # the runner's API asked of the agent's listener
                provider, request, await bounded_body(request), 404, f"no such endpoint: {path}"
            )
        return not_found_path(path)  # what an API server answers a path it does not serve

    # exactly /mcp (the advertised endpoint): /mcp/<anything> is refused like any other path
    app = Starlette(
        routes=[
            Route(MCP_PATH, endpoint=mcp_app),
            Mount(PROMETHEUS_PATH, app=prometheus),
            Mount(GRAFANA_PATH, app=grafana),
            Mount(TEMPO_PATH, app=tempo),
        ],
        lifespan=lifespan,
        middleware=[
            Middleware(ListenerGate, provider=provider, max_bytes=max_body_bytes),
            Middleware(AgentDispatch, mcp=mcp_app, kube=kube),
        ],
        exception_handlers={404: refuse, 405: refuse},
    )
    app.router.redirect_slashes = False
    app.state.provider = provider
    app.state.kube_api = kube is not None
    return app


__all__ = ["KUBE_PREFIXES", "create_agent_app", "is_kube_path"]
