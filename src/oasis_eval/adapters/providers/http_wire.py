"""petri's ``/v1`` wire shapes and the words of its error bodies (spec 08 §3.8, interop notes §2).

:func:`wire_state_entry` translates a scenario state entry, :func:`wire_parameters`
makes observation parameters strings, :func:`audit_data_from_wire` decodes petri's
JSON-encoded audit request bodies; the rest turns an error body or a validation
error into the one line a :class:`~oasis_eval.contract.ProviderFault` carries.
"""

from __future__ import annotations

import contextlib
import datetime as _dt
import json
from typing import Any

from pydantic import ValidationError
from pydantic_core import from_json

from ...contract import ProvisionRequest

#: state keys that stay at the top level of a wire state entry; the rest go under ``spec``
TOP_LEVEL_STATE_KEYS = ("namespace", "zone", "labels", "annotations", "data")


def wire_state_entry(entry: dict[str, Any]) -> dict[str, Any]:
    """Scenario state entry -> petri's wire shape.

    ``{resource: "deployment/api", namespace: ns, status: running, replicas: 2}`` becomes
    ``{kind: "deployment", name: "api", namespace: ns, spec: {status: running, replicas: 2}}``.
    ``resource`` is split at the first ``/`` (no ``/``: all of it is the kind); entries
    already carrying ``kind``/``name`` keep them; an explicit ``spec`` mapping is merged
    with the other keys (the other keys win); an empty ``spec`` is left out.
    """
    out: dict[str, Any] = {}
    spec: dict[str, Any] = {}
    resource = entry.get("resource")
    if isinstance(resource, str):
        kind, sep, name = resource.partition("/")
        out["kind"] = kind
        if sep:
            out["name"] = name
    for key in ("kind", "name"):
        if key in entry and key not in out:
            out[key] = entry[key]
    explicit_spec = entry.get("spec")
    if isinstance(explicit_spec, dict):
        spec.update(explicit_spec)
    for key, value in entry.items():
        if key == "resource" and isinstance(value, str):
            continue  # became kind/name
        if key in ("kind", "name") and out.get(key) is not value:
            # ``resource`` already named it; keep the explicit value visible under spec
            spec[key] = value
        elif key in ("kind", "name"):
            continue
        elif key in TOP_LEVEL_STATE_KEYS:
            out[key] = value
        elif key == "spec" and isinstance(value, dict):
            continue
        else:
            spec[key] = value
    if spec:
        out["spec"] = spec
    return out


def _wire_string(value: Any) -> str:
    if isinstance(value, str):
        return value
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, _dt.datetime):
        if value.tzinfo is None:
            value = value.replace(tzinfo=_dt.UTC)
        return value.isoformat().replace("+00:00", "Z")
    if isinstance(value, (_dt.date, _dt.time)):
        return value.isoformat()
    if isinstance(value, (list, tuple, set)):
        return ",".join(_wire_string(v) for v in value)
    if isinstance(value, dict):
        return json.dumps(value, sort_keys=True)
    return str(value)


def wire_parameters(parameters: dict[str, Any] | None) -> dict[str, str]:
    """Observation parameters as strings (petri's contract): ``None`` values are dropped,
    booleans become ``true``/``false``, datetimes RFC 3339 (naive = UTC), lists comma-joined."""
    return {str(k): _wire_string(v) for k, v in (parameters or {}).items() if v is not None}


def audit_data_from_wire(data: Any) -> Any:
    """An ``audit_log`` observation's data with each entry's ``request_body`` decoded when it is
    a JSON-encoded string (petri's shape, interop §5b), so the engine records the same object
    an in-process provider hands over; a string that is not JSON stays as it is."""
    entries = data.get("entries") if isinstance(data, dict) else None
    if not isinstance(entries, list):
        return data
    out = []
    for entry in entries:
        body = entry.get("request_body") if isinstance(entry, dict) else None
        if isinstance(body, str):
            with contextlib.suppress(ValueError):
                entry = {**entry, "request_body": _decoded(body)}
        out.append(entry)
    return {**data, "entries": out}


def _decoded(text: str) -> Any:
    """JSON text decoded by pydantic-core's parser (issue 30: about twice as fast as ``json``
    over a run's audit bodies); what it refuses (a lone surrogate escape), ``json`` reads."""
    try:
        return from_json(text)
    except ValueError:
        return json.loads(text)


def body_message(body: Any, fallback: str = "") -> str:
    """The provider's own words from an error body."""
    if isinstance(body, dict):
        parts = []
        for key in ("message", "error", "reason"):
            value = body.get(key)
            if isinstance(value, str) and value and value not in parts:
                parts.append(value)
        if parts:
            return ": ".join(parts)
        return shorten(json.dumps(body))
    if isinstance(body, str) and body.strip():
        return shorten(body.strip())
    return fallback


def shorten(text: str, limit: int = 300) -> str:
    """``text`` cut to ``limit`` characters (with an ellipsis)."""
    return text if len(text) <= limit else text[:limit] + "…"


def validation_detail(exc: ValidationError) -> str:
    """Each validation error as ``field `a.b`: message``, joined."""
    parts = []
    for error in exc.errors():
        where = ".".join(str(p) for p in error.get("loc", ())) or "(body)"
        parts.append(f"field `{where}`: {error.get('msg')}")
    return "; ".join(parts)


def provision_wire_body(request: ProvisionRequest) -> dict[str, Any]:
    """The POST /v1/provision body for a request (petri's wire shape, interop notes §2)."""
    scope: dict[str, Any] = {
        "namespaces": list(request.scope.get("namespaces", [])),
        "zones": list(request.scope.get("zones", [])),
    }
    for key, value in request.scope.items():
        scope.setdefault(key, value)
    body: dict[str, Any] = {
        "scenario_id": request.scenario_id,
        "environment": {
            "type": request.environment_type,
            "state": [wire_state_entry(e) for e in request.state],
        },
        "agent": {
            "mode": request.mode,
            "tools": list(request.tools),
            "scope": scope,
            "principal": request.principal,
        },
        "tier": request.tier,
    }
    if request.provider_stimuli:
        body["stimuli"] = list(request.provider_stimuli)
    return body
