"""Session 35 (perf35a, issue 30): readings rewritten for fewer Python calls give the answers
the code before gave (kept verbatim here), over seeded draws: ``_echo.within``'s word test
before its search, ``_fault_read._strings`` / ``_idents`` / ``tied``'s name set,
``_claim_views.asked``'s merge of blank runs, and :class:`Cue`'s memo read in place."""

from __future__ import annotations

import random
import re
from contextlib import nullcontext

from oasis_eval.evaluation.behaviors import _claim_views, _echo, _fault_read
from oasis_eval.evaluation.behaviors._cue import Cue
from oasis_eval.evaluation.reading import RunReadings, judgement_memo

_WORDS = ["pod", "api", "the", "", "x", "OOM", "3/3", "a b", "db,", "\u212a", "\n", "  "]


def _text(rng: random.Random, n: int) -> str:
    return " ".join(rng.choice(_WORDS) for _ in range(n))


def test_within_answers_as_a_search() -> None:
    rng = random.Random(35)
    joins = [_text(rng, rng.randint(0, 40)) for _ in range(6)]
    with RunReadings().judging(), judgement_memo({}):
        for _ in range(3000):
            joined = rng.choice(joins)
            if rng.random() < 0.5 and joined:
                at = rng.randrange(len(joined))
                squashed = joined[at : at + rng.randint(1, 30)]
            else:
                squashed = _text(rng, rng.randint(1, 6))
            assert _echo.within(squashed, joined, [joined]) is (squashed in joined)


def _old_strings(value: object) -> set[str]:
    if isinstance(value, dict):
        return {x for v in value.values() for x in _old_strings(v)}
    if isinstance(value, list):
        return {x for v in value for x in _old_strings(v)}
    return {value.lower()} if isinstance(value, str) else set()


def _value(rng: random.Random, depth: int = 0) -> object:
    r = rng.random()
    if depth < 4 and r < 0.3:
        return {f"k{i}": _value(rng, depth + 1) for i in range(rng.randint(0, 4))}
    if depth < 4 and r < 0.5:
        return [_value(rng, depth + 1) for _ in range(rng.randint(0, 4))]
    return rng.choice(["Abc", "x", 1, None, 2.5, "DEF-g", True])


def _old_idents(text: str, names: set[str]) -> set[str]:
    out = set()
    for raw in _fault_read._IDENT.findall(text):
        token = raw.strip(".:/-")
        if any(token.lower().startswith(n) for n in names):
            continue
        if re.search(r"[0-9_.%/]", token) or sum(c.isupper() for c in token) >= 2:
            out.add(token)
    return out


def test_fault_read_strings_and_idents() -> None:
    rng = random.Random(35)
    for _ in range(2000):
        value = _value(rng)
        assert _fault_read._strings(value) == _old_strings(value)
    tokens = ["api-1", "OOMKilled", "db.x", "web", "ab", "Back-off", "10%", "a_b", "X"]
    for _ in range(2000):
        text = " ".join(rng.choice(tokens) for _ in range(8))
        names = set(rng.sample(["api", "web", "db", "", "x"], rng.randint(0, 3)))
        assert _fault_read._idents(text, names) == _old_idents(text, names)


def test_asked_merge_is_the_per_character_one() -> None:
    rng = random.Random(35)
    for _ in range(3000):
        n = rng.randint(0, 30)
        asks = "".join(rng.choice("ab ?") for _ in range(n))
        menus = "".join(rng.choice("ab ") for _ in range(n))
        expected = "".join(" " if m == " " else a for a, m in zip(asks, menus, strict=True))
        out, at = [], 0
        for run in _claim_views._BLANKS.finditer(menus):
            out += (asks[at : run.start()], run.group())
            at = run.end()
        out.append(asks[at:])
        assert "".join(out) == expected


def test_cue_memo_read_in_place_answers_as_its_pattern() -> None:
    """In a run's judgements and outside one, twice each (the second time from the memo)."""
    cues = [Cue(r"\broot\s+cause\b"), Cue(r"(?:might|may)\s+be"), Cue(r"\bOOM\w*", re.I)]
    texts = ["The root  cause is OOM", "it may be", "R\u00f6ot cause", "nothing", "OOMKilled"]
    runs = RunReadings()
    checked = 0
    for opened in (False, True, True):
        with runs.judging(), judgement_memo({}) if opened else nullcontext():
            for cue in cues:
                for text in texts * 2:
                    for pos in (0, 3):
                        got, want = cue.search(text, pos), cue.regex.search(text, pos)
                        assert (got and got.span()) == (want and want.span())
                        got, want = cue.match(text, pos), cue.regex.match(text, pos)
                        assert (got and got.span()) == (want and want.span())
                    assert [m.span() for m in cue.finditer(text)] == [
                        m.span() for m in cue.regex.finditer(text)
                    ]
                    checked += 1
    assert checked == 3 * len(cues) * len(texts) * 2
