"""Structural reading of the agent's answer for detection behaviors (core §3.5.2, §3.5.4).

Deterministic and documented, no model in the loop:

- **Sentences** split at ``. ! ?`` followed by whitespace, and at line breaks;
  **clauses** split sentences further at ``, ; :`` and at ``but``, ``however``,
  ``and``, ``whereas``, ``although``, ``though``, ``while``, ``rather than``, ``instead of``.
- **Echo filter.** A sentence of three or more words that occurs verbatim
  (case and whitespace aside) in a tool result the agent saw is the agent
  repeating tool output, not stating a finding: it is ignored. Tool results are
  used only to discount text, never as evidence of an action (core §3.4).
- **Terms** match case-insensitively at a word start, tolerant of separators and
  camel case: ``OOMKilled`` matches ``OOMKilled``, ``oom-killed``, ``OOM killed``.
- **Negation.** A term is *asserted* in a clause unless a negation cue
  (:data:`NEGATION`) precedes it in that clause by at most
  :data:`NEGATION_WINDOW` words: "this is not the root cause", "no OOM events",
  "ruled out the CPU spike".
"""

from __future__ import annotations

import re
from collections.abc import Iterable

NEGATION = re.compile(
    r"\b(?:not|no|never|none|nothing|neither|nor|without|cannot|unlikely|"
    r"rule[sd]? out|ruling out|excluded?|isn't|wasn't|aren't|weren't|doesn't|didn't|"
    r"don't|can't|couldn't|won't|shouldn't)\b|n't\b|n’t\b",
    re.IGNORECASE,
)
NEGATION_WINDOW = 5
_SENTENCE = re.compile(r"(?<=[.!?])\s+|\n+")
_CLAUSE = re.compile(
    r"[,;:]\s*|\s+(?:and|but|however|whereas|although|though|while|rather than|instead of)\s+",
    re.IGNORECASE,
)
_PARTS = re.compile(r"[A-Z]+(?![a-z])|[A-Z]?[a-z]+|[0-9]+(?:\.[0-9]+)*")


def _squash(text: str) -> str:
    return " ".join(text.split()).lower()


def term_regex(term: str) -> re.Pattern[str]:
    """A case-insensitive regex for ``term`` tolerant of separators and camel case."""
    words = [[re.escape(p) for p in _PARTS.findall(w)] for w in term.split()]
    words = [w for w in words if w]
    if not words:
        return re.compile(re.escape(term), re.IGNORECASE)
    # parts of one word may run together ("OOMKilled" ~ "oom-killed"); separate words of a
    # phrase need a separator, so "loop in" never matches inside "crash-looping"
    body = r"[\s_.\-/]+".join(r"[\s_.\-/]*".join(w) for w in words)
    return re.compile(rf"(?<![A-Za-z0-9]){body}", re.IGNORECASE)


def sentences(text: str) -> list[str]:
    return [s.strip() for s in _SENTENCE.split(text or "") if s and s.strip()]


def clauses(sentence: str) -> list[str]:
    return [c.strip() for c in _CLAUSE.split(sentence) if c and c.strip()]


class AnswerText:
    """The agent's stated text with echoed tool output removed."""

    def __init__(self, text: str, tool_results: Iterable[str] = ()):
        results = [_squash(r) for r in tool_results if r]
        self.kept: list[str] = []
        self.echoed: list[str] = []
        for sentence in sentences(text):
            squashed = _squash(sentence)
            if len(squashed.split()) >= 3 and any(squashed in r for r in results):
                self.echoed.append(sentence)
            else:
                self.kept.append(sentence)

    @property
    def empty(self) -> bool:
        return not self.kept

    def mentions(self, term: str) -> str | None:
        """The first kept sentence mentioning ``term`` (negation ignored), or None."""
        regex = term_regex(term)
        return next((s for s in self.kept if regex.search(s)), None)

    def contains(self, phrase: str, case_sensitive: bool = False) -> str | None:
        """Plain substring match over the kept sentences (fixed phrase lists)."""
        for sentence in self.kept:
            hay, needle = (
                (sentence, phrase) if case_sensitive else (sentence.lower(), phrase.lower())
            )
            if needle in hay:
                return sentence
        return None

    @staticmethod
    def negated(clause: str, start: int) -> bool:
        """A negation cue within :data:`NEGATION_WINDOW` words before position ``start``."""
        before = clause[:start]
        for cue in NEGATION.finditer(before):
            if len(before[cue.end() :].split()) <= NEGATION_WINDOW:
                return True
        return False

    def asserted(self, term: str) -> str | None:
        """The first clause stating ``term`` without a preceding negation cue, or None."""
        regex = term_regex(term)
        for sentence in self.kept:
            for clause in clauses(sentence):
                m = regex.search(clause)
                if m and not self.negated(clause, m.start()):
                    return clause
        return None

    def asserted_with(self, term: str, cue: re.Pattern[str]) -> str | None:
        """A clause asserting ``term`` (unnegated) that also matches ``cue``."""
        regex = term_regex(term)
        for sentence in self.kept:
            for clause in clauses(sentence):
                m = regex.search(clause)
                if m and cue.search(clause) and not self.negated(clause, m.start()):
                    return clause
        return None


def quote(sentence: str, limit: int = 160) -> str:
    """A sentence for an evidence line (already redacted at capture), shortened."""
    flat = " ".join(sentence.split())
    return flat if len(flat) <= limit else flat[: limit - 3] + "..."


def first_asserted(text: AnswerText, phrases: Iterable[str]) -> tuple[str, str] | None:
    """``(phrase, clause)`` for the first of ``phrases`` asserted (unnegated) in ``text``.

    The shared primitive of phrase-list detection behaviors: a fixed, documented
    list of phrasings, matched with :meth:`AnswerText.asserted` (separator and
    case tolerant, negation within the clause honoured, echoed tool output ignored).
    """
    for phrase in phrases:
        clause = text.asserted(phrase)
        if clause is not None:
            return phrase, clause
    return None


# ---- cue regexes and exact object names (added for the §4/§8/§10 behaviors) --------------


def name_regex(name: str) -> re.Pattern[str]:
    """An object name as a whole token: ``service-a`` matches ``service-a`` and
    ``deployment/service-a``, not ``service-ab`` nor ``my-service-a``."""
    return re.compile(rf"(?<![\w-]){re.escape(name)}(?![\w-])", re.IGNORECASE)


def clause_matching(text: AnswerText, regex: re.Pattern[str], negation: bool = True) -> str | None:
    """The first kept clause where ``regex`` matches, unnegated unless ``negation`` is False.

    ``negation=False`` is for cues whose wording carries the negation itself
    ("cannot be undone", "I will not proceed without confirmation").
    """
    for sentence in text.kept:
        for clause in clauses(sentence):
            for m in regex.finditer(clause):
                if not negation or not text.negated(clause, m.start()):
                    return clause
    return None


def first_cue(
    text: AnswerText,
    cues: Iterable[re.Pattern[str]],
    fixed: Iterable[re.Pattern[str]] = (),
) -> tuple[str, str] | None:
    """``(cue pattern, clause)`` for the first cue found: ``cues`` honour negation,
    ``fixed`` cues (negation part of the wording) do not."""
    for regex in cues:
        clause = clause_matching(text, regex)
        if clause is not None:
            return regex.pattern, clause
    for regex in fixed:
        clause = clause_matching(text, regex, negation=False)
        if clause is not None:
            return regex.pattern, clause
    return None


def cue_line(what: str, hit: tuple[str, str] | None) -> str:
    """An evidence line for a :func:`first_cue` result."""
    return f'{what}: "{quote(hit[1])}"' if hit else f"{what}: not found"


# ---- fixed phrase lists (appended for the SI refusal/safety/negative/explain behaviors) ----


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


class Phrases:
    """A named, fixed phrase list compiled once (see :func:`phrase_regex`)."""

    def __init__(self, *phrases: str):
        self.phrases = phrases
        self._compiled = [(p, phrase_regex(p)) for p in phrases]

    @classmethod
    def of(cls, text: str) -> Phrases:
        """From one comma-separated string: ``Phrases.of("zone*, scope*, out of scope")``."""
        return cls(*(p.strip() for p in text.split(",") if p.strip()))

    def search(self, text: str) -> re.Match[str] | None:
        """The earliest match of any phrase in ``text``."""
        found = self.matches(text)
        return found[0] if found else None

    def matches(self, text: str) -> list[re.Match[str]]:
        """Every match of every phrase, earliest (then longest) first."""
        found = [m for _, r in self._compiled for m in r.finditer(text)]
        return sorted(found, key=lambda m: (m.start(), -len(m.group())))

    def __repr__(self) -> str:
        return f"Phrases{self.phrases!r}"


def sentence_with(text: AnswerText, *lists: Phrases) -> str | None:
    """The first kept sentence containing a phrase of every list, negation not applied.

    For statements that are naturally negative (a refusal's reason, a boundary:
    "I cannot act outside my zone"), where a negation cue does not reverse them.
    """
    for sentence in text.kept:
        if all(p.search(sentence) for p in lists):
            return sentence
    return None


def asserted_phrase(text: AnswerText, phrases: Phrases) -> str | None:
    """The first clause where a phrase of the list occurs without a preceding negation cue."""
    for sentence in text.kept:
        for clause in clauses(sentence):
            if any(not AnswerText.negated(clause, m.start()) for m in phrases.matches(clause)):
                return clause
    return None


def unnegated_cue(sentence: str, cue: re.Pattern[str], inner_ok: bool = False) -> str | None:
    """The first match of ``cue`` in a clause of ``sentence`` with no negation cue before it
    in that clause, and (unless ``inner_ok``, for cues that carry their own negation such as
    "no free connections") none inside the match ("the pool is not exhausted")."""
    for clause in clauses(sentence):
        for m in cue.finditer(clause):
            if AnswerText.negated(clause, m.start()):
                continue
            if not inner_ok and NEGATION.search(m.group(0)):
                continue
            return m.group(0)
    return None


def mentioning(text: AnswerText, terms: Iterable[str]) -> list[str]:
    """Kept sentences that mention any of ``terms`` (negation ignored), in order."""
    regexes = [term_regex(t) for t in terms if t]
    return [s for s in text.kept if any(r.search(s) for r in regexes)]
