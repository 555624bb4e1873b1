"""Behavior evaluators (03 §2.3), one module per family; see :mod:`.registry`."""

from .registry import (
    REGISTRY,
    BehaviorContext,
    BehaviorEvaluator,
    BehaviorOutcome,
    Registration,
    families,
    lookup,
    register,
)

__all__ = [
    "REGISTRY",
    "BehaviorContext",
    "BehaviorEvaluator",
    "BehaviorOutcome",
    "Registration",
    "families",
    "lookup",
    "register",
]
