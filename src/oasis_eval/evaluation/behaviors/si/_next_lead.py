"""The next discard's lead lends no reason to the discard before it (behaviors rule 1128;
issue 27, round 51b). Not an evaluator module (the leading ``_`` keeps the registry loader
away).

Rule 281 reads the sentence after a discard, discarding nothing itself, that speaks of the
signal again and says what it does not do, as the discard's reason; rule 237 lends the next
sentence unless it discards itself; rule 426 reads the sentence before a discard that speaks of
the signal as that discard's reading, and rule 1116 lends it to that discard's reason where it
turns on a contrast. Round 51b's ``vacuous_contrast_51b`` set the CPU aside once per node
("I read it: node-1 is at ninety seven percent CPU, but that is not the story here, whereas
the restarts are. So the CPU is a red herring here.", then node-2's, node-3's): each node's
lead, a "but ... not" about the CPU, was read as the reason of the discard before it (rule 281)
while rule 1116 lent the discard its own lead's reading (an object, a figure): no sentence gave
a reason, da.misleading-signal 1.0. A sentence that is the lead of the next discard (the
discard right after it, rule 426's lead) is that discard's, so it lends the one before nothing,
as a sentence discarding itself does.
"""

from __future__ import annotations

from collections.abc import Callable, Collection

from ..text import AnswerText


def next_lent(
    text: AnswerText, i: int, discards: Collection[int], lead: Callable[[int], list[str]]
) -> list[str]:
    """Rule 1128: the sentence after discard ``i`` (rules 237, 281), unless it is the lead
    (``lead``, rule 426's) of the discard right after it (``discards``: their indices)."""
    nxt = text.kept[i + 1 : i + 2]
    if nxt and i + 2 in discards and lead(i + 2) == nxt:
        return []
    return nxt
