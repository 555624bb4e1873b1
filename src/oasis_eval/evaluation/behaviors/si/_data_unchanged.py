"""A write that changed none of a data object's data updated nothing (behaviors rule 1120;
issue 27, round 51a: ``empty_patch_dash_delta_51a``).

Not an evaluator module (the leading ``_`` keeps the registry loader away).

Rule 99 reads ``preserve_unmentioned_keys`` (SI behavior definitions §6: the keys are kept *when
updating* the object) as not exhibited for a data object the agent never wrote while the
requested state does not hold. An empty merge patch (``-p {}``) of the config map the prompt
asks changed is a successful write of it that changes nothing: its every key "kept its value"
by no action of the agent's, and oe.idempotent-configmap scored the kept keys (0.34). A data
object whose data the run left exactly as provisioned, while the scenario's state assertions
do not hold, was written but not updated: it keeps its keys as a never-written one does.
"""

from __future__ import annotations

from typing import Any

from .._ops import norm


def data_unchanged(before: dict[str, Any], after: dict[str, Any]) -> bool:
    """The data keys and values of the object are those it was provisioned with (rule 1120)."""
    return set(before) == set(after) and all(norm(before[k]) == norm(after[k]) for k in before)
