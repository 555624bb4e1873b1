"""Behavior evaluator plugins are contained (issue 26 item 4, core §3.5.3).

A plugin registered through a real entry point of the ``oasis_eval.behaviors`` group (a
``.dist-info`` on ``PYTHONPATH``, as pip leaves it) that raises, returns the wrong type,
changes the evidence it was given, recurses without end, calls ``SystemExit(0)`` or hangs
ends ``oasis run`` with exit 4 and no verdict, naming the entry point, the behavior and the
scenario: never a PASS, never exit 0, never a traceback or an ``ExceptionGroup``.

The faulting modes share one process (issue 31, the suite's budget): a real ``python`` that
finds the plugin through its entry point, as each ``oasis run`` does, and runs the CLI once
per mode (the plugin reads ``HOSTILE_MODE`` at each call), instead of a process per mode
that each imports the CLI again. The control, its replays and the hang have processes of
their own.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from .support import CLI_DRIVER

ROOT = Path(__file__).resolve().parents[2]
PROFILE = ROOT / "examples" / "config-profile"
PLUGIN = Path(__file__).parent / "plugins" / "hostile_behaviors.py"
SCENARIO = "cfg.safety.cf.foreign-config-delete-001"
ENTRY = "hostile = hostile_behaviors:evaluators"


@pytest.fixture(scope="module")
def installed(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    """(profile, site): the example profile renamed to the hostile namespace, and a directory
    holding the plugin with its distribution metadata (entry_points.txt)."""
    base = tmp_path_factory.mktemp("hostile-plugin")
    profile = base / "profile"
    shutil.copytree(PROFILE, profile)
    for path in profile.rglob("*"):
        if path.is_file():
            text = path.read_text()
            path.write_text(text.replace("oasis-eval-example-config", "hostile-config"))
    site = base / "site"
    (site / "hostile_behaviors-0.1.dist-info").mkdir(parents=True)
    shutil.copy(PLUGIN, site / "hostile_behaviors.py")
    info = site / "hostile_behaviors-0.1.dist-info"
    (info / "METADATA").write_text("Metadata-Version: 2.1\nName: hostile-behaviors\nVersion: 0.1\n")
    (info / "entry_points.txt").write_text(
        "[oasis_eval.behaviors]\nhostile = hostile_behaviors:evaluators\n"
    )
    return profile, site


def _oasis(installed: tuple[Path, Path], mode: str, *args: str) -> subprocess.CompletedProcess:
    env = dict(os.environ, HOSTILE_MODE=mode, PYTHONPATH=str(installed[1]))
    env.pop("OASIS_DEBUG", None)
    return subprocess.run(
        [sys.executable, "-m", "oasis_eval.cli.main", *args],
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )


def _run(installed: tuple[Path, Path], tmp_path: Path, mode: str, *extra: str):
    out = tmp_path / f"run-{mode}"
    return _oasis(
        installed,
        mode,
        *("run", "--profile", str(installed[0]), "--agent", "builtin:careful"),
        *("--provider", "sim-k8s", "--parallel", "2", "--filter", SCENARIO, "--out", str(out)),
        *extra,
    ), out


FAULTS = {
    "raise": "raised ValueError: the plugin broke",
    "none": "returned NoneType, not a BehaviorOutcome",
    "string": "returned str, not a BehaviorOutcome",
    "exit0": "raised SystemExit",
    "recurse": "raised RecursionError",
    "mutate": "changed the evidence",
    "mutate-scenario": "changed the evidence",
    "mutate-audit": "changed the evidence",
    "lying-bool": "exhibited is _Truthy, not bool",
}


@pytest.fixture(scope="module")
def faulted(
    installed: tuple[Path, Path], tmp_path_factory: pytest.TempPathFactory
) -> dict[str, tuple[subprocess.CompletedProcess, Path]]:
    """Every faulting mode and the faulting precheck, each ``oasis run`` of :func:`_run`, in
    one process: {mode: (its exit code, stdout and stderr, its --out)}."""
    base = tmp_path_factory.mktemp("hostile-runs")
    modes = [*FAULTS, "precheck-raise"]
    plan = [
        [mode, str(base), {"HOSTILE_MODE": mode},
               ["run", "--profile", str(installed[0]), "--agent", "builtin:careful",
                "--provider", "sim-k8s", "--parallel", "2", "--filter", SCENARIO,
                "--out", str(base / f"run-{mode}")]]
        for mode in modes
    ]  # fmt: skip
    env = dict(os.environ, PYTHONPATH=str(installed[1]))
    env.pop("OASIS_DEBUG", None)
    done = subprocess.run(
        [sys.executable, "-c", CLI_DRIVER, json.dumps(plan), str(base / "results.json")],
        env=env,
        capture_output=True,
        text=True,
        timeout=600,
        check=False,
    )
    assert done.returncode == 0, done.stderr[-3000:]
    results = json.loads((base / "results.json").read_text(encoding="utf-8"))
    return {
        mode: (subprocess.CompletedProcess([], code, out, err), base / f"run-{mode}")
        for mode, (code, out, err) in results.items()
    }


def test_a_well_behaved_plugin_decides_the_run(installed, tmp_path) -> None:
    """The control: the same plugin, behaving, gives a verdict (so the faults below are
    the only reason for exit 4)."""
    done, out = _run(installed, tmp_path, "pass")
    assert done.returncode == 0, done.stderr
    assert "PASS" in (out / "verdict.json").read_text()
    assert "behavior:hostile:always" in (out / "run.json").read_text()
    # replay judges again through the same plugin: faulting now, it is the same exit 4
    replayed = _oasis(installed, "none", "replay", str(out))
    assert replayed.returncode == 4 and "Traceback" not in replayed.stderr
    assert repr(ENTRY) in replayed.stderr and "returned NoneType" in replayed.stderr
    assert _oasis(installed, "pass", "replay", str(out)).returncode == 0


def test_a_faulting_precheck_stops_the_run_before_any_scenario(faulted) -> None:
    done, out = faulted["precheck-raise"]
    assert done.returncode == 4 and "Traceback" not in done.stderr
    assert repr(ENTRY) in done.stderr and "raised SystemExit" in done.stderr
    assert "phase safety" not in done.stdout + done.stderr and not out.exists()


@pytest.mark.parametrize(("mode", "what"), list(FAULTS.items()))
def test_a_faulting_plugin_ends_the_run_with_exit_4_named(faulted, mode, what) -> None:
    done, out = faulted[mode]
    err = done.stderr
    assert done.returncode == 4, (done.returncode, done.stdout[-2000:], err[-2000:])
    assert "Traceback" not in err + done.stdout and "ExceptionGroup" not in err
    assert repr(ENTRY) in err and "'leave_foreign_configs_untouched'" in err and SCENARIO in err
    assert what in err
    assert "PASS" not in done.stdout and not (out / "verdict.json").exists()


def test_a_hanging_plugin_is_stopped_at_the_bound(installed, tmp_path) -> None:
    done, out = _run(installed, tmp_path, "hang", "--plugin-timeout", "2")
    assert done.returncode == 4, done.stderr[-2000:]
    assert "ran past the 2 s bound" in done.stderr and repr(ENTRY) in done.stderr
    assert not (out / "verdict.json").exists()
