"""The server side of oasis-eval's leaner ``/v1`` wire (issue 30; docs/provider-wire.md).

A runner offers extensions in provision's ``wire_extensions``; this server accepts those it
knows (:data:`SUPPORTED`) and names them in its answer, and uses them for that environment
only. A provision that offers none (petri's runners, oasisctl) is answered in petri's shape,
and so is every later call of its environment:

- ``oasis-audit-body-ref``: an ``audit_log`` answer whose every write body is its raw event's
  ``requestObject`` says ``request_body: true`` instead of sending the body a second time, and
  is marked ``wire_extensions: ["oasis-audit-body-ref"]``; an answer where one is not is sent
  in petri's shape;
- ``oasis-served-with-audit``: ``observe audit_log`` with ``served_calls: true`` reads the
  served record first, then the log (the runner's ordering guarantee), and answers both;
- ``oasis-snapshot-delta``: a whole snapshot answer carries a ``snapshot_id``; asked
  ``since`` the last one, the answer is a ``delta``: runs ``[start, stop]`` of the base's
  resources, and ``{resource, replaces?}`` for a changed (``replaces``: its base index) or
  new one; a removed resource is one no segment keeps. The delta carries the ``digest`` of
  the whole list (:func:`snapshot_digest`): the runner checks its rebuild against it;
- ``oasis-capture``: ``POST /v1/capture`` answers everything read after the agent in one
  exchange (:mod:`.capture_wire`);
- ``oasis-provision-snapshot``: provision's answer carries ``state_snapshot``, the whole
  snapshot taken as the answer's last step (after the hand-off), exactly what a
  ``POST /v1/state-snapshot`` asked next would answer (a base under ``oasis-snapshot-delta``);
  not sent for a provision with unestablished preconditions (no snapshot follows one).
"""

from __future__ import annotations

import dataclasses
import hashlib
from typing import Any

from pydantic_core import to_json

AUDIT_BODY_REF = "oasis-audit-body-ref"
SERVED_WITH_AUDIT = "oasis-served-with-audit"
SNAPSHOT_DELTA = "oasis-snapshot-delta"
CAPTURE = "oasis-capture"
PROVISION_SNAPSHOT = "oasis-provision-snapshot"
SUPPORTED = (AUDIT_BODY_REF, CAPTURE, PROVISION_SNAPSHOT, SERVED_WITH_AUDIT, SNAPSHOT_DELTA)

__all__ = [
    "AUDIT_BODY_REF",
    "CAPTURE",
    "PROVISION_SNAPSHOT",
    "SERVED_WITH_AUDIT",
    "SNAPSHOT_DELTA",
    "SUPPORTED",
    "LeanState",
    "accepted_of",
    "audit_answer",
    "snapshot_answer",
    "snapshot_digest",
]


@dataclasses.dataclass
class LeanState:
    """One environment's accepted extensions and the last whole snapshot it answered."""

    accepted: frozenset[str]
    base: list[Any] | None = None
    base_id: str | None = None
    answered: int = 0


def accepted_of(body: dict[str, Any]) -> frozenset[str] | None:
    """The offered extensions this server supports; None when the request offered none."""
    offered = body.get("wire_extensions")
    if not isinstance(offered, list):
        return None
    return frozenset(e for e in offered if isinstance(e, str) and e in SUPPORTED)


def audit_answer(state: LeanState | None, data: Any, wire: dict[str, Any]) -> bool:
    """Turn ``wire`` (an audit answer dumped from ``data``) to the body-reference shape when
    ``state`` accepted it and every write body in ``data`` is its raw event's (the very
    object); False when it stays in petri's shape for the caller to encode."""
    if state is None or AUDIT_BODY_REF not in state.accepted:
        return False
    entries = data.get("entries") if isinstance(data, dict) else None
    wired = wire["data"].get("entries") if isinstance(wire.get("data"), dict) else None
    if not isinstance(entries, list) or not isinstance(wired, list):
        return False
    for entry in entries:
        body = entry.get("request_body") if isinstance(entry, dict) else None
        raw = entry.get("raw") if isinstance(entry, dict) else None
        if body is not None and (not isinstance(raw, dict) or raw.get("requestObject") is not body):
            return False
    for entry in wired:
        if entry.get("request_body") is not None:
            entry["request_body"] = True
    wire["wire_extensions"] = [AUDIT_BODY_REF]
    return True


def _identity(resource: dict[str, Any]) -> tuple[Any, Any, Any]:
    return (resource.get("kind"), resource.get("namespace") or "", resource.get("name"))


def snapshot_answer(state: LeanState | None, since: Any, wire: dict[str, Any]) -> dict[str, Any]:
    """A whole snapshot's answer under ``oasis-snapshot-delta``: with its ``snapshot_id``, as a
    delta when ``since`` names the base this server holds (else whole); it becomes the base."""
    if state is None or SNAPSHOT_DELTA not in state.accepted:
        return wire
    resources = wire.get("resources") or []
    delta = None
    if since is not None and since == state.base_id and state.base is not None:
        delta = _delta(state.base, resources)
    state.answered += 1
    state.base, state.base_id = resources, str(state.answered)
    if delta is None:
        return {**wire, "snapshot_id": state.base_id}
    answer = {k: v for k, v in wire.items() if k != "resources"}
    delta["digest"] = snapshot_digest(resources)
    return {**answer, "delta": {"since": since, "count": len(resources), **delta},
            "snapshot_id": state.base_id}  # fmt: skip


def snapshot_digest(resources: list[Any]) -> str:
    """``sha256:`` and the hex SHA-256 of the resources' compact JSON: no whitespace, keys in
    the order the answers carry them, non-ASCII as UTF-8, nothing escaped that JSON does not
    require (``pydantic_core.to_json``; 0.16 ms for SI's 27 KB, sorted keys cost 0.37)."""
    return "sha256:" + hashlib.sha256(to_json(resources)).hexdigest()


def _delta(base: list[Any], resources: list[Any]) -> dict[str, Any] | None:
    """The segments rebuilding ``resources`` from ``base``; None when an identity repeats or
    kept resources changed order (runs are in base order: the whole answer is sent then)."""
    where = {_identity(r): i for i, r in enumerate(base)}
    if len(where) != len(base) or len({_identity(r) for r in resources}) != len(resources):
        return None
    segments: list[Any] = []
    floor = 0
    for resource in resources:
        at = where.get(_identity(resource))
        if at is not None and base[at] == resource:
            if at < floor:
                return None
            last = segments[-1] if segments else None
            if isinstance(last, list) and last[1] == at:
                last[1] = at + 1
            else:
                segments.append([at, at + 1])
            floor = at + 1
        elif at is not None:
            segments.append({"resource": resource, "replaces": at})
        else:
            segments.append({"resource": resource})
    return {"segments": segments}
