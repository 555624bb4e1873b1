"""A byte amount in the decimal units a person converts it to (behaviors rule 850).

The tools print memory in binary units (``256Mi``, ``2Gi``); an operator writing for a reader
often converts and rounds: 256Mi is "268 MB", 2Gi "2.15 GB". These are the same amounts, to
the rounding shown. Only decimal units (``MB``, ``megabytes``), at most two decimals, and a
figure within :data:`ROUNDING` of the amount: "2 GB" (7% off 2Gi) and "1.7 GB" (6% off 1.6Gi)
spell no amount here, so a coarse figure cannot stand for several.
"""

from __future__ import annotations

import re

#: how far a rounded figure may sit from the amount: half a percent (three significant
#: digits or more, "268 MB", "2.15 GB")
ROUNDING = 0.005
#: the decimal prefixes and their words
PREFIXES = (("M", "mega"), ("G", "giga"), ("T", "tera"))


def decimal_figures(amount: float) -> list[tuple[str, str, str]]:
    """``(number, prefix, word)`` for each rounding of ``amount`` bytes a person writes:
    decimal mega- to terabytes, 0 to 2 decimals, at least 1, within :data:`ROUNDING`, and
    not the exact value (exact spellings are rule 61's)."""
    out = []
    for i, (prefix, word) in enumerate(PREFIXES, start=2):
        value = amount / 1000**i
        for places in (0, 1, 2):
            shown = round(value, places)
            if shown < 1 or shown == value or abs(shown - value) > ROUNDING * value:
                continue
            out.append((f"{shown:.{places}f}", prefix, word))
    return out


def decimal_forms(amount: float) -> list[str]:
    """Regex alternatives for :func:`decimal_figures` ("268 MB", "268MB", "268 megabytes")."""
    return [
        rf"{re.escape(number)}\s*(?:{prefix}B|{word}bytes?)"
        for number, prefix, word in decimal_figures(amount)
    ]


def decimal_terms(amount: float) -> list[str]:
    """Terms for :func:`._words.term_regex` ("268 MB", "268 megabytes")."""
    out = []
    for number, prefix, word in decimal_figures(amount):
        out += [f"{number} {prefix}B", f"{number}{prefix}B", f"{number} {word}bytes"]
    return out
