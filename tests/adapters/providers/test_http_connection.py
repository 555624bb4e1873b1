"""The provider client's HTTP/1.1 transport (``http_connection``, issue 30): connections kept
for the next exchange, never one the server closed, faults as httpx's own exceptions, answers
decoded as httpx decodes them, and httpx's client kept behind a proxy."""

from __future__ import annotations

import gzip
import json
from collections.abc import Awaitable, Callable

import anyio
import anyio.abc
import httpx
import pytest

from oasis_eval.adapters.providers.http import HttpProvider
from oasis_eval.adapters.providers.http_connection import Http11Transport
from oasis_eval.contract import ProviderFault

#: what a scripted server does with one connection: (the request bytes, the stream)
Handler = Callable[[bytes, anyio.abc.ByteStream], Awaitable[bool]]

DESTROYED = json.dumps({"status": "destroyed"}).encode()


def _answer(body: bytes, *headers: str, close: bool = False) -> bytes:
    head = ["HTTP/1.1 200 OK", "Content-Type: application/json", f"Content-Length: {len(body)}"]
    head += list(headers) + (["Connection: close"] if close else [])
    return ("\r\n".join(head) + "\r\n\r\n").encode() + body


async def _request(stream: anyio.abc.ByteStream) -> bytes:
    """One whole request (its headers and Content-Length body), b"" at the end of the stream."""
    data = b""
    while b"\r\n\r\n" not in data:
        try:
            data += await stream.receive(65536)
        except (anyio.EndOfStream, anyio.BrokenResourceError):
            return b""
    head, _, body = data.partition(b"\r\n\r\n")
    length = 0
    for line in head.split(b"\r\n")[1:]:
        name, _, value = line.partition(b":")
        if name.strip().lower() == b"content-length":
            length = int(value)
    while len(body) < length:
        body += await stream.receive(65536)
    return data


def _serve(handler: Handler, test: Callable[[str, list[int]], Awaitable[None]]) -> list[int]:
    """Run ``test(url, connections)`` against a server answering each request with
    ``handler`` (True: keep the connection); returns the requests seen per connection."""
    connections: list[int] = []

    async def one(stream: anyio.abc.ByteStream) -> None:
        connections.append(0)
        index = len(connections) - 1
        async with stream:
            try:
                while request := await _request(stream):
                    connections[index] += 1
                    if not await handler(request, stream):
                        return
            except (anyio.BrokenResourceError, anyio.ClosedResourceError, OSError):
                return  # the client went away first

    async def main() -> None:
        listener = await anyio.create_tcp_listener(local_host="127.0.0.1", local_port=0)
        port = listener.extra(anyio.abc.SocketAttribute.local_port)
        async with anyio.create_task_group() as group:
            group.start_soon(listener.serve, one)
            with anyio.fail_after(30):  # a hang guard, not a timing assertion
                await test(f"http://127.0.0.1:{port}", connections)
            group.cancel_scope.cancel()

    anyio.run(main)
    return connections


async def _keep(request: bytes, stream: anyio.abc.ByteStream) -> bool:
    await stream.send(_answer(DESTROYED))
    return True


def test_one_connection_serves_every_exchange_in_turn() -> None:
    async def test(url: str, _: list[int]) -> None:
        async with HttpProvider(url) as http:
            for n in range(5):
                await http.teardown(f"env-{n}")

    assert _serve(_keep, test) == [5]  # without keep-alive: five connections of one request


def test_a_connection_the_server_closed_is_not_used_again() -> None:
    async def close_after_one(request: bytes, stream: anyio.abc.ByteStream) -> bool:
        await stream.send(_answer(DESTROYED))
        return False  # closes without saying so (no Connection: close)

    async def test(url: str, connections: list[int]) -> None:
        async with HttpProvider(url, retries=0) as http:
            await http.teardown("env-1")
            await anyio.sleep(0.2)  # the server's close reaches the idle connection
            await http.teardown("env-2")  # a reused dead connection would fault here

    assert _serve(close_after_one, test) == [1, 1]


def test_connection_close_and_an_expired_idle_connection_open_a_new_one(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    async def say_close(request: bytes, stream: anyio.abc.ByteStream) -> bool:
        await stream.send(_answer(DESTROYED, close=b"close-me" in request))
        return b"close-me" not in request

    async def test(url: str, _: list[int]) -> None:
        async with HttpProvider(url) as http:
            await http.teardown("close-me")  # Connection: close -> not kept
            await http.teardown("env-1")
            monkeypatch.setattr(
                "oasis_eval.adapters.providers.http_connection.KEEPALIVE_EXPIRY", -1
            )
            await http.teardown("env-2")  # the idle one expired -> a new connection

    assert _serve(say_close, test) == [1, 1, 1]


def test_a_server_closing_without_an_answer_is_a_provider_fault_naming_it() -> None:
    async def hang_up(request: bytes, stream: anyio.abc.ByteStream) -> bool:
        return False

    async def test(url: str, _: list[int]) -> None:
        async with HttpProvider(url, retries=0) as http:
            with pytest.raises(ProviderFault, match="RemoteProtocolError: Server disconnected"):
                await http.teardown("env-1")

    _serve(hang_up, test)


def test_a_compressed_answer_is_decoded_and_a_chunked_one_joined() -> None:
    payload = {"status": "applied", "note": "x" * 2000}

    async def odd(request: bytes, stream: anyio.abc.ByteStream) -> bool:
        body = json.dumps(payload).encode()
        if b"inject-state" in request:
            await stream.send(_answer(gzip.compress(body), "Content-Encoding: gzip"))
        else:
            half = len(DESTROYED) // 2
            chunks = [DESTROYED[:half], DESTROYED[half:]]
            await stream.send(
                b"HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n"
                + b"".join(b"%x\r\n%s\r\n" % (len(c), c) for c in chunks)
                + b"0\r\n\r\n"
            )
        return True

    async def test(url: str, _: list[int]) -> None:
        async with HttpProvider(url) as http:
            transport = http._transport
            assert isinstance(transport, Http11Transport)
            request = http._request("POST", "/v1/inject-state", {"environment_id": "e"})
            response = await transport.handle_async_request(request)
            assert response.json() == payload
            await http.inject_state("env-1", [])  # a decoded body the client reads as JSON
            await http.teardown("env-1")  # a chunked answer, whole

    assert _serve(odd, test) == [3]


def test_the_lean_path_sends_httpx_own_bytes_and_reads_answers_alike() -> None:
    """A JSON POST through the client's own transport skips ``httpx.Request`` and
    ``httpx.Response`` (issue 30): the request bytes are those httpx's request sends, and an
    answer that is not JSON, or refused with a ``Retry-After``, reads as it did."""
    seen: list[bytes] = []

    async def record(request: bytes, stream: anyio.abc.ByteStream) -> bool:
        seen.append(request)
        if b"teardown" in request:
            await stream.send(_answer(DESTROYED))
        elif b"inject-state" in request:
            await stream.send(_answer(b"not json at all"))
        else:
            body = b'{"error":"busy"}'
            await stream.send(
                b"HTTP/1.1 503 Busy\r\nRetry-After: 7\r\nContent-Length: %d\r\n\r\n%s"
                % (len(body), body)
            )
        return True

    async def test(url: str, _: list[int]) -> None:
        async with HttpProvider(url, retries=0) as http:
            body = {"environment_id": "env-\u00e9", "n": 1.5, "list": [None, True]}
            assert http._lean_request("POST", "/v1/teardown", body, None) is not None
            answered = await http._send("t", "POST", "/v1/teardown", body)
            assert answered.status_code == 200 and http._parsed(answered) == {"status": "destroyed"}
            transport = http._transport
            assert isinstance(transport, Http11Transport)
            await transport.handle_async_request(http._request("POST", "/v1/teardown", body))
            text = await http._send("t", "POST", "/v1/inject-state", {"environment_id": "e"})
            assert http._parsed(text) == "not json at all"
            busy = await http._send("t", "POST", "/v1/observe", {"environment_id": "e"})
            assert busy.status_code == 503 and busy.headers["retry-after"] == "7"
            assert http._parsed(busy) == {"error": "busy"}

    _serve(record, test)
    assert seen[0] == seen[1]  # the lean request and httpx's own, byte for byte


def test_connection_refused_is_httpx_connect_error(free_port_url: str) -> None:
    async def main() -> None:
        transport = Http11Transport()
        with pytest.raises(httpx.ConnectError):
            await transport.handle_async_request(httpx.Request("GET", free_port_url))
        with pytest.raises(httpx.UnsupportedProtocol):
            await transport.handle_async_request(httpx.Request("GET", "ftp://127.0.0.1/"))
        await transport.aclose()

    anyio.run(main)


def test_a_cancelled_exchange_never_returns_its_connection() -> None:
    async def slow(request: bytes, stream: anyio.abc.ByteStream) -> bool:
        if b"env-slow" in request:
            await anyio.sleep(0.5)  # past the client's deadline
        await stream.send(_answer(DESTROYED))
        return True

    async def test(url: str, _: list[int]) -> None:
        async with HttpProvider(url, timeout=0.2, retries=0) as http:
            with pytest.raises(ProviderFault, match=r"within 0\.2s"):
                await http.teardown("env-slow")
            await http.teardown("env-2")  # its answer, not the late one of env-slow

    assert _serve(slow, test) == [1, 1]


def test_behind_a_proxy_httpx_own_client_carries_the_requests(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv("HTTP_PROXY", "http://127.0.0.1:9")
    monkeypatch.delenv("NO_PROXY", raising=False)
    monkeypatch.delenv("no_proxy", raising=False)
    proxied = HttpProvider("http://provider.example")
    assert proxied._client is not None and not isinstance(proxied._transport, Http11Transport)
    monkeypatch.delenv("HTTP_PROXY")
    monkeypatch.delenv("http_proxy", raising=False)
    direct = HttpProvider("http://provider.example")
    assert direct._client is None and isinstance(direct._transport, Http11Transport)


def test_a_header_list_checked_once_sends_the_same_bytes_and_a_bad_one_is_refused() -> None:
    """h11 checks a header list once per transport (issue 30); the request bytes are h11's own
    rendering of the request, and a list h11 refuses is refused every time, never kept."""
    import h11

    from oasis_eval.adapters.providers.http_connection import _request_head

    validated: dict[tuple[object, ...], object] = {}
    url = "http://127.0.0.1:9/v1/observe"
    for body in ({"environment_id": "e1"}, {"environment_id": "e2"}, {"x": "longer body"}):
        request = httpx.Request("POST", url, headers={"Authorization": "Bearer t"}, json=body)
        plain = h11.Request(
            method=request.method, target=request.url.raw_path, headers=request.headers.raw
        )
        sent, expected = h11.Connection(h11.CLIENT), h11.Connection(h11.CLIENT)
        head = _request_head(b"POST", request.url.raw_path, tuple(request.headers.raw), validated)
        assert sent.send(head) == expected.send(plain)
    assert len(validated) == 2  # e1 and e2 share a Content-Length
    bad = httpx.Request("POST", url, headers={"X-Bad": "a\x00b"}, json={})
    for _ in range(2):
        with pytest.raises(h11.LocalProtocolError):
            _request_head(b"POST", b"/v1/observe", tuple(bad.headers.raw), validated)
    assert len(validated) == 2


def test_large_bodies_go_and_come_back_whole_and_the_connection_is_kept() -> None:
    """A request over the socket's write buffer is sent whole, an answer over one read comes
    back whole, and the connection is kept for the next exchange."""
    big = json.dumps({"status": "applied", "note": "y" * 300_000}).encode()

    async def echo_size(request: bytes, stream: anyio.abc.ByteStream) -> bool:
        await stream.send(_answer(big if b"inject-state" in request else DESTROYED))
        return True

    async def test(url: str, _: list[int]) -> None:
        async with HttpProvider(url) as http:
            state = [{"resource": f"configmap/c{i}", "data": {"k": "z" * 1000}} for i in range(300)]
            await http.inject_state("env-1", state)  # ~300 KB out, ~300 KB back
            transport = http._transport
            assert isinstance(transport, Http11Transport)
            assert len([c for idle in transport._idle.values() for c in idle]) == 1
            await http.teardown("env-1")

    assert _serve(echo_size, test) == [2]


def test_a_reset_connection_is_a_read_error() -> None:
    """A server that resets the connection mid-answer: the exchange fails as httpx's
    ``ReadError`` (a provider fault naming it)."""

    async def reset(request: bytes, stream: anyio.abc.ByteStream) -> bool:
        await stream.send(b"HTTP/1.1 200 OK\r\nContent-Length: 100\r\n\r\n{")
        raw = stream.extra(anyio.abc.SocketAttribute.raw_socket)
        import socket
        import struct

        raw.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
        return False

    async def test(url: str, _: list[int]) -> None:
        async with HttpProvider(url, retries=0) as http:
            with pytest.raises(ProviderFault, match=r"ReadError|RemoteProtocolError"):
                await http.teardown("env-1")

    _serve(reset, test)
