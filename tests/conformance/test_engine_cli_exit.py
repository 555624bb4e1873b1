"""``oasis run`` / ``oasis replay`` exit codes (decisions in docs/conformance.md).

0 PASS, 1 FAIL, 3 PROVIDER_FAILURE or any aborted run that did not FAIL, 2 usage, input,
preflight or an agent fault before any scenario (no verdict written), 4 an internal error
or a signed, verified run whose replay does not reproduce the recorded verdict, 5 a run
directory that was tampered with (tests/hostile/test_tamper.py has the corpus). PASS/FAIL/PROVIDER_FAILURE and
the preflight exit are pinned in tests/e2e; the rest here.
"""

from __future__ import annotations

import re
import socket
from pathlib import Path

import pytest

from oasis_eval.examples import EXAMPLE_PROFILE_DIR
from oasis_eval.profiles.loader import load_profile

from ..support import load_e2e, run_cli

E2E = Path(__file__).resolve().parents[1] / "e2e"
DM = "k8s.safety.dm.read-only-restart-pressure-001"
DIAG = "k8s.capability.dg.crashloop-diagnosis-001"


petri_server = load_e2e("petri_server")
agent_server = load_e2e("agent_server")


cli = run_cli  # oasis ARGS in process: (exit code, stdout, stderr)


@pytest.fixture(scope="module")
def profile():  # type: ignore[no-untyped-def]
    return load_profile(EXAMPLE_PROFILE_DIR).profile


def closed_port_url() -> str:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
    return f"http://127.0.0.1:{port}/agent"


def test_an_unreachable_agent_before_any_scenario_exits_2_without_a_verdict(
    capsys, tmp_path, profile
) -> None:
    out_dir = tmp_path / "run"
    with petri_server.PetriServer(profile) as petri:
        code, out, err = cli(
            capsys, "run", "--agent", closed_port_url(), "--provider", petri.url, "--out", out_dir
        )
    assert code == 2
    assert "agent error before any scenario ran (no verdict written)" in err
    assert "127.0.0.1" in err  # the message names the agent
    assert "verdict:" not in out and not out_dir.exists()
    assert petri.calls("/v1/provision") == []


def test_a_phase_2_abort_prints_provider_failure_aborted_and_exits_3(
    capsys, tmp_path, profile
) -> None:
    out_dir = tmp_path / "run"
    with (
        petri_server.PetriServer(profile, faults={"provision-error": {DIAG}}) as petri,
        agent_server.AgentServer("careful") as agent,
    ):
        code, out, _ = cli(
            capsys,
            "run",
            "--agent",
            agent.url,
            "--provider",
            petri.url,
            "--filter",
            DM,
            "--filter",
            DIAG,
            "--out",
            out_dir,
        )
    # 04 §3 step 7g, 05 §3.3: an aborted run's top-level result is PROVIDER_FAILURE
    assert re.search(r"^verdict: safety PROVIDER_FAILURE", out, re.MULTILINE)
    assert re.search(rf"^ABORTED: {re.escape(DIAG)}", out, re.MULTILINE)
    assert code == 3
    assert "aborted: true" in (out_dir / "verdict.yaml").read_text()


@pytest.fixture
def run_dir(capsys, tmp_path, profile) -> Path:  # type: ignore[no-untyped-def]
    out_dir = tmp_path / "run"
    with petri_server.PetriServer(profile) as petri, agent_server.AgentServer("careful") as agent:
        code, _, _ = cli(
            capsys,
            "run",
            "--agent",
            agent.url,
            "--provider",
            petri.url,
            "--filter",
            DM,
            "--out",
            out_dir,
            "-q",
        )
    assert code == 0
    return out_dir


def test_a_signed_run_that_replays_differently_exits_4(capsys, monkeypatch, run_dir: Path) -> None:
    import oasis_eval.engine.replay as replay_module
    from oasis_eval.engine.manifest import load_run_key, write_manifest

    monkeypatch.setenv("OASIS_RUN_KEY", "k" * 32)
    write_manifest(run_dir, load_run_key())  # as if the run had been written with the key
    code, _, err = cli(capsys, "replay", run_dir)
    assert code == 0 and "identical" in err and "integrity: verified" in err
    # the evaluator itself changes its mind: integrity holds, so only a determinism bug is left
    original = replay_module.verdict_yaml
    monkeypatch.setattr(
        replay_module, "verdict_yaml", lambda v: original(v).replace("unspecified", "someone")
    )
    code, _, err = cli(capsys, "replay", run_dir)
    assert code == 4 and "determinism bug" in err and "TAMPERED" not in err


def test_an_edited_verdict_is_tampering_not_a_determinism_bug(capsys, run_dir: Path) -> None:
    verdict = run_dir / "verdict.yaml"
    verdict.write_text(verdict.read_text().replace("evaluator: unspecified", "evaluator: someone"))
    code, _, err = cli(capsys, "replay", run_dir)
    assert code == 5 and "TAMPERED" in err and "modified: verdict.yaml" in err
    assert "determinism bug" not in err


def test_an_internal_error_exits_4(capsys, monkeypatch, run_dir: Path) -> None:
    import oasis_eval.engine.replay as replay_module

    def broken(_: Path) -> None:
        raise RuntimeError("boom")

    monkeypatch.delenv("OASIS_DEBUG", raising=False)
    monkeypatch.setattr(replay_module, "replay", broken)
    code, _, err = cli(capsys, "replay", run_dir)
    assert code == 4 and "internal error: RuntimeError: boom" in err
