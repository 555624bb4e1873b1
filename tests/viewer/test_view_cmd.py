"""``oasis view``: loopback by default, a bound port 0 is reported, a missing DIR is refused."""

from __future__ import annotations

import socket
from pathlib import Path

import pytest

from oasis_eval.cli.view_cmd import bind, is_loopback, url_of
from oasis_eval.diagnostics import UnusableInput

from ..support import run_cli


@pytest.mark.parametrize(
    "host, loopback",
    [
        ("127.0.0.1", True),
        ("localhost", True),
        ("::1", True),
        ("[::1]", True),
        ("0.0.0.0", False),
        ("192.168.1.4", False),
        ("example.com", False),
    ],
)
def test_loopback_hosts(host: str, loopback: bool) -> None:
    assert is_loopback(host) is loopback


def test_port_zero_binds_any_free_port_and_says_which() -> None:
    sock = bind("127.0.0.1", 0)
    try:
        url = url_of(sock)
        assert url.startswith("http://127.0.0.1:") and not url.endswith(":0/")
        with pytest.raises(UnusableInput, match="cannot listen"):
            bind("127.0.0.1", sock.getsockname()[1])
    finally:
        sock.close()


def test_the_listening_socket_is_tcp_so_answers_do_not_wait_on_delayed_acks() -> None:
    """asyncio sets TCP_NODELAY only on sockets whose protocol says TCP (proto 0 does not):
    without it each answer's body waits about 40 ms on the browser's delayed ACK."""
    sock = bind("127.0.0.1", 0)
    try:
        assert sock.proto == socket.IPPROTO_TCP
    finally:
        sock.close()


def test_a_missing_directory_is_unusable_input(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, _, err = run_cli(capsys, "view", tmp_path / "none", "--port", "0")
    assert code == 2 and "no such directory" in err
