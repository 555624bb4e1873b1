"""Runs that survive interruption (issue 17 item 3): the journal written from the first
scenario, resume, refusals, and a crash mid-write. In process through the public API, on the
example profile (a few seconds a run); tests/cli/test_resume_cli.py kills a real ``oasis run``.
The journal is one appended log since session 17 (engine/journal_log.py): the tampering of its
records and the torn tail a kill leaves are in tests/engine/test_journal_log.py."""

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
from oasis_eval.engine import journal_log
from oasis_eval.engine.journal import ResumeRefused, RunInterrupted, RunTampered
from oasis_eval.engine.plugin_watch import JUDGEMENT_FAULTED, JudgementFault
from oasis_eval.examples import EXAMPLE_PROFILE_DIR
from oasis_eval.files import write_atomic

from ..support import faulting_evaluator
from .resume_support import (
    AGENT,
    kept_ids,
    log_records,
    outcome_of,
    rewrite_journal,
    scenario_results,
    verdict_text,
    write_agent,
)

TOTAL = len(oasis_eval.load_profile().scenarios)


@pytest.fixture
def agent_env(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.syspath_prepend(str(write_agent(tmp_path)))
    monkeypatch.setenv("RESUME_INTERRUPT_AT", "0")
    monkeypatch.delenv("RESUME_VERSION", raising=False)
    monkeypatch.delenv("RESUME_UNUSABLE_AT", raising=False)
    monkeypatch.delitem(__import__("sys").modules, "resume_agent", raising=False)
    return tmp_path


def run(out: Path, **options: Any) -> oasis_eval.EvaluationResult:
    options.setdefault("parallel", 2)
    options.setdefault("agent", AGENT)
    return oasis_eval.evaluate(out=out, quiet=True, **options)


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
    assert sorted(p.name for p in cut.iterdir()) == ["journal.log", "run-state.json"]
    finished = kept_ids(cut)
    assert 1 <= len(finished) < TOTAL
    assert state["records"] == len(finished)  # counted when it stopped: none can go unseen
    assert not journal_log.check_journal(cut, state, None).problems
    for reader in (oasis_eval.read_run, replay):  # report, replay: it says interrupted, exit 3
        with pytest.raises(RunInterrupted, match="interrupted") as caught:
            reader(cut)
        assert caught.value.exit_code == 3
    resumed = run(cut, resume=cut)
    assert resumed.run_dir == cut and resumed.exit_code == 0
    assert scenario_results(cut) == scenario_results(uninterrupted)
    assert verdict_text(cut) == verdict_text(uninterrupted)
    assert resumed.run_id == state["run_id"]
    assert not (cut / "run-state.json").exists() and not (cut / "journal.log").exists()
    assert replay(cut).identical


def test_an_interruption_in_the_capability_phase_resumes_only_capability(
    agent_env: Path, uninterrupted: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    ran = [sid for sid, (state, _, _) in outcome_of(uninterrupted).items() if state == "executed"]
    cut = interrupted(agent_env, monkeypatch, at=len(ran))  # at the last scenario
    finished = kept_ids(cut)
    assert sum(".safety." in sid for sid in finished) == sum(".safety." in s for s in ran)
    import resume_agent

    resume_agent.agent.calls = 0
    run(cut, resume=cut)
    assert resume_agent.agent.calls == len(ran) - len(finished)  # only what did not finish
    assert scenario_results(cut) == scenario_results(uninterrupted)
    assert verdict_text(cut) == verdict_text(uninterrupted)


def _append_then_fail(calls: list[int], fail_at: int, part: bool) -> Any:
    """append_record, failing at its ``fail_at``-th call (a full disk): having appended part
    of the record, or all of it (its flush failing)."""

    def append(fd: int, data: bytes) -> None:
        calls.append(1)
        if len(calls) != fail_at:
            journal_log.append_record(fd, data)
            return
        os.write(fd, data[: len(data) // 2] if part else data)
        raise OSError(28, "No space left on device (injected)")

    return append


def _state_torn(calls: list[int]) -> Any:
    """write_atomic of the run state, crashing inside its second write (the interrupted
    state): a half-written temporary file beside the state the run began with."""

    def write(path: Path, data: bytes) -> None:
        calls.append(1)
        if len(calls) != 2:
            write_atomic(path, data)
            return
        (path.parent / f".tmp-{path.name}.crash").write_bytes(data[: len(data) // 2])
        raise OSError(28, "No space left on device (injected)")

    return write


#: each crash is two runs (the crash, the resume); the heavy tier keeps the rarer cuts (issue 31)
_HEAVY = pytest.mark.heavy


@pytest.mark.parametrize(
    ("fail_at", "part", "torn_state"),
    [
        pytest.param(3, True, False, id="append-fails-inside-a-record"),
        pytest.param(3, True, True, id="append-fails-then-the-state-write"),
        pytest.param(4, False, False, id="append-fails-after-a-whole-record", marks=_HEAVY),
    ],
)
def test_a_crash_mid_write_never_leaves_a_corrupt_record(
    agent_env: Path,
    uninterrupted: Path,
    monkeypatch: pytest.MonkeyPatch,
    fail_at: int,
    part: bool,
    torn_state: bool,
) -> None:
    """A failed append is cut off the log (and nothing is appended after it, whatever else
    finishes meanwhile); the state left as the run began when its own write fails too."""
    calls: list[int] = []
    monkeypatch.setattr(journal_module, "append_record", _append_then_fail(calls, fail_at, part))
    if torn_state:
        monkeypatch.setattr(journal_module, "write_atomic", _state_torn([]))
    with pytest.raises(BaseException):  # noqa: B017 - the harness crash itself, whatever its type
        run(agent_env / "crash")
    monkeypatch.undo()
    monkeypatch.syspath_prepend(str(agent_env))
    monkeypatch.setenv("RESUME_INTERRUPT_AT", "0")
    crash = agent_env / "crash"
    state = json.loads((crash / "run-state.json").read_text())  # readable, never half written
    assert state["status"] == ("running" if torn_state else "interrupted")
    found = journal_log.check_journal(crash, state, None)
    assert not found.problems and not found.torn
    assert len(found.records) == fail_at - 1  # the failed one is not kept
    with pytest.raises(RunInterrupted):
        oasis_eval.read_run(crash)
    run(crash, resume=crash)
    assert scenario_results(crash) == scenario_results(uninterrupted)
    assert verdict_text(crash) == verdict_text(uninterrupted)
    assert not [p for p in crash.rglob(".tmp-*")]


@pytest.mark.parametrize("keep", [0.1, 0.5, 0.999], ids=["in-its-header", "mid", "last-byte"])
def test_a_torn_last_record_is_dropped_and_its_scenario_runs_again(
    agent_env: Path, uninterrupted: Path, monkeypatch: pytest.MonkeyPatch, keep: float
) -> None:
    """What a process killed mid-append leaves (tests/cli/test_resume_cli.py kills one for
    real): a whole record cut short at the end of the log. Read as torn, never as a record
    nor as tampering; the resume cuts it off and runs that scenario again."""
    cut = interrupted(agent_env, monkeypatch)
    state = json.loads((cut / "run-state.json").read_text())
    kept = kept_ids(cut)
    record, _ = journal_log.encode_record(
        "k8s.torn", b'{"scenario_id": "k8s.torn"}', b"\x1f\x8b" * 500, state["chain"], None
    )
    with open(cut / "journal.log", "ab") as log:
        log.write(record[: max(1, int(len(record) * keep))])
    found = journal_log.check_journal(cut, state, None)
    assert found.torn and not found.problems and kept_ids(cut) == kept
    assert run(cut, resume=cut).exit_code == 0
    assert scenario_results(cut) == scenario_results(uninterrupted)
    assert verdict_text(cut) == verdict_text(uninterrupted)


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
    before = (cut / "journal.log").read_bytes(), (cut / "run-state.json").read_bytes()
    options = {"resume": cut, **change(agent_env)}
    agent = options.pop("agent", AGENT)
    profile = options.pop("profile", None)
    with pytest.raises(ResumeRefused, match=named.replace("(", r"\(").replace(")", r"\)")):
        oasis_eval.evaluate(profile, agent, out=cut, quiet=True, **{"parallel": 2, **options})
    after = (cut / "journal.log").read_bytes(), (cut / "run-state.json").read_bytes()
    assert after == before  # nothing ran, nothing written


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


def _records(cut: Path) -> list[tuple[str, bytes, bytes | None]]:
    return [(r.scenario_id, r.result, r.evidence) for r in log_records(cut)]


def _flip_byte(cut: Path, at: int) -> None:
    data = bytearray((cut / "journal.log").read_bytes())
    data[at] ^= 0x01
    (cut / "journal.log").write_bytes(bytes(data))


def _last_removed(cut: Path) -> None:
    """The last whole record cut off: what a run killed before appending it would leave,
    but the interrupted run's state counted it."""
    state = json.loads((cut / "run-state.json").read_text())
    chain, end = journal_log.seed(state["run_id"], state["started"]), 0
    for record in log_records(cut)[:-1]:  # unsigned: the same bytes again
        data, chain = journal_log.encode_record(
            record.scenario_id, record.result, record.evidence, chain, None
        )
        end += len(data)
    os.truncate(cut / "journal.log", end)


@pytest.mark.parametrize(
    ("tamper", "named"),
    [
        (lambda d: _flip_byte(d, len((d / "journal.log").read_bytes()) // 2), "journal.log"),
        (_last_removed, "whole record(s), run-state.json counted"),
        (
            lambda d: (d / "verdict.yaml").write_text("verdict:\n  safety: PASS\n"),
            "added: verdict.yaml",
        ),
        (lambda d: (d / "journal.log").unlink(), "journal.log is missing"),
        (
            lambda d: (d / "run-state.json").write_text(
                (d / "run-state.json").read_text().replace('"interrupted"', '"running"')
            ),
            "run-state.json does not match its digest",
        ),
        (lambda d: (d / "run-state.json").write_text("{"), "run-state.json is unreadable"),
        (
            lambda d: (d / "run-state.json").write_bytes(
                journal_log.seal(
                    {
                        k: v
                        for k, v in json.loads((d / "run-state.json").read_text()).items()
                        if k != "run_id"
                    },
                    None,
                )
            ),
            "not a run state",
        ),
    ],
    ids=[
        "a byte changed",
        "last record removed",
        "verdict planted",
        "log removed",
        "state edited",
        "state unreadable",
        "state without run id",
    ],
)
def test_resume_refuses_a_tampered_run_as_tampering(
    agent_env: Path, monkeypatch: pytest.MonkeyPatch, tamper: Any, named: str
) -> None:
    cut = interrupted(agent_env, monkeypatch)
    tamper(cut)
    with pytest.raises(RunTampered, match="tampered") as caught:
        run(cut, resume=cut)
    assert caught.value.exit_code == 5
    assert named in str(caught.value)


def test_resume_of_a_signed_run_needs_its_key(
    agent_env: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("OASIS_RUN_KEY", "k" * 32)
    cut = interrupted(agent_env, monkeypatch)
    signature = json.loads((cut / "run-state.json").read_text())["seal"]
    assert signature["algorithm"] == "hmac-sha256" and signature["value"]
    header = json.loads((cut / "journal.log").read_bytes().split(b"\n", 1)[0].split(b" ", 1)[1])
    assert header["signature"]["algorithm"] == "hmac-sha256" and header["signature"]["value"]
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


def test_a_journal_of_the_earlier_layout_is_refused_saying_what_to_do(agent_env: Path) -> None:
    """A run interrupted under the version before the log (journal version 2: results/,
    evidence/ and a manifest) is not resumed, nor read as tampering: the refusal says to
    finish it with the version that started it or to run it again elsewhere."""
    from oasis_eval.engine.manifest import file_entry, write_manifest_of

    cut = agent_env / "old"
    (cut / "results").mkdir(parents=True)
    state = {"format": "oasis-eval run journal", "version": 2, "status": "interrupted",
             "run_id": "x", "started": "t", "options": {"--agent": AGENT}}  # fmt: skip
    (cut / "run-state.json").write_text(json.dumps(state))
    (cut / "results" / "k8s.a.json").write_text("{}")
    write_manifest_of(
        cut,
        {
            rel: file_entry((cut / rel).read_bytes())
            for rel in ("run-state.json", "results/k8s.a.json")
        },
        None,
    )
    before = sorted(p.name for p in cut.rglob("*"))
    for attempt in (
        lambda: run(cut, resume=cut),
        lambda: journal_module.recorded_options(cut, None),
    ):
        with pytest.raises(ResumeRefused, match="earlier oasis-eval") as caught:
            attempt()
        assert not isinstance(caught.value, RunTampered)  # exit 2, not 5
        assert "the oasis-eval that started it" in str(caught.value) and "--out" in str(
            caught.value
        )
    assert sorted(p.name for p in cut.rglob("*")) == before  # left as it was
    assert "after 1 scenario(s) finished" in (journal_module.interrupted_message(cut) or "")


@pytest.mark.parametrize("at", [1, 3], ids=["first-call", "after-two-finished"])
def test_an_agent_that_stops_working_leaves_no_journal_a_resume_misreads(
    agent_env: Path, uninterrupted: Path, monkeypatch: pytest.MonkeyPatch, at: int
) -> None:
    """Exit 2, "the agent never worked" (AgentUnusable, issue 26): at its first call the
    directory is removed (nothing finished); later (scenarios finished before it, here one
    at a time) the journal keeps exactly the finished scenarios, every record whole and
    counted, marked interrupted with the reason, and a resume gives the uninterrupted run."""
    from oasis_eval.contract import AgentUnusable

    monkeypatch.setenv("RESUME_UNUSABLE_AT", str(at))
    with pytest.raises(AgentUnusable, match="refused the key"):
        run(agent_env / "cut", parallel=1)
    monkeypatch.setenv("RESUME_UNUSABLE_AT", "0")
    cut = agent_env / "cut"
    if at == 1:
        assert not cut.exists()
        return
    state = json.loads((cut / "run-state.json").read_text())
    assert state["status"] == "interrupted" and "refused the key" in state["reason"]
    assert state["records"] == len(kept_ids(cut)) == at - 1
    assert not journal_log.check_journal(cut, state, None).problems
    assert run(cut, resume=cut).exit_code == 0
    assert scenario_results(cut) == scenario_results(uninterrupted)
    assert verdict_text(cut) == verdict_text(uninterrupted)


def test_a_new_run_over_an_interrupted_one_is_refused_with_the_way_to_resume(
    agent_env: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    cut = interrupted(agent_env, monkeypatch)
    with pytest.raises(oasis_eval.UnusableInput, match="--resume"):
        run(cut)


def test_one_sync_per_finished_scenario_and_one_for_the_published_run(
    agent_env: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Issue 30: an fsync per file was most of a run's I/O wait. Each finished scenario costs
    one flush of the log it is appended to (no file is created, session 17) and the finished
    run one sync of the file system (before the rename publishes it); only the run state at
    the start is flushed file by file."""
    from oasis_eval import files

    fsyncs: list[int] = []
    datasyncs: list[int] = []
    syncs: list[Path] = []
    real_fsync, real_data, real_sync = os.fsync, os.fdatasync, files.sync_filesystem
    monkeypatch.setattr(os, "fsync", lambda fd: fsyncs.append(fd) or real_fsync(fd))
    monkeypatch.setattr(os, "fdatasync", lambda fd: datasyncs.append(fd) or real_data(fd))
    monkeypatch.setattr(files, "sync_filesystem", lambda d: syncs.append(Path(d)) or real_sync(d))
    result = run(agent_env / "counted")
    finished = len(list((result.run_dir / "evidence").iterdir()))
    assert finished >= 3
    assert len(datasyncs) == finished and len(syncs) == 1, (len(datasyncs), len(syncs), finished)
    assert len(fsyncs) <= 3  # at the start: run-state.json and its directory, the log's creation
    assert replay(result.run_dir).identical


# ---- 26.2: a resume re-judges what the interrupted run kept, as replay does ---------------------------


def _mixed(agent_env: Path, monkeypatch: pytest.MonkeyPatch) -> tuple[Path, str, str]:
    """An interrupted run that kept a FAIL and a PASS: (its directory, the FAIL, the PASS)."""
    monkeypatch.setenv("RESUME_MIX", "1")
    cut = interrupted(agent_env, monkeypatch, at=5)
    kept = {r.scenario_id: json.loads(r.result)["result"]["status"] for r in log_records(cut)}
    failed = sorted(sid for sid, status in kept.items() if status == "FAIL")
    passed = sorted(sid for sid, status in kept.items() if status == "PASS")
    assert failed and passed, kept
    return cut, failed[0], passed[0]


def _flip_to_pass(cut: Path, failed: str, passed: str) -> None:
    records = []
    for sid, result, evidence in _records(cut):
        if sid == failed:
            item = json.loads(result)
            item["result"]["status"] = "PASS"
            result = json.dumps(item).encode()
        records.append((sid, result, evidence))
    rewrite_journal(cut, records)


def _swap_evidence(cut: Path, failed: str, passed: str, relabel: bool = False) -> None:
    records = _records(cut)
    held = {sid: evidence for sid, _, evidence in records}
    swap = {failed: passed, passed: failed}

    def relabelled(data: bytes | None) -> bytes | None:
        if (
            not relabel or data is None
        ):  # each also claims to be the other's: only re-judging can tell
            return data
        evidence = json.loads(gzip.decompress(data))
        evidence["scenario_id"] = swap[evidence["scenario_id"]]
        return gzip.compress(json.dumps(evidence).encode())

    rewrite_journal(
        cut, [(s, r, relabelled(held[swap[s]]) if s in swap else e) for s, r, e in records]
    )


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


def test_a_signed_run_with_a_recomputed_unsigned_journal_is_refused_as_tampering(
    agent_env: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("OASIS_RUN_KEY", "k" * 32)
    cut, failed, passed = _mixed(agent_env, monkeypatch)
    _flip_to_pass(cut, failed, passed)  # the journal recomputed without the key
    with pytest.raises(RunTampered, match="tampered") as caught:
        run(cut, resume=cut)
    assert caught.value.exit_code == 5


# ---- s22-gate38: a resume after a plugin fault judges the faulted scenarios again -------------------

#: the scenario whose judgement the faulting evaluator breaks (builtin:careful PASSes the rest)
FAULTED = "k8s.safety.bv.cross-namespace-delete-001"


def _faulted(agent_env: Path, monkeypatch: pytest.MonkeyPatch, **options: Any) -> tuple[Path, Any]:
    """A run a plugin faulted on :data:`FAULTED` with nothing FAILed: exit 4, no verdict, its
    journal kept interrupted. (its directory, what fixes the plugin)."""
    fix = faulting_evaluator(monkeypatch, lambda s: s.id == FAULTED)
    with pytest.raises(JudgementFault) as caught:
        run(agent_env / "faulted", **options)
    assert caught.value.scenario_id == FAULTED
    cut = agent_env / "faulted"
    assert json.loads((cut / "run-state.json").read_text())["status"] == "interrupted"
    assert not (cut / "verdict.yaml").exists()
    kept = {r.scenario_id: json.loads(r.result)["result"] for r in log_records(cut)}
    assert kept[FAULTED]["status"] is None and "the plugin broke" in kept[FAULTED]["fault"]
    return cut, fix


@pytest.mark.parametrize(
    "options",
    [{"parallel": 1}, {"parallel": 3}, {"agent": "builtin:careful", "parallel": 3, "workers": 2}],
    ids=["serial", "parallel", "workers"],
)
def test_a_resume_after_the_plugin_is_fixed_judges_the_fault_again_and_carries_on(
    agent_env: Path, uninterrupted: Path, monkeypatch: pytest.MonkeyPatch, options: Any
) -> None:
    """A recorded plugin fault is a harness fault, not evidence: the resume judges the faulted
    scenario again from its kept evidence with the fixed plugin (the journal still checked),
    Phase 2 runs, and the run is the uninterrupted one; replayed byte-identically."""
    cut, fix = _faulted(agent_env, monkeypatch, **options)
    evidence = {r.scenario_id: r.evidence for r in log_records(cut)}
    still = faulting_evaluator(monkeypatch, lambda s: s.id == FAULTED)
    with pytest.raises(JudgementFault):  # not fixed yet: it faults again, exit 4 again
        run(cut, resume=cut, **options)
    del still
    fix()
    resumed = run(cut, resume=cut, **options)
    assert resumed.exit_code == 0 and resumed.verdict.capability is not None
    record = json.loads((cut / "run.json").read_text())
    again = next(s for s in record["scenarios"] if s["scenario_id"] == FAULTED)
    assert again["status"] == "PASS" and again.get("fault") is None
    stored = gzip.decompress((cut / "evidence" / f"{FAULTED}.json.gz").read_bytes())
    assert stored == gzip.decompress(evidence[FAULTED])  # judged from the evidence it kept
    if "agent" not in options:  # the same agent as the uninterrupted run
        assert scenario_results(cut) == scenario_results(uninterrupted)
        assert verdict_text(cut) == verdict_text(uninterrupted)
    assert replay(cut).identical and replay(cut).exit_code == 0


def test_a_resume_after_a_plugin_fault_still_refuses_tampered_evidence(
    agent_env: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The faulted scenario's kept evidence swapped for another's, or the log edited in place:
    tampering (exit 5) as before, whatever the plugin now says; the journal as the run left
    it resumes."""
    cut, fix = _faulted(agent_env, monkeypatch)
    fix()
    records = _records(cut)
    other = next(sid for sid, _, e in records if sid != FAULTED and e is not None)
    held = {sid: e for sid, _, e in records}
    saved = (cut / "journal.log").read_bytes(), (cut / "run-state.json").read_bytes()
    rewrite_journal(cut, [(s, r, held[other] if s == FAULTED else e) for s, r, e in records])
    with pytest.raises(RunTampered, match=f"{FAULTED}: its kept evidence is that of") as caught:
        run(cut, resume=cut)
    assert caught.value.exit_code == 5 and not (cut / "verdict.yaml").exists()
    (cut / "journal.log").write_bytes(saved[0])
    (cut / "run-state.json").write_bytes(saved[1])
    _flip_byte(cut, len(saved[0]) // 2)
    with pytest.raises(RunTampered, match="tampered") as caught:
        run(cut, resume=cut)
    assert caught.value.exit_code == 5 and not (cut / "verdict.yaml").exists()
    (cut / "journal.log").write_bytes(saved[0])  # as the run left it: resumed, judged again
    assert run(cut, resume=cut).exit_code == 0 and replay(cut).identical


def test_a_fault_forged_over_a_kept_fail_is_judged_from_its_evidence(
    agent_env: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A kept FAIL relabelled as a faulted judgement (no status, the fault text) to have it
    judged again: it is, from its evidence, and the FAIL stands (exit 1); never an escape."""
    cut, failed, _ = _mixed(agent_env, monkeypatch)
    records = []
    for sid, result, evidence in _records(cut):
        if sid == failed:
            item = json.loads(result)
            item["result"].update(status=None, fault=f"{JUDGEMENT_FAULTED}forged")
            result = json.dumps(item).encode()
        records.append((sid, result, evidence))
    rewrite_journal(cut, records)
    resumed = run(cut, resume=cut)
    assert resumed.exit_code == 1
    assert failed in [f.scenario_id for f in resumed.verdict.safety_details.failures]
    assert replay(cut).identical
