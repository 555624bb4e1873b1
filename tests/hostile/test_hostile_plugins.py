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


def test_one_catastrophic_regex_call_is_stopped_at_the_bound(installed, tmp_path) -> None:
    """Session 27's known limit: one ``re`` call holding the interpreter (``(a+)+$`` on the
    answer's length in a's, 2^n steps) was never stopped by the watchdog thread; the runner
    judges on its main thread under a per-call SIGALRM (engine/plugin_alarm.py), which the
    matching loop heeds. In ``oasis run`` and in ``oasis replay``, at a 1 s bound."""
    control, out = _run(installed, tmp_path, "pass")
    assert control.returncode == 0, control.stderr[-2000:]
    done, late = _run(installed, tmp_path, "regex", "--plugin-timeout", "1")
    assert done.returncode == 4, done.stderr[-2000:]
    assert "ran past the 1 s bound" in done.stderr and repr(ENTRY) in done.stderr
    assert "Traceback" not in done.stderr and not (late / "verdict.json").exists()
    replayed = _oasis(installed, "regex", "replay", str(out), "--plugin-timeout", "1")
    assert replayed.returncode == 4, replayed.stderr[-2000:]
    assert "ran past the 1 s bound" in replayed.stderr and "Traceback" not in replayed.stderr


#: the scenario whose judgement ``raise-on-ad`` faults, and the one builtin:naive really FAILs
FAULTED = "cfg.safety.ad.self-granted-edit-001"
FAILED = "cfg.safety.ih.log-line-config-order-001"
#: serial, concurrent tasks, worker processes (engine/workers.py)
WAYS = {"serial": ["--parallel", "1"], "parallel": ["--parallel", "3"],
        "workers": ["--parallel", "3", "--workers", "2"]}  # fmt: skip


@pytest.fixture(scope="module")
def one_faulted(
    installed: tuple[Path, Path], tmp_path_factory: pytest.TempPathFactory
) -> dict[str, tuple[subprocess.CompletedProcess, Path]]:
    """The whole example profile with the plugin faulting on :data:`FAULTED` only, each way of
    :data:`WAYS`, for builtin:naive (a real FAIL elsewhere) and builtin:careful (none), then
    replays and a resume of those runs: {case: (its exit code and output, its run directory)}."""
    base = tmp_path_factory.mktemp("one-faulted")
    plan = []
    for agent in ("naive", "careful"):
        for way, extra in WAYS.items():
            out = str(base / f"{agent}-{way}")
            plan.append([f"{agent}-{way}", str(base), {"HOSTILE_MODE": "raise-on-ad"},
                         ["run", "--profile", str(installed[0]), "--agent", f"builtin:{agent}",
                          "--provider", "sim-k8s", *extra, "--out", out]])  # fmt: skip
    plan += [
        ["replay-same", str(base), {"HOSTILE_MODE": "raise-on-ad"},
         ["replay", str(base / "naive-parallel")]],
        ["replay-other", str(base), {"HOSTILE_MODE": "raise"},
         ["replay", str(base / "naive-parallel")]],
        ["resume-careful", str(base), {"HOSTILE_MODE": "raise-on-ad"},
         ["run", "--resume", str(base / "careful-serial")]],
    ]  # fmt: skip
    env = dict(os.environ, PYTHONPATH=str(installed[1]))
    env.pop("OASIS_DEBUG", None)
    done = subprocess.run(
        [sys.executable, "-c", CLI_DRIVER, json.dumps(plan), str(base / "results.json")],
        env=env,
        capture_output=True,
        text=True,
        timeout=900,
        check=False,
    )
    assert done.returncode == 0, done.stderr[-3000:]
    results = json.loads((base / "results.json").read_text(encoding="utf-8"))
    return {
        case: (subprocess.CompletedProcess([], code, out, err), base / case)
        for case, (code, out, err) in results.items()
    }


def _named(text: str) -> bool:
    """The fault named: entry point, behavior, scenario and what it raised."""
    return all(
        part in text
        for part in (repr(ENTRY), "'leave_foreign_configs_untouched'", FAULTED, "the plugin broke")
    )


@pytest.mark.parametrize("way", list(WAYS))
def test_a_plugin_fault_on_one_scenario_never_masks_a_safety_fail(one_faulted, way) -> None:
    """Core §3.6 (FAIL wins) and the project's rule: an agent never escapes a FAIL by reaching
    the harness. The fault stops :data:`FAULTED`'s judgement only; the real FAIL is the run's
    verdict (exit 1), aborted with the fault in ``abort_reason`` (05 §1), no conformance claim."""
    done, out = one_faulted[f"naive-{way}"]
    assert done.returncode == 1, (done.stdout[-2000:], done.stderr[-2000:])
    assert "Traceback" not in done.stdout + done.stderr
    verdict = json.loads((out / "verdict.json").read_text())
    verdict = verdict.get("verdict", verdict)
    assert verdict["safety"] == "FAIL" and "capability" not in verdict
    assert [f["scenario_id"] for f in verdict["safety_details"]["failures"]] == [FAILED]
    meta = verdict["metadata"]
    assert meta["aborted"] is True and _named(meta["abort_reason"])
    record = json.loads((out / "run.json").read_text())
    faulted = next(s for s in record["scenarios"] if s["scenario_id"] == FAULTED)
    assert faulted["state"] == "executed" and faulted.get("status") is None  # never PASS/FAIL
    assert not record.get("conformance_claim")
    assert _named(done.stdout + done.stderr)
    assert "phase capability" not in done.stdout + done.stderr  # Phase 2 never runs


@pytest.mark.parametrize("way", list(WAYS))
def test_a_plugin_fault_with_no_fail_is_still_exit_4_and_no_verdict(one_faulted, way) -> None:
    done, out = one_faulted[f"careful-{way}"]
    assert done.returncode == 4, (done.stdout[-2000:], done.stderr[-2000:])
    assert "Traceback" not in done.stdout + done.stderr and "ExceptionGroup" not in done.stderr
    assert _named(done.stderr) and "no verdict" in done.stderr
    assert not (out / "verdict.json").exists()
    assert "phase capability" not in done.stdout + done.stderr


def test_replay_and_resume_of_a_faulted_run_agree(one_faulted) -> None:
    """The same plugin replays the FAIL identically; a fault the run did not record (the
    plugin now faults on every scenario) is this replay's internal error; a resume of the
    no-FAIL run ends as the run did."""
    same, _ = one_faulted["replay-same"]
    assert same.returncode == 1 and "identical to the recorded" in same.stderr, same.stderr[-2000:]
    other, _ = one_faulted["replay-other"]
    assert (
        other.returncode == 4 and "no verdict" in other.stderr and "Traceback" not in other.stderr
    )
    resumed, _ = one_faulted["resume-careful"]
    assert resumed.returncode == 4, (resumed.stdout[-2000:], resumed.stderr[-2000:])
    assert _named(resumed.stderr) and "Traceback" not in resumed.stderr


def _driven(base: Path, plan: list, installed: tuple[Path, Path]) -> dict:
    """``plan`` run by one process (:data:`CLI_DRIVER`): {case: (exit code and output, dir)}."""
    env = dict(os.environ, PYTHONPATH=str(installed[1]))
    env.pop("OASIS_DEBUG", None)
    done = subprocess.run(
        [sys.executable, "-c", CLI_DRIVER, json.dumps(plan), str(base / "results.json")],
        env=env,
        capture_output=True,
        text=True,
        timeout=900,
        check=False,
    )
    assert done.returncode == 0, done.stderr[-3000:]
    results = json.loads((base / "results.json").read_text(encoding="utf-8"))
    return {
        case: (subprocess.CompletedProcess([], code, out, err), base / case)
        for case, (code, out, err) in results.items()
    }


@pytest.fixture(scope="module")
def fixed(
    one_faulted: dict, installed: tuple[Path, Path], tmp_path_factory: pytest.TempPathFactory
) -> dict[str, tuple[subprocess.CompletedProcess, Path]]:
    """s22-gate38: a copy of each builtin:careful run :func:`one_faulted` left with exit 4,
    resumed with the plugin fixed (``pass``), then replayed."""
    base = tmp_path_factory.mktemp("fixed")
    plan = []
    for way in WAYS:
        shutil.copytree(one_faulted[f"careful-{way}"][1], base / f"careful-{way}")
        plan += [
            [f"resume-{way}", str(base), {"HOSTILE_MODE": "pass"},
             ["run", "--resume", str(base / f"careful-{way}")]],
            [f"replay-{way}", str(base), {"HOSTILE_MODE": "pass"},
             ["replay", str(base / f"careful-{way}")]],
        ]  # fmt: skip
    # the FAIL run (its verdict written beside the fault) replayed with the plugin fixed
    shutil.copytree(one_faulted["naive-serial"][1], base / "unresumed")
    plan.append(["replay-unresumed", str(base), {"HOSTILE_MODE": "pass"},
                 ["replay", str(base / "unresumed")]])  # fmt: skip
    return _driven(base, plan, installed)


def test_a_replay_with_the_plugin_fixed_names_the_fault(fixed) -> None:
    """A replay cannot tell a fixed plugin from a changed file, so the mismatch stands (exit
    5 unsigned); beside it, the scenario whose recorded plugin fault the plugin now judges
    (api/replay.py::_faults_judged_now)."""
    done, _ = fixed["replay-unresumed"]
    assert done.returncode == 5, (done.stdout[-2000:], done.stderr[-2000:])
    assert "Traceback" not in done.stderr
    hint = next(line for line in done.stderr.splitlines() if FAULTED in line)
    assert "plugin fault" in hint and "the plugin the run used" in hint


@pytest.mark.parametrize("way", list(WAYS))
def test_a_resume_after_the_plugin_is_fixed_judges_the_fault_again(fixed, way) -> None:
    """s22-gate38: a recorded plugin fault is a harness fault, not evidence. `oasis run
    --resume` with the plugin fixed judges the faulted scenario again from its kept evidence
    (never "tampered", exit 5), the run carries on through Phase 2, and replays identically."""
    done, _ = fixed[f"resume-{way}"]
    assert done.returncode == 0, (done.stdout[-2000:], done.stderr[-2000:])
    assert "Traceback" not in done.stdout + done.stderr and "tamper" not in done.stderr
    assert "phase capability" in done.stdout + done.stderr  # Phase 2 ran
    run_dir = fixed[f"replay-{way}"][1].parent / f"careful-{way}"
    record = json.loads((run_dir / "run.json").read_text())
    again = next(s for s in record["scenarios"] if s["scenario_id"] == FAULTED)
    assert again["status"] == "PASS" and again.get("fault") is None
    replayed, _ = fixed[f"replay-{way}"]
    assert replayed.returncode == 0 and "identical to the recorded" in replayed.stderr


def test_a_fault_run_says_how_to_resume_it(one_faulted) -> None:
    done, out = one_faulted["careful-parallel"]
    assert done.returncode == 4 and f"oasis run --resume {out}" in done.stderr


@pytest.fixture(scope="module")
def probe_faulted(
    installed: tuple[Path, Path], tmp_path_factory: pytest.TempPathFactory
) -> dict[str, tuple[subprocess.CompletedProcess, Path]]:
    """The adversarial phase (``--adversarial mutation``) with the plugin faulting on one
    archetype's probes only (``raise-on-probe``), each way of :data:`WAYS` for builtin:careful
    (core PASS) and once for builtin:naive (core FAIL), then a replay."""
    base = tmp_path_factory.mktemp("probe-faulted")
    adversarial = ["--adversarial", "mutation", "--probes", "4", "--seed", "0"]
    runs = [("careful", way) for way in WAYS] + [("naive", "parallel")]
    plan = [
        [f"{agent}-{way}", str(base), {"HOSTILE_MODE": "raise-on-probe"},
         ["run", "--profile", str(installed[0]), "--agent", f"builtin:{agent}",
          "--provider", "sim-k8s", *WAYS[way], *adversarial, "--out", str(base / f"{agent}-{way}")]]
        for agent, way in runs
    ]  # fmt: skip
    plan.append(["replay", str(base), {"HOSTILE_MODE": "raise-on-probe"},
                 ["replay", str(base / "careful-parallel")]])  # fmt: skip
    return _driven(base, plan, installed)


def _block(run_dir: Path) -> dict:
    verdict = json.loads((run_dir / "verdict.json").read_text())
    return verdict.get("verdict", verdict)


@pytest.mark.parametrize("way", list(WAYS))
def test_a_probe_plugin_fault_stops_that_probe_only_the_verdict_stands(probe_faulted, way) -> None:
    """07 §4.3: a plugin faulting while judging a probe never changes the core verdict and
    never ends the run: the probe is neither PASS nor FAIL, named in the block's
    ``judgement_faults``, the other probes judged; the verdict is written and the exit code
    says a harness fault happened (4: never 0 over a fault, 1 still wins)."""
    done, out = probe_faulted[f"careful-{way}"]
    assert done.returncode == 4, (done.stdout[-2000:], done.stderr[-2000:])
    assert "Traceback" not in done.stdout + done.stderr and "ExceptionGroup" not in done.stderr
    verdict = _block(out)
    assert verdict["safety"] == "PASS" and "capability" in verdict  # the core is untouched
    block = verdict["adversarial_verification"]
    faults = block["judgement_faults"]
    assert faults and all(".probe.s-ad-" in f and repr(ENTRY) in f for f in faults)
    assert block["safety_results"]["total"] == block["probe_summary"]["total_probes"] - len(faults)
    assert "aborted" not in block
    record = json.loads((out / "run.json").read_text())
    for probe in record["adversarial"]["probes"]:
        faulted = ".probe.s-ad-" in probe["result"]["scenario_id"]
        assert (probe["result"].get("status") is None) == faulted  # never PASS or FAIL
    assert "ADVERSARIAL NOT JUDGED (plugin fault)" in done.stdout
    assert "not judged: plugin fault" in (out / "report.html").read_text()


def test_a_probe_plugin_fault_beside_a_core_fail_and_its_replay(probe_faulted) -> None:
    naive, out = probe_faulted["naive-parallel"]
    assert naive.returncode == 1 and _block(out)["adversarial_verification"]["judgement_faults"]
    replayed, _ = probe_faulted["replay"]
    assert replayed.returncode == 4 and "identical to the recorded" in replayed.stderr
