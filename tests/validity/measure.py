"""Measure the validity corpus: ``python -m tests.validity.measure`` (from the repository root)
rewrites ``tests/validity/baseline.json``; ``--check`` only compares.

Every corpus agent, plus ``builtin:careful`` as the reference, runs on the SI profile and on
the built-in example profile in two runs each: the safety scenarios (the gate's verdict), and
the capability scenarios alone (``filters=["*.capability.*"]``). Capability is only scored
after a safety PASS, and most corpus agents would never reach it; a ``capability_only`` run
evaluates no safety (its verdict claims no safety value), so the capability scores are
measured for every agent whatever its safety verdict.
"""

from __future__ import annotations

import json
import os
import sys
import tempfile
from pathlib import Path
from typing import Any

import oasis_eval

from .agents import AGENTS, agent

HERE = Path(__file__).resolve().parent
BASELINE = HERE / "baseline.json"
#: the reference agent measured beside the corpus (its bounds: safety PASS, capability >= 0.95)
REFERENCE = "builtin:careful"

# The simulator's clock starts at the wall clock (issue 32); the suite pins it in the root
# conftest.py, and these command-line measurements pin the same instant (a figure said at a
# clock time is judged against the served timestamps, so an unpinned measurement would move
# with the hour it runs at and disagree with the tests).
os.environ.setdefault("OASIS_SIM_EPOCH", "2024-05-14T09:30:00Z")


def si_profile_dir() -> Path:
    configured = os.environ.get("OASIS_SPEC_DIR")
    root = Path(configured) if configured else HERE.parents[2] / "shared" / "oasis-spec"
    return root / "profiles" / "software-infrastructure"


#: free bytes a memory file system must have to hold the measurements' run directories
SCRATCH_FREE = 1 << 30


def _scratch_dir() -> str | None:
    """``/dev/shm`` where it is a writable memory file system with room, else the default
    temporary directory. A measurement's run directory is read once and deleted, and the
    engine flushes every finished scenario to disk (29 ``fdatasync`` and a ``syncfs`` a
    gamer: on this machine 0.9-1.6 s of wall a gamer, waited with the core idle; ci35), which a
    memory file system answers at once: the same files, the same bytes, the same calls."""
    shm = "/dev/shm"
    try:
        stat = os.statvfs(shm)
    except OSError:
        return None
    room = stat.f_bavail * stat.f_frsize >= SCRATCH_FREE
    return shm if room and os.access(shm, os.W_OK | os.X_OK) else None


SCRATCH = _scratch_dir()


def scratch() -> tempfile.TemporaryDirectory[str]:
    """A temporary directory for a measurement's run (:func:`_scratch_dir`)."""
    return tempfile.TemporaryDirectory(prefix="oasis-measure-", dir=SCRATCH)


def _run(profile: Any, who: Any, pattern: str) -> oasis_eval.EvaluationResult:
    with scratch() as tmp:
        return oasis_eval.evaluate(
            profile=profile,
            agent=who,
            provider="sim-k8s",
            filters=[pattern],
            capability_only="capability" in pattern,
            out=f"{tmp}/run",
            quiet=True,
        )


def _mean(values: list[float]) -> float | None:
    return round(sum(values) / len(values), 4) if values else None


def measure_profile(profile: Any, who: Any) -> dict[str, Any]:
    safety = _run(profile, who, "*.safety.*")
    capability = _run(profile, who, "*.capability.*")
    scenarios: dict[str, Any] = {}
    for s in safety.scenarios:
        if s.status is not None:
            scenarios[s.scenario_id] = {"status": s.status.value}
    by_category: dict[str, list[float]] = {}
    scores: list[float] = []
    for s in capability.scenarios:
        if s.state.value != "executed":
            continue
        entry: dict[str, Any] = {"score": s.score, "band": s.band}
        if s.status is not None:
            entry["status"] = s.status.value
        scenarios[s.scenario_id] = entry
        if s.score is not None:
            scores.append(s.score)
            by_category.setdefault(s.category, []).append(s.score)
    return {
        "safety": safety.safety,
        "mean_capability": _mean(scores),
        "categories": {c: _mean(v) for c, v in sorted(by_category.items())},
        "scenarios": scenarios,
    }


#: the names measured: every corpus agent and the reference, sorted
NAMES = tuple(sorted([*AGENTS, "careful"]))
#: the profiles measured, by their key in the baseline
PROFILES = ("example", "si")


def _profiles() -> dict[str, Any]:
    return {"example": None, "si": oasis_eval.load_profile(si_profile_dir())}


def measure_agent(name: str, profiles: dict[str, Any] | None = None) -> dict[str, Any]:
    """One agent's slice of the baseline: {profile: measurement}. Each slice is measured on
    its own, so the tests can spread the agents over the xdist workers (issue 31)."""
    profiles = profiles if profiles is not None else _profiles()
    who = REFERENCE if name == "careful" else agent(name)
    return {key: measure_profile(profiles[key], who) for key in PROFILES}


def measure() -> dict[str, Any]:
    """The whole baseline: {profile: {agent: measurement}}."""
    profiles = _profiles()
    slices = {name: measure_agent(name, profiles) for name in NAMES}
    return {key: {name: slices[name][key] for name in NAMES} for key in PROFILES}


def render(data: dict[str, Any]) -> str:
    return json.dumps(data, indent=1, sort_keys=True) + "\n"


def main(argv: list[str] | None = None) -> int:
    args = sys.argv[1:] if argv is None else argv
    text = render(measure())
    if "--check" in args:
        same = BASELINE.is_file() and BASELINE.read_text(encoding="utf-8") == text
        print("baseline up to date" if same else "baseline differs from a fresh measurement")
        return 0 if same else 1
    BASELINE.write_text(text, encoding="utf-8")
    print(f"wrote {BASELINE}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
