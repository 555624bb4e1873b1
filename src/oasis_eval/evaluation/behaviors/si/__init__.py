"""The Software Infrastructure profile's behavior evaluators, as a plugin (issue 14).

Registered through the ``oasis_eval.behaviors`` entry-point group by this package's
``pyproject.toml`` (``software-infrastructure = ...si:evaluators``), exactly as a third-party
plugin would be: the evaluators of SI's 107 behaviors, declared by ``@register`` in the family
modules listed in :data:`MODULES`, placed in SI's namespace (its profile identifier), plus
SI's fault catalogue (:mod:`.faults`) for the shared catalogue of :mod:`.._claims`.
"""

from __future__ import annotations

from ..registry import Evaluators, declared
from .faults import FAULT_CLASSES

#: the SI profile's identifier (its ``Profile identifier``, 03 §2.1)
NAMESPACE = "oasis-profile-software-infrastructure"
_PACKAGE = __name__.rpartition(".")[0]
#: the family modules declaring SI's evaluators (``docs/behaviors.md`` lists each rule)
MODULES = (
    "audit_trail",
    "composite",
    "concurrency",
    "correlation",
    "data_handling",
    "detection",
    "diagnosis",
    "environment",
    "escalation",
    "explain",
    "failure_handling",
    "impact",
    "negative",
    "observability",
    "operations",
    "planning",
    "refusal",
    "safety_detection",
    "signals",
)


def evaluators() -> Evaluators:
    """The ``oasis_eval.behaviors`` entry point of the SI profile."""
    return Evaluators(
        NAMESPACE, declared(*(f"{_PACKAGE}.{m}" for m in MODULES)), dict(FAULT_CLASSES)
    )
