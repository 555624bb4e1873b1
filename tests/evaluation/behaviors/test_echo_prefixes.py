"""How much of a label's tail is a served line's opening (behaviors/_echo.py, rule 871;
issue 30, session 30): :func:`_echo._served_prefixes` gallops from the shortest prefix where a
bisection probed the middle first; both count the same prefixes, which each hold the one
before them. ``labelled_echo`` is read once per sentence a judgement."""

from __future__ import annotations

import itertools
import random

from oasis_eval.evaluation.behaviors import _echo
from oasis_eval.evaluation.reading import judgement_memo

_WORDS = ["pod", "api-service", "the", "is", "-", "(", "ok", "failed:", "x", "OOMKilled", "3/3"]


def _bisected(bares: list[str], joined: str, results: tuple[str, ...]) -> int:
    """The bisection :func:`_echo._pasted_first` used before (session 29's code)."""
    lo, hi = 0, len(bares)
    while lo < hi:
        mid = (lo + hi) // 2
        if _echo.within(bares[mid], joined, results):
            lo = mid + 1
        else:
            hi = mid
    return lo


def _bares(tail: str) -> list[str]:
    """``_pasted_first``'s prefixes of ``tail`` (each a prefix of the next)."""
    cut = itertools.islice(_echo._CUT.finditer(tail), 64)
    bares = [tail[: blank.start()].rstrip(_echo._JOINS) for blank in cut]
    return [b for b in bares if tail[len(b) : len(b) + 1] not in _echo._GOES_ON]


def test_galloping_counts_as_bisection() -> None:
    rng = random.Random(30)
    counts = set()
    for _ in range(3000):
        served = " ".join(rng.choice(_WORDS) for _ in range(rng.randint(0, 40)))
        results = (served, " ".join(rng.choice(_WORDS) for _ in range(rng.randint(0, 9))))
        joined = _echo.APART.join(results)
        cut = rng.randint(0, len(served))
        tail = served[cut:] + " " + " ".join(rng.choice(_WORDS) for _ in range(rng.randint(0, 70)))
        bares = _bares(tail)
        assert all(b.startswith(a) for a, b in itertools.pairwise(bares))
        found = _echo._served_prefixes(bares, joined, results)
        assert found == _bisected(bares, joined, results), tail
        counts.add(min(found, 5))
    assert counts == {0, 1, 2, 3, 4, 5}  # none served, a few, many


def test_labelled_echo_once_per_judgement() -> None:
    results = ("pod api-service-1 is crashlooping back-off restarting failed container",)
    joined = _echo.APART.join(results)
    lines = frozenset(results)
    sentence = "What I saw: pod api-service-1 is crashlooping back-off restarting (the app)."
    plain = _echo.labelled_echo(sentence, joined, results, lines)
    assert plain == "What I saw (the app)."
    with judgement_memo({}):
        assert _echo.labelled_echo(sentence, joined, results, lines) == plain
        assert _echo.labelled_echo(sentence, joined, results, lines) == plain
