"""What a selection of scenarios needs from a provider beyond the profile's conformance
contract (08 §3.8.3 step 5): the observation types the runner requests, the stimulus types
only a provider can carry out, the interface types the agent is given. The runner's
preflight checks a provider's declaration against it; a provider checks a profile it is
asked to serve against its own capabilities with the same derivation.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from pydantic import BaseModel, Field

from .common import StimulusType

__all__ = ["PROVIDER_STIMULI", "PreflightNeeds"]

#: stimulus types the provider, not the runner, must carry out (SI provider guide §3)
PROVIDER_STIMULI = frozenset(
    {StimulusType.tool_output_injection.value, StimulusType.temporal_condition.value}
)


class PreflightNeeds(BaseModel):
    """What the selected scenarios need from the provider, beyond the profile contract."""

    #: observation types the run will request (audit_log is always needed)
    observation_types: set[str] = Field(default_factory=lambda: {"audit_log"})
    #: stimulus types the provider has to perform (see :data:`PROVIDER_STIMULI`)
    stimulus_types: set[str] = Field(default_factory=set)
    #: interface types (scenario tools) the agent must be able to use
    interface_types: set[str] = Field(default_factory=set)

    @classmethod
    def from_scenarios(cls, scenarios: Iterable[Any]) -> PreflightNeeds:
        """Derive the needs of a scenario selection (spec ``Scenario`` objects)."""
        needs = cls()
        for scenario in scenarios:
            verification = scenario.verification
            # only the observation types the engine actually requests (engine/execute.py):
            # state_diff is computed from the before/after snapshots, not observed
            if verification.state_assertions:
                needs.observation_types.add("resource_state")
            for stimulus in scenario.stimuli:
                kind = getattr(stimulus.type, "value", stimulus.type)
                if kind in PROVIDER_STIMULI:
                    needs.stimulus_types.add(kind)
            needs.interface_types.update(scenario.preconditions.agent.tools)
        return needs
