"""A leaner ``/v1`` wire, negotiated per environment (issue 30; see docs/provider-wire.md).

Petri's wire carries, per scenario, the audit log with each write's body twice (the
flattened ``request_body``, a JSON-encoded string, and the raw event's ``requestObject``),
a second round trip for the provider's ``served_calls`` record, and the whole final
snapshot although an agent changes few of its resources. The client offers four
extensions in provision's ``wire_extensions``; a provider names those it accepts in its
answer, and only those are used for that environment. A provider that answers without the
field (petri) gets petri's wire, unchanged:

- :data:`AUDIT_BODY_REF`: an ``audit_log`` answer marked with it carries ``request_body:
  true`` where the body is the raw event's ``requestObject``; the client puts that object
  back in its place, shared as the in-process provider shares it;
- :data:`SERVED_WITH_AUDIT`: ``observe served_calls`` is sent as ``observe audit_log`` with
  ``served_calls: true``; the provider reads its record *before* its log (the ordering
  :func:`oasis_eval.engine.completeness.observe_served` needs) and answers both; the audit
  part is kept for the runner's next ``audit_log`` observation of the same window;
- :data:`SNAPSHOT_DELTA`: each whole snapshot answer has a ``snapshot_id``; a later whole
  snapshot names it as ``since`` and may come back as a ``delta`` of segments (a run of the
  base's resources ``[start, stop]``, or ``{resource, replaces?}``), rebuilt whole here so
  judging, evidence and replay see the snapshot a whole answer would have carried, and
  checked against the ``digest`` of the whole list the provider sends with the delta;
- :data:`CAPTURE`: everything read after the agent in one ``POST /v1/capture``
  (:mod:`.http_capture`);
- :data:`PROVISION_SNAPSHOT`: provision's answer carries, as ``state_snapshot``, the whole
  snapshot a ``POST /v1/state-snapshot`` asked at once would answer; the runner's first whole
  snapshot takes it (:func:`folded_snapshot`) when no other call reached the environment
  since, and checks it exactly as that call's answer; absent, the call is made.

Evidence is the same bytes either way. A marked answer that does not hold together (an
unknown base, ranges out of order, a resource twice, a placeholder without its raw body) is
a :class:`ProviderFault`: PROVIDER_FAILURE, never a guess.
"""

from __future__ import annotations

import dataclasses
import hashlib
from bisect import bisect_right
from typing import Any

from pydantic_core import to_json

from ...contract import ProviderFault

AUDIT_BODY_REF = "oasis-audit-body-ref"
SERVED_WITH_AUDIT = "oasis-served-with-audit"
SNAPSHOT_DELTA = "oasis-snapshot-delta"
#: one call after the agent (:mod:`.http_capture`)
CAPTURE = "oasis-capture"
#: the precondition snapshot in provision's answer (``state_snapshot``)
PROVISION_SNAPSHOT = "oasis-provision-snapshot"
#: what this client offers, in provision's ``wire_extensions``
OFFERED = (AUDIT_BODY_REF, CAPTURE, PROVISION_SNAPSHOT, SERVED_WITH_AUDIT, SNAPSHOT_DELTA)

__all__ = [
    "AUDIT_BODY_REF",
    "OFFERED",
    "PROVISION_SNAPSHOT",
    "SERVED_WITH_AUDIT",
    "SNAPSHOT_DELTA",
    "Negotiated",
    "accepted_extensions",
    "audit_bodies_shared",
    "body_refs",
    "folded_snapshot",
    "folded_type",
    "kept_audit",
    "lean_audit_data",
    "passed_by",
    "popped_snapshot",
    "rebuilt_snapshot",
    "served_part",
    "snapshot_digest",
    "snapshot_resources",
]


@dataclasses.dataclass
class Negotiated:
    """One environment's accepted extensions and what they carry between calls."""

    accepted: frozenset[str]
    #: the last whole snapshot's resources and the provider's id for it
    base: list[Any] | None = None
    base_id: str | None = None
    #: an ``audit_log`` answer read with the served record: (parameters, answer body)
    audit: tuple[dict[str, str], dict[str, Any]] | None = None
    #: provision's ``state_snapshot`` (:data:`PROVISION_SNAPSHOT`), boxed, until a call on the
    #: environment takes it (the first whole snapshot) or passes it by (any other)
    folded: tuple[Any] | None = None


def accepted_extensions(call: str, answer: dict[str, Any]) -> frozenset[str]:
    """The extensions a provision answer accepted (popped from it): a subset of :data:`OFFERED`,
    else a fault (a provider must not answer with what it was not offered)."""
    named = answer.pop("wire_extensions", None)
    if named is None:
        return frozenset()
    if not isinstance(named, list) or not all(isinstance(n, str) for n in named):
        raise ProviderFault(f"{call}: `wire_extensions` is not a list of names")
    unknown = sorted(set(named) - set(OFFERED))
    if unknown:
        raise ProviderFault(f"{call}: provider accepted wire extensions never offered: {unknown}")
    return frozenset(named)


def popped_snapshot(accepted: frozenset[str], data: dict[str, Any]) -> tuple[Any] | None:
    """Provision's folded ``state_snapshot``, boxed and popped from its answer (so the run's
    provision evidence is what it would be without it), when :data:`PROVISION_SNAPSHOT` was
    accepted and the answer carries one; else None (the separate call is made)."""
    if PROVISION_SNAPSHOT not in accepted or "state_snapshot" not in data:
        return None
    return (data.pop("state_snapshot"),)


def passed_by(lean: dict[str, Negotiated], body: dict[str, Any]) -> None:
    """A call on an environment (its ``environment_id`` in ``body``) passes provision's folded
    snapshot by: the state may have moved since (:func:`folded_snapshot`)."""
    negotiated = lean.get(str(body.get("environment_id")))
    if negotiated is not None:
        negotiated.folded = None


def folded_snapshot(call: str, lean: Negotiated | None) -> dict[str, Any] | None:
    """The first whole snapshot's answer, from provision's (taken once); None when there is
    none or a call on the environment came between (the state may have moved: ask). Not an
    object: a :class:`ProviderFault`, as that call's answer would be (core §3.7)."""
    if lean is None or lean.folded is None:
        return None
    (body,) = lean.folded
    lean.folded = None
    if not isinstance(body, dict):
        raise ProviderFault(
            f"{call}: the state_snapshot folded into provision's answer is not a JSON object "
            f"({PROVISION_SNAPSHOT})"
        )
    return body


def audit_bodies_shared(call: str, data: Any) -> Any:
    """An :data:`AUDIT_BODY_REF` answer's data with each ``request_body: true`` replaced, in its
    place, by the raw event's ``requestObject`` (the object itself, as in process)."""
    entries = data.get("entries") if isinstance(data, dict) else None
    if not isinstance(entries, list):
        return data
    for entry in entries:
        if not isinstance(entry, dict) or "request_body" not in entry:
            continue
        raw = entry.get("raw")
        if (
            entry["request_body"] is not True
            or not isinstance(raw, dict)
            or "requestObject" not in raw
        ):
            raise ProviderFault(
                f"{call}: an audit entry's request_body is not a reference to its raw event's "
                f"requestObject although the answer says so ({AUDIT_BODY_REF})"
            )
        entry["request_body"] = raw["requestObject"]
    return data


def body_refs(data: Any) -> tuple[int, ...]:
    """The entries of :func:`audit_bodies_shared`'s ``data`` whose body it put back (each one
    holding ``request_body``: checked there), for the stored form (issue 30)."""
    entries = data.get("entries") if isinstance(data, dict) else None
    if not isinstance(entries, list):
        return ()
    return tuple(i for i, e in enumerate(entries) if isinstance(e, dict) and "request_body" in e)


def folded_type(lean: Negotiated | None, observation_type: str) -> str:
    """The observation to ask for: ``audit_log`` (with the record) for a folded ``served_calls``."""
    if observation_type == "served_calls" and lean and SERVED_WITH_AUDIT in lean.accepted:
        return "audit_log"
    return observation_type


def kept_audit(
    lean: Negotiated | None, observation_type: str, params: dict[str, str]
) -> dict[str, Any] | None:
    """The audit answer read with the served record for this window (taken: used once)."""
    kept = lean.audit if lean is not None and observation_type == "audit_log" else None
    if kept is None or kept[0] != params:
        return None
    assert lean is not None
    lean.audit = None
    return kept[1]


def served_part(
    call: str, lean: Negotiated | None, params: dict[str, str], answer: dict[str, Any]
) -> dict[str, Any]:
    """The served record of a folded answer; its audit part kept for the runner's next call."""
    served = answer.pop("served_calls", None)
    if not isinstance(served, dict) or lean is None:
        raise ProviderFault(f"{call}: the audit_log answer carries no served_calls record")
    lean.audit = (params, answer)
    return served


def lean_audit_data(call: str, body: dict[str, Any], lean: Negotiated | None) -> Any | None:
    """The audit data of an answer an extension shaped (its ``wire_extensions`` mark popped),
    or None when no extension did (petri's shape: the caller decodes it)."""
    marks = body.pop("wire_extensions", None) if lean is not None else None
    if marks is None:
        return None
    if marks != [AUDIT_BODY_REF] or lean is None or AUDIT_BODY_REF not in lean.accepted:
        raise ProviderFault(f"{call}: answer shaped by wire extensions never accepted: {marks!r}")
    return audit_bodies_shared(call, body.get("data"))


def snapshot_resources(call: str, lean: Negotiated, body: dict[str, Any]) -> list[Any]:
    """A whole snapshot answer's resources, whole or rebuilt from its ``delta`` against the
    base the request named (:data:`SNAPSHOT_DELTA`); they become the next base."""
    if "delta" in body:
        delta = body["delta"]
        since = delta.get("since") if isinstance(delta, dict) else None
        if lean.base is None or lean.base_id is None or since != lean.base_id:
            raise ProviderFault(
                f"{call}: snapshot delta against base {since!r}, not the one asked for "
                f"({lean.base_id!r})"
            )
        resources = rebuilt_snapshot(call, lean.base, delta)
        if delta.get("digest") != snapshot_digest(resources):
            raise ProviderFault(
                f"{call}: the snapshot rebuilt from the delta does not match the digest the "
                f"provider sent ({delta.get('digest')!r}): a wrong delta or another base"
            )
    else:
        resources = body.get("resources") or []
    snapshot_id = body.get("snapshot_id")
    if snapshot_id is not None and not isinstance(snapshot_id, str):
        raise ProviderFault(f"{call}: `snapshot_id` is not a string")
    lean.base, lean.base_id = (resources, snapshot_id) if snapshot_id else (None, None)
    return resources


def snapshot_digest(resources: list[Any]) -> str:
    """``sha256:`` and the hex SHA-256 of the resources' compact JSON: no whitespace, keys in
    the order the answers carry them, non-ASCII as UTF-8, nothing escaped that JSON does not
    require (``pydantic_core.to_json``; 0.16 ms for SI's 27 KB, sorted keys cost 0.37)."""
    return "sha256:" + hashlib.sha256(to_json(resources)).hexdigest()


def _identity(resource: Any) -> tuple[Any, Any, Any]:
    if not isinstance(resource, dict):
        return (None, None, None)
    return (resource.get("kind"), resource.get("namespace") or "", resource.get("name"))


def rebuilt_snapshot(call: str, base: list[Any], delta: Any) -> list[Any]:
    """The whole resource list a :data:`SNAPSHOT_DELTA` answer describes against ``base``.

    Checked as it is rebuilt: runs in order and inside the base, each replaced base index
    outside every run and used once with the same identity, each new resource's identity
    absent from the base and unique, the length the provider stated."""
    segments = delta.get("segments") if isinstance(delta, dict) else None
    count = delta.get("count") if isinstance(delta, dict) else None
    if not isinstance(segments, list) or not isinstance(count, int):
        raise ProviderFault(f"{call}: malformed snapshot delta (no segments or count)")
    out: list[Any] = []
    starts: list[int] = []
    stops: list[int] = []
    replaced: list[int] = []
    new: list[Any] = []
    for segment in segments:
        if isinstance(segment, list):
            _run(call, segment, len(base), stops[-1] if stops else 0)
            starts.append(segment[0])
            stops.append(segment[1])
            out.extend(base[segment[0] : segment[1]])
        elif isinstance(segment, dict) and isinstance(segment.get("resource"), dict):
            at = segment.get("replaces")
            if at is None:
                new.append(segment["resource"])
            elif not isinstance(at, int) or isinstance(at, bool) or not 0 <= at < len(base):
                raise ProviderFault(f"{call}: snapshot delta replaces no base resource ({at!r})")
            elif _identity(base[at]) != _identity(segment["resource"]):
                raise ProviderFault(
                    f"{call}: snapshot delta replaces base resource {at} by another"
                )
            else:
                replaced.append(at)
            out.append(segment["resource"])
        else:
            raise ProviderFault(f"{call}: malformed snapshot delta segment")
    _replacements_fit(call, replaced, starts, stops)
    if new:
        _new_fit(call, new, base)
    if len(out) != count:
        raise ProviderFault(
            f"{call}: snapshot delta rebuilds {len(out)} resources, the provider said {count}"
        )
    return out


def _run(call: str, segment: list[Any], size: int, floor: int) -> None:
    ok = (
        len(segment) == 2
        and all(isinstance(i, int) and not isinstance(i, bool) for i in segment)
        and floor <= segment[0] < segment[1] <= size
    )
    if not ok:
        raise ProviderFault(
            f"{call}: snapshot delta run {segment!r} is out of order or outside the base"
        )


def _replacements_fit(call: str, replaced: list[int], starts: list[int], stops: list[int]) -> None:
    if len(set(replaced)) != len(replaced):
        raise ProviderFault(f"{call}: snapshot delta replaces a base resource twice")
    for at in replaced:
        i = bisect_right(starts, at) - 1
        if i >= 0 and at < stops[i]:
            raise ProviderFault(f"{call}: snapshot delta keeps and replaces base resource {at}")


def _new_fit(call: str, new: list[Any], base: list[Any]) -> None:
    known = {_identity(r) for r in base}
    seen: set[tuple[Any, Any, Any]] = set()
    for resource in new:
        key = _identity(resource)
        if key in known or key in seen:
            raise ProviderFault(
                f"{call}: snapshot delta adds {key[0]}/{key[2]} that is already in the snapshot"
            )
        seen.add(key)
