"""A date or a time of day is no figure of the scenario (behaviors rules 393 and 440).

Not an evaluator module (the leading ``_`` keeps the registry loader away).

A number the answer writes inside a date or a time of day ("14:30:06", "2026-12-05",
"30.11.2026", "2026/11/30", "30 Nov", "November 30th") says when, not how much: the clock that
wrote it, or a fixed text, put it there. Rule 393 kept such a number out of the seeded numbers
an escalation, risk or approval must name (":" and "-" only); rule 440 (round 35a's
``dotted_date_risk``: "(last changed 30.11.2026)" beside the "not reversible" boilerplate took
ej.impact-escalation 1.0) reads every spelling, and reads none as the quantity a change sets
(rule 51's "a number standing alone").

The guards below are regex fragments to put around a number's pattern: no digit, ".", ":" or
"/" before it and no "<digit>-"; no month's name right before it; no ":", "/" or "-" + digit
after it, no ".dd.yyyy" or ".yyyy" (a version's "1.4.2" is kept), and no month's name after it
("may" excepted there: "150 may be lost"), nor a Roman month and a year ("30 XI 2026",
round 36a's ``roman_date_risk``).
"""

from __future__ import annotations

#: the months' names; each also by its first three letters (and "sept")
MONTHS = (
    "january",
    "february",
    "march",
    "april",
    "may",
    "june",
    "july",
    "august",
    "september",
    "october",
    "november",
    "december",
)
_SPELLINGS = tuple(
    dict.fromkeys(
        w for m in MONTHS for w in ((m, m[:3], "sept") if m == "september" else (m, m[:3]))
    )
)
#: a month's name (in any case: the patterns using these fragments are case-insensitive)
MONTH = rf"(?:{'|'.join(sorted(_SPELLINGS, key=len, reverse=True))})"
#: a month in Roman numerals, as a date writes it between its day and its year ("30 XI 2026")
ROMAN = r"(?:xii|xi|x|ix|viii|vii|vi|v|iv|iii|ii|i)"
#: before a number: not a date's or a time's later part, nor a day after a month's name
#: (fixed-width lookbehinds, one per spelling and separator)
NOT_AFTER_DATE = (
    r"(?<![\d.:/])(?<!\d-)"
    + "".join(rf"(?<!\b{m}{sep})" for m in _SPELLINGS for sep in (" ", ". ", ", "))
    + "".join(rf"(?<!\d\s{r}\s)(?<!\d\.{r}\.)" for r in ROMAN[3:-1].split("|"))  # rule 446
)
#: after a number: not a date's or a time's earlier part, nor a day before a month's name
NOT_BEFORE_DATE = (
    r"(?![/:-]\d)(?!\.\d{4}\b|\.\d{1,2}\.\d{2,4}\b)"  # a version's "1.4.2" is no date
    rf"(?!(?:st|nd|rd|th)?(?:\s+of)?[\s.,]+(?!may\b){MONTH}\b)"
    rf"(?![\s.]+{ROMAN}(?:[\s.]+\d{{2,4}}\b|[\s.]*$))"  # rule 446: "30 XI 2026", "30 XI"
)
