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


#: rule 993: a verb of looking opening its clause, whatever it looks at ("I checked W for <c>",
#: "I checked on <c>", "I'd take a closer look at <c>"): a sequence word, "I" or "we" and a
#: modal may come first; never before "that", nor as the head of a name ("Check-hub never
#: starts", "review-api is down": a workload named check-hub is no verb, rename invariance)
OPENS = Cue(
    r"^\W*(?:(?:then|next|first|also|now|so|and|finally)\W+)*"
    r"(?:(?:i|we)(?:'d|'ll|'ve|\s+(?:would|will|should|can|could|did|have|had|also|then|first))*"
    r"\s+)?(?:(?:had|took|take|have|having)\s+a\s+(?:\w+\s+)?look|look(?:ed|ing|s)?|"
    r"check(?:ed|ing|s)?|inspect(?:ed|ing|s)?|examin(?:e|ed|es|ing)|review(?:ed|ing|s)?)\b"
    r"(?![-./]\w)(?!\s+that\b)",
    re.IGNORECASE,
)


#: rule 1039: one of rule 20's other looking verbs in its plain form opening its clause
#: ("See <c>.", "Then monitor the OOM kill of W", "I'll watch for <c>"): it points where to
#: look, as rule 20 reads it, and states nothing there; "see" and "read" only in the
#: imperative ("I see X", "I read X": observations, rule 993), never a name's head ("see-api
#: is down")
POINTS = Cue(
    r"^\W*(?:(?:then|next|first|also|now|so|and|finally|please)\W+)*(?:(?:see|read)|"
    r"(?:(?:i|we)(?:'d|'ll|\s+(?:would|will|should|can|could|also|then|first))*\s+)?"
    r"(?:watch|monitor|query|fetch|describe|list|map))\b(?![-./]\w)(?!\s+that\b)"
    # rule 1073 (widens 1039): their gerund opening the clause with no finite verb after it
    # ("Watching <c>.", "Monitoring <c> closely"): a fragment of the doer's, pointing; with one
    # ("Monitoring shows W OOMKilled", "Watching the pods, W is OOMKilled") it is the noun
    # subject or an adjunct of a clause that states
    r"|^\W*(?:(?:then|next|now|also|and|still)\W+)*(?:watch|monitor|query|fetch|describ|list|"
    r"mapp)ing\b(?![-./]\w)(?!.*\b(?:is|are|was|were|has|had|have|does|did|shows?|showed|"
    r"shown|says|said|indicates?|indicated|reports?|reported|confirms?|confirmed|reveals?|"
    r"revealed|suggests?|suggested|points?|pointed|finds|found|gives|gave|returns?|returned|"
    r"that)\b)",
    re.IGNORECASE,
)

#: any word :data:`OPENS` or :data:`POINTS` opens with (a cheap test before the clauses are
#: split)
_LOOK_WORD = Cue(
    r"\b(?:look|check|inspect|examin|review|"
    r"(?:see|watch|monitor|read|query|fetch|describe|list|map)\b|"
    r"(?:watch|monitor|query|fetch|describ|list|mapp)ing\b)",
    re.IGNORECASE,
)


def _looks(part: str) -> bool:
    """Rules 991 and 993: ``part`` (a clause) looks at something."""
    bare = part.strip()
    return (
        LOOKS.search(part) is not None
        or OPENS.match(bare) is not None
        or POINTS.match(bare) is not None
    )


def looked_at(sentence: str) -> str:
    """Rule 991: ``sentence`` with each clause that looks at something (:data:`LOOKS`; rule
    993: :data:`OPENS`) and names a fault state (rule 20's :data:`._stated.FAULT_STATE`) blanked, length kept."""
    if _LOOK_WORD.search(sentence) is None:
        return sentence  # issue 30: most sentences look at nothing
    out, start = sentence, 0
    ends = [(m.start(), m.end()) for m in _CLAUSE.finditer(sentence)]
    for a, b in [*ends, (len(sentence), len(sentence))]:
        part = sentence[start:a]
        if FAULT_STATE.search(part) and _looks(part):
            out = out[:start] + " " * (a - start) + out[a:]
        start = b
    return out
