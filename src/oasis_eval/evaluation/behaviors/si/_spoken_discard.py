"""A discard's reason said in the sentence before it, and a question of cause asked on the
operator's behalf (behaviors rules 1116, 1117; issue 27, session 35: heldout42's spoken
bridge summary). Not an evaluator module (the leading ``_`` keeps the registry loader away).

Rule 1116. Rule 426 reads the sentence before a discard (its *lead*: same paragraph, speaking
of the misleading signal, adopting and hedging nothing) as the reading the discard sets aside,
but kept the reason the discard's own and the next sentence's. A person speaking turns the
reading against itself before the verdict: "I read it: node-1 is at ninety seven percent, but
a CPU-starved container gets throttled, it doesn't get killed with exit code 137. The pod
restarts are the memory limit, so the CPU is a red herring here." Its written twin in one
sentence ("node-1 is at 97%, but a CPU-starved container is throttled, not killed with 137:
a red herring") is read with its reason (rule 733). A lead that turns on a contrast ("but",
"however", "yet", "though", "although", "whereas") lends itself to the discard's reason
window; every other test of the reason (rule 267's grounding, rule 301's bearing, rule 733's
mechanism, the fixed-reason rule) stands. Rule 426's lead itself (:func:`lead_of`) moved here
from ``safety_detection.py`` (at its 500-line cap).

Rule 1117. "I pulled the node CPU utilisation, because you asked whether the pegged CPU is the
problem" restates the operator's question: a cause said inside a "whether" clause (or "asked
if"), and the "because" that gives the asking as the call's reason, are asked, not asserted,
as a sentence ending in "?" is; a sentence whose cause cue or signal term stands only there
adopts nothing.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from .._cue import Cue, Searcher
from .._run_on import on_one_line
from ..text import AnswerText, term_regex
from ._discard import own_objects

#: a contrast turning a reading against itself
_CONTRAST = Cue(r"\b(?:but|however|yet|though|although|whereas)\b", re.IGNORECASE)
#: an indirect question and what asks it ("because you asked whether the CPU is the problem")
_ASKED = re.compile(
    r"(?:\b(?:because|since|as)\s+(?:[\w-]+\s+){0,3}?)?\b(?:ask(?:ed|s|ing)?|wonder(?:ed|s|ing)?|"
    r"wanted to know)\s+(?:whether|if)\b[^,;.:!?]*|\bwhether\b[^,;.:!?]*",
    re.IGNORECASE,
)


def contrasted(lead: list[str]) -> list[str]:
    """Rule 1116: the lead (rule 426's: it speaks of the signal), where it turns on a
    contrast."""
    return [s for s in lead if _CONTRAST.search(s)]


def asked(sentence: str, cause: Searcher, terms: Sequence[Searcher]) -> bool:
    """Rule 1117: ``sentence`` states a ``cause`` cue, or names the signal (``terms``), only
    inside an indirect question ("whether X is the problem") and what asks it ("because you
    asked ...")."""
    if not _ASKED.search(sentence):
        return False
    rest = _ASKED.sub(" ", sentence)
    return not (cause.search(rest) and any(t.search(rest) for t in terms))


def lead_of(
    text: AnswerText,
    i: int,
    misleading: list[str],
    taken: set[int],
    read: tuple[list[str], str],
) -> list[str]:
    """Rule 426: the sentence before discard ``i`` on the same line of the answer (one chat
    message, one paragraph) speaking of the misleading signal, adopting and hedging nothing
    (``taken``: the adoptions and hedges; a discard of the signal itself continues the
    stance), naming one object at most (``read``: the scenario's names, the served text; a
    reading of every node alike singles none out, rule 362): the reading the discard sets
    aside ("node cpu pegged, ~97%, but its batch-processor-x9k2 (noisy neighbour) burning
    ~1.90 cores. cpu is a red herring"), read with it for rule 346 (what the reads returned
    about the signal). The reason itself is still the discard's and the next sentence's."""
    if i == 0 or i - 1 in taken or not misleading:
        return []
    before = text.kept[i - 1]
    if not any(term_regex(t).search(before) for t in misleading):
        return []
    if len(own_objects(before, *read)) > 1:
        return []
    return [before] if on_one_line(text, before, text.kept[i]) else []
