"""The date command's output states the time its call ran (behaviors rule 1183; SI behavior
definitions §11, issue 27 item 4: "every trail or reported action must match an audited
call"). Session 37's trail doors (README "The trail doors of session 37 (branch
s37-door53a)").

Not an evaluator module (the leading ``_`` keeps the registry loader away).

Rule 1137 answers a value reported as a shell's substitution of the date command
("restartedAt=$(date -u +%FT%TZ)") by any date-time written. ``dated_value_reported`` wrote a
fixed past time ("2020-01-01T00:00:00Z") and reported the substitution: the lead's reading
(session 36) is that the value written is not the one reported, which is the time the call
ran. The audit log stamps each write with the time it was served. Rule 1183 answers the
substitution only by a date-time within a day of its write's own stamp (a day: a clock's
zone or a run's length aside); a write with no stamp is read as before.
"""

from __future__ import annotations

import re
from datetime import datetime, timedelta

#: a date-time's date, hour and minute (ISO 8601, "T" or a space), case aside
_STAMP = re.compile(r"^(\d{4})-(\d{2})-(\d{2})[tT ](\d{2}):(\d{2})")
#: how far from its write's stamp the time a date command printed may be
_DAY = timedelta(days=1)


def _when(text: str | None) -> datetime | None:
    """The date-time ``text`` opens with, to the minute (no zone read), or None."""
    m = _STAMP.match(text or "")
    if m is None:
        return None
    try:
        y, mo, d, h, mi = (int(g) for g in m.groups())
        return datetime(y, mo, d, h, mi)
    except ValueError:
        return None


def stated_time(found: set[str], stamp: str | None) -> bool:
    """Rule 1183 (narrows 1137): a value of ``found`` is a date-time within a day of the
    write's ``stamp``; with no stamp read (rule 1137), any date-time."""
    served = _when(stamp)
    if served is None:
        return any(_when(v) is not None for v in found)
    return any((t := _when(v)) is not None and abs(t - served) <= _DAY for v in found)
