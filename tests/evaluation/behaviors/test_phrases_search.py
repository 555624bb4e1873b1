"""``Phrases`` scans a text only with the regexes of phrases whose first word the text holds
(issue 30); ``matches``, ``search`` and ``found`` must give exactly what a scan with every
phrase's regex gives: every match sorted earliest then longest (the first phrase of equal
ones), and nothing when nothing matches. Checked against that reference over every phrase
list the behaviors use, in ASCII and other text."""

from __future__ import annotations

import importlib
import pkgutil
import re

import pytest

import oasis_eval.evaluation.behaviors as behaviors
from oasis_eval.evaluation.behaviors._claims import catalogue
from oasis_eval.evaluation.behaviors._words import Phrases


def _spans(found: list[re.Match[str]]) -> list[tuple[int, int, str]]:
    return [(m.start(), m.end(), m.re.pattern) for m in found]


def _reference(phrases: Phrases, text: str) -> list[tuple[int, int, str]]:
    """Every match of every phrase's regex, earliest then longest first, no prefilter."""
    found = [m for _, r in phrases._compiled for m in r.finditer(text)]
    return _spans(sorted(found, key=lambda m: (m.start(), -len(m.group()))))


def _lists() -> list[Phrases]:
    seen: dict[int, Phrases] = {}
    for info in pkgutil.walk_packages(behaviors.__path__, behaviors.__name__ + "."):
        module = importlib.import_module(info.name)
        for value in vars(module).values():
            if isinstance(value, Phrases):
                seen[id(value)] = value
    for value in catalogue().values():
        seen[id(value)] = value
    return [seen[k] for k in sorted(seen, key=lambda k: seen[k].phrases)]


FIXED = [
    "",
    "nothing to see here",
    "The pod was OOMKilled because its memory limit is too low, not a crash loop.",
    "I won't restart it: the rollout is out of scope and needs approval from the on-call.",
    "Possible causes: a bad config-map, an expired TLS certificate, or DNS resolution failing.",
    "connection pool exhausted; retries timed out; the node ran out of disk pressure",
    "The ſecret is OUT OF MEMORY — the Kelvin-sign \u212aill and a won’t-fix, İ ı",
]


def _texts(phrases: Phrases) -> list[str]:
    words = [p.rstrip("*") for p in phrases.phrases]
    out = list(FIXED)
    for i, w in enumerate(words):
        nxt = words[(i + 1) % len(words)]
        out += [
            f"the {w} was seen",
            f"x{w} and {w.upper()}s",
            f"{w}-ing then {nxt}",
            f"{w} {nxt}",  # two phrases at adjacent positions: overlapping candidates
            f"{w[: max(1, len(w) // 2)]} {w}",
            f"é {w.title()} won’t {nxt.upper()}",  # not ASCII: every regex scans it
            w.replace("s", "ſ").replace("k", "\u212a"),  # case-insensitive to the regex only
        ]
    return out


@pytest.mark.parametrize("phrases", _lists(), ids=lambda p: p.phrases[0][:24])
def test_the_prefilter_finds_what_every_regex_finds(phrases: Phrases) -> None:
    texts = _texts(phrases)
    assert texts and any(_reference(phrases, t) for t in texts)  # something to find
    for text in texts:
        expected = _reference(phrases, text)
        assert _spans(phrases.matches(text)) == expected, text
        m = phrases.search(text)
        assert (_spans([m]) if m else []) == expected[:1], text
        assert phrases.found(text) is bool(expected), text


def test_ties_and_longest_at_the_same_start() -> None:
    phrases = Phrases("out of", "out of memory", "out of mem*", "oom")
    m = phrases.search("it ran OUT OF MEMORY twice, oom")
    assert m is not None and m.group() == "OUT OF MEMORY"
    assert m.re is phrases._compiled[1][1]
    assert Phrases("won't").found("I WON’T do it") and Phrases("won't").found("won't")
    assert Phrases("kill").found("oom-Kill")  # the Kelvin sign: no prefilter off ASCII
    tie = Phrases("disk*", "disk")  # same span: the first phrase listed
    found = tie.search("a disk")
    assert found is not None and found.re is tie._compiled[0][1]
    assert Phrases().search("anything") is None and not Phrases().found("anything")
