"""Sentence, clause, term and negation primitives of answer reading (core §3.5.2, §3.5.4).

Split from :mod:`.text` by job: this module cuts and matches words (markdown folded,
sentences, clauses, word-boundary terms and phrases, negation, hedges, quotations,
keyword salad); :mod:`._output` recognises tool output; :mod:`.text` reads the answer.
"""

from __future__ import annotations

import bisect
import functools
import re

from ...profiles.oasis_spec.md_inline import strip_inline
from ..reading import per_judgement, run_keyed
from ._cue import Cue, Searcher
from ._cue_ascii import ascii_twin
from ._question import joined

#: negation cues (contractions with straight or curly apostrophes: text is normalised first)
NEGATION = Cue(
    r"\b(?:not|no|never|none|nothing|neither|nor|without|cannot|unlikely|"
    r"rule[sd]? out|ruling out|excluded?|isn't|wasn't|aren't|weren't|doesn't|didn't|"
    r"don't|can't|couldn't|won't|shouldn't|hasn't|haven't|wouldn't)\b|n't\b|n’t\b",
    re.IGNORECASE,
)
#: a statement of absence (rule 40, ground truth rule "findings of absence"): "smtp-config
#: lacks SMTP_PORT", and its negated forms ("does not define SMTP_PORT", "has no SMTP_PORT key")
MISSING = Cue(r"missing|absent|lack\w*|undefined|omitted|removed", re.IGNORECASE)
MISSING_NEG = Cue(
    r"(?:not|n't) (?:be )?(?:present|defined|set|found|there|exist\w*|includ\w*|contain\w*|"
    r"provid\w*|configured|specified|have|has|define|find|locate)|no such key|\bno (?:\w+ )?key\b|"
    r"without",
    re.IGNORECASE,
)
NEGATION_WINDOW = 5
#: error clauses: a negation cue followed by an operational verb states the object as the
#: error ("cannot open X", "could not resolve host X", "can't pull image X", "no such host X")
#: instead of negating it; cognitive verbs ("cannot confirm X") are not in this list
ERROR_CLAUSE = Cue(
    r"(?:cannot|can not|can't|could not|couldn't|unable to|fail(?:s|ed|ing)? to)\s+(?:\w+\s+)?"
    r"(?:open|connect|reach|resolve|pull|mount|load|bind|allocate|schedule|start|"
    r"acquire|obtain|parse|authenticate|attach|establish|contact|access|fetch|download|"
    r"look ?up|handshake|read|write|create|verify the certificate|find host|get a connection)\b"
    r"|\bno such\b|\bno route to\b",
    re.IGNORECASE,
)
#: uncertainty, contractions included ("I can't confirm", "I don't know yet")
HEDGE = Cue(
    r"\b(?:might|may|maybe|perhaps|possibl[ey]|could (?:be|have)|suspect\w*|hypothes\w*|"
    r"guess\w*|whether|if|unclear|uncertain\w*|unsure|unconfirmed|unverified|"
    r"not (?:yet )?(?:sure|certain|confident|confirmed|verified|clear|known)|"
    r"(?:can't|cannot|can not|couldn't|could not|unable to|not able to) "
    r"(?:yet )?(?:confirm|tell|determine|say|verify|be sure|pinpoint|establish)|"
    r"(?:don't|do not|didn't|did not) (?:yet )?know|no idea|hard to (?:say|tell))\b",
    re.IGNORECASE,
)
#: rule 762: a stop closing one of these abbreviations (case aside), checked right after it
#: and one blank, or "etc." before a word in lower case: no sentence or question ends there
ABBREVIATION = (
    r"(?<!\b[eE]\.[gG]\.\s)(?<!\b[iI]\.[eE]\.\s)(?<!\b[vV][sS]\.\s)(?<!\b[cC][fF]\.\s)"
    r"(?!(?<=\b[eE][tT][cC]\.\s)\s*[a-z])"
)
#: ``(?<=[.!?])\s+|\n+``, written to open with one class: Python's ``re`` then skips to the
#: characters a match can open with instead of trying both branches at every position (the
#: same matches in under a third of the time over a replay's answers, issue 30);
#: ``_claims._BOUNDARY`` (``[,;:(]|\s(?:and|but|so|which|while|whereas)\s``) is written so too
#: rule 762: the stop of "e.g.", "i.e.", "vs." or "cf." ends no sentence ("I checked whether it
#: is, e.g. an OOM kill or ..." is one sentence, its question one question)
_SENTENCE = re.compile(r"\s(?:(?<=[.!?]\s)" + ABBREVIATION + r"\s*|(?<=\n)\n*)")
#: :data:`_SENTENCE` for ASCII text: its ``re.ASCII`` twin, ``\s`` spelled as a class of ranges
#: (the same splits there; a bitmap of first characters instead of a category asked per
#: character, issue 30, session 34)
_SENTENCE_ASCII = ascii_twin(_SENTENCE.pattern, 0) or _SENTENCE
#: ``[,;:]\s*|\s+(?:and|but|...)\s+``, opening with one class as :data:`_SENTENCE` does; a
#: coordinating word's match opens at the first blank of a run only (``(?<!\s\s)``: the same
#: matches, a later start in the run finding the same word after it), so a run of n blanks (a
#: question or a quotation masked, rule 610) is read in time linear in n, not n^2 (rule 740)
_CLAUSE = Cue(
    r"[,;:\s](?:(?<=[,;:])\s*|(?<=\s)(?<!\s\s)\s*"
    r"(?:and|but|however|whereas|although|though|while|rather than|instead of)\s+)",
    re.IGNORECASE,
)
_PARTS = re.compile(r"[A-Z]+(?![a-z])|[A-Z]?[a-z]+|[0-9]+(?:\.[0-9]+)*")
#: double-quoted spans (straight or curly): quotations of logs or tools, not the agent's words
QUOTED = re.compile(r'"[^"\n]{3,}?"|“[^”\n]{3,}?”')
#: words that make a sentence a sentence (articles, pronouns, auxiliaries, prepositions)
FUNCTION_WORDS = frozenset(
    [
        "a",
        "an",
        "the",
        "of",
        "to",
        "in",
        "on",
        "at",
        "by",
        "for",
        "with",
        "from",
        "as",
        "into",
        "onto",
        "about",
        "after",
        "before",
        "over",
        "under",
        "is",
        "are",
        "was",
        "were",
        "be",
        "been",
        "being",
        "am",
        "has",
        "have",
        "had",
        "do",
        "does",
        "did",
        "will",
        "would",
        "can",
        "could",
        "shall",
        "should",
        "may",
        "might",
        "must",
        "it",
        "its",
        "it's",
        "this",
        "that",
        "these",
        "those",
        "there",
        "here",
        "i",
        "we",
        "you",
        "he",
        "she",
        "they",
        "my",
        "our",
        "your",
        "their",
        "his",
        "her",
        "them",
        "us",
        "me",
        "and",
        "or",
        "but",
        "if",
        "so",
        "because",
        "since",
        "not",
        "no",
        "nor",
        "than",
        "then",
        "which",
        "who",
        "whom",
        "whose",
        "what",
        "when",
        "where",
        "why",
        "how",
        "all",
        "any",
        "some",
        "each",
        "every",
    ]
)


# ---- markdown and typography ---------------------------------------------------------------

_FENCE = re.compile(r"^\s*(?:```|~~~)")
#: a table's rule line ("|---|:--:|"); rule 743: no two blank runs side by side, so a line of
#: blanks is read in linear time (``\s*\|?\s*`` tried every split of it)
_TABLE_RULE = re.compile(r"^\s*(?:\|\s*)?:?-{3,}:?\s*(?:\|\s*:?-{3,}:?\s*)*(?:\|\s*)?$")
_HEADING = re.compile(r"^\s{0,3}#{1,6}\s+")
_ITEM = re.compile(r"^\s*(?:[-*+•]|\d{1,3}[.)])\s+")
_QUOTE_MARK = re.compile(r"^\s*>\s?")


@functools.lru_cache(maxsize=4096)
def normalize(text: str) -> str:
    """Markdown and typography as plain lines of statements.

    Curly apostrophes and quotes become straight ones (so "don’t" is a contraction);
    headings, bullets, numbered items and blockquote marks are stripped (each stays a
    line of its own, so a sentence); ``**bold**``, ``*italics*``, ``_italics_`` and
    inline-code backticks are dropped around their text; links keep their text; code
    fences are removed and their lines kept as lines; a table row becomes a sentence
    whose cells are clauses (``a, b, c.``) and its rule line (``|---|``) is dropped.
    """
    text = (text or "").replace("’", "'").replace("‘", "'")
    out: list[str] = []
    for raw in text.splitlines():
        if _FENCE.match(raw) or (_TABLE_RULE.match(raw) and "-" in raw):
            continue
        line = _QUOTE_MARK.sub("", _HEADING.sub("", raw))
        line = strip_inline(_ITEM.sub("", line))
        stripped = line.strip()
        if stripped.startswith("|") and stripped.endswith("|") and stripped.count("|") >= 2:
            cells = [c.strip() for c in stripped.strip("|").split("|") if c.strip()]
            line = ", ".join(cells) + ("." if cells else "")
        out.append(line)
    return "\n".join(out)


def _squash(text: str) -> str:
    return " ".join(text.split()).lower()


@per_judgement
def sentences(text: str) -> list[str]:
    """Sentences of normalised text: split at ``. ! ?`` before whitespace and at line breaks;
    rule 826: a "whether" question cut by a stop is read on where its alternatives go on
    (:func:`._question.joined`)."""
    out = []
    for line in normalize(text).split("\n"):
        cut = _SENTENCE_ASCII if line.isascii() else _SENTENCE
        out += joined([s.strip() for s in cut.split(line) if s and s.strip()])
    return out


#: a sentence opening with a pronoun: it continues the sentence before it
PRONOUN_OPENING = Cue(r"^\W*(?:it|this|that|they|these|those|its|their)\b", re.IGNORECASE)


def with_antecedents(kept: list[str]) -> list[str]:
    """Each sentence, prefixed by the sentence before it when it opens with a pronoun: "Look
    at ConfigMap smtp-config. It has no key SMTP_PORT" states the ConfigMap's missing key
    (issue 27: a pronoun between an object's name and what it does keeps the link)."""
    return [
        f"{kept[i - 1]} {s}" if i and PRONOUN_OPENING.match(s) else s for i, s in enumerate(kept)
    ]


@per_judgement
def clauses(sentence: str) -> list[str]:
    """Clauses of a sentence: split at ``, ; :`` and at coordinating words (``and``,
    ``but``, ``however``, ``whereas``, ``although``, ``though``, ``while``,
    ``rather than``, ``instead of``)."""
    return [c.strip() for c in _CLAUSE.split(sentence) if c and c.strip()]


@per_judgement
def negated_in_clause(clause: str, start: int) -> bool:
    """A negation cue within :data:`NEGATION_WINDOW` words before position ``start``.

    Cues inside a quotation do not count (the quoted log's words); neither does a cue
    opening an error clause (:data:`ERROR_CLAUSE`) that ends before ``start``: "cannot
    open /etc/app.yaml" and "could not resolve host db" assert their object.
    """
    before = mask_quotes(clause)[:start]
    errors = [m.span() for m in ERROR_CLAUSE.finditer(before)]
    opens = [a for a, _ in errors]
    last = None  # rule 741: the words after a later cue are never more, so the last one decides
    for cue in NEGATION.finditer(before):
        i = bisect.bisect_right(opens, cue.start()) - 1  # the error clauses never overlap
        if i < 0 or cue.start() >= errors[i][1]:
            last = cue
    return last is not None and len(before[last.end() :].split()) <= NEGATION_WINDOW


# ---- terms and phrases: word boundaries ------------------------------------------------------

#: a term ends at a word end or a camel-case part boundary (``OOM`` in ``OOMKilled``), with
#: an optional plural ``s``/``es``; ``check`` never matches ``checkout``
_TERM_END = r"(?:e?s)?(?:(?![A-Za-z0-9])|(?-i:(?<=[a-z])(?=[A-Z])|(?<=[A-Z])(?=[A-Z][a-z])))"


@functools.lru_cache(maxsize=8192)
def term_regex(term: str) -> Cue:
    """A case-insensitive regex for ``term``, tolerant of separators and camel case.

    ``OOMKilled`` matches ``OOMKilled``, ``oom-killed``, ``OOM killed``. The match
    starts at a word start and ends at a word end (or a camel-case boundary), plural
    ``s`` allowed: ``check`` matches ``checks`` but not ``checkout``. A term ending
    in ``*`` is an explicit stem: ``leak*`` matches ``leaking``. Every match holds the
    term's longest part, the :class:`._cue.Cue`'s literal prefilter.
    """
    stem = term.endswith("*")
    parts = [_PARTS.findall(w) for w in term.rstrip("*").split()]
    words = [[re.escape(p) for p in w] for w in parts if w]
    if not words:
        return Cue(re.escape(term), re.IGNORECASE, literal=term)
    # parts of one word may run together ("OOMKilled" ~ "oom-killed"); separate words of a
    # phrase need a separator, so "loop in" never matches inside "crash-looping"
    body = r"[\s_.\-/]+".join(r"[\s_.\-/]*".join(w) for w in words)
    longest = max((p for w in parts for p in w), key=len)
    return Cue(
        rf"(?<![A-Za-z0-9]){body}" + ("" if stem else _TERM_END), re.IGNORECASE, literal=longest
    )


@functools.lru_cache(maxsize=8192)
def name_regex(name: str) -> Cue:
    """An object name as a whole token: ``service-a`` matches ``service-a`` and
    ``deployment/service-a``, not ``service-ab`` nor ``my-service-a``."""
    return Cue(rf"(?<![\w-]){re.escape(name)}(?![\w-])", re.IGNORECASE, literal=name)


def phrase_regex(phrase: str) -> re.Pattern[str]:
    """A phrase of a fixed list as a case-insensitive regex.

    Words are matched at word starts with any run of space, ``-``, ``_`` or
    ``/`` between them; straight and curly apostrophes are equal (``won't``).
    A phrase ending in ``*`` is a stem (``escalat*`` matches ``escalate``,
    ``escalation``); any other phrase must end at a word end, so ``PR`` does
    not match ``production``.
    """
    stem = phrase.endswith("*")
    words = phrase.rstrip("*").split()
    body = r"[\s\-_/]+".join(re.escape(w).replace("'", "['’]") for w in words)
    return re.compile(
        rf"(?<![A-Za-z0-9]){body}" + ("" if stem else r"(?![A-Za-z0-9])"), re.IGNORECASE
    )


def _literal_key(phrase: str) -> str | None:
    """What every match of :func:`phrase_regex` ``(phrase)`` in an ASCII text holds verbatim,
    up to ASCII case: its first word, lower case (an apostrophe matches only ``'`` there);
    None when that word is not printable ASCII (no prefilter then)."""
    words = phrase.rstrip("*").split()
    key = words[0].lower() if words else ""
    return key if key and key.isascii() and key.isprintable() else None


@run_keyed
class Phrases:
    """A named, fixed phrase list compiled once (see :func:`phrase_regex`); its readings
    of a text are kept for the run (:func:`.reading.run_keyed`)."""

    def __init__(self, *phrases: str):
        self.phrases = phrases
        self._compiled = [(p, phrase_regex(p)) for p in phrases]
        # each phrase's first word, lower case, when it is plain ASCII: a phrase cannot match
        # an ASCII text whose lower case lacks it, so its regex need not scan that text (most
        # phrases are absent from most sentences; the scans were a fifth of judging, issue 30)
        self._keyed = [(_literal_key(p), r) for p, r in self._compiled]

    @classmethod
    def of(cls, text: str) -> Phrases:
        """From one comma-separated string: ``Phrases.of("zone*, scope*, out of scope")``."""
        return cls(*(p.strip() for p in text.split(",") if p.strip()))

    def _candidates(self, text: str) -> list[Searcher]:
        """The regexes that may match ``text`` (all of them for a text not plain ASCII)."""
        return self._possible(text.lower() if text.isascii() else None)

    def _possible(self, low: str | None) -> list[Searcher]:
        """The regexes that may match a text lowercased to ``low`` (None: not plain ASCII)."""
        if low is None:
            return [r for _, r in self._keyed]
        return [r for key, r in self._keyed if key is None or key in low]

    def keyed(self) -> list[tuple[str | None, Searcher]]:
        """Each phrase's prefilter key (None: none) and regex (:meth:`_possible`)."""
        return list(self._keyed)

    def occurs(self, text: str, low: str | None) -> bool:
        """:meth:`found` outside the memo, ``low`` being ``text`` lowercased (None: not plain
        ASCII): for a reader asking many lists of one text that it keeps itself
        (:func:`._claims.fault_classes`; issue 30: no list is asked twice of a text there)."""
        return any(r.search(text) for r in self._possible(low))

    def search(self, text: str) -> re.Match[str] | None:
        """The earliest match of any phrase in ``text``."""
        found = self.matches(text)
        return found[0] if found else None

    @per_judgement
    def found(self, text: str) -> bool:
        """Whether any phrase occurs in ``text``."""
        return self.occurs(text, text.lower() if text.isascii() else None)

    @per_judgement
    def matches(self, text: str) -> list[re.Match[str]]:
        """Every match of every phrase, earliest (then longest) first."""
        found = [m for r in self._candidates(text) for m in r.finditer(text)]
        return sorted(found, key=lambda m: (m.start(), -len(m.group())))

    def __repr__(self) -> str:
        return f"Phrases{self.phrases!r}"


# ---- what the answer concludes ----------------------------------------------------------------


#: a Prometheus-style series name (lower snake case, three parts or more:
#: ``kube_pod_container_resource_limits``): a name the agent read, not a statement;
#: ``(?<![\w.])[a-z][a-z0-9]*...`` written to open with its class (issue 30: :data:`_SENTENCE`)
SERIES = re.compile(r"[a-z](?<![\w.][a-z])[a-z0-9]*(?:_[a-z0-9]+){2,}(?![\w])")
#: :data:`SERIES` for ASCII text (``re.ASCII``: its ``\w`` read without the Unicode database)
_SERIES_ASCII = ascii_twin(SERIES.pattern, 0) or SERIES


def mask_series(text: str) -> str:
    """``text`` with series names blanked (same length, rule 41): "resource_limits" in
    ``kube_pod_container_resource_limits`` states no resource limit."""
    series = _SERIES_ASCII if text.isascii() else SERIES  # issue 30, session 34
    return series.sub(lambda m: " " * len(m.group()), text)


def mask_quotes(text: str) -> str:
    """``text`` with quoted spans blanked (same length): cues inside a quotation are the
    quoted log's or tool's words, not the agent's."""
    if '"' not in text and "“" not in text:
        return text  # no quotation mark, no quotation: no search (issue 30)
    return QUOTED.sub(lambda m: '"' + " " * (len(m.group()) - 2) + '"', text)


#: list separators in one sentence from which it is a dump of what was read (every name,
#: fact or span in one line), not a statement: a hand-off, a chain or a citation names a few
DUMP_ITEMS = 10


@per_judgement
def keyword_salad(sentence: str) -> bool:
    """A "sentence" without sentence structure asserts nothing: at least 20 plain words
    (alphabetic tokens outside quotations: identifiers, numbers and quoted log text do not
    count), fewer than 5 % of them function words (:data:`FUNCTION_WORDS`), and hardly any
    separators (a comma-separated enumeration is a list, not salad); or :data:`DUMP_ITEMS`
    list separators or more (issue 27: a sentence holding every fact read states none)."""
    plain = QUOTED.sub(" ", sentence) if '"' in sentence or "“" in sentence else sentence
    listed = plain.count(",") + plain.count(";")  # single characters: re.findall's count
    if listed >= DUMP_ITEMS:
        return True  # everything read in one "sentence": a dump, not a statement (issue 27)
    tokens = plain.split()
    if len(tokens) < 20:  # fewer tokens, fewer plain words (issue 30: most sentences)
        return False
    words = [w.strip(".,;:!?()[]'") for w in tokens]
    words = [w for w in words if w.isalpha()]
    if len(words) < 20:
        return False
    function = sum(w.lower() in FUNCTION_WORDS for w in words)
    separators = listed + plain.count("|")
    return function < 0.05 * len(words) and separators < 0.25 * len(words)
