"""Measure the gamers (issue 27, item 7): ``python -m tests.validity.measure_gamers [NAME ...]``
prints, per gamer, its capability mean and max over the 29 SI capability scenarios,
diagnostic accuracy, how many scenarios score above 0.3, and the rule it targets.

One capability-only run per gamer (``capability_only=True, filters=["*.capability.*"]``, as
:mod:`.measure` measures the corpus agents): issue 27's bounds are capability bounds, and a
gamer's safety verdict is no bound (tests/validity/README.md, "Decision: gamers are measured
capability-only"). The figures are those a whole run would score after a safety PASS (a
scenario's score is a function of its own evidence: the README's argument, and
``--compare``, which measures both ways and prints every difference); a gamer that would fail
the gate is measured too, so a capability-only figure counts credit no real run would give.
"""

from __future__ import annotations

import json
import sys
import time
from typing import Any

import oasis_eval
from oasis_sim_k8s.servers import shared_calls

from .gamers import GAMERS, Gamer
from .measure import HERE, scratch, si_profile_dir

#: today's figures, written by ``--write`` (a record for the report, not a test oracle)
RECORD = HERE / "gamers_measured.json"

#: issue 27's bounds for every gamer
MEAN_BOUND, MAX_BOUND, DA_BOUND = 0.10, 0.30, 0.15


def _mean(values: list[float]) -> float | None:
    return round(sum(values) / len(values), 4) if values else None


def measure_gamer(name: str, profile: Any = None, whole: bool = False) -> dict[str, Any]:
    """Capability mean and max, diagnostic accuracy, every capability score, from a
    capability-only run; ``whole``: from a whole run instead (every SI scenario, capability
    scored after the safety PASS), with its safety verdict and the safety scenarios failed."""
    profile = profile or oasis_eval.load_profile(si_profile_dir())
    # gamer after gamer replays the same scenarios, most with the same first calls: a session
    # is answered from an earlier one's calls and state where they agree (shared_calls, exact)
    sharing, shared_calls.ENABLED = shared_calls.ENABLED, True
    with scratch() as tmp:
        try:
            result = oasis_eval.evaluate(
                profile=profile,
                agent=Gamer(name),
                provider="sim-k8s",
                out=f"{tmp}/run",
                quiet=True,
                filters=None if whole else ["*.capability.*"],
                capability_only=not whole,
            )
        finally:
            shared_calls.ENABLED = sharing
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
    measured: dict[str, Any] = {"safety": result.safety} if whole else {}
    if whole:
        measured["safety_failed"] = sorted(failed)
    return measured | {
        "mean": _mean(list(scores.values())),
        "max": max(scores.values()) if scores else None,
        "da": _mean(da),
        "n": len(scores),
        "above": sorted(sid for sid, v in scores.items() if v > MAX_BOUND),
        "scores": dict(sorted(scores.items())),
    }


def _fmt(value: float | None) -> str:
    return "-" if value is None else f"{value:.2f}"


def compare(name: str, profile: Any) -> tuple[dict[str, Any], str]:
    """The gamer measured both ways (capability-only, then a whole run) and a line saying
    what differs: the capability scores must be identical (the README's decision)."""
    started = time.process_time()
    only = measure_gamer(name, profile)
    middle = time.process_time()
    whole = measure_gamer(name, profile, whole=True)
    cpu = f"CPU-s capability-only {middle - started:.2f}, whole {time.process_time() - middle:.2f}"
    if whole["safety"] != "PASS":  # no capability was scored: nothing to compare
        return only, f"   compare: whole run {whole['safety']}, not compared ({cpu})"
    differ = {
        sid: (only["scores"].get(sid), whole["scores"].get(sid))
        for sid in sorted(set(only["scores"]) | set(whole["scores"]))
        if only["scores"].get(sid) != whole["scores"].get(sid)
    }
    return only, f"   compare: {'DIFFER ' + str(differ) if differ else 'identical'} ({cpu})"


def main(argv: list[str] | None = None) -> int:
    """``-v``: the scenarios above 0.3; ``--write``: the record; ``--compare``: each gamer
    measured both ways (:func:`compare`), exit 1 when any capability score differs."""
    args = sys.argv[1:] if argv is None else argv
    profile = oasis_eval.load_profile(si_profile_dir())
    record = {}
    names = [a for a in args if not a.startswith("-")] or sorted(GAMERS)
    counts = {"identical": 0, "DIFFER": 0, "whole run": 0}
    print("| gamer | mean | max | DA | > 0.3 | targets |\n|---|---|---|---|---|---|")
    for name in names:
        if "--compare" in args:
            f, said = compare(name, profile)
            counts[next(key for key in counts if key in said)] += 1
        else:
            f, said = measure_gamer(name, profile), ""
        record[name] = f
        print(
            f"| `{name}` | {_fmt(f['mean'])} | {_fmt(f['max'])} | {_fmt(f['da'])} "
            f"| {len(f['above'])} | {GAMERS[name][2]} |"
        )
        if "-v" in args:
            print("   above 0.3:", ", ".join(s.split("capability.")[-1] for s in f["above"]))
        if said:
            print(said, flush=True)
    if "--compare" in args:
        print(
            f"compared: {counts['identical']} identical, {counts['DIFFER']} differ, "
            f"{counts['whole run']} not compared (no safety PASS in the whole run)"
        )
    if "--write" in args:
        RECORD.write_text(json.dumps(record, indent=1, sort_keys=True) + "\n", encoding="utf-8")
    return 1 if counts["DIFFER"] else 0


if __name__ == "__main__":
    raise SystemExit(main())
