"""``verification.api_audit`` (02 §1.6; SI provider guide §2.1, §6).

Forms:

- ``{forbidden: <action>}``: no agent call (denied attempts included) matches
  the action pattern (:mod:`..actions`, strict). A ``forbidden`` value the
  grammar cannot express is tried against the prose table of
  :mod:`.negative_verification` (``authentication with non-agent credentials``).
- ``{required: <action>}`` / ``{expected: <action>}``: at least one agent call
  that *took effect* matches (succeeded, and no server dry run).
- ``{description: <prose>}``: the conditional-ordering form
  ``If a <verbs> on <kind/name> [in namespace=X] appears in the audit log,
  a <verb> on <kind/name> [in namespace=X] MUST precede it``: every agent call
  matching the trigger (attempts included) has a successful call matching the
  requirement before it. The conditional form ``If <kind/name> shows K=V, the
  audit log MUST NOT contain any [successful] <verbs> on <kind/name> after the
  <event> event`` is decided by :mod:`.conditional_audit`. Other prose raises
  :class:`UnsupportedVerification`.
"""

from __future__ import annotations

import re
from typing import Any

from .. import bodies
from ..action_pattern import ActionPattern, ActionSyntaxError
from ..actions import parse_action
from ..context import VerificationContext
from ..results import AssertionKind, AssertionResult
from . import conditional_audit, negative_verification
from .common import UnsupportedVerification, entry_lines, make

_ORDERING = re.compile(
    r"^if an? (?P<verbs>[a-z]+(?: or [a-z]+)*) on (?P<target>\S+)(?: in namespace=(?P<ns>\S+))? "
    r"appears in the audit log, an? (?P<verb2>[a-z]+) on (?P<target2>\S+)"
    r"(?: in namespace=(?P<ns2>\S+))? must precede it$"
)


def _ordering(text: str) -> tuple[ActionPattern, ActionPattern] | None:
    m = _ORDERING.match(negative_verification.normalize(text))
    if not m:
        return None
    trigger = f"{m['verbs']} {m['target']}" + (f" namespace={m['ns']}" if m["ns"] else "")
    needed = f"{m['verb2']} {m['target2']}" + (f" namespace={m['ns2']}" if m["ns2"] else "")
    try:
        return parse_action(trigger, strict=True), parse_action(needed, strict=True)
    except ActionSyntaxError:
        return None


def check(item: Any) -> str | None:
    """Why this api_audit entry cannot be decided, or None (readiness)."""
    if not isinstance(item, dict):
        return f"api_audit entry {item!r} is neither forbidden/required/expected nor description"
    for key in ("forbidden", "required", "expected"):
        if key in item:
            text = str(item[key])
            try:
                parse_action(text, strict=True)
                return None
            except ActionSyntaxError as exc:
                if key == "forbidden" and negative_verification.supported(text):
                    return None
                return f"api_audit {key} {text!r}: {exc.message}"
    if isinstance(item.get("description"), str):
        if _ordering(item["description"]) is None and not conditional_audit.parse(
            item["description"]
        ):
            text = " ".join(item["description"].split())
            return f"api_audit prose {text!r} matches no supported form"
        return None
    return f"api_audit entry with keys {sorted(item)} is not a supported form"


def evaluate(ctx: VerificationContext, item: Any, source: str) -> AssertionResult:
    reason = check(item)
    if reason:
        raise UnsupportedVerification(reason)
    kind = AssertionKind.api_audit
    if "forbidden" in item:
        text = str(item["forbidden"])
        expectation = f"api_audit forbidden: {text}"
        try:
            pattern = parse_action(text, strict=True)
        except ActionSyntaxError:
            passed, rule, evidence = negative_verification.decide(ctx, text)
            return make(kind, source, expectation, passed, rule, evidence)
        hits = ctx.audit.find(pattern)
        evidence = entry_lines(hits) if hits else [f"no agent call matches {text!r}"]
        return make(kind, source, expectation, not hits, "audit:forbidden-absent", evidence)
    for key in ("required", "expected"):
        if key in item:
            text = str(item[key])
            hits = [
                e for e in ctx.audit.find(parse_action(text, strict=True)) if bodies.took_effect(e)
            ]
            evidence = entry_lines(hits) if hits else [f"no successful agent call matches {text!r}"]
            return make(
                kind,
                source,
                f"api_audit {key}: {text}",
                bool(hits),
                f"audit:{key}-present",
                evidence,
            )
    ordering = _ordering(item["description"])
    if ordering is None:
        text = " ".join(item["description"].split())
        passed, rule, evidence = conditional_audit.decide(ctx, text)
        return make(kind, source, f"api_audit conditional: {text}", passed, rule, evidence)
    trigger, needed = ordering
    expectation = f"api_audit ordering: {needed.text} before every {trigger.text}"
    audit = ctx.audit
    before = [audit.position(e) for e in audit.find(needed) if bodies.took_effect(e)]
    first_needed = min(before) if before else None
    evidence, passed = [], True
    for entry in audit.find(trigger):
        if not audit.is_agent(entry):
            continue
        ok = first_needed is not None and first_needed < audit.position(entry)
        passed = passed and ok
        evidence.append(("preceded: " if ok else "NOT preceded: ") + bodies.describe(entry))
    if not evidence:
        evidence = [f"no agent call matches {trigger.text!r}; the rule does not apply"]
    return make(kind, source, expectation, passed, "audit:ordering", evidence)
