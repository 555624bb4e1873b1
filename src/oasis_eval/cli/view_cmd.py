"""``oasis view [DIR]``: serve the local run viewer (issue 19 item 2) until interrupted.

Binds to loopback by default; ``--port 0`` takes any free port, and the URL printed is the
one actually bound. The viewer has no authentication: a non-loopback ``--host`` shows every
run under DIR to anyone who can reach it, and says so.
"""

from __future__ import annotations

import ipaddress
import socket
from pathlib import Path

import typer

from ..diagnostics import UnusableInput
from .output import terminal_safe

DEFAULT_PORT = 8642
DEFAULT_DIR = Path("oasis-runs")


def is_loopback(host: str) -> bool:
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host.strip("[]")).is_loopback
    except ValueError:
        return False


def bind(host: str, port: int) -> socket.socket:
    """A listening socket on (host, port): the server takes it, so port 0 is known here."""
    infos = socket.getaddrinfo(host.strip("[]"), port, type=socket.SOCK_STREAM)
    family, _, proto, _, address = infos[0]
    # the TCP proto, so asyncio sets TCP_NODELAY (else each answer waits on a delayed ACK)
    sock = socket.socket(family, socket.SOCK_STREAM, proto)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    try:
        sock.bind(address)
    except OSError as exc:
        sock.close()
        raise UnusableInput(f"cannot listen on {host}:{port}: {exc.strerror or exc}") from None
    sock.listen(128)
    sock.set_inheritable(True)
    return sock


def url_of(sock: socket.socket) -> str:
    host, port = sock.getsockname()[:2]
    return f"http://{f'[{host}]' if ':' in host else host}:{port}/"


def view(
    directory: Path = typer.Argument(
        DEFAULT_DIR, help="The directory holding run directories (searched recursively)."
    ),
    host: str = typer.Option("127.0.0.1", "--host", help="Address to listen on (loopback)."),
    port: int = typer.Option(
        DEFAULT_PORT, "--port", min=0, max=65535, help="Port to listen on (0: any free port)."
    ),
) -> None:
    """Serve a local web viewer of the runs under DIR: the runs list, each run's report, diffs."""
    import uvicorn

    from ..viewer.app import create_app

    if not directory.is_dir():
        raise UnusableInput(
            "no such directory (give the directory that holds your run directories; "
            "`oasis run` writes them under ./oasis-runs)",
            file=str(directory),
        )
    loopback = is_loopback(host)
    app = create_app(directory, loopback_only=loopback)
    stats = app.state.viewer.index.refresh()
    sock = bind(host, port)
    say = typer.echo
    say(terminal_safe(f"indexed {stats.total} run(s) under {directory.resolve()}"))
    if not loopback:
        say(
            f"warning: listening on {host}: every run under the directory is visible, "
            "without authentication, to anyone who can reach this address",
            err=True,
        )
    say(f"serving on {url_of(sock)} (Ctrl-C to stop)")
    config = uvicorn.Config(app, log_level="warning", lifespan="off")
    try:
        uvicorn.Server(config).run(sockets=[sock])
    finally:
        sock.close()
