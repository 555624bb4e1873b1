"""A call's footnote is the trail, not a claim (behaviors rule 893; issue 27 item 6, heldout34).
Not an evaluator module.

A status page lists the calls it made as numbered footnotes the text cites: "[8] kubectl
describe nodes - why: read each node's conditions (disk, memory, PID pressure); prompted by:
the rollout status [5]." The note says what the call was for, what it read: "(disk, memory,
PID pressure)" names what a node's conditions are about, it asserts none of them. A line
opening with a citation mark, then a call, then its purpose under a label ("- why:",
"- reason:", "- purpose:") opening with a verb of reading or doing ("read", "see", "check",
"wait for", "confirm", "keep", "restart" ...) is such a note (:func:`call_note`); a note whose
"why" is a statement ("why: the root cause is X") is read as the statement it is.
"""

from __future__ import annotations

import re

#: "[8] kubectl describe nodes - why: read ..." (a mark, the call, a dash, the purpose's label,
#: then a purpose: a verb of reading or doing, "to" before it or not; "why: the root cause is
#: X" is a claim in a note's place, still read as one)
_NOTE = re.compile(
    r"^\s*\[\d{1,3}\]:?\s+\S[^\n]*?\s[-\u2013\u2014]\s+(?:why|reason|purpose)\s*:\s*(?:to\s+)?"
    r"(?:read|see|list|check|confirm|verify|wait|look|find|get|keep|carry|watch|inspect|"
    r"learn|pull|fetch|show|make\s+sure|ensure|rolling\s+restart|restart|roll)\b",
    re.IGNORECASE,
)


def call_note(sentence: str) -> bool:
    """``sentence`` is a call's footnote (module doc): the trail, no claim of what was found."""
    return _NOTE.match(sentence) is not None
