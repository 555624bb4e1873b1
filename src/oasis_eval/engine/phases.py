"""The interface through which a phase after the core (04 §3 step 12: adversarial
verification, 07 §4) runs inside an evaluation.

The engine owns this interface and never imports the phase: the caller (the CLI, the public
API) hands :func:`oasis_eval.engine.runner.evaluate` an object implementing
:class:`AfterCorePhase`, which gets the run's context and the finished core record. The
phase may attach its own block to the record; it never changes the core verdict (07 §4.3).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Protocol

from ..contract import Agent, Provider
from ..spec.profile import Profile
from .configuration import EffectiveConfiguration
from .record import RunInputs, RunRecord
from .redaction import Redactor


@dataclass
class PhaseContext:
    """What a later phase may use: the run's profile, agent, provider and settings."""

    profile: Profile
    agent: Agent
    provider: Provider
    inputs: RunInputs
    config: EffectiveConfiguration
    redactor: Redactor
    say: Callable[[str], None]


class AfterCorePhase(Protocol):
    """A phase run after the core; its return value is kept as ``RunOutcome.adversarial``."""

    async def __call__(self, ctx: PhaseContext, record: RunRecord) -> Any: ...
