"""Five whys: "Why ...? Because ..." read as one chain (behaviors rules 502, 503).

A postmortem asks a question and answers it in the next sentence ("Why did W restart? Because
its container is OOMKilled."); the question states the symptom it asks about and the answer
is its cause. Read sentence by sentence, three things were lost:

- rule 502: a question that rebuts ("Why is the node CPU not the cause?", "Why is X only a
  misleading signal?") carries its rebuttal to its "Because": the answer gives the reason for
  setting the signal aside, as "X is not the cause, because ..." does in one sentence (rule
  366), and the answer just before such a question that the question rebuts (it names what
  the answer said: "Why did the node look suspicious? Because node-1 CPU is at 97%.") is set
  aside by it;
- rule 503: an answer the next question asks about ("... Because its endpoints are empty: no
  pod of W is Ready. Why is W down? Because ...") is a link of the chain, what the later
  answers explain: it is judged as an effect of a right cause the chain commits to later
  (rule 387's symptom side), not as a rival of it; and a "Why" question itself asserts nothing.

Not an evaluator module (the leading ``_`` keeps the registry loader away): read by
:func:`._claims._claims`.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import replace
from typing import Any, TypeVar

from ._cue import Searcher
from ._words import mask_quotes

_C = TypeVar("_C")

_WHY = re.compile(r"^\W*why\b[^?]*\?\s*$", re.IGNORECASE)
_BECAUSE = re.compile(r"^\W*(?:because|since)\b", re.IGNORECASE)
#: rule 540: a sentence whose subject is a pronoun and whose verb gives where a load or a
#: reading comes from ("It comes from X", "That CPU is burned by X"): said right after a
#: rebuttal, the pronoun is the signal just set aside and the sentence its source
_SOURCE = re.compile(
    r"^\W*(?:it|this|that)(?:\s+(?:load|spike|usage|cpu|signal|reading|pressure|traffic))?\s+"
    r"(?:(?:comes?|came|is coming)\s+from|(?:is|was|are|were)\s+(?:driven|burned|burnt|used|"
    r"generated|consumed|produced)\s+by|originates?\s+(?:from|in))\b",
    re.IGNORECASE,
)
_TOKEN = re.compile(r"[a-z0-9]+(?:[-.][a-z0-9]+)*")
#: words a question and an answer share without being about one thing
_COMMON = frozenset(
    [
        "the",
        "and",
        "its",
        "it's",
        "that",
        "this",
        "was",
        "were",
        "are",
        "is",
        "did",
        "does",
        "do",
        "why",
        "because",
        "since",
        "not",
        "only",
        "with",
        "for",
        "from",
        "into",
        "than",
        "then",
        "there",
        "their",
        "they",
        "them",
        "have",
        "has",
        "had",
        "been",
        "being",
        "any",
        "all",
        "our",
        "we",
        "you",
        "your",
        "what",
        "which",
        "who",
        "how",
        "when",
        "where",
        "also",
        "just",
        "more",
        "most",
        "very",
    ]
)


def is_why(sentence: str) -> bool:
    """A "Why ...?" question (quotations blanked)."""
    return bool(_WHY.match(mask_quotes(sentence).strip()))


def is_answer(sentence: str) -> bool:
    """A sentence opening with "Because" / "Since": the answer to the question before it."""
    return bool(_BECAUSE.match(sentence.strip()))


def _words(text: str) -> set[str]:
    found = _TOKEN.findall(mask_quotes(text).lower())
    return {t for t in found if len(t) >= 3 and t not in _COMMON}


def asks_about(question: str, answer: str) -> bool:
    """The question names something the answer said: a shared content word or name."""
    return bool(
        _words(question) & _words(re.sub(r"^\W*(?:because|since)\b", "", answer, flags=re.I))
    )


def roles(kept: Sequence[str], rebuts: Searcher) -> dict[int, str]:
    """For each answer of a chain (index into ``kept``): ``reason`` (it answers a rebutting
    question, rule 502), ``aside`` (the next question rebuts what it said, rule 502) or
    ``link`` (the next question asks about it, rule 503); and ``question`` for each "Why"
    question answered by the next sentence."""
    out: dict[int, str] = {}
    for i, sentence in enumerate(kept):
        if is_why(sentence) and i + 1 < len(kept) and is_answer(kept[i + 1]):
            out[i] = "question"
        if i and rebuttal_source(kept[i - 1], sentence, rebuts):
            out[i] = "reason"  # rule 540
            continue
        if not is_answer(sentence) or not i or not is_why(kept[i - 1]):
            continue
        if rebuts.search(mask_quotes(kept[i - 1])):
            out[i] = "reason"
            continue
        nxt = kept[i + 1] if i + 1 < len(kept) else ""
        if is_why(nxt) and asks_about(nxt, sentence):
            out[i] = "aside" if rebuts.search(mask_quotes(nxt)) else "link"
    return out


def rebuttal_source(before: str, sentence: str, rebuts: Searcher) -> bool:
    """Rule 540: ``sentence`` gives the source of the signal ``before`` (a statement, not a
    question) rebuts: "The node CPU is not the cause. It comes from batch-x, a noisy
    neighbour." The pronoun takes the rebutted subject, so the sentence explains the discard
    (the reason of a rebuttal, as rule 502's "Because" does) and blames nothing."""
    return (
        bool(_SOURCE.match(mask_quotes(sentence)))
        and not is_why(before)
        and bool(rebuts.search(mask_quotes(before)))
    )


def aside_at(kept: Sequence[str], rebuts: Searcher) -> set[int]:
    """Rule 502: the answers a why-chain sets aside or gives as a rebuttal's reason (indexes
    into ``kept``; ``rebuts``: the claims' rebuttal cue): read by the detectors that take one
    sentence at a time."""
    return {i for i, role in roles(kept, rebuts).items() if role in ("reason", "aside")}


def in_chain(found: tuple[Any, ...], role: str) -> tuple[Any, ...]:
    """A sentence's claims (``._claims.Claim``) as its place in a why-chain reads them: the
    reason of a rebuttal, or an answer set aside, blames nothing (rule 502), marked ``aside``
    so that the faults it states are still judged (rule 590); a link is marked (rule 503)."""
    if role in ("reason", "aside") and found:
        return (
            replace(
                found[0],
                hedged=False,
                causal=False,
                rebutted=True,
                cause="",
                candidate=False,
                aside=True,
            ),
        )
    if role == "link":
        return tuple(replace(c, link=True) for c in found)
    return found


def right_later(read: Sequence[_C], commits_right: Callable[[_C], bool]) -> list[bool]:
    """Rule 503: for each claim, whether a claim after it commits a right cause."""
    out, seen = [False] * len(read), False
    for k in range(len(read) - 1, -1, -1):
        out[k] = seen
        seen = seen or commits_right(read[k])
    return out
