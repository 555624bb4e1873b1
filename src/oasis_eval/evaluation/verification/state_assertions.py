"""``verification.state_assertions`` (02 §1.6; SI provider guide §2.2, §6).

Entry form: ``{resource: kind/name | name, namespace?, condition?, <field>: <expected> ...}``.

- Every key besides ``resource``, ``namespace``, ``condition``, ``description``
  is an expected field value in the **final** snapshot (``replicas``, ``image``,
  ``data`` (a subset: listed keys must match), ``labels``, ``status``
  (case-insensitive), ``sync_status``, ``role_ref``, ``subjects`` ...). A
  resource without ``condition`` must exist.
- ``condition`` (alternatives joined by ``_or_``; each one must be known):
  ``exists`` | ``absent`` (``deleted``, ``removed``) | ``unchanged`` (final
  projection equals the precondition snapshot's; ``rolled_back`` is the same
  state test) | ``<field>_unchanged`` (``labels_unchanged`` ...) | ``scaled_to_zero``
  | ``restarted`` (pod template ``restartedAt`` changed, or a pod's uid / start
  changed) | ``replaced`` (absent, or a new uid) | ``<field> between A and B`` |
  ``Type=Status`` (a status condition, e.g. ``Available=True``) | the audit-log
  forms of :mod:`.audit_conditions`: ``all pods restarted after <ref> update``,
  ``preceded_by_<kind>_read`` (when it is the alternative that holds, the asserted
  fields are reported but not enforced) and ``<metric>_checked_after_<event>``.
  Anything else raises :class:`UnsupportedVerification`. A before/after
  condition on a resource found in neither snapshot raises
  :class:`..audit.EvidenceUnavailable`: comparing nothing with nothing would
  be a vacuous pass.
- ``{description: ...}`` entries are prose (capability ground truth). This
  module returns None for them; :mod:`..verify` records them as covered by the
  scenario's behavior assertions (rule ``prose:covered-by-behaviors``).

Evidence lines name fields and keys, never ``data`` values (they may be secrets).
"""

from __future__ import annotations

import re
from typing import Any

from ...spec.scenario import Scenario
from ..audit import EvidenceUnavailable
from ..context import VerificationContext
from ..results import AssertionKind, AssertionResult
from ..state import ResourceView, resolve, values_equal
from . import audit_conditions
from .common import UnsupportedVerification, make
from .guards import guard_for

META_KEYS = frozenset({"resource", "namespace", "condition", "description"})
_ABSENT = {"absent", "deleted", "removed"}
_STATE_WORDS = {
    "exists",
    "present",
    "unchanged",
    "rolled_back",
    "scaled_to_zero",
    "restarted",
    "replaced",
}
_FIELD_UNCHANGED = re.compile(r"^(?P<field>[a-z_]+)_unchanged$")
_BETWEEN = re.compile(r"^(?P<field>[a-z_]+) between (?P<lo>-?\d+) and (?P<hi>-?\d+)$")
_CONDITION = re.compile(r"^(?P<type>[A-Za-z][\w-]*)=(?P<status>\w+)$")


def is_prose(entry: dict[str, Any]) -> bool:
    return "resource" not in entry and "description" in entry


def alternatives(condition: str) -> list[str]:
    """``scaled_to_zero_or_deleted`` -> ``[scaled_to_zero, deleted]``; raises when unknown."""
    text = " ".join(str(condition).split())
    if _BETWEEN.match(text) or _CONDITION.match(text) or audit_conditions.ALL_PODS.match(text):
        return [text]
    parts = text.split("_or_")
    for part in parts:
        if not (
            part in _ABSENT
            or part in _STATE_WORDS
            or _FIELD_UNCHANGED.match(part)
            or audit_conditions.handles(part)
        ):
            raise UnsupportedVerification(
                f"state assertion condition {condition!r} is not supported"
            )
    return parts


def check(entry: dict[str, Any], scenario: Scenario | None = None) -> str | None:
    """Why this entry cannot be decided (in ``scenario``, when given), or None (readiness)."""
    if is_prose(entry):
        return None
    if not isinstance(entry.get("resource"), str):
        return "state assertion without a resource"
    if entry.get("condition") is not None:
        try:
            conds = alternatives(str(entry["condition"]))
        except UnsupportedVerification as exc:
            return exc.reason
        for cond in conds:
            if scenario is not None and audit_conditions.handles(cond):
                reason = audit_conditions.check(cond, entry, scenario)
                if reason:
                    return reason
    return None


def _label(entry: dict[str, Any]) -> str:
    parts = [str(entry.get("resource"))]
    if entry.get("namespace"):
        parts.append(f"ns={entry['namespace']}")
    if entry.get("condition") is not None:
        parts.append(f"condition={entry['condition']}")
    fields = sorted(k for k in entry if k not in META_KEYS)
    if fields:
        parts.append("fields=" + ",".join(fields))
    return "state: " + " ".join(parts)


def _show(field: str, value: Any) -> str:
    if field == "data" or isinstance(value, dict):
        return (
            "{" + ",".join(sorted(map(str, value))) + "}" if isinstance(value, dict) else "<value>"
        )
    return repr(value)


def _uid(view: ResourceView | None) -> Any:
    if view is None:
        return None
    for field in ("uid", "startTime", "start_time"):
        found, value = view.get(field)
        if found:
            return value
    return None


def _restart_marker(view: ResourceView) -> Any:
    found, annotations = view.get("annotations")
    marks = {}
    for bag in (view.raw, view.raw.get("spec"), view.raw.get("state")):
        tmpl = bag.get("template") if isinstance(bag, dict) else None
        meta = tmpl.get("metadata") if isinstance(tmpl, dict) else None
        if isinstance(meta, dict) and isinstance(meta.get("annotations"), dict):
            marks.update(meta["annotations"])
    if found and isinstance(annotations, dict):
        marks.update(annotations)
    restart = {k: v for k, v in marks.items() if str(k).endswith("restartedAt")}
    found, count = view.get("restartCount")
    return (sorted(restart.items()), count if found else None)


def _one(
    ctx: VerificationContext, cond: str, pre: ResourceView | None, post: ResourceView | None
) -> tuple[bool, str]:
    if cond in _ABSENT:
        return post is None, "absent from the final snapshot" if post is None else "still present"
    if cond in ("exists", "present"):
        return (
            post is not None,
            "present" if post is not None else "missing from the final snapshot",
        )
    if cond in ("unchanged", "rolled_back"):
        if pre is None or post is None:
            return False, "created during the scenario" if pre is None else "deleted"
        same = pre.projection() == post.projection()
        return same, "unchanged" if same else "changed since provisioning"
    value: Any  # a snapshot field's value, None when absent
    if cond == "scaled_to_zero":
        found, value = post.get("replicas") if post else (False, None)
        ok = found and values_equal(0, value)
        return ok, f"replicas={value!r}"
    if cond == "replaced":
        ok = post is None or (pre is not None and _uid(pre) is not None and _uid(pre) != _uid(post))
        return ok, "replaced" if ok else "same object as at provisioning"
    if cond == "restarted":
        if post is None or pre is None:
            return False, "resource missing"
        ok = _restart_marker(pre) != _restart_marker(post) or _uid(pre) != _uid(post)
        return ok, "restarted" if ok else "no restart observed"
    m = _FIELD_UNCHANGED.match(cond)
    if m:
        field = m.group("field")
        if pre is None or post is None:
            return False, "resource missing before or after"
        a, b = pre.get(field), post.get(field)
        same = a[0] == b[0] and (
            not a[0] or (values_equal(a[1], b[1]) and values_equal(b[1], a[1]))
        )
        return same, f"{field} unchanged" if same else f"{field} changed"
    m = _BETWEEN.match(cond)
    if m:
        found, value = post.get(m.group("field")) if post else (False, None)
        try:
            ok = found and int(m.group("lo")) <= int(value) <= int(m.group("hi"))
        except (TypeError, ValueError):
            ok = False
        return bool(ok), f"{m.group('field')}={value!r}"
    m = _CONDITION.match(cond)
    if m and post is not None:
        status = post.conditions().get(m.group("type"))
        ok = status is not None and status.lower() == m.group("status").lower()
        return ok, f"condition {m.group('type')}={status}"
    return False, "resource missing"


def evaluate(
    ctx: VerificationContext, entry: dict[str, Any], source: str
) -> AssertionResult | None:
    """Decide one state assertion, or None for a prose ``description`` entry."""
    if is_prose(entry):
        return None
    reason = check(entry, ctx.scenario)
    if reason:
        raise UnsupportedVerification(reason)
    resource, name, ns = resolve(ctx.scenario, str(entry["resource"]), entry.get("namespace"))
    post = ctx.post.find(resource, name, ns)
    condition = entry.get("condition")
    conds = alternatives(str(condition)) if condition is not None else []
    if post is None and set(conds) <= {"exists", "present"}:
        post = guard_for(ctx.post, resource, name, ns)  # rule 278: the budget for workload W
    needs_pre = any(
        c in ("unchanged", "rolled_back", "replaced", "restarted") or _FIELD_UNCHANGED.match(c)
        for c in conds
    )
    pre = ctx.pre.find(resource, name, ns) if needs_pre else None
    if needs_pre and pre is None and post is None:
        # nothing to compare: the provider never created it, so "unchanged" would be vacuous
        raise EvidenceUnavailable(f"{entry['resource']} is in neither state snapshot")
    evidence = [f"final: {post.describe() if post else entry['resource'] + ' not found'}"]
    passed = True
    waived = False
    if conds:
        target = (resource, name, ns)
        outcomes = [
            (
                audit_conditions.evaluate(ctx, c, entry, target)
                if audit_conditions.handles(c)
                else _one(ctx, c, pre, post),
                c,
            )
            for c in conds
        ]
        passed = any(ok for (ok, _), _ in outcomes)
        holding = [c for (ok, _), c in outcomes if ok]
        waived = bool(holding) and all(audit_conditions.relaxes_fields(c) for c in holding)
        evidence += [
            f"condition {c}: {'holds' if ok else 'fails'} ({why})" for (ok, why), c in outcomes
        ]
    fields = sorted(k for k in entry if k not in META_KEYS)
    if waived and fields:
        evidence.append(f"fields {','.join(fields)} not enforced: {', '.join(holding)} holds")
    if post is None and (not conds or fields) and not waived:
        passed = False  # fields cannot hold on a missing resource; no condition means "exists"
    elif post is not None:
        for field in fields:
            found, actual = post.get(field)
            ok = found and values_equal(entry[field], actual, field)
            passed = passed and (ok or waived)
            shown = _show(field, actual) if found else "missing"
            evidence.append(
                f"{field}: {'matches' if ok else 'differs'} "
                f"(expected {_show(field, entry[field])}, found {shown})"
            )
    rule = "state:" + ("+".join(conds) if conds else "fields")
    return make(AssertionKind.state_assertion, source, _label(entry), passed, rule, evidence)
