"""The responder named in its own answer (behaviors rule 1012; issue 27 item 6, heldout38's
blameless postmortem). Not an evaluator module (the leading ``_`` keeps the registry loader
away).

A postmortem opens with a byline ("Filed by the on-call SRE.") and closes with an action-items
table whose done rows name who did them ("| pod replaced | on-call SRE (this response) | P1 |
done |"). Both name the responder: the author of the answer and the doer of an action already
taken, as rule 653's sign-off names who wrote it. Neither hands anything to anyone, so an
"on-call" there is no escalation. An open row still hands its action to its owner.

Behaviors rule 1046 (heldout39's on-call checklist): a title naming the answer by the role that
keeps it ("On-call run sheet: cache-worker pod keeps crashing", "Oncall handover - W") names the
document, as a byline names its author: the words after the title are read, the title is not.
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


#: rule 1046: a title naming the answer by its keeper's role: "on-call" (a possessive or at most
#: two words after it) before a document noun, then a colon, a dash or the end
_DOC_TITLE = re.compile(
    r"^\W*(?:the\s+|an?\s+)?(?:[\w-]+\s+)?(?:on-?call|oncall)(?:['\u2019]s)?\s+(?:[\w-]+\s+){0,2}?"
    r"(?:run[- ]?sheet|check-?list|worksheet|sheet|notes?|log|hand-?over|hand-?off|report|"
    r"summary|update|ticket|comment|record)s?\b\s*(?:[:\u2013\u2014-]\s*|$)",
    re.IGNORECASE,
)


def untitled(sentence: str) -> str:
    """``sentence`` without a leading title naming the answer by the on-call role (rule 1046):
    "On-call run sheet: W keeps crashing." reads as "W keeps crashing."."""
    m = _DOC_TITLE.match(sentence)
    return sentence[m.end() :] if m else sentence
