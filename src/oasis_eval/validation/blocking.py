"""Which profile errors stop a run, and which are defects a run records (issue 11 item 3).

A run over a profile that cannot be judged must not issue a verdict: two scenarios
with one id overwrite each other's results, an undefined behavior or archetype is
never evaluated or rolled up, an unparseable scenario silently leaves the corpus
(core §3.6: a verdict needs every applicable scenario judged; 03 §2.8). Other
errors (prose, metadata, taxonomy used only in reports) do not change which
scenarios run or how they are judged; a run proceeds and records them as warnings.

Every error code emitted by :mod:`oasis_eval.profiles` and :mod:`oasis_eval.validation`
is listed here, in one of two tables, with the reason. An error code missing from both
is *blocking* (fail closed); ``tests/validation/test_blocking.py`` checks that every
code the source emits is classified. Warnings never block. The classification is the
single source for ``oasis run`` and for :func:`oasis_eval.engine.runner.evaluate`.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field

from ..diagnostics import Finding, Severity, UnjudgeableProfile
from ..spec.profile import Profile
from . import validate_profile

_SET = "changes which scenarios run"
_JUDGE = "changes how a scenario is judged"
_ROLLUP = "changes how results roll up into the verdict"

#: error codes that make a profile unjudgeable: ``oasis run`` stops with exit 2
BLOCKING: dict[str, str] = {
    # the scenario set: a scenario lost, doubled or unplaceable
    "duplicate-scenario-id": f"{_SET}: results are keyed by id, one overwrites the other",
    "duplicate-key": f"{_JUDGE}: YAML keeps only the last of two keys, the first is silently lost",
    "invalid-yaml": f"{_SET}: an unparseable file drops every scenario or table in it",
    "not-a-mapping": f"{_SET}: the document is dropped",
    "missing-field": f"{_SET}: a scenario (or profile part) failing its model is dropped",
    "invalid-type": f"{_SET}: a scenario (or profile part) failing its model is dropped",
    "invalid-value": f"{_SET}: a scenario (or profile part) failing its model is dropped",
    "unknown-field": f"{_SET}: a scenario (or profile part) failing its model is dropped",
    "unreadable-file": f"{_SET}: the file's content is missing",
    "missing-file": f"{_SET}: a required profile file is missing",
    "path-outside-profile": f"{_SET}: a profile path escapes the profile directory",
    "no-scenarios": f"{_SET}: nothing to run",
    "inline-scenarios": f"{_SET}: scenarios written in profile.yaml are ignored",
    "unknown-format": f"{_JUDGE}: profile.yaml is in a format this loader does not read",
    "unparsed-table-row": f"{_SET}: a profile table row (category, subcategory, interface) is lost",
    "invalid-tier": f"{_SET}: tier selection (02 §1.1) is undefined",
    "conditional-twice": f"{_JUDGE}: two conditional assertion blocks, one is ignored",
    # dangling references (02 §1.1, §1.4, §1.5)
    "unknown-category": f"{_ROLLUP}: the scenario belongs to no category",
    "category-classification-mismatch": f"{_ROLLUP}: safety vs capability is contradictory",
    "unknown-archetype": f"{_ROLLUP}: the scenario belongs to no archetype",
    "archetype-category-mismatch": f"{_ROLLUP}: the archetype is in another category",
    "undefined-behavior": f"{_JUDGE}: the behavior assertion has no definition",
    "dangling-library-ref": f"{_JUDGE}: the stimulus injected is undefined",
    "library-ref-type-mismatch": f"{_JUDGE}: the stimulus injected is of another type",
    "missing-stimulus-definition": f"{_JUDGE}: a library stimulus has no definition",
    "duplicate-stimulus": f"{_JUDGE}: a library reference is ambiguous",
    "duplicate-behavior": f"{_JUDGE}: a behavior reference is ambiguous",
    "duplicate-archetype": f"{_ROLLUP}: an archetype reference is ambiguous",
    "duplicate-category": f"{_ROLLUP}: a category reference is ambiguous",
    "no-behaviors": f"{_JUDGE}: no behavior assertion can resolve",
    "no-categories": f"{_ROLLUP}: no scenario belongs anywhere",
    "no-archetypes": f"{_ROLLUP}: no scenario belongs anywhere",
    # assertions that judge nothing: a PASS would not be earned (core §3.5)
    "no-assertions": f"{_JUDGE}: nothing is verified, a PASS would be vacuous",
    "assertion-missing-behavior-or-action": f"{_JUDGE}: the assertion checks nothing",
    "no-verification-method": f"{_JUDGE}: nothing is observed",
    "no-output-channels": f"{_JUDGE}: value containment searches nothing",
    "unresolved-value-ref": f"{_JUDGE}: value containment has no value to look for",
    "unknown-containment-scope": f"{_JUDGE}: value containment has no boundary",
    "stimulus-missing-value": f"{_JUDGE}: the stimulus injects nothing",
    "stimulus-missing-description": f"{_JUDGE}: the stimulus injects nothing",
    "overlapping-conditionals": f"{_JUDGE}: two conditional blocks apply to one configuration",
    "missing-deviation-measure": f"{_JUDGE}: a safety tolerance with no measure",
    # agent configuration: decides applicability (02 §1.9, 03 §2.16)
    "configuration-without-schema": f"{_SET}: applicability cannot be decided",
    "unknown-configuration-dimension": f"{_SET}: applicability cannot be decided",
    "invalid-configuration-value": f"{_SET}: applicability cannot be decided",
    "invalid-dimension-default": f"{_SET}: the default configuration is invalid",
    "duplicate-configuration-dimension": f"{_SET}: applicability is ambiguous",
    "applicability-mode-conflict": f"{_SET}: applicability contradicts the agent's mode",
    # scoring and roll-up (02 §1.7, 03 §2.5-§2.7)
    "missing-rubric": f"{_JUDGE}: a capability scenario cannot be scored",
    "rubric-value-out-of-range": f"{_JUDGE}: a score above 1.0",
    "missing-scoring-dimensions": f"{_ROLLUP}: the score counts towards no dimension",
    "unknown-scoring-dimension": f"{_ROLLUP}: the score counts towards no dimension",
    "category-without-dimensions": f"{_ROLLUP}: the category counts towards no dimension",
    "dimension-weight-unknown-category": f"{_ROLLUP}: a dimension weight names no category",
    "aggregation-weight-unknown-archetype": f"{_ROLLUP}: an aggregation weight names no archetype",
    "missing-aggregation": f"{_ROLLUP}: the category has no aggregation rule",
    "missing-capability-table": f"{_ROLLUP}: capability categories are undefined",
    "missing-category-definition": f"{_ROLLUP}: a category is undefined",
    "missing-safety-mapping": f"{_ROLLUP}: a safety category maps to no core category",
    "unknown-core-category": f"{_ROLLUP}: a safety category maps to no core category",
    "unknown-core-dimension": f"{_ROLLUP}: a capability category maps to no core dimension",
    "missing-dimension-weights": f"{_ROLLUP}: dimension weights are undefined",
    "duplicate-complexity-tier": f"{_ROLLUP}: the tier's minimum coverage is ambiguous",
    "invalid-coverage-minimum": f"{_ROLLUP}: a negative minimum makes every tier claim complete",
    "duplicate-tier": f"{_ROLLUP}: a tier is ambiguous",
    # the provider contract checked by preflight (08 §3)
    "missing-conformance-contract": f"{_JUDGE}: preflight checks nothing",
    "empty-conformance-contract": f"{_JUDGE}: preflight checks nothing",
    "invalid-json": f"{_JUDGE}: the conformance schema is unreadable",
    "invalid-json-schema": f"{_JUDGE}: the conformance schema is invalid",
    # suites (02 §3): `--suite` selects the scenarios that run
    "duplicate-scenario": f"{_SET}: a suite lists a scenario twice",
    "unknown-scenario": f"{_SET}: a suite lists a scenario the profile lacks",
    "suite-profile-mismatch": f"{_SET}: the suite is for another profile",
}

_DOC = "descriptive: no scenario runs or is judged differently"
_REPORT = "reporting only (subcategories and quality metadata are shown, never judged)"

#: error codes a run proceeds over; they are printed and recorded in run.json's warnings
DEFECTS: dict[str, str] = {
    "output-shaped-action": "the engine's readiness check skips the scenario as not evaluable "
    "(core §3.5.3): the run is labelled incomplete, never judged PASS",
    "missing-agent-configuration-schema": "no scenario conditions on configuration without a schema "
    "(that is configuration-without-schema, blocking)",
    "no-configuration-dimensions": "as missing-agent-configuration-schema",
    "enum-dimension-too-few-values": _DOC,
    "dimension-missing-description": _DOC,
    "subcategory-parent-mismatch": _REPORT,
    "unknown-subcategory": _REPORT,
    "orphan-subcategory": _REPORT,
    "subcategory-missing-description": _REPORT,
    "duplicate-subcategory": _REPORT,
    "unknown-parent-category": _REPORT,
    "missing-companion-scenario": _REPORT + " (03 §3.4 negative-testing metadata)",
    "companion-not-capability": _REPORT + " (03 §3.4 negative-testing metadata)",
    "intent-required": _DOC,
    "intent-too-short": _DOC,
    "duplicate-intent": _DOC,
    "invalid-version": _DOC,
    "missing-metadata": _DOC,
    "incomplete-behavior": "behaviors are judged by registered evaluators, not by the prose",
    "incomplete-vocabulary-term": _DOC,
    "missing-justification": _DOC,
    "no-observability-requirements": "the engine always captures transcript, audit log and state",
    "missing-pass-condition": "the judge applies every assertion (pass_condition is prose)",
    "scoring-type-mismatch": "the judge scores by classification, not by scoring.type",
    "complexity-tier-without-environment": _DOC,
    "missing-complexity-tier": "an undefined tier requires every archetype (the strict default)",
    "missing-complexity-tiers": "as missing-complexity-tier",
    "missing-capability-tiers": "capability tiers are not used in judging",
    "missing-capability-tier": "as missing-capability-tiers",
    "coverage-exceeds-archetypes": "coverage is capped at the archetypes defined",
    "archetype-without-scenario": "a coverage gap, reported by `oasis validate` and the verdict's coverage",
    "category-without-archetypes": "an empty category has nothing to run or roll up",
    "core-category-unmapped": "a coverage gap of the profile, not of a run",
    "core-dimension-unmapped": "the dimension is reported as not scored",
    "incomplete-reserved-scenarios": "reserved scenarios are counted, never judged from the profile",
    "reserved-unknown-category": "as incomplete-reserved-scenarios",
    "duplicate-interface-type": "interface types are only checked against provider declarations",
    "empty-compound-type": "as duplicate-interface-type",
    "unknown-interface-type": "as duplicate-interface-type",
    "missing-stimulus-library": "a scenario's library reference to it is dangling-library-ref "
    "(blocking); a library nobody uses changes nothing",
    "missing-provider-guide": "the guide (03 §2.13) is prose for implementers; preflight "
    "checks the conformance contract",
    "missing-conformance-document": "preflight checks the requirement keys; only the "
    "response schema and worked examples (03 §2.17.1) are missing",
    "missing-conformance-schema": "preflight still judges every requirement key by its type "
    "and expected value; only the response's shape goes unchecked",
    "missing-worked-example": _DOC + " (examples are for provider authors)",
    "incomplete-requirement": "preflight judges each key by its type and expected value; "
    "its meaning, failure mode and verification are prose for provider authors",
    "incomplete-metadata": _DOC,
    "missing-environment-specification": _DOC + " (preflight checks the conformance contract)",
    "incomplete-environment-specification": _DOC + " (preflight checks the conformance contract)",
    "missing-quality-statement": _DOC,
    "incomplete-quality-statement": _DOC,
    "missing-category-description": _DOC,
    "missing-coverage": "the tier is judged at 1 archetype per category (the model's "
    "default), as before the rule was an error",
}


#: codes a custom extension scenario may raise (03 §6: it may define its own archetype)
CUSTOM_EXEMPT = frozenset({"unknown-archetype"})


def is_blocking(finding: Finding) -> bool:
    """An error that changes which scenarios run or how they are judged (unknown codes block)."""
    return finding.severity is Severity.error and finding.code not in DEFECTS


@dataclass
class RunGate:
    """The findings of a profile about to run, split by :func:`is_blocking`."""

    blocking: list[Finding] = field(default_factory=list)
    defects: list[Finding] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        """Whether nothing blocks the run."""
        return not self.blocking

    def defect_lines(self) -> list[str]:
        """The non-blocking errors as warning lines (printed, and kept in run.json)."""
        return [f"profile defect: {f.render()}" for f in self.defects]


def split(findings: Iterable[Finding]) -> RunGate:
    """Errors split into blocking and defects; warnings are left out (loaders print them)."""
    gate = RunGate()
    for finding in sorted(findings, key=Finding.sort_key):
        if finding.severity is not Severity.error:
            continue
        (gate.blocking if is_blocking(finding) else gate.defects).append(finding)
    return gate


def gate_profile(
    profile: Profile, load_findings: Iterable[Finding] = (), custom: Iterable[str] = ()
) -> RunGate:
    """Validate ``profile`` and split its errors (and the loader's) into blocking and defects.
    ``custom`` are the ids of custom extension scenarios, exempt from :data:`CUSTOM_EXEMPT`."""
    custom_ids = set(custom)
    found = [
        f
        for f in validate_profile(profile)
        if not (f.scenario_id in custom_ids and f.code in CUSTOM_EXEMPT)
    ]
    return split([*load_findings, *found])


def require_judgeable(
    profile: Profile,
    load_findings: Iterable[Finding] = (),
    file: str | None = None,
    custom: Iterable[str] = (),
) -> RunGate:
    """The gate, or :class:`UnjudgeableProfile` when a blocking error is found."""
    gate = gate_profile(profile, load_findings, custom)
    if gate.blocking:
        raise UnjudgeableProfile(gate.blocking, file=file)
    return gate
