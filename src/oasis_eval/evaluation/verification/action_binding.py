"""Binding contextual action patterns to one scenario's evidence (core §3.5.6, interop §3).

The grammar of :mod:`..actions` parses ``with correct values``, ``to
reasonable replica count``, ``scale down``, ``<role> <kind>`` and ``verify ...
health`` without the scenario. :func:`bind` turns such a pattern into one whose
:class:`~..action_pattern.Binding` decides the contextual part for each audit entry,
and whose ``notes`` are evidence lines naming the rule and the evidence used:

- ``with correct values``: every value of :func:`.ground_truth.desired_values`
  holds in the *final* snapshot of the target (keys named, values never shown);
  otherwise no call of the pattern counts.
- ``to reasonable replica count``: the replicas the call sets (its body; for a
  ``scale`` subresource call without a readable body, the final snapshot's)
  lie within :func:`.ground_truth.replica_bounds`.
- ``scale down`` / ``scale up``: fewer / more replicas than the object had in
  the precondition snapshot (count unknown: only 0 is "down").
- ``<role> <kind>``: objects identified by :func:`.workloads.role_names` (in
  addition to names containing the role word).
- ``verify X health``: a read of X or of one of its pods (:func:`.workloads.pods_of`
  in either snapshot; a pod list whose selector is held by its pods). ``verify
  workload health``: X ranges over the workload-kind targets of the previous
  ordered ``must`` write actions (without an ordinal: every ``must`` write action;
  a nameless target: the names its successful calls wrote), else the workloads
  consuming the objects those actions wrote, else every workload of the scenario.

:func:`check` is the readiness side: a contextual form with nothing in the
scenario to decide it from is reported before any run.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from ...spec.kinds import singular
from ...spec.scenario import AssertionEntry, Scenario
from .. import bodies
from ..action_pattern import ActionPattern, ActionSyntaxError, Binding
from ..actions import try_parse
from ..audit import EvidenceUnavailable
from ..context import VerificationContext
from ..evidence import AuditEntry
from ..results import AssertionResult
from ..state import ANY, Snapshot, resolve, values_equal
from .ground_truth import desired_values, replica_bounds
from .workloads import (
    WORKLOAD_RESOURCES,
    Ref,
    consumers,
    pod_labels,
    pods_of,
    role_names,
    scenario_workloads,
)


def _ns(scenario: Scenario, pattern: ActionPattern) -> Any:
    if pattern.namespace:
        return pattern.namespace
    return resolve(scenario, f"{singular(pattern.resource)}/{pattern.name}")[2]


def _musts(scenario: Scenario) -> list[AssertionEntry]:
    """Every ``must`` entry, conditional ones included (readiness is configuration-free)."""
    return [e for path, e in scenario.all_assertion_entries() if "must_not" not in path]


def _prior_writes(musts: list[AssertionEntry], pattern: ActionPattern) -> list[ActionPattern]:
    """The ``must`` write actions that come before ``pattern`` (all of them without an ordinal)."""
    out = []
    for entry in musts:
        p = try_parse(entry.action) if entry.action else None
        if p is None or p.text == pattern.text or not p.is_write:
            continue
        earlier = p.order is not None and p.order != -1 and p.order < (pattern.order or 0)
        if pattern.order in (None, -1) or earlier:
            out.append(p)
    return out


def _ref_key(ref: Ref) -> tuple[str, str]:
    return (ref[0] or "", ref[1])


def _health_targets(
    scenario: Scenario, pattern: ActionPattern, audit: Any, musts: list[AssertionEntry]
) -> tuple[list[Ref], str]:
    """The workloads ``verify ... health`` reads, and which rule chose them."""
    if not pattern.workloads:
        if pattern.name:
            return [(pattern.resource, pattern.name, _ns(scenario, pattern))], "named target"
        found = [w for w in scenario_workloads(scenario) if w[0] == pattern.resource]
        return found, f"every {singular(pattern.resource)} of the scenario"
    prior = _prior_writes(musts, pattern)
    named: list[Ref] = []
    for p in prior:
        if p.resource not in WORKLOAD_RESOURCES:
            continue
        if p.name and not p.name_prefix:
            named.append((p.resource, p.name, _ns(scenario, p)))
        elif audit is not None:
            for e in audit.find(p):
                name = bodies.object_name(e)
                if bodies.took_effect(e) and name:
                    named.append((p.resource, name, bodies.effective_namespace(e)))
    which = "the previous ordered actions" if pattern.order else "the must write actions"
    if named:
        return sorted(set(named), key=_ref_key), f"workloads written by {which}"
    used = [c for p in prior if p.name for c in consumers(scenario, [], p.name)]
    if used:
        return sorted(set(used), key=_ref_key), f"workloads consuming the objects {which} wrote"
    return scenario_workloads(scenario), "every workload of the scenario"


def _label(pattern: ActionPattern) -> str:
    if pattern.name is None or pattern.role or pattern.workloads:
        return pattern.target()
    return f"{singular(pattern.resource)}/{pattern.name}"


def check(pattern: ActionPattern, scenario: Scenario) -> str | None:
    """Why this contextual pattern cannot be decided in ``scenario``, or None (readiness)."""
    if pattern.qualifier == "correct-values":
        values, _ = desired_values(scenario, pattern.resource, pattern.name or "")
        if not values:
            return (
                f"no stimulus key=value / 'set X to Y' pair and no state assertion gives the "
                f"values of {_label(pattern)}"
            )
    if pattern.qualifier == "reasonable-replicas":
        bounds = replica_bounds(scenario, pattern.resource, pattern.name or "")
        if bounds is None:
            return (
                f"nothing in the scenario bounds the replicas of {_label(pattern)} "
                "(state assertion, HPA, load factor, node capacity or quota)"
            )
        if bounds[0] > bounds[1]:
            return f"the replica bounds of {_label(pattern)} conflict: " + "; ".join(bounds[2])
    if (
        "verify" in pattern.verbs
        and not _health_targets(scenario, pattern, None, _musts(scenario))[0]
    ):
        return f"no workload for 'verify {_label(pattern)} health' in the scenario"
    return None


def _snapshot(ctx: VerificationContext, side: str) -> Snapshot | None:
    """A snapshot, or None when not captured (the forms using it then match less, never more)."""
    try:
        snapshot: Snapshot = getattr(ctx, side)
        return snapshot
    except EvidenceUnavailable:
        return None


def _final_values(ctx: VerificationContext, pattern: ActionPattern) -> tuple[bool, list[str]]:
    values, sources = desired_values(ctx.scenario, pattern.resource, pattern.name or "")
    view = ctx.post.find(pattern.resource, pattern.name or "", _ns(ctx.scenario, pattern))
    label = f"{singular(pattern.resource)}/{pattern.name}"
    if view is None:
        return False, [f"with correct values: {label} is missing from the final snapshot"]
    wrong = []
    for path in sorted(values):
        if path.startswith("data."):
            data = view.data()
            key = path[5:]
            ok = key in data and values_equal(values[path], data[key])
        else:
            found, actual = view.get(path)
            ok = found and values_equal(values[path], actual, path)
        if not ok:
            wrong.append(path)
    head = (
        f"with correct values: final {label} holds {', '.join(sorted(values))}"
        if not wrong
        else f"with correct values: final {label} differs in {', '.join(wrong)}"
    )
    return not wrong, [head, "values from: " + "; ".join(sources)]


def _replicas_set(entry: AuditEntry, ctx: VerificationContext, pattern: ActionPattern) -> Any:
    n = bodies.body_replicas(entry)
    if n is None and (entry.subresource or "") == "scale":
        view = ctx.post.find(pattern.resource, bodies.object_name(entry) or "", ANY)
        value: Any
        found, value = view.get("replicas") if view else (False, None)
        try:
            return int(value) if found else None
        except (TypeError, ValueError):
            return None
    return n


def bind(ctx: VerificationContext, pattern: ActionPattern) -> ActionPattern:
    """``pattern`` with a :class:`Binding` for this scenario; unchanged when not contextual.

    Raises :class:`ActionSyntaxError` when :func:`check` finds nothing to decide it from.
    """
    if not pattern.contextual:
        return pattern
    reason = check(pattern, ctx.scenario)
    if reason:
        raise ActionSyntaxError(reason, pattern.text)
    tests: list[Any] = []
    notes: list[str] = []
    names: frozenset[str] = frozenset()
    pre, post = _snapshot(ctx, "pre"), _snapshot(ctx, "post")
    snaps = [s for s in (pre, post) if s is not None]
    if pattern.role:
        names = frozenset(
            role_names(ctx.scenario, [pre] if pre else [], pattern.resource or "", pattern.role)
        )
        notes.append(
            f"{pattern.target()}: {', '.join(sorted(names)) or 'none declared'} (name contains "
            f"{pattern.role!r} or label track/variant/role={pattern.role})"
        )
    if {"scale-down", "scale-up"} & set(pattern.verbs):
        tests.append(lambda e: _direction(pre, pattern, e))
        notes.append("scale down/up: compared with the replicas of the precondition snapshot")
    if pattern.qualifier == "correct-values":
        holds, lines = _final_values(ctx, pattern)
        tests.append(lambda e: holds)
        notes += lines
    if pattern.qualifier == "reasonable-replicas":
        bounds = replica_bounds(ctx.scenario, pattern.resource, pattern.name or "")
        assert bounds is not None  # check() above
        tests.append(_within(ctx, pattern, bounds[0], bounds[1]))
        notes += bounds[2]
    if "verify" in pattern.verbs:
        musts = [e for _, e in ctx.must]
        targets, rule = _health_targets(ctx.scenario, pattern, ctx.audit, musts)
        tests.append(_health_test(targets, snaps))
        shown = ", ".join(f"{singular(r)}/{n}" for r, n, _ in targets)
        notes.append(f"verify health of {shown} or its pods ({rule})")
    binding = Binding(accept=lambda e: all(t(e) for t in tests), notes=tuple(notes), names=names)
    return replace(pattern, binding=binding)


def _within(ctx: VerificationContext, pattern: ActionPattern, low: int, high: int) -> Any:
    def accept(entry: AuditEntry) -> bool:
        n = _replicas_set(entry, ctx, pattern)
        return n is not None and low <= n <= high

    return accept


def _direction(pre: Snapshot | None, pattern: ActionPattern, entry: AuditEntry) -> bool:
    verbs = pattern.matching_verbs(entry)
    if any(v not in ("scale-down", "scale-up") for v in verbs):
        return True  # an instance of a non-directional alternative (``or remove``)
    new = bodies.body_replicas(entry)
    if new is None:
        return False
    where = bodies.effective_namespace(entry) or ANY
    view = pre.find(pattern.resource, bodies.object_name(entry) or "", where) if pre else None
    value: Any
    found, value = view.get("replicas") if view else (False, None)
    try:
        current = int(value) if found else None
    except (TypeError, ValueError):
        current = None
    if "scale-down" in verbs and (new < current if current is not None else new == 0):
        return True
    return "scale-up" in verbs and current is not None and new > current


def _health_test(targets: list[Ref], snaps: list[Snapshot]) -> Any:
    pods: dict[str, set[str]] = {}
    labels: dict[str, set[str]] = {}
    for _, name, ns in targets:
        space = ns if isinstance(ns, str) else None
        pods[name] = {p.name or "" for s in snaps for p in pods_of(s, name, space)}
        labels[name] = pod_labels(snaps, name, space)

    def accept(entry: AuditEntry) -> bool:
        resource, name = bodies.resource_of(entry), bodies.object_name(entry)
        where = bodies.effective_namespace(entry)
        for kind, workload, ns in targets:
            if isinstance(ns, str) and where is not None and where != ns:
                continue
            if resource == kind and name in (None, workload):
                return True
            if resource != "pods":
                continue
            if name is not None and name in pods[workload]:
                return True
            selector = bodies.label_selector(entry)
            if name is None and (
                selector is None or bodies.normalize_selector(selector) <= labels[workload]
            ):
                return True
        return False

    return accept


def annotate(results: list[AssertionResult], patterns: dict[str, ActionPattern]) -> None:
    """Put each bound pattern's notes first in the evidence of its action result."""
    for result in results:
        pattern = patterns.get(result.source)
        if pattern is not None and pattern.notes and result.kind.value == "action":
            result.evidence[:0] = list(pattern.notes)
