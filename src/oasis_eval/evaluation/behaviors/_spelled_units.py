"""Figures written with their unit spelled out (behaviors rule 601; issue 27).

An operator writing for a non-expert spells units out: "from 500 mebibytes six hours ago to
1.6 gibibytes now ... its limit is 2.0 gibibytes", "80 percent", "about 190 milliseconds".
The scenario serves the same figures in the platform's notation (``500Mi``, ``1.6Gi``,
``2Gi``, ``80%``, ``190ms``), so the evidence gate (:func:`._reads.states_fact`) found none
of them stated. :func:`symbolic` writes a sentence's spelled figures in that notation where
the two are *equal*: a binary unit as its binary symbol (mebibytes ``Mi``, gibibytes ``Gi``),
a decimal unit as its decimal symbol (megabytes ``M``, gigabytes ``G``: 500 megabytes is
500,000,000 bytes, not ``500Mi``, so it never reads as a binary figure), "percent" as ``%``,
a duration as its Kubernetes suffix (``ms``, ``s``, ``m``, ``h``, ``d``), millicores as
``m``. A trailing zero fraction is the same number ("2.0 gibibytes" = ``2Gi``); a small
number spelled in words before a unit is its figure ("three seconds" = ``3s``; rule 1082, any
number said in words: "two hundred fifty six megs" = ``256Mi``, :mod:`._number_words`). Nothing is
rounded or converted between units: a spelled figure states only the served figure it equals.
The spoken units "megs" and "gigs" (rule 890) are the tools' own amounts said aloud ("1.6 gigs"
for ``1.6Gi``): an operator saying them repeats the figure it read, so they read as the binary
symbol (:data:`SPOKEN`, shared with rule 61's spellings of an amount).
Registers no behavior.
"""

from __future__ import annotations

import re

from ..reading import per_judgement
from ._cue import Cue
from ._number_words import NUMBER, value

#: spelled unit -> the platform's symbol (plural and singular; decimal units stay decimal)
UNITS: dict[str, str] = {
    "kibibyte": "Ki",
    "mebibyte": "Mi",
    "gibibyte": "Gi",
    "tebibyte": "Ti",
    "kilobyte": "k",
    "megabyte": "M",
    "gigabyte": "G",
    "terabyte": "T",
    "percent": "%",
    "per cent": "%",
    "millisecond": "ms",
    "second": "s",
    "minute": "m",
    "hour": "h",
    "day": "d",
    "millicore": "m",
    # rule 890: the spoken "megs" and "gigs" name the amount as the tools print it
    "meg": "Mi",
    "gig": "Gi",
}
#: rule 890: the spoken units, by the prefix they say ("M" megs, "G" gigs): a regex each
SPOKEN: dict[str, str] = {"M": r"megs?", "G": r"gigs?"}
#: rule 1082: any number said in words ("two hundred fifty six", "one point six")
_NUMBER = rf"(?P<n>\d+(?:\.\d+)?|{NUMBER})"
_UNIT = r"(?P<u>" + "|".join(u.replace(" ", r"\s+") for u in UNITS) + r")s?"
SPELLED = Cue(rf"(?<![\w.]){_NUMBER}[\s-]+{_UNIT}\b")


def _figure(number: str, trimmed: bool) -> str:
    """The number as a figure: digits kept as written, or (``trimmed``) without a zero
    fraction ("2.0" -> "2", "1.50" -> "1.5")."""
    figure = number if number[:1].isdigit() else value(number)
    if trimmed and "." in figure:
        figure = figure.rstrip("0").rstrip(".")
    return figure


@per_judgement
def symbolic(sentence: str, trimmed: bool = True) -> str:
    """``sentence`` with its spelled figures in the platform's notation (module docstring):
    "1.6 gibibytes" -> "1.6Gi", "2.0 gibibytes" -> "2Gi" (``trimmed``; "2.0Gi" without),
    "80 percent" -> "80%"; the sentence itself when it spells none. Once per sentence a
    judgement (the figure rules read a sentence's figures several times: issue 30)."""
    if not SPELLED.search(sentence):
        return sentence

    def write(m: re.Match[str]) -> str:
        unit = UNITS[re.sub(r"\s+", " ", m["u"].lower())]
        return _figure(m["n"], trimmed) + unit

    return SPELLED.sub(write, sentence)


def readings(sentences: list[str]) -> list[str]:
    """The sentences that spell a figure, in the platform's notation, both with the number as
    written and without a zero fraction (a served ``2.0Gi`` and ``2Gi`` are both read)."""
    out: list[str] = []
    for s in sentences:
        if SPELLED.search(s):
            out += dict.fromkeys((symbolic(s), symbolic(s, trimmed=False)))
    return out
