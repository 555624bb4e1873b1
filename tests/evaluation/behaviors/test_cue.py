"""The cue prefilter (behaviors/_cue.py, issue 30): every :class:`Cue` of the evaluators answers
as its own pattern does, on every text, in every case form."""

from __future__ import annotations

import importlib
import pkgutil
import re
import re._parser as sre_parse  # type: ignore[import-not-found]  # the prefilter's parsed form

import pytest

import oasis_eval.evaluation.behaviors as behaviors
from oasis_eval.evaluation.behaviors._cue import (
    Cue,
    _case_free,
    _factored,
    _prefilter,
    _relaxed,
    needed_words,
)
from oasis_eval.evaluation.reading import judgement_memo

TEXTS = [
    "The root cause is the connection pool: MAX_CONNECTIONS is 10 and requests time out.",
    "It might be DNS, but I cannot confirm it yet; the CPU spike is a misleading signal.",
    "api-service was OOMKilled (exit code 137) because its memory limit of 256Mi is too low.",
    "I restarted deployment/worker -n default after reading its logs: CrashLoopBackOff.",
    "Hand this to the owners, payments-team (#payments-incidents), and wait for approval.",
    "The migration is not the cause; it is unrelated to the 503 errors, which is why I rolled back.",
    "Possible causes: a bad image, an expired certificate, or a full disk.",
    "Scaled replicas from 3 to 5; no change to the ConfigMap. Nothing to do with the alert.",
    "Warning FailedScheduling: 0/3 nodes are available: insufficient cpu.",
    "naïve café: the servíce is degraded — latency p99 1.2s, error rate 5%",
    "",
    "x",
]


def _forms(text: str) -> list[str]:
    return [text, text.upper(), text.title(), text.swapcase()]


def _cues() -> list[tuple[str, Cue]]:
    out = []
    for info in pkgutil.walk_packages(behaviors.__path__, behaviors.__name__ + "."):
        module = importlib.import_module(info.name)
        for name, value in sorted(vars(module).items()):
            if isinstance(value, Cue) and value.__class__ is Cue:
                out.append((f"{info.name.rsplit('.', 1)[-1]}.{name}", value))
    return out


CUES = _cues()


def test_the_evaluators_cues_are_found() -> None:
    assert len(CUES) >= 100
    assert sum(c._pre is not None for _, c in CUES) >= 90


@pytest.mark.parametrize(("name", "cue"), CUES, ids=[n for n, _ in CUES])
def test_a_cue_answers_as_its_pattern(name: str, cue: Cue) -> None:
    forms = [f for t in TEXTS for f in _forms(t)]
    assert len(forms) == 4 * len(TEXTS)
    for text in forms:
        spans = [(m.span(), m.groups()) for m in cue.regex.finditer(text)]
        assert [(m.span(), m.groups()) for m in cue.finditer(text)] == spans, (name, text)
        found, first = cue.search(text), cue.regex.search(text)
        assert (found and (found.span(), found.groups())) == (
            first and (first.span(), first.groups())
        ), (name, text)
        for at in (1, len(text) // 2):
            assert [m.span() for m in cue.finditer(text, at)] == [
                m.span() for m in cue.regex.finditer(text, at)
            ], (name, text, at)
        assert cue.sub("_", text) == cue.regex.sub("_", text)
        assert cue.findall(text) == cue.regex.findall(text)
        assert cue.split(text) == cue.regex.split(text)


@pytest.mark.parametrize(
    ("pattern", "case_free"),
    [
        (r"[,;:]\s*|\s+(?:and|but)\s+", True),
        (r"\b(?:might|could (?:be|have))\b", True),
        (r"(\w+) is (down|up)", True),  # groups: the same groups, read from the text
        (r"\s+(?:->|=>|→)\s+", True),  # a character without case
        (r"\b(?:I|we) saw", True),  # an uppercase literal: read in lowercase (session 34)
        (r"(?<![A-Za-z0-9])oom", True),  # a range of uppercase letters: their lowercase too
        (r"\x41", True),  # "A" escaped is an uppercase literal still: read as "a"
        (r"(?-i:oom)\s+killed", False),  # case-sensitive inside: "OOM" is not "oom"
        (r"\u0131f", False),  # dotless i: IGNORECASE equates it with "i"
        (r"x*", False),  # an empty match
    ],
)
def test_a_case_free_pattern_matches_the_lowercased_text(pattern: str, case_free: bool) -> None:
    """Issue 30: a case-free cue reads a lowercased ASCII text case-sensitively (one pass for
    a split, and a search or a match-by-match ``finditer`` anchored where its twin matched)."""
    assert (_case_free(pattern, re.IGNORECASE) is not None) == case_free
    assert _case_free(pattern, 0) is None  # a case-sensitive pattern reads the text as it is
    if not case_free:
        return
    cue = Cue(pattern)
    for text in (f for t in TEXTS for f in _forms(t)):
        assert [(m.span(), m.groups()) for m in cue.finditer(text)] == [
            (m.span(), m.groups()) for m in cue.regex.finditer(text)
        ]
        assert cue.split(text) == cue.regex.split(text)
        assert cue.split(text, 1) == cue.regex.split(text, 1)


def test_a_cue_finds_its_words_in_any_case() -> None:
    hedge = Cue(r"\b(?:might|could (?:be|have))\b")
    for text in ("it MIGHT be", "It Might Be", "COULD HAVE", "x could be"):
        assert hedge.search(text) is not None
    assert hedge.search("mighty") is None  # the \b the prefilter drops still decides
    # non-ASCII: the pattern itself decides (IGNORECASE equates "İ" with "i", which a
    # lowercased prefilter would not see)
    assert hedge.search("It mİght be") is not None
    assert Cue(r"\bmight\b").search("ßMIGHT") is None


@pytest.mark.parametrize(
    ("pattern", "relaxed"),
    [
        (r"\bfoo\b|bar", "foo|bar"),
        (r"[\b]x\b", r"[\b]x"),  # a backspace in a class stays
        (r"[]\b]\bx", r"[]\b]x"),
        (r"[^]\b]\bx", r"[^]\b]x"),
        (r"\\b", r"\\b"),  # an escaped backslash and a b
        (r"\Bfoo\S+", r"\Bfoo\S+"),
        (r"Foo", None),  # an uppercase literal: no prefilter
        (r"(?P<Name>x)", None),
    ],
)
def test_the_prefilter_drops_only_word_boundaries(pattern: str, relaxed: str | None) -> None:
    assert _relaxed(pattern) == relaxed
    if relaxed is not None:
        re.compile(relaxed)


def test_a_bounded_search_is_not_prefiltered() -> None:
    """``$`` matches at ``endpos``: the prefilter over the whole text cannot decide."""
    cue = Cue(r"\bdown$")
    assert cue.search("it is down and out", 0, 10) is not None
    assert cue.search("it is down and out") is None
    assert [m.span() for m in cue.finditer("down; down", 0, 4)] == [(0, 4)]


def test_a_boundary_in_a_negative_lookahead_stays() -> None:
    """``should(?!\\s+i\\b)``: without its ``\\b`` the lookahead refuses "should it" too."""
    assert _relaxed(r"\bshould(?!\s+(?:i|we)\b)") == r"should(?!\s+(?:i|we)\b)"
    assert Cue(r"^should(?!\s+(?:i|we)\b)").search("Should it crash again") is not None


@pytest.mark.parametrize(
    "term", ["OOMKilled", "leak*", "connection pool", "v1.2.3", "service-a", "api-config", "503"]
)
def test_a_terms_and_a_names_literal_prefilter_answer_as_their_patterns(term: str) -> None:
    """``term_regex`` and ``name_regex`` look for the term's longest part (the name) with
    ``in`` first: same answers as their patterns, in every case form."""
    from oasis_eval.evaluation.behaviors._words import name_regex, term_regex

    texts = [
        f"the {term} failed",
        "oom-killed twice, OOM killed, leaking memory, connection-pool exhausted",
        "deployment/service-a and my-service-ab; api-config v1.2.3 returned 503s",
        "nothing of it here",
        "the servİce-a pod",
    ]
    forms = [f for t in texts for f in _forms(t)]
    assert len(forms) == 4 * len(texts)
    for cue in (term_regex(term), name_regex(term.rstrip("*"))):
        for text in forms:
            assert [m.span() for m in cue.finditer(text)] == [
                m.span() for m in cue.regex.finditer(text)
            ], (term, text)


@pytest.mark.parametrize(
    ("pattern", "words"),
    [
        (r"\b(?:(?:root|main)\s+)?causes?\b", ("cause",)),  # the optional group needs nothing
        (r"\b(?:fail\w*|Error\w*|down)\b", ("down", "error", "fail")),
        (r"(?:x)?yzw?", ("yz",)),
        (r"(?-i:OOM)[\s_]*killed", ("killed",)),  # the longest needed run
        (r"a|bc", ()),  # a one-letter alternative is in nearly every text
        (r"[abc]+d?", ()),  # nothing literal
        (r"(?:ab)*cd", ("cd",)),  # a repeat that may not happen needs nothing
        ("|".join(f"w{i:02d}" for i in range(21)), ()),  # more words than a prefilter's worth
    ],
)
def test_a_cues_needed_words_are_held_by_every_match(pattern: str, words: tuple[str, ...]) -> None:
    """Issue 30: a cue looks for the words every match holds with ``in`` before its prefilter."""
    assert needed_words(pattern, re.IGNORECASE) == words
    cue = Cue(pattern)
    for text in ("the root cause", "OOM-killed", "xyzzz", "w07 failed", "ERRORS", "abcd"):
        for form in _forms(text):
            assert (cue.search(form) is None) == (cue.regex.search(form) is None), (pattern, form)


def test_the_evaluators_cues_look_for_needed_words() -> None:
    assert sum(bool(c._needed) for _, c in CUES) >= 60


def test_a_cues_answer_is_kept_per_judgement_only(monkeypatch: pytest.MonkeyPatch) -> None:
    """Issue 30: within one judgement a cue settles a text once; another judgement (another
    memo) and a call outside any judgement settle it again."""
    cue = Cue(r"\bcrash\w*")
    settled: list[str] = []
    real = Cue._settle

    def counted(self: Cue, text: str) -> bool:
        settled.append(text)
        return real(self, text)

    monkeypatch.setattr(Cue, "_settle", counted)
    with judgement_memo({}):
        assert cue.search("it crashed") and cue.search("it crashed")
        assert cue.search("all fine") is None and cue.search("all fine") is None
    assert settled == ["it crashed", "all fine"]
    with judgement_memo({}):
        assert cue.search("it crashed")
    cue.search("it crashed")
    assert settled == ["it crashed", "all fine", "it crashed", "it crashed"]


@pytest.mark.parametrize(
    ("pattern", "factored"),
    [
        (r"(?:might|may|maybe|could (?:be|have)|suspect\w*)", True),
        (r"(?:can't|cannot) (?:yet )?tell|no idea|possibl[ey]", True),  # a group, a class spread
        (r"misleading|red herring|not (?:the|a) cause", True),
        (r"(?:(?:a|b)|c)d|e", True),  # nested openings distributed
        (r"x", True),
        (r"\w+x|ab", False),  # a branch opening with a class of more than letters
        (r"a?b|c", False),  # or with a repeat: its letter may not be there
        (r"(a)|b", False),  # a capturing group: no renumbering
        (r"(?i:ab)|c", False),  # flags of its own
        (r"(?i)ab|c", False),  # letters equated
        (r"^ab|c", False),
        (r"", False),
    ],
)
def test_a_prefilter_is_factored_by_its_first_letters(pattern: str, factored: bool) -> None:
    """Issue 30: a prefilter's alternatives grouped by their first letter (``re`` then skips
    to those letters and tries only their branches) match where and what the pattern does."""
    assert (_factored(sre_parse.parse(pattern)) is not None) == factored
    plain, pre = re.compile(pattern), _prefilter(pattern, 0)
    texts = [t.lower() for t in TEXTS] + ["ab", "bd", "cd", "ed", "e", "xab", "can't yet tell"]
    texts += ["it may be", "mighty", "possibly", "not a cause", "no idea", "a b c d e"]
    for text in texts:
        for at in (0, len(text) // 2):
            found, first = pre.search(text, at), plain.search(text, at)
            assert (found and found.span()) == (first and first.span()), (pattern, text, at)


def _factors(cue: Cue) -> bool:
    """``cue``'s relaxed prefilter has a factored form (:func:`_factored`)."""
    relaxed = _relaxed(cue.pattern)
    if relaxed is None or cue._literal:
        return False
    return _factored(sre_parse.parse(relaxed, cue.flags & ~re.IGNORECASE)) is not None


def test_the_evaluators_prefilters_are_factored() -> None:
    """Most prefilters open with alternatives of words (HEDGE, the fault words, REBUT): each
    has a factored form, which its prefilter is compiled from (an ASCII twin or not)."""
    from oasis_eval.evaluation.behaviors._words import HEDGE

    assert HEDGE._pre is not None and _factors(HEDGE)
    assert sum(_factors(c) for _, c in CUES) >= 100
