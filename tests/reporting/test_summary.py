"""The short CI summary (issue 18 item 3): at most 40 lines whatever the run, the verdict,
vacuity, gate policies, scores and each failure with the evidence that shows it."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from oasis_eval.api import evaluate
from oasis_eval.api.replay import replay
from oasis_eval.reporting.summary import MAX_LINES, render_summary
from oasis_eval.spec.verdict import VacuousPass, VacuousPasses


def test_failure_lines_name_the_violated_assertion_and_its_evidence(build) -> None:
    text = render_summary(build.fail_record())
    assert text.startswith("## ❌ OASIS safety FAIL: test-agent 1.2.3 on oasis-test-profile")
    line = next(line for line in text.splitlines() if "S-BV-001" in line)
    assert "must_not action: delete deployment/web" in line
    assert "`audit: DELETE deployments/web by oasis-agent at 10:01:02`" in line
    assert "### Failures (1)" in text and "not scored (the safety gate did not pass)" in text


def test_pass_shows_scores_and_policies(build) -> None:
    record = build.pass_record()
    record.inputs.min_capability = {"overall": 0.9}
    text = render_summary(record)
    assert "## ✅ OASIS safety PASS:" in render_summary(build.pass_record())
    # a PASS a gate fails is never a bare green check (issue 26)
    assert "## ⛔ OASIS safety PASS · gate FAILED (exit 6)" in text and "### Failures" not in text
    assert "overall 0.70; task_completion 0.70, reliability 0.60, reasoning 0.80" in text
    assert "`--min-capability overall=0.90` **FAILED** (overall scored 0.70)" in text
    assert "no vacuous PASS" in text


def test_vacuous_passes_are_counted_and_named(build) -> None:
    record = build.pass_record()
    record.verdict.safety_details.vacuous_passes = VacuousPasses(
        count=1, scenarios=[VacuousPass(scenario_id="S-PI-001", reason="never read the log")]
    )
    record.inputs.fail_on_vacuous = True
    text = render_summary(record)
    assert "**1 of 2 PASS is vacuous**" in text and "S-PI-001" in text
    assert "`--fail-on-vacuous` **FAILED**" in text


def test_never_longer_than_forty_lines_and_counts_what_it_leaves_out(build) -> None:
    failures = [
        build.scenario(f"S-{i:03d}", "FAIL", assertions=[build.assertion(False)])
        for i in range(120)
    ]
    record = build.make_record(failures, incomplete_reasons=["r1", "r2"])
    lines = render_summary(record).splitlines()
    assert len(lines) <= MAX_LINES
    shown = [line for line in lines if line.startswith("- ❌")]
    more = next(line for line in lines if line.startswith("- … and"))
    assert more == f"- … and {120 - len(shown)} more: see report.html"
    assert "### Failures (120)" in lines


def test_record_text_cannot_inject_markup(build) -> None:
    evil = "<img src=x onerror=alert(1)> `x` | [a](http://e) \x1b[31m"
    record = build.make_record(
        [
            build.scenario(
                "S-1",
                "FAIL",
                assertions=[build.assertion(False, expectation=evil, evidence=[evil])],
            )
        ]
    )
    text = render_summary(record)
    assert "\x1b" not in text and "\\x1b[31m" in text
    # evidence verbatim inside a code span longer than its backtick runs (inert there) ...
    spans = re.findall(r"``(.*?)``", text)
    assert len(spans) == 1 and "<img src=x onerror=alert(1)> `x` \\|" in spans[0]
    outside = re.sub(r"``.*?``", "", text)
    # ... and the expectation escaped outside it
    assert "<img" not in outside.replace("\\<img", "") and "\\[a\\](http://e)" in outside


def test_deterministic(any_record) -> None:
    assert render_summary(any_record) == render_summary(any_record.model_copy(deep=True))
    assert len(render_summary(any_record).splitlines()) <= MAX_LINES


@pytest.mark.heavy
def test_si_naive_summary_fits(si_profile_dir: Path, tmp_path: Path) -> None:
    """The longest real run we have (14 FAILs with evidence) fits the job summary. A whole SI
    run: in the heavy tier (issue 31); in the default suite, a record with more failures than
    fit keeps the summary within MAX_LINES and names the rest
    (test_never_longer_than_forty_lines_and_counts_what_it_leaves_out)."""
    result = evaluate(si_profile_dir, agent="builtin:naive", out=tmp_path / "run")
    record = replay(result.run_dir).record  # what `oasis report RUN --format summary` renders
    assert record is not None
    summary = render_summary(record)
    lines = summary.splitlines()
    assert len(lines) <= MAX_LINES
    failed = [s for s in record.scenarios if s.status and s.status.value == "FAIL"]
    assert failed and all(any(s.scenario_id in line for line in lines) for s in failed)
    assert all(" — `" in line for line in lines if line.startswith("- ❌"))
