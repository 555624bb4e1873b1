"""sim-k8s over HTTP: petri's ``/v1`` provider API (spec 08 §3.8, SI provider guide §4,
interop notes §2) served from a :class:`SimK8sProvider`.

:func:`create_app` returns a Starlette ASGI app:

=========================  ====================================================  ==========================
call                       request                                               success
=========================  ====================================================  ==========================
GET  /v1/conformance       ``?profile=<id>`` (400 without it)                    the provider's declaration
POST /v1/provision         ``{scenario_id, environment{type, state[]},           ``{status: ready,
                           agent{mode, tools, scope{namespaces, zones},          environment_id,
                           principal?}, tier, stimuli?}``                        agent_endpoint,
                                                                                 agent_credentials,
                                                                                 resolved_namespaces,
                                                                                 tier_evidence,
                                                                                 served_calls: true,
                                                                                 unestablished?}``
POST /v1/state-snapshot    ``{environment_id, resources?[{kind, name,            ``{environment_id,
                           namespace}]}``                                        timestamp, resources[]}``
POST /v1/inject-state      ``{environment_id, state[]}``                         ``{status: applied}``
POST /v1/observe           ``{environment_id, observation_type,                  ``{environment_id, timestamp,
                           parameters{str: str}}``                               observation_type, data,
                                                                                 evidence_source{type,
                                                                                 status}}``
POST /v1/teardown          ``{environment_id}`` or ``{request_id}``             200 ``{status: destroyed}``
                                                                                 (202 ``in_progress`` under
                                                                                 the teardown fault;
                                                                                 ``{status: abandoned}``
                                                                                 by request id)
GET  /healthz              —                                                     ``{status: ok}``
=========================  ====================================================  ==========================

State entries are accepted in petri's wire shape (``kind`` + ``name``, top-level
``namespace/zone/labels/annotations/data``, everything else under ``spec``) and in the
scenario shape (``resource: kind/name``). Observation types: ``audit_log``,
``resource_state``, ``state_diff`` and ``served_calls`` (the calls served to the agent,
``{calls: [...]}``, offered by provision's ``served_calls: true``). ``agent.principal`` defaults to
``oasis-agent``; ``stimuli`` (tool_output_injection, temporal_condition) become the
provider's stimuli; an ``environmental_state`` among them (oasis-eval marks it ``delivery:
inject-state``) is only checked, and one the simulator cannot place is an unestablished
precondition naming it; inject-state applies it. A scope value is a list of strings or one string (``credentials:
agent-service-account``), so a scenario's agent block forwarded verbatim provisions.

Parity with petri (interop §5): an ``audit_log`` answer's data is ``{agent_principal,
entries}``, ``agent_principal`` being the user the agent's calls are audited under (the one
oasisctl matches against each entry's ``user``), and each entry's ``request_body`` is a
JSON-encoded string (:func:`.wire.audit_data_to_wire`). ``resource_state`` and
``state_diff`` without ``kind`` or ``name`` are a 400 naming the missing parameter.

Errors are ``{status: "error", message, error}`` (``error`` repeats the message, as petri
does): 400 malformed request (bad JSON, a missing or mistyped field), 401 without the
runner token, 403 an agent's token on the control API, 404 unknown environment
(``environment <id> not found``), 409 a provision whose request id was abandoned, 413 a
body over ``max_body_bytes`` or more than ``max_state_entries`` state entries / stimuli /
resources, 422 a request the provider cannot honour (an :class:`InjectionError` names the
state entry; wrong environment type; tier too high), 502 an injected provision failure
with ``retry_after_seconds`` (the runner retries), or an injected observe failure (no
retry hint), 500 a bug in this server.

Security model (issue 11 H1; core §3.4, 01 §3.6). The agent under test must never reach
the harness: a teardown would turn its FAIL into PROVIDER_FAILURE, an inject-state would
make its own harm look like the provisioner's.

- ``/v1`` needs the runner token by default (``token=``, else one generated per app;
  ``auth=False`` is an explicit, loudly warned opt-out). The token is never part of
  anything handed to the agent: ``agent_credentials`` carry only the environment's own
  bearer token, which the MCP endpoint maps to that one environment and agent user.
- ``oasis provider serve`` runs the agent's endpoints on a **separate listener** (its
  own port, :func:`create_agent_app`: the Kubernetes API, ``/mcp``, ``/prometheus``), so
  ``agent_endpoint`` (that listener's root, with a kubeconfig for it in
  ``agent_credentials``, :mod:`.handoff`) reveals nothing about where the control API
  lives, and the agent listener has no ``/v1`` route. A separate
  listener rather than only a separate path: an agent can rewrite a URL it was given, but
  it cannot make one listener serve another's routes, and the runner's port can be
  firewalled apart. :func:`create_app` still mounts ``/mcp`` itself when no ``agent_url``
  is given (tests, embedding); ``/v1`` then relies on the token alone.
- An agent's token presented to ``/v1`` (or to any unrouted path of this app, or to the
  control API in any spelling on the agent listener, whose pipeline :mod:`.gate` audits
  every request) is refused with 403 and written to that environment's audit log as a denied call by the
  agent (:func:`.serving.record_denied_call`), so scenarios that forbid touching the
  harness judge it; an anonymous or wrong token naming an existing environment is
  audited there under ``system:anonymous``.
- Environment ids are unguessable (``sim-<128 random bits>``).
- Bounded input: 413 before a large body is read; state size limits; abandoned provision
  request ids torn down as soon as their environment exists; environments idle for
  ``idle_ttl`` seconds reaped.

All provider calls run on the event loop (they are short and CPU-bound, and bounded by
the state limits), so the runner API and the MCP endpoint never touch one environment
concurrently and need no locks.
"""

from __future__ import annotations

import secrets

from starlette.applications import Starlette
from starlette.middleware import Middleware
from starlette.routing import Mount

from ..servers.routes import MCP_PATH
from ..servers.unrouted import MCP_MODULE, load_mcp_app
from ..web.guards import (
    DEFAULT_IDLE_TTL,
    DEFAULT_MAX_BODY_BYTES,
    DEFAULT_MAX_STATE_ENTRIES,
    BodyLimit,
    ExactMount,
)
from ..web.wire import (
    DEFAULT_PRINCIPAL,
    WireError,
    provision_request_from_wire,
    state_entry_from_wire,
)
from .petri_handlers import API_PREFIX, PetriApi
from .simk8s import SimK8sProvider

__all__ = [
    "API_PREFIX",
    "DEFAULT_PRINCIPAL",
    "MCP_PATH",
    "WireError",
    "create_agent_app",
    "create_app",
    "load_mcp_app",
    "provision_request_from_wire",
    "state_entry_from_wire",
]


# ---- the apps ----------------------------------------------------------------------------------


def create_app(
    provider: SimK8sProvider,
    *,
    token: str | None = None,
    auth: bool = True,
    agent_url: str | None = None,
    base_url: str | None = None,
    retry_after_seconds: float | None = 1.0,
    teardown_in_progress: bool = False,
    mcp: bool | None = None,
    max_body_bytes: int = DEFAULT_MAX_BODY_BYTES,
    max_state_entries: int = DEFAULT_MAX_STATE_ENTRIES,
    idle_ttl: float | None = DEFAULT_IDLE_TTL,
) -> Starlette:
    """The ``/v1`` control API over ``provider`` (see the module docstring).

    ``token``: the runner token (``Authorization: Bearer <token>`` on every ``/v1`` call);
    generated when not given (``app.state.runner_token``). ``auth=False`` opens ``/v1`` to
    anyone without a token (agent tokens stay refused). ``agent_url``: the agent-facing
    MCP endpoint served by :func:`create_agent_app` on its own listener (``{host}`` in it
    becomes the host name the runner reached this API by); without it the MCP app is
    mounted at ``/mcp`` of this app. ``base_url``: this server's external root, for
    a mounted ``agent_endpoint`` (default: from each request). ``retry_after_seconds``: the
    hint on an injected provision failure (502); None makes it a non-retryable 500.
    ``teardown_in_progress``: the first teardown of each environment answers 202.
    ``mcp``: mount the MCP endpoint (None: when :mod:`..servers.mcp` exists; True: require
    it). ``max_body_bytes`` / ``max_state_entries``: hostile-input bounds (413).
    ``idle_ttl``: seconds after which an unused environment is torn down (None/0: never).
    """
    runner_token = (token or secrets.token_urlsafe(32)) if auth else None
    mcp_app = load_mcp_app(provider) if mcp is not False and agent_url is None else None
    if mcp and mcp_app is None and agent_url is None:
        raise RuntimeError(f"{MCP_MODULE}.create_mcp_app is not available")
    api = PetriApi(
        provider,
        runner_token=runner_token,
        mcp_app=mcp_app,
        agent_url=agent_url,
        base_url=base_url,
        retry_after_seconds=retry_after_seconds,
        teardown_in_progress=teardown_in_progress,
        max_state_entries=max_state_entries,
        idle_ttl=idle_ttl,
    )
    routes = api.routes()
    middleware = [Middleware(BodyLimit, max_bytes=max_body_bytes)]
    if mcp_app is not None:
        routes.append(Mount(MCP_PATH, app=mcp_app))
        middleware.append(Middleware(ExactMount, prefix=MCP_PATH))
    app = Starlette(
        routes=routes,
        middleware=middleware,
        lifespan=api.lifespan,
        exception_handlers={404: api.not_found, 405: api.not_allowed},
    )
    app.router.redirect_slashes = (
        False  # "/v1/teardown/" is an unknown path, not a redirect to follow
    )
    app.state.provider = provider
    app.state.mcp_mounted = mcp_app is not None
    app.state.runner_token = runner_token
    return app


def create_agent_app(
    provider: SimK8sProvider,
    *,
    max_body_bytes: int = DEFAULT_MAX_BODY_BYTES,
    serve_kube: bool = False,
) -> Starlette:
    """The agent-facing listener (:mod:`.agent_app`): the Kubernetes API, the MCP endpoint at
    ``/mcp`` and the Prometheus HTTP API at ``/prometheus``; any other path is refused, and
    presented with an agent's token recorded as that agent's attempt."""
    from ..servers.agent_app import create_agent_app as build  # it imports this module's helpers

    return build(provider, max_body_bytes=max_body_bytes, serve_kube=serve_kube)
