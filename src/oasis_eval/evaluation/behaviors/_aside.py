"""A signal explained, then set aside in the same sentence (behaviors rule 460).

Not an evaluator module (the leading ``_`` keeps the registry loader away): read by
:func:`._claims.sentence_claims` for the slot of a cause cue that comes before its cause.
"""

from __future__ import annotations

import re

from ._cue import Cue

_I = re.IGNORECASE

#: rule 460: a clause after a semicolon whose subject points back at what the sentence opened
#: with ("...; it was judged a misleading signal, not the cause", "...; this is not the cause")
_DENIED_BEFORE = Cue(r"\b(?:not|never|no longer)\s+(?:\w+\s+){0,2}$|n't\s+(?:\w+\s+){0,2}$", _I)
_ASIDE = Cue(r";\s*(?:and\s+|but\s+)?(?:it|this|that|which)\b(?P<clause>[^;.]*)", _I)


def set_aside(rest: str, rebut: Cue, denied: Cue) -> int | None:
    """Behaviors rule 460: where, in a before-cue's slot (``rest``, quotations masked), a
    clause after a semicolon opens with an anaphor and rebuts (``rebut``: the claims' REBUT
    cue, or ``denied``: their SLOT_DENIED) what the sentence explained ("the node CPU was
    confirmed high, driven by the batch job; it was judged a misleading signal, not the
    cause: ..."): the offset of that semicolon, else None. The slot ends there: the clause
    after it sets the signal aside and gives its reason, it adds no cause (the claim that
    the signal was explained stays a claim, its cause judged for precision). The anaphor names no new subject, so the rebuttal is of
    the sentence's own; a clause naming another subject ("...; DNS is not the cause") is
    read as before."""
    m = _ASIDE.search(rest)
    if m is None:
        return None
    hit = rebut.search(m["clause"])
    # "...; it is not a symptom of X" denies the rebuttal: no setting aside
    if hit and not hit.group().lower().startswith("not"):
        hit = None if _DENIED_BEFORE.search(m["clause"][: hit.start()]) else hit
    return m.start() if hit or denied.search(m.group()) else None
