"""A teaching walkthrough read as a person reads it (behaviors rules 1191-1194; issue 27 item 6,
heldout45, a senior engineer walking a junior through an incident).

- rule 1191: a cause slot opening with a flat "no" to the asked suspect ("The cause: no, the
  node CPU is not the problem: container W is OOMKilled ...") commits to what follows the
  denial, not to the suspect it denies (:func:`denied_lead`);
- rule 1192: "the cause is" in an embedded question ("What it doesn't say: what the cause is,
  or whether ...") asserts nothing (:func:`embedded_question`);
- rule 1193: a misleading signal put in the listener's mouth ("You might think it's the CPU,
  because node-1 is at 97%.") and answered by the very next sentence opening with a contrast
  ("But our pod runs on node-2 ...") takes the discard stance of
  ``identify_misleading_signal`` (its reason still judged as every discard's is); elsewhere
  the sentence stays the hedge it reads as (:func:`listener_rebutted`);
- rule 1194: a trail line's "Before: X." and "After: Y." sentences, side by side, state one
  delta (:func:`before_after`).
"""

from __future__ import annotations

import itertools
import re

_I = re.IGNORECASE

#: rule 1191: "no, <suspect> is not the problem:" opening a cause slot, then what it commits to
_DENIED_LEAD = re.compile(
    r"^\s*(?:no|nope)\s*[,;:\u2014\u2013-]\s*(?P<lead>[^:;\u2014\u2013.]{1,100}?)"
    r"\s*[:;\u2014\u2013]\s*(?P<rest>\S.*)$",
    _I | re.S,
)
_NEGATION = re.compile(r"\b(?:not|never)\b|n't\b", _I)


def denied_lead(slot: str) -> str:
    """Rule 1191: the slot past a leading denial of a suspect ("no, the node CPU is not the
    problem: W is OOMKilled" -> "W is OOMKilled"); the denial must say "not" of something, and
    something must follow it. Any other slot as it is."""
    m = _DENIED_LEAD.match(slot)
    if m is None or not _NEGATION.search(m["lead"]):
        return slot
    return m["rest"].strip()


#: rule 1192: a wh-word right before "the (root) cause is", the copula closing its clause
_WH_BEFORE = re.compile(
    r"\b(?:what|which|whether|how|where|why)\s+(?:(?:the|a|an|its|their|root)\s+){0,2}$", _I
)
_CLAUSE_END = re.compile(r"^\s*(?:[,.;:)?!]|$|\b(?:or|and|nor|yet)\b)", _I)


def embedded_question(text: str, start: int, end: int) -> bool:
    """Rule 1192: the cue ``text[start:end]`` ("the cause is") sits in an embedded question:
    a wh-word right before it and nothing predicated after it ("what the cause is, or ...",
    "I don't know what the root cause is."): the copula ends the clause, no cause is named."""
    return bool(_WH_BEFORE.search(text[max(0, start - 24) : start])) and bool(
        _CLAUSE_END.match(text[end : end + 8])
    )


#: rule 1193: a hypothesis the speaker puts in the listener's mouth
_LISTENER = re.compile(
    r"^\s*(?:you|one|a junior|people|someone|most people)\s+(?:might|may|could|would|will)\s+"
    r"(?:well\s+)?(?:think|assume|guess|suspect|blame|reach for|be tempted|say|expect)\b",
    _I,
)
#: the next sentence answering it: a contrast as its first word
_ANSWERED = re.compile(r"^\s*(?:but|however|except|yet|not here|not so)\b", _I)


def listener_rebutted(sentence: str, following: str | None) -> bool:
    """Rule 1193: ``sentence`` opens with a hypothesis put to the listener ("You might think
    X") and ``following`` (the next kept sentence) opens with a contrast ("But ..."): the
    hypothesis is raised to be taken apart, a discard; without the contrast it stays a hedge."""
    return (
        bool(following)
        and bool(_LISTENER.match(sentence))
        and bool(_ANSWERED.match(following or ""))
    )


_BEFORE = re.compile(r"^\s*before\s*:", _I)
_AFTER = re.compile(r"^\s*after\s*:", _I)


def before_after(sentences: list[str]) -> list[str]:
    """Rule 1194: each "Before: X." sentence joined with the "After: Y." sentence right after
    it (one trail line's sentences, in order): the pair states one delta, as "X -> Y" does."""
    return [
        f"{a} {b}" for a, b in itertools.pairwise(sentences) if _BEFORE.match(a) and _AFTER.match(b)
    ]
