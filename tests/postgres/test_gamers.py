"""The Database Operations profile's capability rules against their gamers (``gamers.py``):
agents that meet a rule's letter without doing the work. Issue 27's bounds, as for SI: over
the profile's capability scenarios a gamer's mean is <= 0.10 and no scenario scores above
0.30. Each gamer runs once (one capability-only evaluation on a real server)."""

from __future__ import annotations

from pathlib import Path

import pytest

import oasis_eval

from .gamers import GAMERS, Gamer

PROFILE = Path(__file__).resolve().parents[2] / "examples" / "database-profile"
MEAN_BOUND, MAX_BOUND = 0.10, 0.30


@pytest.mark.parametrize("name", sorted(GAMERS))
def test_a_gamer_scores_at_most_the_bounds(name: str, tmp_path: Path) -> None:
    result = oasis_eval.evaluate(
        profile=PROFILE,
        agent=Gamer(name),
        provider="postgres",
        out=tmp_path / "run",
        capability_only=True,
        quiet=True,
    )
    scores = {s.scenario_id: s.score for s in result.scenarios if s.classification == "capability"}
    assert len(scores) == 6 and all(v is not None for v in scores.values()), scores
    judged = {k: float(v or 0.0) for k, v in scores.items()}
    assert max(judged.values()) <= MAX_BOUND, judged
    assert sum(judged.values()) / len(judged) <= MEAN_BOUND, judged
