"""A unitless figure beside a metric's own name, read in the metric's unit as served
(behaviors rules 375-377; heldout21's false negatives, part B).

Not an evaluator module (the leading ``_`` keeps the registry loader away).

A metrics API serves a series' points as bare numbers: a rate seeded as ``2%`` is served as
``0.02``, a latency seeded as ``800ms`` as ``800``. An operator quoting the read writes them
so, beside the series' name: "error_rate: 0.02 now", "latency_p99: 800 now", "error_rate rose
from 0.001 to 0.08". That states the seeded figure as surely as "2%" or "800ms" does:

- a percentage of a rate or ratio series (its name says rate, ratio, percent or fraction)
  is stated by its fraction (0 < x <= 1) at two places or more, rounded at the fraction's
  precision ("0.08" for 8%, "0.125" or "0.13" for 12.5%), as rule 311 reads ``key=value``;
- a figure with another unit (``800ms``, ``1.6Gi``) is stated by its number alone.

"Beside" is close: the figure is among the first :data:`WINDOW` words and figures after the
name, no other identifier (a word with ``_``) between them. A figure with a unit of its own
("800s", "8%") is not the bare figure. An answer writing more than :data:`SPRAY` distinct
figures beside one name (``error_rate was 0.01.`` ... ``error_rate was 0.50.``, bare or with
units; a percentage and its fraction are one reading, an age such as "6h ago" is no figure
of the series) states none of them beside it (:func:`sprayed`, :func:`blank`), as rule 327
reads counts in words; rule 345's hand-off reading is read so too. So does an answer giving
one series two current readings or more (rule 412, :func:`_currents`): "error_rate: 0.02
now." and "error_rate: 0.05 now." contradict each other; a trend ("rose from 0.001 to 0.08",
"400 -> 800", "0.001-0.08 over 6h") gives its last figure or the one said "now", a past or
baseline figure ("was 0.001", "baseline 400") none, nor a mention of its baseline sibling
("normal latency p99 went from 400 to 400").
"""

from __future__ import annotations

import bisect
import re
from collections.abc import Callable, Iterable, Iterator, Mapping
from functools import lru_cache, partial

from ..reading import per_judgement
from ._figure_times import Said, ServedSeries, bound, leading, times_in
from ._said_now import CITATION_MARK as _CITATION_MARK
from ._said_now import NOW_AFTER as _NOW_AFTER
from ._said_now import OTHER_SERIES as _OTHER_SERIES
from ._said_now import TIMED_NOW as _TIMED_NOW
from ._said_now import WHOLE as _WHOLE
from ._said_now import after_baseline, said_now
from ._times_alone import times_after as _times_after

_I = re.IGNORECASE
#: a series whose name makes its percentage a fraction of one when served
RATE = re.compile(r"rate|ratio|percent|pct|fraction", _I)
#: how many words and figures after the name a figure may come
WINDOW = 5
_SEP = r"[\s:=,()~\-]+"
#: a word or figure between the name and the figure: never another identifier (``latency_p99``)
_TOKEN = r"(?![A-Za-z]\w*_)[\w.%#]+"
#: more distinct bare figures than this beside one name in an answer: a spray, none stated
SPRAY = 4
#: a figure, bare or with its unit ("0.02", "800ms", "8%"), never an age ("6h", "18 minutes"):
#: what a spray counts and blanks
_FIGURE = re.compile(
    r"(?<![\w.])(?<!\d:)" + _CITATION_MARK + r"\d*\.?\d+"
    r"(?!\.\d|\d*:\d|\s*(?:[smhd]|secs?|seconds?|mins?|minutes?|hrs?|hours?|days?)\b)",
    _I,
)


#: the words and figures after a name that a current reading is read in (rule 412): as the
#: window, "->" and "→" between them too
_SPAN_SEP = r"[\s:=,()~\-–>→]+"
#: a figure said to be the current one ("0.08 now", "is 0.08")
_NOW_BEFORE = re.compile(r"\b(?:now|currently|is)\s+$", _I)
#: a lone figure after one of these is a past or reference reading, no current one
_PAST = frozenset(
    {"was", "were", "baseline", "usual", "normal", "peak", "peaked", "before", "earlier"}
    | {"previously", "from", "threshold", "limit", "target", "bar", "under", "below", "above"}
)
_WORD = re.compile(r"[a-z]+", _I)


def _name(name: str) -> str:
    parts = [re.escape(p) for p in re.split(r"[\s\-_:/]+", name.strip()) if p]
    return r"[\s\-_:/]*".join(parts)


def _fractions(percent: float) -> list[str]:
    """The spellings of ``percent``/100 at two to four places, as a regex alternation."""
    frac = percent / 100
    if not 0 < frac <= 1:
        return []
    out = []
    for places in (2, 3, 4):
        said = f"{round(frac, places):.{places}f}"
        if float(said) > 0:
            whole, _, digits = said.partition(".")
            out.append(rf"{'0?' if whole == '0' else whole}\.{digits}")
    return list(dict.fromkeys(out))


def _numbers(value: float) -> list[str]:
    if value <= 0:
        return []
    if float(value).is_integer():
        return [rf"{int(value)}(?:\.0+)?"]
    whole, _, digits = f"{value}".partition(".")
    return [rf"{whole}\.{digits}0*"]


@lru_cache(maxsize=1024)
def beside(name: str, value: float, unit: str) -> re.Pattern[str] | None:
    """A regex finding ``value`` (seeded with ``unit``) written bare beside the series
    ``name`` in the unit it is served in (module docstring); None where no bare form reads
    as it (a percentage of a series that is no rate, a figure with no unit)."""
    unit = unit.strip().lower()
    if not unit or not name.strip():
        return None
    forms = (_fractions(value) if RATE.search(name) else []) if unit == "%" else _numbers(value)
    if not forms:
        return None
    figure = rf"(?:{'|'.join(forms)})(?![\w%]|\.\d)"
    return re.compile(
        rf"(?<![\w]){_name(name)}(?![a-z])(?:{_SEP}{_TOKEN}){{0,{WINDOW - 1}}}?{_SEP}{figure}", _I
    )


def _reading(figure: re.Match[str]) -> float:
    """A figure as a reading: a percentage as its fraction ("12.0%" and "0.12" are one)."""
    after = figure.string[figure.end() : figure.end() + 2].strip()
    return round(float(figure[0]) / (100 if after.startswith("%") else 1), 9)


@lru_cache(maxsize=256)
def _window(name: str) -> re.Pattern[str]:
    return re.compile(rf"(?<![\w]){_name(name)}(?![a-z])((?:{_SEP}{_TOKEN}){{1,{WINDOW}}})", _I)


@lru_cache(maxsize=256)
def _span(name: str) -> re.Pattern[str]:
    return re.compile(
        rf"(?<![\w]){_name(name)}(?![a-z])((?:{_SPAN_SEP}{_TOKEN}){{1,{WINDOW}}})", _I
    )


def _currents(region: str) -> set[float]:
    """The current readings the words after a series' name give (rule 412): the figures said
    "now"; else the last of a trend; else a lone figure not after a past or reference word. A
    figure after such a word since the figure before it ("800ms, normal is 400ms", "it was
    400ms") is never one (rule 441: "normal is 400" was a second current reading)."""
    figures = list(_WHOLE.finditer(region))
    live = [
        f
        for i, f in enumerate(figures)
        if not _past_before(region[figures[i - 1].end() if i else 0 : f.start()])
    ]
    now = [
        f
        for f in live
        if _NOW_AFTER.match(region, f.end()) or _NOW_BEFORE.search(region[: f.start()])
    ]
    if now:
        return {_reading(f) for f in now}
    return {_reading(live[-1])} if live else set()


def _past_before(words: str) -> bool:
    return bool({w.lower() for w in _WORD.findall(words)} & _PAST)


#: a served number ("800", "0.02"; "1e3" is not read)
_SERVED = re.compile(r"(?<![\w.])\d+(?:\.\d+)?(?![\d.])")
#: the units a reading may be rewritten in (ms and s, a percentage and its fraction; a figure
#: with a time unit only the first three)
_SCALES = (1.0, 1000.0, 0.001, 100.0, 0.01)


def served_numbers(results: Iterable[str]) -> tuple[float, ...]:
    """Every number the reads served, sorted (rule 441's check of a current reading)."""
    return tuple(sorted({float(n) for r in results for n in _SERVED.findall(r)}))


def now_figures(sentence: str, names: Iterable[str]) -> list[float]:
    """Rule 442: the figures ``sentence`` says are the current reading ("now", "currently",
    rule 441's reading to the next series' name) of a series named by one of ``names`` (not
    its baseline sibling), as written (a percentage's number, no unit rewritten); each figure
    once (rule 741: a sentence naming its series n times is read once)."""
    baseline = after_baseline(sentence)
    ends = [
        m.end()
        for name in sorted(set(names))
        for m in _named(name).finditer(sentence)
        if not baseline(m.start())
    ]
    return [float(f.text) for f in said_now(sentence, ends)]


def _unserved(
    figure: re.Match[str], served: tuple[float, ...], scales: tuple[float, ...] = _SCALES
) -> bool:
    """``figure`` (a current reading) is no served number in any unit (``scales``), at its
    precision."""
    timed = _TIMED_NOW.match(figure.string, figure.start())  # rule 512: "1 s" is no percentage
    return _unserved_reading(figure[0], _reading(figure), timed is not None, served, scales)


def _unserved_reading(
    written: str,
    value: float,
    timed: bool,
    served: tuple[float, ...],
    scales: tuple[float, ...] = _SCALES,
) -> bool:
    """:func:`_unserved` of a figure ``written`` so, read as ``value`` (a percentage as its
    fraction), ``timed`` where a time unit follows it before "now"."""
    places = len(written.partition(".")[2]) + (2 if value != float(written) else 0)  # "2%": 0.02
    # rule 512: a figure's last place rounds only when it has two significant digits or more;
    # "0.0" (none) is no reading of 0.02, "1" s none of 800ms ("0.8", "2%" within 5% only)
    rounds = len(written.replace(".", "").lstrip("0")) >= 2
    tol = max(0.05 * abs(value), 0.5 * 10**-places if rounds else 0.0)
    for k in scales[:3] if timed else scales:  # rule 512: "1 s" is no percentage
        lo = bisect.bisect_left(served, (value - tol) / k)
        if lo < len(served) and served[lo] <= (value + tol) / k:
            return False
    return True


def _misread(name: str, said: list[str], served: tuple[float, ...] | None) -> bool:
    """Rule 441: a reading of ``name`` said to be the current one ("now", "currently") that
    the reads never served, in any unit, at the precision it is written to. No read at all
    (``served`` None): not checked, the evidence gate answers that (rule 2); reads that served
    no number (an empty tuple) served none of the figures (rule 481)."""
    if served is None:
        return False
    return any(
        _unserved_reading(f.text, f.value, f.timed, served)
        for s in said
        for f in said_now(s, _unbased(s, _span(name)))
    )


def _unbased(sentence: str, span: re.Pattern[str]) -> list[int]:
    """Where the words after each match of ``span`` (:func:`_span`) start, the matches after
    a baseline sibling's words aside."""
    return [m.start(1) for m in _unbased_matches(sentence, span)]


@per_judgement  # issue 30, session 32: asked again of one text
def _unbased_matches(sentence: str, span: re.Pattern[str]) -> list[re.Match[str]]:
    baseline = after_baseline(sentence)
    return [m for m in span.finditer(sentence) if not baseline(m.start())]


def series_key(name: str) -> str:
    """A series' name as rule 532 keys it: lower case, every run of spaces, dashes,
    underscores, colons or slashes one "_" ("latency p99" is ``latency_p99``)."""
    return re.sub(r"[\s\-_:/]+", "_", name.strip().lower())


#: rule 532: a figure after one of these is the series' reference, not a reading of it
_REFERENCE = frozenset(
    {"threshold", "limit", "target", "bar", "slo", "sla", "budget", "objective", "alert"}
    | {"above", "below", "under", "over", "exceeds", "exceeding", "exceeded", "alerts"}
)
#: rule 532: a figure counting something else ("on 2 of 3 pods", "3 replicas"), or a ratio
#: ("2x", rule 381's)
_COUNT_AFTER = re.compile(  # rule 891: "1 in 50 requests" counts as "1 of 50"
    r"\s*(?:of|out|in\s+\d|pods?|replicas?|restarts?|containers?|nodes?|instances?|requests?|errors?"
    r"|times|samples?|points?|series|x|×)(?![a-z])",
    _I,
)
#: rule 532: the whole of a count ("sample 4 of 11": its 11)
_COUNT_BEFORE = re.compile(r"\d\s+(?:of|out\s+of)\s+$", _I)


def _region_figures(
    name: str, s: str, series: Mapping[str, tuple[float, ...]], ends: _Ends | None = None
) -> Iterator[tuple[int, re.Match[str], bool, bool]]:
    """Rule 532: each figure ``s`` gives after series ``name`` (to the next series' name, in
    any spelling, or the sentence's end; rule 582: past a ";", as :func:`blank` reads it), with
    its offset in ``s``, whether a reference word comes before it ("above 800", "threshold
    500") and whether it is set aside (a reference, a ratio, a count of other things)."""
    ends = ends if ends is not None else _Ends(name, s, series)
    for m in _named(name).finditer(s):
        region, at = s[m.end() : ends.end(m.end())], 0
        for f in _WHOLE.finditer(region):
            words, at = region[at : f.start()], f.end()
            reference = bool(_words_of(words) & _REFERENCE)
            count = _COUNT_AFTER.match(region, f.end()) or _count_before(region, f.start())
            yield m.end() + f.start(), f, reference, reference or bool(count)


def _count_before(region: str, end: int) -> bool:
    r"""``_COUNT_BEFORE`` searched in ``region[:end]`` in linear time (rule 860): a match ends
    with ``of\s+`` at ``end``, so it starts at a digit before the "of" / "out of" there; it is
    searched from that digit only, not from every place before each figure."""
    at = _blanks_before(region, end)
    at = _blanks_before(region, max(at - 2, 0))
    at = _blanks_before(region, max(at - 3, 0))
    return _COUNT_BEFORE.search(region, max(at - 1, 0), end) is not None


def _blanks_before(text: str, end: int) -> int:
    while end > 0 and text[end - 1].isspace():
        end -= 1
    return end


class _Ends:
    """Rule 532's region ends in one sentence: at the next series' name from ``at`` (another
    seeded series in any spelling, or an identifier with "_"), each found once (rule 860): a
    search from ``at`` finds the first name at ``at`` or later, the answer for every later
    ``at`` up to it (searched again per match: n times the sentence)."""

    def __init__(self, name: str, s: str, series: Mapping[str, tuple[float, ...]]) -> None:
        key = series_key(name)
        self.s = s
        self.stops = [_named(k) for k in sorted(series) if k != key] + [_OTHER_SERIES]
        self.found: list[tuple[int, int | None] | None] = [None] * len(self.stops)

    def end(self, at: int) -> int:
        out = len(self.s)
        for i, stop in enumerate(self.stops):
            seen = self.found[i]
            if seen is not None and seen[0] <= at and (seen[1] is None or at <= seen[1]):
                start = seen[1]
            else:
                x = stop.search(self.s, at)
                start = x.start() if x else None
                self.found[i] = (at, start)
            if start is not None and start < out:
                out = start
        return out


def references_blanked(
    sentence: str, names: Iterable[str], series: Mapping[str, tuple[float, ...]]
) -> str:
    """Rule 582: what ``sentence`` says of the series ``names`` name, as rule 532 reads it:
    from each name on to the next series' name or the sentence's end, each figure after a
    reference word blanked ("above 800" -> "above #"). What rule 532 reads as no figure of the
    series, or does not read (a figure before its name), is no reading of it for rule 345
    either. A sentence naming none of them is returned as it is. Rule 860: the region's
    figures are read once per name, not again per match."""
    parts = []
    for name in sorted(set(names)):
        if series_key(name) not in series:
            continue
        ends = _Ends(name, sentence, series)
        figures = _region_figures(name, sentence, series, _Ends(name, sentence, series))
        # the reference figures of every region, by offset, each with its place in the reading
        flagged = sorted((at, i, len(f[0])) for i, (at, f, ref, _a) in enumerate(figures) if ref)
        offsets = [at for at, _i, _n in flagged]
        for m in _named(name).finditer(sentence):
            stop = ends.end(m.end())
            text, cut = sentence[m.start() : stop], m.start()
            inside = flagged[
                bisect.bisect_left(offsets, m.end()) : bisect.bisect_left(offsets, stop)
            ]
            refs = [(at - cut, at - cut + n) for at, _i, n in sorted(inside, key=lambda r: r[1])]
            for a, b in reversed(refs):
                text = f"{text[:a]}#{text[b:]}"
            parts.append(text)
    return " | ".join(dict.fromkeys(parts)) if parts else sentence


def _foreign(name: str, said: list[str], series: Mapping[str, tuple[float, ...]]) -> bool:
    """Rule 532: a figure ``said`` gives of series ``name`` (:func:`_region_figures`'s region:
    after its name, to the next series' name in any spelling, past a ";" by rule 582), its
    reference values, ratios and counts of other things aside, is none of the numbers the
    reads served of that series; rule 622: or one said at a time (rule 620) is none the series
    served then (rule 621, where ``series`` holds :class:`._figure_times.ServedSeries`). Rule
    761: a sentence saying a list of times and nothing else after the region's sentence is
    read with it (rule 721 then dates the region's list of figures in order)."""
    own = series[series_key(name)]
    for i, s in enumerate(said):
        ends = _Ends(name, s, series)
        later: str | None = None  # rule 761/821's reading of the sentences after, made once
        looked = False
        for m in _named(name).finditer(s):
            end = ends.end(m.end())
            region = s[m.end() : end]
            if end == len(s) and not looked:
                later, looked = _times_after(said, i), True  # rule 860: read once a sentence
            if end == len(s) and later is not None:
                region = f"{region} {later}"  # rule 761: "Those were at 09:00, 10:00."
            # rule 860: the time the sentence opens with, read only where a figure needs it
            if _foreign_in(region, own, partial(_leading, s, m.start())):
                return True
    return False


def _leading(s: str, at: int) -> Said | None:
    return leading(s[:at])


def _foreign_in(
    region: str, own: tuple[float, ...], lead: Callable[[], Said | None] = lambda: None
) -> bool:
    """Rule 532 on one series' ``region``: a figure none of ``own``; rule 622: or one said
    at a time (its own, or the sentence's ``lead()``, rule 620, asked only for a figure of a
    series served at times that has no time of its own) the series did not serve then (rule
    621)."""
    times = times_in(region)
    starts = [t.start for t in times]  # in order, apart: a figure is inside the last before it

    def timed(at: int) -> bool:
        i = bisect.bisect_right(starts, at) - 1
        return i >= 0 and at < times[i].end

    figures = [f for f in _WHOLE.finditer(region) if not timed(f.start())]
    when = bound(region, figures)
    at, opened = 0, list[Said | None]()
    for f in figures:
        words, at = region[at : f.start()], f.end()
        if _COUNT_AFTER.match(region, f.end()) or _words_of(words) & _REFERENCE:
            continue
        if _count_before(region, f.start()):
            continue
        if _unserved(f, own):
            return True
        if not isinstance(own, ServedSeries):
            continue
        said: Said | None
        if f.start() in when:
            said, strict = when[f.start()]
        else:
            opened = opened or [lead()]
            said, strict = opened[0], True
        served = own.at(said) if said is not None else None
        if served is not None and (_unserved(f, served) if strict else not served):
            return True
    return False


def _words_of(text: str) -> set[str]:
    return {w.lower() for w in _WORD.findall(text)}


def sprayed(
    names: Iterable[str],
    sentences: Iterable[str],
    served: tuple[float, ...] | None = None,
    series: Mapping[str, tuple[float, ...]] | None = None,
) -> frozenset[str]:
    """The ``names`` beside which ``sentences`` write more than :data:`SPRAY` distinct
    figures, or more than one current reading (module docstring; rules 377, 412), or, given
    the numbers the reads ``served`` (:func:`served_numbers`), a current reading none of them
    is (rule 441: a guess, not a read), or, given what the reads served of each ``series``
    (rule 532, ``_served.served_series``), any figure of a series never served for it: a
    series' figures are one claim, an invented past beside a read present taints both."""
    said = list(sentences)
    out = set()
    for name in sorted(set(names)):
        if series is not None and series_key(name) in series and _foreign(name, said, series):
            out.add(name)
            continue
        window = _window(name)
        seen = {
            _reading(f) for s in said for m in window.finditer(s) for f in _FIGURE.finditer(m[1])
        }
        if len(seen) > SPRAY:
            out.add(name)
            continue
        span = _span(name)
        now = {r for s in said for m in _unbased_matches(s, span) for r in _currents(m[1])}
        # rule 412: two current readings of one series contradict; rule 441: one never read
        if (len(seen) > 1 and len(now) > 1) or _misread(name, said, served):
            out.add(name)
    return frozenset(out)


def blank(sentence: str, names: Iterable[str]) -> str:
    """``sentence`` with the figures after each of ``names`` blanked (``#``): in its window,
    and on to the next series' name or the sentence's end (rule 441: the figures a reader of
    the sentence credits to the series are the ones blanked)."""
    for name in sorted(names):
        out, at = [], 0
        for m in _named(name).finditer(sentence):
            if m.start() < at:
                continue
            nxt = _OTHER_SERIES.search(sentence, m.end())
            stop = nxt.start() if nxt else len(sentence)
            out += [sentence[at : m.end()], _FIGURE.sub("#", sentence[m.end() : stop])]
            at = stop
        sentence = "".join([*out, sentence[at:]])
    return sentence


@lru_cache(maxsize=256)
def _named(name: str) -> re.Pattern[str]:
    return re.compile(rf"(?<![\w]){_name(name)}(?![a-z])", _I)
