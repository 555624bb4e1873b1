"""The time a figure of a series is said at, and what the series served then (behaviors rules
620-622; issue 27).

Not an evaluator module (the leading ``_`` keeps the registry loader away).

Rule 532 asks each figure a sentence gives of a seeded series to be one the audited reads
served of it. A figure said *at a time* claims more: that the series served it then ("400 at
09:00", "800 at 10:15 UTC", "0.2% six hours ago", "(30m ago 0.001)", "At 11:00 latency_p99
was 800"). Rule 620 reads the time a figure is said at (:func:`bound`, :func:`leading`);
rule 621 places it on the scenario's clock and gives what the series served around it
(:class:`ServedSeries`, built by ``_served.served_series``): a clock time of day is its
occurrence nearest the agent's last call (a later one is still to come, nothing served), a
relative time ("20 minutes ago") is counted back from the agent's reads of the series, each
within the time's own precision and the series' step. Only the served timestamps are read:
the audit log's stamps and the scenario's sample ages, never the wall clock. Rules 714-715
(round 40a): an hour in words on a twelve-hour dial ("nine o'clock", "half past ten") is a time
of day, and a part of a day named by what happens in it ("in the small hours", "at first
light", "around breakfast", "at night"; "pre-dawn", "mid-morning": the part narrowed) is a
part of a day as rule 670's are. Rule 720 (round 40b, folded into 714's reading): an hour with
its "am"/"pm" ("9 AM", "10:30 p.m.") is that one hour. Rule 721: a list of times said with a
list of as many figures dates them in order. Rules 756-757 (round 41a): minutes past or to an
hour in words ("at ten past nine") and more parts of a day ("elevenses", "brunch"); a zone
named without its half of the year ("04:00 PT") at either offset (``_zones.py``).
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Iterable
from dataclasses import dataclass, replace
from datetime import UTC, datetime, timedelta

from ..reading import per_judgement
from ._day_words import BARE_PARTS as _BARE_PARTS
from ._day_words import DAY_PARTS as _DAY_PARTS
from ._day_words import SPOKEN_MINUTES, spoken_minutes
from ._day_words import narrowed as _narrowed
from ._zones import EITHER, ZONES, either, offset, zone_after

_I = re.IGNORECASE
#: the step a recorded series is served at (the simulator's and a common scrape interval)
STEP = 30.0
#: how far back a seeded value with no sample times of its own is served (rule 621: the span
#: the SI scenarios' sample lists reach back, ``t: -6h``, and the history the simulator serves)
HISTORY = 6 * 3600.0
#: a time of day, with its date where one is written ("2024-05-14T09:00Z"), in UTC; it opens
#: with a digit either way, so "(?=\d)" first: the rest is tried at a digit only (issue 30);
#: rule 867: an ISO 8601 offset after a dated time ("2024-05-14T04:00-07:00") or after a blank
#: ("04:00 -07:00") is its zone (a range "09:00-10:00" is two times)
_CLOCK = (
    r"(?=\d)(?:(?P<date>\d{4}-\d{2}-\d{2})[T\s])?(?<![\d:.])(?P<h>[01]?\d|2[0-3]):(?P<m>[0-5]\d)"
    r"(?::(?P<s>[0-5]\d)(?:\.\d+)?)?(?![\d:])"
    r"(?:\s*(?P<zone>(?:UTC|GMT)[+-]\d{1,2}(?::?[0-5]\d)?|"
    + "|".join([*ZONES, *EITHER])
    + r"|(?(date)(?<=\d)[+-][01]\d:?[0-5]\d|(?!))|(?<=\s)[+-][01]\d:[0-5]\d)"  # rule 867
    r"(?:\s+time)?(?![\w:+-])"
    r"|\s*(?:UTC|GMT|Z)\b)?"
)
_COUNTS = {"a": 1, "an": 1, "one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6}
_COUNTS |= {"seven": 7, "eight": 8, "nine": 9, "ten": 10, "eleven": 11, "twelve": 12}
_COUNTS |= {"fifteen": 15, "twenty": 20, "thirty": 30, "forty": 40, "forty-five": 45}
_UNIT = {"s": 1.0, "m": 60.0, "h": 3600.0, "d": 86400.0}
#: a time counted back from now ("20 minutes ago", "6h ago", "an hour ago", "half an hour ago")
_AGO = (
    r"(?<![\w.])(?P<n>\d+(?:\.\d+)?|half\s+an?|" + "|".join(sorted(_COUNTS, key=len)[::-1]) + r")"
    r"\s*(?P<u>seconds?|secs?|s|minutes?|mins?|m|hours?|hrs?|h|days?|d)\s+ago\b"
)
#: rule 714: an hour of the clock in words, on a twelve-hour dial ("nine o'clock", "half past
#: ten", "a quarter to eleven")
_HOURS = (
    "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten", "eleven",
    "twelve",
)  # fmt: skip
_HOUR = r"(?:1[0-2]|0?[1-9]|" + "|".join(sorted(_HOURS, key=len)[::-1]) + ")"
_WORD_HOUR = "|".join(sorted(_HOURS, key=len)[::-1])
#: ... or an hour word alone after "at", "around", "about", "by" where no noun follows it
#: ("400 at nine, 800 at ten": not "at ten replicas")
_AT = r"(?:(?<=\bat\s)|(?<=\bby\s)|(?<=\babout\s)|(?<=\baround\s))"
#: rule 720 (folded into 714): an hour on a twelve-hour clock with its half of the day ("9 AM",
#: "10:30 p.m.", "nine pm"), read before rule 620's "10:30"; not "2 amps", "2 a month"
_MERIDIEM = r"(?<![\w:.'-])(?P<mh>" + _HOUR + r")(?::(?P<mm>[0-5]\d))?\s*(?P<half>[ap])\.?\s?m\b\.?"
#: rule 756: minutes past or to an hour in words, after "at", "by", "about", "around" ("at ten
#: past nine", "at twenty-five to eleven", "at 20 minutes past ten")
_MINUTES = {"five": 5, "ten": 10, "twenty": 20, "twenty-five": 25, "twenty five": 25}
_MINS = (
    _AT
    + r"(?:"
    + "|".join(k.replace(" ", r"\s+") for k in sorted(_MINUTES, key=len)[::-1])
    + r"|[1-5]?\d\s+minutes?)"
)
_DIAL = (
    r"(?<![\w-])(?:(?P<part>half|(?:a\s+)?quarter|" + _MINS + r")\s+(?P<side>past|to)\s+"
    r"(?P<ph>" + _HOUR + r")"
    r"(?:\s*o['\u2019]clock)?|(?P<oh>"
    + _HOUR
    + r")\s*o['\u2019]clock|"
    + _AT
    + r"(?P<bh>"
    + _WORD_HOUR
    + r")(?:(?:\s+|-)(?P<bm>"  # rule 814: "at nine fifteen", "at nine-fifteen"
    + SPOKEN_MINUTES
    + r"))?(?=\s*(?:[,;:.)!?]|$)|\s+(?:and|or|it|then|when|UTC|GMT|today|this|yesterday|sharp"
    r"|latency\w*|error\w*)\b))(?![\w-])"
)
_BARE = "|".join(_BARE_PARTS)
#: rule 715: a part narrowed by "early", "mid", "late" (its third) or "pre" (the two hours
#: before it), spaced or hyphenated ("pre-dawn", "mid-morning", "late last night")
_NARROW = r"(?P<mod>pre|mid|late|early)(?:-|\s+)"
_DAY = (
    r"(?<![\w-])(?:"
    + _NARROW
    + r")?(?P<day>"
    + "|".join(k.replace(" ", r"\s+") for k in _DAY_PARTS)
    + r")(?![\w-])|(?<![\w-])"
    + _NARROW.replace("mod", "bmod")
    + r"(?P<bare>"
    + _BARE
    + r")(?![\w-])|(?:(?<=\bin\sthe\s)|(?<=\bduring\sthe\s)|(?<=\bat\s)|(?<=\bby\s))"
    + r"(?P<bare2>"
    + _BARE
    + r")(?![\w-])"
)


TIME = re.compile(rf"(?:{_MERIDIEM})|(?:{_CLOCK})|(?:{_AGO})|(?:{_DIAL})|(?:{_DAY})", _I)
#: what may stand between a figure and the time it is said at ("800ms at 09:00", "400 (6h
#: ago)", "0.02 around 10:15"): its unit, then these words
_AFTER = frozenset({"at", "around", "about", "roughly", "approximately", "approx", "circa"})
_AFTER |= {"as", "of", "by", "on", "ca", "near", "@"}
_AFTER |= {"in", "the", "during"}  # rule 715: "400 in the small hours", "during the night"
#: rule 734: a reading's own participle ("400 (measured at 10:00)", "800ms sampled at 09:00"):
#: the time is the figure's, an aside opening right after it included (rule 731 keeps an
#: aside whose words relate another event, "(right after the rollout ~25m ago)", off it)
_AFTER |= {"measured", "sampled", "taken", "recorded", "observed", "seen", "scraped", "polled"}
_AFTER |= {"read", "logged", "captured", "reported", "reading", "sample", "measurement"}
#: rule 816: an aside opening right after the figure with one participle of a reading in -ed
#: ("0.4 (queried at 09:00)", "800ms (fetched @ 10:00)"): the time is the figure's, as rule
#: 734's listed participles say it
_READ_ASIDE = re.compile(
    r"(?:\s*(?:%|[a-z]{1,8}(?:/[a-z]{1,4})?))?\s*\(\s*[a-z]+ed\s+(?:at|around|about|@|on|as\s+of)"
    r"?\s*$",
    _I,
)
#: what may stand between a time and the figure said at it ("at 09:00 it was 400", "6h ago
#: 0.2%", "09:00: 400")
_BEFORE = frozenset({"it", "was", "were", "is", "stood", "read", "at", "of", "value", "reading"})
_BEFORE |= {"the", "had", "been", "then"}
#: punctuation either gap may hold (markdown marks, parentheses, a colon, an arrow's dash)
_MARKS = re.compile(r"[\s`*_~()\[\],:=|@>-]+")
#: a unit right after a figure ("800ms", "2 %", "1.6 GiB")
_UNIT_WORD = re.compile(r"^\s*(?:%|[a-z]{1,8}(?:/[a-z]{1,4})?)(?![a-z])", _I)
_WORD = re.compile(r"[a-z@]+", _I)


@dataclass(frozen=True)
class Said:
    """A time a figure is said at: a time of day (``clock`` seconds into the day, ``date``
    where written) or an age (``ago`` seconds before now); ``slack`` is its own precision."""

    start: int
    end: int
    clock: float | None = None
    date: str | None = None
    ago: float | None = None
    slack: float = 0.0
    day: tuple[float, float] | None = None  # rule 670: a part of a day, from its start
    dial: bool = False  # rule 714: a twelve-hour clock time (``clock`` or twelve hours on)
    alt: float | None = None  # rule 757: the same time in the zone's other half of the year


def _dial(m: re.Match[str]) -> float:
    """Rule 714: the seconds into a twelve-hour dial an hour in words names."""
    word = (m["oh"] or m["ph"] or m["bh"]).lower()
    hour = int(word) if word.isdigit() else _HOURS.index(word) + 1
    if m["part"] is None:
        return float(hour % 12 * 3600 + (spoken_minutes(m["bm"]) * 60 if m["bm"] else 0))
    part = " ".join(m["part"].lower().replace("-", " ").split())
    digits = re.match(r"\d+", part)
    minutes = (
        30
        if part == "half"
        else int(digits[0])
        if digits
        else _MINUTES.get(part, _MINUTES.get(part.replace(" ", "-"), 15))
    )
    signed = minutes if m["side"].lower() == "past" else -minutes
    return float((hour % 12 * 3600 + signed * 60) % 43200)


def _meridiem(m: re.Match[str]) -> float:
    """Rule 720: the seconds into the day an hour with its "am"/"pm" names."""
    word = m["mh"].lower()
    hour = int(word) if word.isdigit() else _HOURS.index(word) + 1
    half = 12 if m["half"].lower() == "p" else 0
    return float((hour % 12 + half) * 3600 + int(m["mm"] or 0) * 60)


@per_judgement
def times_in(text: str) -> list[Said]:
    """Every time ``text`` says, in order (rules 620, 670, 714-715 with 720); once per text a
    judgement (three rules read a region's times: issue 30)."""
    out = []
    for m in TIME.finditer(text):
        if m["day"] is not None:  # rule 670
            part = _DAY_PARTS[re.sub(r"\s+", " ", m["day"].lower())]
            out.append(Said(m.start(), m.end(), day=_narrowed(part, m["mod"])))
            continue
        if m["bare"] is not None or m["bare2"] is not None:  # rule 715
            part = _BARE_PARTS[(m["bare"] or m["bare2"]).lower()]
            out.append(Said(m.start(), m.end(), day=_narrowed(part, m["bmod"])))
            continue
        if m["mh"] is not None:  # rule 720: "9 AM", "10:30 p.m.": one hour, not either half
            zone, end = zone_after(text, m.end(), True)  # rule 815: "4 AM PDT"
            clock = int(_meridiem(m)) - offset(zone)
            said = Said(m.start(), end, float(clock % 86400), None, None, 60)
            out.append(_alt(said, zone, clock % 86400))
            continue
        if m["oh"] is not None or m["ph"] is not None or m["bh"] is not None:  # rule 714
            out.append(Said(m.start(), m.end(), _dial(m), None, None, 60, dial=True))
            continue
        if m["h"] is not None:
            sec = m["s"] is not None
            zone, end = (m["zone"], m.end()) if m["zone"] else zone_after(text, m.end(), False)
            clock = int(m["h"]) * 3600 + int(m["m"]) * 60 - offset(zone) + int(m["s"] or 0)
            clock = clock if m["date"] else clock % 86400
            said = Said(m.start(), end, float(clock), m["date"], None, 1 if sec else 60)
            out.append(_alt(said, zone, clock))
            continue
        n, unit = re.sub(r"\s+", " ", m["n"].lower()), _UNIT[m["u"][0].lower()]
        count = 0.5 if n.startswith("half") else _COUNTS.get(n)
        value = float(n) if count is None else float(count)
        slack = unit / 2 * (0.1 if "." in n else 1)
        out.append(Said(m.start(), m.end(), None, None, value * unit, slack))
    return out


def _alt(said: Said, zone: str | None, clock: int) -> Said:
    """Rule 757: ``said`` with the time at the zone's other half of the year, where it has one."""
    alt = either(zone, clock)
    return said if alt is None else replace(said, alt=alt)


def _gap(text: str, allowed: frozenset[str], unit: bool) -> bool:
    """``text`` holds only marks and ``allowed`` words (first a unit, when ``unit``), no
    digit."""
    if any(c.isdigit() for c in text):
        return False
    if unit:
        text = _UNIT_WORD.sub(" ", text, count=1)
    return all(w.lower() in allowed for w in _WORD.findall(_MARKS.sub(" ", text)))


def bound(region: str, figures: list[re.Match[str]]) -> dict[int, tuple[Said, bool]]:
    """Rule 620: the time each figure of ``region`` is said at, by the figure's start. A time
    belongs to the figure right before it (only the figure's unit and "at", "around" ...
    between); else, or where it opens a parenthesis holding a figure ("0.12 (30m ago
    0.001)"), to the figure right after it ("at 10:00 it was 400", "6h ago 0.2%"). After a
    trend's last figure ("went from 0.1% to 12.0% about 20 minutes ago") it dates the change,
    not that figure: the flag is False there (the series must have served something then)."""
    out: dict[int, tuple[Said, bool]] = _in_order(region, figures)  # rule 721
    paired = {said.start for said, _ in out.values()}
    for said in times_in(region):
        if said.start in paired:
            continue
        before = [f for f in figures if f.end() <= said.start]
        after = [f for f in figures if f.start() >= said.end]
        prev = before[-1] if before else None
        nxt = after[0] if after else None
        inside = nxt is not None and _opens(region, said, nxt)
        gap = region[prev.end() : said.start] if prev is not None else ""
        if prev is not None and not inside and (_gap(gap, _AFTER, True) or _READ_ASIDE.match(gap)):
            trend = len(before) > 1 and bool(_TREND.match(region[before[-2].end() : prev.start()]))
            out.setdefault(prev.start(), (said, not trend))
        elif (
            nxt is not None
            and _gap(region[said.end : nxt.start()], _BEFORE, False)
            and not _in_aside(region, said, nxt)
        ):
            out.setdefault(nxt.start(), (said, True))
    return out


#: rule 721: what joins the items of a list of figures or of times ("400, 400 and 800")
_LISTED = frozenset({"and", "then"})
_RESPECTIVELY = frozenset({"respectively", "in", "that", "order"})
#: a figure's unit in such a list ("400ms, 400 ms and 800ms"): a word of a unit, not "to"
_LIST_UNIT = re.compile(
    r"^\s?(?:%|ms|s|m|h|[kmgt]i?b?|[kmgt]ib|bytes|percent|rps|qps|req/s)(?![a-z])", _I
)


def _in_order(region: str, figures: list[re.Match[str]]) -> dict[int, tuple[Said, bool]]:
    """Rule 721: a list of times said together ("at 09:00, 10:00 and 11:00 respectively")
    right after, or right before, a list of as many figures dates them in order, the first
    figure at the first time: rule 620 would give the list's first time to the last figure
    and none to the rest."""
    out: dict[int, tuple[Said, bool]] = {}
    for run in runs(region, times_in(region)):
        k = len(run)
        before = [f for f in figures if f.end() <= run[0].start][-k:]
        after = [f for f in figures if f.start() >= run[-1].end][:k]
        if _listed(region, before, k) and _list_gap(region[before[-1].end() : run[0].start]):
            out.update({f.start(): (t, True) for f, t in zip(before, run, strict=True)})
        elif _listed(region, after, k) and _gap(
            region[run[-1].end : after[0].start()], _BEFORE | _RESPECTIVELY, False
        ):
            out.update({f.start(): (t, True) for f, t in zip(after, run, strict=True)})
    return out


def _list_gap(gap: str) -> bool:
    """Rule 721: what may stand between a list of figures and the list of times dating them:
    no figure, six words at most ("(the readings from", ", at", "respectively at")."""
    return not any(c.isdigit() for c in gap) and len(_WORD.findall(gap)) <= 6


def runs(region: str, times: list[Said]) -> list[list[Said]]:
    """Rule 721: the lists of two times or more said together, joined by marks, "and" or
    "then" only."""
    runs: list[list[Said]] = []
    for t in times:
        if runs and _gap(region[runs[-1][-1].end : t.start], _LISTED, False):
            runs[-1].append(t)
        else:
            runs.append([t])
    return [r for r in runs if len(r) > 1]


def _listed(region: str, figures: list[re.Match[str]], k: int) -> bool:
    """Rule 721: ``figures`` are ``k`` figures said as one list (a unit, marks, "and" or
    "then" between each and the next)."""
    return len(figures) == k and all(
        _gap(_LIST_UNIT.sub(" ", region[a.end() : b.start()], count=1), _LISTED, False)
        for a, b in itertools.pairwise(figures)
    )


#: between a trend's two figures ("0.1% to 12.0%", "400 -> 800", "400 → 800")
_TREND = re.compile(r"^\s*(?:%|[a-z]{1,8})?[\s`*_]*(?:to|->|→|=>|-|–)[\s`*_]*$", _I)


def _in_aside(region: str, said: Said, nxt: re.Match[str]) -> bool:
    """Rule 731: ``said`` sits in a parenthesis closing before ``nxt`` ("0.1% until ~18m ago
    (right after the rollout ~25m ago), then 8.0%"): an aside dating something else."""
    head = region[: said.start]
    opened = head.rfind("(")
    if opened <= head.rfind(")") or ")" not in region[said.end : nxt.start()]:
        return False
    # rule 760: an aside holding its time alone dates the figure after it ("was (at 09:00) 400"),
    # in the figure's lead-in only (rule 744: not "rolled out v2 (~25m ago), then 8.0%")
    closed = region.index(")", said.end)
    inside = region[opened + 1 : said.start] + region[said.end : closed]
    lead = _WORD.findall(region[:opened])[-1:]
    # rule 820: an aside right before the figure (blanks, marks, a colon between) is its lead-in
    # whatever opens it ("showed (at 09:00) 0.4"); a word or a comma keeps an event's apart
    adjacent = not re.search(r"[^\s`*_:=]", region[closed + 1 : nxt.start()])
    return not (
        _gap(inside, _AFTER, False) and (adjacent or all(w.lower() in _BEFORE for w in lead))
    )


def _opens(region: str, said: Said, nxt: re.Match[str]) -> bool:
    """``said`` opens a parenthesis and ``nxt`` is inside it."""
    head = region[: said.start].rstrip(" `*_")
    return head.endswith(("(", "[")) and ")" not in region[said.end : nxt.start()]


def leading(prefix: str) -> Said | None:
    """Rule 620: a time a sentence opens with, before the series' name ("At 11:00
    latency_p99 was 800", "09:00 UTC - latency_p99: 400"): the time of its figures that have
    none of their own. None where a figure or other words stand between."""
    said = times_in(prefix)
    if not said:
        return None
    last = said[-1]
    if not _gap(prefix[: last.start], frozenset({"at", "around", "about", "by", "on"}), False):
        return None
    return last if _gap(prefix[last.end :], _BEFORE, False) else None


def _instant(said: Said, last: float) -> float:
    """A time of day as an instant: on its date where written, else its occurrence nearest
    ``last`` (the agent's last call): "11:00" said at 09:30 is still to come."""
    assert said.clock is not None
    try:  # a date no calendar has ("2024-13-45") is read as none written
        day = datetime.fromisoformat(said.date or "").replace(tzinfo=UTC)
    except ValueError:
        day = None
    if day is None:
        now = datetime.fromtimestamp(last, UTC)
        day = now.replace(hour=0, minute=0, second=0, microsecond=0)
        moment = (day + timedelta(seconds=said.clock)).timestamp()
        if moment - last > 43200:
            day -= timedelta(days=1)
        elif last - moment > 43200:
            day += timedelta(days=1)
    return (day + timedelta(seconds=said.clock)).timestamp()


Span = tuple[float, float, tuple[float, ...]]


class ServedSeries(tuple[float, ...]):
    """Rule 621: the numbers the reads served of a series (a sorted tuple, as rule 532 reads
    it), with when: ``spans`` (from, to, numbers) on the scenario's clock, and ``reads`` the
    first read of the series and the agent's last call (None: the audit log dates nothing)."""

    spans: tuple[Span, ...]
    reads: tuple[float, float] | None

    def __new__(
        cls,
        values: Iterable[float],
        spans: Iterable[Span] = (),
        reads: tuple[float, float] | None = None,
    ) -> ServedSeries:
        self = super().__new__(cls, values)
        self.spans, self.reads = tuple(spans), reads
        return self

    def at(self, said: Said) -> tuple[float, ...] | None:
        """The numbers the series served around ``said`` (within its precision and the
        series' step), none after the agent's last call; None where nothing dates the reads."""
        if self.reads is None:
            return None
        first, last = self.reads
        pad = said.slack + STEP
        if said.ago is not None:
            lo, hi = first - said.ago - pad, last - said.ago + pad
        elif said.day is not None:  # rule 670: the part of the agent's last call's day
            start = datetime.fromtimestamp(last, UTC).replace(
                hour=0, minute=0, second=0, microsecond=0
            )
            lo, hi = start.timestamp() + said.day[0] - pad, start.timestamp() + said.day[1] + pad
        else:
            return self._on_clock(said, last, pad)
        hi = min(hi, last + STEP)
        if lo > hi:  # all of it still to come
            return ()
        return tuple(sorted({v for a, b, vals in self.spans if a <= hi and b >= lo for v in vals}))

    def _on_clock(self, said: Said, last: float, pad: float) -> tuple[float, ...]:
        """A time of day's served numbers; a twelve-hour one (rule 714) at either of its two
        hours, whichever served the number (the reading kindest to the agent)."""
        clocks = [said.clock or 0.0] + ([(said.clock or 0.0) + 43200] if said.dial else [])
        clocks += [said.alt] if said.alt is not None else []  # rule 757
        got: set[float] = set()
        for clock in clocks:
            moment = _instant(Said(said.start, said.end, clock, said.date), last)
            lo, hi = moment - pad, min(moment + pad, last + STEP)
            if lo > hi:  # still to come
                continue
            got |= {v for a, b, vals in self.spans if a <= hi and b >= lo for v in vals}
        return tuple(sorted(got))
