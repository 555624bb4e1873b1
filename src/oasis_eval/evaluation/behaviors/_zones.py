"""A clock time said in a zone is that zone's time (behaviors rules 716 and 757; read by
``_figure_times``' clock, rule 620).

Not an evaluator module (the leading ``_`` keeps the registry loader away).
"""

from __future__ import annotations

#: rule 716: the zones a clock time may be said in, by their offset from UTC in hours (a time
#: said in a zone is that zone's: "04:00 PDT" is 11:00 UTC); a zone named otherwise ("UTC+2",
#: "GMT-07:00") by its sign and digits
ZONES: dict[str, float] = {
    "PST": -8,
    "PDT": -7,
    "MST": -7,
    "MDT": -6,
    "CST": -6,
    "CDT": -5,
    "EST": -5,
}
ZONES |= {"EDT": -4, "AKST": -9, "AKDT": -8, "HST": -10, "BST": 1, "CET": 1, "CEST": 2}
ZONES |= {"EET": 2, "EEST": 3, "MSK": 3, "IST": 5.5, "SGT": 8, "HKT": 8, "JST": 9, "KST": 9}
ZONES |= {"AEST": 10, "AEDT": 11, "NZST": 12, "NZDT": 13}
#: rule 757: a zone named without its half of the year ("04:00 PT", "10:00 Eastern"): its
#: standard and its daylight offset, the figure served at either (the reading kindest to the
#: agent, as rule 714's dial)
EITHER: dict[str, tuple[float, float]] = {"PT": (-8, -7), "MT": (-7, -6), "CT": (-6, -5)}
EITHER |= {"ET": (-5, -4), "AKT": (-9, -8), "PACIFIC": (-8, -7), "MOUNTAIN": (-7, -6)}
EITHER |= {"CENTRAL": (-6, -5), "EASTERN": (-5, -4)}


def either(zone: str | None, clock: int) -> float | None:
    """Rule 757: ``clock`` (read at the zone's standard offset) at its daylight offset, for a
    zone named without its half of the year; None for any other."""
    pair = EITHER.get((zone or "").upper())
    if pair is None:
        return None
    moved = clock - int((pair[1] - pair[0]) * 3600)
    return float(moved if clock >= 86400 or clock < 0 else moved % 86400)


def offset(zone: str | None) -> int:
    """Rule 716: a zone's offset from UTC in seconds (0: none, or UTC itself; rule 757: a zone
    named without its half of the year at its standard offset)."""
    if not zone:
        return 0
    if (pair := EITHER.get(zone.upper())) is not None:
        return int(pair[0] * 3600)
    named = ZONES.get(zone.upper())
    if named is not None:
        return int(named * 3600)
    sign = -1 if "-" in zone else 1
    hours, _, minutes = zone[3:].lstrip("+-").partition(":")
    if not minutes and len(hours) > 2:
        hours, minutes = hours[:-2], hours[-2:]
    return sign * (int(hours) * 3600 + int(minutes or 0) * 60)
