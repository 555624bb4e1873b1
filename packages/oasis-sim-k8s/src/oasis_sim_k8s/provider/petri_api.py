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

import contextlib
import json
import secrets
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import asynccontextmanager
from typing import Any

import anyio
from starlette.applications import Starlette
from starlette.middleware import Middleware
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import BaseRoute, Mount, Route

from oasis_eval.contract import ProviderFault

from ..injection.inject import InjectionError
from ..servers.routes import MCP_PATH
from ..servers.unrouted import MCP_MODULE, bounded_body, deny_unrouted, load_mcp_app
from ..web.guards import (
    ANONYMOUS,
    DEFAULT_IDLE_TTL,
    DEFAULT_MAX_BODY_BYTES,
    DEFAULT_MAX_STATE_ENTRIES,
    BodyLimit,
    BodyTooLarge,
    ExactMount,
    RequestLedger,
    asgi_lifespan,
    bearer,
    environment_id_of,
    record_denied_call,
)
from ..web.wire import (
    DEFAULT_PRINCIPAL,
    WireError,
    _json_type,
    _optional,
    _require,
    _resource_ref,
    audit_data_to_wire,
    provision_request_from_wire,
    state_entry_from_wire,
)
from .simk8s import SimK8sProvider

API_PREFIX = "/v1"
OBSERVATION_TYPES = ("audit_log", "resource_state", "state_diff", "served_calls")
#: the text SimK8sProvider puts in a fault it injected on purpose
INJECTED_MARK = "injected provider fault"
MAX_REQUEST_ID = 200

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
    pending_teardown: set[str] = set()
    ledger = RequestLedger()

    async def authorize(request: Request) -> None:
        given = bearer(request.headers)
        if given and runner_token and secrets.compare_digest(given.encode(), runner_token.encode()):
            return
        hit = provider.authenticate(given) if given else None
        if hit is None and runner_token is None:
            return  # --no-auth: anyone but an agent
        env_id = environment_id_of(await bounded_body(request))
        if hit is not None:
            env, user = hit
            record_denied_call(env, user, request.method, request.url.path, env_id, agent=True)
            raise WireError(
                403,
                "agent credentials cannot use the provider control API; this attempt was "
                "recorded in the environment's audit log",
            )
        if env_id is not None and env_id in provider.envs:
            record_denied_call(
                provider.envs[env_id],
                ANONYMOUS,
                request.method,
                request.url.path,
                env_id,
                agent=False,
            )
        raise WireError(401, "missing or wrong bearer token for the sim-k8s runner API")

    async def json_body(request: Request) -> dict[str, Any]:
        raw = await request.body()
        if not raw.strip():
            raise WireError(400, "request body is empty; expected a JSON object")
        try:
            body = json.loads(raw)
        except (ValueError, UnicodeDecodeError, RecursionError) as exc:
            raise WireError(
                400, f"request body is not valid JSON: {type(exc).__name__}: {exc}"
            ) from None
        if not isinstance(body, dict):
            raise WireError(
                400,
                f"request body must be a JSON object, not a JSON {_json_type(type(body).__name__)}",
            )
        return body

    def bounded(entries: Any, label: str) -> None:
        if isinstance(entries, list) and len(entries) > max_state_entries:
            raise WireError(
                413,
                f"`{label}` has {len(entries)} entries; this server accepts at most "
                f"{max_state_entries} (oasis provider serve --max-state-entries)",
                limit_entries=max_state_entries,
            )

    def environment_id(body: dict[str, Any]) -> str:
        env_id = _require(body, "environment_id", str)
        if env_id not in provider.envs:
            raise WireError(404, f"environment {env_id} not found")
        return env_id

    async def drop(env_id: str) -> None:
        ledger.forget(env_id)
        pending_teardown.discard(env_id)
        if env_id in provider.envs:
            await provider.teardown(env_id)

    async def reap() -> None:
        for env_id in provider.idle(idle_ttl) if idle_ttl else []:
            await drop(env_id)

    def endpoint(
        fn: Callable[[Request], Awaitable[Response]],
    ) -> Callable[[Request], Awaitable[Response]]:
        async def handle(request: Request) -> Response:
            try:
                await reap()
                await authorize(request)
                return await fn(request)
            except BodyTooLarge as exc:
                return WireError(413, str(exc), limit_bytes=exc.limit).response()
            except WireError as exc:
                return exc.response()
            except Exception as exc:  # noqa: BLE001 - a bug here: say so, never a bare 500 page
                return WireError(
                    500, f"internal error in the sim-k8s server: {type(exc).__name__}: {exc}"
                ).response()

        handle.__name__ = fn.__name__
        return handle

    def fault_status(exc: ProviderFault, default: int) -> WireError:
        message = str(exc)
        cause = exc.__cause__
        if isinstance(cause, InjectionError):
            return WireError(
                422, message, entry=cause.index, resource=cause.resource, keys=cause.keys
            )
        if "not found" in message:
            return WireError(404, message)
        return WireError(default, message)

    async def conformance(request: Request) -> Response:
        profile_id = request.query_params.get("profile")
        if not profile_id:
            raise WireError(
                400, "query parameter `profile` is required (GET /v1/conformance?profile=<id>)"
            )
        answer = await provider.conformance(profile_id)
        return JSONResponse(answer.model_dump(mode="json"))

    async def provision(request: Request) -> Response:
        body = await json_body(request)
        request_id = _optional(body, "request_id", str, None)
        if request_id is not None and not 0 < len(request_id) <= MAX_REQUEST_ID:
            raise WireError(400, f"`request_id` must be 1 to {MAX_REQUEST_ID} characters")
        environment = body.get("environment")
        bounded(
            environment.get("state") if isinstance(environment, dict) else None, "environment.state"
        )
        bounded(body.get("stimuli"), "stimuli")
        req = provision_request_from_wire(body)
        if ledger.is_abandoned(request_id):
            ledger.abandoned.pop(str(request_id), None)
            raise WireError(
                409,
                f"provision request {request_id} was abandoned by the runner; nothing provisioned",
            )
        try:
            result = await provider.provision(req)
        except ProviderFault as exc:
            if INJECTED_MARK in str(exc):
                if retry_after_seconds is None:
                    raise WireError(500, str(exc), reason=INJECTED_MARK) from None
                raise WireError(
                    502, str(exc), reason=INJECTED_MARK, retry_after_seconds=retry_after_seconds
                ) from None
            raise fault_status(exc, 422) from None
        if ledger.completed(request_id, result.environment_id):
            await drop(result.environment_id)
            raise WireError(
                409,
                f"provision request {request_id} was abandoned by the runner; "
                "its environment was torn down",
            )
        answer = result.model_dump(mode="json")
        if agent_url is not None:  # petri's hand-off: the API server URL and a kubeconfig
            host = request.url.hostname or "127.0.0.1"
            root = agent_url.replace("{host}", f"[{host}]" if ":" in host else host)
            answer["agent_endpoint"], answer["agent_credentials"] = provider.hand_off(
                result.environment_id, root
            )
        elif mcp_app is not None:
            root = (base_url or str(request.base_url)).rstrip("/")
            answer["agent_endpoint"] = f"{root}{MCP_PATH}"
        if not answer.get("unestablished"):
            answer.pop("unestablished", None)
        return JSONResponse({"status": "ready", **answer})

    async def state_snapshot(request: Request) -> Response:
        body = await json_body(request)
        env_id = environment_id(body)
        refs = _optional(body, "resources", list, [])
        bounded(refs, "resources")
        snap = await provider.snapshot(env_id, [_resource_ref(r) for r in refs] or None)
        return JSONResponse(snap.model_dump(mode="json"))

    async def inject_state(request: Request) -> Response:
        body = await json_body(request)
        env_id = environment_id(body)
        state = _require(body, "state", list)
        bounded(state, "state")
        try:
            await provider.inject_state(env_id, [state_entry_from_wire(e) for e in state])
        except ProviderFault as exc:
            raise fault_status(exc, 422) from None
        return JSONResponse({"status": "applied"})

    async def observe(request: Request) -> Response:
        body = await json_body(request)
        env_id = environment_id(body)
        kind = _require(body, "observation_type", str)
        if kind not in OBSERVATION_TYPES:
            raise WireError(
                400,
                f"unsupported observation type {kind!r} (supported: {', '.join(OBSERVATION_TYPES)}; "
                "value containment is matched by the runner, not observed)",
            )
        params = _optional(body, "parameters", dict, {})
        bad = sorted(k for k, v in params.items() if v is not None and not isinstance(v, str))
        if bad:
            raise WireError(
                400, f"observation parameters are strings; not a string: {', '.join(bad)}"
            )
        try:
            answer = await provider.observe(
                env_id, kind, {k: v for k, v in params.items() if v is not None}
            )
        except ProviderFault as exc:
            raise fault_status(exc, 502) from None
        except ValueError as exc:
            raise WireError(400, f"bad {kind} parameters: {exc}") from None
        wire = answer.model_dump(mode="json")
        if kind == "audit_log":
            wire["data"] = audit_data_to_wire(wire.get("data"))
        return JSONResponse(wire)

    async def teardown(request: Request) -> Response:
        body = await json_body(request)
        if body.get("environment_id") is None and body.get("request_id") is not None:
            request_id = _require(body, "request_id", str)
            env_id = ledger.abandon(request_id)
            if env_id is not None and env_id in provider.envs:
                await drop(env_id)
                return JSONResponse({"status": "destroyed", "environment_id": env_id})
            return JSONResponse({"status": "abandoned", "request_id": request_id})
        env_id = environment_id(body)
        if teardown_in_progress and env_id not in pending_teardown:
            pending_teardown.add(env_id)
            return JSONResponse(
                {"status": "in_progress", "estimated_remaining_seconds": 1}, status_code=202
            )
        await drop(env_id)
        return JSONResponse({"status": "destroyed"})

    async def healthz(request: Request) -> Response:
        return JSONResponse(
            {
                "status": "ok",
                "provider": provider.name,
                "mcp": MCP_PATH if mcp_app is not None else None,
            }
        )

    routes: list[BaseRoute] = [
        Route(f"{API_PREFIX}/conformance", endpoint(conformance), methods=["GET"]),
        Route(f"{API_PREFIX}/provision", endpoint(provision), methods=["POST"]),
        Route(f"{API_PREFIX}/state-snapshot", endpoint(state_snapshot), methods=["POST"]),
        Route(f"{API_PREFIX}/inject-state", endpoint(inject_state), methods=["POST"]),
        Route(f"{API_PREFIX}/observe", endpoint(observe), methods=["POST"]),
        Route(f"{API_PREFIX}/teardown", endpoint(teardown), methods=["POST"]),
        Route("/healthz", healthz, methods=["GET"]),
    ]
    middleware = [Middleware(BodyLimit, max_bytes=max_body_bytes)]
    if mcp_app is not None:
        routes.append(Mount(MCP_PATH, app=mcp_app))
        middleware.append(Middleware(ExactMount, prefix=MCP_PATH))

    async def reaper() -> None:
        while idle_ttl:
            await anyio.sleep(max(1.0, min(idle_ttl / 4, 60.0)))
            with contextlib.suppress(Exception):
                await reap()

    @asynccontextmanager
    async def lifespan(_app: Starlette) -> AsyncIterator[dict[str, Any]]:
        state: dict[str, Any] = {}
        async with anyio.create_task_group() as tg:
            tg.start_soon(reaper)
            if mcp_app is not None:
                async with asgi_lifespan(mcp_app, state):
                    yield state
            else:
                yield state
            tg.cancel_scope.cancel()

    async def not_found(request: Request, exc: Exception) -> Response:
        return deny_unrouted(
            provider,
            request,
            await bounded_body(request),
            404,
            f"no such endpoint: {request.method} {request.url.path} "
            f"(the API lives under {API_PREFIX}/)",
        )

    async def not_allowed(request: Request, exc: Exception) -> Response:
        return deny_unrouted(
            provider,
            request,
            await bounded_body(request),
            405,
            f"method {request.method} not allowed on {request.url.path}",
        )

    app = Starlette(
        routes=routes,
        middleware=middleware,
        lifespan=lifespan,
        exception_handlers={404: not_found, 405: not_allowed},
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
