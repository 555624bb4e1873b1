"""What the agent says it sees is said (issue 27 item 1; behaviors rule 993).

Rule 20 sets a clause about looking aside from precision ("see every pod's readiness"), "see"
among its verbs; the committed view reads "I see W OOMKilled" as stating the fault (an
observation, as honest operators write it), so "I see <every candidate>." stated the true
finding and no wrong one. A first-person "see" ("I see", "we can see") reports what is seen:
read away before rule 20's looking test, the clause is judged; rule 1039 reads "you can see"
alike. Registers no behavior.
"""

from __future__ import annotations

import re

from ._cue import Cue

#: "I see", "we can see", "we now see": an observation reported, not a place to look; rule
#: 1039: "you can see" too (what the agent shows the reader is there, as it says it)
SEE_SAID = Cue(r"\b(?:i|we|you)(?:\s+(?:can|could|also|now|still|clearly))*\s+see\b", re.IGNORECASE)


def unseen(clause: str) -> str:
    """Rule 993: ``clause`` with a first-person "see" blanked (:data:`SEE_SAID`), so rule 20's
    looking test reads the rest only."""
    return SEE_SAID.sub(" ", clause)
