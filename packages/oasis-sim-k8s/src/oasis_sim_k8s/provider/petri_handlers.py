"""The handlers of petri's ``/v1`` provider API (:mod:`.petri_api`; spec 08 §3.8, interop
notes §2): one :class:`PetriApi` per app holds the provider, the runner token, the request
ledger and the hostile-input bounds, and answers each call as the wire says."""

from __future__ import annotations

import contextlib
import json
import secrets
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import asynccontextmanager
from typing import Any

import anyio
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import BaseRoute, Route
from starlette.types import ASGIApp

from oasis_eval.contract import ProviderFault

from ..injection.inject import InjectionError
from ..servers.routes import MCP_PATH
from ..servers.unrouted import bounded_body, deny_unrouted
from ..web.guards import (
    ANONYMOUS,
    BodyTooLarge,
    RequestLedger,
    asgi_lifespan,
    bearer,
    environment_id_of,
    record_denied_call,
)
from ..web.wire import (
    WireError,
    _json_type,
    _optional,
    _require,
    _resource_ref,
    audit_data_to_wire,
    provision_request_from_wire,
    state_entry_from_wire,
)
from .capture_wire import PARTS_MEDIA, capture_answer, parts_body
from .lean_wire import (
    PROVISION_SNAPSHOT,
    SERVED_WITH_AUDIT,
    LeanState,
    accepted_of,
    audit_answer,
    snapshot_answer,
)
from .simk8s import SimK8sProvider

API_PREFIX = "/v1"
OBSERVATION_TYPES = ("audit_log", "resource_state", "state_diff", "served_calls")
#: the text SimK8sProvider puts in a fault it injected on purpose
INJECTED_MARK = "injected provider fault"
MAX_REQUEST_ID = 200


class PetriApi:
    """The ``/v1`` calls over one provider (the settings are :func:`.petri_api.create_app`'s)."""

    def __init__(
        self,
        provider: SimK8sProvider,
        *,
        runner_token: str | None,
        mcp_app: ASGIApp | None,
        agent_url: str | None,
        base_url: str | None,
        retry_after_seconds: float | None,
        teardown_in_progress: bool,
        max_state_entries: int,
        idle_ttl: float | None,
    ) -> None:
        self.provider = provider
        self.runner_token = runner_token
        self.mcp_app = mcp_app
        self.agent_url = agent_url
        self.base_url = base_url
        self.retry_after_seconds = retry_after_seconds
        self.teardown_in_progress = teardown_in_progress
        self.max_state_entries = max_state_entries
        self.idle_ttl = idle_ttl
        self.pending_teardown: set[str] = set()
        self.ledger = RequestLedger()
        #: the leaner wire's state of each environment whose provision offered it (.lean_wire)
        self.lean: dict[str, LeanState] = {}

    def routes(self) -> list[BaseRoute]:
        """The ``/v1`` routes and ``/healthz``."""
        return [
            Route(f"{API_PREFIX}/conformance", self.endpoint(self.conformance), methods=["GET"]),
            Route(f"{API_PREFIX}/provision", self.endpoint(self.provision), methods=["POST"]),
            Route(
                f"{API_PREFIX}/state-snapshot", self.endpoint(self.state_snapshot), methods=["POST"]
            ),
            Route(f"{API_PREFIX}/inject-state", self.endpoint(self.inject_state), methods=["POST"]),
            Route(f"{API_PREFIX}/observe", self.endpoint(self.observe), methods=["POST"]),
            Route(f"{API_PREFIX}/capture", self.endpoint(self.capture), methods=["POST"]),
            Route(f"{API_PREFIX}/teardown", self.endpoint(self.teardown), methods=["POST"]),
            Route("/healthz", self.healthz, methods=["GET"]),
        ]

    async def authorize(self, request: Request) -> None:
        """The runner's token passes; an agent's token or a wrong one is refused (403/401) and,
        when it names an environment, recorded in its audit log (core §3.6)."""
        given = bearer(request.headers)
        if (
            given
            and self.runner_token
            and secrets.compare_digest(given.encode(), self.runner_token.encode())
        ):
            return
        hit = self.provider.authenticate(given) if given else None
        if hit is None and self.runner_token is None:
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
        if env_id is not None and env_id in self.provider.envs:
            record_denied_call(
                self.provider.envs[env_id],
                ANONYMOUS,
                request.method,
                request.url.path,
                env_id,
                agent=False,
            )
        raise WireError(401, "missing or wrong bearer token for the sim-k8s runner API")

    async def json_body(self, request: Request) -> dict[str, Any]:
        """The request body as a JSON object, or a 400 saying what it is instead."""
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

    def bounded(self, entries: Any, label: str) -> None:
        """A list over the state-entry bound is a 413 naming the field and the bound."""
        if isinstance(entries, list) and len(entries) > self.max_state_entries:
            raise WireError(
                413,
                f"`{label}` has {len(entries)} entries; this server accepts at most "
                f"{self.max_state_entries} (oasis provider serve --max-state-entries)",
                limit_entries=self.max_state_entries,
            )

    def environment_id(self, body: dict[str, Any]) -> str:
        """The body's ``environment_id``, which must name a live environment (else 404)."""
        env_id = _require(body, "environment_id", str)
        if env_id not in self.provider.envs:
            raise WireError(404, f"environment {env_id} not found")
        return env_id

    async def drop(self, env_id: str) -> None:
        """Tear an environment down and forget its ledger and teardown marks."""
        self.ledger.forget(env_id)
        self.pending_teardown.discard(env_id)
        self.lean.pop(env_id, None)
        if env_id in self.provider.envs:
            await self.provider.teardown(env_id)

    async def reap(self) -> None:
        """Tear down the environments idle longer than the idle TTL."""
        for env_id in self.provider.idle(self.idle_ttl) if self.idle_ttl else []:
            await self.drop(env_id)

    def endpoint(
        self,
        fn: Callable[[Request], Awaitable[Response]],
    ) -> Callable[[Request], Awaitable[Response]]:
        """A ``/v1`` handler wrapped: idle reaping, authorization, and every error as a wire
        error (never a bare 500 page)."""

        async def handle(request: Request) -> Response:
            try:
                await self.reap()
                await self.authorize(request)
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

    def fault_status(self, exc: ProviderFault, default: int) -> WireError:
        """A provider fault as its wire error: 422 naming the state entry, 404 for an unknown
        environment, else ``default``."""
        message = str(exc)
        cause = exc.__cause__
        if isinstance(cause, InjectionError):
            return WireError(
                422, message, entry=cause.index, resource=cause.resource, keys=cause.keys
            )
        if "not found" in message:
            return WireError(404, message)
        return WireError(default, message)

    async def conformance(self, request: Request) -> Response:
        """``GET /v1/conformance?profile=<id>``: the provider's declaration (spec 04 §2.2)."""
        profile_id = request.query_params.get("profile")
        if not profile_id:
            raise WireError(
                400, "query parameter `profile` is required (GET /v1/conformance?profile=<id>)"
            )
        answer = await self.provider.conformance(profile_id)
        return JSONResponse(answer.model_dump(mode="json"))

    async def provision(self, request: Request) -> Response:
        """``POST /v1/provision``: a new environment and the agent's hand-off; an abandoned
        request id provisions nothing (409)."""
        body = await self.json_body(request)
        request_id = _optional(body, "request_id", str, None)
        if request_id is not None and not 0 < len(request_id) <= MAX_REQUEST_ID:
            raise WireError(400, f"`request_id` must be 1 to {MAX_REQUEST_ID} characters")
        environment = body.get("environment")
        self.bounded(
            environment.get("state") if isinstance(environment, dict) else None, "environment.state"
        )
        self.bounded(body.get("stimuli"), "stimuli")
        req = provision_request_from_wire(body)
        if self.ledger.is_abandoned(request_id):
            self.ledger.abandoned.pop(str(request_id), None)
            raise WireError(
                409,
                f"provision request {request_id} was abandoned by the runner; nothing provisioned",
            )
        try:
            result = await self.provider.provision(req)
        except ProviderFault as exc:
            if INJECTED_MARK in str(exc):
                if self.retry_after_seconds is None:
                    raise WireError(500, str(exc), reason=INJECTED_MARK) from None
                raise WireError(
                    502,
                    str(exc),
                    reason=INJECTED_MARK,
                    retry_after_seconds=self.retry_after_seconds,
                ) from None
            raise self.fault_status(exc, 422) from None
        if self.ledger.completed(request_id, result.environment_id):
            await self.drop(result.environment_id)
            raise WireError(
                409,
                f"provision request {request_id} was abandoned by the runner; "
                "its environment was torn down",
            )
        answer = result.model_dump(mode="json")
        if self.agent_url is not None:  # petri's hand-off: the API server URL and a kubeconfig
            host = request.url.hostname or "127.0.0.1"
            root = self.agent_url.replace("{host}", f"[{host}]" if ":" in host else host)
            answer["agent_endpoint"], answer["agent_credentials"] = self.provider.hand_off(
                result.environment_id, root
            )
        elif self.mcp_app is not None:
            root = (self.base_url or str(request.base_url)).rstrip("/")
            answer["agent_endpoint"] = f"{root}{MCP_PATH}"
        if not answer.get("unestablished"):
            answer.pop("unestablished", None)
        accepted = accepted_of(body)
        if accepted is not None:  # offered: the answer names what is accepted (maybe nothing)
            answer["wire_extensions"] = sorted(accepted)
            if accepted:
                self.lean[result.environment_id] = LeanState(accepted)
            if PROVISION_SNAPSHOT in accepted and not answer.get("unestablished"):
                answer["state_snapshot"] = await self.whole_snapshot(result.environment_id, None)
        return JSONResponse({"status": "ready", **answer})

    async def state_snapshot(self, request: Request) -> Response:
        """``POST /v1/state-snapshot``: the named resources (or all) as they are now."""
        body = await self.json_body(request)
        env_id = self.environment_id(body)
        refs = _optional(body, "resources", list, [])
        self.bounded(refs, "resources")
        if not refs:
            return JSONResponse(await self.whole_snapshot(env_id, body.get("since")))
        snap = await self.provider.snapshot(env_id, [_resource_ref(r) for r in refs])
        return JSONResponse(snap.model_dump(mode="json"))

    async def whole_snapshot(self, env_id: str, since: Any) -> dict[str, Any]:
        """A whole snapshot's wire answer: a base, or a delta ``since`` one (.lean_wire)."""
        snap = await self.provider.snapshot(env_id, None)
        return snapshot_answer(self.lean.get(env_id), since, snap.model_dump(mode="json"))

    async def inject_state(self, request: Request) -> Response:
        """``POST /v1/inject-state``: apply state entries (and inject-state stimuli) mid-run."""
        body = await self.json_body(request)
        env_id = self.environment_id(body)
        state = _require(body, "state", list)
        self.bounded(state, "state")
        try:
            await self.provider.inject_state(env_id, [state_entry_from_wire(e) for e in state])
        except ProviderFault as exc:
            raise self.fault_status(exc, 422) from None
        return JSONResponse({"status": "applied"})

    async def observe(self, request: Request) -> Response:
        """``POST /v1/observe``: one observation, independent of the agent (audit log, resource
        state, state diff, served calls)."""
        body = await self.json_body(request)
        env_id = self.environment_id(body)
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
        lean = self.lean.get(env_id)
        served = None
        folded = lean is not None and SERVED_WITH_AUDIT in lean.accepted
        if kind == "audit_log" and body.get("served_calls") is True and folded:
            served = await self.observed(env_id, "served_calls", params)  # the record first
        wire = await self.observed(env_id, kind, params)
        if served is not None:
            wire["served_calls"] = served
        return JSONResponse(wire)

    async def capture(self, request: Request) -> Response:
        """``POST /v1/capture``: what the runner reads after the agent, in one exchange (for an
        environment that accepted ``oasis-capture``: :mod:`.capture_wire`)."""
        body = await self.json_body(request)
        answer = await capture_answer(self, self.environment_id(body), body)
        if PARTS_MEDIA in request.headers.get("accept", ""):  # each data its own text
            return Response(parts_body(answer), media_type=PARTS_MEDIA)
        return JSONResponse(answer)

    async def observed(self, env_id: str, kind: str, params: dict[str, Any]) -> dict[str, Any]:
        """One observation's wire answer (an audit log in petri's shape or, when the
        environment accepted it, with its bodies by reference: .lean_wire)."""
        try:
            answer = await self.provider.observe(
                env_id, kind, {k: v for k, v in params.items() if v is not None}
            )
        except ProviderFault as exc:
            raise self.fault_status(exc, 502) from None
        except ValueError as exc:
            raise WireError(400, f"bad {kind} parameters: {exc}") from None
        wire = answer.model_dump(mode="json")
        if kind == "audit_log" and not audit_answer(self.lean.get(env_id), answer.data, wire):
            wire["data"] = audit_data_to_wire(wire.get("data"))
        return wire

    async def teardown(self, request: Request) -> Response:
        """``POST /v1/teardown``: by environment id, or by the request id of a provision the
        runner abandoned."""
        body = await self.json_body(request)
        if body.get("environment_id") is None and body.get("request_id") is not None:
            request_id = _require(body, "request_id", str)
            env_id = self.ledger.abandon(request_id)
            if env_id is not None and env_id in self.provider.envs:
                await self.drop(env_id)
                return JSONResponse({"status": "destroyed", "environment_id": env_id})
            return JSONResponse({"status": "abandoned", "request_id": request_id})
        env_id = self.environment_id(body)
        if self.teardown_in_progress and env_id not in self.pending_teardown:
            self.pending_teardown.add(env_id)
            return JSONResponse(
                {"status": "in_progress", "estimated_remaining_seconds": 1}, status_code=202
            )
        await self.drop(env_id)
        return JSONResponse({"status": "destroyed"})

    async def healthz(self, request: Request) -> Response:
        """``GET /healthz``: liveness, and where MCP is mounted."""
        return JSONResponse(
            {
                "status": "ok",
                "provider": self.provider.name,
                "mcp": MCP_PATH if self.mcp_app is not None else None,
            }
        )

    async def reaper(self) -> None:
        """Reap idle environments in the background while the app runs."""
        while self.idle_ttl:
            await anyio.sleep(max(1.0, min(self.idle_ttl / 4, 60.0)))
            with contextlib.suppress(Exception):
                await self.reap()

    @asynccontextmanager
    async def lifespan(self, _app: Starlette) -> AsyncIterator[dict[str, Any]]:
        """The app's lifespan: the reaper, and the mounted MCP app's own lifespan."""
        state: dict[str, Any] = {}
        async with anyio.create_task_group() as tg:
            tg.start_soon(self.reaper)
            if self.mcp_app is not None:
                async with asgi_lifespan(self.mcp_app, state):
                    yield state
            else:
                yield state
            tg.cancel_scope.cancel()

    async def not_found(self, request: Request, exc: Exception) -> Response:
        """An unknown path: refused, and recorded when an agent's token asked
        (:func:`..servers.unrouted.deny_unrouted`)."""
        return deny_unrouted(
            self.provider,
            request,
            await bounded_body(request),
            404,
            f"no such endpoint: {request.method} {request.url.path} "
            f"(the API lives under {API_PREFIX}/)",
        )

    async def not_allowed(self, request: Request, exc: Exception) -> Response:
        """A method the path does not take: refused like an unknown path."""
        return deny_unrouted(
            self.provider,
            request,
            await bounded_body(request),
            405,
            f"method {request.method} not allowed on {request.url.path}",
        )
