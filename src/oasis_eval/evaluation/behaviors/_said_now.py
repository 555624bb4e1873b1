"""A series' current reading and its baseline sibling read in time linear in the sentence
(behaviors rule 741; issue 27, branch s27-guard27). Not an evaluator module.

Rule 441 reads the figures a sentence says "now" in the rest of it after a series' name, to
the next series' name (:func:`said_now`); rules 412, 441 and 442 read no name that follows its
baseline sibling's words ("normal latency p99", :func:`after_baseline`). Read as written, once
per name match (a slice of the rest, a search of the whole prefix, a search of each figure's
prefix), a sentence naming a series n times cost n times its length: a catalogue of megabytes
in every sentence reached the runner's 120 s bound per call. Here each sentence is indexed
once (its keywords, its series' names, its figures, each with what is said around it) and
each name match looks its answer up by bisection: the same figures, the same verdicts
(``tests/evaluation/behaviors/test_guard27_rules.py`` checks both against the readings as
written on random texts).
"""

from __future__ import annotations

import bisect
import re
from collections.abc import Callable, Iterable
from typing import NamedTuple

from ..reading import per_judgement

_I = re.IGNORECASE
#: a figure's lookbehinds (what a figure never follows) and the figure itself; rule 891: a
#: citation mark ("[9]", "[6][7]", a footnote the text cites) is no figure; rule 970: nor is a
#: step reference ("(#8)", "(#9, #10)": the number of a call in the answer's own trail)
CITATION_MARK = r"(?!(?<=\[)\d{1,3}\])(?!(?<=#)\d{1,3}(?![\w%]|[.,]\d))"
_AFTER_NO = r"(?<![\w.])(?<!\d:)" + CITATION_MARK
_BODY = (
    r"\d*\.?\d+"
    r"(?!\d|\.\d|:\d|\s*(?:[smhd]|secs?|seconds?|mins?|minutes?|hrs?|hours?|days?)\b)"
)
#: :data:`._metric_figure._FIGURE` never cut short ("12 minutes" is no "1")
WHOLE = re.compile(_AFTER_NO + _BODY, _I)
_WHOLE_BODY = re.compile(_BODY, _I)
#: rule 512: a figure with a time unit right before "now" ("it is 1 s now", "1600ms now"): a
#: current reading in that unit, not an age
_TIMED = r"\d*\.?\d+(?=\s*(?:ms|s|secs?|seconds?|milliseconds?)\s+(?:now|currently)\b)"
TIMED_NOW = re.compile(_AFTER_NO + _TIMED, _I)
_TIMED_BODY = re.compile(_TIMED, _I)
#: a figure said to be the current one ("0.08 now")
NOW_AFTER = re.compile(r"%?\s*(?:now|currently)\b", _I)
#: "now" and the blanks after it: a figure right after them is said "now" (where the word
#: starts a word, or the rest read starts with it)
_NOW_BLANKS = re.compile(r"(?:now|currently)\s+", _I)
_BOUNDARY = re.compile(r"\b")
_WORD_OR_DOT = re.compile(r"[\w.]")
#: what ends the rest of a sentence a series' "now" reading is looked for in: another series
#: (an identifier with "_"; rule 815: not a city of an IANA zone's name, "America/Los_Angeles")
OTHER_SERIES = re.compile(r"(?<![\w])(?!(?<=/)[A-Z][a-z]+_[A-Z][a-z])[A-Za-z]\w*_\w+")
#: the name of a series' baseline sibling said in words ("normal latency p99", up to two words
#: between): no current reading of the series itself
BASELINE = re.compile(
    r"\b(?:normal|baseline|usual|typical|expected)[\s_\-]+(?:\w+[\s_\-]+){0,2}$", _I
)
_KEYWORD = re.compile(r"\b(?:normal|baseline|usual|typical|expected)(?=[\s_\-])", _I)
_SEPARATORS = re.compile(r"[\s_\-]*")
_SEPARATOR = re.compile(r"[\s_\-]")
_LETTER = re.compile(r"[^\W_]")
_RUN = re.compile(r"\w*")


@per_judgement
def _keywords(sentence: str) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """Where each baseline keyword followed by a separator ends, and how far a name after it
    may start: before a character no word or separator has, or the third word's first letter
    (:data:`BASELINE` allows two words between; "_" may be either)."""
    ends, reach = [], []
    for key in _KEYWORD.finditer(sentence):
        at, words = key.end(), 0
        while True:
            at = _SEPARATORS.match(sentence, at).end()  # type: ignore[union-attr]
            if not _LETTER.match(sentence, at):
                break
            words += 1
            if words == 3:
                break
            at = _RUN.match(sentence, at).end()  # type: ignore[union-attr]
        ends.append(key.end())
        reach.append(at)
    return tuple(ends), tuple(reach)


def after_baseline(sentence: str) -> Callable[[int], bool]:
    """A test of positions ``at``: ``BASELINE.search(sentence, 0, at)``, the words before
    ``at`` end with a baseline keyword, a separator, at most two words, each followed by a
    separator. Whoever matches, the last keyword before ``at`` does (a later keyword lies
    among an earlier one's words), so one bisection answers."""
    ends, reach = _keywords(sentence)

    def test(at: int) -> bool:
        i = bisect.bisect_left(ends, at) - 1
        return i >= 0 and at <= reach[i] and _SEPARATOR.match(sentence, at - 1) is not None

    return test


class Said(NamedTuple):
    """A figure the rest of a sentence gives after a series' name: where it starts, as
    written, its reading (a percentage as its fraction) and whether a time unit follows it
    before "now" (rule 512)."""

    start: int
    text: str
    value: float
    timed: bool


class _Figure(NamedTuple):
    start: int
    end: int
    after: bool  # "now" right after it
    now_at: int  # where a "now" and blanks right before it start (-1: none)
    bounded: bool  # that "now" starts a word
    said: bool  # said "now", whoever reads from before that "now"


class _Segment(NamedTuple):
    start: int
    stop: int
    figures: tuple[_Figure, ...]
    starts: tuple[int, ...]
    said: tuple[int, ...]  # indices of the figures said whoever reads from before them
    timed: tuple[tuple[int, int], ...]
    timed_starts: tuple[int, ...]


def _value(sentence: str, start: int, end: int, stop: int) -> float:
    """:func:`._metric_figure._reading` of a figure in the rest cut at ``stop``."""
    after = sentence[end : min(end + 2, stop)].strip()
    return round(float(sentence[start:end]) / (100 if after.startswith("%") else 1), 9)


def _figure(sentence: str, match: re.Match[str], stop: int, nows: dict[int, int]) -> _Figure:
    after = NOW_AFTER.match(sentence, match.end(), stop) is not None
    now_at = nows.get(match.start(), -1)
    bounded = now_at >= 0 and _BOUNDARY.match(sentence, now_at) is not None
    return _Figure(match.start(), match.end(), after, now_at, bounded, after or bounded)


@per_judgement
def _segments(sentence: str) -> tuple[_Segment, ...]:
    """The sentence cut at each series' name (:data:`OTHER_SERIES`), each part's figures."""
    cuts = [m.start() for m in OTHER_SERIES.finditer(sentence)]
    nows = {m.end(): m.start() for m in _NOW_BLANKS.finditer(sentence)}
    out, start = [], 0
    for stop in [*cuts, len(sentence)]:
        figures = tuple(
            _figure(sentence, m, stop, nows) for m in WHOLE.finditer(sentence, start, stop)
        )
        timed = tuple(m.span() for m in TIMED_NOW.finditer(sentence, start, stop))
        out.append(
            _Segment(
                start,
                stop,
                figures,
                tuple(f.start for f in figures),
                tuple(i for i, f in enumerate(figures) if f.said),
                timed,
                tuple(a for a, _ in timed),
            )
        )
        start = stop
    return tuple(out)


def _heads(sentence: str, at: int, stop: int) -> list[tuple[int, int, bool, bool]]:
    """The figures the rest from ``at`` opens with (at ``at`` or one after it), read as the
    rest alone reads them (nothing before ``at``): ``(start, end, said "now", timed)``, the
    timed reading's own figure last."""
    for start in (at, at + 1):
        if start >= stop or (start > at and _WORD_OR_DOT.match(sentence, at)):
            break
        whole = _WHOLE_BODY.match(sentence, start, stop)
        timed = _TIMED_BODY.match(sentence, start, stop)
        out = []
        if whole:
            said = NOW_AFTER.match(sentence, whole.end(), stop) is not None
            out.append((start, whole.end(), said, timed is not None))
        if timed:
            out.append((start, timed.end(), True, True))
        if out:
            return out
    return []


#: the figures read: (where it starts, read by the timed reading) and what it is
_Found = dict[tuple[int, bool], Said]


def said_now(sentence: str, ends: Iterable[int]) -> list[Said]:
    """Rule 441: every figure said "now" (or "currently") in the rest of ``sentence`` after
    any of ``ends`` (where a series' name ends), up to another series' name; rule 512: with
    a time unit between ("it is 1 s now"). Each figure once per way it is read."""
    segments = _segments(sentence)
    stops = [s.stop for s in segments]
    found: _Found = {}
    heads: set[Said] = set()
    for at in sorted(set(ends)):
        seg = segments[min(bisect.bisect_left(stops, at), len(segments) - 1)]
        if at >= seg.stop:  # the rest is empty (a series' name or the end right there)
            continue
        for start, end, said, timed in _heads(sentence, at, seg.stop):
            if said:
                value = _value(sentence, start, end, seg.stop)
                heads.add(Said(start, sentence[start:end], value, timed))
        _rest(sentence, seg, at, found)
    return sorted({*found.values(), *heads})


def _rest(sentence: str, seg: _Segment, at: int, found: _Found) -> None:
    """The figures of ``seg`` from ``at + 2`` on (read alike from the whole sentence and from
    the rest from ``at``), the first with the "now" before it read from ``at`` on. A figure
    read already was read from an earlier name, and so was every figure after it."""
    first = bisect.bisect_left(seg.starts, at + 2)
    if first < len(seg.figures):
        head = seg.figures[first]
        if head.after or (head.now_at >= at and (head.now_at == at or head.bounded)):
            _take(sentence, seg, head, found)
    for i in range(bisect.bisect_right(seg.said, first), len(seg.said)):
        if not _take(sentence, seg, seg.figures[seg.said[i]], found):
            break
    for start, end in seg.timed[bisect.bisect_left(seg.timed_starts, at + 2) :]:
        if (start, True) in found:
            break
        value = _value(sentence, start, end, seg.stop)
        found[(start, True)] = Said(start, sentence[start:end], value, True)


def _take(sentence: str, seg: _Segment, f: _Figure, found: _Found) -> bool:
    """``f`` read (False: it was already)."""
    if (f.start, False) in found:
        return False
    timed = TIMED_NOW.match(sentence, f.start, seg.stop) is not None
    value = _value(sentence, f.start, f.end, seg.stop)
    found[(f.start, False)] = Said(f.start, sentence[f.start : f.end], value, timed)
    return True
