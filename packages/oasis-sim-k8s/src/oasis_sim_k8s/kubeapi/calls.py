"""One HTTP request -> one call of the API server pipeline (SI provider guide §2.1), as the
token's principal: RBAC, admission, the audit event and the served-calls record are the
ones the MCP path writes (:meth:`..tools.ToolSurface.api`).

A kubectl invocation makes several requests (a GET before a PATCH, describe's event
list); kubectl marks them with one ``Kubectl-Session`` header. As on the MCP path, the
first request of an invocation is the call temporal triggers count and the clock moves
a step; later reads of the same invocation are follow-ups (``internal``). Writes always
take the full path.
"""

from __future__ import annotations

from collections import OrderedDict
from dataclasses import dataclass
from typing import Any

from ..apiserver import ApiResult
from ..tools import env_lock

READS = ("get", "list", "watch")


@dataclass
class Caller:
    """Who calls: the environment and user the bearer token selects, and the invocation."""

    env: Any
    user: str
    invocation: str | None = None
    user_agent: str | None = None


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
        follow = invocations.follow_up(caller) and verb in READS and subresource != "exec"
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
