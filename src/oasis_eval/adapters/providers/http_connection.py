"""HTTP/1.1 to one provider over kept-alive connections: h11 on anyio streams (issue 30).

The provider client makes about 330 small exchanges a run, one at a time per scenario.
Through ``httpx.AsyncClient`` and httpcore's pool each cost about 1 ms of the runner's CPU
(URL merging, cookies, auth and redirect hooks, the pool's bookkeeping), more than the
exchange itself; this transport does what those calls need and no more:

- a connection per exchange in flight, kept for the next one when both sides finished the
  message cleanly (h11 says so); an idle connection is dropped after
  :data:`KEEPALIVE_EXPIRY` seconds or once the server has closed it, as httpcore's pool does;
- ``https`` with the TLS context httpx itself would make (``httpx.create_ssl_context``:
  certifi, ``SSL_CERT_FILE`` / ``SSL_CERT_DIR``), built on the first https exchange only;
- faults raised as httpx's own exceptions (``ConnectError``, ``ReadError``, ``WriteError``,
  ``RemoteProtocolError``), so the provider client's retry rules read them unchanged;
- the answer read whole and decoded as httpx decodes it (``Content-Encoding``).

It is an ``httpx.AsyncBaseTransport``; :class:`~.http.HttpProvider` hands it its JSON
POSTs already encoded instead (:class:`LeanRequest`, the bytes ``httpx.Request`` would send)
and reads an :class:`Answered` back, without httpx's request and response objects (issue 30). It has no time limits of its own: the
provider client bounds each whole exchange (``HttpCalls._bounded``, :mod:`.http_calls`), and a cancelled
exchange closes its connection, never returning it to the pool. A run behind an HTTP proxy
(``HTTP_PROXY`` and friends) keeps httpx's own client, which honours them.
"""

from __future__ import annotations

import contextlib
import ssl
import time
from typing import Any

import anyio
import anyio.abc
import h11
import httpx

__all__ = ["KEEPALIVE_EXPIRY", "Answered", "Http11Transport", "LeanRequest", "proxied"]

#: seconds an idle connection is kept (httpcore's default; servers close theirs about then)
KEEPALIVE_EXPIRY = 5.0
#: idle connections kept per origin
MAX_IDLE = 20
#: header lists kept as h11 checked them (:func:`_request_head`)
MAX_VALIDATED = 256
#: the most one receive takes: asyncio's own read size (``max_size`` of its socket transport),
#: so an answer that arrived whole is taken whole; at 64 KiB anyio split the audit capture's
#: ~90 KB (a copy of the rest, and one more receive and loop turn a scenario: issue 30)
_READ = 256 * 1024
#: httpcore's words for a connection closed before any answer
_DISCONNECTED = "Server disconnected without sending a response."


class _Connection:
    """One TCP (or TLS) connection and its h11 state machine."""

    def __init__(self, stream: anyio.abc.ByteStream) -> None:
        self.stream = stream
        self.h11 = h11.Connection(h11.CLIENT)
        self.idle_since = 0.0
        #: the socket under the stream (TLS included), looked up once: anyio builds the
        #: whole attribute mapping on every lookup
        self.raw = stream.extra(anyio.abc.SocketAttribute.raw_socket, None)

    async def exchange(
        self,
        method: bytes,
        target: bytes,
        raw: tuple[tuple[bytes, bytes], ...],
        body: bytes,
        validated: dict[tuple[Any, ...], Any],
    ) -> tuple[h11.Response, bytes]:
        """Send a request (method, target, its raw headers and body), read its whole answer:
        (the head, the body bytes). ``validated``: header lists h11 has checked, by their
        bytes (:func:`_request_head`)."""
        head = _request_head(method, target, raw, validated)
        data = self.h11.send(head) or b""
        if body:
            data += self.h11.send(h11.Data(data=body)) or b""
        data += self.h11.send(h11.EndOfMessage()) or b""
        try:
            await self.stream.send(data)
        except (OSError, anyio.BrokenResourceError, anyio.ClosedResourceError) as exc:
            raise httpx.WriteError(str(exc) or type(exc).__name__) from exc
        return await self._answer()

    async def _answer(self) -> tuple[h11.Response, bytes]:
        response: h11.Response | None = None
        chunks: list[bytes] = []
        while True:
            event = self._next_event()
            if event is h11.NEED_DATA:
                data = await self._receive()
                if not data and response is None:
                    raise httpx.RemoteProtocolError(_DISCONNECTED)
                self.h11.receive_data(data)
            elif isinstance(event, h11.Response):
                response = event
            elif isinstance(event, h11.Data):
                chunks.append(bytes(event.data))
            elif isinstance(event, h11.EndOfMessage) and response is not None:
                return response, b"".join(chunks)
            elif isinstance(event, h11.ConnectionClosed):
                raise httpx.RemoteProtocolError(_DISCONNECTED)

    def _next_event(self) -> Any:
        try:
            return self.h11.next_event()
        except h11.RemoteProtocolError as exc:
            raise httpx.RemoteProtocolError(str(exc)) from exc

    async def _receive(self) -> bytes:
        try:
            return await self.stream.receive(_READ)
        except anyio.EndOfStream:
            return b""  # h11 turns an early end into ConnectionClosed or a protocol error
        except (OSError, anyio.BrokenResourceError, anyio.ClosedResourceError) as exc:
            raise httpx.ReadError(str(exc) or type(exc).__name__) from exc

    def reusable(self) -> bool:
        """Both sides finished the message and neither asked to close: keep it."""
        if self.h11.our_state is h11.DONE and self.h11.their_state is h11.DONE:
            self.h11.start_next_cycle()
            return True
        return False

    def alive(self, now: float) -> bool:
        """Idle, not expired, and the server has not closed it (nor sent anything unasked)."""
        if now - self.idle_since > KEEPALIVE_EXPIRY:
            return False
        return self.raw is None or not _readable(self.raw)

    async def aclose(self) -> None:
        with anyio.CancelScope(shield=True):
            with contextlib.suppress(OSError, anyio.BrokenResourceError, ssl.SSLError):
                await self.stream.aclose()


def _request_head(
    method: bytes,
    target: bytes,
    raw: tuple[tuple[bytes, bytes], ...],
    validated: dict[tuple[Any, ...], Any],
) -> h11.Request:
    """h11's event for a request. h11 checks every header name and value against its
    grammar (two regexes each) on every request; the provider client sends the same few
    header lists again and again (they differ only by Content-Length), so a list checked
    once is handed to h11 as its own checked form (issue 30). The bytes sent are the same."""
    headers = validated.get(raw)
    if headers is None:
        headers = h11.Request(method=method, target=b"/", headers=list(raw)).headers
        if len(validated) >= MAX_VALIDATED:
            validated.clear()
        validated[raw] = headers
    return h11.Request(method=method, target=target, headers=headers)


class LeanRequest:
    """A JSON ``POST`` as :meth:`Http11Transport.lean_exchange` sends it: the URL, the raw
    headers as ``httpx.Request`` lists them, the body bytes (``url`` and ``content`` read as
    an ``httpx.Request``'s)."""

    method = "POST"

    def __init__(self, url: httpx.URL, raw: tuple[tuple[bytes, bytes], ...], content: bytes):
        self.url, self.raw, self.content = url, raw, content


class Answered:
    """An answer read by :meth:`Http11Transport.lean_exchange`: what the provider client
    reads of an ``httpx.Response`` (status, headers, content, ``json()``, ``text``), the
    headers and the response object built only when asked for (issue 30)."""

    def __init__(self, status_code: int, raw: list[tuple[bytes, bytes]], content: bytes) -> None:
        self.status_code = status_code
        self.content = content
        self._raw = raw

    @property
    def headers(self) -> httpx.Headers:
        return httpx.Headers(self._raw)

    def _response(self) -> httpx.Response:
        return httpx.Response(self.status_code, headers=self._raw, content=self.content)

    def json(self) -> Any:
        return self._response().json()

    @property
    def text(self) -> str:
        return self._response().text


def _response(request: httpx.Request, head: h11.Response, body: bytes) -> httpx.Response:
    response = httpx.Response(
        head.status_code,
        headers=head.headers,
        stream=httpx.ByteStream(body),
        request=request,
        extensions={"http_version": b"HTTP/1.1", "reason_phrase": head.reason},
    )
    response.read()  # decodes a Content-Encoding as httpx does (the bytes are in memory)
    return response


def _readable(sock: Any) -> bool:
    """Whether an idle socket has something to read: an EOF or bytes nobody asked for."""
    import select

    try:
        return bool(select.select([sock], [], [], 0)[0])
    except (OSError, ValueError):
        return True


class Http11Transport(httpx.AsyncBaseTransport):
    """HTTP/1.1 exchanges over kept-alive connections (module doc)."""

    def __init__(self) -> None:
        self._idle: dict[tuple[bytes, bytes, int], list[_Connection]] = {}
        self._tls: ssl.SSLContext | None = None
        self._validated: dict[tuple[Any, ...], Any] = {}

    async def handle_async_request(self, request: httpx.Request) -> httpx.Response:
        method = request.method.encode("ascii")
        raw = tuple(request.headers.raw)
        head, body = await self._round_trip(request.url, method, raw, request.content)
        return _response(request, head, body)

    async def lean_exchange(self, lean: LeanRequest) -> httpx.Response | Answered:
        """``lean`` sent without httpx's request and response objects: the provider client's
        calls (issue 30). An answer with a ``Content-Encoding`` is an ``httpx.Response``,
        decoded as httpx decodes it; any other an :class:`Answered`, its bytes as they came."""
        url, raw = lean.url, lean.raw
        head, content = await self._round_trip(url, b"POST", raw, lean.content)
        if any(name == b"content-encoding" for name, _ in head.headers):
            request = httpx.Request("POST", url, headers=list(raw), content=lean.content)
            return _response(request, head, content)
        return Answered(head.status_code, list(head.headers), content)

    async def _round_trip(
        self, url: httpx.URL, method: bytes, raw: tuple[tuple[bytes, bytes], ...], body: bytes
    ) -> tuple[h11.Response, bytes]:
        scheme = url.raw_scheme
        if scheme not in (b"http", b"https") or not url.raw_host:
            raise httpx.UnsupportedProtocol(f"Request URL has an unsupported protocol '{url}'.")
        origin = (scheme, url.raw_host, url.port or (443 if scheme == b"https" else 80))
        connection = await self._take(origin) or await self._connect(origin)
        try:
            head, content = await connection.exchange(
                method, url.raw_path, raw, body, self._validated
            )
        except BaseException:
            await connection.aclose()
            raise
        if connection.reusable():
            await self._keep(origin, connection)
        else:
            await connection.aclose()
        return head, content

    async def _take(self, origin: tuple[bytes, bytes, int]) -> _Connection | None:
        idle = self._idle.get(origin)
        now = time.monotonic()
        while idle:
            connection = idle.pop()
            if connection.alive(now):
                return connection
            await connection.aclose()
        return None

    async def _keep(self, origin: tuple[bytes, bytes, int], connection: _Connection) -> None:
        connection.idle_since = time.monotonic()
        idle = self._idle.setdefault(origin, [])
        if len(idle) < MAX_IDLE:
            idle.append(connection)
        else:
            await connection.aclose()

    async def _connect(self, origin: tuple[bytes, bytes, int]) -> _Connection:
        scheme, host, port = origin
        name = host.decode("ascii")
        try:
            if scheme == b"https":
                if self._tls is None:
                    self._tls = httpx.create_ssl_context()
                # no TLS goodbye awaited on close, as httpcore: an answer is whole by its length
                stream: anyio.abc.ByteStream = await anyio.connect_tcp(
                    name, port, ssl_context=self._tls, tls_hostname=name,
                    tls_standard_compatible=False,
                )  # fmt: skip
            else:
                stream = await anyio.connect_tcp(name, port)
        except (OSError, ssl.SSLError, anyio.BrokenResourceError) as exc:
            raise httpx.ConnectError(str(exc) or type(exc).__name__) from exc
        return _Connection(stream)

    async def aclose(self) -> None:
        idle, self._idle = self._idle, {}
        for connections in idle.values():
            for connection in connections:
                await connection.aclose()


def proxied(url: httpx.URL) -> bool:
    """Whether the environment names a proxy for ``url``'s scheme (httpx would use it)."""
    from urllib.request import getproxies

    proxies = getproxies()
    return bool(proxies.get(url.scheme) or proxies.get("all"))
