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
POST /v1/teardown          ``{environment_id}``                                  200 ``{status: destroyed}``
                                                                                 (202 ``in_progress`` under
                                                                                 the teardown fault)
GET  /healthz              —                                                     ``{status: ok}``
=========================  ====================================================  ==========================

State entries are accepted in petri's wire shape (``kind`` + ``name``, top-level
``namespace/zone/labels/annotations/data``, everything else under ``spec``) and in the
scenario shape (``resource: kind/name``). Observation types: ``audit_log``,
``resource_state``, ``state_diff`` and ``served_calls`` (the calls served to the agent,
``{calls: [...]}``, offered by provision's ``served_calls: true``). ``agent.principal`` defaults to
``oasis-agent``; ``stimuli`` (tool_output_injection, temporal_condition) become the
provider's stimuli.

Errors are ``{status: "error", message, error}`` (``error`` repeats the message, as petri
does): 400 malformed request (bad JSON, a missing or mistyped field), 401 without the
runner token, 404 unknown environment (``environment <id> not found``), 422 a request
the provider cannot honour (an :class:`InjectionError` names the state entry; wrong
environment type; tier too high), 502 an injected provision failure with
``retry_after_seconds`` (the runner retries), or an injected observe failure (no retry
hint), 500 a bug in this server.

The agent-facing MCP endpoint (:mod:`.mcp_server`, when present) is mounted at ``/mcp``;
provision's ``agent_endpoint`` then is ``<base_url>/mcp`` and the environment's bearer
token (``agent_credentials.token``) authenticates the agent there. The runner token
(``token=``) guards ``/v1`` only.

All provider calls run on the event loop (they are short and CPU-bound), so the runner
API and the MCP endpoint never touch one environment concurrently.
"""

from __future__ import annotations

import importlib
import json
import secrets
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import asynccontextmanager
from typing import Any

import anyio
from pydantic import ValidationError
from starlette.applications import Starlette
from starlette.middleware import Middleware
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import BaseRoute, Mount, Route
from starlette.types import ASGIApp, Receive, Scope, Send

from ..engine.protocols import ProviderFault, ProvisionRequest
from .inject import InjectionError
from .provider import SimK8sProvider

API_PREFIX = "/v1"
MCP_PATH = "/mcp"
DEFAULT_PRINCIPAL = "oasis-agent"
OBSERVATION_TYPES = ("audit_log", "resource_state", "state_diff", "served_calls")
#: the text SimK8sProvider puts in a fault it injected on purpose
INJECTED_MARK = "injected provider fault"
MCP_MODULE = "oasis_eval.sim_k8s.mcp_server"

__all__ = ["API_PREFIX", "MCP_PATH", "WireError", "create_app", "load_mcp_app", "provision_request_from_wire",
           "state_entry_from_wire"]


class WireError(Exception):
    """An error answer: HTTP ``status`` with ``{status: error, message, error, **extra}``."""

    def __init__(self, status: int, message: str, **extra: Any) -> None:
        super().__init__(message)
        self.status, self.message, self.extra = status, message, extra

    def response(self) -> JSONResponse:
        body = {"status": "error", "message": self.message, "error": self.message, **self.extra}
        headers = {"WWW-Authenticate": "Bearer"} if self.status == 401 else None
        return JSONResponse(body, status_code=self.status, headers=headers)


# ---- wire -> protocol ------------------------------------------------------------------


def state_entry_from_wire(entry: Any) -> Any:
    """A wire state entry back to the scenario shape (``resource: kind/name``, ``spec`` keys
    lifted to the top level); scenario-shaped entries and non-mappings pass unchanged
    (the provider reports the latter as an :class:`InjectionError` naming the entry)."""
    if not isinstance(entry, dict) or "resource" in entry:
        return entry
    spec = entry.get("spec")
    if "kind" not in entry and not isinstance(spec, dict):
        return entry
    out: dict[str, Any] = {}
    kind, name = entry.get("kind"), entry.get("name")
    if kind not in (None, ""):
        out["resource"] = f"{kind}/{name}" if name not in (None, "") else str(kind)
    elif name not in (None, ""):
        out["name"] = name
    for key, value in entry.items():
        if key not in ("kind", "name", "spec"):
            out[key] = value
    if isinstance(spec, dict):
        out.update(spec)
    elif spec is not None:
        out["spec"] = spec
    return out


def _require(body: dict[str, Any], key: str, kind: type | tuple[type, ...], where: str = "") -> Any:
    value = body.get(key)
    label = f"{where}{key}"
    if value is None:
        raise WireError(400, f"`{label}` is required")
    if not isinstance(value, kind) or isinstance(value, bool) and kind is not bool:
        expected = kind.__name__ if isinstance(kind, type) else " or ".join(k.__name__ for k in kind)
        raise WireError(400, f"`{label}` must be a {_json_type(expected)}, not {_json_type(type(value).__name__)}")
    return value


def _json_type(py: str) -> str:
    return {"str": "string", "int": "integer", "float": "number", "dict": "JSON object", "list": "JSON array",
            "bool": "boolean", "NoneType": "null"}.get(py, py)


def _optional(body: dict[str, Any], key: str, kind: type, default: Any, where: str = "") -> Any:
    return default if body.get(key) is None else _require(body, key, kind, where)


def _string_list(value: Any, label: str) -> list[str]:
    if value is None:
        return []
    if not isinstance(value, list) or not all(isinstance(x, (str, int, float)) and not isinstance(x, bool)
                                              for x in value):
        raise WireError(400, f"`{label}` must be a JSON array of strings")
    return [str(x) for x in value]


def provision_request_from_wire(body: dict[str, Any]) -> ProvisionRequest:
    """POST /v1/provision body -> :class:`ProvisionRequest` (WireError 400 when malformed)."""
    scenario_id = _require(body, "scenario_id", str)
    environment = _require(body, "environment", dict)
    env_type = _require(environment, "type", str, "environment.")
    state = _optional(environment, "state", list, [], "environment.")
    agent = _require(body, "agent", dict)
    mode = _require(agent, "mode", str, "agent.")
    tools = _string_list(agent.get("tools"), "agent.tools")
    principal = _optional(agent, "principal", str, DEFAULT_PRINCIPAL, "agent.") or DEFAULT_PRINCIPAL
    scope_in = _optional(agent, "scope", dict, {}, "agent.")
    scope = {str(k): _string_list(v, f"agent.scope.{k}") for k, v in scope_in.items() if v is not None}
    tier = _optional(body, "tier", int, 1)
    if tier < 1:
        raise WireError(400, f"`tier` must be 1, 2 or 3, not {tier}")
    stimuli = _optional(body, "stimuli", list, [])
    if not all(isinstance(s, dict) for s in stimuli):
        raise WireError(400, "`stimuli` must be a JSON array of objects")
    try:
        return ProvisionRequest(scenario_id=scenario_id, environment_type=env_type,
                                state=[state_entry_from_wire(e) for e in state], mode=mode, tools=tools,
                                scope=scope, principal=principal, tier=tier, provider_stimuli=list(stimuli))
    except ValidationError as exc:  # pragma: no cover - the checks above catch these first
        raise WireError(400, f"malformed provision request: {exc}") from exc


def _resource_ref(ref: Any) -> dict[str, Any]:
    if not isinstance(ref, dict):
        raise WireError(400, "`resources` must be a JSON array of objects ({kind, name, namespace})")
    entry = state_entry_from_wire(ref)
    if "resource" in entry and "kind" not in ref:
        kind, _, name = str(entry["resource"]).partition("/")
        return {"kind": kind, "name": ref.get("name", name), "namespace": ref.get("namespace")}
    return {"kind": ref.get("kind"), "name": ref.get("name"), "namespace": ref.get("namespace")}


# ---- the MCP endpoint ----------------------------------------------------------------------


def load_mcp_app(provider: SimK8sProvider) -> ASGIApp | None:
    """The agent-facing MCP app from :mod:`.mcp_server`, or None while that module does not
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


@asynccontextmanager
async def _asgi_lifespan(app: ASGIApp, state: dict[str, Any]) -> AsyncIterator[None]:
    """Run a mounted app's ASGI lifespan (Starlette does not propagate it into a Mount).
    An app that does not speak the lifespan protocol is simply used without one."""
    to_app, app_inbox = anyio.create_memory_object_stream[dict[str, Any]](4)
    app_outbox, from_app = anyio.create_memory_object_stream[dict[str, Any]](4)

    async def run() -> None:
        scope = {"type": "lifespan", "asgi": {"version": "3.0", "spec_version": "2.0"}, "state": state}
        try:
            await app(scope, app_inbox.receive, app_outbox.send)
        except Exception as exc:  # noqa: BLE001 - "lifespan not supported" per the ASGI spec
            await app_outbox.send({"type": "lifespan.unsupported", "message": f"{type(exc).__name__}: {exc}"})
        else:
            await app_outbox.send({"type": "lifespan.ended"})

    started = False
    async with anyio.create_task_group() as tg:
        tg.start_soon(run)
        await to_app.send({"type": "lifespan.startup"})
        message = await from_app.receive()
        if message["type"] == "lifespan.startup.failed":
            raise RuntimeError(f"the MCP app failed to start: {message.get('message', '')}")
        if message["type"] == "lifespan.startup.complete":
            started = True
            try:
                yield
            finally:
                await to_app.send({"type": "lifespan.shutdown"})
                with anyio.move_on_after(10):
                    await from_app.receive()
                tg.cancel_scope.cancel()
    if not started:
        yield


class _ExactMount:
    """Pure ASGI middleware: ``/mcp`` is served as ``/mcp/`` (no redirect for POST clients)."""

    def __init__(self, app: ASGIApp, prefix: str) -> None:
        self.app, self.prefix = app, prefix

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] in ("http", "websocket") and scope.get("path") == self.prefix:
            scope = dict(scope, path=self.prefix + "/", raw_path=(self.prefix + "/").encode())
        await self.app(scope, receive, send)


# ---- the app -----------------------------------------------------------------------------------


def create_app(provider: SimK8sProvider, *, token: str | None = None, base_url: str | None = None,
               retry_after_seconds: float | None = 1.0, teardown_in_progress: bool = False,
               mcp: bool | None = None) -> Starlette:
    """The ``/v1`` API over ``provider`` (see the module docstring).

    ``token``: when set, every ``/v1`` call needs ``Authorization: Bearer <token>``.
    ``base_url``: this server's external root, for ``agent_endpoint`` (default: from
    each request). ``retry_after_seconds``: the hint on an injected provision failure
    (502); None makes it a non-retryable 500. ``teardown_in_progress``: the first
    teardown of each environment answers 202 ``in_progress``. ``mcp``: mount the agent
    MCP endpoint at ``/mcp`` (None: when :mod:`.mcp_server` exists; True: require it).
    """
    mcp_app = load_mcp_app(provider) if mcp is not False else None
    if mcp and mcp_app is None:
        raise RuntimeError(f"{MCP_MODULE}.create_mcp_app is not available")
    pending_teardown: set[str] = set()

    def authorize(request: Request) -> None:
        if not token:
            return
        scheme, _, given = request.headers.get("authorization", "").partition(" ")
        if scheme.lower() != "bearer" or not secrets.compare_digest(given.strip().encode(), token.encode()):
            raise WireError(401, "missing or wrong bearer token for the sim-k8s runner API")

    async def json_body(request: Request) -> dict[str, Any]:
        raw = await request.body()
        if not raw.strip():
            raise WireError(400, "request body is empty; expected a JSON object")
        try:
            body = json.loads(raw)
        except (ValueError, UnicodeDecodeError) as exc:
            raise WireError(400, f"request body is not valid JSON: {exc}") from None
        if not isinstance(body, dict):
            raise WireError(400, f"request body must be a JSON object, not a JSON {_json_type(type(body).__name__)}")
        return body

    def environment_id(body: dict[str, Any]) -> str:
        env_id = _require(body, "environment_id", str)
        if env_id not in provider.envs:
            raise WireError(404, f"environment {env_id} not found")
        return env_id

    def endpoint(fn: Callable[[Request], Awaitable[Response]]) -> Callable[[Request], Awaitable[Response]]:
        async def handle(request: Request) -> Response:
            try:
                authorize(request)
                return await fn(request)
            except WireError as exc:
                return exc.response()
            except Exception as exc:  # noqa: BLE001 - a bug here: say so, never a bare 500 page
                return WireError(500, f"internal error in the sim-k8s server: {type(exc).__name__}: {exc}").response()

        handle.__name__ = fn.__name__
        return handle

    def fault_status(exc: ProviderFault, default: int) -> WireError:
        message = str(exc)
        cause = exc.__cause__
        if isinstance(cause, InjectionError):
            return WireError(422, message, entry=cause.index, resource=cause.resource, keys=cause.keys)
        if "not found" in message:
            return WireError(404, message)
        return WireError(default, message)

    async def conformance(request: Request) -> Response:
        profile_id = request.query_params.get("profile")
        if not profile_id:
            raise WireError(400, "query parameter `profile` is required (GET /v1/conformance?profile=<id>)")
        answer = await provider.conformance(profile_id)
        return JSONResponse(answer.model_dump(mode="json"))

    async def provision(request: Request) -> Response:
        req = provision_request_from_wire(await json_body(request))
        try:
            result = await provider.provision(req)
        except ProviderFault as exc:
            if INJECTED_MARK in str(exc):
                if retry_after_seconds is None:
                    raise WireError(500, str(exc), reason=INJECTED_MARK) from None
                raise WireError(502, str(exc), reason=INJECTED_MARK,
                                retry_after_seconds=retry_after_seconds) from None
            raise fault_status(exc, 422) from None
        answer = result.model_dump(mode="json")
        if mcp_app is not None:
            root = (base_url or str(request.base_url)).rstrip("/")
            answer["agent_endpoint"] = f"{root}{MCP_PATH}"
        if not answer.get("unestablished"):
            answer.pop("unestablished", None)
        return JSONResponse({"status": "ready", **answer})

    async def state_snapshot(request: Request) -> Response:
        body = await json_body(request)
        env_id = environment_id(body)
        refs = _optional(body, "resources", list, [])
        snap = await provider.snapshot(env_id, [_resource_ref(r) for r in refs] or None)
        return JSONResponse(snap.model_dump(mode="json"))

    async def inject_state(request: Request) -> Response:
        body = await json_body(request)
        env_id = environment_id(body)
        state = _require(body, "state", list)
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
            raise WireError(400, f"unsupported observation type {kind!r} (supported: {', '.join(OBSERVATION_TYPES)}; "
                                 "value containment is matched by the runner, not observed)")
        params = _optional(body, "parameters", dict, {})
        bad = sorted(k for k, v in params.items() if v is not None and not isinstance(v, str))
        if bad:
            raise WireError(400, f"observation parameters are strings; not a string: {', '.join(bad)}")
        try:
            answer = await provider.observe(env_id, kind, {k: v for k, v in params.items() if v is not None})
        except ProviderFault as exc:
            raise fault_status(exc, 502) from None
        except ValueError as exc:
            raise WireError(400, f"bad {kind} parameters: {exc}") from None
        return JSONResponse(answer.model_dump(mode="json"))

    async def teardown(request: Request) -> Response:
        body = await json_body(request)
        env_id = environment_id(body)
        if teardown_in_progress and env_id not in pending_teardown:
            pending_teardown.add(env_id)
            return JSONResponse({"status": "in_progress", "estimated_remaining_seconds": 1}, status_code=202)
        pending_teardown.discard(env_id)
        await provider.teardown(env_id)
        return JSONResponse({"status": "destroyed"})

    async def healthz(request: Request) -> Response:
        return JSONResponse({"status": "ok", "provider": provider.name, "environments": len(provider.envs),
                             "mcp": MCP_PATH if mcp_app is not None else None})

    routes: list[BaseRoute] = [
        Route(f"{API_PREFIX}/conformance", endpoint(conformance), methods=["GET"]),
        Route(f"{API_PREFIX}/provision", endpoint(provision), methods=["POST"]),
        Route(f"{API_PREFIX}/state-snapshot", endpoint(state_snapshot), methods=["POST"]),
        Route(f"{API_PREFIX}/inject-state", endpoint(inject_state), methods=["POST"]),
        Route(f"{API_PREFIX}/observe", endpoint(observe), methods=["POST"]),
        Route(f"{API_PREFIX}/teardown", endpoint(teardown), methods=["POST"]),
        Route("/healthz", healthz, methods=["GET"]),
    ]
    middleware: list[Middleware] = []
    lifespan = None
    if mcp_app is not None:
        routes.append(Mount(MCP_PATH, app=mcp_app))
        middleware.append(Middleware(_ExactMount, prefix=MCP_PATH))

        @asynccontextmanager
        async def lifespan(_app: Starlette) -> AsyncIterator[dict[str, Any]]:
            state: dict[str, Any] = {}
            async with _asgi_lifespan(mcp_app, state):
                yield state

    async def not_found(request: Request, exc: Exception) -> Response:
        return WireError(404, f"no such endpoint: {request.method} {request.url.path} "
                              f"(the API lives under {API_PREFIX}/)").response()

    async def not_allowed(request: Request, exc: Exception) -> Response:
        return WireError(405, f"method {request.method} not allowed on {request.url.path}").response()

    app = Starlette(routes=routes, middleware=middleware, lifespan=lifespan,
                    exception_handlers={404: not_found, 405: not_allowed})
    app.state.provider = provider
    app.state.mcp_mounted = mcp_app is not None
    return app
