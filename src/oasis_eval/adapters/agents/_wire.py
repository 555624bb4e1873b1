"""The agent wire format shared by every adapter (spec 04 §1; interop §1).

The request body and the response shape are oasisctl's HTTP agent contract, so
an agent written for oasisctl works under oasis-eval unchanged. The CLI and MCP
adapters carry the very same JSON documents over their own transports.

Request (one per scenario)::

    {"prompt": str,
     "tools": [str] | null,                     # null when the scenario lists none
     "mode": "read-only" | "supervised" | "autonomous",
     "scope": {"namespaces": [...], "zones": [...]},   # empty keys omitted
     "conversation": [str, ...],                # only when non-empty (oasis-eval extension)
     "environment": {"agent_endpoint": ..., "agent_credentials": {...}}}
                                                # only when provisioned (oasis-eval extension)

Response (unknown fields ignored)::

    {"actions": [{"id"?, "tool", "arguments": {...}, "result": str,
                  "error"?, "error_code"?, "duration_ms"?}],
     "reasoning": str, "final_answer": str, "model"?: str,
     "error"?: str}                             # the agent answered with an error

Identity (once per run)::

    {"identity": {"name", "version", "description"?},
     "configuration": {<dimension>: <string|bool|number>},
     "tools"?: [str], "mode"?: str}             # optional self-declarations (04 §1)

Anything that does not fit these shapes is a protocol violation: the parse
functions raise :class:`AgentFault` (a harness fault, never a FAIL).
"""

from __future__ import annotations

import json
from typing import Any

from pydantic import ValidationError

from ...contract import (
    AgentFault,
    AgentIdentity,
    AgentReport,
    AgentResponse,
    AgentTask,
    AgentUnreachable,
    ToolCall,
    network_address,
)

__all__ = [
    "MAX_ANSWER_BYTES",
    "NETWORK_SCHEMES",
    "check_reachable",
    "compact_json",
    "error_payload",
    "parse_json_text",
    "parse_report",
    "parse_response",
    "request_body",
    "snippet",
]

#: the largest answer read from an agent, whatever the transport (CLI stdout, HTTP body)
MAX_ANSWER_BYTES = 64 * 1024 * 1024


def compact_json(value: Any) -> str:
    """JSON-encode without whitespace (how a non-string ``result`` is stored)."""
    return json.dumps(value, separators=(",", ":"), ensure_ascii=False, sort_keys=False)


def snippet(text: str | bytes, limit: int = 200) -> str:
    """A short, printable excerpt of what was received, for fault messages."""
    if isinstance(text, bytes):
        text = text.decode("utf-8", errors="replace")
    text = text.strip()
    if not text:
        return "<empty>"
    if len(text) > limit:
        return repr(text[:limit]) + f"... ({len(text)} chars)"
    return repr(text)


#: what an agent in another process can reach: network endpoints (engine/access.py checks
#: the provider's hand-off against the ``endpoint_schemes`` of the adapters declaring it);
#: an endpoint of any other scheme with an explicit host:port is a network endpoint too
#: (:func:`oasis_eval.contract.network_address`)
NETWORK_SCHEMES = ("http", "https")


def check_reachable(task: AgentTask, source: str) -> None:
    """Refuse (:class:`AgentUnreachable`, nothing exchanged) a task whose ``agent_endpoint``
    an agent in another process cannot reach, e.g. ``sim-k8s://`` (in-process only): run,
    it could act on nothing and pass vacuously."""
    endpoint = task.environment.agent_endpoint if task.environment is not None else None
    if not endpoint:
        return
    scheme = endpoint.partition("://")[0].lower()
    if scheme not in NETWORK_SCHEMES and not network_address(endpoint):
        raise AgentUnreachable(
            f"{source} runs outside this process and cannot reach the environment's "
            f"agent_endpoint {scheme}://... (it exists only inside the runner); the provider "
            "must hand out a network endpoint (http(s), or an explicit host:port)"
        )


def request_body(task: AgentTask) -> dict[str, Any]:
    """The execute request for ``task``, exactly as it goes on the wire."""
    body: dict[str, Any] = {
        "prompt": task.prompt,
        "tools": list(task.tools) if task.tools else None,
        "mode": task.mode,
        "scope": {key: list(values) for key, values in task.scope.items() if values},
    }
    if task.conversation:
        body["conversation"] = list(task.conversation)
    if task.environment is not None:
        environment = task.environment.model_dump(mode="json", exclude_none=True)
        if environment:  # nothing provisioned for the agent: leave the key out
            body["environment"] = environment
    return body


def parse_json_text(text: str | bytes, source: str) -> Any:
    """Decode a JSON document or raise AgentFault naming ``source`` and what came back."""
    try:
        return json.loads(text)
    except (ValueError, UnicodeDecodeError) as exc:
        raise AgentFault(
            f"{source} returned invalid JSON ({exc}): received {snippet(text)}"
        ) from None


def _fmt_validation(exc: ValidationError) -> str:
    parts = []
    for err in exc.errors()[:5]:
        loc = ".".join(str(p) for p in err.get("loc", ())) or "<root>"
        parts.append(f"{loc}: {err.get('msg')}")
    more = exc.error_count() - len(parts)
    return "; ".join(parts) + (f" (+{more} more)" if more > 0 else "")


def _opt_text(data: dict[str, Any], key: str, source: str, where: str = "") -> str | None:
    value = data.get(key)
    if value is None or isinstance(value, str):
        return value
    raise AgentFault(
        f"{source} broke the response contract: {where}{key!r} must be a string, got {type(value).__name__}"
    )


def _parse_action(raw: Any, index: int, source: str) -> ToolCall:
    where = f"actions[{index}]"
    if not isinstance(raw, dict):
        raise AgentFault(
            f"{source} broke the response contract: {where} must be an object, got {type(raw).__name__}"
        )
    entry = dict(raw)
    if not isinstance(entry.get("tool"), str) or not entry["tool"]:
        raise AgentFault(
            f"{source} broke the response contract: {where}.tool must be a non-empty string"
        )
    args = entry.get("arguments")
    if args is None:
        entry["arguments"] = {}
    elif isinstance(args, str):
        # some agents forward the model's raw argument string; accept it when it is an object
        try:
            decoded = json.loads(args) if args.strip() else {}
        except ValueError:
            decoded = None
        if not isinstance(decoded, dict):
            raise AgentFault(
                f"{source} broke the response contract: {where}.arguments must be an object, "
                f"got the string {snippet(args, 80)}"
            )
        entry["arguments"] = decoded
    elif not isinstance(args, dict):
        raise AgentFault(
            f"{source} broke the response contract: {where}.arguments must be an object, "
            f"got {type(args).__name__}"
        )
    result = entry.get("result")
    if result is None:
        entry["result"] = ""
    elif not isinstance(result, str):
        # the contract says string (often compact JSON inside the string): encode it for the agent
        entry["result"] = compact_json(result)
    error = entry.get("error")
    if error is not None and not isinstance(error, str):
        entry["error"] = compact_json(error)
    try:
        return ToolCall.model_validate(entry)
    except ValidationError as exc:
        raise AgentFault(
            f"{source} broke the response contract: {where}: {_fmt_validation(exc)}"
        ) from None


def parse_response(data: Any, source: str) -> AgentResponse:
    """Validate an execute response; unknown top-level fields are ignored."""
    if not isinstance(data, dict):
        raise AgentFault(
            f"{source} broke the response contract: expected a JSON object, got {type(data).__name__}"
        )
    actions_raw = data.get("actions")
    if actions_raw is None:
        actions_raw = []
    if not isinstance(actions_raw, list):
        raise AgentFault(
            f"{source} broke the response contract: 'actions' must be a list, got {type(actions_raw).__name__}"
        )
    actions = [_parse_action(raw, i, source) for i, raw in enumerate(actions_raw)]
    error_raw = data.get("error")
    error = error_payload(data)
    if error is None and error_raw not in (None, "", False):
        error = compact_json(error_raw)  # an unusual error shape: keep it, readable
    return AgentResponse(
        actions=actions,
        reasoning=_opt_text(data, "reasoning", source) or "",
        final_answer=_opt_text(data, "final_answer", source) or "",
        model=_opt_text(data, "model", source) or None,
        error=error,
    )


def error_payload(data: Any) -> str | None:
    """The agent-level error message of a response document, if it carries one."""
    if isinstance(data, dict):
        err = data.get("error")
        if isinstance(err, str) and err:
            return err
        if isinstance(err, dict) and isinstance(err.get("message"), str) and err["message"]:
            return err["message"]
    return None


def parse_report(data: Any, source: str) -> AgentReport:
    """Validate an identity-and-configuration document (04 §1)."""
    if not isinstance(data, dict):
        raise AgentFault(
            f"{source} broke the identity contract: expected a JSON object, got {type(data).__name__}"
        )
    ident = data.get("identity")
    if not isinstance(ident, dict):
        raise AgentFault(f"{source} broke the identity contract: 'identity' must be an object")
    for key in ("name", "version"):
        if not isinstance(ident.get(key), str) or not ident[key].strip():
            raise AgentFault(
                f"{source} broke the identity contract: identity.{key} must be a non-empty string"
            )
    config = data.get("configuration")
    if config is None:
        config = {}
    if not isinstance(config, dict):
        raise AgentFault(f"{source} broke the identity contract: 'configuration' must be an object")
    for key, value in config.items():
        if not isinstance(value, (str, bool, int, float)):
            raise AgentFault(
                f"{source} broke the identity contract: configuration.{key} must be a string, "
                f"boolean or number, got {type(value).__name__}"
            )
    tools = data.get("tools")
    if tools is not None and (
        not isinstance(tools, list) or not all(isinstance(t, str) for t in tools)
    ):
        raise AgentFault(f"{source} broke the identity contract: 'tools' must be a list of strings")
    mode = data.get("mode")
    if mode is not None and not isinstance(mode, str):
        raise AgentFault(f"{source} broke the identity contract: 'mode' must be a string")
    try:
        return AgentReport(
            identity=AgentIdentity(
                name=ident["name"],
                version=ident["version"],
                description=_opt_text(ident, "description", source, "identity."),
            ),
            configuration=config,
            declared_tools=tools,
            declared_mode=mode,
        )
    except ValidationError as exc:
        raise AgentFault(f"{source} broke the identity contract: {_fmt_validation(exc)}") from None
