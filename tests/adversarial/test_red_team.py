"""Red-team probes (07 §2.2, §3): scaffolded files load, bad ones are rejected with a reason."""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path

import pytest

from oasis_eval.adversarial.generators import GeneratorError, load_generator
from oasis_eval.adversarial.generators.red_team import scaffold
from oasis_eval.examples import EXAMPLE_PROFILE_DIR
from oasis_eval.profiles.loader import load_profile
from oasis_eval.spec.common import GeneratorType, Reproducibility
from oasis_eval.spec.probe import GenerationRequest
from oasis_eval.spec.profile import Profile

from ..support import run_cli


@lru_cache(maxsize=4)
def _load(path: str) -> Profile:
    loaded = load_profile(Path(path))
    assert loaded.profile is not None
    return loaded.profile


def _run(
    profile: Profile,
    paths: object,
    count: int = 10,
    archetypes: tuple[str, ...] = (),
    **extra: object,
):  # type: ignore[no-untyped-def]
    gen = load_generator("red_team", {"paths": paths, **extra})
    probes = gen.generate(profile, GenerationRequest(count=count, archetypes=archetypes))
    return probes, gen.last_report, gen  # type: ignore[attr-defined]


def test_a_scaffolded_file_loads_as_a_probe(tmp_path: Path) -> None:
    profile = _load(str(EXAMPLE_PROFILE_DIR))
    path = tmp_path / "pi.yaml"
    path.write_text(scaffold(profile, "S-PI-001"))
    probes, report, gen = _run(profile, str(path), team_size=3, team_expertise="Kubernetes SRE")
    assert len(probes) == 1 and report.dropped == []
    probe = probes[0]
    assert probe.primary_archetype == "S-PI-001" == probe.scenario.archetype
    assert probe.scenario.id.endswith(".probe.s-pi-001.redteam-001")
    method = gen.method()
    assert method.type is GeneratorType.red_team and method.team_size == 3
    assert gen.reproducibility(GenerationRequest()) is Reproducibility.non_reproducible


def test_every_si_archetype_scaffolds_to_a_loadable_probe(
    si_profile_dir: Path, tmp_path: Path
) -> None:
    profile = _load(str(si_profile_dir))
    ids = [a.id for c in profile.categories() for a in c.archetypes]
    for arch in ids:
        (tmp_path / f"{arch}.yaml").write_text(scaffold(profile, arch))
    probes, report, _ = _run(profile, [str(tmp_path)], count=100, archetypes=tuple(ids))
    loaded = {p.primary_archetype for p in probes}
    # every archetype whose starting scenario is evaluable gives a probe; the rest are rejected with why
    rejected = {d.archetype: d.reason for d in report.dropped}
    assert loaded | set(rejected) == set(ids)
    assert {a.id for a in profile.safety_archetypes()} <= loaded
    assert all(reason for reason in rejected.values())


def test_bad_probes_are_rejected_with_a_reason(tmp_path: Path) -> None:
    profile = _load(str(EXAMPLE_PROFILE_DIR))
    good = scaffold(profile, "S-DM-001")
    (tmp_path / "a_good.yaml").write_text(good)
    (tmp_path / "b_dup.yaml").write_text(good)
    (tmp_path / "c_behavior.yaml").write_text(
        good.replace("redteam-001", "redteam-002")
        .replace("behavior: perform_no_writes", "behavior: no_such_thing")
        .replace("Red-team probe for S-DM-001", "Red-team probe two for S-DM-001")
    )
    (tmp_path / "d_secondary.yaml").write_text(
        good.replace("redteam-001", "redteam-003")
        .replace("secondary_archetypes: []", "secondary_archetypes: [C-ZZ-009]")
        .replace("Red-team probe for S-DM-001", "Red-team probe three for S-DM-001")
    )
    (tmp_path / "e_other.yaml").write_text(scaffold(profile, "S-PI-001"))
    (tmp_path / "f_broken.yaml").write_text("id: [unclosed\n")
    probes, report, _ = _run(profile, str(tmp_path), archetypes=("S-DM-001",))
    assert [p.scenario.id for p in probes] == ["k8s.probe.s-dm-001.redteam-001"]
    reasons = " | ".join(d.reason for d in report.dropped)
    assert "duplicate probe id" in reasons
    assert "no_such_thing" in reasons
    assert "C-ZZ-009" in reasons
    assert "not a requested archetype" in reasons
    assert "invalid YAML" in reasons


def test_count_limits_the_loaded_probes(tmp_path: Path) -> None:
    profile = _load(str(EXAMPLE_PROFILE_DIR))
    for arch in ("S-BV-001", "S-PI-001", "S-AE-001"):
        (tmp_path / f"{arch}.yaml").write_text(scaffold(profile, arch))
    probes, report, _ = _run(profile, str(tmp_path), count=2)
    assert len(probes) == 2 and any("more probes than requested" in n for n in report.notes)


def test_missing_paths_are_clear_errors(tmp_path: Path) -> None:
    profile = _load(str(EXAMPLE_PROFILE_DIR))
    with pytest.raises(GeneratorError, match="needs option 'paths'"):
        load_generator("red_team").generate(profile, GenerationRequest())
    with pytest.raises(GeneratorError, match="not found"):
        _run(profile, str(tmp_path / "nowhere"))
    with pytest.raises(GeneratorError, match="unknown archetype"):
        scaffold(profile, "S-NO-001")


def test_cli_scaffold_validate_and_load(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "probe.yaml"
    code, out, _ = run_cli(capsys, "probe", "scaffold", "--archetype", "S-AE-001", "--out", path)
    assert code == 0 and path.is_file() and "oasis validate scenario" in out
    code, out, _ = run_cli(capsys, "validate", "scenario", path, "--profile", EXAMPLE_PROFILE_DIR)
    assert code == 0, out
    code, _, err = run_cli(capsys, "probe", "scaffold", "--archetype", "S-AE-001", "--out", path)
    assert code == 2 and "exists" in err
    out_dir = tmp_path / "run"
    code, out, _ = run_cli(
        capsys,
        "probe",
        "generate",
        "--generator",
        "red_team",
        "-o",
        f"paths={path}",
        "--out",
        out_dir,
    )
    assert code == 0 and "1 probe(s) from red_team" in out
    assert (out_dir / "k8s.probe.s-ae-001.redteam-001.yaml").is_file()
