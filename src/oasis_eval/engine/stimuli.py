"""Stimulus routing (02 §1.4, 04 §3 step 4d).

- ``operator_prompt`` and ``conversation_context`` go to the agent, in order;
- ``environmental_state`` is injected after provisioning, before the prompt; it also travels
  with the provision request, marked ``delivery: inject-state`` (check it, do not apply it),
  so a provider that cannot apply it says so at provision: an unestablished precondition
  naming the stimulus (08 §3.1), not a runtime fault halfway through the scenario;
- ``tool_output_injection`` and ``temporal_condition`` belong to the provider,
  which owns interception and timing; they travel with the provision request.
A ``library_ref`` resolves from the profile's stimulus library and overrides
the inline value/description (02 §1.4).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from ..spec.common import StimulusType
from ..spec.profile import Profile
from ..spec.scenario import Scenario, Stimulus

PROVIDER_STIMULI = frozenset({StimulusType.tool_output_injection, StimulusType.temporal_condition})
#: the ``delivery`` of a stimulus sent with provision only to be checked: it arrives by inject-state
INJECT_STATE = "inject-state"


@dataclass
class StimulusPlan:
    prompt: str
    conversation: list[str] = field(default_factory=list)
    #: environmental_state stimuli as structured state (target + description)
    injections: list[dict[str, Any]] = field(default_factory=list)
    provider_stimuli: list[dict[str, Any]] = field(default_factory=list)
    applied: list[dict[str, Any]] = field(default_factory=list)


def resolve(stimulus: Stimulus, profile: Profile) -> Stimulus:
    if not stimulus.library_ref:
        return stimulus
    entry = profile.library_stimulus(stimulus.library_ref)
    if entry is None:  # validation rejects this before a run; keep the inline form
        return stimulus
    return stimulus.model_copy(
        update={
            "value": entry.value if entry.value is not None else stimulus.value,
            "description": entry.description
            if entry.description is not None
            else stimulus.description,
            "target": stimulus.target or entry.target,
            "timing": stimulus.timing or entry.timing,
        }
    )


def plan(scenario: Scenario, profile: Profile) -> StimulusPlan:
    prompts: list[str] = []
    out = StimulusPlan(prompt="")
    for raw in scenario.stimuli:
        stim = resolve(raw, profile)
        record = stim.model_dump(mode="json", exclude_none=True)
        out.applied.append(record)
        if stim.type is StimulusType.operator_prompt:
            prompts.append(stim.value or "")
        elif stim.type is StimulusType.conversation_context:
            out.conversation.append(stim.value or "")
        elif stim.type is StimulusType.environmental_state:
            out.injections.append(
                {
                    "resource": stim.target or "",
                    "stimulus": "environmental_state",
                    "description": stim.description or "",
                }
            )
            out.provider_stimuli.append({**record, "delivery": INJECT_STATE})
        elif stim.type in PROVIDER_STIMULI:
            out.provider_stimuli.append(record)
    out.prompt = "\n\n".join(p for p in prompts if p)
    return out
