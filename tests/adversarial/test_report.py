"""The adversarial_verification block (07 §6.1, 05 §1) and its report section (05 §2.7, 07 §6.2)."""

from __future__ import annotations

from typing import Any

import pytest
from pydantic import ValidationError

from oasis_eval.engine.adversarial_record import (
    AdversarialDetail,
    CoverageStatement,
    ProbeOutcome,
    ReservedDetail,
    build_block,
    claim_text,
)
from oasis_eval.evaluation.judge import base_result
from oasis_eval.evaluation.results import ScenarioState
from oasis_eval.reporting import render_html, render_markdown, validate_verdict_data, verdict_data
from oasis_eval.spec.common import GeneratorType, Reproducibility, VerdictStatus
from oasis_eval.spec.probe import GeneratorMethod, Probe
from oasis_eval.spec.verdict import (
    AdversarialVerification,
    CapabilityCoverage,
    GeneratorDeclaration,
)

from .phase_support import ScenarioProbes, config, example_profile, run


def _outcome(
    scenario_id: str,
    classification: str,
    primary: str,
    *,
    status: VerdictStatus | None = None,
    score: float | None = None,
    secondary: tuple[str, ...] = (),
    state: ScenarioState = ScenarioState.executed,
) -> ProbeOutcome:
    profile = example_profile()
    base = next(s for s in profile.scenarios if s.classification.value == classification)
    scenario = base.model_copy(update={"id": scenario_id})
    result = base_result(scenario, state)
    result.status, result.score = status, score
    probe = Probe(
        scenario=scenario,
        primary_archetype=primary,
        secondary_archetypes=secondary,
        description=f"probe {scenario_id}",
    )
    return ProbeOutcome(
        probe=probe,
        classification=classification,
        result=result,
        serialized=f"probes/failed/{scenario_id}.yaml" if status is VerdictStatus.FAIL else None,
    )


def _detail(**kw: Any) -> AdversarialDetail:
    probes = [
        _outcome("p1", "safety", "S-PI-001", status=VerdictStatus.PASS),
        _outcome("p2", "safety", "S-PI-001", status=VerdictStatus.FAIL, secondary=("C-DG-001",)),
        _outcome("p3", "safety", "S-BV-001", state=ScenarioState.not_applicable),
        _outcome("p4", "capability", "C-DG-001", score=0.5),
        _outcome("p5", "capability", "C-DG-001", score=1.0, secondary=("S-PI-001",)),
        _outcome("p6", "capability", "C-WO-001", score=0.25),
    ]
    return AdversarialDetail(
        performed=True,
        generator_name="mutation",
        method=GeneratorMethod(
            type=GeneratorType.llm,
            model="probe-model",
            model_version="2026-01",
            description="templated",
        ),
        declaration=GeneratorDeclaration(
            type=GeneratorType.llm,
            model="probe-model 2026-01",
            reproducibility=Reproducibility.partially_reproducible,
            config_hash="sha256:abc",
        ),
        requested=6,
        seed=7,
        probes=probes,
        **kw,
    )


def test_block_counts_follow_the_primary_archetype() -> None:
    block = build_block(_detail())
    assert block.probe_summary.model_dump() == {
        "total_probes": 6,
        "safety_probes": 3,
        "capability_probes": 3,
        "composition_probes": 2,
    }
    safety = block.safety_results
    assert (safety.total, safety.passed, safety.failed, safety.any_safety_violation) == (
        2,
        1,
        1,
        True,
    )
    assert safety.failures[0].model_dump() == {
        "primary_archetype": "S-PI-001",
        "secondary_archetypes": ["C-DG-001"],
        "description": "probe p2",
        "probe_serialized": "probes/failed/p2.yaml",
    }
    cap = block.capability_results
    assert cap.total == 3 and cap.mean_score == pytest.approx(0.5833, abs=1e-4)
    assert {k: (v.probes, v.mean) for k, v in (cap.per_archetype or {}).items()} == {
        "C-DG-001": (2, 0.75),
        "C-WO-001": (1, 0.25),
    }
    assert block.generator.model == "probe-model 2026-01"
    assert block.reserved_scenarios is None and block.aborted is None


def test_block_is_a_valid_verdict_part_and_abort_pair_is_enforced() -> None:
    outcome = run("careful")
    verdict = outcome.record.verdict
    verdict.adversarial_verification = build_block(
        _detail(aborted=True, abort_reason="probe p9: provider down")
    )
    data = verdict_data(verdict)
    assert not validate_verdict_data(data)
    adv = data["verdict"]["adversarial_verification"]
    assert list(adv)[:5] == [
        "performed",
        "generator",
        "probe_summary",
        "safety_results",
        "capability_results",
    ]
    assert adv["aborted"] is True and adv["abort_reason"] == "probe p9: provider down"
    clean = verdict_data(
        verdict.model_copy(update={"adversarial_verification": build_block(_detail())})
    )
    assert (
        "aborted" not in clean["verdict"]["adversarial_verification"]
    )  # spec keys only when it completed
    with pytest.raises(ValidationError, match="abort_reason"):
        AdversarialVerification.model_validate({**adv, "abort_reason": None})


def test_claim_text_states_method_and_probe_count() -> None:
    assert claim_text(None) == "not performed"
    text = claim_text(build_block(_detail()))
    assert text.startswith("performed: llm generator (probe-model 2026-01), partially_reproducible")
    assert "6 probe(s) (3 safety, 3 capability)" in text


def test_report_section_is_separate_with_note_abort_and_reserved_coverage() -> None:
    outcome = run("careful", config(ScenarioProbes(), count=2))
    record = outcome.record
    detail = _detail(aborted=True, abort_reason="probe p9: provider down")
    detail.reserved = ReservedDetail(
        source="encrypted bundle",
        loaded=3,
        executed=2,
        passed=2,
        failed=0,
        not_executed=1,
        coverage_without=CoverageStatement(
            safety_gaps=["safety category 'scope-boundary': 0 of the 1"]
        ),
        coverage_with=CoverageStatement(
            capability=CapabilityCoverage(
                required_archetypes=4, evaluated_archetypes=4, complete=True
            )
        ),
    )
    record.adversarial = detail
    record.verdict.adversarial_verification = build_block(detail)
    md = render_markdown(record)
    section = md[md.index("## Adversarial verification") : md.index("## Conformance claim")]
    before = md[: md.index("## Adversarial verification")]
    assert before.rstrip().endswith("> **This section is separate from the core verdict.**")
    for expected in (
        "not deterministic",
        "do not alter the safety verdict",
        "cut short",
        "probe p9: provider down",
        "probe-model",
        "partially_reproducible",
        "templated",
        "Composition probes",
        "probes/failed/p2.yaml",
        "C-DG-001",
        "Coverage without reserved scenarios",
        "safety: 1 category below the minimum",
        "Coverage with reserved scenarios",
        "encrypted bundle",
        "not disclosed",
        "not applicable",
    ):
        assert expected in section, expected
    html = render_html(record)
    assert '<section id="adversarial" class="separate">' in html
    assert "cut short" in html


def test_no_section_without_a_phase() -> None:
    md = render_markdown(run("careful").record)
    assert "Adversarial verification (separate" not in md
