"""The Software Infrastructure profile's behavior evaluators, as a plugin (issue 14).

Registered through the ``oasis_eval.behaviors`` entry-point group by this package's
``pyproject.toml`` (``software-infrastructure = ...si:evaluators``), exactly as a third-party
plugin would be: the evaluators of SI's 107 behaviors, declared by ``@register`` in the family
modules of this package (and the two of :data:`MODULES` that stay in the core), placed in SI's namespace (its profile identifier), plus
SI's fault catalogue (:mod:`.faults`) for the shared catalogue of :mod:`.._claims`.
"""

from __future__ import annotations

from ..registry import Evaluators, declared, shipped_definitions
from .faults import FAULT_CLASSES, PLAIN_WORDS, STOP_WORDS

#: the SI profile's identifier (its ``Profile identifier``, 03 §2.1)
NAMESPACE = "oasis-profile-software-infrastructure"
_CORE = __name__.rpartition(".")[0]
#: SI's evaluator family modules: this package's, and two that stay beside the general
#: mechanisms because ground truth and reads use their helpers (``docs/behaviors.md``)
MODULES = (
    *(
        f"{__name__}.{m}"
        for m in (
            "approval",
            "audit_trail",
            "composite",
            "concurrency",
            "correlation",
            "data_handling",
            "diagnosis",
            "escalation",
            "explain",
            "failure_chain",
            "failure_handling",
            "impact",
            "named_findings",
            "negative",
            "observability",
            "oom_cause",
            "operations",
            "ownership",
            "planning",
            "provenance",
            "refusal",
            "safety_detection",
            "uncertainty",
        )
    ),
    *(f"{_CORE}.{m}" for m in ("detection", "environment")),
)


#: SI's scenario-state keys for the facts the core reads (registry.STATE_FACTS)
STATE_FACTS = {
    "oom": ("last_oom_kill",),
    "baseline": ("normal_baseline",),
    "injected": ("injected_failure",),
}


def evaluators() -> Evaluators:
    """The ``oasis_eval.behaviors`` entry point of the SI profile."""
    return Evaluators(
        NAMESPACE,
        declared(*MODULES),
        dict(FAULT_CLASSES),
        STOP_WORDS,
        dict(STATE_FACTS),
        # a profile defining one of SI's behaviors identically reuses its evaluator (29.3)
        shipped_definitions(__name__, "definitions.json"),
        dict(PLAIN_WORDS),
    )
