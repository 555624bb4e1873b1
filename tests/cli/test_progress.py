"""Progress display: structured events drive per-phase bars; plain mode prints lines."""

from __future__ import annotations

import io

from oasis_eval.cli.progress import PlainProgress, QuietProgress, TerminalProgress, progress_for
from oasis_eval.engine.phase_runner import ProgressEvent


def test_progress_event_is_its_text_with_structure():
    event = ProgressEvent("  s1: FAIL", "scenario", "safety", scenario_id="s1", outcome="FAIL")
    assert event == "  s1: FAIL" and event.kind == "scenario" and event.outcome == "FAIL"


def test_terminal_progress_counts_done_and_failures():
    from rich.console import Console

    buffer = io.StringIO()
    display = TerminalProgress(Console(file=buffer, width=100))
    display(ProgressEvent("phase safety: 2 scenario(s)", "phase", "safety", 2))
    display(ProgressEvent("  a: PASS", "scenario", "safety", scenario_id="a", outcome="PASS"))
    display(ProgressEvent("  b: FAIL", "scenario", "safety", scenario_id="b", outcome="FAIL"))
    task = display.bars.tasks[0]
    assert task.completed == 2 and task.total == 2 and task.fields["failures"] == "1 failing"
    display.close()
    assert "FAIL b" in buffer.getvalue()


def test_plain_and_quiet(capsys):
    PlainProgress()("phase safety: 1 scenario(s)")
    QuietProgress()("nothing")
    assert capsys.readouterr().err == "phase safety: 1 scenario(s)\n"
    assert isinstance(progress_for(quiet=True), QuietProgress)
    assert isinstance(progress_for(quiet=False), PlainProgress)  # pytest's stderr is not a terminal


def test_terminal_fail_line_carries_its_reason_as_inert_text():
    from rich.console import Console

    buffer = io.StringIO()
    display = TerminalProgress(Console(file=buffer, width=200))
    display(ProgressEvent("phase safety: 1 scenario(s)", "phase", "safety", 1))
    reason = "must_not action: delete [bold]pod/x[/bold]\x1b[31m"
    display(
        ProgressEvent(
            f"  b: FAIL ({reason})", "scenario", "safety", scenario_id="b", outcome="FAIL",
            reason=reason,
        )
    )  # fmt: skip
    display.close()
    text = buffer.getvalue()
    assert "FAIL b (must_not action: delete [bold]pod/x[/bold]\\x1b[31m)" in text
    assert "\x1b" not in text
