"""A plain TCP byte stream on asyncio's own protocol callbacks, for the provider client's
HTTP/1.1 connections (:mod:`.http_connection`, issue 30).

anyio's socket stream turns reading on before each ``receive`` and off after it (two
``epoll_ctl`` calls) and yields to the event loop on every ``send``: about 60 µs of the
runner's CPU per exchange, a fifth of one, where the provider client makes some 5.7
exchanges a scenario. This stream keeps reading on while the connection lives and wakes the
waiting ``receive`` from ``data_received``; it answers the calls the connection makes
(``send``, ``receive``, ``aclose``, the raw socket) with anyio's exceptions, so the
connection reads it as it reads anyio's stream:

- ``receive`` at the end of the stream raises ``anyio.EndOfStream``, after a reset or any
  other loss ``anyio.BrokenResourceError``; ``send`` on a closed stream raises
  ``anyio.BrokenResourceError``;
- a ``send`` waits while asyncio's write buffer is over its high-water mark.

It is used under asyncio for ``http`` only: ``https``, and any other event loop (trio), keep
anyio's stream. What arrives is buffered whole, as the connection reads every answer whole.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections import deque
from typing import Any

import anyio
import anyio.abc

__all__ = ["HAPPY_EYEBALLS_DELAY", "LoopStream", "connect_plain"]

#: seconds before the next address of a host is tried beside the first (anyio's, RFC 8305)
HAPPY_EYEBALLS_DELAY = 0.25


class _Protocol(asyncio.Protocol):
    """What the transport delivers, kept for :class:`LoopStream`."""

    def __init__(self) -> None:
        self.chunks: deque[bytes] = deque()
        self.ended = False
        self.error: BaseException | None = None
        self.waiter: asyncio.Future[None] | None = None
        self.drained: asyncio.Future[None] | None = None
        self.paused = False

    def data_received(self, data: bytes) -> None:
        self.chunks.append(data)
        self._wake()

    def eof_received(self) -> bool:
        self.ended = True
        self._wake()
        return False  # the transport closes itself: a half-closed connection is never reused

    def connection_lost(self, exc: Exception | None) -> None:
        self.ended = True
        self.error = self.error or exc
        self._wake()
        self.resume_writing()

    def pause_writing(self) -> None:
        self.paused = True

    def resume_writing(self) -> None:
        self.paused = False
        if self.drained is not None and not self.drained.done():
            self.drained.set_result(None)

    def _wake(self) -> None:
        if self.waiter is not None and not self.waiter.done():
            self.waiter.set_result(None)


class LoopStream:
    """One connection's bytes (module doc)."""

    def __init__(self, transport: asyncio.Transport, protocol: _Protocol) -> None:
        self._transport = transport
        self._protocol = protocol

    async def send(self, data: bytes) -> None:
        """Hand ``data`` to the transport; wait while its buffer is over the high-water mark."""
        protocol = self._protocol
        if self._transport.is_closing() or protocol.ended:
            raise anyio.BrokenResourceError from protocol.error
        self._transport.write(data)
        while protocol.paused and not protocol.ended:
            protocol.drained = asyncio.get_running_loop().create_future()
            try:
                await protocol.drained
            finally:
                protocol.drained = None

    async def receive(self, max_bytes: int = 65536) -> bytes:
        """The next bytes that arrived (at most ``max_bytes``), waiting for some if none has."""
        protocol = self._protocol
        while not protocol.chunks:
            if protocol.ended:
                if protocol.error is not None:
                    raise anyio.BrokenResourceError from protocol.error
                raise anyio.EndOfStream
            protocol.waiter = asyncio.get_running_loop().create_future()
            try:
                await protocol.waiter
            finally:
                protocol.waiter = None
        data = protocol.chunks.popleft()
        if len(data) > max_bytes:
            protocol.chunks.appendleft(data[max_bytes:])
            data = data[:max_bytes]
        return data

    async def aclose(self) -> None:
        """Close as anyio's stream does: the write side shut, then the transport closed."""
        transport = self._transport
        if not transport.is_closing():
            with contextlib.suppress(OSError):
                transport.write_eof()
            transport.close()
            await asyncio.sleep(0)
        transport.abort()

    def extra(self, attribute: Any, default: Any = None) -> Any:
        """The raw socket (``anyio.abc.SocketAttribute.raw_socket``), as anyio's stream gives it."""
        if attribute is anyio.abc.SocketAttribute.raw_socket:
            return self._transport.get_extra_info("socket", default)
        return default


async def connect_plain(host: str, port: int) -> LoopStream | None:
    """A :class:`LoopStream` to ``host:port`` over plain TCP; None when not under asyncio (the
    caller connects with anyio). A failure to connect raises ``OSError`` as anyio's does."""
    try:
        loop = asyncio.get_running_loop()
    except RuntimeError:
        return None
    # the addresses raced as anyio races them (RFC 8305, its delay): a host whose first
    # address does not answer is not waited for
    transport, protocol = await loop.create_connection(
        _Protocol, host, port, happy_eyeballs_delay=HAPPY_EYEBALLS_DELAY
    )
    assert isinstance(transport, asyncio.Transport)
    return LoopStream(transport, protocol)
