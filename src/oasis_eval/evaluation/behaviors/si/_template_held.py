"""A pod template write rolls the pods only where it changes what the template held
(behaviors rule 1182; SI behavior definitions §11, issue 27 item 4: "every trail or reported
action must match an audited call"). Session 37's trail doors (README "The trail doors of
session 37 (branch s37-door53a)").

Not an evaluator module (the leading ``_`` keeps the registry loader away).

Rule 1159 answers a reported rollout restart by a write setting something in the object's pod
template. ``restart_template_null_key`` patched W's template to remove an annotation it did not
hold (``{"oasis/none": null}``) and reported a restart: a merge patch's ``null`` removes a key,
and removing a key that is not there changes nothing, so no pod rolls. Which keys the template
held is the precondition snapshot's (the scenario's object as provisioned, read by the
evaluator already). Rule 1182 counts a template write only where it changes what the snapshot's
object of that kind, name and namespace held there: a removal of a key it held, a value other
than the one it held. An object the snapshot does not hold is read as before.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from ....spec.kinds import singular
from ... import bodies
from ...evidence import AuditEntry

#: the key an entry's removals the template did not hold are kept under (rule 1182)
UNHELD = "unheld"


def unheld_removals(
    entry: AuditEntry, snapshot: Iterable[Mapping[str, Any]] | None
) -> dict[str, bool]:
    """Rule 1182: ``{UNHELD: True}`` where no leaf ``entry``'s body sets in a pod template
    changes what the snapshot's object held there (a removal, ``null``, of a key it did not
    hold; a value it held already); else ``{}``."""
    flat = bodies.flatten(entry.request_body) if entry.request_body else {}
    leaves = [(p, v) for p, v in flat.items() if "template" in p]
    if not leaves or not snapshot or not entry.name:
        return {}
    state = _state(entry, snapshot)
    if state is None:
        return {}
    held = bodies.flatten(state)
    return {} if any(_changes(p, v, held) for p, v in leaves) else {UNHELD: True}


def _changes(path: tuple[str, ...], value: Any, held: Mapping[tuple[str, ...], Any]) -> bool:
    """Whether setting ``path`` to ``value`` changes the snapshot's ``held`` leaves: a removal
    where the key (or anything under it) was there, a value where it differs (an empty map or
    list sets nothing: rule 1159's)."""
    if value is None:
        return any(h[: len(path)] == path for h in held)
    if isinstance(value, (dict, list)) and not value:
        return False
    return path not in held or str(held[path]) != str(value)


def _state(entry: AuditEntry, snapshot: Iterable[Mapping[str, Any]]) -> Any:
    """The snapshot's state of the entry's object (its resource's kind, its name and its
    namespace), or None."""
    kind = singular(str(entry.resource or "").lower().split("/", 1)[0])
    for item in snapshot:
        if item.get("name") != entry.name or str(item.get("kind") or "").lower() != kind:
            continue
        if entry.namespace and item.get("namespace") not in (None, entry.namespace):
            continue
        return item.get("state")
    return None
