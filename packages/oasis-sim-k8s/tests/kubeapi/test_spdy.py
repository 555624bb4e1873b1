"""``pods/exec`` over SPDY/3.1 (issue 32; :mod:`oasis_sim_k8s.kubeapi.spdy`), spoken by hand the
way kubectl < 1.30 speaks it (the heavy kubectl matrix runs the real clients): the upgrade is
one exec call, audited as the WebSocket exec is, and refused before any upgrade without the
agent's token."""

from __future__ import annotations

import json
import socket
import ssl
import struct
import zlib
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from urllib.parse import urlsplit

from oasis_sim_k8s.kubeapi.spdy import (
    DICTIONARY,
    FLAG_FIN,
    SYN_REPLY,
    SYN_STREAM,
    control,
    header_block,
    parse_header_block,
)

from .support import Cluster, cluster


def test_the_header_dictionary_is_spdy3s() -> None:
    """The SPDY/3 dictionary: kubectl's zlib stream names it by its Adler-32 (section 2.6.10.1)."""
    assert len(DICTIONARY) == 1423 and zlib.adler32(DICTIONARY) == 0xE3C6A7C2
    assert parse_header_block(header_block({"streamtype": "error"})) == {"streamtype": "error"}


@contextmanager
def _tls(c: Cluster) -> Iterator[ssl.SSLSocket]:
    url = urlsplit(c.url)
    ctx = ssl.create_default_context()
    ctx.check_hostname, ctx.verify_mode = False, ssl.CERT_NONE
    raw = socket.create_connection((url.hostname, url.port), timeout=10)
    with ctx.wrap_socket(raw, server_hostname=url.hostname) as sock:
        yield sock


def _upgrade(sock: ssl.SSLSocket, path: str, token: str | None, extra: str = "") -> bytes:
    auth = (f"Authorization: Bearer {token}\r\n" if token else "") + extra
    sock.sendall(
        (
            f"POST {path} HTTP/1.1\r\nHost: sim\r\n{auth}Connection: Upgrade\r\n"
            "Upgrade: SPDY/3.1\r\nX-Stream-Protocol-Version: v4.channel.k8s.io\r\n"
            "X-Stream-Protocol-Version: channel.k8s.io\r\nContent-Length: 0\r\n\r\n"
        ).encode()
    )
    head = b""
    while b"\r\n\r\n" not in head:
        chunk = sock.recv(4096)
        assert chunk, head
        head += chunk
    return head


def _frames(sock: ssl.SSLSocket, until_fins: int) -> list[tuple[bool, int, int, bytes]]:
    """(control, type or stream id, flags, payload) until ``until_fins`` DATA FINs arrived."""
    buf, fins = b"", 0
    out: list[tuple[bool, int, int, bytes]] = []
    while fins < until_fins:
        while len(buf) < 8 or len(buf) < 8 + (struct.unpack_from(">I", buf, 4)[0] & 0xFFFFFF):
            chunk = sock.recv(65536)
            assert chunk, out
            buf += chunk
        word, flags_len = struct.unpack_from(">II", buf)
        length, flags = flags_len & 0xFFFFFF, flags_len >> 24
        is_control = bool(word & 0x80000000)
        out.append((is_control, word & 0xFFFF if is_control else word, flags, buf[8 : 8 + length]))
        fins += int(not is_control and flags & FLAG_FIN)
        buf = buf[8 + length :]
    return out


def test_exec_over_spdy_is_one_audited_exec_call(tmp_path: Path) -> None:
    with cluster(tmp_path, need_kubectl=False) as c:
        pod = next(
            p["metadata"]["name"]
            for p in c.env.store.iter("pods", c.namespace)
            if (p.get("status") or {}).get("phase") == "Running"
        )
        path = (
            f"/api/v1/namespaces/{c.namespace}/pods/{pod}/exec"
            "?command=cat&command=%2Fetc%2Fhostname&stdout=true&stderr=true"
        )
        start = len(c.env.audit.entries)
        with _tls(c) as sock:
            head = _upgrade(sock, path, c.token)
            assert head.startswith(b"HTTP/1.1 101"), head
            assert b"X-Stream-Protocol-Version: v4.channel.k8s.io" in head
            deflate = zlib.compressobj(zdict=DICTIONARY)
            for stream, kind in ((1, "error"), (3, "stdout"), (5, "stderr")):
                block = deflate.compress(header_block({"streamtype": kind}))
                block += deflate.flush(zlib.Z_SYNC_FLUSH)
                sock.sendall(control(SYN_STREAM, 0, struct.pack(">IIH", stream, 0, 0) + block))
            frames = _frames(sock, until_fins=3)
        replies = [f for f in frames if f[0] and f[1] == SYN_REPLY]
        assert len(replies) == 3
        data = {
            sid: b"".join(p for ctl, got, _, p in frames if not ctl and got == sid)
            for sid in (1, 3, 5)
        }
        assert data[3].decode().strip() == pod
        assert json.loads(data[1])["status"] == "Success"
        (entry,) = c.agent_entries(start)
        assert (entry["verb"], entry["resource"], entry["subresource"]) == (
            "create",
            "pods",
            "exec",
        )
        assert entry["response_code"] == 101


def test_spdy_upgrade_without_the_token_is_refused_before_any_upgrade(tmp_path: Path) -> None:
    with cluster(tmp_path, need_kubectl=False) as c:
        path = f"/api/v1/namespaces/{c.namespace}/pods/any/exec?command=ls&stdout=true"
        with _tls(c) as sock:
            head = _upgrade(sock, path, None)
        assert head.startswith(b"HTTP/1.1 403"), head
        assert not c.agent_entries()


def test_spdy_upgrade_asking_for_impersonation_is_refused_and_audited(tmp_path: Path) -> None:
    """The listener gate judges the SPDY upgrade as it judges the WebSocket one."""
    with cluster(tmp_path, need_kubectl=False) as c:
        path = f"/api/v1/namespaces/{c.namespace}/pods/any/exec?command=ls&stdout=true"
        start = len(c.env.audit.entries)
        with _tls(c) as sock:
            head = _upgrade(sock, path, c.token, "Impersonate-User: system:admin\r\n")
        assert head.startswith(b"HTTP/1.1 403"), head
        (entry,) = c.agent_entries(start)
        assert entry["verb"] == "impersonate" and entry["response_code"] == 403
