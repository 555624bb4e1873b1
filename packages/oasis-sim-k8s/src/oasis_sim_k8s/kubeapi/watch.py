"""Watches (``?watch=true``): what kubectl's ``get -w``, ``rollout status`` and ``wait`` read.

A watch opened without a ``resourceVersion`` (or with ``sendInitialEvents=true``) gets the
current state as ``ADDED`` events, and the ``k8s.io/initial-events-end`` bookmark
client-go's watch-list waits for. The stream then stays open for the client's
``timeoutSeconds`` (at most :data:`WATCH_MAX_S`; :data:`WATCH_HOLD_S` without one or on a
pinned clock) and
streams, as ``MODIFIED``, every matching object that changes meanwhile (issue 32: a 4 s
watch holds ~4 s); the client resumes it from the last ``resourceVersion``. A resumed
watch streams every object changed since. Deletions are not streamed.

The stream itself is one audited request; polling for changes audits nothing and moves
no clock (the controllers act on the wall-following clock as they would after a call). A resumed watch is a follow-up read (``calls.resumed``: it never counts as a
new agent call). Time passes for the cluster on its own when its clock follows the wall
(``clock.SimClock``); a pinned clock is moved by the client's wait instead: a resumed
watch lets :data:`WAIT_STEP_S` simulated seconds pass (the in-process ``kubectl rollout
status`` polls in the same steps).
"""

from __future__ import annotations

import json
from collections.abc import AsyncIterator
from typing import Any

import anyio
from starlette.requests import Request
from starlette.responses import Response, StreamingResponse

from ..cluster.store import KINDS
from ..tools import env_lock
from ..tools.k8s_format import for_output
from .calls import Caller, resumed
from .tables import to_table

#: wall seconds a watch without ``timeoutSeconds`` stays open after its events before the
#: client resumes it (client-go backs off from a watch that ends in under a second)
WATCH_HOLD_S = 1.0
#: the longest a watch is held (bounds what an environment's teardown waits for)
WATCH_MAX_S = 60.0
#: wall seconds between two looks for changed objects while a watch is held
POLL_S = 0.25
#: simulated seconds a resumed watch lets pass
WAIT_STEP_S = 10


def let_time_pass(caller: Caller) -> None:
    """A pinned clock moves with the client's wait; one that follows the wall needs nothing."""
    with env_lock(caller.env):
        if caller.env.clock.wall is None:
            caller.env.advance(WAIT_STEP_S)


def _hold(env: Any, timeout: str | None) -> float:
    """Wall seconds to hold a watch: the client's ``timeoutSeconds`` (at most
    :data:`WATCH_MAX_S`) when the clock follows the wall; a pinned clock moves only with
    the client's requests, so its watches end after :data:`WATCH_HOLD_S` and resume."""
    try:
        asked = max(0.0, float(timeout)) if timeout else WATCH_HOLD_S
    except ValueError:
        asked = WATCH_HOLD_S
    return min(asked, WATCH_MAX_S if env.clock.wall is not None else WATCH_HOLD_S)


def _line(event: dict[str, Any]) -> bytes:
    return (json.dumps(event, separators=(",", ":")) + "\n").encode()


def _rv(obj: dict[str, Any]) -> str:
    return str((obj.get("metadata") or {}).get("resourceVersion") or "0")


def _int(rv: str) -> int:
    try:
        return int(rv)
    except ValueError:
        return 0


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
    namespace: str | None = None,
) -> Response:
    """The watch answer for the pipeline's ``body`` (``{"events": [...]}``), held open for
    the client's ``timeoutSeconds`` while changes are streamed."""
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
    hold = _hold(caller.env, params.get("timeoutSeconds"))
    last = max([since if resumed(params) else rv] + [_rv(e["object"]) for e in events], key=_int)

    def changed() -> list[bytes]:
        nonlocal last
        with env_lock(caller.env):
            caller.env.tick()  # the cluster's controllers act as its clock follows the wall
            items = caller.env.store.list(
                plural, namespace, params.get("labelSelector"), params.get("fieldSelector")
            )
        out = []
        for obj in sorted((o for o in items if _newer(o, last)), key=lambda o: _int(_rv(o))):
            view = for_output(obj)
            if table:
                view = to_table(caller.env, plural, [view], _rv(obj), include)
            out.append(_line({"type": "MODIFIED", "object": view}))
            last = max(last, _rv(obj), key=_int)
        return out

    async def chunks() -> AsyncIterator[bytes]:
        for line in lines:
            yield _line(line)
        # Starlette cancels the stream when the client leaves
        deadline = anyio.current_time() + hold
        while (left := deadline - anyio.current_time()) > 0:
            await anyio.sleep(min(POLL_S, left))
            if plural in KINDS:
                for chunk in changed():
                    yield chunk

    return StreamingResponse(chunks(), media_type="application/json")
