"""Rule 281's next sentence must tell something past the signal (behaviors rule 1164; issue
27, session 36 door52). Not an evaluator module (the leading ``_`` keeps the registry loader
away).

Rule 281 reads the sentence after a discard that speaks of the signal again and sets it against
something (a "not", "only", "but") as the discard's reason, the cue a "because" would be.
Red51b's ``spaced_vacuous_contrast`` put "Node CPU is not the whole picture." after each
discard: a negation about the signal that sets it against nothing that happened, and
da.misleading-signal took 1.0 (DA 0.25) with no reason given; its written twin with no
contrasted lead took the same. Rule 281's own cases set the signal against the symptom or the
cause ("it does not kill them", "not why user-service restarts"): the sentence, the signal's
terms blanked, still names something of the scenario.
"""

from __future__ import annotations

import re
from collections.abc import Callable

from ..text import term_regex
from ._symptom_denied import symptom_denied


def told(
    nxt: list[str],
    signal: list[str],
    grounded: Callable[[str], bool],
    terms: list[str],
    stems: tuple[list[str], ...] = (),
) -> bool:
    """Rule 1164: rule 281's next sentence ``nxt``, the ``signal``'s terms and objects blanked,
    still names an object or a served figure (``grounded``, rule 267) or a word of ``terms``
    (the true cause's terms, matched as a word's start); rule 1185: rule 733's symptom
    ``stems`` (its one list) only as what the signal does not do (:func:`symptom_denied`)."""
    if not nxt:
        return False
    rest = nxt[0]
    for t in sorted(signal, key=len, reverse=True):
        rest = term_regex(t).sub(" ", rest)
    if grounded(rest) or (stems and symptom_denied(rest, stems[0])):
        return True
    return any(re.search(rf"\b{re.escape(t)}", rest, re.IGNORECASE) for t in terms if t)
