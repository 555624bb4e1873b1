"""Scenario rules that need nothing but the scenario itself (spec 02 §1).

Required fields, types and enumerations are enforced by the pydantic model
(:class:`oasis_eval.spec.Scenario`) when a scenario is loaded; the rules here
are the "required when ...", "at least one of ..." and format rules the model
cannot express. Every finding carries the scenario's file, the line of the
offending field and its dotted path.
"""

from __future__ import annotations

from ..diagnostics import Findings
from ..spec.common import VALUE_STIMULI, Classification, CoreDimension, ScoringType, StimulusType
from ..spec.profile import AgentConfigurationSchema
from ..spec.scenario import Scenario
from ..spec.semver import is_semver
from ._common import WEIGHT_EPSILON, at_scenario, blank, is_number
from .actions import action_verb, is_output_shaped
from .configuration import MAX_CONFIGURATIONS, overlapping_conditions
from .containment_rules import check_value_containment

#: 02 §1.1: minimum length of a present ``intent``
INTENT_MIN_LENGTH = 20

CORE_DIMENSIONS = frozenset(d.value for d in CoreDimension)


def check_scenario(
    scenario: Scenario,
    findings: Findings,
    *,
    schema: AgentConfigurationSchema | None = None,
    intent_required: bool = False,
) -> None:
    """Every self-contained rule of spec 02 for one scenario.

    ``schema`` (the profile's agent configuration schema, if any) only sharpens
    the overlap check of conditional assertions; ``intent_required`` is true when
    the active profile promotes ``intent`` for this scenario (03 §2.15).
    """
    check_identity(scenario, findings)
    check_intent(scenario, findings, required=intent_required)
    check_stimuli(scenario, findings)
    check_assertions(scenario, findings)
    check_conditional_overlap(scenario, findings, schema)
    check_verification(scenario, findings)
    check_scoring(scenario, findings)
    check_observability(scenario, findings)
    check_unknown_fields(scenario, findings)


# ---- 02 §1.1 identity ------------------------------------------------------
def check_identity(scenario: Scenario, findings: Findings) -> None:
    """id convention (warning), semver version, tier 1-3."""
    parts = scenario.id.split(".")
    known = {c.value for c in Classification}
    if len(parts) >= 2 and parts[1] in known and parts[1] != scenario.classification.value:
        findings.warning(
            "id-classification-mismatch",
            f"the id's classification segment '{parts[1]}' contradicts classification "
            f"'{scenario.classification.value}'",
            expected="{domain}.{classification}.{category_code}.{archetype_code}-{seq} (02 §1.1)",
            **at_scenario(scenario, "id"),
        )
    if not is_semver(scenario.version):
        findings.error(
            "invalid-version",
            f"version '{scenario.version}' is not a semantic version",
            expected="semver MAJOR.MINOR.PATCH[-pre][+build], e.g. 1.0.0 (02 §1.1)",
            **at_scenario(scenario, "version"),
        )
    if not 1 <= scenario.tier <= 3:  # the model enforces it; kept for constructed objects
        findings.error(
            "invalid-tier",
            f"tier {scenario.tier} is not 1, 2 or 3",
            expected="1, 2 or 3 (02 §1.1)",
            **at_scenario(scenario, "tier"),
        )


def check_intent(scenario: Scenario, findings: Findings, *, required: bool = False) -> None:
    """02 §1.1: intent, if present, has >= 20 characters; absence warns (errs if promoted)."""
    intent = scenario.intent
    if intent is None:
        if required:
            findings.error(
                "intent-required",
                "intent is missing, and the profile requires it for this scenario's category",
                expected="an intent statement of at least 20 characters (02 §1.1, 03 §2.15)",
                **at_scenario(scenario),
            )
        else:
            findings.warning(
                "intent-missing",
                "intent is recommended: what failure mode does the scenario expose, "
                "and what does failing mean?",
                expected="an intent statement of at least 20 characters (02 §1.1)",
                **at_scenario(scenario),
            )
        return
    text = intent.strip()
    if len(text) < INTENT_MIN_LENGTH:
        shown = "blank" if not text else f"{len(text)} characters long"
        findings.error(
            "intent-too-short",
            f"intent is {shown}",
            expected=f"a non-empty string of at least {INTENT_MIN_LENGTH} characters (02 §1.1)",
            **at_scenario(scenario, "intent"),
        )


# ---- 02 §1.4 stimuli -------------------------------------------------------
def check_stimuli(scenario: Scenario, findings: Findings) -> None:
    """value / description as the type requires (or a library_ref); timing only for temporal."""
    for i, stim in enumerate(scenario.stimuli):
        has_ref = not blank(stim.library_ref)
        if stim.type in VALUE_STIMULI and blank(stim.value) and not has_ref:
            findings.error(
                "stimulus-missing-value",
                f"a {stim.type.value} stimulus needs a literal value",
                expected="'value' or 'library_ref' (02 §1.4)",
                **at_scenario(scenario, "stimuli", i),
            )
        if stim.type not in VALUE_STIMULI and blank(stim.description) and not has_ref:
            findings.error(
                "stimulus-missing-description",
                f"a {stim.type.value} stimulus needs a description",
                expected="'description' or 'library_ref' (02 §1.4)",
                **at_scenario(scenario, "stimuli", i),
            )
        if stim.timing is not None and stim.type is not StimulusType.temporal_condition:
            findings.warning(
                "timing-ignored",
                f"timing only applies to temporal_condition stimuli, not {stim.type.value}",
                expected="no 'timing', or type temporal_condition (02 §1.4)",
                **at_scenario(scenario, "stimuli", i, "timing"),
            )


# ---- 02 §1.5 assertions, core §3.5.6 ---------------------------------------
def check_assertions(scenario: Scenario, findings: Findings) -> None:
    """A verifiable concern; entries name a behavior or action; no output-shaped action (core
    §3.5.6: a must or must_not action MUST be a tool call)."""
    a = scenario.assertions
    has_containment = bool(scenario.verification.value_containment)
    if not (a and (a.must or a.must_not)) and not has_containment:
        findings.error(
            "no-assertions",
            "the scenario declares no verifiable concern",
            expected="an assertions.must entry, an assertions.must_not entry or a "
            "verification.value_containment entry (02 §1.5)",
            **at_scenario(scenario, "assertions") if a else at_scenario(scenario),
        )
    for path, entry in scenario.all_assertion_entries():
        if blank(entry.behavior) and blank(entry.action):
            findings.error(
                "assertion-missing-behavior-or-action",
                "assertion entry names neither a behavior nor an action",
                expected="'behavior', 'action' or both (02 §1.5)",
                **at_scenario(scenario, *path),
            )
        if path[-2] in ("must", "must_not") and entry.action and is_output_shaped(entry.action):
            findings.error(
                "output-shaped-action",
                f"{path[-2]}.action '{entry.action}' describes an output "
                f"('{action_verb(entry.action)}'), "
                "not a tool call; it has no audit-log evidence",
                expected="verification.value_containment for output-channel concerns (core §3.5.6)",
                **at_scenario(scenario, *path, "action"),
            )


def check_conditional_overlap(
    scenario: Scenario, findings: Findings, schema: AgentConfigurationSchema | None
) -> None:
    """02 §1.10: at most one conditional entry may match any configuration."""
    if scenario.assertions is None or len(scenario.assertions.conditional) < 2:
        return
    conditions = [c.when for c in scenario.assertions.conditional]
    try:
        pairs = overlapping_conditions(conditions, schema)
    except ValueError:
        findings.warning(
            "conditional-overlap-unchecked",
            f"too many configurations to check conditional overlap (over {MAX_CONFIGURATIONS})",
            **at_scenario(scenario, "assertions", "conditional"),
        )
        return
    for i, j, example in pairs:
        shown = ", ".join(f"{k}={v!r}" for k, v in sorted(example.items())) or "any configuration"
        findings.error(
            "overlapping-conditionals",
            f"conditional entries {i} and {j} both match the configuration {{{shown}}}",
            expected="at most one conditional entry matching any configuration (02 §1.10)",
            **at_scenario(scenario, "assertions", "conditional", j, "when"),
        )


# ---- 02 §1.6 verification --------------------------------------------------
def check_verification(scenario: Scenario, findings: Findings) -> None:
    """Verification must declare at least one method (02 §1.6)."""
    if not scenario.verification.methods():
        findings.error(
            "no-verification-method",
            "verification declares no method",
            expected="one of state_assertions, api_audit, negative_verification, state_diff, "
            "value_containment (02 §1.6)",
            **at_scenario(scenario, "verification"),
        )
    for i, vc in enumerate(scenario.verification.value_containment):
        check_value_containment(scenario, i, vc, findings)


# ---- 02 §1.7 scoring -------------------------------------------------------
def check_scoring(scenario: Scenario, findings: Findings) -> None:
    """Scoring must match the classification: binary for safety, weighted for capability (02 §1.7)."""
    scoring = scenario.scoring
    want = ScoringType.binary if scenario.is_safety else ScoringType.weighted
    if scoring.type is not want:
        findings.error(
            "scoring-type-mismatch",
            f"a {scenario.classification.value} scenario is scored '{want.value}', "
            f"not '{scoring.type.value}'",
            expected=f"scoring.type: {want.value} (02 §1.7)",
            **at_scenario(scenario, "scoring", "type"),
        )
    if scenario.is_safety:
        if scoring.safety_tolerance > 0 and blank(scoring.deviation_measure):
            findings.error(
                "missing-deviation-measure",
                f"safety_tolerance is {scoring.safety_tolerance:g} but no deviation_measure "
                "says how "
                "deviation is measured",
                expected="scoring.deviation_measure when safety_tolerance > 0 (02 §1.7)",
                **at_scenario(scenario, "scoring", "safety_tolerance"),
            )
        if scoring.safety_tolerance == 0 and blank(scoring.pass_condition):
            findings.error(
                "missing-pass-condition",
                "safety_tolerance is 0 but no pass_condition is given",
                expected="scoring.pass_condition, e.g. all_assertions_met (02 §1.7)",
                **at_scenario(scenario, "scoring"),
            )
        return
    _check_capability_scoring(scenario, findings)


def _check_capability_scoring(scenario: Scenario, findings: Findings) -> None:
    scoring = scenario.scoring
    if not scoring.rubric:
        findings.error(
            "missing-rubric",
            "a capability scenario needs a rubric for partial credit",
            expected="scoring.rubric producing a score in 0.0-1.0 (02 §1.7)",
            **at_scenario(scenario, "scoring"),
        )
    for key, value in (scoring.rubric or {}).items():
        if not is_number(value):
            continue  # prose rubric entries ("proportional", true) are profile-defined
        if value > 1.0:
            findings.error(
                "rubric-value-out-of-range",
                f"rubric score {value!r} is above 1.0",
                expected="a score from 0.0 to 1.0 (02 §1.7)",
                **at_scenario(scenario, "scoring", "rubric", key),
            )
        elif value < 0.0:
            # e.g. ``per_hop_missed: -0.25``: a deduction, not an outcome score
            findings.warning(
                "rubric-negative-value",
                f"rubric value {value!r} is negative; it can only be a deduction, and the scenario "
                "score must still be clamped to 0.0-1.0",
                expected="outcome scores from 0.0 to 1.0 (02 §1.7)",
                **at_scenario(scenario, "scoring", "rubric", key),
            )
    if not scoring.dimensions:
        findings.error(
            "missing-scoring-dimensions",
            "a capability scenario must map to core dimensions",
            expected="scoring.dimensions keyed by core dimension (02 §1.7)",
            **at_scenario(scenario, "scoring"),
        )
        return
    for key in scoring.dimensions:
        if key not in CORE_DIMENSIONS:
            findings.error(
                "unknown-scoring-dimension",
                f"'{key}' is not a core capability dimension",
                expected=", ".join(sorted(CORE_DIMENSIONS)) + " (core §4.1)",
                **at_scenario(scenario, "scoring", "dimensions", key),
            )
    total = sum(scoring.dimensions.values())
    if abs(total - 1.0) > WEIGHT_EPSILON:
        findings.warning(
            "scoring-dimension-weights",
            f"scoring.dimensions weights sum to {total:g}, not 1.0",
            expected="weights summing to 1.0",
            **at_scenario(scenario, "scoring", "dimensions"),
        )


# ---- 02 §1.8 observability, unknown fields ---------------------------------
def check_observability(scenario: Scenario, findings: Findings) -> None:
    """Observability requirements must not be empty (02 §1.8)."""
    if not [r for r in scenario.observability_requirements if not blank(r)]:
        findings.error(
            "no-observability-requirements",
            "observability_requirements is empty",
            expected="at least the reasoning trace, tool calls and system audit log (02 §1.8)",
            **at_scenario(scenario, "observability_requirements"),
        )


def check_unknown_fields(scenario: Scenario, findings: Findings) -> None:
    """Unknown top-level keys warn; ``x-`` keys are tool extensions (e.g. ``x-probe``, the
    archetype attribution of an adversarial probe, 07 §2.1) and are accepted silently."""
    unknown = [k for k in scenario.unknown_fields if not k.startswith("x-")]
    if unknown:
        findings.warning(
            "unknown-fields",
            "unknown top-level field(s): " + ", ".join(unknown),
            expected="only the fields of 02 §1",
            **at_scenario(scenario, unknown[0]),
        )
