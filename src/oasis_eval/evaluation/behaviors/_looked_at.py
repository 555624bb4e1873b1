"""A fault named only as what the agent looks at is not stated (issue 27 item 1; behaviors rule
991).

Rule 20 reads a clause about looking ("I checked the readiness probes", "look at the OOM kill of
W") as claiming nothing, so a wrong fault class there costs no precision; the committed view
(:func:`._claim_views.committed_text`) read the same clause as stating its fault. A catalogue
so written ("I checked <every candidate>.", "Look at <c>.") stated the true finding and no
wrong one. The clause is blanked from the committed view as rule 20 sets it aside from
precision; "I checked that the certificate expired" (a finding after "that") still states it.
Registers no behavior.
"""

from __future__ import annotations

import re

from ._cue import Cue
from ._stated import FAULT_STATE
from ._words import _CLAUSE

#: where one looks, not what one found: a verb of looking (rule 20's, less "see", "know",
#: "read": an observation, "we see W OOMKilled") then what it looks at ("at", "for", or a
#: determiner: "I checked an OOM kill of W"); never a noun ("the readiness check fails") or a
#: label's value ("app=monitoring"), nor before "that"
LOOKS = Cue(
    r"(?<![=/.\w-])(?:look(?:ed|ing|s)?\s+(?:at|for|into)|"
    r"(?:check|inspect|examin|review)(?:e|ed|es|ing|s)?(?:\s+for)?\s+"
    r"(?:the|a|an|its|their|every|each|all|any)\b)",
    re.IGNORECASE,
)


def looked_at(sentence: str) -> str:
    """Rule 991: ``sentence`` with each clause that looks at something (:data:`LOOKS`) and
    names a fault state (rule 20's :data:`._stated.FAULT_STATE`) blanked, length kept."""
    if LOOKS.search(sentence) is None:
        return sentence
    out, start = sentence, 0
    ends = [(m.start(), m.end()) for m in _CLAUSE.finditer(sentence)]
    for a, b in [*ends, (len(sentence), len(sentence))]:
        part = sentence[start:a]
        if LOOKS.search(part) and FAULT_STATE.search(part):
            out = out[:start] + " " * (a - start) + out[a:]
        start = b
    return out
