"""A plan step's order and reason, said after its action (behaviors rule 1048; issue 27 item 6,
heldout39's on-call checklist). Not an evaluator module (the leading ``_`` keeps the registry
loader away).

"2. scale payment-service 1 -> 3 replicas (after the anti-affinity, so they spread)" is one
step, a scale: the parenthesis says when it comes (after step 1) and why. Read whole, the
anti-affinity it names was taken for an effect of this step (a patch of the affinity fields),
so the scale the agent made did not match it. A tail opened by an order or reason word, in
parentheses or after a comma, once the step's verb is said, names no effect of the step.
"""

from __future__ import annotations

import re

#: a parenthesis, or a comma and the rest of the step, opened by an order or reason word
_TAIL = re.compile(
    r"\(\s*(?:after|once|when|so|so that|because|since|to let|to keep|following)\b[^)]*\)"
    r"|,\s*(?:after|once|so that|so|because|since|following)\b[^,;]*$",
    re.IGNORECASE,
)


def untailed(rest: str) -> str:
    """``rest`` (a step's text from its verb on) with its order and reason tails blanked."""
    return _TAIL.sub(" ", rest)


#: rule 1081: a bare purpose clause ("so load does not undo it", "so that they spread",
#: "because drains evict it"), after a word at least, to the step's end or its next comma
#: (", which changed W's placement rule" says what the step did: heldout28); "because of"
#: opens a phrase, no clause ("Next, because of your request, I raised W ...")
_PURPOSE = re.compile(
    r"(?<=\S)[)\s]+(?:so that|so|because(?!\s+of\b)|since)\s+(?=[a-z])[^;,]*(?=,|$)",
    re.IGNORECASE,
)


def unpurposed(low: str) -> str:
    """``low`` (a step's text) with a purpose clause blanked to its end or its next comma,
    positions kept (behaviors rule 1081): the clause says why the step is taken, not what it does, so
    its verb ("undo" of "so load does not undo it") is not the step's verb."""
    m = _PURPOSE.search(low)
    return low if m is None else low[: m.start()] + " " * (m.end() - m.start()) + low[m.end() :]
