"""``pods/exec`` over SPDY/3.1 for kubectl before 1.30 (issue 32), as the same ASGI WebSocket
the newer clients speak (:mod:`.exec`): one request pipeline, one audit, one exec path.

kubectl <= 1.29 upgrades ``POST .../exec`` with ``Upgrade: SPDY/3.1`` and
``X-Stream-Protocol-Version: v4.channel.k8s.io``, then opens one SPDY stream per channel
(``streamtype: error|stdin|stdout|stderr|resize``) and waits for each stream's SYN_REPLY.
:class:`SpdyH11Protocol` (uvicorn's h11 protocol) hands such a request to
:class:`SpdyProtocol`, which presents it to the listener's app as a ``websocket`` scope whose
subprotocols are the offered stream protocols: the app's ``websocket.accept`` is the
``101 Switching Protocols``, a close before it a ``403`` (the ListenerGate's refusals), and
each ``websocket.send`` of ``<channel byte><data>`` (the v4 channel framing) becomes DATA on
the stream of that type, held until the client has opened it. When the app closes, every
stream is finished (FIN) and the connection stays open until the client closes it (at most
:data:`LINGER` seconds). Only the frames kubectl's spdystream sends are read: SYN_STREAM,
DATA (stdin, handed to the app as channel 0), RST_STREAM, PING (answered), GOAWAY; SETTINGS,
WINDOW_UPDATE and HEADERS are ignored (spdystream keeps no flow-control window).

Framing (SPDY/3 draft, section 2.2): a control frame is ``1|version(15)|type(16)|flags(8)|
length(24)|data``, a data frame ``0|stream-id(31)|flags(8)|length(24)|data``; header blocks
are zlib streams (one per direction per connection) primed with :data:`DICTIONARY`.
"""

from __future__ import annotations

import asyncio
import json
import struct
import zlib
from typing import Any

from uvicorn.protocols.http.h11_impl import H11Protocol

UPGRADE = b"spdy/3.1"
VERSION = 3
SYN_STREAM, SYN_REPLY, RST_STREAM, SETTINGS, PING, GOAWAY, HEADERS, WINDOW_UPDATE = (
    1,
    2,
    3,
    4,
    6,
    7,
    8,
    9,
)
FLAG_FIN = 0x01
#: the v4 channel of each stream type (:mod:`.exec` sends ``<channel><data>``)
CHANNELS = {"stdin": 0, "stdout": 1, "stderr": 2, "error": 3, "resize": 4}
#: seconds a finished exec waits for the client to close the connection
LINGER = 30.0
MAX_DATA = 0xFFFF

_NAMES = [
    "options",
    "head",
    "post",
    "put",
    "delete",
    "trace",
    "accept",
    "accept-charset",
    "accept-encoding",
    "accept-language",
    "accept-ranges",
    "age",
    "allow",
    "authorization",
    "cache-control",
    "connection",
    "content-base",
    "content-encoding",
    "content-language",
    "content-length",
    "content-location",
    "content-md5",
    "content-range",
    "content-type",
    "date",
    "etag",
    "expect",
    "expires",
    "from",
    "host",
    "if-match",
    "if-modified-since",
    "if-none-match",
    "if-range",
    "if-unmodified-since",
    "last-modified",
    "location",
    "max-forwards",
    "pragma",
    "proxy-authenticate",
    "proxy-authorization",
    "range",
    "referer",
    "retry-after",
    "server",
    "te",
    "trailer",
    "transfer-encoding",
    "upgrade",
    "user-agent",
    "vary",
    "via",
    "warning",
    "www-authenticate",
    "method",
    "get",
    "status",
    "200_OK",
    "version",
    "HTTP/1.1",
    "url",
    "public",
    "set-cookie",
    "keep-alive",
    "origin",
]
_TAIL = (
    "100101201202205206300302303304305306307402405406407408409410411412413414415416417502504"
    "505203 Non-Authoritative Information204 No Content301 Moved Permanently400 Bad Request"
    "401 Unauthorized403 Forbidden404 Not Found500 Internal Server Error501 Not Implemented"
    "503 Service UnavailableJan Feb Mar Apr May Jun Jul Aug Sept Oct Nov Dec 00:00:00 Mon, "
    "Tue, Wed, Thu, Fri, Sat, Sun, GMTchunked,text/html,image/png,image/jpg,image/gif,"
    "application/xml,application/xhtml+xml,text/plain,text/javascript,publicprivatemax-age="
    "gzip,deflate,sdchcharset=utf-8charset=iso-8859-1,utf-,*,enq=0."
)
#: the header-compression dictionary of SPDY/3 (section 2.6.10.1): length-prefixed names, then
#: a tail of status codes, dates and media types (1423 bytes, Adler-32 0xE3C6A7C2)
DICTIONARY = (
    b"".join(struct.pack(">I", len(n)) + n.replace("_", " ").encode() for n in _NAMES)
    + _TAIL.encode()
)


def control(kind: int, flags: int, payload: bytes) -> bytes:
    return struct.pack(">HHI", 0x8000 | VERSION, kind, (flags << 24) | len(payload)) + payload


def data_frame(stream: int, payload: bytes, flags: int = 0) -> bytes:
    return struct.pack(">II", stream & 0x7FFFFFFF, (flags << 24) | len(payload)) + payload


def header_block(headers: dict[str, str]) -> bytes:
    """A name/value block, uncompressed (section 2.6.10)."""
    out = [struct.pack(">I", len(headers))]
    for name, value in headers.items():
        for part in (name.encode(), value.encode()):
            out.append(struct.pack(">I", len(part)) + part)
    return b"".join(out)


def parse_header_block(raw: bytes) -> dict[str, str]:
    (count,) = struct.unpack_from(">I", raw)
    pos, out = 4, {}
    for _ in range(count):
        pair = []
        for _part in range(2):
            (size,) = struct.unpack_from(">I", raw, pos)
            pair.append(raw[pos + 4 : pos + 4 + size].decode("latin-1"))
            pos += 4 + size
        out[pair[0].lower()] = pair[1]
    return out


class SpdyProtocol(asyncio.Protocol):
    """One upgraded exec connection: SPDY frames <-> the app's ASGI WebSocket messages."""

    def __init__(self, config: Any, server_state: Any, scope: dict[str, Any]) -> None:
        self.app = config.loaded_app
        self.loop = asyncio.get_event_loop()
        self.connections, self.tasks = server_state.connections, server_state.tasks
        self.scope = scope
        self.transport: Any = None
        self.buffer = bytearray()
        self.inflate = zlib.decompressobj(zdict=DICTIONARY)
        self.deflate = zlib.compressobj(zdict=DICTIONARY)
        self.streams: dict[str, int] = {}  # stream type -> stream id
        self.pending: dict[int, list[bytes]] = {}  # channel -> data not yet sent
        self.incoming: asyncio.Queue[dict[str, Any]] = asyncio.Queue()
        self.accepted = self.closed = self.finished = False
        self.linger: asyncio.TimerHandle | None = None

    # ---- transport side -------------------------------------------------------------------
    def connection_made(self, transport: Any) -> None:
        self.transport = transport
        self.connections.add(self)
        self.incoming.put_nowait({"type": "websocket.connect"})
        task = self.loop.create_task(self.run_asgi())
        task.add_done_callback(self.tasks.discard)
        self.tasks.add(task)

    def connection_lost(self, exc: Exception | None) -> None:
        self.connections.discard(self)
        self.finished = True
        if self.linger is not None:
            self.linger.cancel()
        self.incoming.put_nowait({"type": "websocket.disconnect", "code": 1006})

    def shutdown(self) -> None:  # uvicorn's server shutdown
        self.close()

    def close(self) -> None:
        if self.transport is not None and not self.transport.is_closing():
            self.transport.close()

    def data_received(self, data: bytes) -> None:
        self.buffer += data
        while len(self.buffer) >= 8:
            (length,) = struct.unpack_from(">I", self.buffer, 4)
            length &= 0xFFFFFF
            if len(self.buffer) < 8 + length:
                return
            head, payload = bytes(self.buffer[:8]), bytes(self.buffer[8 : 8 + length])
            del self.buffer[: 8 + length]
            try:
                self.frame(head, payload)
            except (struct.error, zlib.error, UnicodeDecodeError):
                self.close()  # a malformed frame: the session is unusable
                return

    def frame(self, head: bytes, payload: bytes) -> None:
        """One frame from the client (see the module doc for the ones read)."""
        word = struct.unpack_from(">I", head)[0]
        if not word & 0x80000000:  # DATA: stdin (or resize) from the client
            stream = word & 0x7FFFFFFF
            kind = next((k for k, s in self.streams.items() if s == stream), None)
            if kind in CHANNELS and payload:
                self.incoming.put_nowait(
                    {"type": "websocket.receive", "bytes": bytes([CHANNELS[kind]]) + payload}
                )
            return
        kind = word & 0xFFFF
        if kind == SYN_STREAM:
            stream = struct.unpack_from(">I", payload)[0] & 0x7FFFFFFF
            block = self.inflate.decompress(payload[10:])
            stype = parse_header_block(block).get("streamtype", "")
            self.streams.setdefault(stype, stream)
            body = struct.pack(">I", stream) + self._compress({})
            self.transport.write(control(SYN_REPLY, 0, body))
            self.flush()
        elif kind == PING:
            self.transport.write(control(PING, 0, payload[:4]))
        elif kind == GOAWAY:
            self.close()

    def _compress(self, headers: dict[str, str]) -> bytes:
        return self.deflate.compress(header_block(headers)) + self.deflate.flush(zlib.Z_SYNC_FLUSH)

    def flush(self) -> None:
        """Send what the app wrote on every opened stream; once the app closed, finish them."""
        if self.finished or self.transport is None:
            return
        for stype, stream in sorted(self.streams.items()):
            channel = CHANNELS.get(stype)
            for chunk in self.pending.pop(channel, []) if channel is not None else []:
                for at in range(0, len(chunk), MAX_DATA):
                    self.transport.write(data_frame(stream, chunk[at : at + MAX_DATA]))
            if self.closed:
                self.transport.write(data_frame(stream, b"", FLAG_FIN))
        if self.closed:
            self.streams = {k: s for k, s in self.streams.items() if k not in CHANNELS}
            if self.linger is None:
                self.linger = self.loop.call_later(LINGER, self.close)

    # ---- ASGI side --------------------------------------------------------------------------
    async def run_asgi(self) -> None:
        try:
            await self.app(self.scope, self.receive, self.send)
        except Exception:  # noqa: BLE001 - the app's fault: the connection ends, as uvicorn's
            self.close()
            return
        if not self.accepted:
            self._deny()
        elif not self.closed:
            await self.send({"type": "websocket.close"})

    async def receive(self) -> dict[str, Any]:
        return await self.incoming.get()

    async def send(self, message: dict[str, Any]) -> None:
        kind = message["type"]
        if kind == "websocket.accept" and not self.accepted:
            self.accepted = True
            proto = message.get("subprotocol")
            head = [
                "HTTP/1.1 101 Switching Protocols",
                "Connection: Upgrade",
                "Upgrade: SPDY/3.1",
                *([f"X-Stream-Protocol-Version: {proto}"] if proto else []),
            ]
            self.transport.write(("\r\n".join(head) + "\r\n\r\n").encode())
        elif kind == "websocket.send" and self.accepted and not self.closed:
            raw = message.get("bytes") or (message.get("text") or "").encode()
            if raw:
                self.pending.setdefault(raw[0], []).append(raw[1:])
                self.flush()
        elif kind == "websocket.close":
            if not self.accepted:
                self._deny()
            elif not self.closed:
                self.closed = True
                self.flush()

    def _deny(self) -> None:
        """A close before accept: the refusal as the API server answers a failed upgrade."""
        if self.accepted or self.transport is None or self.transport.is_closing():
            return
        self.accepted = self.closed = True
        body = json.dumps(
            {
                "kind": "Status",
                "apiVersion": "v1",
                "metadata": {},
                "status": "Failure",
                "message": "the upgrade was refused",
                "reason": "Forbidden",
                "code": 403,
            }
        ).encode()
        head = (
            "HTTP/1.1 403 Forbidden\r\nContent-Type: application/json\r\n"
            f"Content-Length: {len(body)}\r\nConnection: close\r\n\r\n"
        )
        self.transport.write(head.encode() + body)
        self.close()


def websocket_scope(http: dict[str, Any], headers: list[tuple[bytes, bytes]]) -> dict[str, Any]:
    """The ASGI ``websocket`` scope of an upgrade request: its stream protocols offered as
    subprotocols (v5 is WebSocket-only, so never offered here)."""
    offered = [
        p.strip()
        for name, value in headers
        if name == b"x-stream-protocol-version"
        for p in value.decode("latin-1").split(",")
        if p.strip() and p.strip() != "v5.channel.k8s.io"
    ]
    extra = [(b"sec-websocket-protocol", ", ".join(offered).encode())] if offered else []
    return {
        **{k: v for k, v in http.items() if k != "method"},
        "type": "websocket",
        "scheme": "wss" if http.get("scheme") == "https" else "ws",
        "headers": [*headers, *extra],
        "subprotocols": offered,
    }


class SpdyH11Protocol(H11Protocol):
    """uvicorn's h11 protocol that also upgrades ``SPDY/3.1`` requests (to :class:`SpdyProtocol`)."""

    def _should_upgrade(self) -> bool:
        return self._get_upgrade() == UPGRADE or super()._should_upgrade()

    def handle_websocket_upgrade(self, event: Any) -> None:
        if self._get_upgrade() != UPGRADE:
            super().handle_websocket_upgrade(event)
            return
        self.connections.discard(self)
        self._unset_keepalive_if_required()
        scope = websocket_scope(dict(self.scope), list(self.headers))
        protocol = SpdyProtocol(self.config, self.server_state, scope)
        trailing, _ = self.conn.trailing_data
        protocol.connection_made(self.transport)
        self.transport.set_protocol(protocol)
        if trailing:
            protocol.data_received(bytes(trailing))


__all__ = ["DICTIONARY", "SpdyH11Protocol", "SpdyProtocol", "websocket_scope"]
