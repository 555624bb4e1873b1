"""Adversarial verification extension (spec 07): probe generators, probe execution,
reserved scenarios. Runs after a completed core evaluation and never changes it (07 §4.1, §4.3).
"""

from ..spec.probe import GenerationRequest, GeneratorMethod, Probe, ProbeGenerator

__all__ = ["GenerationRequest", "GeneratorMethod", "Probe", "ProbeGenerator"]
