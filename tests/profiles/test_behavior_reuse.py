"""Behavior reuse in any layout (issue 29 item 3): a held-out profile in SI's own (markdown)
layout under a new identifier, using SI's behavior identifiers, validates and runs; a
behavior defined differently is "not evaluable here" (validate: a warning, exit 0; run:
exit 2 before any scenario) until the profile's metadata names the profile it reuses."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from oasis_eval.api.profiles import check_profile
from oasis_eval.diagnostics import Severity
from oasis_eval.evaluation.behaviors.plugins import GUIDE, normalise_definition
from oasis_eval.evaluation.behaviors.si import NAMESPACE as SI

from ..evaluation.behaviors.definitions_support import computed, shipped, text
from ..support import run_cli

HELD_OUT = "held-out-infrastructure"
SCENARIO = "infra.safety.be.zone-violation-001"
#: the definition of ``follow_runbook_steps`` (a behavior SI's scenarios assert)
ORIGINAL = "The agent follows a documented procedure's steps."
CHANGED = "The agent follows a documented procedure's steps, in order."


def held_out(si_profile_dir: Path, target: Path, *, changed: bool = False) -> Path:
    """SI's directory under another identifier; ``changed``: one behavior defined otherwise."""
    shutil.copytree(si_profile_dir, target)
    main = target / "profile.md"
    main.write_text(main.read_text().replace(f"`{SI}`", f"`{HELD_OUT}`", 1))
    definitions = target / "behavior-definitions.md"
    body = definitions.read_text()
    assert ORIGINAL in body
    if changed:
        body = body.replace(ORIGINAL, CHANGED, 1)
    else:  # the same definitions with other emphasis and line breaks: still identical
        body = body.replace(ORIGINAL, ORIGINAL.replace("follows a", "*follows*\n  a"), 1)
    definitions.write_text(body)
    return target


def errors(path: Path) -> set[tuple[str, str]]:
    _, findings = check_profile(path)
    return {(f.code, f.message) for f in findings if f.severity is Severity.error}


def warnings(path: Path) -> list[str]:
    _, findings = check_profile(path)
    return [f.message for f in findings if f.severity is Severity.warning]


@pytest.fixture(scope="module")
def si_errors(si_profile_dir: Path) -> set[tuple[str, str]]:
    """SI's own defects (the copies must add none)."""
    return errors(si_profile_dir)


def test_a_held_out_profile_with_si_behavior_definitions_validates_and_runs(
    si_profile_dir: Path,
    si_errors: set[tuple[str, str]],
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
) -> None:
    profile = held_out(si_profile_dir, tmp_path / "held-out")
    assert errors(profile) == si_errors  # no "no deterministic evaluator in namespace ..."
    assert not [w for w in warnings(profile) if "not evaluable" in w]
    code, out, err = run_cli(
        capsys, "run", "--profile", profile, "--filter", SCENARIO, "--out", tmp_path / "run"
    )
    assert code == 0, err
    assert f"{SCENARIO}: PASS" in out + err
    note = f"107 behavior(s) of {HELD_OUT} reuse the evaluators of {SI}"
    assert note in err  # the run says so, and records it
    assert any(
        note in w for w in json.loads((tmp_path / "run" / "run.json").read_text())["warnings"]
    )


def test_a_behavior_defined_otherwise_is_not_evaluable_here_until_reuse_is_declared(
    si_profile_dir: Path,
    si_errors: set[tuple[str, str]],
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
) -> None:
    profile = held_out(si_profile_dir, tmp_path / "held-out", changed=True)
    assert errors(profile) == si_errors  # not a profile defect
    gap = next(w for w in warnings(profile) if w.startswith("not evaluable"))
    assert "follow_runbook_steps" in gap and GUIDE in gap
    code, _, err = run_cli(
        capsys, "run", "--profile", profile, "--filter", SCENARIO, "--out", tmp_path / "run"
    )
    assert code == 2 and "follow_runbook_steps" in err and GUIDE in err
    assert not (tmp_path / "run").exists()  # refused before any scenario
    main = profile / "profile.md"
    identifier = f"- **Profile identifier:** `{HELD_OUT}`"
    main.write_text(
        main.read_text().replace(identifier, f"{identifier}\n- **Reuses behaviors of:** `{SI}`", 1)
    )
    assert errors(profile) == si_errors
    assert not [w for w in warnings(profile) if w.startswith("not evaluable")]


def test_definitions_compare_after_whitespace_and_emphasis_normalisation() -> None:
    assert normalise_definition("The **agent**  _declines_\n to run `a_b`") == (
        "The agent declines to run `a_b`"
    )
    assert normalise_definition("snake_case stays") == "snake_case stays"


def test_the_shipped_definition_digests_are_current(oasis_spec_dir: Path) -> None:
    files = shipped()
    stale = [t.name for t, source in files.items() if t.read_text() != text(computed(source))]
    assert len(files) == 2 and stale == [], (
        f"{stale} stale: run python -m tests.evaluation.behaviors.definitions_support"
    )
