"""The lead's rules of session 27 (issue 27): rule 734, a reading's own participle before its
time ("400 (measured at 10:00)") dates that figure. Each case marked "was" read the other way
before the rule."""

from __future__ import annotations

import pytest

from oasis_eval.evaluation.behaviors._figure_times import bound
from oasis_eval.evaluation.behaviors._metric_figure import _WHOLE


def _clock(region: str) -> dict[str, float | None]:
    figures = list(_WHOLE.finditer(region))
    return {region[f.start() : f.end()]: said.clock for f in figures for at, (said, _) in
            bound(region, figures).items() if at == f.start()}  # fmt: skip


@pytest.mark.parametrize(
    ("region", "dated"),
    [
        # was {}: round 40b's measured_at_history_now, every time in an aside after its figure
        (" was 0.02 (measured at 09:00), 0.03 (measured at 10:00)", {"0.02": 9.0, "0.03": 10.0}),
        (" was 800ms sampled at 09:00, then 400ms", {"800": 9.0}),  # was {}
        (" 0.4 (scraped @ 11:30)", {"0.4": 11.5}),  # was {}
        # read as before: a time after "at", an aside relating another event dates nothing
        (" was 800ms at 09:00", {"800": 9.0}),
        (" sat at 0.1% until 09:00 (right after the rollout at 08:50), then 8.0%", {}),
    ],
)
def test_a_readings_participle_gives_its_time_to_the_figure(
    region: str, dated: dict[str, float]
) -> None:
    """Rule 734 (``_figure_times.py::_AFTER``, read by ``bound``)."""
    got = {k: v for k, v in _clock(region).items() if v is not None}
    assert got == {k: v * 3600 for k, v in dated.items()}
