"""A read that dates the errors shows their rise (behaviors rule 1126; issue 27, round 51b).
Not an evaluator module (the leading ``_`` keeps the registry loader away).

Rule 109 ties a rollout link to the errors' start the agent read: a value at or after the
rise, stated. Round 51b's ``instant_rate_rollout_said_51b`` read each error series once as an
instant query (the value now, 12%), never when the errors began, and linked the rollout to them
("it started with the last rollout"): ca.historical-context 1.0, as its written twin took on
main. A value now says the errors are high, not when they rose: to connect the timing (SI
behavior definitions §5, ``correlate_deployment_timing``) the read must show the rise. Where
the provider recorded what a metrics read served (rule 703's ``SERVED_VALUES``), a read dates
the errors only when one served series holds a value before the rise and one after it (its
smallest value at most half its largest, the rise rule 109's data reading asks). A read with
no record (another provider, an answer too large to record) is read as before, and so is a
Warning event's age (an event listing dates itself).
"""

from __future__ import annotations

import json
from typing import Any

from ....contract import SERVED_VALUES
from ... import bodies


def _served(entry: Any) -> Any:
    """The values a metrics read served, as its provider recorded them (None: no record)."""
    for holder in (bodies.extra(entry, "raw"), {"annotations": bodies.extra(entry, "annotations")}):
        notes = holder.get("annotations") if isinstance(holder, dict) else None
        if isinstance(notes, dict) and isinstance(notes.get(SERVED_VALUES), str):
            try:
                return json.loads(notes[SERVED_VALUES])
            except ValueError:
                return None
    return None


def _numbers(values: Any) -> list[float]:
    out = []
    for v in values if isinstance(values, list) else []:
        try:
            out.append(float(v))
        except (TypeError, ValueError):
            continue
    return out


def shows_rise(entry: Any) -> bool:
    """Rule 1126: ``entry`` (a read of the errors' carrier) served a series holding a value
    before the rise and one after it, or recorded nothing it served (read as before)."""
    rows = _served(entry)
    if not isinstance(rows, list):
        return True
    for row in rows:
        values = _numbers(row.get("values") if isinstance(row, dict) else None)
        if len(values) >= 2 and max(values) > 0 and min(values) * 2 <= max(values):
            return True
    return False
