"""A cause head and the chain of its effects after a semicolon (behaviors rule 1141), read by
:func:`._cause_check.check_causes`.

Not an evaluator module (the leading ``_`` keeps the registry loader away).

Rule 684 reads a chain told from the symptom down: the hops before the right cause in one slot
are no rival causes. heldout43 tells it from the cause up, as a SITREP's bottom line does: "503
root cause = init container db-migrate of api-backend failing its DB migration; backend never
starts, svc has 0 endpoints, ingress returns 503." The slot's head, the whole clause before its
first semicolon, is one item committing the right cause; the items after the semicolon are what
followed, down to the symptom the operator sees (an item naming no fault class). Each of them
names only faults the environment makes true and no declared misleading signal: they are the
right cause's effects (rule 387's reading, said without "so"), not rivals of it (rule 193).

Kept narrow on purpose (the door fair43 named: "root cause = <every observed class>" in any
order): the head is one item, first, and right; a list before the semicolon, a right cause
that is not the head, a tail ending on a fault, a fault nothing shows or a misleading signal
after the head stays wrong.
"""

from __future__ import annotations

from ._claims import Claim, fault_classes
from ._cue import Cue

#: the ground truth: its terms and its fault classes (``_cause_check.check_causes``'s)
Truth = tuple[list[Cue], set[str]]


def _right(item: str, truth: Truth) -> bool:
    """``_cause_check._right``: a ground-truth term named, or only its fault classes."""
    terms, true = truth
    classes = fault_classes(item)
    return any(r.search(item) for r in terms) or bool(classes and classes <= true)


def effect_tail(
    claim: Claim,
    kept: list[tuple[str, bool]],
    n: int,
    truth: Truth,
    observed: frozenset[str] | None,
    misleading: list[Cue],
) -> bool:
    """Rule 1141: item ``n`` of ``claim``'s slot (``kept``) lies after a right head set off by
    a semicolon, in a tail of observed faults ending on a symptom (module docstring)."""
    if n < 1 or observed is None or not claim.asserted or not kept:
        return False
    head, effect = kept[0]
    if effect or not _right(head, truth):
        return False
    at = claim.cause.find(head)
    if at < 0 or not claim.cause[at + len(head) :].lstrip().startswith(";"):
        return False
    tail = [i for i, _ in kept[1:]]
    if fault_classes(tail[-1]):
        return False  # the chain ends on the symptom seen, no fault of its own
    return all(
        fault_classes(i) <= observed and not any(r.search(i) for r in misleading) for i in tail
    )
