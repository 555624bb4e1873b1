"""``oasis run --resume RUN_DIR`` alone (issue 29 item 1): the options a run records (secrets
excluded, the agent spec in full, credentials by variable name), sealed with the run state
(engine/journal_log.py) and checked before use; given options that change results must
match, each difference named."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

from oasis_eval.api.compose import RunRequest
from oasis_eval.api.config import AdversarialOptions
from oasis_eval.api.resume_options import NOT_RECORDED, options_of, resumed_request
from oasis_eval.engine.journal import ResumeRefused
from oasis_eval.engine.journal_log import seal, seed

from ..engine.resume_support import AGENT, scenario_results, verdict_text, write_agent
from ..support import run_cli

SECRET = "sk-live-0123456789abcdef"


def test_the_recorded_options_hold_no_secret_and_name_credentials_by_variable() -> None:
    request = RunRequest(
        agent={"type": "openai", "name": "gpt", "api_key": SECRET, "headers": {"X-K": SECRET}},
        agent_options=[f"token={SECRET}", "api_key_env=MY_KEY", "max_steps=5"],
        provider_token=SECRET,
        adversarial=AdversarialOptions("mutation", options=[f"api_key={SECRET}"]),
        tier=2,
    )
    recorded = options_of(request)
    text = json.dumps(recorded)
    assert SECRET not in text
    assert recorded["--agent"] == {
        "type": "openai",
        "name": "gpt",
        "api_key": NOT_RECORDED,
        "headers": {"X-K": NOT_RECORDED},
    }
    assert "api_key_env=MY_KEY" in recorded["--agent-option"]  # a variable's name is kept
    assert recorded["--tier"] == 2


@pytest.fixture
def agent_env(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.syspath_prepend(str(write_agent(tmp_path)))
    monkeypatch.delitem(sys.modules, "resume_agent", raising=False)
    monkeypatch.setenv("RESUME_INTERRUPT_AT", "0")
    monkeypatch.delenv("OASIS_RUN_KEY", raising=False)
    monkeypatch.chdir(tmp_path)
    return tmp_path


OPTIONS = ["--agent", AGENT, "--parallel", "2", "--tier", "1", "--filter", "k8s.*", "-q"]


def interrupted(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, out: Path
) -> None:
    if "resume_agent" in sys.modules:  # its call counter starts at 0 for this run
        sys.modules["resume_agent"].agent.calls = 0
    monkeypatch.setenv("RESUME_INTERRUPT_AT", "4")
    code, _, err = run_cli(capsys, "run", *OPTIONS, "--out", out)
    monkeypatch.setenv("RESUME_INTERRUPT_AT", "0")
    assert code == 3, err
    assert f"oasis run --resume {out}`" in err  # the way on needs no options


def test_resume_by_directory_alone_runs_the_recorded_options_and_prints_them(
    agent_env: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    code, _, err = run_cli(capsys, "run", *OPTIONS, "--out", agent_env / "whole")
    assert code == 0, err
    cut = agent_env / "cut"
    interrupted(capsys, monkeypatch, cut)
    monkeypatch.chdir(agent_env.parent)  # another directory: recorded paths are absolute
    code, _, err = run_cli(capsys, "run", "--resume", cut, "--parallel", "3")
    assert code == 0, err
    line = next(x for x in err.splitlines() if x.startswith("resuming: "))
    assert line == (
        f"resuming: oasis run --resume {cut} --agent {AGENT} --tier 1 --parallel 3 --filter 'k8s.*'"
    )
    assert scenario_results(cut) == scenario_results(agent_env / "whole")
    assert verdict_text(cut) == verdict_text(agent_env / "whole")


def test_a_given_option_that_changes_results_must_match_each_difference_named(
    agent_env: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    cut = agent_env / "cut"
    interrupted(capsys, monkeypatch, cut)
    before = sorted(p.name for p in cut.rglob("*"))
    code, _, err = run_cli(
        capsys, "run", "--resume", cut, "--tier", "2", "--agent", "builtin:naive",
        "--filter", "k8s.safety.*", "--provider", "sim-k8s",
    )  # fmt: skip
    assert code == 2
    for named in (
        "--tier: the run was started with 1, now 2",
        "--agent: ",
        "--filter: ",
        "--provider: ",
    ):
        assert named in err, err
    assert sorted(p.name for p in cut.rglob("*")) == before  # nothing ran


def _edit_options(cut: Path, recompute: bool) -> None:
    state = json.loads((cut / "run-state.json").read_text())
    state["options"]["--agent"] = "builtin:naive"
    data = json.dumps(state).encode()
    if recompute:  # what an attacker without the run key can do: seal it again, unsigned
        data = seal(state, None)
    (cut / "run-state.json").write_bytes(data)


@pytest.mark.parametrize("signed", [False, True], ids=["unsigned", "signed"])
def test_the_recorded_options_are_verified_before_use(
    agent_env: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
    signed: bool,
) -> None:
    if signed:
        monkeypatch.setenv("OASIS_RUN_KEY", "k" * 32)
    cut = agent_env / "cut"
    interrupted(capsys, monkeypatch, cut)
    _edit_options(cut, recompute=signed)
    code, _, err = run_cli(capsys, "run", "--resume", cut)
    assert code == 5 and "tampered" in err, err
    assert "resuming:" not in err  # refused before the options were used


def test_a_credential_given_inline_must_be_given_again(agent_env: Path) -> None:
    cut = agent_env / "cut"
    cut.mkdir()
    state = {"format": "oasis-eval run journal", "version": 3, "status": "interrupted",
             "run_id": "x", "started": "t", "records": 0, "chain": seed("x", "t"),
             "options": options_of(RunRequest(
                 agent={"type": "http", "url": "http://127.0.0.1:1/", "token": SECRET}))}  # fmt: skip
    (cut / "run-state.json").write_bytes(seal(state, None))
    (cut / "journal.log").write_bytes(b"")
    with pytest.raises(
        ResumeRefused, match=r"credential given inline, which it does not record \(--agent\.token\)"
    ):
        resumed_request(RunRequest(resume=cut), None)
    agent = {"type": "http", "url": "http://127.0.0.1:1/", "token": SECRET}
    again, command = resumed_request(RunRequest(resume=cut, agent=agent), None)
    assert again.agent == agent and SECRET not in command  # run with it, never printed
    other = {**agent, "url": "http://127.0.0.1:2/"}
    with pytest.raises(ResumeRefused, match="--agent: the run was started with"):
        resumed_request(RunRequest(resume=cut, agent=other), None)


def test_the_agent_environment_names_and_user_are_recorded_and_resumed(tmp_path: Path) -> None:
    """``--agent-env`` names (never their values) and ``--agent-user`` are part of the run:
    a resume from the directory alone keeps them, and a different one is named."""
    request = RunRequest(agent="cli:./agent.sh", agent_env=["MY_API_KEY"], agent_user="nobody")
    recorded = options_of(request)
    assert recorded["--agent-env"] == ["MY_API_KEY"] and recorded["--agent-user"] == "nobody"
    from oasis_eval.api.resume_options import _merge, _request

    merged, diffs = _merge(recorded, options_of(RunRequest()), options_of(RunRequest()))
    assert diffs == []
    resumed = _request(merged, RunRequest(resume=tmp_path))
    assert list(resumed.agent_env) == ["MY_API_KEY"] and resumed.agent_user == "nobody"
    other = RunRequest(agent_user="root")
    _, diffs = _merge(recorded, options_of(other), options_of(other))
    assert any(d.startswith("--agent-user: ") for d in diffs)


def test_a_shard_records_its_slice_options_and_a_resume_keeps_them(tmp_path: Path) -> None:
    from oasis_eval.api.resume_options import _request

    request = RunRequest(shard="2/4", phase="capability", after=tmp_path / "phase1")
    recorded = options_of(request)
    assert recorded["--shard"] == "2/4" and recorded["--phase"] == "capability"
    assert recorded["--after"] == str((tmp_path / "phase1").absolute())
    again = _request(recorded, RunRequest(resume=tmp_path / "run"))
    assert (again.shard, again.phase, again.after) == ("2/4", "capability", tmp_path / "phase1")
