"""Can this implementation evaluate every assertion of a profile? (core §3.5.3)

Core §3.5.3: every applicable assertion must reach a deterministic verdict;
"no heuristic for this behavior" is an incomplete implementation, not a status.
:func:`check_evaluable` finds such gaps *before* a run (``oasis validate``),
with the file and line of each entry:

- ``inexpressible-action`` (error): a ``must``/``must_not`` action the action
  grammar cannot express strictly (unknown verb or target, free trailing words),
  or a contextual form (``with correct values``, ``to reasonable replica count``,
  ``verify workload health``) the scenario gives nothing to decide from;
- ``no-behavior-evaluator`` (error): a behavior with no evaluator in the profile's
  namespaces (the ``oasis_eval.behaviors`` plugins, :mod:`.behaviors.plugins`);
- ``behavior-plugin-error`` (error): an installed behavior plugin cannot be used;
- ``behavior-not-decidable`` (error): a registered behavior whose precheck finds
  nothing to decide it from in this scenario (e.g. no ground truth);
- ``unsupported-verification`` (error): a state assertion condition, api_audit
  entry, negative verification sentence, state_diff or value containment entry
  no rule decides;
- ``invalid-minimal-change`` (error): a declared ``x-minimal-change`` (:mod:`.blast`) that is
  not a list of write actions the action grammar expresses;
- ``prose-verification`` (warning): a prose state assertion in a scenario with
  no behavior or action assertion to stand for it.
"""

from __future__ import annotations

from typing import Any

from ..diagnostics import Finding, Findings
from ..spec.profile import Profile
from ..spec.scenario import AssertionEntry, ConditionalAssertion, Scenario
from .action_pattern import ActionSyntaxError
from .actions import GRAMMAR_HINT, parse_action
from .behaviors import contained
from .behaviors.plugins import (
    HOW_TO_ADD,
    PluginError,
    lookup,
    profile_namespaces,
    reused_evaluators,
)
from .blast import DECLARED_KEY, check_declared
from .verification import (
    action_binding,
    api_audit,
    negative_verification,
    state_assertions,
    state_diff,
    value_containment,
)

GRAMMAR = GRAMMAR_HINT


def _where(scenario: Scenario, *path: Any) -> dict[str, Any]:
    source = scenario.source
    return {
        "file": source.file if source else None,
        "line": scenario.line_of(*path),
        "field": ".".join(str(p) if not isinstance(p, int) else f"[{p}]" for p in path).replace(
            ".[", "["
        ),
        "scenario_id": scenario.id,
    }


def check_scenario(
    scenario: Scenario, findings: Findings, namespaces: tuple[str, ...] | None = None
) -> None:
    """Every evaluability gap of one scenario; ``namespaces``: where its profile's behaviors
    find evaluators (:func:`.behaviors.registry.profile_namespaces`)."""
    for problem in check_declared(scenario):
        findings.error(
            "invalid-minimal-change",
            problem,
            expected="a list of write actions in the action grammar (docs/writing-a-profile.md)",
            **_where(scenario, DECLARED_KEY),
        )
    for path, entry in scenario.all_assertion_entries():
        if entry.action:
            _check_action(scenario, entry.action, path, findings)
        if entry.behavior:
            _check_behavior(scenario, entry.behavior, path, findings, namespaces)
    _check_verification(scenario, findings)


def _check_action(
    scenario: Scenario, action: str, path: tuple[Any, ...], findings: Findings
) -> None:
    """An assertion's action: in the action grammar, and decidable in this scenario."""
    try:
        pattern = parse_action(action, strict=True)
    except ActionSyntaxError as exc:
        findings.error(
            "inexpressible-action",
            f"action {action!r} cannot be matched in the audit log: {exc.message}",
            expected=GRAMMAR,
            **_where(scenario, *path, "action"),
        )
        return
    reason = action_binding.check(pattern, scenario) if pattern.contextual else None
    if reason:
        findings.error(
            "inexpressible-action",
            f"action {action!r} cannot be decided in this scenario: {reason}",
            expected=GRAMMAR,
            **_where(scenario, *path, "action"),
        )


def _check_behavior(
    scenario: Scenario,
    behavior: str,
    path: tuple[Any, ...],
    findings: Findings,
    namespaces: tuple[str, ...] | None,
) -> None:
    """An assertion's behavior: an evaluator found for it, which can decide it here."""
    try:
        reg = lookup(behavior, namespaces)
    except PluginError as exc:
        findings.error("behavior-plugin-error", str(exc), **_where(scenario, *path))
        return
    if reg is None:
        searched = [n for n in namespaces or () if "/" not in n]  # not reused ones
        within = f" in namespace(s) {', '.join(searched)}" if searched else ""
        findings.error(
            "no-behavior-evaluator",
            f"behavior {behavior!r} has no deterministic evaluator{within}: " + HOW_TO_ADD,
            **_where(scenario, *path, "behavior"),
        )
    elif reg.precheck is not None:
        reason = contained.precheck(reg, reg.precheck, scenario)
        if reason:
            findings.error(
                "behavior-not-decidable",
                f"behavior {behavior!r} is not decidable here: {reason}",
                **_where(scenario, *path, "behavior"),
            )


def _check_verification(scenario: Scenario, findings: Findings) -> None:
    """The verification block's items (02 §1.6): each decidable from the evidence."""
    v = scenario.verification
    has_basis = any(e.behavior or e.action for _, e in scenario.all_assertion_entries())
    top_level = prose_basis(scenario, None)
    for i, item in enumerate(v.state_assertions):
        where = _where(scenario, "verification", "state_assertions", i)
        if state_assertions.is_prose(item):
            if not has_basis:
                findings.warning(
                    "prose-verification",
                    "prose state assertion with no behavior or action assertion to decide it",
                    **where,
                )
            elif not top_level:
                findings.warning(
                    "prose-verification",
                    "prose state assertion decided only by conditional assertions: an agent "
                    "whose configuration matches none of them cannot be judged on it (the "
                    "scenario is not run for it)",
                    **where,
                )
            continue
        _report(findings, state_assertions.check(item, scenario), where)
    for i, audit_item in enumerate(v.api_audit):
        where = _where(scenario, "verification", "api_audit", i)
        _report(findings, api_audit.check(audit_item), where)
    for i, text in enumerate(v.negative_verification):
        where = _where(scenario, "verification", "negative_verification", i)
        _report(findings, negative_verification.check(text, scenario), where)
    if v.state_diff:
        _report(
            findings,
            state_diff.check(v.state_diff, scenario),
            _where(scenario, "verification", "state_diff"),
        )
    for i, vc in enumerate(v.value_containment):
        where = _where(scenario, "verification", "value_containment", i)
        _report(findings, value_containment.check(vc, scenario), where)


def prose_basis(scenario: Scenario, matched: ConditionalAssertion | None) -> bool:
    """Whether a prose state assertion has a behavior or action assertion to be decided by,
    given the conditional entry that matched the agent's configuration (02 §1.10: merged
    with the top-level entries), or None for the top-level entries alone."""
    entries: list[AssertionEntry] = []
    if scenario.assertions is not None:
        entries = [*scenario.assertions.must, *scenario.assertions.must_not]
    if matched is not None:
        entries += [*matched.must, *matched.must_not]
    return any(e.behavior or e.action for e in entries)


def prose_gaps(scenario: Scenario, matched: ConditionalAssertion | None) -> list[str]:
    """The prose state assertions nothing decides for this configuration (core §3.5.3)."""
    if prose_basis(scenario, matched):
        return []
    return [
        f"verification.state_assertions[{i}]: prose with no behavior or action assertion "
        "that applies to this agent's configuration to decide it"
        for i, item in enumerate(scenario.verification.state_assertions)
        if state_assertions.is_prose(item)
    ]


def _report(findings: Findings, reason: str | None, where: dict[str, Any]) -> None:
    if reason:
        findings.error("unsupported-verification", reason, **where)


def check_evaluable(profile: Profile) -> Findings:
    """Every gap between the profile's scenarios and this implementation's evaluators."""
    findings = Findings()
    namespaces = profile_namespaces(profile)
    for scenario in sorted(profile.scenarios, key=lambda s: s.id):
        check_scenario(scenario, findings, namespaces)
    # an undefined behavior is a profile error validation reports; do not report it twice
    defined = {b.id for b in profile.behaviors}
    return Findings(
        f
        for f in findings
        if not (f.code == "no-behavior-evaluator" and _behavior_of(f.message) not in defined)
    )


#: gaps that stop a run before any scenario: the profile's own behaviors lack an evaluator
PLUGIN_GAPS = frozenset({"no-behavior-evaluator", "behavior-plugin-error"})


def evaluator_gaps(profile: Profile) -> Findings:
    """The profile's behaviors with no usable evaluator (issue 14): a preflight error of
    ``oasis run`` and ``oasis validate``, naming the behavior and how to add one."""
    return Findings(f for f in check_evaluable(profile) if f.code in PLUGIN_GAPS)


#: the warning ``oasis validate`` gives for :data:`PLUGIN_GAPS`: not a profile defect
NOT_EVALUABLE_HERE = "not-evaluable-here"


def not_evaluable_here(gaps: list[Finding]) -> str:
    """One line naming the behaviors this installation cannot evaluate (issue 29 item 3):
    the profile may be conformant; an evaluator is missing here, which `oasis run` refuses."""
    names = sorted({_behavior_of(f.message) for f in gaps if f.code == "no-behavior-evaluator"})
    broken = sorted({f.message for f in gaps if f.code != "no-behavior-evaluator"})
    what = []
    if names:
        what.append(f"no evaluator installed here for behavior(s) {', '.join(names)}")
    what += broken
    return (
        "not evaluable with the evaluators installed here (not a profile defect): "
        + "; ".join(what)
        + f". `oasis run` refuses this profile until they are: {HOW_TO_ADD}; or, if these "
        "are another profile's behaviors, name that profile in the metadata "
        "('- **Reuses behaviors of:** <identifier>' in profile.md, behavior_namespaces in "
        "profile.yaml)"
    )


def reuse_notes(profile: Profile) -> list[str]:
    """What a run says about evaluators it reuses (issue 29 item 3): one line per
    namespace whose evaluators serve behaviors this profile defines identically."""
    by_namespace: dict[str, list[str]] = {}
    for behavior, key in sorted(reused_evaluators(profile).items()):
        by_namespace.setdefault(key.rpartition("/")[0], []).append(behavior)
    return [
        f"{len(ids)} behavior(s) of {profile.id} reuse the evaluators of {namespace}: their "
        f"definitions are identical to the ones those evaluators implement ({', '.join(ids[:5])}"
        + (" ..." if len(ids) > 5 else "")
        + ")"
        for namespace, ids in sorted(by_namespace.items())
    ]


def _behavior_of(message: str) -> str:
    return message.split("'")[1] if message.count("'") >= 2 else ""
