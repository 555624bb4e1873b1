"""A discard's reason running on its line (behaviors rule 385): "ruled out: H, because R. The
CPU comes from X ..." on one line gives the reason in two sentences; the second is part of the
reason, no cause claim (:func:`._claims.claims`)."""

from __future__ import annotations

import re
from itertools import pairwise

from ._cue import Cue
from ._named_cause import NAMING, labelled_cause
from ._words import mask_quotes, sentences
from .text import AnswerText

#: a discard with its reason ("ruled out: H, because R"): its reason may run on (rule 385)
REASONED = Cue(r"\b(?:because|since)\b", re.IGNORECASE)


def _line_pairs(answer: AnswerText) -> frozenset[tuple[str, str]]:
    """Each sentence with the one after it on the same line of the answer as written (a view
    of an answer, :mod:`._claim_views`, has no lines: none)."""
    source: str = getattr(answer, "source", "")
    return frozenset(pair for line in source.splitlines() for pair in pairwise(sentences(line)))


def reason_run_on(answer: AnswerText, before: str, sentence: str) -> bool:
    """Rule 385: ``sentence`` runs on, on the same line, the reason of the discard before it
    ("ruled out: H, because R. The CPU comes from X ..."): part of that reason, no cause
    claim, unless it names a root cause itself ("Root cause: X", "the culprit is X")."""
    pairs = answer.derived("line pairs", lambda: _line_pairs(answer))
    named = NAMING.search(mask_quotes(sentence)) or labelled_cause(sentence)
    return (before, sentence) in pairs and not named


def on_one_line(answer: AnswerText, before: str, sentence: str) -> bool:
    """``before`` is followed by ``sentence`` on one line of the answer as written (a chat
    message, a paragraph): behaviors rule 426 reads a discard with the sentence before it."""
    pairs = answer.derived(
        "line pairs unquoted",
        lambda: frozenset((a.replace("`", ""), b.replace("`", "")) for a, b in _line_pairs(answer)),
    )
    return (before.replace("`", ""), sentence.replace("`", "")) in pairs  # kept: code unquoted
