"""The HTTP calls of :class:`~.http.HttpProvider` (spec 08 §3.8), split out of :mod:`.http`
by job: one exchange bounded as a whole, its answer parsed, and a call under the harness's
retry policy (:mod:`.http_retry`; the policy itself is :mod:`.http`'s module docstring),
non-accepted answers turned into :class:`ProviderFault`.
"""

from __future__ import annotations

import json
from typing import Any

import anyio
import httpx
from pydantic_core import from_json

from ...contract import ProviderFault
from ...retrying import RetryPolicy
from .http_connection import Answered, Http11Transport, LeanRequest
from .http_parts import PARTS_MEDIA, RawParts
from .http_retry import AnsweredFault, _Answer, transient_for, wait_hint
from .http_wire import body_message, shorten

__all__ = ["HttpCalls"]

#: the JSON httpx writes for ``json=`` (``httpx._content.encode_json``), one encoder kept
_JSON = json.JSONEncoder(ensure_ascii=False, separators=(",", ":"), allow_nan=False)
#: the two headers httpx adds after the client's own for a JSON body, in its order
_BODY_HEADERS = (b"Content-Length", b"Content-Type")
#: the call whose answer may come in the parts form (:mod:`.http_parts`)
CAPTURE_PATH = "/v1/capture"


def _parts_form(response: httpx.Response | Answered) -> bool:
    """Whether an answer is in the parts form (:mod:`.http_parts`), by its ``Content-Type``."""
    return response.headers.get("content-type", "").startswith(PARTS_MEDIA)


class HttpCalls:
    """The transport half of :class:`~.http.HttpProvider`: what its ``__init__`` sets up,
    used to send one call (a base class: the provider protocol is :mod:`.http`'s)."""

    base_url: str
    timeout: float
    retries: int
    retry: RetryPolicy
    _urls: dict[str, httpx.URL]
    #: path -> the raw headers ``httpx.Request`` lists before Content-Length (:meth:`_lean_request`)
    _heads: dict[str, tuple[tuple[bytes, bytes], ...]]
    _headers: httpx.Headers
    _timeouts: dict[str, Any]
    _client: httpx.AsyncClient | None
    _transport: httpx.AsyncBaseTransport

    async def _sleep(self, seconds: float) -> None:
        """Every wait goes through here (retry and teardown back-off); tests observe it."""
        await anyio.sleep(seconds)

    async def _bounded(self, exchange: Any) -> httpx.Response:
        """One whole exchange within ``timeout`` seconds. httpx bounds each socket operation,
        not the exchange: a provider that trickles its answer a byte at a time would hold a
        call (and a shielded teardown) for ever. Past the deadline: ``httpx.TimeoutException``."""
        try:
            with anyio.fail_after(self.timeout):
                return await exchange
        except TimeoutError:
            raise httpx.ReadTimeout(
                f"the whole exchange took longer than {self.timeout}s"
            ) from None

    async def _send(
        self,
        call: str,
        method: str,
        path: str,
        body: dict[str, Any] | None = None,
        params: dict[str, str] | None = None,
    ) -> httpx.Response | Answered:
        """One HTTP exchange. Transport problems -> ProviderFault (the httpx error its cause)."""
        url = f"{self.base_url}{path}"
        request = self._lean_request(method, path, body, params) or self._request(
            method, path, body, params
        )
        try:
            return await self._bounded(self._exchange(request))
        except httpx.TimeoutException as exc:
            raise ProviderFault(
                f"{call}: provider did not answer {method} {url} within {self.timeout}s "
                f"({type(exc).__name__})"
            ) from exc
        except httpx.HTTPError as exc:
            raise ProviderFault(
                f"{call}: cannot reach provider at {url}: {type(exc).__name__}: {exc}"
            ) from exc

    def _request(
        self,
        method: str,
        path: str,
        body: dict[str, Any] | None = None,
        params: dict[str, str] | None = None,
    ) -> httpx.Request:
        """The request for ``path`` under the base URL (its URL parsed once per path)."""
        url = self._urls.get(path)
        if url is None:
            url = self._urls[path] = httpx.URL(f"{self.base_url}{path}")
        if params:
            url = url.copy_merge_params(params)
        extensions = {"timeout": self._timeouts}
        headers = self._headers
        if path == CAPTURE_PATH:  # the parts form asked for (:mod:`.http_parts`)
            headers = headers.copy()
            headers["Accept"] = f"{PARTS_MEDIA}, application/json"
        return httpx.Request(method, url, headers=headers, json=body, extensions=extensions)

    def _lean_request(
        self,
        method: str,
        path: str,
        body: dict[str, Any] | None,
        params: dict[str, str] | None,
    ) -> LeanRequest | None:
        """A JSON ``POST`` through this client's own transport as ``httpx.Request`` would send
        it (the same bytes: its headers in its order, its JSON), without building one (issue
        30); None for any other call."""
        if method != "POST" or body is None or params or self._client is not None:
            return None
        if type(self._transport) is not Http11Transport:
            return None
        content = _JSON.encode(body).encode("utf-8")
        head = self._heads.get(path)
        if head is None:
            raw = tuple(self._request(method, path, {}).headers.raw)
            if tuple(name for name, _ in raw[-2:]) != _BODY_HEADERS:
                return None  # not the shape this path relies on: httpx's own request
            head = self._heads[path] = raw[:-2]
        url = self._urls[path]  # set by the _request above
        length = str(len(content)).encode("ascii")
        raw = (*head, (b"Content-Length", length), (b"Content-Type", b"application/json"))
        return LeanRequest(url, raw, content)

    async def _exchange(self, request: httpx.Request | LeanRequest) -> httpx.Response | Answered:
        """``request`` through the client behind a proxy, else straight to the transport (no
        per-request client hooks: issue 30); the answer read whole. The client's one
        exchange function (a :class:`LeanRequest` from :meth:`_lean_request`, straight)."""
        if isinstance(request, LeanRequest):
            assert isinstance(self._transport, Http11Transport)
            return await self._transport.lean_exchange(request)
        if self._client is not None:
            return await self._client.send(request)
        response = await self._transport.handle_async_request(request)
        try:
            await response.aread()
        finally:
            await response.aclose()
        return response

    @staticmethod
    def _parsed(response: httpx.Response | Answered) -> Any:
        """The answer's JSON (pydantic-core's parser: a quarter faster than ``json`` on a
        run's 9 MB of snapshots and audit logs, issue 30; what it refuses, ``json`` reads as
        before), else its text."""
        if not response.content:
            return None
        try:
            return from_json(response.content)
        except ValueError:
            pass
        try:
            return response.json()
        except ValueError:
            return response.text

    async def _retrying(
        self,
        call: str,
        method: str,
        path: str,
        ok: tuple[int, ...],
        safe: bool,
        body: dict[str, Any] | None = None,
        params: dict[str, str] | None = None,
    ) -> tuple[int, Any]:
        """One call under the retry policy (module doc): (status, parsed body) of an accepted
        answer; a transport fault or the last non-accepted answer is raised (``_Answer``)."""

        sent = 0

        async def once() -> tuple[int, Any]:
            nonlocal sent
            sent += 1
            response = await self._send(call, method, path, body, params)
            if path == CAPTURE_PATH and _parts_form(response):
                parsed: Any = RawParts(response.content)
            else:
                parsed = self._parsed(response)
            if response.status_code == 404 and path == "/v1/teardown" and sent > 1:
                return 404, parsed  # a retried teardown: the first one may have done it
            if response.status_code not in ok:
                raise _Answer(response.status_code, parsed, response.headers)
            return response.status_code, parsed

        return await self.retry.call(once, transient_for(safe), wait_hint, None, self._sleep)

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
        """POST under the retry policy; non-accepted answers -> ProviderFault. ``parts``: a
        parts-form answer (:class:`.RawParts`) is accepted too."""
        try:
            status, parsed = await self._retrying(call, "POST", path, ok, safe, body)
        except _Answer as exc:
            reason = body_message(exc.body, fallback="no error message")
            if transient_for(safe)(exc) and self.retries:
                attempts = self.retries + 1
                raise AnsweredFault(
                    f"{call}: gave up after {attempts} attempts; "
                    f"last answer HTTP {exc.status}: {reason}",
                    exc.status,
                ) from None
            raise AnsweredFault(
                f"{call}: provider answered HTTP {exc.status}: {reason}", exc.status
            ) from None
        if parts and isinstance(parsed, RawParts):
            return status, parsed
        if not isinstance(parsed, dict) and 200 <= status < 300:
            raise ProviderFault(
                f"{call}: provider answered HTTP {status} without a JSON object body: "
                f"{shorten(str(parsed))!r}"
            )
        return status, parsed

    @staticmethod
    def _check_status(call: str, body: dict[str, Any]) -> None:
        if body.get("status") == "error":
            raise ProviderFault(
                f"{call}: provider reported an error: {body_message(body, 'no error message')}"
            )
