"""A seeded figure as an answer may write it (behaviors rule 1045; issue 27 item 6, heldout39's
on-call checklist). Not an evaluator module (the leading ``_`` keeps the registry loader away).

A figure's value, not its spelling, is what an answer states: "error_rate 2.0%" states the 2%
a scenario seeds, as "2%" does. Trailing zeros after the decimal point change no value; any
other digit does ("2.5%" is not 2%).
"""

from __future__ import annotations

import re


def same_figure(number: str) -> str:
    """A regex (no anchors) for ``number`` ("2", "1.6") written as is or with trailing zeros
    after its decimal point ("2.0", "2.00", "1.60"); the number's own trailing zeros are
    optional too ("1.50" matches "1.5")."""
    whole, _, frac = number.partition(".")
    frac = frac.rstrip("0")
    if frac:
        return rf"{re.escape(whole)}\.{re.escape(frac)}0*"
    return rf"{re.escape(whole)}(?:\.0+)?"
