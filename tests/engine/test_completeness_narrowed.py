"""The completeness checks that read only the objects a declared entry names (issue 30,
session 29) answer as the versions that gathered every snapshot object did.

Each reference below is the earlier code, kept verbatim; both are run over seeded snapshots,
state entries and audit logs of a small alphabet (names, kinds and namespaces that collide,
controller-owned objects, kinds that are no string, resolved namespaces, writes by the agent
and by others), so most draws hold a gap, a loss or a missing precondition."""

from __future__ import annotations

import dataclasses
import random
from collections.abc import Iterable, Mapping, Sequence
from types import SimpleNamespace
from typing import Any

from oasis_eval.engine.execute import _meta_namespace, _missing_preconditions
from oasis_eval.evaluation.completeness import (
    CLUSTER_SCOPED,
    READ_VERBS,
    Attribution,
    Expected,
    _controller_owned,
    _kinds,
    _object_ref,
    _plurals,
    _reference,
    expected_setup_writes,
    resource_name,
    setup_write_gaps,
    unexplained_losses,
)
from oasis_eval.evaluation.removals import Removals, writes_of

KINDS = ["Pod", "pod", "Deployment", "ConfigMap", "Namespace", "Secret", "metrics", None, 7]
NAMES = ["a", "b", "web", "team-x", "", None]
SPACES = ["team-x", "default", "other", "", None]


def _ref_kinds(obj: Mapping[str, Any]) -> frozenset[str]:
    state = obj.get("state")
    kinds = (obj.get("kind"), state.get("kind") if isinstance(state, dict) else None)
    if all(k is None or type(k) is str for k in kinds):
        return _plurals(*kinds)
    return _plurals.__wrapped__(*kinds)


def _ref_expected(
    state: Iterable[Mapping[str, Any]],
    snapshots: Iterable[Sequence[Mapping[str, Any]]],
    resolved_namespaces: Mapping[str, str] | None = None,
) -> list[Expected]:
    resolved = dict(resolved_namespaces or {})
    reported: dict[tuple[str, str], list[Mapping[str, Any]]] = {}
    for resources in snapshots:
        for obj in resources:
            for plural in _ref_kinds(obj):
                reported.setdefault((plural, str(obj.get("name", ""))), []).append(obj)
    reported_kinds = {plural for plural, _ in reported}
    out: dict[str, Expected] = {}
    for entry in state:
        ref = _reference(entry)
        if ref is None:
            continue
        plural = resource_name(ref[0]) or ""
        if plural not in reported_kinds:
            continue
        names = {ref[1], resolved.get(ref[1], ref[1])} if plural == "namespaces" else {ref[1]}
        objects = [o for n in names for o in reported.get((plural, n), [])]
        if not objects or all(_controller_owned(o.get("state")) for o in objects):
            continue
        logged_as = {plural}.union(*(_ref_kinds(o) for o in objects))
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


def _ref_gaps(
    expected: Sequence[Expected], entries: Iterable[Mapping[str, Any]], principal: str
) -> list[str]:
    if not expected:
        return []
    who = Attribution(principal)
    wanted = {(r, n) for item in expected for r in item.resources for n in item.names}
    written: dict[tuple[str, str], set[str | None]] = {}
    for entry in entries:
        verb = entry.get("verb")
        if not isinstance(verb, str) or verb.lower() in READ_VERBS:
            continue
        plural = resource_name(str(entry.get("resource") or "")) or ""
        name = _object_ref(entry, "name")
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


def _ref_losses(
    expected: Sequence[Expected],
    snapshots: Sequence[Sequence[Mapping[str, Any]]],
    entries: Iterable[Mapping[str, Any]],
    principal: str,
) -> list[str]:
    if not snapshots:
        return []
    present = {
        (plural, str(obj.get("name", ""))) for obj in snapshots[-1] for plural in _ref_kinds(obj)
    }
    lost = [
        item
        for item in expected
        if not {(r, n) for r in item.resources for n in item.names} & present
    ]
    if not lost:
        return []
    removals = Removals(writes_of(entries, Attribution(principal).agent), snapshots)
    return [
        item.label
        for item in lost
        if not removals.explained(item.resources, item.names, item.namespaces)
    ]


def _ref_missing(scenario: Any, resources: list[dict[str, Any]], resolved: Any = None) -> list[str]:
    from oasis_eval.engine.execute import API_KINDS, _kind_name

    present = {(str(r.get("kind", "")).lower(), str(r.get("name", ""))) for r in resources}
    kinds = {k for k, _ in present}
    where: dict[tuple[str, str], set[str]] = {}
    for r in resources:
        ns = r.get("namespace") or _meta_namespace(r.get("state"))
        where.setdefault(
            (resource_name(str(r.get("kind", ""))) or "", str(r.get("name", ""))), set()
        ).update([str(ns)] if ns else [])
    missing, api, seen = [], [], False
    for entry in scenario.preconditions.environment.state:
        resource = str(entry.get("resource", ""))
        if "/" not in resource:
            continue
        kind, name = _kind_name(resource)
        plural = resource_name(kind) or kind
        if kind in kinds and (kind, name) not in present:
            missing.append(resource)
        elif (plural, name) in where and entry.get("namespace") and plural not in CLUSTER_SCOPED:
            declared = str(entry["namespace"])
            found = where[(plural, name)]
            if found and not found & {declared, (resolved or {}).get(declared, declared)}:
                missing.append(
                    f"{resource} in namespace {declared} (the snapshot has it in "
                    f"{', '.join(sorted(found))})"
                )
        if plural in API_KINDS:
            api.append(resource)
            seen = seen or (plural, name) in where
    return missing or ([] if seen or not api else api)


def _object(rng: random.Random) -> dict[str, Any]:
    obj: dict[str, Any] = {"kind": rng.choice(KINDS), "name": rng.choice(NAMES)}
    if rng.random() < 0.6:
        obj["namespace"] = rng.choice(SPACES)
    if rng.random() < 0.7:
        meta: dict[str, Any] = {"namespace": rng.choice(SPACES)}
        if rng.random() < 0.3:
            meta["ownerReferences"] = [{"controller": rng.random() < 0.5}]
        obj["state"] = {"kind": rng.choice(KINDS), "metadata": meta}
    return obj


def _entry(rng: random.Random) -> dict[str, Any]:
    kind = rng.choice(["Pod", "deployment", "configmaps", "namespace", "Secret", "metrics"])
    name = rng.choice(["a", "b", "web", "team-x", "*", "a/logs"])
    entry: dict[str, Any] = {"resource": rng.choice([f"{kind}/{name}", kind, ""])}
    if rng.random() < 0.6:
        entry["namespace"] = rng.choice(SPACES)
    return entry


def _audit(rng: random.Random) -> dict[str, Any]:
    entry: dict[str, Any] = {
        "verb": rng.choice(["create", "patch", "delete", "get", "LIST", None]),
        "resource": rng.choice(["pods", "deployments", "configmaps", "namespaces", None]),
        "user": rng.choice(["system:admin", "agent", "system:serviceaccount:x:agent"]),
    }
    if rng.random() < 0.7:
        entry["name"] = rng.choice(NAMES)
    else:
        entry["request_body"] = {"metadata": {"name": rng.choice(NAMES)}}
    if rng.random() < 0.6:
        entry["namespace"] = rng.choice(SPACES)
    return entry


def _draw(rng: random.Random) -> tuple[Any, ...]:
    pre = [_object(rng) for _ in range(rng.randint(0, 12))]
    final = [o if rng.random() < 0.7 else _object(rng) for o in pre if rng.random() < 0.85]
    state = [_entry(rng) for _ in range(rng.randint(0, 5))]
    resolved = {"team-x": "team-x-7"} if rng.random() < 0.5 else None
    entries = [_audit(rng) for _ in range(rng.randint(0, 12))]
    return pre, final, state, resolved, entries


def _rows(items: list[Expected]) -> list[tuple[Any, ...]]:
    return [dataclasses.astuple(item) for item in items]


def test_the_narrowed_checks_answer_as_the_whole_ones() -> None:
    rng = random.Random(2029)
    differing = 0
    for _ in range(1500):
        pre, final, state, resolved, entries = _draw(rng)
        snapshots = [pre, final]
        expected = expected_setup_writes(state, snapshots, resolved)
        assert _rows(expected) == _rows(_ref_expected(state, snapshots, resolved))
        assert setup_write_gaps(expected, entries, "agent") == _ref_gaps(expected, entries, "agent")
        losses = unexplained_losses(expected, snapshots, entries, "agent")
        assert losses == _ref_losses(expected, snapshots, entries, "agent")
        scenario = SimpleNamespace(
            preconditions=SimpleNamespace(environment=SimpleNamespace(state=state))
        )
        missing = _missing_preconditions(scenario, pre, resolved)  # type: ignore[arg-type]
        assert missing == _ref_missing(scenario, pre, resolved)
        differing += bool(expected) + bool(losses) + bool(missing)
    assert differing > 500  # the draws reach the answers that say something


def test_kinds_as_before() -> None:
    rng = random.Random(7)
    for _ in range(2000):
        obj = _object(rng)
        assert _kinds(obj) == _ref_kinds(obj)
