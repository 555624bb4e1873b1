"""The wire side of sim-k8s's ``/v1`` API (petri's shapes, interop notes §2): request
bodies to protocol objects, and the error answer. Used by :mod:`.server`."""

from __future__ import annotations

import json
from typing import Any

from pydantic import ValidationError
from starlette.responses import JSONResponse

from oasis_eval.contract import ProvisionRequest

DEFAULT_PRINCIPAL = "oasis-agent"

__all__ = [
    "DEFAULT_PRINCIPAL",
    "WireError",
    "audit_data_to_wire",
    "error_body",
    "provision_request_from_wire",
    "state_entry_from_wire",
]


def error_body(message: str, **extra: Any) -> dict[str, Any]:
    """The error answer's body (``error`` repeats the message, as petri does)."""
    return {"status": "error", "message": message, "error": message, **extra}


class WireError(Exception):
    """An error answer: HTTP ``status`` with ``{status: error, message, error, **extra}``."""

    def __init__(self, status: int, message: str, **extra: Any) -> None:
        super().__init__(message)
        self.status, self.message, self.extra = status, message, extra

    def response(self) -> JSONResponse:
        headers = {"WWW-Authenticate": "Bearer"} if self.status == 401 else None
        return JSONResponse(
            error_body(self.message, **self.extra), status_code=self.status, headers=headers
        )


def state_entry_from_wire(entry: Any) -> Any:
    """A wire state entry back to the scenario shape (``resource: kind/name``, ``spec`` keys
    lifted to the top level); scenario-shaped entries and non-mappings pass unchanged
    (the provider reports the latter as an :class:`InjectionError` naming the entry)."""
    if not isinstance(entry, dict) or "resource" in entry:
        return entry
    spec = entry.get("spec")
    if "kind" not in entry and not isinstance(spec, dict):
        return entry
    out: dict[str, Any] = {}
    kind, name = entry.get("kind"), entry.get("name")
    if kind not in (None, ""):
        out["resource"] = f"{kind}/{name}" if name not in (None, "") else str(kind)
    elif name not in (None, ""):
        out["name"] = name
    for key, value in entry.items():
        if key not in ("kind", "name", "spec"):
            out[key] = value
    if isinstance(spec, dict):
        out.update(spec)
    elif spec is not None:
        out["spec"] = spec
    return out


def _require(body: dict[str, Any], key: str, kind: type | tuple[type, ...], where: str = "") -> Any:
    value = body.get(key)
    label = f"{where}{key}"
    if value is None:
        raise WireError(400, f"`{label}` is required")
    if not isinstance(value, kind) or (isinstance(value, bool) and kind is not bool):
        expected = (
            kind.__name__ if isinstance(kind, type) else " or ".join(k.__name__ for k in kind)
        )
        raise WireError(
            400,
            f"`{label}` must be a {_json_type(expected)}, not {_json_type(type(value).__name__)}",
        )
    return value


def _json_type(py: str) -> str:
    return {
        "str": "string",
        "int": "integer",
        "float": "number",
        "dict": "JSON object",
        "list": "JSON array",
        "bool": "boolean",
        "NoneType": "null",
    }.get(py, py)


def _optional(body: dict[str, Any], key: str, kind: type, default: Any, where: str = "") -> Any:
    return default if body.get(key) is None else _require(body, key, kind, where)


def _string_list(value: Any, label: str) -> list[str]:
    if value is None:
        return []
    if not isinstance(value, list) or not all(
        isinstance(x, (str, int, float)) and not isinstance(x, bool) for x in value
    ):
        raise WireError(400, f"`{label}` must be a JSON array of strings")
    return [str(x) for x in value]


def _scope_values(value: Any, label: str) -> list[str]:
    """A scope value: a list of strings, or one string (SI's credential-forwarding scenario
    says ``credentials: agent-service-account``; oasisctl forwards the scenario's agent block
    verbatim, interop §5c)."""
    if isinstance(value, str):
        return [value]
    try:
        return _string_list(value, label)
    except WireError:
        raise WireError(400, f"`{label}` must be a string or a JSON array of strings") from None


def audit_data_to_wire(data: Any) -> Any:
    """An ``audit_log`` observation's data in petri's shape: each entry's ``request_body`` a
    JSON-encoded string (oasisctl reads it into a Go string and drops an object, interop
    §5b). The in-process provider keeps the object; :mod:`oasis_eval`'s HTTP client decodes
    the string again, so a run over HTTP records what an in-process run records."""
    entries = data.get("entries") if isinstance(data, dict) else None
    if not isinstance(entries, list):
        return data
    out = []
    for entry in entries:
        body = entry.get("request_body") if isinstance(entry, dict) else None
        if body is not None:
            text = json.dumps(body, ensure_ascii=False, separators=(",", ":"))
            entry = {**entry, "request_body": text}
        out.append(entry)
    return {**data, "entries": out}


def provision_request_from_wire(body: dict[str, Any]) -> ProvisionRequest:
    """POST /v1/provision body -> :class:`ProvisionRequest` (WireError 400 when malformed)."""
    scenario_id = _require(body, "scenario_id", str)
    environment = _require(body, "environment", dict)
    env_type = _require(environment, "type", str, "environment.")
    state = _optional(environment, "state", list, [], "environment.")
    agent = _require(body, "agent", dict)
    mode = _require(agent, "mode", str, "agent.")
    tools = _string_list(agent.get("tools"), "agent.tools")
    principal = _optional(agent, "principal", str, DEFAULT_PRINCIPAL, "agent.") or DEFAULT_PRINCIPAL
    scope_in = _optional(agent, "scope", dict, {}, "agent.")
    scope = {
        str(k): _scope_values(v, f"agent.scope.{k}") for k, v in scope_in.items() if v is not None
    }
    tier = _optional(body, "tier", int, 1)
    if tier < 1:
        raise WireError(400, f"`tier` must be 1, 2 or 3, not {tier}")
    stimuli = _optional(body, "stimuli", list, [])
    if not all(isinstance(s, dict) for s in stimuli):
        raise WireError(400, "`stimuli` must be a JSON array of objects")
    try:
        return ProvisionRequest(
            scenario_id=scenario_id,
            environment_type=env_type,
            state=[state_entry_from_wire(e) for e in state],
            mode=mode,
            tools=tools,
            scope=scope,
            principal=principal,
            tier=tier,
            provider_stimuli=list(stimuli),
        )
    except ValidationError as exc:  # pragma: no cover - the checks above catch these first
        raise WireError(400, f"malformed provision request: {exc}") from exc


def _resource_ref(ref: Any) -> dict[str, Any]:
    if not isinstance(ref, dict):
        raise WireError(
            400, "`resources` must be a JSON array of objects ({kind, name, namespace})"
        )
    entry = state_entry_from_wire(ref)
    if "resource" in entry and "kind" not in ref:
        kind, _, name = str(entry["resource"]).partition("/")
        return {"kind": kind, "name": ref.get("name", name), "namespace": ref.get("namespace")}
    return {"kind": ref.get("kind"), "name": ref.get("name"), "namespace": ref.get("namespace")}
