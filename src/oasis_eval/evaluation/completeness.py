"""Is the captured audit log complete? Checked from harness-side records, never assumed.

An ``audit_log`` observation that says ``available`` but is empty, or lacks the
agent's entries, would read as "the agent did nothing" and turn FAILs into PASSes.
05 §1.1 reserves ``partial`` for "evidence known to be incomplete" and has
evaluators treat it as ``unreachable``: a runtime PROVIDER_FAILURE (core §3.6,
§3.7). These pure functions find the evidence that proves a log incomplete:

- :func:`setup_write_gaps` (the canary): the engine knows what it asked the
  provider to establish (the provision request's state, the ``inject_state``
  entries). Every such entry that names one API object the snapshots report
  (``kind/name``; the same "real API object" rule as the precondition check),
  must appear as a write by a user that is not the agent, naming the object.
  Kinds compare through :func:`~.kinds.resource_name` (singular, plural, short
  name, the snapshot's ``kind`` or its object's ``kind``); names and namespaces
  through the provider's ``resolved_namespaces``. Objects a controller owns
  (``ownerReferences`` with ``controller: true``: pods of a ReplicaSet) are
  written by that controller, not by the provider's setup, and are not required.
- :func:`served_call_gaps`: a provider that serves the agent's tools keeps its own
  record of the calls it served (observation ``served_calls``); each one must be
  in the audit log (by audit id, else by verb/resource/subresource/name/namespace
  multiset), attributed to the agent.

The agent's own account of its calls is checked by :mod:`.reported_calls` (a report flag,
never a fault).
"""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from ..spec.kinds import CLUSTER_SCOPED, resource_name
from .bodies import READ_VERBS, user_is
from .removals import Removals, writes_of

#: the observation type of the provider's served-call record (offered at provision)
SERVED_CALLS = "served_calls"
#: at most this many gaps are named in a fault message
SHOWN = 5


# ---- reading entries ---------------------------------------------------------------------------


def _dict(value: Any) -> dict[str, Any]:
    if isinstance(value, str):  # petri's request_body is a JSON-encoded string (interop §5b)
        try:
            value = json.loads(value)
        except ValueError:
            return {}
    return value if isinstance(value, dict) else {}


def _object_ref(entry: Mapping[str, Any], key: str) -> str | None:
    """``name`` / ``namespace`` of an audit entry: its own field, else the object it wrote
    (a create names its object only in the body), else the raw event's ``objectRef``."""
    value = entry.get(key)
    if not value:
        meta = _dict(entry.get("request_body")).get("metadata")
        value = meta.get(key) if isinstance(meta, dict) else None
    if not value:
        ref = _dict(entry.get("raw")).get("objectRef")
        value = ref.get(key) if isinstance(ref, dict) else None
    return str(value) if value else None


class Attribution:
    """Is an entry the agent's? Its user is the principal, or the provider marked it as made in
    the agent's session (``data.agent_principal``), the rule of :mod:`.audit`. Users are few:
    the per-user answer is cached, so a large log costs one dict lookup per entry."""

    def __init__(self, principal: str):
        self.principal = principal
        self._users: dict[Any, bool] = {}

    def agent(self, entry: Mapping[str, Any]) -> bool:
        user, data = entry.get("user"), entry.get("data")
        if isinstance(user, str) and self._is(user):
            return True
        session = data.get("agent_principal") if isinstance(data, dict) else None
        return bool(session) and self._is(str(session))

    def _is(self, name: str) -> bool:
        """:func:`~.bodies.user_is`, cached: a session mark in service-account form counts too,
        exactly as :func:`~.bodies.attributed` reads it for verification."""
        hit = self._users.get(name)
        if hit is None:
            hit = self._users[name] = user_is(name, self.principal)
        return hit


def entries_of(data: Any) -> list[dict[str, Any]]:
    """The entries of an ``audit_log`` observation's data (only dict entries)."""
    raw = data.get("entries") if isinstance(data, dict) else data
    return [e for e in raw if isinstance(e, dict)] if isinstance(raw, list) else []


# ---- the canary: the provider's own setup writes -----------------------------------------------


@dataclass(frozen=True)
class Expected:
    """One object the engine asked the provider to establish, as any audit entry may name it."""

    label: str
    resources: frozenset[str]
    names: frozenset[str]
    #: accepted namespaces; None: any (cluster-scoped, or the entry named none)
    namespaces: frozenset[str] | None


def _reference(entry: Mapping[str, Any]) -> tuple[str, str] | None:
    """(kind, name) of a state entry naming exactly one object (``kind/name``), else None."""
    ref = entry.get("resource")
    if not ref and entry.get("kind") and entry.get("name"):
        ref = f"{entry['kind']}/{entry['name']}"
    parts = str(ref or "").strip().split("/")
    if len(parts) != 2 or not all(parts) or "*" in parts[1]:
        return None  # a collection, a sub-path (pod/x/logs) or a pattern: not one API object
    return parts[0], parts[1]


def _kinds(obj: Mapping[str, Any]) -> frozenset[str]:
    """The plural resources a snapshot object may be logged under: its reported kind (maybe a
    profile noun, ``gitops-application``) and its stored object's API kind (``Application``)."""
    state = obj.get("state")
    kind, api = obj.get("kind"), state.get("kind") if isinstance(state, dict) else None
    if (kind is None or type(kind) is str) and (api is None or type(api) is str):
        return _plurals(kind, api)  # asked of every snapshot object: no generator (issue 30)
    return _plurals.__wrapped__(kind, api)  # a kind that is no string: not worth remembering


@lru_cache(maxsize=1024)
def _plurals(*kinds: Any) -> frozenset[str]:
    """:func:`_kinds` of one (reported kind, API kind) pair, remembered: a snapshot repeats a
    few pairs over hundreds of objects, read at every scenario's completeness check (issue 30)."""
    return frozenset(p for p in (resource_name(str(k)) if k else None for k in kinds) if p)


def _controller_owned(state: Any) -> bool:
    meta = state.get("metadata") if isinstance(state, dict) else None
    refs = meta.get("ownerReferences") if isinstance(meta, dict) else None
    return isinstance(refs, list) and any(isinstance(r, dict) and r.get("controller") for r in refs)


def expected_setup_writes(
    state: Iterable[Mapping[str, Any]],
    snapshots: Iterable[Sequence[Mapping[str, Any]]],
    resolved_namespaces: Mapping[str, str] | None = None,
) -> list[Expected]:
    """The objects whose setup writes the audit log must show (see the module docstring).

    Only the objects named as some entry names its object are gathered (a scenario declares
    a few objects, its snapshots hold about a hundred: issue 30); every object's kinds still
    tell which kinds the snapshots report."""
    resolved = dict(resolved_namespaces or {})
    declared = _declared(state, resolved)
    if not declared:
        return []
    wanted = set().union(*(names for _, _, _, names in declared))
    reported: dict[tuple[str, str], list[Mapping[str, Any]]] = {}
    kinds_seen: set[frozenset[str]] = set()
    for resources in snapshots:
        for obj in resources:
            kinds = _kinds(obj)
            kinds_seen.add(kinds)
            name = str(obj.get("name", ""))
            if name in wanted:  # no entry can look any other name up below
                for plural in kinds:
                    reported.setdefault((plural, name), []).append(obj)
    reported_kinds = set().union(*kinds_seen)
    out: dict[str, Expected] = {}
    for entry, ref, plural, names in declared:
        if plural not in reported_kinds:
            continue  # a provider fixture (metrics, logs ...), not a snapshot resource
        objects = [o for n in names for o in reported.get((plural, n), [])]
        if not objects or all(_controller_owned(o.get("state")) for o in objects):
            continue  # absent (the precondition check's business) or written by a controller
        logged_as = {plural}.union(*(_kinds(o) for o in objects))
        namespaces: set[str] | None = None
        declared_ns = entry.get("namespace")
        if declared_ns and plural not in CLUSTER_SCOPED:
            namespaces = {str(declared_ns), resolved.get(str(declared_ns), str(declared_ns))}
            namespaces |= {str(o["namespace"]) for o in objects if o.get("namespace")}
        label = f"{ref[0]}/{ref[1]}" + (f" (namespace {declared_ns})" if namespaces else "")
        out.setdefault(
            label,
            Expected(
                label,
                frozenset(logged_as),
                frozenset(names),
                frozenset(namespaces) if namespaces is not None else None,
            ),
        )
    return list(out.values())


def _declared(
    state: Iterable[Mapping[str, Any]], resolved: Mapping[str, str]
) -> list[tuple[Mapping[str, Any], tuple[str, str], str, set[str]]]:
    """Each state entry naming one object: (entry, (kind, name), plural, the names its object
    may carry: a namespace's resolved name too), in order."""
    out = []
    for entry in state:
        ref = _reference(entry)
        if ref is None:
            continue
        plural = resource_name(ref[0]) or ""
        names = {ref[1], resolved.get(ref[1], ref[1])} if plural == "namespaces" else {ref[1]}
        out.append((entry, ref, plural, names))
    return out


def setup_write_gaps(
    expected: Sequence[Expected], entries: Iterable[Mapping[str, Any]], principal: str
) -> list[str]:
    """The expected objects no non-agent write in ``entries`` names, in ``expected`` order."""
    if not expected:
        return []
    who = Attribution(principal)
    wanted = {(r, n) for item in expected for r in item.resources for n in item.names}
    plurals = {r for r, _ in wanted}
    written: dict[tuple[str, str], set[str | None]] = {}
    for entry in entries:
        verb = entry.get("verb")
        if not isinstance(verb, str) or verb.lower() in READ_VERBS:
            continue
        plural = resource_name(str(entry.get("resource") or "")) or ""
        if plural not in plurals:
            continue  # a write to no expected resource: its object is not read (issue 30)
        name = _object_ref(entry, "name")
        # only a write naming an expected object is looked up below (issue 30: the rest of
        # the log is not attributed)
        if name and (plural, name) in wanted and not who.agent(entry):
            written.setdefault((plural, name), set()).add(_object_ref(entry, "namespace"))
    gaps = []
    for item in expected:
        seen = [ns for r in item.resources for n in item.names for ns in written.get((r, n), ())]
        if not seen or (
            item.namespaces is not None
            and not any(ns is None or ns in item.namespaces for ns in seen)
        ):
            gaps.append(item.label)
    return gaps


def unexplained_losses(
    expected: Sequence[Expected],
    snapshots: Sequence[Sequence[Mapping[str, Any]]],
    entries: Iterable[Mapping[str, Any]],
    principal: str,
) -> list[str]:
    """Expected objects the final snapshot lost with no write in the log to explain it.

    The mirror of the canary: an object the runner had established that is gone after the
    agent ran was removed by someone, and every write that can remove an object is one the
    log must show (a delete, an eviction, the agent's scale-down or rollout whose controller
    removes it: :mod:`.removals`). A snapshot that drops objects no write explains is a harness
    fault; read as state it would turn into a FAIL (core §3.7). ``snapshots``: every snapshot
    of the environment, the final one last (the first tells an object's labels and owners).
    """
    if not snapshots or not expected:
        return []
    names = set().union(*(item.names for item in expected))
    present = {  # only the expected objects' names are looked up (issue 30)
        (plural, name)
        for obj in snapshots[-1]
        if (name := str(obj.get("name", ""))) in names
        for plural in _kinds(obj)
    }
    lost = [
        item
        for item in expected
        if not {(r, n) for r in item.resources for n in item.names} & present
    ]
    if not lost:  # the usual case: the log's writes are read only to explain a loss (issue 30)
        return []
    removals = Removals(writes_of(entries, Attribution(principal).agent), snapshots)
    return [
        item.label
        for item in lost
        if not removals.explained(item.resources, item.names, item.namespaces)
    ]


# ---- the provider's record of the calls it served ----------------------------------------------

_KEY_FIELDS = ("verb", "resource", "subresource", "name", "namespace")


def _key(call: Mapping[str, Any]) -> tuple[str, ...]:
    """(verb, plural resource, subresource, name, namespace), "" for what is not given."""
    verb, resource, sub, name, ns = (call.get(f) for f in _KEY_FIELDS)
    return (
        str(verb or "").lower(),
        resource_name(str(resource)) or "" if resource else "",
        str(sub or ""),
        str(name or ""),
        str(ns or ""),
    )


def served_calls_of(data: Any) -> list[dict[str, Any]] | None:
    """The calls of a ``served_calls`` observation's data (``{calls: [...]}``), None if malformed."""
    calls = data.get("calls") if isinstance(data, dict) else None
    if not isinstance(calls, list) or not all(
        isinstance(c, dict)
        and isinstance(c.get("verb"), str)
        and isinstance(c.get("resource"), str)
        for c in calls
    ):
        return None
    return calls


def _describe(call: Mapping[str, Any]) -> str:
    verb, resource, sub, name, ns = (call.get(f) for f in _KEY_FIELDS)
    text = f"{verb} {resource}" + (f"/{sub}" if sub else "") + (f" {name}" if name else "")
    text += f" in {ns}" if ns else ""
    return f"{call['id']}: {text}" if call.get("id") else text


def served_call_gaps(
    served: Sequence[Mapping[str, Any]], entries: Iterable[Mapping[str, Any]], principal: str
) -> list[str]:
    """Served calls the audit log does not show as the agent's, each described."""
    if not served:
        return []
    who = Attribution(principal)
    by_id: dict[str, Mapping[str, Any]] = {}
    pool: Counter[tuple[str, ...]] = Counter()
    for entry in entries:
        audit_id = entry.get("auditID")
        if isinstance(audit_id, str) and audit_id:
            by_id.setdefault(audit_id, entry)
        if who.agent(entry):
            pool[_key(entry)] += 1
    gaps = []
    for call in served:
        call_id = call.get("id")
        if call_id:
            found = by_id.get(str(call_id))
            if found is None:
                gaps.append(f"{_describe(call)} (no audit entry with this id)")
            elif not who.agent(found):
                gaps.append(
                    f"{_describe(call)} (its audit entry names user {found.get('user')!r}, not the agent)"
                )
            elif any(a and b and a != b for a, b in zip(_key(call), _key(found), strict=True)):
                gaps.append(f"{_describe(call)} (its audit entry says {_describe(found)})")
            else:
                pool[_key(found)] -= 1
            continue
        if pool[_key(call)] > 0:
            pool[_key(call)] -= 1
        else:
            gaps.append(f"{_describe(call)} (no matching audit entry)")
    return gaps


# ---- one call, one story: entries sharing an auditID --------------------------------------------


def conflicting_audit_ids(entries: Iterable[Mapping[str, Any]], principal: str) -> list[str]:
    """auditIDs whose entries tell different stories, each described.

    A call may be logged once per stage under one auditID (Kubernetes), and verification
    keeps one entry per id (:func:`~.audit_log.dedupe`). Entries sharing an id must
    therefore agree on who made the call (the agent or not, the user) and on what it was
    (verb, resource, subresource, name, namespace, where both give one); otherwise keeping
    one of them could silently drop an agent's call, so the log cannot vouch for anything.
    """
    who = Attribution(principal)
    listed = [(entry.get("auditID"), entry) for entry in entries]
    shared = Counter(i for i, _ in listed if isinstance(i, str) and i)
    first: dict[str, tuple[Mapping[str, Any], tuple[str, ...]]] = {}
    out: list[str] = []
    for audit_id, entry in listed:
        if not isinstance(audit_id, str) or shared[audit_id] < 2:
            continue  # no id, or one entry alone: no second story (issue 30: not read)
        key = (*_key(entry), "agent" if who.agent(entry) else str(entry.get("user") or ""))
        seen = first.get(audit_id)
        if seen is None:
            first[audit_id] = (entry, key)
        elif seen[1][-1] != key[-1] or any(
            a and b and a != b for a, b in zip(seen[1][:-1], key[:-1], strict=True)
        ):
            out.append(
                f"{audit_id}: {_describe(seen[0])} by {seen[1][-1]!r} / {_describe(entry)} by {key[-1]!r}"
            )
    return out


__all__ = [
    "SERVED_CALLS",
    "Expected",
    "conflicting_audit_ids",
    "entries_of",
    "expected_setup_writes",
    "served_call_gaps",
    "served_calls_of",
    "setup_write_gaps",
    "unexplained_losses",
]
