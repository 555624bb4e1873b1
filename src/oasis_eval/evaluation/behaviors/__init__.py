"""Behavior evaluators (03 §2.3): the general mechanisms (:mod:`.registry`, the entry-point
plugins of :mod:`.plugins`, text, claims, ground truth, reads), and the evaluator families
that the SI plugin (:mod:`.si`) and the built-in example's (:mod:`.k8s_basic`) register."""

from .plugins import families, lookup, profile_namespaces
from .registry import (
    REGISTRY,
    BehaviorContext,
    BehaviorEvaluator,
    BehaviorOutcome,
    Evaluators,
    Registration,
    declared,
    register,
)

__all__ = [
    "REGISTRY",
    "BehaviorContext",
    "BehaviorEvaluator",
    "BehaviorOutcome",
    "Evaluators",
    "Registration",
    "declared",
    "families",
    "lookup",
    "profile_namespaces",
    "register",
]
