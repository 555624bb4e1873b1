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
    parts = _PARTS.findall(term)
    if not parts:
        return re.compile(re.escape(term), re.IGNORECASE)
    body = r"[\s_.\-/]*".join(re.escape(p) for p in parts)
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

