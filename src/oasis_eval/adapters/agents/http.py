"""An agent behind an HTTP endpoint: oasisctl's agent contract (spec 04 §1; interop §1).

- identity, once per run: ``GET {url}/identity-and-configuration`` (``Authorization:
  Bearer <token>`` when a token is given). 404 means the agent does not implement the
  contract: :class:`AgentFault` before any scenario runs.
- execute, once per scenario: ``POST {url}`` (the URL as given, nothing appended) with
  the request body of :mod:`._wire`; the response is the shape documented there.

Outcome rules:

- no connection (refused, DNS, connect timeout): nothing was sent, so
  :class:`AgentUnreachable` (the run stops; no PASS).
- after the request went out, a reset, a timeout, a non-JSON or misshapen body, any
  1xx/3xx/4xx status, and a 5xx without an agent-level error payload raise
  :class:`AgentFault`: the agent was reached and may have acted, so the engine still
  judges the scenario on the environment's evidence with the answer taken as empty.
- an agent-level error — a 2xx (or 5xx) JSON body carrying ``"error": "..."`` — is an
  answer: it becomes :attr:`AgentResponse.error`, with whatever actions and answer the
  agent reported, and the agent is judged on the evidence. 4xx is never an agent answer:
  it means the runner's request or credentials were rejected.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import anyio
import httpx

from ...contract import AgentFault, AgentReport, AgentResponse, AgentTask, AgentUnreachable
from ._wire import (
    MAX_ANSWER_BYTES,
    NETWORK_SCHEMES,
    check_reachable,
    error_payload,
    parse_json_text,
    parse_report,
    parse_response,
    request_body,
    snippet,
)

__all__ = ["DEFAULT_IDENTITY_TIMEOUT", "DEFAULT_TIMEOUT", "HttpAgent"]

#: seconds one scenario may take, end to end (agents drive real tools: be generous)
DEFAULT_TIMEOUT = 600.0
DEFAULT_IDENTITY_TIMEOUT = 30.0
IDENTITY_PATH = "identity-and-configuration"


def _describe(exc: BaseException) -> str:
    text = str(exc).strip()
    return f"{type(exc).__name__}: {text}" if text else type(exc).__name__


class HttpAgent:
    """The :class:`~oasis_eval.contract.Agent` protocol over HTTP.

    One ``httpx.AsyncClient`` per adapter (connection pooling), safe to share between
    concurrent ``execute`` calls; each call is one independent scenario.
    """

    #: another process: it reaches only network endpoints (engine/access.py)
    endpoint_schemes = NETWORK_SCHEMES

    def __init__(
        self,
        url: str,
        token: str | None = None,
        timeout: float = DEFAULT_TIMEOUT,
        identity_timeout: float = DEFAULT_IDENTITY_TIMEOUT,
        *,
        headers: Mapping[str, str] | None = None,
        connect_timeout: float = 10.0,
        transport: httpx.AsyncBaseTransport | None = None,
        max_answer_bytes: int = MAX_ANSWER_BYTES,
    ) -> None:
        if not url.startswith(("http://", "https://")):
            raise ValueError(f"agent URL must be http:// or https://, got {url!r}")
        self.url = url
        self.timeout = float(timeout)
        self.identity_timeout = float(identity_timeout)
        self.max_answer_bytes = max_answer_bytes
        all_headers = {"Accept": "application/json", "User-Agent": "oasis-eval"}
        all_headers.update(headers or {})
        if token:
            all_headers["Authorization"] = f"Bearer {token}"
        self._client = httpx.AsyncClient(
            headers=all_headers,
            timeout=httpx.Timeout(None, connect=connect_timeout),  # deadlines via anyio below
            follow_redirects=False,
            transport=transport,
        )

    @property
    def identity_url(self) -> str:
        """Where the identity-and-configuration contract is served, next to the task URL."""
        return self.url.rstrip("/") + "/" + IDENTITY_PATH

    def __repr__(self) -> str:
        return f"HttpAgent({self.url!r})"

    async def _read(self, method: str, url: str, **kwargs: Any) -> httpx.Response:
        """The response with its body read, at most ``max_answer_bytes`` of it (an agent's
        endless or huge answer must not exhaust the runner's memory: that would end the run
        with no verdict)."""
        request = self._client.build_request(method, url, **kwargs)
        response = await self._client.send(request, stream=True)
        try:
            body = bytearray()
            async for chunk in response.aiter_bytes():  # decoded: a compression bomb is bounded too
                body.extend(chunk)
                if len(body) > self.max_answer_bytes:
                    raise AgentFault(
                        f"agent at {url} answered more than {self.max_answer_bytes} bytes"
                    )
        finally:
            await response.aclose()
        headers = [
            (k, v)
            for k, v in response.headers.multi_items()
            if k.lower() not in ("content-encoding", "content-length", "transfer-encoding")
        ]
        return httpx.Response(
            response.status_code, headers=headers, content=bytes(body), request=request
        )

    async def _request(
        self, method: str, url: str, timeout: float, **kwargs: Any
    ) -> httpx.Response:
        try:
            with anyio.fail_after(timeout):
                return await self._read(method, url, **kwargs)
        except TimeoutError:
            raise AgentFault(f"agent at {url} did not answer within {timeout:g}s") from None
        except httpx.ConnectTimeout as exc:  # nothing was sent
            raise AgentUnreachable(
                f"cannot connect to agent at {url} within the connect timeout ({_describe(exc)})"
            ) from exc
        except httpx.TimeoutException as exc:
            raise AgentFault(
                f"agent at {url} did not answer within the timeout ({_describe(exc)})"
            ) from exc
        except httpx.ConnectError as exc:
            raise AgentUnreachable(f"cannot connect to agent at {url}: {_describe(exc)}") from exc
        except httpx.HTTPError as exc:  # reset, protocol errors, ...
            raise AgentFault(
                f"transport error talking to agent at {url}: {_describe(exc)}"
            ) from exc

    async def identify(self) -> AgentReport:
        """GET the agent's identity report (05 §1.2); 404 means the agent lacks the contract."""
        url = self.identity_url
        response = await self._request("GET", url, self.identity_timeout)
        if response.status_code == 404:
            raise AgentFault(
                f"agent at {self.url} does not implement the identity-and-configuration contract (404)"
            )
        if not response.is_success:
            raise AgentFault(
                f"agent at {url} answered identity with HTTP {response.status_code}: {snippet(response.content)}"
            )
        data = parse_json_text(response.content, f"agent at {url}")
        return parse_report(data, f"agent at {url}")

    async def execute(self, task: AgentTask) -> AgentResponse:
        """POST ``task``; a 5xx with an error payload is an answer judged on evidence, else a fault."""
        check_reachable(task, f"agent at {self.url}")
        response = await self._request("POST", self.url, self.timeout, json=request_body(task))
        status = response.status_code
        source = f"agent at {self.url}"
        if response.is_success:
            return parse_response(parse_json_text(response.content, source), source)
        if status >= 500:
            try:
                data = response.json()
            except ValueError:
                data = None
            message = error_payload(data)
            if message is not None:
                # the agent answered, with an error: judged on the evidence
                parsed = parse_response(data, source)
                return parsed.model_copy(update={"error": f"HTTP {status}: {message}"})
        raise AgentFault(f"{source} answered HTTP {status}: {snippet(response.content)}")

    async def aclose(self) -> None:
        """Close the pooled HTTP client."""
        await self._client.aclose()
