"""What every sim-k8s listener does with a request no route takes, and the MCP app it mounts
(core §3.6: a request an agent makes of the harness is refused and recorded as evidence).
Shared by petri's ``/v1`` API (:mod:`..provider.petri_api`) and the agent listener
(:mod:`.agent_app`); the provider is any object with ``authenticate(token)``."""

from __future__ import annotations

import importlib
from typing import Any

from starlette.requests import Request
from starlette.responses import Response
from starlette.types import ASGIApp

from ..web.guards import BodyTooLarge, bearer, environment_id_of, record_denied_call
from ..web.wire import WireError

MCP_MODULE = "oasis_sim_k8s.servers.mcp"


def load_mcp_app(provider: Any) -> ASGIApp | None:
    """The agent-facing MCP app from :mod:`.mcp`, or None while that module does not
    exist. An error inside an existing module propagates (it is a bug, not an absence)."""
    try:
        module = importlib.import_module(MCP_MODULE)
    except ModuleNotFoundError as exc:
        if exc.name == MCP_MODULE:
            return None
        raise
    factory = getattr(module, "create_mcp_app", None)
    if factory is None:
        return None
    return factory(provider)


def deny_unrouted(
    provider: Any, request: Request, raw: bytes, status: int, message: str
) -> Response:
    """An unknown path or method: with an agent's token it is an agent's attempt on the harness
    (recorded in its environment, 403); otherwise a plain 404/405."""
    given = bearer(request.headers)
    hit = provider.authenticate(given) if given else None
    if hit is None:
        return WireError(status, message).response()
    env, user = hit
    record_denied_call(
        env, user, request.method, request.url.path, environment_id_of(raw), agent=True
    )
    return WireError(
        403,
        f"{request.method} {request.url.path}: agent credentials open only the agent's "
        f"endpoints (Kubernetes API, MCP, Prometheus); this attempt was recorded in the "
        f"environment's audit log",
    ).response()


async def bounded_body(request: Request) -> bytes:
    """The request body, or nothing when it is over the size limit (for attributing a refusal)."""
    try:
        return await request.body()
    except BodyTooLarge:
        return b""
