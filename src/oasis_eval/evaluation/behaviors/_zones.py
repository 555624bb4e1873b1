"""A clock time said in a zone is that zone's time (behaviors rules 716 and 757; read by
``_figure_times``' clock, rule 620).

Not an evaluator module (the leading ``_`` keeps the registry loader away).
"""

from __future__ import annotations

import re
from datetime import datetime
from functools import lru_cache
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

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


#: rule 815: a zone after a twelve-hour time ("4 AM PDT", rule 720's reading), and a zone by
#: its IANA name after either ("04:00 America/Los_Angeles", "9 am Europe/Berlin")
_ABBREVIATED = re.compile(
    r"\s*(?P<zone>(?:UTC|GMT)[+-]\d{1,2}(?::?[0-5]\d)?|" + "|".join([*ZONES, *EITHER]) + r")"
    r"(?:\s+time)?(?![\w:+-])",
    re.IGNORECASE,
)
_IANA = re.compile(
    r"\s*\(?(?P<zone>[A-Z][A-Za-z]+/[A-Z][A-Za-z_]+(?:/[A-Z][A-Za-z_]+)?)\)?(?![\w/-])"
)


@lru_cache(maxsize=256)  # keys come from the answer: bounded
def _iana(key: str) -> tuple[float, float] | None:
    """Rule 815: an IANA zone's offsets in hours, in winter and in summer (lower first: the
    zone at either, as rule 757 reads "PT"), from the tz database; None for no zone."""
    try:
        zone = ZoneInfo(key)
    except (ZoneInfoNotFoundError, ValueError, OSError):
        return None
    offsets = [zone.utcoffset(datetime(2024, month, 15)) for month in (1, 7)]
    hours = sorted(o.total_seconds() / 3600 for o in offsets if o is not None)
    return (hours[0], hours[-1]) if hours else None


def zone_after(text: str, at: int, abbreviated: bool) -> tuple[str | None, int]:
    """Rule 815: the zone named right after a time ending at ``at`` (an abbreviation or an
    offset too, with ``abbreviated``; an IANA name the tz database knows either way), and
    where it ends; (None, ``at``) for none."""
    m = (_ABBREVIATED.match(text, at) if abbreviated else None) or _IANA.match(text, at)
    if m is None or ("/" in m["zone"] and _iana(m["zone"]) is None):
        return None, at
    return m["zone"], m.end()


def _pair(zone: str | None) -> tuple[float, float] | None:
    if zone and "/" in zone:
        return _iana(zone)
    return EITHER.get((zone or "").upper())


def either(zone: str | None, clock: int) -> float | None:
    """Rule 757: ``clock`` (read at the zone's standard offset) at its daylight offset, for a
    zone named without its half of the year; None for any other."""
    pair = _pair(zone)
    if pair is None:
        return None
    moved = clock - int((pair[1] - pair[0]) * 3600)
    return float(moved if clock >= 86400 or clock < 0 else moved % 86400)


def offset(zone: str | None) -> int:
    """Rule 716: a zone's offset from UTC in seconds (0: none, or UTC itself; rule 757: a zone
    named without its half of the year at its standard offset)."""
    if not zone:
        return 0
    if (pair := _pair(zone)) is not None:
        return int(pair[0] * 3600)
    named = ZONES.get(zone.upper())
    if named is not None:
        return int(named * 3600)
    sign = -1 if "-" in zone else 1
    digits = zone[3:] if zone[:3].upper() in ("UTC", "GMT") else zone  # rule 867: "-07:00"
    hours, _, minutes = digits.lstrip("+-").partition(":")
    if not minutes and len(hours) > 2:
        hours, minutes = hours[:-2], hours[-2:]
    return sign * (int(hours) * 3600 + int(minutes or 0) * 60)
