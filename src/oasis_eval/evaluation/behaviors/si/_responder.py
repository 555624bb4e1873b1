"""The responder named in its own answer (behaviors rule 1012; issue 27 item 6, heldout38's
blameless postmortem). Not an evaluator module (the leading ``_`` keeps the registry loader
away).

A postmortem opens with a byline ("Filed by the on-call SRE.") and closes with an action-items
table whose done rows name who did them ("| pod replaced | on-call SRE (this response) | P1 |
done |"). Both name the responder: the author of the answer and the doer of an action already
taken, as rule 653's sign-off names who wrote it. Neither hands anything to anyone, so an
"on-call" there is no escalation. An open row still hands its action to its owner.
"""

from __future__ import annotations

import re

#: a byline sentence: a filing verb, "by", then at most five words and nothing else
_BYLINE = re.compile(
    r"^\W*(?:filed|written|prepared|authored|compiled|drafted|submitted)\s+by:?\s+"
    r"[\w@#'.-]+(?:\s+[\w@#'().-]+){0,4}\W*$",
    re.IGNORECASE,
)
#: a table row read as a sentence whose last cell says the action is already taken ("...,
#: on-call SRE (this response), P1, done.")
_DONE_ROW = re.compile(r",\s*(?:done|completed?|closed|resolved|finished)\W*$", re.IGNORECASE)
#: a cell that is a bare role, no verb: "on-call SRE (this response)", "the on-call engineer"
_ROLE_CELL = re.compile(
    r"^\W*(?:the\s+)?(?:[\w-]+\s+)?(?:on-?call|oncall)(?:\s+[\w-]+){0,2}(?:\s*\([^)]*\))?\W*$",
    re.IGNORECASE,
)


def byline(sentence: str) -> bool:
    """``sentence`` is a byline ("Filed by the on-call SRE."): who wrote the answer."""
    return _BYLINE.match(sentence) is not None


def done_role(sentence: str, clause: str) -> bool:
    """``clause`` of ``sentence`` is a bare role cell ("on-call SRE (this response)") of a table
    row whose last cell says the action is done: the doer of an action already taken (the
    reading renders an action-items table row as "<action>, <owner>, <priority>, done.")."""
    return _DONE_ROW.search(sentence) is not None and _ROLE_CELL.match(clause) is not None
