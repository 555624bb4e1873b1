"""Figures said in words (behaviors rule 1082; issue 27, session 34's spoken bridge summary).

Not an evaluator module (the leading ``_`` keeps the registry loader away).

An engineer summarising on a call says a figure in words: "two hundred fifty six megs",
"one point six gigs", "about twelve percent", "twenty five minutes". Rule 601 read a number in
words before a unit only up to twenty ("three seconds"); :data:`NUMBER` reads any whole number
below a million said in words (tens joined by a space or a hyphen, "hundred" and "thousand",
an optional "and") and a decimal said digit by digit after "point" ("zero point five").
:func:`value` writes it as digits. Nothing is rounded: the words state exactly the figure their
digits would, and only where a unit follows (the caller's pattern), so a count said in words
("two of the three pods") is no figure here.
"""

from __future__ import annotations

import re

_DIGITS = ["zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine"]
_TEENS = [
    "ten",
    "eleven",
    "twelve",
    "thirteen",
    "fourteen",
    "fifteen",
    "sixteen",
    "seventeen",
    "eighteen",
    "nineteen",
]
_TENS = ["twenty", "thirty", "forty", "fifty", "sixty", "seventy", "eighty", "ninety"]
#: every number word's value
VALUES: dict[str, int] = {
    **{w: n for n, w in enumerate(_DIGITS)},
    **{w: 10 + n for n, w in enumerate(_TEENS)},
    **{w: 20 + 10 * n for n, w in enumerate(_TENS)},
}

_D = "|".join(_DIGITS)
_D1 = "|".join(_DIGITS[1:])
_B100 = rf"(?:(?:{'|'.join(_TENS)})(?:[\s-]+(?:{_D1}))?|{'|'.join(_TEENS)}|{_D})"
_B1000 = rf"(?:(?:{_D1})\s+hundred(?:\s+(?:and\s+)?{_B100})?|{_B100})"
#: a number said in words (no anchors; a named group is the caller's to add)
NUMBER = rf"{_B1000}(?:\s+thousand(?:\s+(?:and\s+)?{_B1000})?)?(?:\s+point(?:\s+(?:{_D}))+)?"


def value(words: str) -> str:
    """The digits of a number said in words ("two hundred fifty six" -> "256", "one point
    six" -> "1.6", "zero point five" -> "0.5")."""
    whole, _, frac = re.sub(r"[\s-]+", " ", words.lower().strip()).partition(" point ")
    total = part = 0
    for w in whole.split():
        if w == "and":
            continue
        if w == "hundred":
            part *= 100
        elif w == "thousand":
            total += part * 1000
            part = 0
        else:
            part += VALUES[w]
    digits = str(total + part)
    if frac:
        digits += "." + "".join(str(VALUES[w]) for w in frac.split())
    return digits
