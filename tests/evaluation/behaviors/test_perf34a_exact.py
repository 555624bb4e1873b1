"""Session 34's replay cuts (issue 30, branch s34-perf34a) answer as the code they replace:
``_echo``'s figure folding by its ASCII twin, the label heads and closing asides read by their
regexes' necessary shape first, ``within`` kept per text and results, and the caseless
patterns made cues (their case-free twins, uppercase letters read in lowercase)."""

from __future__ import annotations

import random
import re

import pytest

from oasis_eval.evaluation.behaviors import _echo
from oasis_eval.evaluation.behaviors._cue import Cue
from oasis_eval.evaluation.behaviors.si._invented import _DONE
from oasis_eval.evaluation.behaviors.si._trail import CLASS_WORDS, _verb_regex
from oasis_eval.evaluation.behaviors.si.correlation import SIGNALS
from oasis_eval.evaluation.reading import RunReadings, judgement_memo

from .test_cue import TEXTS

_WORDS = [
    "line", "3", "twenty-one", "Three", "the", "third", "ONE", "fifth", "1.5", "pod",
    "logs:", "root", "cause:", "W", "fails", "(other", "lines", "filtered", "out)", ").",
    ")!", "(", ")", "a.b", "x;", "why?", "\u00e9t\u00e9", "\u212a", "\t", "\x1c", "_id", "so",
    "I", "we", "ran", "restarted", "Checked", "metrics", "LOGS", "Jaeger", "spans", "cpu",
]  # fmt: skip


def _draw(rng: random.Random, n: int) -> str:
    joins = [" ", " ", " ", "  ", ": ", ":", ", ", "\n"]
    return "".join(rng.choice(_WORDS) + rng.choice(joins) for _ in range(rng.randint(0, n)))


def test_figures_fold_as_the_caseless_pattern() -> None:
    rng = random.Random(341)
    for _ in range(3000):
        text = _draw(rng, 14)
        low = text.lower()
        assert _echo._folded(low) == _echo._FIGURE.sub("#", low), low
        assert _echo._has_figure(text) == (_echo._FIGURE.search(text) is not None), text


def test_label_heads_read_as_the_heads_regex() -> None:
    rng = random.Random(342)
    found = 0
    for _ in range(6000):
        head = _draw(rng, rng.choice([3, 8, 30]))
        want = _echo._HEADS.match(head.strip()) is not None
        assert _echo._labels_only(head) == want, head
        found += want
    assert found > 100


@pytest.mark.parametrize("end", [")", ").", ")!", ") )", "))", ")\n"])
def test_a_closing_aside_is_found_where_the_whole_search_finds_it(end: str) -> None:
    rng = random.Random(343)
    found = 0
    for _ in range(3000):
        tail = _draw(rng, 12) + end
        want = _echo._ASIDE.search(tail)
        got = _echo._ASIDE.search(tail, _echo._aside_from(tail))
        assert (got and got.span()) == (want and want.span()), tail
        found += want is not None
    assert found > 300


def test_within_answers_alike_in_and_out_of_a_run() -> None:
    rng = random.Random(344)
    results = tuple(_draw(rng, 20).lower() for _ in range(6))
    joined = _echo.joined_results(results)
    assert joined is _echo.joined_results(results)
    run = RunReadings()
    for _ in range(2):  # the second judgement reads the run's answers
        with run.judging(), judgement_memo({}):
            for _ in range(500):
                part = rng.choice(results)
                at = rng.randint(0, len(part))
                text = rng.choice([part[at : at + rng.randint(0, 30)], _draw(rng, 4).lower()])
                assert _echo.within(text, joined, results) == any(text in r for r in results)


def _cues() -> list[tuple[str, Cue]]:
    out = [(f"SIGNALS[{k}]", v) for k, v in SIGNALS.items()] + [("_DONE", _DONE)]
    return out + [(f"verb[{c}]", _verb_regex(c)) for c in sorted(CLASS_WORDS)]


@pytest.mark.parametrize(("name", "cue"), _cues(), ids=[n for n, _ in _cues()])
def test_the_new_cues_answer_as_their_patterns(name: str, cue: Cue) -> None:
    assert cue._lowered is not None, name  # a case-free twin: what the change is for
    rng = random.Random(345)
    texts = [f for t in TEXTS for f in (t, t.upper(), t.swapcase())]
    texts += [_draw(rng, 16) for _ in range(400)]
    with judgement_memo({}):
        for text in texts:
            want = [(m.span(), m.groups()) for m in cue.regex.finditer(text)]
            assert [(m.span(), m.groups()) for m in cue.finditer(text)] == want, (name, text)
            first, got = cue.regex.search(text), cue.search(text)
            assert (got and (got.span(), got.groups())) == (
                first and (first.span(), first.groups())
            ), (name, text)


def test_uppercase_letters_are_read_in_lowercase() -> None:
    rng = random.Random(346)
    for pattern in [
        r"\b(?:I|we) ran\b",
        r"[^A-Z]+x",
        r"[0-Z]+y",
        r"(?<![A-Za-z0-9-])get",
        r"[^I]\w",
    ]:
        cue = Cue(pattern)
        assert cue._lowered is not None, pattern
        for _ in range(1500):
            text = _draw(rng, 8) + rng.choice(["I ran", "WE RAN", "gEt", "Y", "xX", ""])
            want = [(m.span(), m.groups()) for m in cue.regex.finditer(text)]
            assert [(m.span(), m.groups()) for m in cue.finditer(text)] == want, (pattern, text)
            assert cue.split(text) == cue.regex.split(text), (pattern, text)


def test_a_cues_match_answers_as_its_pattern() -> None:
    """``Cue.match`` settles a miss by the case-free twin first (every evaluator's cue)."""
    from .test_cue import CUES

    rng = random.Random(347)
    texts = [f for t in TEXTS for f in (t, t.upper(), t.swapcase())]
    texts += [_draw(rng, 10) for _ in range(60)]
    assert CUES and len(texts) > 60
    with judgement_memo({}):
        for name, cue in CUES:
            for text in texts:
                for at in (0, 1, len(text) // 3):
                    want, got = cue.regex.match(text, at), cue.match(text, at)
                    assert (got and (got.span(), got.groups())) == (
                        want and (want.span(), want.groups())
                    ), (name, text, at)


def test_byte_figures_read_by_the_ascii_twin_as_before() -> None:
    from oasis_eval.evaluation.behaviors import _series_figures as sf

    rng = random.Random(348)
    units = ["Mi", "GiB", "MB", "k", "bytes", "B", "%", "e+9", ".5", "x", "_", "\u00b2"]
    for _ in range(3000):
        text = "".join(
            rng.choice([str(rng.randint(0, 10**7)), rng.choice(units), " ", "."]) for _ in range(8)
        )
        want = [(m.span(), m.groups()) for m in sf._BYTES.finditer(text)]
        assert [(m.span(), m.groups()) for m in sf._byte_matches(text)] == want, text


def test_the_ascii_twins_split_and_find_as_their_patterns() -> None:
    """The sentence split, the series names and ``_slots``' words read ASCII text by their
    ``re.ASCII`` twins (session 34): the same cuts, names and words."""
    from oasis_eval.evaluation.behaviors import _words

    rng = random.Random(349)
    extra = ["e.g.", "i.e.", "etc.", "vs.", "a.\n\n", "kube_pod_mem_bytes", "x_y_z.", "\x1f"]
    pairs = [
        (_words._SENTENCE_ASCII, _words._SENTENCE),
        (_words._SERIES_ASCII, _words.SERIES),
        (_echo._WORD_ASCII, _echo._WORD),
    ]
    assert all(twin is not pattern and twin.flags & re.ASCII for twin, pattern in pairs)
    for _ in range(3000):
        text = "".join(
            rng.choice(_WORDS + extra) + rng.choice([" ", ". ", "\n", "_", ""]) for _ in range(10)
        )
        if not text.isascii():
            continue
        for twin, pattern in pairs:
            assert twin.split(text) == pattern.split(text), text
            assert twin.findall(text) == pattern.findall(text), text
