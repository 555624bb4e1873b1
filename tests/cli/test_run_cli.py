"""``oasis run`` usage: missing inputs, bad options, run config files, partial runs.

Runs that get past usage checks use the local test servers of tests/e2e
(a petri-compatible provider and an oasisctl-style HTTP agent on 127.0.0.1).
"""

from __future__ import annotations

import json
import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import yaml

from oasis_eval.examples import EXAMPLE_PROFILE_DIR
from oasis_eval.profiles.loader import load_profile

from ..support import load_e2e, run_cli

E2E = Path(__file__).resolve().parents[1] / "e2e"
DM = "k8s.safety.dm.read-only-restart-pressure-001"
PI = "k8s.safety.pi.log-line-delete-order-001"
BR = "k8s.safety.br.evicted-pod-sweep-001"
ZONE = "k8s.safety.bv.protected-zone-delete-001"


petri_server = load_e2e("petri_server")
agent_server = load_e2e("agent_server")


run = run_cli  # oasis ARGS in process: (exit code, stdout, stderr)


@pytest.fixture(scope="module")
def profile():  # type: ignore[no-untyped-def]
    return load_profile(EXAMPLE_PROFILE_DIR).profile


@pytest.fixture
def servers(profile) -> Iterator[tuple[Any, Any]]:  # type: ignore[no-untyped-def]
    with petri_server.PetriServer(profile) as petri, agent_server.AgentServer("careful") as agent:
        yield petri, agent
    assert petri.errors == [] and agent.errors == []


@pytest.fixture
def workdir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.chdir(tmp_path)
    return tmp_path


def states(run_dir: Path) -> dict[str, str]:
    record = json.loads((run_dir / "run.json").read_text())
    return {s["scenario_id"]: s["state"] for s in record["scenarios"]}


# ---- usage errors: exit 2, a clear message, nothing run, nothing written -----------------------


def test_unknown_agent_type_is_a_usage_error(capsys, workdir, servers):
    petri, _ = servers
    code, _, err = run(capsys, "run", "--provider", petri.url, "--agent", "telepathy:bob")
    assert code == 2
    assert "telepathy" in err and "--agent" in err and "http" in err  # names the known types
    assert petri.requests == [] and not any(workdir.iterdir())


def test_unknown_provider_is_a_usage_error(capsys, workdir, servers):
    _, agent = servers
    code, _, err = run(capsys, "run", "--agent", agent.url, "--provider", "carrier-pigeon")
    assert code == 2
    assert "carrier-pigeon" in err and "--provider" in err
    assert agent.identity_calls == 0 and not any(workdir.iterdir())


@pytest.mark.parametrize("value", [f"{BR}=150", f"{BR}=-1", f"{BR}=lots", BR, "=5x"])
def test_bad_tolerance_is_a_usage_error(capsys, workdir, servers, value):
    petri, agent = servers
    code, _, err = run(
        capsys, "run", "--agent", agent.url, "--provider", petri.url, "--tolerance", value
    )
    assert code == 2
    assert "--tolerance" in err and "SCENARIO_ID=PERCENT" in err
    assert petri.requests == [] and agent.tasks == [] and not any(workdir.iterdir())


def test_a_valid_tolerance_override_is_applied_and_recorded(capsys, workdir, servers):
    petri, agent = servers
    out_dir = workdir / "run"
    code, _, _ = run(
        capsys,
        "run",
        "--agent",
        agent.url,
        "--provider",
        petri.url,
        "--filter",
        BR,
        "--tolerance",
        f"{BR}=0",
        "--out",
        out_dir,
        "-q",
    )
    assert code == 0
    record = json.loads((out_dir / "run.json").read_text())
    assert record["inputs"]["tolerance_overrides"] == {BR: 0.0}
    result = next(s for s in record["scenarios"] if s["scenario_id"] == BR)
    assert result["tolerance_overridden"] is True and result["safety_tolerance"] == 0


# ---- a run config with oasisctl's keys ---------------------------------------------------------------


def test_run_config_with_oasisctl_keys_is_honoured(capsys, workdir, servers):
    petri, agent = servers
    profile_dir = workdir / "profile"
    shutil.copytree(EXAMPLE_PROFILE_DIR, profile_dir)
    profile_file = profile_dir / "profile.yaml"
    text = profile_file.read_text()
    old_name = "name: oasis-eval example - Kubernetes operations (basic)"
    assert old_name in text
    profile_file.write_text(text.replace(old_name, "name: run-config copy of the example", 1))
    config = {
        "profile": str(profile_dir),
        "agent": {"type": "http", "url": agent.url},
        "environment": {"provider": petri.url, "tier": 2},
        "evaluation": {
            "evaluator": "Config Lab",
            "parallel": 2,
            "filters": [DM, "injected-instructions"],
        },
        "output": {"dir": "runs"},
    }
    (workdir / "oasis.yaml").write_text(yaml.safe_dump(config))
    code, out, err = run(capsys, "run", "--config", "oasis.yaml")
    assert code == 0, (out, err)
    run_dir = workdir / "runs"  # output.dir is the run directory, as --out (issue 18)
    assert (run_dir / "verdict.yaml").is_file() and f"run directory: {run_dir}" in out
    verdict = yaml.safe_load((run_dir / "verdict.yaml").read_text())["verdict"]
    meta = verdict["metadata"]
    assert meta["domain_profile"] == "run-config copy of the example"  # profile
    assert meta["agent"] == "e2e-careful-agent"  # agent
    assert meta["evaluator"] == "Config Lab"  # evaluation.evaluator
    assert meta["environment"]["tier"] == 2  # environment.tier
    assert {c.body["tier"] for c in petri.calls("/v1/provision")} == {2}
    record = json.loads((run_dir / "run.json").read_text())
    assert record["inputs"]["parallel"] == 2 and record["inputs"]["filters"] == [
        DM,
        "injected-instructions",
    ]
    ran = sorted(k for k, v in states(run_dir).items() if v == "executed")
    assert ran == [DM, PI]  # evaluation.filters, by id and by category
    assert "INCOMPLETE" in out


def test_command_line_overrides_the_run_config(capsys, workdir, servers):
    petri, agent = servers
    config = {
        "agent": agent.url,
        "environment": {"provider": petri.url},
        "evaluation": {"evaluator": "Config Lab", "filters": [DM]},
        "output": {"dir": "runs"},
    }
    (workdir / "oasis.yaml").write_text(yaml.safe_dump(config))
    code, _, _ = run(
        capsys, "run", "-c", "oasis.yaml", "--evaluator", "CLI Lab", "--out", "elsewhere", "-q"
    )
    assert code == 0
    assert not (workdir / "runs").exists()
    meta = yaml.safe_load((workdir / "elsewhere" / "verdict.yaml").read_text())["verdict"][
        "metadata"
    ]
    assert meta["evaluator"] == "CLI Lab"


# ---- partial runs ---------------------------------------------------------------------------------


def test_safety_only_runs_phase_1_and_says_the_run_is_incomplete(capsys, workdir, servers):
    petri, agent = servers
    out_dir = workdir / "run"
    code, out, _ = run(
        capsys,
        "run",
        "--agent",
        agent.url,
        "--provider",
        petri.url,
        "--safety-only",
        "--out",
        out_dir,
    )
    assert code == 0 and "verdict: safety PASS" in out
    incomplete = next(line for line in out.splitlines() if line.startswith("INCOMPLETE"))
    assert "--safety-only" in incomplete
    record = json.loads((out_dir / "run.json").read_text())
    assert record["inputs"]["safety_only"] is True and record["conformance_claim"] is None
    assert record["incomplete_reasons"]
    scenario_states = {
        s["scenario_id"]: (s["classification"], s["state"]) for s in record["scenarios"]
    }
    assert all(
        state == "not_selected" for cls, state in scenario_states.values() if cls == "capability"
    )
    assert "capability" not in yaml.safe_load((out_dir / "verdict.yaml").read_text())["verdict"]
    executed = [k for k, (cls, state) in scenario_states.items() if state == "executed"]
    assert executed and all(k.startswith("k8s.safety.") for k in executed)
    assert len(agent.tasks) == len(executed)


def test_filter_selects_and_marks_the_rest_not_selected(capsys, workdir, servers):
    petri, agent = servers
    out_dir = workdir / "run"
    code, out, _ = run(
        capsys,
        "run",
        "--agent",
        agent.url,
        "--provider",
        petri.url,
        "--filter",
        "k8s.safety.dm.*",
        "--filter",
        "S-PI-*",
        "--out",
        out_dir,
    )
    assert code == 0 and "INCOMPLETE" in out
    got = states(out_dir)
    assert sorted(k for k, v in got.items() if v == "executed") == [DM, PI]
    rest = {k: v for k, v in got.items() if k not in (DM, PI)}
    assert rest and set(rest.values()) == {"not_selected"}
    # the zone scenario would be NOT_APPLICABLE for this agent; deselected it is never that
    assert got[ZONE] == "not_selected"
    verdict = yaml.safe_load((out_dir / "verdict.yaml").read_text())["verdict"]
    assert verdict["safety_details"]["not_applicable"] == 0
    assert len(agent.tasks) == 2 and len(petri.provisioned) == 2


# ---- run config validation ------------------------------------------------------------------


def test_a_single_string_filter_in_the_run_config_is_one_pattern(capsys, workdir, servers):
    petri, agent = servers
    config = {
        "agent": agent.url,
        "environment": {"provider": petri.url},
        "evaluation": {"filters": DM},
        "output": {"dir": "runs"},
    }
    (workdir / "oasis.yaml").write_text(yaml.safe_dump(config))
    code, _, _ = run(capsys, "run", "-c", "oasis.yaml", "-q")
    if code == 2:
        return  # rejecting a non-list is fine too
    run_dir = workdir / "runs"  # output.dir is the run directory (issue 18)
    assert sorted(k for k, v in states(run_dir).items() if v == "executed") == [DM]


def test_a_mistyped_run_config_value_is_a_usage_error(capsys, workdir, servers):
    petri, agent = servers
    config = {
        "agent": agent.url,
        "environment": {"provider": petri.url},
        "evaluation": {"parallel": "two"},
        "output": {"dir": "runs"},
    }
    (workdir / "oasis.yaml").write_text(yaml.safe_dump(config))
    code, _, err = run(capsys, "run", "-c", "oasis.yaml", "-q")
    assert code == 2 and "parallel" in err
    assert petri.requests == []
