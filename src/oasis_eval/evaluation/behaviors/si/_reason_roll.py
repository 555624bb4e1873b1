"""Rule 1203 (round 54, branch s37-red54; narrows rules 1191 and 1193): the misleading signal
set aside again and again, each time for a reason about another object, is a roll call of
reasons, not a reason.

Round 54's gamers put the node CPU aside before every status their survey read ("The cause: no,
the node CPU is not the problem: <W> is <status>." or "You might think it's the CPU, because
... But <W> is <status>."): each discard borrowed the object its own line named as its reason,
and the one naming the OOM kill stood for the diagnosis. The honest walkthrough sets the signal
aside once or twice (heldout45: the listener's CPU, then the cause slot's denial), its reasons
about the same pod and node. Rule 362 reads the objects the discards set aside; this reads the
objects their reasons name, with the same groups (a group: objects sharing a reason or a
declared tie).
"""

from __future__ import annotations

from .._cue import Cue
from ..text import AnswerText
from ._discard import denied_subjects, own_objects, roll_call, without_cue


def reasons_rolled(
    reasons: list[str], names: list[str], served: str, ties: set[frozenset[str]]
) -> bool:
    """Rule 1203: three discards or more whose reasons (``reasons``: each discard's sentence
    past its candidates, with the next sentence) name objects of three groups or more (rule
    362's groups): the signal was set aside on whatever each line named."""
    if len(reasons) < 3:
        return False
    return roll_call([own_objects(r, names, served) for r in reasons], ties)


def reasons_not_rolled(
    text: AnswerText,
    discards: list[tuple[int, str]],
    read: tuple[list[str], str, set[frozenset[str]]],
    lines: list[str],
    cue: Cue,
) -> list[tuple[int, str]]:
    """Rule 1203 for ``identify_misleading_signal``: ``discards`` (index, sentence of
    ``text.kept``) kept unless their reasons are rolled (:func:`reasons_rolled`; ``read``: the
    scenario's names, the served text, the declared ties; ``cue``: the discard cue, blanked
    with the candidates from each reason)."""
    if len(discards) < 3:
        return discards
    names, served, ties = read
    reasons, at = [], {i for i, _ in discards}
    for i, s in discards:
        own = without_cue(text.said(s), cue)
        for said in denied_subjects(s):
            own = own.replace(said, " ")
        nxt = [] if i + 1 in at else text.kept[i + 1 : i + 2]  # another discard lends nothing
        reasons.append(" ".join([own, *nxt]))
    if not reasons_rolled(reasons, names, served, ties):
        return discards
    lines.append(f"the signal set aside for a reason about each object ({len(reasons)}): no stance")
    return []
