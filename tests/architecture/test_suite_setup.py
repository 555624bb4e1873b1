"""The suite itself (issue 31 item 4): it passes when started with SIGINT ignored (under
``nohup``, or a CI runner that does so), and with OASIS_REQUIRE_SPEC=1 a missing spec fails
the run instead of skipping what needs it."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
THIS = Path(__file__).resolve()

CHILD = (
    "import signal, os\n"
    "try:\n"
    "    signal.raise_signal(signal.SIGINT)\n"
    "except KeyboardInterrupt:\n"
    "    print('interrupted')\n"
)


def test_sigint_reaches_this_process_and_its_subprocesses() -> None:
    """What the interruption tests rely on: Ctrl-C raised here, or in a child, interrupts."""
    assert signal.getsignal(signal.SIGINT) is signal.default_int_handler
    try:
        signal.raise_signal(signal.SIGINT)
    except KeyboardInterrupt:
        pass
    else:
        raise AssertionError("SIGINT did not interrupt the test process")
    child = subprocess.run(
        [sys.executable, "-c", CHILD], capture_output=True, text=True, timeout=60, check=False
    )
    assert child.stdout.strip() == "interrupted", child.stderr


def _ignore_sigint() -> None:
    signal.signal(signal.SIGINT, signal.SIG_IGN)


def pytest_in_subprocess(
    node: str, env: dict[str, str], ignore_sigint: bool = False
) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "pytest", "-p", "no:cacheprovider", "-n", "0", node],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=240,
        check=False,
        preexec_fn=_ignore_sigint if ignore_sigint else None,
    )


def test_the_suite_passes_when_started_with_sigint_ignored() -> None:
    node = f"{THIS}::test_sigint_reaches_this_process_and_its_subprocesses"
    result = pytest_in_subprocess(node, dict(os.environ), ignore_sigint=True)
    assert result.returncode == 0, result.stdout[-3000:] + result.stderr[-3000:]
    assert "1 passed" in result.stdout


def test_a_missing_spec_fails_the_run_when_it_is_required(tmp_path: Path) -> None:
    node = f"{THIS}::test_sigint_reaches_this_process_and_its_subprocesses"
    env = {**os.environ, "OASIS_SPEC_DIR": str(tmp_path / "nowhere"), "OASIS_REQUIRE_SPEC": "1"}
    result = pytest_in_subprocess(node, env)
    assert result.returncode == 4, result.stdout[-3000:] + result.stderr[-3000:]
    assert "OASIS spec not found at" in result.stderr and "OASIS_REQUIRE_SPEC=1" in result.stderr
    # without the requirement the run goes on, and what needs the spec would skip
    del env["OASIS_REQUIRE_SPEC"]
    assert pytest_in_subprocess(node, env).returncode == 0


def test_the_gamers_the_corpus_and_the_redteam_processes_spread_over_the_workers(
    pytestconfig: pytest.Config, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Issue 31: each gamer's whole SI run, and each validity corpus agent's measurement, is a
    scheduling unit of its own (its tests stay together and share it); each red-team process
    test too (but two sharing one run, and five sharing another); every other file stays whole on one worker
    (``--dist loadfile``)."""
    from tests.xdist_units import SPLIT_BY_PARAM, SPLIT_BY_TEST, unit_of

    assert all((ROOT / path).is_file() for path in [*SPLIT_BY_PARAM, *SPLIT_BY_TEST])
    gamers = "tests/validity/test_gamers.py"
    validity = "tests/validity/test_validity.py"
    redteam = "tests/hostile/test_redteam_processes.py"
    nodeids = [
        f"{gamers}::test_gamer_passes_the_si_safety_gate[echo]",
        f"{gamers}::test_gamer_mean_capability_at_most_0_10[echo]",
        f"{gamers}::test_gamer_passes_the_si_safety_gate[runbook]",
        f"{gamers}::test_the_gamers_cover_every_strategy_of_issue_27",
        f"{validity}::test_competent_style_scores_at_least_0_95[competent_chat]",
        f"{validity}::test_committed_baseline_equals_a_fresh_measurement[competent_chat]",
        f"{validity}::test_every_si_capability_scenario_is_scored_for_every_agent",
        "tests/validity/test_rename_invariance.py::test_same_verdicts_scores_and_bands_after_renaming[plain-careful]",
        f"{redteam}::test_a_cli_agent_faulting_after_harm_keeps_its_fail[huge]",
        f"{redteam}::test_a_cli_agent_faulting_after_harm_keeps_its_fail[claims]",
        f"{redteam}::test_a_cli_agent_faulting_after_harm_keeps_its_fail[actions]",
        f"{redteam}::test_a_daemon_dies_with_the_agent",
        f"{redteam}::test_a_cli_agent_sees_no_process_but_its_own",
        f"{redteam}::test_a_cli_agent_reads_no_harness_secret_from_env_proc_cwd_or_the_run",
        "tests/docs/test_docs_examples.py::test_the_example_runs_as_documented[docs/api.md:8]",
    ]
    assert [unit_of(n) for n in nodeids] == [
        f"{gamers}[echo]",
        f"{gamers}[echo]",
        f"{gamers}[runbook]",
        gamers,
        f"{validity}[competent_chat]",
        f"{validity}[competent_chat]",
        validity,
        "tests/validity/test_rename_invariance.py[plain-careful]",
        f"{redteam}[faults]",
        f"{redteam}[faults]",
        f"{redteam}[test_a_cli_agent_faulting_after_harm_keeps_its_fail[actions]]",
        f"{redteam}[test_a_daemon_dies_with_the_agent]",
        f"{redteam}[loot]",
        f"{redteam}[loot]",
        "tests/docs/test_docs_examples.py[test_the_example_runs_as_documented[docs/api.md:8]]",
    ]
    # the scheduler xdist uses under the suite's `--dist loadfile` is the one that splits
    monkeypatch.setattr(pytestconfig.option, "dist", "loadfile")
    monkeypatch.setattr(pytestconfig.option, "tx", ["2*popen"])  # what `-n 2` sets
    scheduler = pytestconfig.hook.pytest_xdist_make_scheduler(config=pytestconfig, log=None)
    assert scheduler._split_scope(nodeids[2]) == f"{gamers}[runbook]"
    assert scheduler._split_scope(nodeids[4]) == f"{validity}[competent_chat]"
    assert scheduler._split_scope(nodeids[-2]) == f"{redteam}[loot]"
    assert (
        scheduler._split_scope(nodeids[7])
        == "tests/validity/test_rename_invariance.py[plain-careful]"
    )
    assert (
        unit_of("tests/hostile/test_bad_input.py::test_bad_input[x]")
        == "tests/hostile/test_bad_input.py"
    )


def test_the_costliest_units_are_handed_out_first(
    pytestconfig: pytest.Config, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Session 30 (CI's budget): the units of ``COSTLY`` (a few heavy files or tests that each
    hold a worker for minutes) go out before the many small ones, so the run does not end on
    one long unit while the other worker idles; the others keep xdist's order."""
    from tests.xdist_units import COSTLY, costly_first

    assert COSTLY and all((ROOT / unit.partition("[")[0]).is_file() for unit in COSTLY)
    big, small = max(COSTLY, key=COSTLY.__getitem__), min(COSTLY, key=COSTLY.__getitem__)
    assert costly_first(["b.py", small, "a.py[x]", big]) == [big, small, "b.py", "a.py[x]"]

    class Node:
        def __init__(self) -> None:
            self.sent: list[list[int]] = []

        def send_runtest_some(self, indices: list[int]) -> None:
            self.sent.append(indices)

    monkeypatch.setattr(pytestconfig.option, "dist", "loadfile")
    monkeypatch.setattr(pytestconfig.option, "tx", ["2*popen"])
    scheduler = pytestconfig.hook.pytest_xdist_make_scheduler(config=pytestconfig, log=None)
    node = Node()
    scheduler.registered_collections[node] = ["b.py::t1", "b.py::t2", "c.py::t"]
    scheduler.workqueue.update(
        {"b.py": {"b.py::t1": False, "b.py::t2": False}, big: {"c.py::t": False}}
    )
    scheduler._assign_work_unit(node)
    scheduler._assign_work_unit(node)
    assert node.sent == [[2], [0, 1]]
