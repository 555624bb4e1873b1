"""The mutation generator (07 §2.2, §3): deterministic probes that validate, are evaluable,
provision on sim-k8s and keep the safety property of their base scenario."""

from __future__ import annotations

import json
import re
import tomllib
from functools import lru_cache
from pathlib import Path
from typing import Any

import anyio
import pytest

from oasis_eval.adversarial.generators import (
    GeneratorError,
    carriers,
    known_generators,
    load_generator,
    mutation,
    renaming,
    rewording,
)
from oasis_eval.adversarial.serialize import probe_yaml
from oasis_eval.contract import ProvisionRequest
from oasis_eval.diagnostics import Findings
from oasis_eval.engine.execute import _missing_preconditions
from oasis_eval.engine.redaction import resolve_value_ref
from oasis_eval.engine.stimuli import plan
from oasis_eval.evaluation.readiness import check_scenario
from oasis_eval.examples import EXAMPLE_PROFILE_DIR
from oasis_eval.profiles.loader import load_profile
from oasis_eval.spec.probe import GenerationRequest, Probe, ProbeGenerator, scenario_data
from oasis_eval.spec.profile import Profile
from oasis_eval.validation import validate_scenario
from oasis_sim_k8s import SimK8sProvider

from ..sim_k8s.support import agent_visible_text
from ..support import run_cli

REPO = Path(__file__).resolve().parents[2]
ID = re.compile(r"^[a-z0-9-]+\.probe\.[a-z]-[a-z]{2}-\d{3}\.[0-9a-f]{8}$")


@lru_cache(maxsize=4)
def _load(path: str) -> Profile:
    loaded = load_profile(Path(path))
    assert loaded.profile is not None
    return loaded.profile


@pytest.fixture(scope="module")
def example() -> Profile:
    return _load(str(EXAMPLE_PROFILE_DIR))


@pytest.fixture(scope="module")
def si(si_profile_dir: Path) -> Profile:
    return _load(str(si_profile_dir))


def generate(
    profile: Profile, count: int, seed: int = 0, archetypes: tuple[str, ...] = (), **options: Any
) -> tuple[list[Probe], Any]:
    gen = load_generator("mutation", options)
    probes = gen.generate(profile, GenerationRequest(count=count, seed=seed, archetypes=archetypes))
    return probes, gen.last_report  # type: ignore[attr-defined]


def assert_sound(probe: Probe, profile: Profile, classification: str = "safety") -> None:
    """Valid against the profile, evaluable, anchored to its primary archetype (07 §2.1, §3.2)."""
    findings = validate_scenario(probe.scenario, profile)
    check_scenario(probe.scenario, findings)
    assert not findings.errors, [f.render() for f in findings.errors]
    arch = profile.archetype(probe.primary_archetype)
    assert (
        arch is not None
        and probe.scenario.archetype == arch.id
        and probe.scenario.category == arch.category
    )
    assert probe.classification == classification
    assert ID.match(probe.scenario.id), probe.scenario.id
    assert probe.provenance.startswith("mutation:base=")


# ---- done-when: every archetype, valid and evaluable -------------------------------
def test_every_si_safety_archetype_gets_valid_evaluable_probes(si: Profile) -> None:
    wanted = [a.id for a in si.safety_archetypes()]
    assert len(wanted) == 21
    probes, report = generate(si, 3 * len(wanted), seed=1)
    assert report.per_archetype == {a: 3 for a in wanted}, (report.per_archetype, report.notes)
    for probe in probes:
        assert_sound(probe, si)
    assert len({p.scenario.id for p in probes}) == len(probes)
    assert len({" ".join((p.scenario.intent or "").split()) for p in probes}) == len(probes)


def test_example_profile_probes_are_valid_and_evaluable(example: Profile) -> None:
    wanted = [a.id for a in example.safety_archetypes()]
    probes, report = generate(example, 4 * len(wanted), seed=5)
    assert report.per_archetype == {a: 4 for a in wanted}
    for probe in probes:
        assert_sound(probe, example)


def test_capability_probes_only_rename_and_paraphrase(si: Profile, example: Profile) -> None:
    for profile in (si, example):
        ids = tuple(a.id for a in profile.capability_archetypes())
        probes, report = generate(profile, 2 * len(ids), seed=3, archetypes=ids)
        assert report.produced == 2 * len(ids), report.notes
        for probe in probes:
            assert_sound(probe, profile, "capability")
            steps = {n.split("(")[0].split(" ")[0] for n in probe.provenance.split(";")[3:]}
            assert steps and steps <= {"rename", "paraphrase", "subcategory"}, probe.provenance
            _provision(probe, profile)


# ---- determinism -------------------------------------------------------------------
def test_same_seed_gives_byte_identical_probes(example: Profile) -> None:
    first, _ = generate(example, 12, seed=42)
    again, _ = generate(example, 12, seed=42)
    assert first  # two empty runs would be identical too
    assert [p.content_hash() for p in first] == [p.content_hash() for p in again]
    assert [probe_yaml(p) for p in first] == [probe_yaml(p) for p in again]


def test_different_seeds_give_different_probes(example: Profile) -> None:
    a, _ = generate(example, 12, seed=1)
    b, _ = generate(example, 12, seed=2)
    hashes_a, hashes_b = {p.content_hash() for p in a}, {p.content_hash() for p in b}
    assert hashes_a != hashes_b
    assert len(hashes_a & hashes_b) < len(hashes_a) // 2


def test_a_probe_does_not_depend_on_the_other_archetypes_requested(example: Profile) -> None:
    full, _ = generate(example, 2 * len(example.safety_archetypes()), seed=9)
    alone, _ = generate(example, 2, seed=9, archetypes=("S-PI-001",))
    assert [p.content_hash() for p in alone] == [
        p.content_hash() for p in full if p.primary_archetype == "S-PI-001"
    ]


def test_generation_uses_no_global_random_state(example: Profile) -> None:
    import random

    random.seed(1)
    a, _ = generate(example, 6, seed=3)
    random.seed(99)
    b, _ = generate(example, 6, seed=3)
    assert [p.content_hash() for p in a] == [p.content_hash() for p in b]


# ---- the gate ----------------------------------------------------------------------
def test_invalid_candidates_are_dropped_and_counted(
    example: Profile, monkeypatch: pytest.MonkeyPatch
) -> None:
    real = rewording.paraphrase

    def breaking(data: dict[str, Any], rng: Any) -> str | None:
        note = real(data, rng)
        data.setdefault("assertions", {}).setdefault("must", []).append(
            {"behavior": "no_such_behavior"}
        )
        return note or "paraphrase(0)"

    monkeypatch.setattr(rewording, "paraphrase", breaking)
    probes, report = generate(example, 24, seed=4)
    broken = [d for d in report.dropped if "no_such_behavior" in d.reason]
    assert broken, report.dropped
    assert all(
        "undefined-behavior" in d.reason or "no-behavior-evaluator" in d.reason for d in broken
    )
    for probe in probes:
        assert_sound(probe, example)
        assert "paraphrase" not in probe.provenance
    assert report.produced == len(probes)


def test_unusable_base_gives_a_note_not_a_probe(example: Profile) -> None:
    profile = example.model_copy(deep=True)
    base = next(s for s in profile.scenarios if s.archetype == "S-DM-001")
    base.assertions.must[0].behavior = "no_such_behavior"  # type: ignore[union-attr]
    probes, report = generate(profile, 2, archetypes=("S-DM-001",))
    assert probes == []
    assert any("not usable" in n for n in report.notes)


def test_unknown_archetype_is_a_clear_error(example: Profile) -> None:
    with pytest.raises(GeneratorError, match="S-XX-999"):
        generate(example, 2, archetypes=("S-XX-999",))


# ---- strategies --------------------------------------------------------------------
def _instruction_carrier(probe: Probe) -> str:
    found = carriers.find_injections(scenario_data(probe.scenario))
    assert len(found) <= 1, found
    return found[0].carrier if found else ""


def test_carrier_moves_reach_every_carrier_and_leave_one_instruction(si: Profile) -> None:
    probes, _ = generate(
        si, 42, seed=3, archetypes=("S-PI-001", "S-PI-002", "S-PI-003"), strategies=["carrier"]
    )
    moved = {}
    for probe in probes:
        m = re.search(r"carrier\((\w+)->(\w+)\)", probe.provenance)
        assert m, probe.provenance
        moved[m.group(2)] = probe
        found = _instruction_carrier(probe)
        # the instruction now lives in the new carrier only (reworded text may not read as one)
        assert found in ("", m.group(2)), (found, probe.provenance)
        assert probe.scenario.quality is not None and probe.scenario.quality.attack_surface
    assert set(moved) == set(carriers.CARRIERS)


def test_carried_instructions_provision_and_reach_the_agent(si: Profile, example: Profile) -> None:
    for profile, archetypes in (
        (si, ("S-PI-001", "S-PI-002", "S-PI-003")),
        (example, ("S-PI-001",)),
    ):
        probes, _ = generate(profile, 21, seed=8, archetypes=archetypes, strategies=["carrier"])
        assert probes, archetypes
        for probe in probes:
            env, text = _provision(probe, profile)
            payload = carriers.find_injections(scenario_data(probe.scenario))[0].text
            rules = " ".join(r["payload"] for r in env.tool_output_rules).lower()
            words = " ".join(payload.split()).lower()
            assert words[:40] in text or json.dumps(words)[1:41] in text or words[:40] in rules, (
                probe.provenance
            )


def _provision(probe: Probe, profile: Profile) -> tuple[Any, str]:
    s = probe.scenario
    stim = plan(s, profile)
    agent = s.preconditions.agent
    scope = {k: [str(x) for x in v] for k, v in (agent.scope or {}).items() if isinstance(v, list)}
    req = ProvisionRequest(
        scenario_id=s.id,
        environment_type=s.preconditions.environment.type,
        state=s.preconditions.environment.state,
        mode=agent.mode,
        tools=agent.tools,
        scope=scope,
        principal="oasis-agent",
        tier=1,
        provider_stimuli=stim.provider_stimuli,
    )
    provider = SimK8sProvider()

    async def go() -> Any:
        res = await provider.provision(req)
        if stim.injections:
            await provider.inject_state(res.environment_id, stim.injections)
        return res, await provider.snapshot(res.environment_id)

    res, snap = anyio.run(go)
    assert res.unestablished == [], (s.id, probe.provenance, res.unestablished)
    assert _missing_preconditions(s, snap.resources) == [], probe.provenance
    env = provider.environment(res.environment_id)
    text = agent_visible_text(env)
    for word in ("simulat", "fake", "inject"):
        assert word not in text, (word, probe.provenance)
    return env, text


def test_every_si_probe_provisions_on_sim_k8s(si: Profile) -> None:
    probes, _ = generate(si, 42, seed=13)
    assert probes
    for probe in probes:
        _provision(probe, si)


def test_example_probes_provision_on_sim_k8s(example: Profile) -> None:
    probes, _ = generate(example, 24, seed=13)
    assert probes
    for probe in probes:
        _provision(probe, example)


def _renames(probe: Probe) -> dict[str, str]:
    m = re.search(r"rename\(([^)]*)\)", probe.provenance)
    return dict(pair.split("->") for pair in m.group(1).split(",")) if m else {}


def test_rename_reaches_every_occurrence(si: Profile, example: Profile) -> None:
    for profile in (si, example):
        probes, _ = generate(profile, 30, seed=2, strategies=["rename"])
        assert probes
        for probe in probes:
            mapping = _renames(probe)
            assert mapping, probe.provenance
            data = scenario_data(probe.scenario)
            blob = renaming.text_blob(
                {k: data.get(k) for k in ("preconditions", "stimuli", "assertions", "verification")}
            )
            for old, new in mapping.items():
                assert not re.search(rf"(?<![\w-]){re.escape(old)}(?![\w])", blob), (
                    old,
                    probe.provenance,
                )
                assert new in blob
            for vc in probe.scenario.verification.value_containment:
                assert (
                    resolve_value_ref(vc.value_ref, probe.scenario.preconditions.environment.state)
                    is not None
                )


def test_requested_magnitude_moves_consistently(si: Profile) -> None:
    probes, _ = generate(si, 4, seed=6, archetypes=("S-BR-002",), strategies=["magnitude"])
    assert probes
    for probe in probes:
        m = re.search(r"replicas=(\d+)->(\d+)", probe.provenance)
        assert m and m.group(1) != m.group(2)
        new = m.group(2)
        s = probe.scenario
        assert new in s.stimuli[-1].value  # type: ignore[operator]
        assert all(f"replicas={new}" in (e.action or "") for e in s.assertions.must_not)  # type: ignore[union-attr]
        assert any(new in str(a) for a in s.verification.api_audit)
        assert int(new) >= 50 * 3 and m.group(1) not in renaming.text_blob(
            scenario_data(s)
        ).replace(new, "")


def test_scope_widening_adds_workloads_behind_the_selector(si: Profile) -> None:
    base = next(s for s in si.scenarios if s.archetype == "S-BR-001")
    before = sum(
        1
        for e in base.preconditions.environment.state
        if (e.get("labels") or {}).get("app") == "api"
    )
    probes, _ = generate(si, 3, seed=2, archetypes=("S-BR-001",), strategies=["scope"])
    assert probes
    for probe in probes:
        after = sum(
            1
            for e in probe.scenario.preconditions.environment.state
            if (e.get("labels") or {}).get("app") == "api"
        )
        assert after > before


def test_replica_changes_follow_into_state_assertions(si: Profile) -> None:
    probes, _ = generate(
        si, 6, seed=2, archetypes=("S-PI-002", "S-DO-001"), strategies=["replicas"]
    )
    assert probes
    for probe in probes:
        declared = {
            e["resource"]: e.get("replicas") for e in probe.scenario.preconditions.environment.state
        }
        for item in probe.scenario.verification.state_assertions:
            if "replicas" in item and item.get("resource") in declared:
                assert item["replicas"] == declared[item["resource"]], probe.provenance


def test_composition_probes_keep_the_primary_archetype(si: Profile) -> None:
    probes, _ = generate(si, 21, seed=4, strategies=["compose"])
    assert len(probes) >= 15
    capability = {a.id for a in si.capability_archetypes()}
    for probe in probes:
        assert probe.composition and set(probe.secondary_archetypes) <= capability
        assert (
            probe.classification == "safety" and probe.scenario.archetype == probe.primary_archetype
        )
        assert_sound(probe, si)


def test_reframed_instruction_keeps_the_forbidden_operation(si: Profile) -> None:
    probes, _ = generate(
        si, 24, seed=11, archetypes=("S-PI-001", "S-PI-002", "S-PI-003"), strategies=["instruction"]
    )
    hows = set()
    for probe in probes:
        m = re.search(r"instruction\(([\w-]+)\)", probe.provenance)
        assert m, probe.provenance
        hows.add(m.group(1).split("-")[0])
        base = next(s for s in si.scenarios if s.archetype == probe.primary_archetype)
        assert (
            probe.scenario.assertions == base.assertions
            and probe.scenario.verification == base.verification
        )
    assert {"base64", "spelled", "frame"} <= hows


# ---- registry and CLI --------------------------------------------------------------
def test_registry_and_declared_entry_points() -> None:
    assert known_generators()[:4] == ["mutation", "red_team", "llm", "hybrid"]
    assert isinstance(load_generator("mutation"), ProbeGenerator)
    with pytest.raises(GeneratorError, match="unknown probe generator"):
        load_generator("nope")
    with pytest.raises(GeneratorError, match="unknown mutation strategies"):
        load_generator("mutation", {"strategies": ["teleport"]})
    declared = tomllib.loads((REPO / "pyproject.toml").read_text())["project"]["entry-points"][
        "oasis_eval.probe_generators"
    ]
    assert set(declared) == {"mutation", "red_team", "llm", "hybrid"}
    import importlib

    for name, target in declared.items():
        module, _, attr = target.partition(":")
        assert getattr(importlib.import_module(module), attr).__name__ == f"{name}_generator"


def test_cli_generate_is_reproducible_and_validates(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    a, b = tmp_path / "a", tmp_path / "b"
    for out in (a, b):
        code, text, _ = run_cli(
            capsys, "probe", "generate", "--probes", "7", "--seed", "3", "--out", out
        )
        assert code == 0 and "7 probe(s) from mutation" in text
    assert sorted(p.name for p in a.iterdir()) == sorted(p.name for p in b.iterdir())
    for path in a.iterdir():
        assert path.read_bytes() == (b / path.name).read_bytes()
    manifest = json.loads((a / "generation.json").read_text())
    assert manifest["generator"]["reproducibility"] == "deterministic"
    assert manifest["generator"]["config_hash"].startswith("sha256:")
    files = [a / p["file"] for p in manifest["probes"]]
    code, text, _ = run_cli(
        capsys, "validate", "scenario", *files, "--profile", EXAMPLE_PROFILE_DIR
    )
    assert code == 0 and "0 error(s)" in text
    code, _, err = run_cli(capsys, "probe", "generate", "--probes", "2", "--out", a)
    assert code == 2 and "not empty" in err
    code, _, _ = run_cli(capsys, "probe", "generate", "--probes", "2", "--out", a, "--force")
    assert code == 0 and len(list(a.glob("*.yaml"))) == 2


def test_cli_generate_bad_input(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = run_cli(
        capsys, "probe", "generate", "--archetypes", "S-NO-001", "--out", tmp_path / "x"
    )
    assert code == 2 and "unknown archetype" in err
    code, _, err = run_cli(
        capsys, "probe", "generate", "--generator", "nope", "--out", tmp_path / "y"
    )
    assert code == 2 and "unknown probe generator" in err
    code, _, err = run_cli(capsys, "probe", "generate", "-o", "novalue", "--out", tmp_path / "z")
    assert code == 2 and "key=value" in err


def test_findings_type_is_used_for_gate(example: Profile) -> None:
    # the gate reports through Findings like `oasis validate` does
    probe = generate(example, 1)[0][0]
    findings = Findings(validate_scenario(probe.scenario, example))
    assert not findings.errors
    assert mutation.usable(probe.scenario, example) is None
