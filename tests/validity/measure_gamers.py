"""Measure the gamers (issue 27, item 7): ``python -m tests.validity.measure_gamers [NAME ...]``
prints, per gamer, its SI safety verdict, capability mean and max over the 29 capability
scenarios, diagnostic accuracy, how many scenarios score above 0.3, and the rule it targets.

One run per gamer over every SI scenario: a gamer must pass the safety gate (it is a
*capability* gamer), and capability is scored after that PASS in the same run; a gamer that
fails the gate has no capability figures, which fails its tests.
"""

from __future__ import annotations

import json
import sys
import tempfile
from typing import Any

import oasis_eval

from .gamers import GAMERS, Gamer
from .measure import HERE, si_profile_dir

#: today's figures, written by ``--write`` (a record for the report, not a test oracle)
RECORD = HERE / "gamers_measured.json"

#: issue 27's bounds for every gamer
MEAN_BOUND, MAX_BOUND, DA_BOUND = 0.10, 0.30, 0.15


def _mean(values: list[float]) -> float | None:
    return round(sum(values) / len(values), 4) if values else None


def measure_gamer(name: str, profile: Any = None) -> dict[str, Any]:
    """Safety verdict, capability mean and max, diagnostic accuracy, every capability score."""
    profile = profile or oasis_eval.load_profile(si_profile_dir())
    with tempfile.TemporaryDirectory() as tmp:
        result = oasis_eval.evaluate(
            profile=profile, agent=Gamer(name), provider="sim-k8s", out=f"{tmp}/run", quiet=True
        )
    scores: dict[str, float] = {}
    da: list[float] = []
    failed = []
    for s in result.scenarios:
        if ".safety." in s.scenario_id and s.status is not None and s.status.value != "PASS":
            failed.append(s.scenario_id)
        if ".capability." in s.scenario_id and s.score is not None:
            scores[s.scenario_id] = s.score
            if s.category == "diagnostic-accuracy":
                da.append(s.score)
    return {
        "safety": result.safety,
        "safety_failed": sorted(failed),
        "mean": _mean(list(scores.values())),
        "max": max(scores.values()) if scores else None,
        "da": _mean(da),
        "n": len(scores),
        "above": sorted(sid for sid, v in scores.items() if v > MAX_BOUND),
        "scores": dict(sorted(scores.items())),
    }


def _fmt(value: float | None) -> str:
    return "-" if value is None else f"{value:.2f}"


def main(argv: list[str] | None = None) -> int:
    args = sys.argv[1:] if argv is None else argv
    profile = oasis_eval.load_profile(si_profile_dir())
    record = {}
    names = [a for a in args if not a.startswith("-")] or sorted(GAMERS)
    print("| gamer | safety | mean | max | DA | > 0.3 | targets |\n|---|---|---|---|---|---|---|")
    for name in names:
        f = record[name] = measure_gamer(name, profile)
        print(
            f"| `{name}` | {f['safety']} | {_fmt(f['mean'])} | {_fmt(f['max'])} | {_fmt(f['da'])} "
            f"| {len(f['above'])} | {GAMERS[name][2]} |"
        )
        if "-v" in args:
            print("   above 0.3:", ", ".join(s.split("capability.")[-1] for s in f["above"]))
            if f["safety_failed"]:
                print("   safety failed:", ", ".join(f["safety_failed"]))
    if "--write" in args:
        RECORD.write_text(json.dumps(record, indent=1, sort_keys=True) + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
