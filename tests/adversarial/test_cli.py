"""CLI: ``oasis run --adversarial/--reserved/--custom``, ``oasis probe run|promote``, ``oasis reserved``."""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from typing import Any

import pytest
import yaml

from oasis_eval.adversarial.serialize import read_probes
from oasis_eval.examples import EXAMPLE_PROFILE_DIR
from oasis_eval.reporting import load_verdict

from ..support import run_cli
from .phase_support import assert_failed_probes_rerun_as_fail
from .test_reserved import write_reserved


@pytest.fixture(scope="module")
def naive_run(tmp_path_factory: Any) -> Path:
    """A naive-agent run with the mutation generator: failed probes to promote."""
    run_dir = tmp_path_factory.mktemp("adv") / "run"

    class _Capture:  # a module-scoped fixture has no capsys; run_cli only needs readouterr()
        def readouterr(self) -> tuple[str, str]:
            return "", ""

    code, _, _ = run_cli(
        _Capture(),
        "run",
        "--agent",
        "builtin:naive",
        "--adversarial",
        "mutation",
        "--probes",
        "6",
        "--seed",
        "5",
        "--out",
        run_dir,
        "-q",
    )
    assert code == 1
    return run_dir


def test_run_with_adversarial_writes_block_probes_and_replays(naive_run: Path, capsys: Any) -> None:
    verdict = load_verdict(naive_run / "verdict.yaml")
    block = verdict.adversarial_verification
    assert block is not None and block.generator.type.value == "mutation"
    assert block.probe_summary.total_probes == 6 and block.safety_results.failed >= 1
    for failure in block.safety_results.failures:
        probes = read_probes(naive_run / failure.probe_serialized)
        assert [p.primary_archetype for p in probes] == [failure.primary_archetype]
    record = json.loads((naive_run / "run.json").read_text())
    assert (
        record["conformance_claim"] is None
        or "probe(s)" in record["conformance_claim"]["adversarial_verification"]
    )
    code, _, err = run_cli(capsys, "replay", naive_run)
    assert code == 1 and "identical" in err
    assert "Adversarial verification (separate" in (naive_run / "report.md").read_text()


@pytest.mark.parametrize(
    "args, hint",
    [
        (("--probes", "3"), "--adversarial"),
        (("--adversarial", "mutation", "--archetypes", "S-NOPE-1"), "S-NOPE-1"),
        (("--adversarial", "no-such-generator"), "no-such-generator"),
    ],
)
def test_bad_adversarial_flags_are_usage_errors(
    args: tuple[str, ...], hint: str, capsys: Any, tmp_path: Path
) -> None:
    code, out, err = run_cli(capsys, "run", *args, "--out", tmp_path / "run", "-q")
    assert code == 2 and hint in out + err
    assert not (tmp_path / "run").exists()


def test_failed_probes_validate_and_rerun_as_fail(naive_run: Path, capsys: Any) -> None:
    """The default suite's fast twin of tests/adversarial/test_si_naive_probes.py (heavy), on
    the example profile."""
    assert_failed_probes_rerun_as_fail(capsys, naive_run, EXAMPLE_PROFILE_DIR)


def test_promote_then_run_as_custom_extension(naive_run: Path, tmp_path: Path, capsys: Any) -> None:
    failed = sorted((naive_run / "probes" / "failed").glob("*.yaml"))
    assert failed
    out_dir = tmp_path / "promoted"
    for path in failed[:2]:
        code, out, err = run_cli(capsys, "probe", "promote", path, "--out", out_dir)
        assert code == 0, out + err
    promoted = sorted(out_dir.glob("*.yaml"))
    assert len(promoted) == 2
    for path in promoted:
        text = path.read_text()
        assert text.startswith("# Promoted from adversarial probe ")
        data = yaml.safe_load(text)
        assert "x-probe" not in data and data["id"] == path.stem
        prefix = data["id"].rsplit(".", 1)[0]
        assert prefix.startswith("k8s.safety.") and data["id"][-4:-3] == "-"  # <prefix>.<slug>-NNN
        code, out, err = run_cli(
            capsys, "validate", "scenario", path, "--profile", EXAMPLE_PROFILE_DIR
        )
        assert code == 0, out + err
    run_dir = tmp_path / "custom-run"
    code, out, err = run_cli(
        capsys,
        "probe",
        "run",
        "--probes-dir",
        out_dir,
        "--agent",
        "builtin:careful",
        "--out",
        run_dir,
        "-q",
    )
    assert code == 0, out + err
    record = json.loads((run_dir / "run.json").read_text())
    ran = [s for s in record["scenarios"] if s["state"] == "executed"]
    assert len(ran) == 2 and all(s["custom"] for s in ran)
    assert (
        record["coverage_gaps"] and record["conformance_claim"] is None
    )  # custom never counts (03 §6)
    assert "custom scenario" in (run_dir / "report.md").read_text()
    code, _, err = run_cli(capsys, "replay", run_dir)
    assert code == 0 and "identical" in err


def test_promote_refuses_an_unknown_archetype(tmp_path: Path, capsys: Any) -> None:
    profile_scenarios = yaml.safe_load_all(
        (EXAMPLE_PROFILE_DIR / "scenarios" / "safety.yaml").read_text()
    )
    data = next(d for d in profile_scenarios if d)
    data["x-probe"] = {"primary_archetype": "S-NOPE-1", "description": "x"}
    path = tmp_path / "p.yaml"
    path.write_text(yaml.safe_dump(data))
    code, out, err = run_cli(capsys, "probe", "promote", path, "--out", tmp_path / "out")
    assert code == 1 and "S-NOPE-1" in out + err
    assert not (tmp_path / "out").exists()


def test_custom_scenarios_do_not_change_coverage(tmp_path: Path, capsys: Any) -> None:
    custom_dir = tmp_path / "custom"
    custom_dir.mkdir()
    safety = list(
        yaml.safe_load_all((EXAMPLE_PROFILE_DIR / "scenarios" / "capability.yaml").read_text())
    )
    data = next(d for d in safety if d)
    data.update(
        id="acme.capability.custom-check-001",
        archetype="ACME-CUSTOM-1",
        intent="An organization-specific custom check of the same kind.",
    )
    data.pop("quality", None)
    (custom_dir / "c.yaml").write_text(yaml.safe_dump(data))
    runs = {}
    for name, extra in (("plain", ()), ("custom", ("--custom", custom_dir))):
        code, out, err = run_cli(capsys, "run", *extra, "--out", tmp_path / f"run-{name}", "-q")
        assert code == 0, out + err
        runs[name] = load_verdict(tmp_path / f"run-{name}" / "verdict.yaml")
    assert runs["plain"].capability.coverage == runs["custom"].capability.coverage
    assert runs["plain"].capability.domain_categories == runs["custom"].capability.domain_categories
    record = json.loads((tmp_path / "run-custom" / "run.json").read_text())
    mine = [
        s for s in record["scenarios"] if s["scenario_id"] == "acme.capability.custom-check-001"
    ]
    assert mine and mine[0]["custom"] and mine[0]["state"] == "executed"


def test_reserved_commands(tmp_path: Path, capsys: Any, monkeypatch: Any) -> None:
    reserved = write_reserved(tmp_path / "reserved")
    code, out, err = run_cli(capsys, "reserved", "pack", reserved, "--out", tmp_path / "b")
    assert code == 2 and "OASIS_RESERVED_KEY" in err  # no key: a clear error, not a traceback
    code, key, _ = run_cli(capsys, "reserved", "keygen")
    monkeypatch.setenv("OASIS_RESERVED_KEY", key.strip())
    code, out, err = run_cli(
        capsys,
        "reserved",
        "pack",
        reserved,
        "--out",
        tmp_path / "b",
        "--profile",
        EXAMPLE_PROFILE_DIR,
    )
    assert code == 0 and "packed 2 reserved scenario(s)" in out
    code, out, err = run_cli(capsys, "reserved", "check", tmp_path / "b")
    assert code == 0 and "2 reserved scenario(s)" in out
    code, out, err = run_cli(
        capsys, "reserved", "rotate", tmp_path / "b", "--new", reserved, "--out", tmp_path / "b2"
    )
    assert code == 0 and "0 new, 2 kept, 0 retired" in out
    single = tmp_path / "single"
    single.mkdir()
    first = min(reserved.glob("*.yaml"))
    (single / first.name).write_text(first.read_text())
    code, out, err = run_cli(
        capsys, "reserved", "rotate", tmp_path / "b", "--new", single, "--out", tmp_path / "b3"
    )
    assert code == 1 and "--allow-shrink" in err and not (tmp_path / "b3").exists()


def _probe(tmp_path: Path) -> Path:
    """A failed probe of the example profile's first safety archetype."""
    docs = yaml.safe_load_all((EXAMPLE_PROFILE_DIR / "scenarios" / "safety.yaml").read_text())
    data = next(d for d in docs if d)
    data["x-probe"] = {"primary_archetype": data["archetype"], "description": "a variant"}
    path = tmp_path / "probe.yaml"
    path.write_text(yaml.safe_dump(data))
    return path


def test_promote_validates_against_the_profile_it_promotes_into(
    tmp_path: Path, capsys: Any
) -> None:
    """Issue 29 item 4: --out inside a profile directory is that profile's; a --profile
    naming another is refused (it was validated against the wrong one before)."""
    target = tmp_path / "mine"
    shutil.copytree(EXAMPLE_PROFILE_DIR, target)
    out = target / "scenarios" / "promoted"
    code, _, err = run_cli(capsys, "probe", "promote", _probe(tmp_path), "--out", out)
    assert code == 0, err
    assert f"promoting into oasis-eval-example-k8s 0.1.0 ({target})" in err
    assert len(list(out.glob("*.yaml"))) == 1
    other = tmp_path / "other"
    code, _, err = run_cli(
        capsys, "probe", "promote", _probe(tmp_path), "--out", out, "--profile", other
    )
    assert code == 2 and "not in --profile" in err and str(target) in err
    assert len(list(out.glob("*.yaml"))) == 1  # nothing more written
