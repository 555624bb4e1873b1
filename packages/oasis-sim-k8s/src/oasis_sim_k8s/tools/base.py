"""What every tool of the surface shares: the tool and result shapes, the per-call context,
the per-environment lock, argument readers, the output rewriting of ``tool_output_injection``,
and :class:`Surface`, the session's tool table (SI interface types).
"""

from __future__ import annotations

import logging
import threading
import weakref
from collections.abc import Callable
from dataclasses import dataclass, field
from types import SimpleNamespace
from typing import Any

from ..cluster.audit import is_log_read, note_response
from ..injection.interface_types import SUPPORTED_INTERFACE_TYPES, TOOL_FOR_TYPE
from ..injection.stimuli import apply_tool_output

#: what each tool prints when its backend fails
INTERNAL_ERRORS = {
    "kubectl": 'Error from server (InternalError): an error on the server ("") has prevented the request from '
    "succeeding",
    "metrics_query": '{"status": "error", "errorType": "internal", "error": "internal server error"}',
    "gitops": "FATA[0000] rpc error: code = Internal desc = internal error",
    "database": "ERROR:  internal error",
}
_log = logging.getLogger(__name__)


@dataclass(frozen=True)
class ToolSpec:
    """One tool as an agent sees it (MCP ``Tool``-shaped)."""

    name: str
    description: str
    input_schema: dict[str, Any]
    interface_type: str
    read_only: bool = False

    def to_dict(self) -> dict[str, Any]:
        """The JSON shape of this object on the wire."""
        return {
            "name": self.name,
            "description": self.description,
            "input_schema": self.input_schema,
            "interface_type": self.interface_type,
        }


@dataclass
class ToolResult:
    """A tool's answer: its text, and whether it is an error."""

    text: str
    is_error: bool = False

    def to_dict(self) -> dict[str, Any]:
        """The JSON shape of this object on the wire."""
        return {"text": self.text, "is_error": self.is_error}


@dataclass
class CallContext:
    """Per-call bookkeeping shared by the tools: who calls, and how the call was recorded."""

    surface: Surface
    tool: str
    #: API server requests made by this call (0: the call never reached the API server)
    api_calls: int = 0
    #: audit entries this call wrote itself (tools that do not go through the API server)
    audited: int = 0
    targets: list[str] = field(default_factory=list)


_LOCKS: weakref.WeakKeyDictionary[Any, threading.RLock] = weakref.WeakKeyDictionary()
_LOCKS_GUARD = threading.Lock()


def env_lock(env: Any) -> threading.RLock:
    """One lock per environment: tool calls from several threads (MCP server) are serialized."""
    with _LOCKS_GUARD:
        lock = _LOCKS.get(env)
        if lock is None:
            lock = _LOCKS[env] = threading.RLock()
        return lock


def scenario_tools(env: Any) -> list[str] | None:
    """The interface types the environment's scenario gave its agent (None: not known)."""
    tools = getattr(env, "tools", None)
    if tools is None:
        tools = (getattr(env, "notes", None) or {}).get("tools")
    return [str(t) for t in tools] if tools is not None else None


#: builds the tools of one interface type for a surface
Maker = Callable[["Surface"], list[tuple[ToolSpec, Any]]]


class Surface:
    """The tools of one agent session in one environment, less the tool set itself
    (:class:`~oasis_sim_k8s.tools.ToolSurface` names it).

    ``user`` defaults to the environment's agent user, ``session`` to its principal
    (the audit's ``data.agent_principal``), ``allowed_interface_types`` to the
    scenario's ``preconditions.agent.tools`` as kept by the provider (every
    supported type when the environment does not know it).
    """

    #: kubectl's kubeconfig for this session (tools/kubectl/session.py), set on first use
    _kubeconfig: Any

    def __init__(
        self,
        env: Any,
        user: str | None = None,
        session: str | None = None,
        allowed_interface_types: list[str] | None = None,
    ):
        self.env = env
        self.user = user or env.agent_user
        self.session = session or env.principal
        requested = (
            allowed_interface_types if allowed_interface_types is not None else scenario_tools(env)
        )
        if requested is None:
            requested = list(SUPPORTED_INTERFACE_TYPES)
        self.interface_types = [t for t in dict.fromkeys(requested) if t in TOOL_FOR_TYPE]
        #: interface types asked for that no tool here implements
        self.unavailable = [t for t in dict.fromkeys(requested) if t not in TOOL_FOR_TYPE]
        scope = getattr(env, "scope", None)
        scope_ns = list(scope[0]) if scope and scope[0] else []
        #: the namespace the agent's credentials default to (``agent_credentials.namespace``)
        self.default_namespace = scope_ns[0] if scope_ns else "default"
        #: the last backend fault a call hit (its output was a server error)
        self.last_exception: BaseException | None = None
        self._tools: dict[
            str, tuple[ToolSpec, Callable[[CallContext, dict[str, Any]], ToolResult]]
        ] = {}
        self._build()

    def _build(self) -> None:
        for itype in self.interface_types:
            for spec, handler in self._makers()[itype](self):
                self._tools[spec.name] = (spec, handler)

    def _makers(self) -> dict[str, Maker]:
        """interface type -> the function listing its tools (:class:`~oasis_sim_k8s.tools.ToolSurface`)."""
        raise NotImplementedError

    # ---- public API ----------------------------------------------------------------
    def list_tools(self) -> list[ToolSpec]:
        """The tools of this session, in listing order."""
        return [spec for spec, _ in self._tools.values()]

    def tool(self, name: str) -> ToolSpec | None:
        """The spec of a tool by name, or None."""
        hit = self._tools.get(name)
        return hit[0] if hit else None

    def call(self, name: str, arguments: dict[str, Any] | None = None) -> ToolResult:
        """Run one tool call; never raises for agent mistakes (they come back as ``is_error``)."""
        arguments = dict(arguments or {})
        with env_lock(self.env):
            hit = self._tools.get(name)
            if hit is None:
                return self._unknown(name)
            spec, handler = hit
            ctx = CallContext(self, name)
            log = getattr(getattr(self.env, "audit", None), "entries", None)
            before = len(log) if isinstance(log, list) else 0
            try:
                result = handler(ctx, arguments)
            except ToolInputError as exc:
                result = ToolResult(str(exc), True)
            except Exception as exc:  # noqa: BLE001 - a backend fault answers like a server error
                _log.exception("tool %s failed on %r", name, arguments)
                self.last_exception = exc
                result = ToolResult(INTERNAL_ERRORS.get(name, "500 Internal Server Error"), True)
            if ctx.api_calls == 0 and ctx.audited == 0:
                # a call that reached no backend still counts for temporal triggers
                self.env.record_tool_call(self.user, name)
            text = rewrite_output(self.env, ctx.targets or [spec.interface_type], result.text)
            if isinstance(log, list):
                _served_logs(log[before:], text)
            return ToolResult(text, result.is_error)

    def _unknown(self, name: str) -> ToolResult:
        """A tool the agent was not given: refused, and audited as its attempt (a tool of an
        interface type the scenario did not grant is 403, any other name 404; issue 25)."""
        known = ", ".join(self._tools) or "none"
        granted = name in TOOL_FOR_TYPE.values()
        self.audit_tool_call(
            CallContext(self, str(name or "unknown")),
            verb="call",
            resource=str(name or "unknown"),
            code=403 if granted else 404,
        )
        return ToolResult(f"unknown tool {name!r} (available tools: {known})", True)

    # ---- helpers for the tool modules -------------------------------------------------
    def api(
        self,
        ctx: CallContext,
        verb: str,
        resource: str,
        namespace: str | None = None,
        name: str | None = None,
        body: Any = None,
        subresource: str | None = None,
        params: dict[str, Any] | None = None,
        user: str | None = None,
    ) -> Any:
        """One API server request as the agent (audited, RBAC-checked).

        The first request of a tool call is the call as temporal triggers count it;
        follow-up reads of the same call (kubectl's GET before a PATCH, describe's
        event list) are made like kubectl makes them, milliseconds apart, and do
        not count as further tool calls. Writes always take the full path.
        """
        follow_up = (
            ctx.api_calls > 0 and verb in ("get", "list", "watch") and subresource not in ("exec",)
        )
        ctx.api_calls += 1
        return self.env.api.request(
            user or self.user,
            verb,
            resource,
            namespace,
            name,
            body,
            subresource,
            params,
            session=self.session,
            internal=follow_up,
        )

    def audit_tool_call(
        self,
        ctx: CallContext,
        *,
        verb: str,
        resource: str,
        namespace: str | None = None,
        name: str | None = None,
        code: int = 200,
        params: dict[str, Any] | None = None,
        body: Any = None,
        user: str | None = None,
        extra: dict[str, Any] | None = None,
        count: bool = True,
    ) -> dict[str, Any] | None:
        """Record a call that does not go through the API server (metrics, traces, database ...).

        ``env.record_tool_call`` moves the clock and lets temporal triggers count the
        call; the audit entry is written here unless the environment already wrote one.
        """
        env = self.env
        who = user or self.user
        before = len(env.audit.entries)
        if count and ctx.api_calls == 0 and ctx.audited == 0:
            # the call is the agent's whatever credentials it presented: triggers count it
            env.record_tool_call(self.user, ctx.tool, query=verb in ("get", "list", "watch"))
        else:
            env.clock.advance(1)
        ctx.audited += 1
        # an environment whose record_tool_call audits by itself is not audited twice
        own = [
            e
            for e in env.audit.entries[before:]
            if e.get("user") in (who, self.user) and e.get("resource") == ctx.tool
        ]
        if own:
            entry = own[-1]
        else:
            entry = env.audit.record(
                user=who,
                verb=verb,
                resource=resource,
                namespace=namespace,
                name=name,
                subresource=None,
                code=code,
                body=body,
                params=params or {},
                session=self.session,
                reason="",
            )
            if extra:
                entry.update(extra)
        # served on the agent's behalf without the API server: noted apart from the audit log
        env.served.note(entry, code)
        return entry


class ToolInputError(ValueError):
    """Arguments a tool cannot use (answered as an ``is_error`` result)."""


def _served_logs(entries: list[dict[str, Any]], text: str) -> None:
    """The log reads one tool call made served ``text`` (the call's whole answer, as the
    agent receives it): each is annotated with it (:func:`~..cluster.audit.note_response`)."""
    for entry in entries:
        if is_log_read(entry) and int(entry.get("response_code") or 0) < 400:
            note_response(entry, text)


def rewrite_output(env: Any, targets: list[str], text: str) -> str:
    """``tool_output_injection``: the rules that match this output's target rewrite it.

    A tool output has several names (``container-orchestration/pod/x/logs`` is also
    ``observability-logging/x``); the one most rules match is handed to
    ``env.apply_tool_output``.
    """
    rules = list(getattr(env, "tool_output_rules", []) or [])
    if not rules or not targets:
        return env.apply_tool_output(targets[0] if targets else "", text)

    def hits(target: str) -> int:
        return sum(
            1
            for r in rules
            if apply_tool_output(SimpleNamespace(tool_output_rules=[r]), target, "") != ""
        )

    best = max(targets, key=hits)
    return env.apply_tool_output(best, text)


def schema(properties: dict[str, Any], required: list[str] | None = None) -> dict[str, Any]:
    """A JSON Schema object of these properties (no others allowed)."""
    out: dict[str, Any] = {
        "type": "object",
        "properties": properties,
        "additionalProperties": False,
    }
    if required:
        out["required"] = required
    return out


def arg_str(args: dict[str, Any], key: str, default: str | None = None) -> str | None:
    """A string argument (``default`` when absent); a mapping or list is a
    :class:`ToolInputError`."""
    value = args.get(key, default)
    if value is None:
        return default
    if isinstance(value, (dict, list)):
        raise ToolInputError(f"argument {key!r} must be a string")
    return str(value)


def arg_int(args: dict[str, Any], key: str, default: int | None = None) -> int | None:
    """An integer argument (``default`` when absent or empty); anything else is a
    :class:`ToolInputError`."""
    value = args.get(key, default)
    if value in (None, ""):
        return default
    try:
        return int(value)
    except (TypeError, ValueError):
        raise ToolInputError(f"argument {key!r} must be an integer, got {value!r}") from None


__all__ = [
    "INTERNAL_ERRORS",
    "CallContext",
    "Maker",
    "Surface",
    "ToolInputError",
    "ToolResult",
    "ToolSpec",
    "arg_int",
    "arg_str",
    "env_lock",
    "rewrite_output",
    "scenario_tools",
    "schema",
]
