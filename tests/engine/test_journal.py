"""Runs that survive interruption (issue 17 item 3): the journal written from the first
scenario, resume, refusals, and a crash mid-write. In process through the public API, on the
example profile (a few seconds a run); tests/cli/test_resume_cli.py kills a real ``oasis run``."""

from __future__ import annotations

import gzip
import json
import os
import shutil
import sys
from pathlib import Path
from typing import Any

import pytest

import oasis_eval
from oasis_eval import secrecy
from oasis_eval.api.replay import replay
from oasis_eval.engine import journal as journal_module
from oasis_eval.engine import manifest as manifest_module
from oasis_eval.engine.journal import ResumeRefused, RunInterrupted, RunTampered
from oasis_eval.engine.manifest import verify_manifest
from oasis_eval.examples import EXAMPLE_PROFILE_DIR
from oasis_eval.files import write_atomic

from .resume_support import AGENT, outcome_of, scenario_results, verdict_text, write_agent

TOTAL = len(oasis_eval.load_profile().scenarios)


@pytest.fixture
def agent_env(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.syspath_prepend(str(write_agent(tmp_path)))
    monkeypatch.setenv("RESUME_INTERRUPT_AT", "0")
    monkeypatch.delenv("RESUME_VERSION", raising=False)
    monkeypatch.delitem(__import__("sys").modules, "resume_agent", raising=False)
    return tmp_path


def run(out: Path, **options: Any) -> oasis_eval.EvaluationResult:
    options.setdefault("parallel", 2)
    return oasis_eval.evaluate(agent=AGENT, out=out, quiet=True, **options)


@pytest.fixture(scope="module")
def uninterrupted(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """One uninterrupted run, the reference the resumed runs are compared to (read only): the
    same inputs give the same results, so the module's tests share it (issue 31)."""
    directory = write_agent(tmp_path_factory.mktemp("uninterrupted"))
    with pytest.MonkeyPatch.context() as patch:
        patch.syspath_prepend(str(directory))
        patch.setenv("RESUME_INTERRUPT_AT", "0")
        patch.delenv("RESUME_VERSION", raising=False)
        patch.delitem(sys.modules, "resume_agent", raising=False)
        return run(directory / "whole").run_dir


def interrupted(agent_env: Path, monkeypatch: pytest.MonkeyPatch, at: int = 4) -> Path:
    """A run the user interrupts (SIGINT) at the agent's ``at``-th scenario."""
    import resume_agent  # written by the fixture: its counter starts at 0 for this run

    resume_agent.agent.calls = 0
    monkeypatch.setenv("RESUME_INTERRUPT_AT", str(at))
    with pytest.raises(KeyboardInterrupt):
        run(agent_env / "cut")
    monkeypatch.setenv("RESUME_INTERRUPT_AT", "0")
    return agent_env / "cut"


def test_an_interrupted_run_keeps_what_finished_and_resumes_to_the_same_results(
    agent_env: Path, uninterrupted: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    cut = interrupted(agent_env, monkeypatch)
    state = json.loads((cut / "run-state.json").read_text())
    assert state["status"] == "interrupted" and "Ctrl-C" in state["reason"]
    finished = sorted(p.name for p in (cut / "results").iterdir())
    assert 1 <= len(finished) < TOTAL
    assert not (cut / "verdict.yaml").exists() and not (cut / "run.json").exists()  # never PASS
    assert verify_manifest(cut, None).intact
    for reader in (oasis_eval.read_run, replay):  # report, replay: it says interrupted, exit 3
        with pytest.raises(RunInterrupted, match="interrupted") as caught:
            reader(cut)
        assert caught.value.exit_code == 3
    resumed = run(cut, resume=cut)
    assert resumed.run_dir == cut and resumed.exit_code == 0
    assert scenario_results(cut) == scenario_results(uninterrupted)
    assert verdict_text(cut) == verdict_text(uninterrupted)
    assert resumed.run_id == state["run_id"]
    assert not (cut / "run-state.json").exists() and not (cut / "results").exists()
    assert replay(cut).identical


def test_an_interruption_in_the_capability_phase_resumes_only_capability(
    agent_env: Path, uninterrupted: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    ran = [sid for sid, (state, _, _) in outcome_of(uninterrupted).items() if state == "executed"]
    cut = interrupted(agent_env, monkeypatch, at=len(ran))  # at the last scenario
    finished = sorted(p.name for p in (cut / "results").iterdir())
    assert sum(".safety." in name for name in finished) == sum(".safety." in s for s in ran)
    import resume_agent

    resume_agent.agent.calls = 0
    run(cut, resume=cut)
    assert resume_agent.agent.calls == len(ran) - len(finished)  # only what did not finish
    assert scenario_results(cut) == scenario_results(uninterrupted)
    assert verdict_text(cut) == verdict_text(uninterrupted)


def _partial_then_fail(calls: list[int], fail_at: int, after_write: bool) -> Any:
    """write_atomic, failing at its ``fail_at``-th call: after writing the file (a crash before
    the manifest lists it), or leaving a half-written temporary file (a crash inside the write)."""

    def write(path: Path, data: bytes) -> None:
        calls.append(1)
        if len(calls) != fail_at:
            write_atomic(path, data)
            return
        if after_write:
            write_atomic(path, data)
        else:
            (path.parent / f".tmp-{path.name}.crash").write_bytes(data[: len(data) // 2])
        raise OSError(28, "No space left on device (injected)")

    return write


#: each crash is two runs (the crash, the resume); the default suite keeps every writer crashing
#: inside a write and the evidence writer after one, the heavy tier the other two after a write
#: (issue 31)
_HEAVY = pytest.mark.heavy


@pytest.mark.parametrize(
    ("writer", "fail_at", "after_write"),
    [
        pytest.param(journal_module, 4, False, id="evidence-inside-a-write"),
        pytest.param(journal_module, 7, False, id="result-inside-a-write"),
        pytest.param(manifest_module, 3, False, id="manifest-inside-a-write"),
        pytest.param(journal_module, 4, True, id="evidence-after-a-write"),
        pytest.param(journal_module, 7, True, id="result-after-a-write", marks=_HEAVY),
        pytest.param(manifest_module, 3, True, id="manifest-after-a-write", marks=_HEAVY),
    ],
)
def test_a_crash_mid_write_never_leaves_a_corrupt_record(
    agent_env: Path,
    uninterrupted: Path,
    monkeypatch: pytest.MonkeyPatch,
    writer: Any,
    fail_at: int,
    after_write: bool,
) -> None:
    calls: list[int] = []
    monkeypatch.setattr(writer, "write_atomic", _partial_then_fail(calls, fail_at, after_write))
    with pytest.raises(BaseException):  # noqa: B017 - the harness crash itself, whatever its type
        run(agent_env / "crash")
    monkeypatch.undo()
    monkeypatch.syspath_prepend(str(agent_env))
    monkeypatch.setenv("RESUME_INTERRUPT_AT", "0")
    crash = agent_env / "crash"
    state = json.loads((crash / "run-state.json").read_text())  # readable, never half written
    assert state["status"] in ("running", "interrupted")
    check = verify_manifest(crash, None)
    assert not check.modified and not check.missing  # only the unlisted file of the crash
    with pytest.raises(RunInterrupted):
        oasis_eval.read_run(crash)
    run(crash, resume=crash)
    assert scenario_results(crash) == scenario_results(uninterrupted)
    assert verdict_text(crash) == verdict_text(uninterrupted)
    assert not [p for p in crash.rglob(".tmp-*")]


def _change_profile(tmp: Path) -> dict[str, Any]:
    changed = tmp / "profile"
    shutil.copytree(EXAMPLE_PROFILE_DIR, changed)
    scenarios = changed / "scenarios" / "capability.yaml"
    text = scenarios.read_text(encoding="utf-8")
    scenarios.write_text(text.replace("description: >-\n", "description: >-\n  Changed.\n", 1))
    return {"profile": changed}


@pytest.mark.parametrize(
    ("change", "named"),
    [
        (_change_profile, "profile.content differs"),
        (lambda tmp: {"agent": "builtin:naive"}, "agent (--agent, --agent-option) differs"),
        (lambda tmp: {"filters": ["k8s.safety.*"]}, "selection.filters"),
        (lambda tmp: {"tier": 2}, "run options.claimed_tier"),
    ],
    ids=["profile", "agent", "filter", "tier"],
)
def test_resume_refuses_different_inputs_naming_them(
    agent_env: Path, monkeypatch: pytest.MonkeyPatch, change: Any, named: str
) -> None:
    cut = interrupted(agent_env, monkeypatch)
    before = sorted((cut / "results").iterdir())
    options = {"resume": cut, **change(agent_env)}
    agent = options.pop("agent", AGENT)
    profile = options.pop("profile", None)
    with pytest.raises(ResumeRefused, match=named.replace("(", r"\(").replace(")", r"\)")):
        oasis_eval.evaluate(profile, agent, out=cut, quiet=True, **{"parallel": 2, **options})
    assert sorted((cut / "results").iterdir()) == before  # nothing ran, nothing written


def test_resume_may_change_parallel_and_the_agent_timeout(
    agent_env: Path, uninterrupted: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Neither changes a result (issue 29 item 1): both are left out of the fingerprint."""
    cut = interrupted(agent_env, monkeypatch)
    agent = {"type": "python", "object": AGENT.removeprefix("python:"), "timeout": 600}
    resumed = oasis_eval.evaluate(agent=agent, out=cut, resume=cut, parallel=3, quiet=True)
    assert resumed.exit_code == 0
    assert scenario_results(cut) == scenario_results(uninterrupted)


def test_resume_refuses_another_agent_identity_before_any_scenario(
    agent_env: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    cut = interrupted(agent_env, monkeypatch)
    monkeypatch.setenv("RESUME_VERSION", "9.9.9")  # same spec, the agent reports another version
    with pytest.raises(ResumeRefused, match=r"agent identity\.version: .*now \"9\.9\.9\""):
        run(cut, resume=cut)
    assert json.loads((cut / "run-state.json").read_text())["status"] == "interrupted"


@pytest.mark.parametrize(
    "tamper",
    [
        lambda d: next((d / "results").iterdir()).write_text("{}"),
        lambda d: next((d / "evidence").iterdir()).unlink(),
        lambda d: (d / "verdict.yaml").write_text("verdict:\n  safety: PASS\n"),
        lambda d: (d / "manifest.json").unlink(),
    ],
    ids=["result edited", "evidence removed", "verdict planted", "manifest removed"],
)
def test_resume_refuses_a_tampered_run_as_tampering(
    agent_env: Path, monkeypatch: pytest.MonkeyPatch, tamper: Any
) -> None:
    cut = interrupted(agent_env, monkeypatch)
    tamper(cut)
    with pytest.raises(RunTampered, match="tampered") as caught:
        run(cut, resume=cut)
    assert caught.value.exit_code == 5


def test_resume_of_a_signed_run_needs_its_key(
    agent_env: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("OASIS_RUN_KEY", "k" * 32)
    cut = interrupted(agent_env, monkeypatch)
    signature = json.loads((cut / "manifest.json").read_text())["signature"]
    assert signature["algorithm"] == "hmac-sha256" and signature["value"]
    monkeypatch.delenv("OASIS_RUN_KEY", raising=False)
    secrecy.forget()  # the key is read once per process: this one no longer has it
    with pytest.raises(ResumeRefused, match="signed"):
        run(cut, resume=cut)
    monkeypatch.setenv("OASIS_RUN_KEY", "k" * 32)
    assert run(cut, resume=cut).exit_code == 0
    assert replay(cut).integrity == "verified"


def test_a_run_still_running_is_not_resumed(
    agent_env: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    cut = interrupted(agent_env, monkeypatch)
    before = sorted(p.name for p in cut.rglob("*"))
    held = journal_module.hold(cut)  # what the process running the run holds until it ends
    try:
        with pytest.raises(ResumeRefused, match="still running"):
            run(cut, resume=cut)
    finally:
        assert held is not None
        os.close(held)
    assert sorted(p.name for p in cut.rglob("*")) == before  # nothing checked away meanwhile
    assert run(cut, resume=cut).exit_code == 0


def test_a_finished_run_or_another_directory_is_not_resumed(
    agent_env: Path, uninterrupted: Path
) -> None:
    with pytest.raises(ResumeRefused, match="nothing to resume"):
        run(uninterrupted, resume=uninterrupted)
    (agent_env / "empty").mkdir()
    with pytest.raises(ResumeRefused, match="not an interrupted run"):
        run(agent_env / "empty", resume=agent_env / "empty")


def test_a_new_run_over_an_interrupted_one_is_refused_with_the_way_to_resume(
    agent_env: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    cut = interrupted(agent_env, monkeypatch)
    with pytest.raises(oasis_eval.UnusableInput, match="--resume"):
        run(cut)


def test_one_sync_per_finished_scenario_and_one_for_the_published_run(
    agent_env: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Issue 30: an fsync per file (file and directory, three files a scenario, then every
    file of the finished run again) was most of a run's I/O wait. Now each finished scenario
    costs one sync of the file system (its files on disk before the manifest lists them) and
    the finished run one more (before the rename publishes it); only the run state at the
    start is flushed file by file."""
    from oasis_eval import files

    fsyncs: list[int] = []
    syncs: list[Path] = []
    real_fsync, real_sync = os.fsync, files.sync_filesystem
    monkeypatch.setattr(os, "fsync", lambda fd: fsyncs.append(fd) or real_fsync(fd))
    monkeypatch.setattr(files, "sync_filesystem", lambda d: syncs.append(Path(d)) or real_sync(d))
    result = run(agent_env / "counted")
    finished = len(list((result.run_dir / "evidence").iterdir()))
    assert finished >= 3
    assert len(syncs) == finished + 1, (len(syncs), finished)
    assert len(fsyncs) <= 4  # run-state.json and its manifest at the start: file + directory each
    assert verify_manifest(result.run_dir, None).intact


# ---- 26.2: a resume re-judges what the interrupted run kept, as replay does ---------------------------


def _mixed(agent_env: Path, monkeypatch: pytest.MonkeyPatch) -> tuple[Path, str, str]:
    """An interrupted run that kept a FAIL and a PASS: (its directory, the FAIL, the PASS)."""
    monkeypatch.setenv("RESUME_MIX", "1")
    cut = interrupted(agent_env, monkeypatch, at=5)
    kept = {
        item["scenario_id"]: item["result"]["status"]
        for item in (json.loads(p.read_text()) for p in (cut / "results").iterdir())
    }
    failed = sorted(sid for sid, status in kept.items() if status == "FAIL")
    passed = sorted(sid for sid, status in kept.items() if status == "PASS")
    assert failed and passed, kept
    return cut, failed[0], passed[0]


def _rewrite(cut: Path, changes: dict[str, bytes]) -> None:
    """Write ``changes`` into the run directory and recompute its unsigned manifest over them:
    all an attacker without the run key needs."""
    files = manifest_module.listed_files(cut)
    for rel, data in changes.items():
        (cut / rel).write_bytes(data)
        files[rel] = manifest_module.file_entry(data)
    manifest_module.write_manifest_of(cut, files, None)
    assert verify_manifest(cut, None).intact


def _result_rel(cut: Path, sid: str) -> str:
    return next(
        f"results/{p.name}"
        for p in (cut / "results").iterdir()
        if json.loads(p.read_text())["scenario_id"] == sid
    )


def _evidence_rel(cut: Path, sid: str) -> str:
    return next(
        f"evidence/{p.name}"
        for p in (cut / "evidence").iterdir()
        if json.loads(gzip.decompress(p.read_bytes()))["scenario_id"] == sid
    )


def _flip_to_pass(cut: Path, failed: str, passed: str) -> None:
    rel = _result_rel(cut, failed)
    item = json.loads((cut / rel).read_text())
    item["result"]["status"] = "PASS"
    _rewrite(cut, {rel: json.dumps(item, indent=1).encode()})


def _swap_evidence(cut: Path, failed: str, passed: str, relabel: bool = False) -> None:
    a, b = _evidence_rel(cut, failed), _evidence_rel(cut, passed)
    data_a, data_b = (cut / a).read_bytes(), (cut / b).read_bytes()
    if relabel:  # each also claims to be the other's: only re-judging can tell
        swap = {failed: passed, passed: failed}

        def relabelled(data: bytes) -> bytes:
            evidence = json.loads(gzip.decompress(data))
            evidence["scenario_id"] = swap[evidence["scenario_id"]]
            return gzip.compress(json.dumps(evidence).encode())

        data_a, data_b = relabelled(data_a), relabelled(data_b)
    _rewrite(cut, {a: data_b, b: data_a})


@pytest.mark.parametrize(
    "tamper",
    [_flip_to_pass, _swap_evidence, lambda c, f, p: _swap_evidence(c, f, p, relabel=True)],
    ids=["FAIL flipped to PASS", "evidence swapped", "evidence swapped and relabelled"],
)
def test_resume_rejudges_the_kept_results_and_refuses_a_forged_one(
    agent_env: Path, monkeypatch: pytest.MonkeyPatch, tamper: Any
) -> None:
    cut, failed, passed = _mixed(agent_env, monkeypatch)
    tamper(cut, failed, passed)
    with pytest.raises(RunTampered, match="kept result") as caught:
        run(cut, resume=cut)
    assert caught.value.exit_code == 5
    assert failed in str(caught.value)  # the scenario is named
    assert not (cut / "verdict.yaml").exists()  # nothing ran, no verdict, never PASS


def test_an_untampered_mixed_run_resumes_and_replays_identically(
    agent_env: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    cut, _, _ = _mixed(agent_env, monkeypatch)
    resumed = run(cut, resume=cut)
    assert resumed.exit_code == 1  # the kept FAIL stands
    assert replay(cut).identical


def test_a_signed_run_with_a_recomputed_unsigned_manifest_is_refused_as_tampering(
    agent_env: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("OASIS_RUN_KEY", "k" * 32)
    cut, failed, passed = _mixed(agent_env, monkeypatch)
    _flip_to_pass(cut, failed, passed)  # the manifest recomputed without the key
    with pytest.raises(RunTampered, match="tampered") as caught:
        run(cut, resume=cut)
    assert caught.value.exit_code == 5
