"""Rule 532's region of a series read in linear time (branch s28-guard28, rule 860).

A sentence naming one served series n times read every region again per match: each region's
end searched every other series' name from the match on (to the sentence's end when there
is none: n times the sentence), ``references_blanked`` read every region again for each
match (n^2 times), and the count before a figure ("4 of 11") was searched in the whole
region before it (every figure, the whole region). The readings below are the ones before
rule 860, kept here to check the new ones against on random texts: the same ends, the same
figures, the same blanked text and the same foreign figures. The long cases hang (minutes)
with the rule off; they assert what is read, never how fast."""

from __future__ import annotations

import random
import re
from collections.abc import Iterator, Mapping

import pytest

from oasis_eval.evaluation.behaviors import _metric_figure as mf
from oasis_eval.evaluation.behaviors._figure_times import (
    Said,
    ServedSeries,
    bound,
    leading,
    times_in,
)
from oasis_eval.evaluation.behaviors._times_alone import times_after

_COUNT_BEFORE = re.compile(r"\d\s+(?:of|out\s+of)\s+$", re.IGNORECASE)


def _old_region_end(name: str, s: str, at: int, series: Mapping[str, tuple[float, ...]]) -> int:
    key = mf.series_key(name)
    stops = [x.start() for k in sorted(series) if k != key if (x := mf._named(k).search(s, at))]
    nxt = mf._OTHER_SERIES.search(s, at)
    return min([*stops, nxt.start() if nxt else len(s)])


def _old_region_figures(
    name: str, s: str, series: Mapping[str, tuple[float, ...]]
) -> Iterator[tuple[int, re.Match[str], bool, bool]]:
    for m in mf._named(name).finditer(s):
        region, at = s[m.end() : _old_region_end(name, s, m.end(), series)], 0
        for f in mf._WHOLE.finditer(region):
            words, at = region[at : f.start()], f.end()
            reference = bool(mf._words_of(words) & mf._REFERENCE)
            count = mf._COUNT_AFTER.match(region, f.end()) or _COUNT_BEFORE.search(
                region[: f.start()]
            )
            yield m.end() + f.start(), f, reference, reference or bool(count)


def _old_references_blanked(
    sentence: str, names: list[str], series: Mapping[str, tuple[float, ...]]
) -> str:
    parts = []
    for name in sorted(set(names)):
        if mf.series_key(name) not in series:
            continue
        for m in mf._named(name).finditer(sentence):
            stop = _old_region_end(name, sentence, m.end(), series)
            text, cut = sentence[m.start() : stop], m.start()
            refs = [
                (at - cut, at - cut + len(f[0]))
                for at, f, ref, _aside in _old_region_figures(name, sentence, series)
                if ref and m.end() <= at < stop
            ]
            for a, b in reversed(refs):
                text = f"{text[:a]}#{text[b:]}"
            parts.append(text)
    return " | ".join(dict.fromkeys(parts)) if parts else sentence


def _old_foreign(name: str, said: list[str], series: Mapping[str, tuple[float, ...]]) -> bool:
    own = series[mf.series_key(name)]
    for i, s in enumerate(said):
        for m in mf._named(name).finditer(s):
            end = _old_region_end(name, s, m.end(), series)
            region = s[m.end() : end]
            later = times_after(said, i) if end == len(s) else None
            if later is not None:
                region = f"{region} {later}"  # rules 761 and 821
            if _old_foreign_in(region, own, leading(s[: m.start()])):
                return True
    return False


def _old_foreign_in(region: str, own: tuple[float, ...], lead: Said | None) -> bool:
    times = times_in(region)
    figures = [
        f
        for f in mf._WHOLE.finditer(region)
        if not any(t.start <= f.start() < t.end for t in times)
    ]
    when = bound(region, figures)
    at = 0
    for f in figures:
        words, at = region[at : f.start()], f.end()
        if mf._COUNT_AFTER.match(region, f.end()) or mf._words_of(words) & mf._REFERENCE:
            continue
        if _COUNT_BEFORE.search(region[: f.start()]):
            continue
        if mf._unserved(f, own):
            return True
        said, strict = when.get(f.start(), (lead, True))
        served = own.at(said) if said is not None and isinstance(own, ServedSeries) else None
        if served is not None and (mf._unserved(f, served) if strict else not served):
            return True
    return False


_TOKENS = ["latency", "latency p99", "p99", "error_rate", "error rate", "cpu_usage", "qps"]
_TOKENS += ["0.5", "800", "400", "0.02", "2%", "800ms", "3", "11", "4 of 11", "2 out of 3"]
_TOKENS += ["of", "out", "out of", "pods", "replicas", "x", "above", "threshold", "limit"]
_TOKENS += ["was", "is", "now", "at", "09:00", "10:00", "11:00 UTC", "6h ago", "then", "to"]
_TOKENS += ["->", ",", ";", ":", "(", ")", ".", " ", "  ", "\t", "\n", "OF", "Out  Of", "5"]
_NAMES = ["latency", "latency p99", "error_rate", "p99"]


def _series() -> dict[str, tuple[float, ...]]:
    served = ServedSeries((400.0, 800.0), ((9 * 3600.0, 400.0), (11 * 3600.0, 800.0)))
    return {
        "latency": served,
        "latency_p99": served,
        "error_rate": (0.02, 0.5),
        "cpu_usage": (3.0,),
    }


def _texts(n: int) -> list[str]:
    rng = random.Random(860)
    texts = [
        "".join(
            rng.choice(_TOKENS) + rng.choice(["", " ", " "]) for _ in range(rng.randrange(1, 40))
        )
        for _ in range(n)
    ]
    assert len(set(texts)) > n // 2  # the loops below read many texts, all different
    return texts


def test_a_region_ends_where_it_did_before_rule_860() -> None:
    series = _series()
    texts = _texts(3000)
    assert len(texts) == 3000
    for text in texts:
        for name in _NAMES:
            ends = mf._Ends(name, text, series)
            for m in mf._named(name).finditer(text):
                assert ends.end(m.end()) == _old_region_end(name, text, m.end(), series), text
            for at in (0, len(text) // 2, len(text)):  # out of order too
                assert ends.end(at) == _old_region_end(name, text, at, series), text


def test_a_count_before_a_figure_is_the_one_before_rule_860() -> None:
    texts = _texts(5000)
    assert len(texts) == 5000
    for text in texts:
        for end in range(len(text) + 1):
            assert mf._count_before(text, end) == bool(_COUNT_BEFORE.search(text[:end])), text


def test_the_region_figures_are_the_ones_before_rule_860() -> None:
    series = _series()
    texts = _texts(3000)
    assert len(texts) == 3000
    for text in texts:
        for name in _NAMES:
            new = [(at, f[0], r, a) for at, f, r, a in mf._region_figures(name, text, series)]
            old = [(at, f[0], r, a) for at, f, r, a in _old_region_figures(name, text, series)]
            assert new == old, text


def test_references_are_blanked_as_before_rule_860() -> None:
    series = _series()
    texts = _texts(3000)
    assert len(texts) == 3000
    for text in texts:
        for names in (["latency", "latency p99"], ["error_rate"], ["p99", "latency"]):
            assert mf.references_blanked(text, names, series) == _old_references_blanked(
                text, names, series
            ), text


def test_foreign_figures_are_the_ones_before_rule_860() -> None:
    series = _series()
    texts = _texts(4000)
    found = 0
    for i in range(0, len(texts) - 1, 2):
        said = texts[i : i + 2]
        for name in _NAMES:
            if mf.series_key(name) not in series:
                continue
            old = _old_foreign(name, said, series)
            assert mf._foreign(name, said, series) == old, said
            found += old
    assert found > 100  # the texts reach foreign figures and clean ones alike


#: a served series named this many times in one sentence, another series' name between each
_TIMES = 3000


@pytest.mark.timeout(60)
def test_a_series_named_thousands_of_times_is_blanked_once_per_name() -> None:
    """n^3 before rule 860 (each match read every region, each region's end searched to the
    sentence's end): 250 names took 4.8 s, 500 took 36 s."""
    series = _series()
    sentence = "error_rate was above 0.5 at 09:00, " * _TIMES + "latency above 800."
    blanked = mf.references_blanked(sentence, ["error_rate"], series)
    assert blanked == "error_rate was above # at 09:00, "  # one distinct part


@pytest.mark.timeout(60)
def test_a_region_of_many_counts_is_read() -> None:
    """Every figure's count before it was searched in the whole region before it."""
    series = _series()
    sentence = "error_rate " + "4 of 11, " * 40_000 + "0.5."
    figures = list(mf._region_figures("error_rate", sentence, series))
    assert len(figures) == 80_001 and sum(not aside for *_, aside in figures) == 1  # 0.5
    assert not mf._foreign("error_rate", [sentence], series)
    assert mf._foreign("error_rate", [sentence.replace("0.5.", "0.7.")], series)
