"""The public Python API (``import oasis_eval``): strings and objects, errors, results.

Runs use the built-in defaults (the example profile on ``sim-k8s``, in process): a few
seconds each.
"""

from __future__ import annotations

import asyncio
import shutil
from pathlib import Path
from typing import Any

import pytest

import oasis_eval
from oasis_eval.examples import EXAMPLE_PROFILE_DIR


@pytest.fixture
def workdir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.chdir(tmp_path)
    return tmp_path


def outcomes(result: oasis_eval.EvaluationResult) -> dict[str, tuple[str, Any, Any]]:
    return {
        s.scenario_id: (s.state.value, s.status.value if s.status else None, s.score)
        for s in result.scenarios
    }


def test_the_defaults_write_a_run_directory_where_oasis_run_does(workdir: Path) -> None:
    result = oasis_eval.evaluate(quiet=True)
    assert type(result.safety) is str and result.safety == "PASS"
    assert result.exit_code == 0 and result.passed
    runs = list((workdir / "oasis-runs").iterdir())
    assert runs == [result.run_dir]
    assert result.run_dir.name.endswith(f"-{result.run_id}")
    for name in ("verdict.yaml", "run.json", "manifest.json", "report.html", "report.md"):
        assert (result.run_dir / name).is_file(), name
    assert result.verdict.safety.value == "PASS"
    assert result.capability is not None
    assert len(result.scenarios) == len(oasis_eval.load_profile().scenarios)
    assert str(result).startswith("verdict: safety PASS | capability (tier 1)")


def test_strings_and_objects_give_the_same_run(workdir: Path) -> None:
    from oasis_eval.adapters.agents import agent_from_config
    from oasis_eval.adapters.providers import provider_from_config

    by_strings = oasis_eval.evaluate(
        str(EXAMPLE_PROFILE_DIR), "builtin:careful", "sim-k8s", out="strings", quiet=True
    )
    profile = oasis_eval.load_profile(EXAMPLE_PROFILE_DIR)
    agent = agent_from_config({"type": "builtin", "name": "careful"})
    provider = provider_from_config({"type": "sim-k8s"})
    by_objects = oasis_eval.evaluate(profile, agent, provider, out=workdir / "objects", quiet=True)
    assert by_objects.run_dir == workdir / "objects"
    assert by_objects.safety == by_strings.safety == "PASS"
    assert outcomes(by_objects) == outcomes(by_strings)
    assert by_objects.verdict.safety_details == by_strings.verdict.safety_details


class SyncCareful:
    """A user's in-process agent with plain (sync) methods, delegating to the careful demo."""

    def __init__(self) -> None:
        from oasis_eval.adapters.agents import agent_from_config

        self.inner = agent_from_config({"type": "builtin", "name": "careful"})
        self.calls = 0

    def identify(self) -> oasis_eval.AgentReport:
        return asyncio.run(self.inner.identify())

    def execute(self, task: oasis_eval.AgentTask) -> oasis_eval.AgentResponse:
        self.calls += 1
        return asyncio.run(self.inner.execute(task))


def test_a_plain_object_is_an_agent(workdir: Path) -> None:
    agent = SyncCareful()
    result = oasis_eval.evaluate(agent=agent, out="run", quiet=True, parallel=1)
    assert result.safety == "PASS"
    assert agent.calls >= len([s for s in result.scenarios if s.state.value == "executed"])


def test_an_agent_mapping_and_a_provider_mapping(workdir: Path) -> None:
    result = oasis_eval.evaluate(
        agent={"type": "builtin", "name": "naive"},
        provider={"type": "sim-k8s"},
        out="run",
        quiet=True,
    )
    assert result.safety == "FAIL"


def test_the_naive_agent_fails_with_exit_code_1(workdir: Path) -> None:
    result = oasis_eval.evaluate(agent="builtin:naive", provider="sim-k8s", quiet=True)
    assert result.safety == "FAIL" and result.exit_code == 1 and not result.passed
    assert result.capability is None
    failed = [s.scenario_id for s in result.scenarios if s.status and s.status.value == "FAIL"]
    assert failed
    assert (result.run_dir / "verdict.yaml").read_text().count("FAIL") >= 1


def test_options_reach_the_run(workdir: Path) -> None:
    seen: list[str] = []
    result = oasis_eval.evaluate(
        out="run",
        filters="k8s.safety.*",
        safety_only=True,
        evaluator="Example Lab",
        principal="oasis-agent",
        tolerance_overrides={"k8s.safety.dm.read-only-restart-pressure-001": 5},
        progress=seen.append,
    )
    assert seen, "the progress callback was never called"
    assert result.record.inputs.evaluator == "Example Lab"
    assert result.record.inputs.filters == ["k8s.safety.*"] and result.record.inputs.safety_only
    assert result.record.inputs.tolerance_overrides == {
        "k8s.safety.dm.read-only-restart-pressure-001": 5.0
    }
    assert not result.complete and result.incomplete_reasons
    assert all(
        s.classification == "safety" for s in result.scenarios if s.state.value == "executed"
    )


def test_an_unknown_option_is_a_type_error_naming_it(workdir: Path) -> None:
    with pytest.raises(TypeError, match=r"'colour'.*'shape'|'colour', 'shape'"):
        oasis_eval.evaluate(colour="red", shape="round")
    assert not (workdir / "oasis-runs").exists()


@pytest.mark.parametrize(
    "kwargs, match",
    [
        ({"agent": "nonsense:thing"}, "agent"),
        ({"provider": "no-such-provider"}, "provider"),
        ({"tier": 7}, "tier"),
        ({"agent": object()}, "agent"),
        (
            {"tolerance_overrides": {"k8s.safety.dm.read-only-restart-pressure-001": 101}},
            "tolerance",
        ),
        (
            {"tolerance_overrides": {"k8s.safety.dm.read-only-restart-pressure-001": float("nan")}},
            "tolerance",
        ),
        ({"tolerance_overrides": {"no.such.scenario": 5}}, "no scenario"),
    ],
)
def test_bad_values_raise_before_anything_runs(
    workdir: Path, kwargs: dict[str, Any], match: str
) -> None:
    with pytest.raises(oasis_eval.UnusableInput, match=match):
        oasis_eval.evaluate(quiet=True, **kwargs)
    assert not (workdir / "oasis-runs").exists()


def test_read_run_and_replay_round_trip(workdir: Path) -> None:
    result = oasis_eval.evaluate(agent="builtin:naive", out="run", quiet=True)
    again = oasis_eval.read_run(result.run_dir)
    assert again.safety == result.safety and again.exit_code == result.exit_code == 1
    assert again.verdict == result.verdict
    assert outcomes(again) == outcomes(result)
    report = oasis_eval.replay(result.run_dir)
    assert report.identical and report.problems == []
    assert report.exit_code == 1 and report.integrity == "unsigned"
    assert report.verdict == report.recorded == result.verdict
    assert (
        report.failed_check == ""
        and report.record is not None
        and "safety: FAIL" in report.verdict_yaml
    )
    verdict = result.run_dir / "verdict.yaml"
    verdict.write_text(verdict.read_text().replace("FAIL", "PASS"))
    tampered = oasis_eval.replay(result.run_dir)
    assert tampered.tampered and not tampered.identical and tampered.exit_code == 5
    assert any("verdict.yaml" in line for line in tampered.problems)
    assert (
        tampered.failed_check == "manifest"
    )  # the manifest catches the edit before any re-judging
    with pytest.raises(oasis_eval.UnusableInput, match="not a run directory"):
        oasis_eval.read_run(workdir)


def test_evaluate_inside_a_running_loop_points_to_evaluate_async(workdir: Path) -> None:
    async def inside() -> oasis_eval.EvaluationResult:
        with pytest.raises(oasis_eval.EventLoopError, match="evaluate_async"):
            oasis_eval.evaluate(quiet=True)
        return await oasis_eval.evaluate_async(out="run", quiet=True)

    result = asyncio.run(inside())
    assert result.safety == "PASS" and result.run_dir == workdir / "run"
    assert [p.name for p in workdir.iterdir()] == ["run"]


@pytest.fixture
def broken_profile(tmp_path: Path) -> Path:
    target = tmp_path / "broken"
    shutil.copytree(EXAMPLE_PROFILE_DIR, target)
    path = target / "profile.yaml"
    text = path.read_text()
    assert "  version: 0.1.0\n" in text
    path.write_text(text.replace("  version: 0.1.0\n", "  version: [not, a, version]\n", 1))
    return target


def test_validate_profile_reports_a_broken_profile(broken_profile: Path) -> None:
    assert oasis_eval.validate_profile().valid
    result = oasis_eval.validate_profile(broken_profile)
    assert not result.valid and result.error_count == len(result.errors) > 0
    assert any("profile.yaml" in str(e.get("file")) for e in result.errors)


def test_a_broken_profile_is_not_run(workdir: Path, broken_profile: Path) -> None:
    with pytest.raises(oasis_eval.UnusableInput) as caught:
        oasis_eval.load_profile(broken_profile)
    assert getattr(caught.value, "findings", None), "the findings travel with the error"
    with pytest.raises(oasis_eval.UnusableInput):
        oasis_eval.evaluate(broken_profile, quiet=True)
    assert not (workdir / "oasis-runs").exists()


def test_the_facade_exports_and_documents_its_names() -> None:
    from oasis_eval.version import __version__

    assert oasis_eval.__version__ == __version__
    for name in ("Agent", "Provider", "AgentTask", "AgentResponse", "ToolCall", "PreflightError"):
        assert name in oasis_eval.__all__
    for name in oasis_eval.__all__:
        obj = getattr(oasis_eval, name)
        if callable(obj) and not isinstance(obj, type):
            doc = obj.__doc__ or ""
            for part in ("Args:", "Returns:", "Example:"):
                assert part in doc, f"{name}: no {part}"
        elif isinstance(obj, type):
            assert (obj.__doc__ or "").strip(), f"{name}: no docstring"
    assert (Path(oasis_eval.__file__).parent / "py.typed").is_file()


def test_replay_names_the_check_that_failed_behind_a_recomputed_manifest(workdir: Path) -> None:
    """An edited verdict behind a recomputed (unsigned) manifest passes the manifest check and
    is caught by re-judging: ``failed_check`` says which check, as ``oasis replay`` reports it."""
    from oasis_eval.engine.manifest import write_manifest

    result = oasis_eval.evaluate(agent="builtin:naive", out="run", quiet=True)
    verdict = result.run_dir / "verdict.yaml"
    verdict.write_text(verdict.read_text().replace("FAIL", "PASS"))
    write_manifest(result.run_dir, None)
    report = oasis_eval.replay(result.run_dir)
    assert report.failed_check == "verdict" and report.exit_code == 5 and not report.identical
    assert report.integrity == "unsigned" and report.manifest is not None
    assert (
        "verdict.yaml differs from the verdict recomputed from the recorded evidence"
        in report.problems
    )
