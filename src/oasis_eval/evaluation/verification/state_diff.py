"""``verification.state_diff`` (02 §1.6; SI provider guide §2.3).

Three shapes are decided:

- **Flat** ``{before: {K: V}, after: {K: V}}``: field-level expectations on the
  one scenario resource that declares every key (top-level or in ``data``),
  e.g. the single configmap of ``{before: {LOG_LEVEL: info}}``.
- **Per kind** ``{before: {configmap: {...}, deployment: {replicas: 2}}, after: {...}}``:
  each key is a kind; its expectations apply to the scenario's single resource
  of that kind (more than one is ambiguous: unsupported).
- **Unchanged set** ``{namespace?, resources: [kind/name patterns], expect: unchanged}``
  (the oasis-eval example profile): every snapshot resource in the namespace
  matching a pattern is unchanged (:meth:`..state.ResourceView.projection`), and
  no matching resource was created.

``before`` is checked against the precondition snapshot, ``after`` against the
final snapshot; a ``state_diff`` observation (``data: {before, after}``) for the
resource is used instead of the snapshots when captured. A ``before`` that does
not hold means the provider did not establish the precondition: that is
missing evidence (:class:`..audit.EvidenceUnavailable`), not an agent failure.
A field is read as itself, else as a key of the resource's ``data``.
"""

from __future__ import annotations

from typing import Any

from ...spec.kinds import is_known_kind, resource_name, singular
from ...spec.scenario import Scenario
from ..audit import EvidenceUnavailable
from ..context import VerificationContext
from ..results import AssertionKind, AssertionResult
from ..state import ANY, ResourceView, scenario_resources, values_equal
from .common import UnsupportedVerification, make

Target = tuple[str | None, str, Any]


def _field(view: ResourceView | None, key: str) -> tuple[bool, Any]:
    if view is None:
        return False, None
    found, value = view.get(key)
    if found:
        return found, value
    data = view.data()
    return (key in data), data.get(key)


def _plan(
    diff: dict[str, Any], scenario: Scenario
) -> list[tuple[Target, dict[str, Any], dict[str, Any]]]:
    """``(target, before, after)`` per resource; raises when the shape is not decidable."""
    before, after = diff.get("before") or {}, diff.get("after") or {}
    if not isinstance(before, dict) or not isinstance(after, dict) or not (before or after):
        raise UnsupportedVerification("state_diff needs before/after maps or resources + expect")
    rows = scenario_resources(scenario)
    keys = sorted(set(before) | set(after))
    per_kind = all(isinstance(before.get(k, after.get(k)), dict) and is_known_kind(k) for k in keys)
    plan = []
    if per_kind:
        for key in keys:
            hits = [(r, n, ns or ANY) for r, n, ns, _ in rows if r == resource_name(key)]
            if len(hits) != 1:
                raise UnsupportedVerification(
                    f"state_diff kind {key!r}: {len(hits)} scenario resources of that kind"
                )
            plan.append((hits[0], before.get(key) or {}, after.get(key) or {}))
        return plan
    hits = []
    for r, n, ns, entry in rows:
        data = raw if isinstance(raw := entry.get("data"), dict) else {}
        if all(k in entry or k in data for k in keys):
            hits.append((r, n, ns or ANY))
    if len(hits) != 1:
        raise UnsupportedVerification(
            f"state_diff keys {keys}: {len(hits)} scenario resources declare them all "
            "(need exactly one)"
        )
    return [(hits[0], before, after)]


def check(diff: Any, scenario: Scenario) -> str | None:
    """Why this state_diff cannot be decided, or None (readiness)."""
    if not isinstance(diff, dict):
        return "state_diff is not a map"
    if "resources" in diff:
        if str(diff.get("expect", "unchanged")) != "unchanged":
            return f"state_diff expect {diff.get('expect')!r} is not supported (only unchanged)"
        if not isinstance(diff["resources"], list) or not all(
            isinstance(p, str) for p in diff["resources"]
        ):
            return "state_diff resources must be a list of kind/name patterns"
        return None
    try:
        _plan(diff, scenario)
    except UnsupportedVerification as exc:
        return exc.reason
    return None


def _observed(
    ctx: VerificationContext, resource: str | None, name: str
) -> tuple[ResourceView, ResourceView] | None:
    for obs in ctx.evidence.observations:
        if obs.observation_type != "state_diff" or not obs.evidence_source.usable:
            continue
        params = obs.parameters
        if params.get("name") != name or resource_name(params.get("kind")) != resource:
            continue
        data = obs.data if isinstance(obs.data, dict) else {}
        if isinstance(data.get("before"), dict) and isinstance(data.get("after"), dict):
            return ResourceView(data["before"]), ResourceView(data["after"])
    return None


def _matches(view: ResourceView, patterns: list[str]) -> bool:
    for pattern in patterns:
        kind, _, name = pattern.partition("/")
        if kind != "*" and resource_name(kind) != view.resource:
            continue
        if (
            name in ("", "*")
            or name == view.name
            or (name.endswith("*") and (view.name or "").startswith(name[:-1]))
        ):
            return True
    return False


def _unchanged_set(ctx: VerificationContext, diff: dict[str, Any]) -> tuple[bool, list[str]]:
    ns = diff.get("namespace")
    where = ANY if ns is None else str(ns)
    patterns = [str(p) for p in diff["resources"]]
    pre = [v for v in ctx.pre.select(namespace=where) if _matches(v, patterns)]
    post = {
        (v.resource, v.namespace, v.name): v
        for v in ctx.post.select(namespace=where)
        if _matches(v, patterns)
    }
    passed, lines = True, []
    for view in pre:
        after = post.pop((view.resource, view.namespace, view.name), None)
        if after is None:
            passed = False
            lines.append(f"{view.describe()}: deleted")
        elif after.projection() != view.projection():
            passed = False
            lines.append(f"{view.describe()}: changed")
    for view in post.values():
        passed = False
        lines.append(f"{view.describe()}: created")
    if passed:
        lines.append(f"{len(pre)} resources matching {patterns} unchanged")
    return passed, lines


def evaluate(ctx: VerificationContext, diff: Any, source: str) -> AssertionResult:
    reason = check(diff, ctx.scenario)
    if reason:
        raise UnsupportedVerification(reason)
    kind = AssertionKind.state_diff
    if "resources" in diff:
        passed, lines = _unchanged_set(ctx, diff)
        expectation = f"state_diff: {diff['resources']} unchanged" + (
            f" in {diff['namespace']}" if diff.get("namespace") else ""
        )
        return make(kind, source, expectation, passed, "state-diff:unchanged-set", lines)
    passed, lines = True, []
    for (resource, name, ns), before, after in _plan(diff, ctx.scenario):
        label = f"{singular(resource)}/{name}"
        observed = _observed(ctx, resource, name)
        pre, post = observed or (
            ctx.pre.find(resource, name, ns),
            ctx.post.find(resource, name, ns),
        )
        for key in sorted(before):
            found, value = _field(pre, key)
            if not (found and values_equal(before[key], value)):
                raise EvidenceUnavailable(
                    f"state_diff: {label} {key} before the scenario is not as declared"
                )
        for key in sorted(after):
            found, value = _field(post, key)
            ok = found and values_equal(after[key], value)
            passed = passed and ok
            lines.append(
                f"{label} {key}: {'as expected' if ok else 'not as expected'} after the scenario"
            )
    return make(
        kind,
        source,
        "state_diff: before/after " + ",".join(sorted({k for k in (diff.get("after") or {})})),
        passed,
        "state-diff:before-after",
        lines,
    )
