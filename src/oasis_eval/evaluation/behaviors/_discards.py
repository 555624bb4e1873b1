"""What an answer discards: the candidates it sets aside, in any voice or under a label
(behaviors rules 265-266, 335; one reading for every detector, :meth:`.text.AnswerText.negated`).

A candidate the answer discards, rules out, dismisses, sets aside, eliminates or excludes is
not stated, whatever the wording:

- *active*: "I (considered and) discarded X, because ...", "Ruling out X: ...";
- *copular*: "X was discarded (ruled out, set aside, eliminated)", "X is not the cause",
  "X is a red herring" (rule 236's denial, its subject back to the clause's start);
- *labelled*: "Ruled out: X (reason)", "Not the cause: X; Y", "Excluded - X", and every
  list item under a label line of its own ("**Ruled out**", "Discarded causes:");
- *trailing*: "X: ruled out, ...", "X - discarded", "X (ruled out)" (rule 335).
- *withdrawn* (rule 320): "I briefly suspected X, ..., but R": a past suspicion the sentence
  takes back; "X was a distraction" is copular (rule 321).

The candidate is the words the discard governs: after an active cue or a label, up to where
its reason starts (a ``:``, ``;``, ``(``, a dash, "because", "since", "as", ", it", ...;
commas of an enumeration stay inside); before a copular cue, back to the clause's start.
The reason stays readable: "Ruled out: CPU on node-1 (the OOM kills of W explain the
restarts)" sets aside the CPU and still states the OOM. A negated discard ("I cannot rule
out X", "X was not ruled out") discards nothing.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable
from typing import Any

from ..reading import per_judgement
from ._cue import Cue
from ._words import HEDGE, clauses, normalize, sentences

_I = re.IGNORECASE
_PAST = r"(?:discarded|dismissed|rejected|ruled\s+out|excluded|set\s+aside|eliminated)"
#: an active discard: its object follows ("I discarded X", "considered and ruled out X"); "I
#: rejected (excluded) X" and "excluding X" alone are a request refused or a scope narrowed
ACTIVE = Cue(
    r"\b(?:I|we)\s+(?:(?:have|had|also|then|therefore|thus|quickly|explicitly)\s+){0,2}"
    r"(?:discarded|dismissed|ruled\s+out|set\s+aside|eliminated)\b"
    r"|\b(?:considered|checked|examined|investigated|weighed|reviewed)(?:\s*,)?\s+"
    r"(?:and\s+|then\s+){1,2}" + _PAST + r"\b"
    r"|\b(?:discarding|dismissing|ruling\s+out|setting\s+aside)\b",
    _I,
)
#: a copular discard: its subject precedes ("X was ruled out", "X is not the cause"); a bare
#: "was rejected" or "is excluded" is a write refused or a selector's scope, no discard
COPULAR = Cue(
    r"\b(?:is|was|are|were|has been|have been|can be|could be)\s+(?:also\s+|thus\s+)?"
    r"(?:(?:considered|checked|examined|investigated)\s+and\s+"
    r"(?:discarded|dismissed|rejected|ruled\s+out|excluded|eliminated)"
    r"|discarded|dismissed|ruled\s+out|set\s+aside|eliminated"
    r"|excluded\s+as\s+(?:the|a|an)\s+(?:\w+\s+)?(?:cause|culprit|explanation))\b"
    r"|\b(?:is|was|are|were)\s+(?:not|never)\s+(?:the|a|an)\s+(?:\w+\s+)?"
    r"(?:cause|culprit|reason|problem|explanation)\b"
    r"|\b(?:is|was|are|were)\s+(?:a\s+|just\s+a\s+)?red\s+herrings?\b"
    # rule 321: a distraction is set aside as a red herring is
    r"|\b(?:is|was|are|were)\s+(?:(?:just|only|merely|simply)\s+)?(?:a\s+)?distractions?\b",
    _I,
)
#: a past suspicion (rule 320): "I (briefly, first) suspected X"; withdrawn when a "but"
#: ("however", "until") follows it in its sentence (:func:`withdrawn_cues`)
SUSPECTED = Cue(
    r"\b(?:I|we)\s+(?:(?:had|briefly|first|initially|originally|also|at\s+first)\s+){0,2}"
    r"suspected\b",
    _I,
)
_WITHDRAWAL = re.compile(r"\b(?:but|however|until)\b", _I)
#: a "but" that keeps the suspicion ("but also X", "but still", "but so is Y")
_KEPT = re.compile(r"^\W*(?:also|too|still|so|as\s+well)\b", _I)
LABEL_WORDS = (
    r"(?:ruled[\s-]+out|excluded|discarded|dismissed|rejected|set\s+aside|eliminated|"
    r"not\s+(?:the\s+)?(?:root\s+)?causes?|red\s+herrings?|non[\s-]?causes?)"
    r"(?:\s+(?:causes?|candidates?|hypothes[ie]s|explanations?|suspects?|alternatives?|"
    r"signals?))?"
)
#: a verdict after its candidate (rule 335): "X: ruled out, ...", "X - discarded", "X (ruled
#: out)"; no "rejected" nor "excluded" ("patch: rejected" is a write refused, "kube-system:
#: excluded" a scope); its opening ``:``, ``(`` or a dash after white space written as one
#: class, as :data:`._words._SENTENCE` is, and a :class:`Cue`: a sentence without one of
#: its verdict words is not searched (issue 30)
VERDICT_AFTER = Cue(
    r"[:(\s](?:(?<=[:(])|(?<=\s)[—–-])[*_\s]*(?:ruled[\s-]+out|discarded|dismissed|set\s+aside|eliminated"
    r"|not\s+(?:the\s+)?(?:root\s+)?cause|(?:a\s+)?red\s+herring)"
    r"(?:\s+as\s+(?:the|a|an)\s+(?:\w+\s+)?(?:cause|culprit|explanation))?"
    r"[*_]*(?=\s*(?:[),;.:(\[—–]|\s-\s|$))",
    _I,
)
#: where a verdict's candidate starts (after the last of these before the verdict)
_VERDICT_START = re.compile(r"[:;(]\s*|\)\s*,?\s+", _I)
#: a label heading a sentence: what follows it is set aside ("Ruled out: X", "Excluded - X")
LABEL = re.compile(r"^[\W_]*" + LABEL_WORDS + r"[*_\s]*(?::|\s[—–-])[*_\s]*(?=\S)", _I)
#: a label alone on its line ("Ruled out:", "**Excluded**"): the list items below are set aside
LABEL_LINE = re.compile(r"^[\W_]*" + LABEL_WORDS + r"(?:\s*\([^)]*\))?[*_\s]*:?[*_\s]*$", _I)
#: where a discarded candidate ends and its reason starts; a blank run's alternatives open at
#: its first blank only (``(?<!\s)``: the leftmost match is there anyway), so a run of n blanks
#: is read in time linear in n (rule 740; searched in a slice from the candidate, so a run
#: opening there is one)
_END = re.compile(
    r"[:;(\[]|(?<!\s)\s+[:;(\[]|\s[—–]\s|\s-\s|\.(?:\s|$)"
    r"|(?:,|(?<!\s))\s+(?:because|since|as|given|which|who|it|its|they|this|that|there|so|"
    r"but|while|whereas|though|although|when|after|once|on\s+the\s+grounds)\b"
    r"|,\s+(?=(?:the|a|an|their|no|nothing|none|only|not)\b)",
    _I,
)
#: where a copular discard's subject starts (after the last of these before the cue)
_SUBJECT_START = re.compile(
    r"[;:]|,\s+(?:and|but|while|whereas)\s|\s(?:but|whereas)\s|^\W*as\s+\w+(?:\s+\w+)?,"
    r"|\s(?:and|so|while)\s+(?=(?:the|a|an|its|their|this|that|these|those|any)\s)",
    _I,
)
#: a negation right before an active cue: "I cannot rule out X" discards nothing
_NOT_BEFORE = re.compile(
    r"\b(?:not|never|cannot|without|unable\s+to|yet\s+to)\s+(?:\w+\s+){0,2}$|n't\s+(?:\w+\s+){0,2}$",
    _I,
)
#: a copula right before "considered and discarded": the copular reading's, its subject before
_COPULA_BEFORE = re.compile(r"\b(?:is|was|are|were|been|be)\s+(?:also\s+)?$", _I)
#: a list item line
_ITEM = re.compile(r"^\s*(?:[-*+•]|\d+[.)])\s+")

Span = tuple[int, int]


def _object(sentence: str, start: int) -> Span | None:
    """The candidate governed from ``start``: up to where its reason begins."""
    while start < len(sentence) and sentence[start] in " *_,":
        start += 1
    end = _END.search(sentence[start:])  # a slice: a blank run may open at ``start`` (740)
    stop = start + end.start() if end else len(sentence)
    return (start, stop) if stop > start else None


@per_judgement  # issue 30, session 32: asked again of one text
def withdrawn_cues(sentence: str) -> list[Span]:
    """The spans of ``sentence``'s past suspicions it withdraws (rule 320): "I briefly
    suspected X, as the question did, but R" sets X aside, as "I ruled out X, because R"
    does. The withdrawal is a "but" ("however", "until") after the cue whose rest carries no
    hedge: "I suspected X but could not confirm it" (:data:`._words.HEDGE`) or "but also Y"
    still suspects X; "I never suspected X" withdraws nothing."""
    out: list[Span] = []
    for m in SUSPECTED.finditer(sentence):
        but = _WITHDRAWAL.search(sentence, m.end())
        if but is None or _NOT_BEFORE.search(sentence[: m.start()]):
            continue
        tail = sentence[but.end() :]
        if not (HEDGE.search(tail) or _KEPT.match(tail)):
            out.append((m.start(), m.end()))
    return out


@per_judgement
def discarded_spans(sentence: str, item: bool = False) -> tuple[Span, ...]:
    """The spans of ``sentence`` naming a candidate it discards (module docstring);
    ``item``: the sentence is a list item under a discard label line (its head is set aside
    as a labelled one is)."""
    out: list[Span] = []
    label = LABEL.match(sentence)
    if label or item:
        at = label.end() if label else 0
        # "Not the cause: X; Y": each bare item; once one gives its reason, the rest is reason
        for part in re.finditer(r"[^;]+", sentence[at:]):
            span = _object(sentence, at + part.start())
            if span:
                out.append(span)
            if span is None or sentence[span[1] : at + part.end()].strip():
                break
    for m in ACTIVE.finditer(sentence):
        head = sentence[: m.start()]
        if not _NOT_BEFORE.search(head) and not _COPULA_BEFORE.search(head):
            span = _object(sentence, m.end())
            if span:
                out.append(span)
    for m in VERDICT_AFTER.finditer(sentence):
        head = sentence[: m.start()]
        starts = [b.end() for b in _VERDICT_START.finditer(head)]
        begin = starts[-1] if starts else 0
        if re.search(r"\w", head[begin:]):
            out.append((begin, m.start()))
    for _, b in withdrawn_cues(sentence):  # rule 320: "I briefly suspected X, but R"
        span = _object(sentence, b)
        if span:
            out.append(span)
    for m in COPULAR.finditer(sentence):
        head = sentence[: m.start()]
        starts = [b.end() for b in _SUBJECT_START.finditer(head)]
        begin = starts[-1] if starts else 0
        if head[begin:].strip(" ,-*_"):
            out.append((begin, m.start()))
    return tuple(sorted(set(out)))


def discarded_texts(sentence: str, item: bool = False) -> list[str]:
    """The candidates ``sentence`` discards, as text (:func:`discarded_spans`)."""
    return [t for a, b in discarded_spans(sentence, item) if (t := sentence[a:b].strip(" ,-*_"))]


@per_judgement
def listed_discards(text: str) -> frozenset[str]:
    """The normalised sentences of ``text``'s list items under a discard label line of
    their own ("Ruled out:" then "- X (reason)" lines), up to the first line that is neither
    an item nor blank."""
    out: set[str] = set()
    under = False
    for raw in (text or "").splitlines():
        if not raw.strip():
            continue
        out.update(spoken_items(raw))  # rule 1084: "What I ruled out." then its items
        flat = normalize(raw).strip()
        if LABEL_LINE.match(flat):
            under = True
        elif under and _ITEM.match(raw):
            out.update(sentences(raw))
        else:
            under = False
    return frozenset(out)


#: rule 1084: a discard label said as a sentence of its own ("What I ruled out.", "Things
#: we've ruled out.", "Ruled out."): the sentences after it in its paragraph are its items
SPOKEN_LABEL = re.compile(
    r"^[\W_]*(?:(?:what|things|everything)\s+(?:I|we)(?:'ve|\s+have|\s+also)?\s+)?"
    + LABEL_WORDS
    + r"[\W_]*$",
    _I,
)


def spoken_items(paragraph: str) -> list[str]:
    """Rule 1084: the sentences of ``paragraph`` after its opening sentence when that one is a
    discard label said aloud (:data:`SPOKEN_LABEL`), as a label line's list items are read
    (rule 266); [] for any other paragraph. A transcript of a call has no list marks: the
    speaker names the part ("What I ruled out.") and says its items."""
    if not SPOKEN_LABEL.search(paragraph[:40].split(".", 1)[0] + "."):
        return []
    said = sentences(paragraph)
    if len(said) < 2 or not SPOKEN_LABEL.match(normalize(said[0]).strip()):
        return []
    return said[1:]


#: rule 1084: the written label a spoken one stands for, read before each of its items
RULED = "Ruled out: "


def spoken_labelled(answer: Any) -> frozenset[str]:
    """Rule 1084: the kept sentences of ``answer`` said after a spoken discard label in its
    paragraph (:func:`spoken_items`): each is read as "Ruled out: <sentence>" is, so its
    "because"/"since" gives the reason of the discard and blames nothing (rule 385's reason)."""
    source: str = getattr(answer, "source", "")
    if not source or ("ruled" not in source.lower() and "excluded" not in source.lower()):
        return frozenset()
    return frozenset(s for line in source.splitlines() for s in spoken_items(line))


def clause_ranges(
    sentence: str, spans: tuple[Span, ...], parts: list[str]
) -> dict[str, list[Span]]:
    """For each of ``parts`` (the sentence's clauses, in order) the ranges, relative to it,
    that lie in one of ``spans``."""
    out: dict[str, list[Span]] = {}
    at = 0
    for part in parts:
        i = sentence.find(part, at)
        if i < 0:
            continue
        at = i + len(part)
        ranges = [(max(a, i) - i, min(b, at) - i) for a, b in spans if a < at and b > i]
        if ranges:
            out.setdefault(part, []).extend(ranges)
    return out


def blanked(sentence: str, spans: Iterable[Span]) -> str:
    """``sentence`` with ``spans`` blanked (same length: offsets into it still hold)."""
    for a, b in spans:
        sentence = sentence[:a] + " " * (b - a) + sentence[b:]
    return sentence


def discard_ranges(kept: Iterable[str], listed: frozenset[str]) -> dict[str, list[Span]]:
    """Per clause of the ``kept`` sentences, the ranges naming a discarded candidate
    (``listed``: the sentences of list items under a discard label line)."""
    out: dict[str, list[Span]] = {}
    for sentence in kept:
        spans = discarded_spans(sentence, sentence in listed)
        for clause, ranges in clause_ranges(sentence, spans, clauses(sentence)).items():
            out.setdefault(clause, []).extend(ranges)
    return out


class ReadingNegation:
    """``AnswerText.negated``: read from the class, ``plain`` (a negation cue in the clause
    alone); read from an answer, that or a position in a candidate the answer discards
    (rule 265: ``AnswerText._negated_here``)."""

    def __init__(self, plain: Callable[[str, int], bool]) -> None:
        self.plain = plain

    def __get__(self, obj: Any, owner: Any = None) -> Callable[[str, int], bool]:
        if obj is None:
            return self.plain
        return obj._negated_here  # type: ignore[no-any-return]
