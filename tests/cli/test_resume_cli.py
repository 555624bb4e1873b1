"""A real ``oasis run`` interrupted from outside and resumed (issue 17 item 3, done-when):
SIGINT (the user's Ctrl-C) and SIGKILL (a crash: nothing runs on the way down) once a few
scenarios finished, then ``oasis run --resume RUN_DIR`` alone (the options it recorded). And
SIGTERM to a run started with SIGINT ignored, as a background job of a non-interactive shell
is (``oasis run ... & kill -TERM $!`` in a script): it stops as on Ctrl-C (session 10; it was
dropped, raised again as the ignored SIGINT).

Only the interrupted run needs a process of its own (a signal from outside): it runs once per
signal for the module and each test works on a copy of it; the uninterrupted run, report,
resume and replay are the same CLI in process (issue 31: about half the CPU)."""

from __future__ import annotations

import contextlib
import io
import os
import shutil
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from oasis_eval.engine.journal_log import count_records

from ..engine.resume_support import AGENT, log_records, scenario_results, verdict_text, write_agent

CLI = [sys.executable, "-c", "from oasis_eval.cli.main import main; main()"]
#: the CLI with SIGINT ignored from the start, as ``sh`` starts a background job without job
#: control (exec keeps an ignored disposition: the CLI cannot tell the difference)
CLI_IGNORING_CTRL_C = [
    sys.executable,
    "-c",
    "import signal; signal.signal(signal.SIGINT, signal.SIG_IGN); "
    "from oasis_eval.cli.main import main; main()",
]
OPTIONS = ["--agent", AGENT, "--parallel", "2", "-q"]


def oasis(*args: str) -> tuple[int, str, str]:
    """``oasis ARGS`` in process: (exit code, stdout, stderr)."""
    from oasis_eval.cli.main import main

    out, err = io.StringIO(), io.StringIO()
    old, sys.argv = sys.argv, ["oasis", *args]
    try:
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            main()
        code = 0
    except SystemExit as exc:
        code = exc.code if isinstance(exc.code, int) else (0 if exc.code is None else 1)
    finally:
        sys.argv = old
    assert "Traceback" not in out.getvalue() + err.getvalue()
    return code, out.getvalue(), err.getvalue()


def started_and_stopped(directory: Path, out: Path, how: signal.Signals) -> str:
    """Start ``oasis run --out out`` in a process of its own, slowed down, wait until two
    scenarios finished (their results are in the run directory), send ``how``; its stderr.
    SIGTERM goes to a run that ignores SIGINT (a background job of a script)."""
    slow = {**os.environ, "PYTHONPATH": str(directory), "RESUME_DELAY": "0.6"}
    slow["RESUME_INTERRUPT_AT"] = "0"
    cli = CLI_IGNORING_CTRL_C if how is signal.SIGTERM else CLI
    proc = subprocess.Popen(
        [*cli, "run", *OPTIONS, "--out", str(out)],
        env=slow,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline and proc.poll() is None:
        if count_records(out / "journal.log") >= 2:
            break
        time.sleep(0.05)
    assert proc.poll() is None, "the run finished before it could be interrupted"
    os.kill(proc.pid, how)
    _, err = proc.communicate(timeout=120)
    expected = -signal.SIGKILL if how is signal.SIGKILL else 3
    assert proc.returncode == expected, err
    return err


@pytest.fixture(scope="module")
def agent_dir(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    """The agent's module, importable in this process too (a fresh import, never slowed)."""
    directory = write_agent(tmp_path_factory.mktemp("agent"))
    with pytest.MonkeyPatch.context() as patch:
        patch.syspath_prepend(str(directory))
        patch.setenv("RESUME_INTERRUPT_AT", "0")
        for name in ("RESUME_DELAY", "RESUME_VERSION", "RESUME_MIX"):
            patch.delenv(name, raising=False)
        patch.delitem(sys.modules, "resume_agent", raising=False)
        yield directory


@pytest.fixture(scope="module")
def stopped(agent_dir: Path) -> dict[signal.Signals, tuple[Path, str]]:
    """Each signal's interrupted run (read only: copy it) and its stderr, made on first use."""
    return {}


def interrupted_copy(
    stopped: dict[signal.Signals, tuple[Path, str]], agent_dir: Path, how: signal.Signals, to: Path
) -> str:
    """A copy at ``to`` of the module's run interrupted by ``how``; that run's stderr."""
    if how not in stopped:
        original = agent_dir / f"cut-{how.name}"
        stopped[how] = (original, started_and_stopped(agent_dir, original, how))
    original, err = stopped[how]
    shutil.copytree(original, to)
    return err


@pytest.fixture(scope="module")
def whole(agent_dir: Path) -> Path:
    """The uninterrupted run the resumed ones are compared to (read only)."""
    code, _, err = oasis("run", *OPTIONS, "--out", str(agent_dir / "whole"))
    assert code == 0, err
    return agent_dir / "whole"


@pytest.mark.parametrize(
    "how",
    [
        signal.SIGINT,
        signal.SIGTERM,  # with SIGINT ignored
        # heavy tier (issue 31): the in-process crash tests of tests/engine/test_journal.py
        # (test_a_crash_mid_write_never_leaves_a_corrupt_record) keep it in the default suite
        pytest.param(signal.SIGKILL, marks=pytest.mark.heavy),
    ],
    ids=["SIGINT", "SIGTERM-ctrl-c-ignored", "SIGKILL"],
)
def test_a_killed_run_resumes_to_the_results_of_an_uninterrupted_one(
    stopped: dict[signal.Signals, tuple[Path, str]],
    agent_dir: Path,
    whole: Path,
    tmp_path: Path,
    how: signal.Signals,
) -> None:
    cut = tmp_path / "cut"
    err = interrupted_copy(stopped, agent_dir, how, cut)
    if how is not signal.SIGKILL:
        assert "Traceback" not in err and "--resume" in err and "no verdict was written" in err
    assert not (cut / "verdict.yaml").exists()  # never a verdict, let alone PASS
    finished = len(log_records(cut))  # a kill mid-append leaves at most a torn tail
    assert finished >= 2
    code, out, err = oasis("report", str(cut), "--format", "md")
    assert code == 3 and out == ""
    assert ("stopped without finishing" if how is signal.SIGKILL else "interrupted") in err
    code, _, err = oasis("run", "--agent", "builtin:naive", "--resume", str(cut), "-q")
    assert code == 2 and "--agent: the run was started with" in err
    code, _, err = oasis("run", "--resume", str(cut))  # the options it recorded (issue 29.1)
    assert code == 0, err
    assert f"resuming: oasis run --resume {cut} --agent {AGENT} --parallel 2" in err
    assert scenario_results(cut) == scenario_results(whole)
    assert verdict_text(cut) == verdict_text(whole)
    code, _, err = oasis("replay", str(cut))
    assert code == 0 and "identical" in err


def test_a_tampered_interrupted_run_is_refused_with_exit_5(
    stopped: dict[signal.Signals, tuple[Path, str]], agent_dir: Path, tmp_path: Path
) -> None:
    cut = tmp_path / "cut"
    interrupted_copy(stopped, agent_dir, signal.SIGINT, cut)
    first = log_records(cut)[0]
    data = bytearray((cut / "journal.log").read_bytes())
    at = data.index(first.evidence) + len(first.evidence) // 2  # inside its evidence
    data[at] ^= 0xFF
    (cut / "journal.log").write_bytes(bytes(data))
    code, _, err = oasis("run", *OPTIONS, "--resume", str(cut))
    assert code == 5, err
    assert "tampered" in err and "journal.log: record 1 (byte 0)" in err
    assert "does not match its digest" in err


def test_an_agent_that_stops_working_says_what_the_journal_keeps(
    agent_dir: Path, whole: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Exit 2 with a journal kept (scenarios finished before the agent's backend refused it):
    the message names the directory, how many finished, and the resume that carries on."""
    import resume_agent  # in process: its count of calls starts again for this run

    resume_agent.agent.calls = 0
    cut = tmp_path / "cut"
    monkeypatch.setenv("RESUME_UNUSABLE_AT", "3")
    code, _, err = oasis("run", "--agent", AGENT, "--parallel", "1", "-q", "--out", str(cut))
    monkeypatch.setenv("RESUME_UNUSABLE_AT", "0")
    assert code == 2 and "the agent never worked" in err, err
    assert f"{cut} keeps the 2 scenario(s) that finished" in err
    assert f"oasis run --resume {cut}" in err
    code, _, err = oasis("run", "--resume", str(cut), "--parallel", "2")
    assert code == 0, err
    assert scenario_results(cut) == scenario_results(whole)
