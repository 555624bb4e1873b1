"""One HTTP request -> one call of the API server pipeline (SI provider guide §2.1), as the
token's principal: RBAC, admission, the audit event and the served-calls record are the
ones the MCP path writes (:meth:`..tools.ToolSurface.api`).

A kubectl invocation makes several requests (a GET before a PATCH, describe's event
list). As on the MCP path, the first request of an invocation is the call temporal
triggers count and the clock moves a step; later reads of the same invocation are
follow-ups (``internal``: audited all the same). Writes always take the full path. An
invocation is what its ``Kubectl-Session`` header names (older kubectl); kubectl v1.37
sends none, so for a ``kubectl/`` user agent it is the client connection (one kubectl
process, one keep-alive connection). Other clients: every request is a call.
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from starlette.responses import Response

from ..cluster.apiserver import ApiResult
from ..tools import env_lock

READS = ("get", "list", "watch")


@dataclass
class Caller:
    """Who calls: the environment and user the bearer token selects, and the invocation."""

    env: Any
    user: str
    invocation: str | None = None
    user_agent: str | None = None


def invocation(headers: Any, user_agent: str | None, client: Any) -> str | None:
    """The invocation a request belongs to (None: a call of its own)."""
    session = headers.get("kubectl-session")
    if session:
        return f"session:{session}"
    if user_agent and user_agent.startswith("kubectl/") and client:
        host, port = client[0], client[1]
        return f"connection:{host}:{port}"
    return None


def resumed(params: Mapping[str, Any]) -> bool:
    """A watch from a known ``resourceVersion``: the client waiting for changes, a follow-up
    of the watch it resumes (issue 32: never a new agent call)."""
    since = params.get("resourceVersion") or ""
    return since not in ("", "0") and params.get("sendInitialEvents") != "true"


class Invocations:
    """The kubectl invocations already seen (bounded; keyed by environment id and session)."""

    def __init__(self, keep: int = 4096) -> None:
        self.keep = keep
        self._seen: OrderedDict[tuple[str, str], None] = OrderedDict()

    def follow_up(self, caller: Caller) -> bool:
        """Whether this request continues an invocation that already made a request."""
        if not caller.invocation:
            return False
        key = (str(caller.env.id), caller.invocation)
        if key in self._seen:
            self._seen.move_to_end(key)
            return True
        self._seen[key] = None
        while len(self._seen) > self.keep:
            self._seen.popitem(last=False)
        return False


def call(
    invocations: Invocations,
    caller: Caller,
    verb: str,
    resource: str,
    namespace: str | None = None,
    name: str | None = None,
    body: Any = None,
    subresource: str | None = None,
    params: dict[str, Any] | None = None,
) -> ApiResult:
    """One audited, RBAC-checked request as the caller (serialized per environment)."""
    env = caller.env
    with env_lock(env):
        follow = (
            invocations.follow_up(caller) or (verb == "watch" and resumed(params or {}))
        ) and (verb in READS and subresource != "exec")
        before = len(env.audit.entries)
        result: ApiResult = env.api.request(
            caller.user,
            verb,
            resource,
            namespace,
            name,
            body,
            subresource,
            params,
            session=env.principal,
            internal=follow,
        )
        if caller.user_agent:
            for entry in env.audit.entries[before:]:
                raw = entry.get("raw")
                if isinstance(raw, dict):
                    raw["userAgent"] = caller.user_agent
        return result


#: the simulated time a request refused before the pipeline takes (as a denied call's)
REFUSED_STEP_MS = 1000


def refused(caller: Caller, target: Any, verb: str, response: Response) -> Response:
    """Audit a request refused before it reached the pipeline (an unreadable body, a method
    or media type the resource does not take): allowed or not, every request is audited
    under the caller and noted as served, like the pipeline's own refusals."""
    env = caller.env
    res = target.resource
    resource = (res.backend or res.name) if res is not None else target.raw
    with env_lock(env):
        env.clock.advance(REFUSED_STEP_MS)
        entry = env.audit.record(
            user=caller.user,
            verb=verb,
            resource=resource,
            namespace=target.namespace,
            name=target.name,
            subresource=target.subresource,
            code=response.status_code,
            body=None,
            params=None,
            session=env.principal,
            reason="refused before admission",
        )
        env.served.note(entry)
    return response
