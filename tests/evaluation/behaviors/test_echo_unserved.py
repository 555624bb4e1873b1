"""``_echo._pasted_first`` settles an unserved tail before building its 64 parts (issue 30,
session 33): the same answers as the code before (kept verbatim here) over seeded draws of
tool results (ASCII and not: a Kelvin sign, a sigma, a trace tree's glyphs), their squashed
lines, and tails cut from them or made up, with commas, colons and shared tails."""

from __future__ import annotations

import itertools
import random
from collections.abc import Sequence

from oasis_eval.evaluation.behaviors import _echo

_WORDS = [
    "pod", "api-service", "the", "is", "-", "(", "ok", "failed:", "x", "OOMKilled", "3/3",
    "so", "because,", "db,", "Kelvin\u212a", "\u03a3igma", "\u2514\u2500", "error;", "a",
]  # fmt: skip


def _old(
    tail: str,
    joined: str,
    results: Sequence[str],
    lines: frozenset[str],
    first: bool = True,
    repeated: frozenset[str] = frozenset(),
) -> tuple[str, str]:
    """``_pasted_first`` as it was (main 799d7bd0)."""
    if not first:
        return tail, ""
    bares = [
        tail[: blank.start()].rstrip(_echo._JOINS)
        for blank in itertools.islice(_echo._CUT.finditer(tail), 64)
    ]
    bares = [
        b
        for b in bares
        if _echo._ends_before(tail, len(b), repeated) or _echo._whole(tail, b, lines)
    ]
    best = next((b for b in reversed(bares) if b.count(" ") >= 2 and b in lines), "")
    lo = _echo._served_prefixes(bares, joined, results)
    part = bares[lo - 1] if lo else ""
    if len(part.split()) >= 5 and len(part) > len(best) and _echo._ends_a_line(part, lines):
        best = part
    if not best or not tail[len(best) :].strip(_echo._JOINS + "!?"):
        return tail, ""
    return best, tail[len(best) :]


def _text(rng: random.Random, most: int) -> str:
    words = [rng.choice(_WORDS) for _ in range(rng.randint(0, most))]
    return "".join(w + rng.choice(("  ", " ", " ", "\n", "\n  - ")) for w in words)


def test_pasted_first_answers_as_before() -> None:
    rng = random.Random(33)
    pasted = settled = 0
    for _ in range(4000):
        tool_results = tuple(_text(rng, 30) for _ in range(rng.randint(1, 3)))
        results, lines, _ = _echo.served_texts(tool_results)
        joined = _echo.APART.join(results)
        source = rng.choice([*results, *sorted(lines)] or [""])  # sorted: no hash-seed draw
        cut = rng.randint(0, len(source))
        head = source[cut:] if rng.random() < 0.5 else source[: rng.randint(0, len(source))]
        tail = " ".join((head + " " + _text(rng, 12)).split()).lower()
        repeated = frozenset(
            {_echo._tail_after(tail, i) for i in range(len(tail)) if tail[i] == ","}
        )
        for first in (False, True):
            got = _echo._pasted_first(tail, joined, results, lines, first, repeated)
            assert got == _old(tail, joined, results, lines, first, repeated), tail
        pasted += got[1] != ""
        settled += len(tail.split()) >= 3 and _echo._unserved(tail, joined, results)
    assert pasted > 100 and settled > 500  # pasted parts drawn, and tails settled early
