"""The parts of a day named in words, as spans of seconds from the day's start (behaviors
rules 670 and 715, read by ``_figure_times``' clock, rule 620), and minutes said after an
hour in words (rule 814: "at nine fifteen").

Not an evaluator module (the leading ``_`` keeps the registry loader away).
"""

from __future__ import annotations

#: rule 670: a part of a day named in words, as seconds from the start of the agent's last
#: call's day (UTC): "yesterday" is the day before, "last night" 18:00 to 06:00, "noon" this
#: day's 12:00 (a later one is still to come), "midnight" the one that began it ...
DAY_PARTS = {
    "the day before yesterday": (-2 * 86400.0, -86400.0),
    "yesterday": (-86400.0, 0.0),
    "last night": (-6 * 3600.0, 6 * 3600.0),
    "overnight": (-6 * 3600.0, 6 * 3600.0),
    "this morning": (0.0, 12 * 3600.0),
    "this afternoon": (12 * 3600.0, 18 * 3600.0),
    "this evening": (18 * 3600.0, 86400.0),
    "tonight": (18 * 3600.0, 86400.0),
    "earlier today": (0.0, 86400.0),
    "last week": (-7 * 86400.0, 0.0),
    "midnight": (-1800.0, 1800.0),
    "noon": (11.5 * 3600.0, 12.5 * 3600.0),
    "midday": (11.5 * 3600.0, 12.5 * 3600.0),
    "dawn": (5 * 3600.0, 7 * 3600.0),
    "sunrise": (5 * 3600.0, 7 * 3600.0),
    "dusk": (17 * 3600.0, 19 * 3600.0),
    "sunset": (17 * 3600.0, 19 * 3600.0),
    "lunchtime": (11.5 * 3600.0, 14 * 3600.0),
}
#: rule 715: the day's parts named by what happens in them, or by their light ("in the small
#: hours", "at first light", "around breakfast", "at night"), as rule 670's spans
DAY_PARTS |= {
    "small hours": (0.0, 5 * 3600.0),
    "wee hours": (0.0, 5 * 3600.0),
    "early hours": (0.0, 6 * 3600.0),
    "first light": (5 * 3600.0, 7 * 3600.0),
    "daybreak": (5 * 3600.0, 7 * 3600.0),
    "first thing": (6 * 3600.0, 10 * 3600.0),
    "breakfast time": (6 * 3600.0, 9.5 * 3600.0),
    "breakfast": (6 * 3600.0, 9.5 * 3600.0),
    "lunch time": (11.5 * 3600.0, 14 * 3600.0),
    "lunch": (11.5 * 3600.0, 14 * 3600.0),
    "tea time": (15 * 3600.0, 18 * 3600.0),
    "teatime": (15 * 3600.0, 18 * 3600.0),
    "dinner time": (17 * 3600.0, 21 * 3600.0),
    "dinnertime": (17 * 3600.0, 21 * 3600.0),
    "dinner": (17 * 3600.0, 21 * 3600.0),
    "supper": (17 * 3600.0, 21 * 3600.0),
    "nightfall": (17 * 3600.0, 20 * 3600.0),
    # rule 756: more parts named by what happens in them
    "elevenses": (10.5 * 3600.0, 11.5 * 3600.0),
    "brunch time": (10 * 3600.0, 13 * 3600.0),
    "brunch": (10 * 3600.0, 13 * 3600.0),
    "first coffee": (6 * 3600.0, 10 * 3600.0),
    "morning coffee": (6 * 3600.0, 10 * 3600.0),
}
#: rule 715: the bare parts, a time only narrowed or after "in the", "during the", "at", "by"
#: ("in the morning", "at night", "mid-morning"; not "the afternoon shift")
BARE_PARTS = {
    "morning": (0.0, 12 * 3600.0),
    "afternoon": (12 * 3600.0, 18 * 3600.0),
    "evening": (18 * 3600.0, 86400.0),
    "night": (-6 * 3600.0, 6 * 3600.0),
}


def narrowed(part: tuple[float, float], mod: str | None) -> tuple[float, float]:
    """Rule 715: ``part`` narrowed by its modifier: "early" its first third, "mid" the
    middle one, "late" the last, "pre" the two hours before it."""
    lo, hi = part
    third = (hi - lo) / 3
    return {
        "early": (lo, lo + third),
        "mid": (lo + third, hi - third),
        "late": (hi - third, hi),
        "pre": (lo - 7200.0, lo),
    }.get((mod or "").lower(), part)


#: rule 814: minutes said after an hour in words, as a time is read aloud ("nine fifteen",
#: "ten thirty", "eleven forty-five", "nine oh five")
_UNITS = ("one", "two", "three", "four", "five", "six", "seven", "eight", "nine")
_TEENS: tuple[str, ...] = ("ten", "eleven", "twelve", "thirteen", "fourteen", "fifteen")
_TEENS += ("sixteen", "seventeen", "eighteen", "nineteen")
_TENS = {"twenty": 20, "thirty": 30, "forty": 40, "fifty": 50}
_UNIT = "|".join(sorted(_UNITS, key=len)[::-1])
SPOKEN_MINUTES = (
    rf"(?:oh\s+(?:{_UNIT})|(?:{'|'.join(sorted(_TEENS, key=len)[::-1])})|"
    rf"(?:{'|'.join(_TENS)})(?:[- ](?:{_UNIT}))?)(?![\w-])"
)


def spoken_minutes(words: str) -> int:
    """Rule 814: the minutes :data:`SPOKEN_MINUTES` names ("forty-five" 45, "oh five" 5)."""
    parts = words.lower().replace("-", " ").split()
    if parts[0] == "oh":
        return _UNITS.index(parts[-1]) + 1
    if parts[0] in _TEENS:
        return _TEENS.index(parts[0]) + 10
    return _TENS[parts[0]] + (_UNITS.index(parts[1]) + 1 if len(parts) > 1 else 0)
