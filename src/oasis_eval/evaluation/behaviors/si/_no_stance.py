"""A call's reason said as its own sentence takes no stance (behaviors rule 1014; issue 27
item 6, heldout38's blameless postmortem). Not an evaluator module (the leading ``_`` keeps the
registry loader away).

A postmortem's timeline row says what was run, then why: "Read: `kubectl top nodes` was run.
Reason: check the node CPU the request mentions." The reason is the call's, as rule 217's
"kubectl top nodes (reason: ...)" is: a sentence opened by a reason label right after a
sentence reproducing one of the agent's executed calls accounts for that call. It neither
adopts nor discards a misleading signal ("Reason:" is no cause cue there).
"""

from __future__ import annotations

import itertools
import re

from .._output import _tokens, echoed_command
from ..text import AnswerText

#: a reason label opening a sentence ("Reason: ...", "Why: ...")
_REASON = re.compile(r"^\W*(?:reason|why|purpose|rationale)\s*:", re.IGNORECASE)
#: the most tokens a reproduced call spans in a sentence
_CALL_SPAN = 16


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
    """Rule 1014: the sentences opened by a reason label right after a sentence reproducing
    one of the agent's executed calls."""
    return frozenset(
        s
        for prev, s in itertools.pairwise(text.kept)
        if _REASON.match(s) and names_call(text, prev)
    )
