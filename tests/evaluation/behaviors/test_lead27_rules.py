"""The lead's rules of session 27 (issue 27): rule 734, a reading's own participle before its
time ("400 (measured at 10:00)") dates that figure; rule 743, a line of blanks and a dotted
word read in linear time; rule 744, rule 760's aside only in the figure's lead-in. Each case marked "was" read the other way
before the rule."""

from __future__ import annotations

import random
import re

import pytest

from oasis_eval.evaluation.behaviors._figure_times import bound
from oasis_eval.evaluation.behaviors._markdown import _RULE
from oasis_eval.evaluation.behaviors._metric_figure import _WHOLE
from oasis_eval.evaluation.behaviors._words import _TABLE_RULE
from oasis_eval.evaluation.behaviors.si._presupposed import presupposed
from oasis_eval.evaluation.behaviors.si._trail_table import SEPARATOR


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
        (" was (reading at 09:00) 0.4", {"0.4": 9.0}),  # was {}: round 41b's door of rule 760
        # rule 744: rule 760's aside in the figure's lead-in only, not after an event's words
        (" was (at 09:00) 0.4, then (at 10:00) 0.5", {"0.4": 9.0, "0.5": 10.0}),
        (" sat at 0.1 until api rolled out v2 (at 09:00), then 8.0 now", {}),  # was 8.0 at 09:00
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


# ---- rule 743: a line of blanks and a dotted word are read in linear time -------------------

_OLD_RULE = r"^\s*\|?\s*:?-{3,}:?\s*(?:\|\s*:?-{3,}:?\s*)*\|?\s*$"


def test_the_table_rule_matches_as_before_on_random_lines() -> None:
    """Rule 743 (``_words._TABLE_RULE``, ``_trail_table.SEPARATOR``, ``_markdown._RULE``):
    the same matches as the patterns with two blank runs side by side."""
    old = re.compile(_OLD_RULE)
    old_md = re.compile(_OLD_RULE.replace("{3,}", "{2,}"))
    rng = random.Random(743)
    for _ in range(20000):
        line = "".join(rng.choice([" ", "|", "-", ":", "\t", "a", "--"]) for _ in range(12))
        for before, after in ((old, _TABLE_RULE), (old, SEPARATOR), (old_md, _RULE)):
            got, was = after.match(line), before.match(line)
            if after is SEPARATOR and got and not was:  # rule 953: a one-dash cell by a pipe
                assert "|" in line and "-" in line, repr(line)
                continue
            assert (got and got.group()) == (was and was.group()), repr(line)


def test_a_line_of_blanks_and_a_dotted_word_are_read_in_linear_time() -> None:
    """Round 41b's ``dotted_or_runs_41b``: before rule 743 each of these took minutes (a
    million steps squared); the suite's per-test timeout fails a return to that."""
    blanks = " " * 300_000 + "x"
    assert _TABLE_RULE.match(blanks) is None and SEPARATOR.match(blanks) is None
    assert _RULE.match(blanks) is None
    dotted = "it is " + ".".join(["db"] * 100_000) + " or not"
    assert presupposed(dotted) == []
    # read as before: a name's possessive opening the phrase
    assert [p[:2] for p in presupposed("checkout's new pods are up")] == [
        ("checkout's new pods", "pods")
    ]
