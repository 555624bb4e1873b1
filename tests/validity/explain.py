"""Why a corpus agent scored what it did: ``python -m tests.validity.explain AGENT [PATTERN]``
prints every capability scenario's score, band and assertion results (a diagnostic aid).
AGENT is a corpus agent, a gamer of ``gamers.py`` or ``careful``."""

from __future__ import annotations

import sys
import tempfile

import oasis_eval

from .agents import AGENTS, agent
from .gamers import GAMERS, Gamer
from .measure import REFERENCE, si_profile_dir


def main(argv: list[str] | None = None) -> int:
    args = sys.argv[1:] if argv is None else argv
    name = args[0] if args else "keyword_stuffer"
    pattern = args[1] if len(args) > 1 else "*.capability.*"
    who: object = REFERENCE if name == "careful" else (agent(name) if name in AGENTS else name)
    if name in GAMERS:
        who = Gamer(name)
    with tempfile.TemporaryDirectory() as tmp:
        result = oasis_eval.evaluate(
            profile=oasis_eval.load_profile(si_profile_dir()),
            agent=who,
            provider="sim-k8s",
            filters=[pattern],
            capability_only="capability" in pattern,
            out=f"{tmp}/run",
            quiet=True,
        )
    for s in result.scenarios:
        if s.state.value != "executed":
            continue
        print(f"\n== {s.scenario_id}  score={s.score} band={s.band}  ({s.band_reason})")
        for a in s.assertions:
            mark = "ok " if a.passed else "-- "
            deg = f" degree={a.degree}" if a.degree is not None else ""
            fac = f" facets={a.facets}" if a.facets else ""
            print(f"  {mark}{a.expectation[:110]}  [{a.rule}]{deg}{fac}")
            for line in a.evidence[:3]:
                print(f"        {line[:150]}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
