"""Every listener's accepted connections have TCP_NODELAY: without it, an answer written in two
pieces (uvicorn writes the headers, then the body) waits for the client's delayed ACK, about
40 ms a request, for kubectl, MCP clients and agents alike. asyncio sets the option only on a
socket whose protocol says TCP, so the listening socket must be made with ``IPPROTO_TCP``.
A listener's stop ends its serving loop at once, not at the loop's next tick (issue 31)."""

from __future__ import annotations

import socket

import httpx
import pytest
from starlette.applications import Starlette
from starlette.responses import PlainTextResponse
from starlette.routing import Route

from oasis_sim_k8s.servers import listeners
from oasis_sim_k8s.servers.listeners import serve_in_thread


def _ok(_: object) -> PlainTextResponse:
    return PlainTextResponse("ok")


@pytest.mark.parametrize("tls", [False, True])
def test_accepted_connections_do_not_wait_on_delayed_acks(tls: bool) -> None:
    listener = serve_in_thread(Starlette(routes=[Route("/", _ok)]), tls=tls, name="nodelay")
    try:
        with httpx.Client(verify=False) as client:
            assert client.get(listener.url + "/").text == "ok"
            connections = list(listener._server.server_state.connections)
            assert connections
            for conn in connections:
                sock = conn.transport.get_extra_info("socket")
                assert sock.getsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY)
    finally:
        listener.stop()


def test_a_stop_ends_the_serving_loop_without_waiting_for_its_tick(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """With an hour between ticks, the stop still ends the loop and closes an idle keep-alive
    connection (uvicorn's loop saw ``should_exit`` only at its next tick, 0.1 s)."""
    monkeypatch.setattr(listeners, "TICK_S", 3600.0)
    listener = serve_in_thread(Starlette(routes=[Route("/", _ok)]), name="tick")
    with httpx.Client() as client:
        assert client.get(listener.url + "/").text == "ok"  # its connection kept alive
        listener.stop()  # joins the serving thread, under a 10 s hang guard
        assert not listener._thread.is_alive()
        assert not listener._server.server_state.connections
