"""A provider over HTTP: petri's ``/v1`` API (spec 08 §3.8, SI provider guide §4).

Wire-compatible with petri (see the project's interop notes §2):

- every path carries the ``/v1/`` prefix;
- provision translates the scenario's state entries to the wire shape
  (:func:`~.http_wire.wire_state_entry`);
- observation parameters are sent as strings (:func:`~.http_wire.wire_parameters`);
- an ``audit_log`` entry's ``request_body`` arrives as a JSON-encoded string (petri) and is
  decoded (:func:`~.http_wire.audit_data_from_wire`), so evidence is the same whether the
  provider is reached over HTTP or in process;
- transient faults are retried in place, up to ``retries`` times, under the harness's retry
  policy (:mod:`oasis_eval.retrying`, tenacity): the wait is the answer's
  ``retry_after_seconds`` (petri's 409 namespace still terminating, 502 image pull failure),
  else its ``Retry-After`` / ``retry-after-ms`` header, else exponential backoff with jitter,
  each capped by ``retry_cap``; then the call fails with :class:`ProviderFault`. What is
  transient depends on whether asking again is safe (see :func:`.http_retry.transient_for`):

  * *safe* calls (conformance, observe, snapshot, teardown: reads, or idempotent) retry
    timeouts, transport errors, 408, 429 and 5xx;
  * *unsafe* calls (provision, inject_state: a repeat could double what the first did)
    retry only answers that prove the request was not acted on: a connection that was never
    made, 429 and 503 (RFC 9110 §15.5.30, §15.6.4: refused, not processed), and the petri
    ``retry_after_seconds`` answers. A provision that timed out or got another 5xx is not
    repeated — a second environment could be created beside the first — and is abandoned
    by its ``request_id`` (below); every attempt carries the same ``request_id``, so a
    provider that de-duplicates by it is safe even then;
  * any other 4xx is never retried: asking again gets the same answer;
- teardown may answer 202 ``in_progress``; it is re-issued (after
  ``estimated_remaining_seconds``, capped) until the provider says ``destroyed`` or
  ``teardown_polls`` attempts are used up. A 404 on a re-issued teardown means the
  environment is already gone and counts as destroyed.

Provision carries an extra ``request_id`` (a random hex string; providers that do not
know it ignore it). When a provision's outcome is unknown — it timed out, the transport
failed, the run was cancelled, or a 2xx answer was malformed — the environment may
exist (or come to exist) on the provider without the runner knowing its id, so the
adapter asks ``POST /v1/teardown {request_id}`` (best effort, bounded, errors ignored;
``oasis provider serve`` tears that environment down as soon as it exists).

Runtime problems (transport errors, timeouts, non-2xx answers, malformed bodies,
an observation without ``evidence_source``) raise :class:`ProviderFault`, which the
engine turns into PROVIDER_FAILURE (core §3.7). Problems with the conformance
endpoint raise :class:`PreflightError` instead (08 §3.8.3/§3.8.4): the run has not
started, so there is no verdict.
One call (the exchange bounded as a whole, the retry loop) is :mod:`.http_calls`'s.
"""

from __future__ import annotations

import contextlib
import secrets
from typing import Any, Self

import anyio
import httpx
from pydantic import ValidationError

from ...contract import (
    ProviderFault,
    ProvisionRequest,
    ProvisionResult,
    Snapshot,
)
from ...retrying import RetryPolicy
from ...spec.provider import ConformanceResponse, ObservationResponse
from .http_calls import HttpCalls
from .http_capture import SNAPSHOT, CaptureAnswers, CapturePlan, key_of
from .http_connection import Http11Transport, proxied
from .http_lean import (
    OFFERED,
    SNAPSHOT_DELTA,
    Negotiated,
    accepted_extensions,
    body_refs,
    folded_snapshot,
    folded_type,
    kept_audit,
    lean_audit_data,
    passed_by,
    popped_snapshot,
    served_part,
    snapshot_resources,
)
from .http_parts import DATA_JSON
from .http_preflight import conformance_answer, unreachable
from .http_retry import NOT_TAKEN_STATUSES, AnsweredFault, _Answer
from .http_wire import (
    audit_data_from_wire,
    provision_wire_body,
    validation_detail,
    wire_parameters,
    wire_state_entry,
)

__all__ = ["HttpProvider"]


#: seconds the teardown-by-request-id of an abandoned provision may take
ABANDON_TIMEOUT = 10.0


class HttpProvider(HttpCalls, CaptureAnswers):
    """The Provider protocol over petri's ``/v1`` HTTP API.

    ``base_url`` is the provider's root (``http://host:port``, without ``/v1``).
    ``token`` adds ``Authorization: Bearer <token>``. ``timeout`` is per request in
    seconds. ``retries`` is how many times a 409/502 with ``retry_after_seconds`` is
    retried (module doc); each wait is at most ``retry_cap``, the backoff starts at
    ``retry_base_wait``. ``teardown_polls``
    bounds the re-issues of a teardown answered 202, each wait capped by
    ``teardown_poll_cap``. ``transport`` is passed to :class:`httpx.AsyncClient`
    (tests; custom TLS). ``wire_extensions``: the leaner wire's extensions offered at
    provision (:mod:`.http_lean`; empty: petri's wire only).
    """

    #: a snapshot is decoded from the wire: its objects are the caller's own
    snapshots_detached = True

    def __init__(
        self,
        base_url: str,
        token: str | None = None,
        *,
        timeout: float = 30.0,
        retries: int = 3,
        retry_cap: float = 30.0,
        retry_base_wait: float = 0.5,
        teardown_polls: int = 30,
        teardown_poll_cap: float = 10.0,
        transport: httpx.AsyncBaseTransport | None = None,
        wire_extensions: tuple[str, ...] = OFFERED,
    ) -> None:
        if retries < 0 or teardown_polls < 1:
            raise ValueError("retries must be >= 0 and teardown_polls >= 1")
        self.base_url = base_url.rstrip("/")
        self.timeout = timeout
        self.retries = retries
        self.retry_cap = max(0.0, retry_cap)
        self.retry = RetryPolicy(retries, max(0.0, retry_base_wait), self.retry_cap)
        self.teardown_polls = teardown_polls
        self.teardown_poll_cap = max(0.0, teardown_poll_cap)
        self._url = httpx.URL(self.base_url)  # a malformed URL is refused now: httpx.InvalidURL
        self._urls: dict[str, httpx.URL] = {}
        self._heads: dict[str, tuple[tuple[bytes, bytes], ...]] = {}
        self._offered = [e for e in OFFERED if e in wire_extensions]
        self._lean: dict[str, Negotiated] = {}  # by environment id, while it lives
        self._plans: dict[str, CapturePlan] = {}  # announced captures (:mod:`.http_capture`)
        headers = {
            "Accept": "application/json",
            "Accept-Encoding": "gzip, deflate",
            "Connection": "keep-alive",
            "User-Agent": f"python-httpx/{httpx.__version__}",
        }
        if token:
            headers["Authorization"] = f"Bearer {token}"
        self._headers = httpx.Headers(headers)
        self._timeouts = httpx.Timeout(timeout).as_dict()
        self._client: httpx.AsyncClient | None = None
        self._transport: httpx.AsyncBaseTransport
        if transport is not None:
            self._transport = transport
        elif proxied(self._url):  # httpx's client honours HTTP_PROXY and friends
            self._client = httpx.AsyncClient(timeout=timeout)
            self._transport = self._client._transport
        else:
            self._transport = Http11Transport()

    @property
    def name(self) -> str:
        """A human-readable name for messages (the provider's base URL)."""
        return f"http provider at {self.base_url}"

    def __repr__(self) -> str:
        return f"HttpProvider({self.base_url!r})"

    async def __aenter__(self) -> Self:
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.aclose()

    async def aclose(self) -> None:
        """Close the pooled connections."""
        if self._client is not None:
            await self._client.aclose()
        else:
            await self._transport.aclose()

    async def _call(
        self,
        call: str,
        path: str,
        body: dict[str, Any],
        ok: tuple[int, ...] = (200,),
        *,
        safe: bool = True,
        parts: bool = False,
    ) -> tuple[int, Any]:
        """:meth:`.HttpCalls._call`, after a call reaching an environment has made its
        provision's folded snapshot no longer its state (:func:`.http_lean.passed_by`)."""
        passed_by(self._lean, body)
        return await super()._call(call, path, body, ok, safe=safe, parts=parts)

    # ---- Provider protocol ---------------------------------------------------

    async def conformance(self, profile_id: str) -> ConformanceResponse:
        """GET /v1/conformance?profile=<id>. Any problem -> PreflightError (08 §3.8.3)."""
        url = f"{self.base_url}/v1/conformance?profile={profile_id}"
        status = 200
        try:
            _, body = await self._retrying(
                "conformance", "GET", "/v1/conformance", (200,), True, None, {"profile": profile_id}
            )
        except _Answer as answer:
            status, body = answer.status, answer.body
        except ProviderFault as fault:
            raise unreachable(url, self.timeout, fault) from fault.__cause__
        return conformance_answer(url, profile_id, status, body)

    async def provision(self, request: ProvisionRequest) -> ProvisionResult:
        """POST /v1/provision; a request whose outcome is unknown is torn down by its id (best
        effort), so nothing leaks."""
        call = f"provision of scenario {request.scenario_id}"
        request_id = secrets.token_hex(16)
        payload = {**self.provision_body(request), "request_id": request_id}
        if self._offered:
            payload["wire_extensions"] = self._offered
        try:
            _, body = await self._call(call, "/v1/provision", payload, safe=False)
            self._check_status(call, body)
            data = {k: v for k, v in body.items() if k not in ("status", "error")}
            accepted = accepted_extensions(call, data) if self._offered else frozenset()
            folded = popped_snapshot(accepted, data)
            for key in ("resolved_namespaces", "unestablished"):
                if data.get(key) is None:
                    data.pop(key, None)
            try:
                result = ProvisionResult.model_validate(data)
            except ValidationError as exc:
                raise ProviderFault(
                    f"{call}: malformed provision response: {validation_detail(exc)}"
                ) from exc
            if accepted:
                self._lean[result.environment_id] = Negotiated(accepted, folded=folded)
            return result
        except ProviderFault as exc:
            # an outcome unknown (no answer, a malformed 2xx, a 5xx that may have half
            # provisioned): what this request may have created is torn down by its request id
            status = exc.status if isinstance(exc, AnsweredFault) else None
            if status is None or (status >= 500 and status not in NOT_TAKEN_STATUSES):
                await self._abandon(request_id)
            raise
        except BaseException:  # cancelled mid-provision: the provider may finish it anyway
            await self._abandon(request_id)
            raise

    async def _abandon(self, request_id: str) -> None:
        """Ask the provider to tear down what it provisions for ``request_id`` (best effort)."""
        with (
            anyio.CancelScope(shield=True),
            anyio.move_on_after(min(self.timeout, ABANDON_TIMEOUT)),
            contextlib.suppress(httpx.HTTPError),
        ):
            await self._exchange(self._request("POST", "/v1/teardown", {"request_id": request_id}))

    @staticmethod
    def provision_body(request: ProvisionRequest) -> dict[str, Any]:
        """The POST /v1/provision body for a request (petri's wire shape)."""
        return provision_wire_body(request)

    async def inject_state(self, environment_id: str, state: list[dict[str, Any]]) -> None:
        """POST /v1/inject-state: declared state entries in the wire form."""
        call = f"inject-state into environment {environment_id}"
        _, body = await self._call(
            call,
            "/v1/inject-state",
            {"environment_id": environment_id, "state": [wire_state_entry(e) for e in state]},
            safe=False,  # a repeat could apply the entries twice (a log line written twice)
        )
        self._check_status(call, body)

    async def snapshot(
        self, environment_id: str, resources: list[dict[str, Any]] | None = None
    ) -> Snapshot:
        """POST /v1/state-snapshot, optionally limited to ``resources``; the first whole one
        may be in provision's answer (:data:`.http_lean.PROVISION_SNAPSHOT`)."""
        call = f"state-snapshot of environment {environment_id}"
        payload: dict[str, Any] = {"environment_id": environment_id}
        lean = negotiated = self._lean.get(environment_id)
        if resources:
            payload["resources"] = [wire_state_entry(r) for r in resources]
            lean = None  # a partial snapshot is no base and has none
        elif lean is not None and SNAPSHOT_DELTA not in lean.accepted:
            lean = None
        if lean is not None and lean.base_id is not None:
            payload["since"] = lean.base_id
        body = None if resources else await self._captured(call, environment_id, SNAPSHOT)
        if body is None and not resources:
            body = folded_snapshot(call, negotiated)
        if body is None:
            _, body = await self._call(call, "/v1/state-snapshot", payload)
        self._check_status(call, body)
        data = {
            "environment_id": body.get("environment_id") or environment_id,
            "timestamp": body.get("timestamp"),
            "resources": (
                body.get("resources") or []
                if lean is None
                else snapshot_resources(call, lean, body)
            ),
        }
        try:
            return Snapshot.model_validate(data)
        except ValidationError as exc:
            raise ProviderFault(
                f"{call}: malformed snapshot response: {validation_detail(exc)}"
            ) from exc

    async def observe(
        self, environment_id: str, observation_type: str, parameters: dict[str, Any]
    ) -> ObservationResponse:
        """POST /v1/observe; the answer must name its evidence source (05 §1.1)."""
        call = f"observe {observation_type} in environment {environment_id}"
        params = wire_parameters(parameters)
        lean = self._lean.get(environment_id)
        body = await self._captured(call, environment_id, key_of(observation_type, params))
        if body is not None:
            return self._observation(call, observation_type, body, lean)
        asked = folded_type(lean, observation_type)
        body = kept_audit(lean, observation_type, params)
        if body is None:
            request: dict[str, Any] = {"environment_id": environment_id, "observation_type": asked}
            if asked != observation_type:  # one call: the served record, then the log
                request["served_calls"] = True
            _, body = await self._call(call, "/v1/observe", {**request, "parameters": params})
        if asked != observation_type:
            body = served_part(call, lean, params, body)
        return self._observation(call, observation_type, body, lean)

    def _observation(
        self, call: str, observation_type: str, body: dict[str, Any], lean: Negotiated | None
    ) -> ObservationResponse:
        """An observe answer checked and decoded (petri's audit bodies, or :mod:`.http_lean`'s)."""
        text: bytes | None = body.pop(DATA_JSON, None)  # the parts form's (:mod:`.http_parts`)
        self._check_status(call, body)
        if not isinstance(body.get("evidence_source"), dict):
            raise ProviderFault(f"{call}: observation response has no evidence_source (05 §1.1)")
        refs: tuple[int, ...] = ()
        if observation_type == "audit_log":
            lean_data = lean_audit_data(call, body, lean)
            if lean_data is None:
                text = None  # petri's shape, decoded here: not the data the text holds
            else:
                refs = body_refs(lean_data)
            data = audit_data_from_wire(body.get("data")) if lean_data is None else lean_data
            body = {**body, "data": data}
        try:
            response = ObservationResponse.model_validate(body)
        except ValidationError as exc:
            raise ProviderFault(
                f"{call}: malformed observation response: {validation_detail(exc)}"
            ) from exc
        if text is not None:
            response._data_json = (text, refs)
        return response

    async def teardown(self, environment_id: str) -> None:
        """POST /v1/teardown, re-issued while it is in progress; not destroyed in time is a fault."""
        call = f"teardown of environment {environment_id}"
        self._lean.pop(environment_id, None)
        self._plans.pop(environment_id, None)
        last = "no answer"
        for poll in range(self.teardown_polls):
            # after a 202, a 404 on the re-issued teardown means the environment is gone
            ok = (200, 202) if poll == 0 else (200, 202, 404)
            status, body = await self._call(
                call, "/v1/teardown", {"environment_id": environment_id}, ok=ok
            )
            if status == 404:  # gone: after a 202, or after a retried first teardown
                return
            self._check_status(call, body)
            state = body.get("status")
            if status == 200 and state in ("destroyed", None):
                return
            if status == 200 and state != "in_progress":
                raise ProviderFault(f"{call}: unexpected teardown status {state!r}")
            last = f"HTTP {status} status {state!r}"
            wait = body.get("estimated_remaining_seconds")
            if not isinstance(wait, (int, float)) or isinstance(wait, bool):
                wait = 1.0
            if poll + 1 < self.teardown_polls:
                await self._sleep(min(max(float(wait), 0.0), self.teardown_poll_cap))
        raise ProviderFault(
            f"{call}: environment not destroyed after {self.teardown_polls} teardown "
            f"attempts (last answer {last})"
        )
