"""A sentence of times alone dates the figures said before it (rules 761 and 821).

"... was 0.02, 0.02 and 0.03. Those readings were taken at 09:00, 10:00 and 11:00.": the
second sentence gives no figure of its own, only the times of the list before it, as rule 721
dates a list said beside its times. Read by :mod:`._metric_figure`'s foreign-series reading.
"""

from __future__ import annotations

import re

from ._figure_times import runs, times_in

_I = re.IGNORECASE

#: rule 821: how many sentences saying no figure may stand between a list of figures and the
#: sentence of times dating it ("... was 0.02, 0.02 and 0.03. I read it hourly. Those readings
#: were taken at 09:00, 10:00 and 11:00.")
_TIMES_GAP = 3


def times_after(said: list[str], i: int) -> str | None:
    """Rules 761 and 821: the sentence of times alone after sentence ``i``, where only
    sentences with no digit (no figure, no time) stand between."""
    for j in range(i + 1, min(len(said), i + 2 + _TIMES_GAP)):
        if times_alone(said[j]):
            return said[j]
        if any(c.isdigit() for c in said[j]):
            return None
    return None


def times_alone(sentence: str) -> bool:
    """Rule 761: ``sentence`` says a list of two times or more (:func:`._figure_times.runs`) and no figure
    of its own ("Those readings were taken at 09:00, 10:00 and 11:00."): it dates the list of
    figures the sentence before it ends with, as rule 721 dates a list said beside its times.
    A count of things ("Those 3 readings") is no figure."""
    said = times_in(sentence)
    if not runs(sentence, said):
        return False
    cuts = [0, *(x for t in said for x in (t.start, t.end)), len(sentence)]
    rest = (_COUNTED.sub(" ", sentence[a:b]) for a, b in zip(cuts[::2], cuts[1::2], strict=True))
    return not any(c.isdigit() for part in rest for c in part)


#: rule 761: a count of things ("Those 3 readings"), no figure of a series
_COUNTED = re.compile(r"\b\d+\s+[a-z]{3,}s\b", _I)
