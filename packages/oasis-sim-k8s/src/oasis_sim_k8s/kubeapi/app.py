"""The Kubernetes REST API over the simulator's environments (issue 16 item 1; interop §2-§3).

``create_kube_app(provider)`` is a Starlette app: ``Authorization: Bearer <token>`` selects
the environment and user (``provider.authenticate``, as the MCP endpoint does; otherwise
401 ``Status``), discovery and OpenAPI are answered here (:mod:`.discovery`), and every
resource request is one call of the environment's API server pipeline (:mod:`.calls`),
its answer shaped as the real API server shapes it (Tables, watch events, log text,
``Status`` errors). It routes on the path below its mount point, so it can be mounted
at ``/k8s`` next to ``/mcp`` or at the root.
"""

from __future__ import annotations

import logging
from typing import Any

from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import Route, WebSocketRoute

from ..web.guards import BodyTooLarge, bearer
from . import discovery, errors, verbs
from .calls import Caller, Invocations, invocation
from .exec import exec_endpoint
from .paths import parse, route_path

METHODS = ["GET", "POST", "PUT", "PATCH", "DELETE", "HEAD", "OPTIONS"]
KUBE_PREFIX = "/k8s"
_log = logging.getLogger(__name__)


class KubeApi:
    """Request handling shared by the HTTP and the WebSocket (exec) routes."""

    def __init__(self, provider: Any) -> None:
        self.provider = provider
        self.invocations = Invocations()

    def caller(self, headers: Any, client: Any = None) -> Caller | None:
        token = bearer(headers)
        hit = self.provider.authenticate(token) if token else None
        if hit is None:
            return None
        env, user = hit
        agent = headers.get("user-agent") or None
        return Caller(env, user, invocation(headers, agent, client), agent)

    async def handle(self, request: Request) -> Response:
        caller = self.caller(request.headers, request.scope.get("client"))
        if caller is None:
            return errors.unauthorized()
        path = route_path(request.scope)
        if request.method == "GET":
            answer = discovery.serve(path, request.headers.get("accept", ""))
            if answer is not None:
                return answer
        target = parse(path)
        if target is None:
            return errors.not_found_path(path)
        try:
            return await verbs.serve(self, caller, request, target)
        except BodyTooLarge as exc:  # a streamed body over the limit (a gate that did not buffer)
            return errors.failure(413, "RequestEntityTooLarge", str(exc))
        except Exception:  # noqa: BLE001 - a server fault answers as the API server's does
            _log.exception("kubeapi: %s %s failed", request.method, path)
            return errors.failure(
                500,
                "InternalError",
                'an error on the server ("") has prevented the request from succeeding',
            )


def create_kube_app(provider: Any) -> Starlette:
    """The Kubernetes API ASGI app over ``provider``'s environments (see the module doc)."""
    api = KubeApi(provider)
    routes = [
        WebSocketRoute("/{path:path}", exec_endpoint(api)),
        Route("/{path:path}", api.handle, methods=METHODS),
    ]
    app = Starlette(routes=routes)
    app.router.redirect_slashes = False
    app.state.kube = api
    return app


__all__ = ["KUBE_PREFIX", "KubeApi", "create_kube_app"]
