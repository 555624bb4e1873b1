"""Probe files (07 §3.5): deterministic bytes, round trip, `oasis validate scenario` accepts them."""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path

import pytest
import yaml

from oasis_eval.adversarial.generators import load_generator
from oasis_eval.adversarial.serialize import (
    probe_filename,
    probe_from_scenario,
    probe_yaml,
    read_probes,
    serialize_probe,
)
from oasis_eval.diagnostics import Findings
from oasis_eval.examples import EXAMPLE_PROFILE_DIR
from oasis_eval.profiles.loader import load_profile
from oasis_eval.profiles.scenarios import load_scenario_file
from oasis_eval.spec.probe import GenerationRequest, Probe
from oasis_eval.spec.profile import Profile

from ..support import run_cli


@lru_cache(maxsize=4)
def _load(path: str) -> Profile:
    loaded = load_profile(Path(path))
    assert loaded.profile is not None
    return loaded.profile


def _probes(profile: Profile, count: int, seed: int = 0, **options: object) -> list[Probe]:
    return load_generator("mutation", options).generate(
        profile, GenerationRequest(count=count, seed=seed)
    )


def test_file_name_and_bytes_are_a_function_of_the_probe(tmp_path: Path) -> None:
    probe = _probes(_load(str(EXAMPLE_PROFILE_DIR)), 1, seed=4)[0]
    one = serialize_probe(probe, tmp_path / "one")
    two = serialize_probe(probe, tmp_path / "two")
    assert one.name == two.name == f"{probe.scenario.id}.yaml" == probe_filename(probe)
    assert one.read_bytes() == two.read_bytes() == probe_yaml(probe).encode()


def test_round_trip_keeps_the_probe(tmp_path: Path) -> None:
    profile = _load(str(EXAMPLE_PROFILE_DIR))
    probes = _probes(profile, 14, seed=7)
    assert probes
    for probe in probes:
        path = serialize_probe(probe, tmp_path)
        findings = Findings()
        back = read_probes(path, findings)
        assert not findings.errors and len(back) == 1
        assert back[0].content_hash() == probe.content_hash()
        assert back[0].secondary_archetypes == probe.secondary_archetypes


def test_si_probes_round_trip_and_validate_with_the_cli(
    si_profile_dir: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    profile = _load(str(si_profile_dir))
    probes = _probes(profile, 42, seed=21)
    files = [serialize_probe(p, tmp_path) for p in probes]
    for probe, path in zip(probes, files, strict=True):
        assert read_probes(path)[0].content_hash() == probe.content_hash()
    code, out, _ = run_cli(capsys, "validate", "scenario", *files, "--profile", si_profile_dir)
    assert code == 0, out
    assert "0 error(s)" in out
    # the only warning is the x-probe block itself
    assert {
        line.split("[", 1)[1].split("]")[0] for line in out.splitlines() if "warning[" in line
    } <= {"unknown-fields"}


def test_example_probes_validate_with_the_cli(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    files = [
        serialize_probe(p, tmp_path) for p in _probes(_load(str(EXAMPLE_PROFILE_DIR)), 10, seed=1)
    ]
    code, out, _ = run_cli(capsys, "validate", "scenario", *files)
    assert code == 0, out


def test_the_x_probe_block_records_the_attribution(tmp_path: Path) -> None:
    profile = _load(str(EXAMPLE_PROFILE_DIR))
    gen = load_generator("mutation", {"strategies": ["compose"]})
    probe = gen.generate(profile, GenerationRequest(count=1, seed=2, archetypes=("S-PI-001",)))[0]
    assert probe.secondary_archetypes
    path = serialize_probe(probe, tmp_path, gen.method())
    doc = next(iter(yaml.safe_load_all(path.read_text())))
    block = doc["x-probe"]
    assert block["primary_archetype"] == "S-PI-001" == doc["archetype"]
    assert block["secondary_archetypes"] == list(probe.secondary_archetypes)
    assert block["classification"] == "safety"
    assert block["generator"]["type"] == "mutation"
    assert "\n" in doc["stimuli"][-1]["value"] or "Second:" in doc["stimuli"][-1]["value"]
    # a multi-line prompt stays a literal block, readable for a reviewer
    if "\n" in doc["stimuli"][-1]["value"]:
        assert "value: |" in path.read_text()


def test_a_primary_that_is_not_the_scenario_archetype_is_a_finding(tmp_path: Path) -> None:
    probe = _probes(_load(str(EXAMPLE_PROFILE_DIR)), 1)[0]
    text = probe_yaml(probe).replace(
        f"primary_archetype: {probe.primary_archetype}", "primary_archetype: S-XX-001"
    )
    path = tmp_path / "bad.yaml"
    path.write_text(text)
    findings = Findings()
    assert read_probes(path, findings) == []
    assert [f.code for f in findings.errors] == ["probe-archetype-mismatch"]


def test_a_plain_scenario_is_a_probe_of_its_own_archetype() -> None:
    findings = Findings()
    scenario = load_scenario_file(EXAMPLE_PROFILE_DIR / "scenarios" / "safety.yaml", findings)[0]
    probe = probe_from_scenario(scenario, findings)
    assert (
        probe is not None and probe.primary_archetype == scenario.archetype and not findings.errors
    )
