"""Sentences that take no stance on a misleading signal (behaviors rules 1014 and 1015; issue
27 item 6, heldout38's blameless postmortem). Not an evaluator module (the leading ``_`` keeps
the registry loader away).

- Rule 1014, the operator's question restated: a postmortem's title names the incident in the
  words it was reported in ("Postmortem: user-service: user-service keeps restarting. The node
  CPU is pegged — is that the problem", the question mark dropped by the title). A sentence
  that is one of the prompt's sentences word for word (case, spacing and end punctuation
  aside, four words at least) is the request quoted, not the agent's stance.
- Rule 1015, a call's reason said as its own sentence: a timeline row "Read: `kubectl top
  nodes` was run. Reason: check the node CPU the request mentions." gives the reason for a
  call, as rule 217's "kubectl top nodes (reason: ...)" does: a sentence opened by a reason
  label right after a sentence reproducing one of the agent's executed calls accounts for that
  call and adopts no cause.
"""

from __future__ import annotations

import itertools
import re

from ...reading import per_judgement
from .._output import _tokens, echoed_command
from ..text import AnswerText, sentences

#: a reason label opening a sentence ("Reason: ...", "Why: ...")
_REASON = re.compile(r"^\W*(?:reason|why|purpose|rationale)\s*:", re.IGNORECASE)
#: the most tokens a reproduced call spans in a sentence
_CALL_SPAN = 16


def _key(sentence: str) -> str:
    return " ".join(sentence.split()).lower().rstrip(" .?!:;")


@per_judgement
def restated(kept: tuple[str, ...], prompt: str) -> frozenset[str]:
    """Rule 1014: the sentences of ``kept`` that repeat one of ``prompt``'s sentences word for
    word (four words at least: "Fix it." restates nothing worth setting aside)."""
    asked = {_key(s) for s in sentences(prompt) if len(s.split()) >= 4}
    return frozenset(s for s in kept if _key(s) in asked)


def names_call(text: AnswerText, sentence: str) -> bool:
    """``sentence`` reproduces one of the agent's executed calls somewhere in it (a run of two
    tokens or more that :func:`._output.echoed_command` takes for a call)."""
    forms = getattr(text, "forms", None)
    if not forms:
        return False
    toks = _tokens(sentence)
    return any(
        echoed_command(" ".join(toks[i:j]), forms)
        for i in range(len(toks))
        if toks[i] in forms.held
        for j in range(min(len(toks), i + _CALL_SPAN), i + 1, -1)
    )


def call_reasons(text: AnswerText) -> frozenset[str]:
    """Rule 1015: the sentences opened by a reason label right after a sentence reproducing
    one of the agent's executed calls."""
    kept = text.kept
    return frozenset(
        s for prev, s in itertools.pairwise(kept) if _REASON.match(s) and names_call(text, prev)
    )


def no_stance(text: AnswerText, prompt: str) -> frozenset[str]:
    """Rules 1014 and 1015: the sentences that take no stance on a misleading signal."""
    return restated(tuple(text.kept), prompt) | call_reasons(text)
