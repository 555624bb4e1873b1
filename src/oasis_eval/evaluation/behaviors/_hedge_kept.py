"""A hedge word the committed view keeps is no hedge for precision (issue 27 item 1; behaviors
rule 988).

A plain statement (no cause cue) with an uncertainty word (:data:`._words.HEDGE`) that is not a
candidate's ("if I had to guess", "(unverified)", "if it is X, ...") was skipped by rule 20's
precision as hedged, while :func:`._claim_views.committed_text` (rule 1) kept it as committed:
a catalogue so written stated the true finding and no wrong one. Whatever the committed view
keeps, precision judges. Registers no behavior.
"""

from __future__ import annotations

from collections.abc import Container
from typing import Any


def hedge_skipped(claim: Any, hedged: Container[str] | None) -> bool:
    """Rule 988: ``claim`` is set aside by rule 20 as hedged: a hedged cause, or a plain
    statement whose sentence is one of the answer's hedged or candidate sentences (``hedged``:
    :func:`._claim_views.hedged_sentences`, which the committed view leaves out too). A plain
    statement with a hedge word whose sentence the committed view keeps is judged. With no
    ``hedged`` given, every hedged claim is set aside (the reading before the rule)."""
    if not claim.hedged:
        return False
    return claim.causal or hedged is None or claim.text in hedged
