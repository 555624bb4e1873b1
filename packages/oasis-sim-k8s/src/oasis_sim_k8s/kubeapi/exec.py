"""``pods/exec`` over WebSocket (the ``v5``/``v4.channel.k8s.io`` protocol kubectl speaks):
the command runs once, non-interactively (:func:`..podexec.run`), its stdout/stderr come
on channels 1/2 and the outcome as a ``Status`` on channel 3. A refusal (RBAC, no such
pod) is that ``Status`` too, so kubectl prints it as it prints a server error.

client-go creates its stream pipes only after the upgrade has returned, and it discards
frames for a stream it has not created yet; a server that answers at once races it (kubectl
then fails with "closed all streams"). A kubelet never answers that fast, so nor do we:
the first frame waits :data:`SETTLE` seconds."""

from __future__ import annotations

import json
from collections.abc import Awaitable, Callable
from typing import Any

import anyio
from starlette.websockets import WebSocket

from .calls import call
from .paths import parse, route_path

SETTLE = 0.25
"""Seconds between the upgrade and the first frame: the client's stream set-up is local
and takes well under a millisecond, so this is a wide margin even on a loaded machine."""

PROTOCOLS = (
    "v5.channel.k8s.io",
    "v4.channel.k8s.io",
    "v3.channel.k8s.io",
    "v2.channel.k8s.io",
    "channel.k8s.io",
)


def _status(result_code: int, body: Any) -> dict[str, Any]:
    if result_code >= 400:
        return dict(body) if isinstance(body, dict) else {"status": "Failure", "message": str(body)}
    code = int(body.get("exitCode") or 0)
    if code == 0:
        return {"metadata": {}, "status": "Success"}
    return {
        "metadata": {},
        "status": "Failure",
        "message": f"command terminated with non-zero exit code: error executing command, exit code {code}",
        "reason": "NonZeroExitCode",
        "details": {"causes": [{"reason": "ExitCode", "message": str(code)}]},
    }


def exec_endpoint(api: Any) -> Callable[[WebSocket], Awaitable[None]]:
    async def endpoint(ws: WebSocket) -> None:
        caller = api.caller(ws.headers, ws.scope.get("client"))
        target = parse(route_path(ws.scope))
        if caller is None or target is None or target.subresource not in ("exec", "attach"):
            await ws.close(code=1008)
            return
        offered = [p.strip() for p in ws.headers.get("sec-websocket-protocol", "").split(",")]
        proto = next((p for p in PROTOCOLS if p in offered), None)
        await ws.accept(subprotocol=proto)
        command = ws.query_params.getlist("command")
        params = {"command": command, "container": ws.query_params.get("container")}
        result = call(
            api.invocations,
            caller,
            "create",
            "pods",
            target.namespace,
            target.name,
            None,
            "exec",
            params,
        )
        await anyio.sleep(SETTLE)
        if result.ok:
            if result.body.get("stdout"):
                await ws.send_bytes(b"\x01" + str(result.body["stdout"]).encode())
            if result.body.get("stderr"):
                await ws.send_bytes(b"\x02" + str(result.body["stderr"]).encode())
        status = _status(result.code, result.body)
        await ws.send_bytes(b"\x03" + json.dumps(status).encode())
        await ws.close()

    return endpoint
