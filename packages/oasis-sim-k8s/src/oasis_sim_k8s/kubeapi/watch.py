"""Watches (``?watch=true``): what kubectl's ``get -w``, ``rollout status`` and ``wait`` read.

A watch opened without a ``resourceVersion`` (or with ``sendInitialEvents=true``) gets the
current state as ``ADDED`` events, and the ``k8s.io/initial-events-end`` bookmark
client-go's watch-list waits for. The stream then stays open :data:`WATCH_HOLD_S` wall
seconds and closes; the client resumes it from the last ``resourceVersion``. A resumed
watch is the client waiting: it lets :data:`WAIT_STEP_S` simulated seconds pass (the
in-process ``kubectl rollout status`` polls in the same steps) and streams, as
``MODIFIED``, every object changed since. Deletions are not streamed. The simulated
clock thus moves only with the client's requests, each one audited.
"""

from __future__ import annotations

import json
from collections.abc import AsyncIterator, Mapping
from typing import Any

import anyio
from starlette.requests import Request
from starlette.responses import Response, StreamingResponse

from ..store import KINDS
from ..tools import env_lock
from .calls import Caller
from .tables import to_table

#: wall seconds a watch stays open after its events before the client resumes it (client-go
#: backs off from a watch that ends in under a second)
WATCH_HOLD_S = 1.0
#: simulated seconds a resumed watch lets pass
WAIT_STEP_S = 10


def resumed(params: Mapping[str, str]) -> bool:
    """A watch from a known ``resourceVersion``: the client is waiting for changes."""
    since = params.get("resourceVersion") or ""
    return since not in ("", "0") and params.get("sendInitialEvents") != "true"


def let_time_pass(caller: Caller) -> None:
    with env_lock(caller.env):
        caller.env.advance(WAIT_STEP_S)


def _newer(obj: dict[str, Any], since: str) -> bool:
    try:
        return int((obj.get("metadata") or {}).get("resourceVersion") or 0) > int(since)
    except ValueError:
        return True


def stream(
    caller: Caller,
    request: Request,
    plural: str,
    body: Any,
    table: bool,
    include: str | None,
    rv: str,
) -> Response:
    """The watch answer for the pipeline's ``body`` (``{"events": [...]}``)."""
    params = request.query_params
    since = params.get("resourceVersion") or ""
    events = list(body.get("events") or [])
    if resumed(params):
        events = [
            {"type": "MODIFIED", "object": e["object"]}
            for e in events
            if _newer(e["object"], since)
        ]
    lines = []
    for event in events:
        obj = event["object"]
        if table:
            obj = to_table(caller.env, plural, [obj], rv, include)
        lines.append({"type": event["type"], "object": obj})
    if params.get("sendInitialEvents") == "true":
        mark = {"resourceVersion": rv, "annotations": {"k8s.io/initial-events-end": "true"}}
        kind = KINDS[plural][0] if plural in KINDS else ""
        lines.append(
            {"type": "BOOKMARK", "object": {"kind": kind, "apiVersion": "", "metadata": mark}}
        )
    try:
        hold = min(float(params.get("timeoutSeconds") or WATCH_HOLD_S), WATCH_HOLD_S)
    except ValueError:
        hold = WATCH_HOLD_S

    async def chunks() -> AsyncIterator[bytes]:
        for line in lines:
            yield (json.dumps(line, separators=(",", ":")) + "\n").encode()
        await anyio.sleep(hold)  # Starlette cancels the stream when the client leaves

    return StreamingResponse(chunks(), media_type="application/json")
