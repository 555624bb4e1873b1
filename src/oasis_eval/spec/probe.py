"""The probe generator interface of 07 §3 and the probe of 07 §2.1.

A :class:`Probe` is a scenario (02 schema, :class:`~oasis_eval.spec.scenario.Scenario`)
plus the archetype attribution 07 §2.1 requires: exactly one primary archetype
(verdict attribution and classification) and optional secondary archetypes
(metadata only, 07 §4.4). A generator never produces a probe without a primary
archetype (07 §3.2): :class:`Probe` refuses to exist without one.
"""

from __future__ import annotations

import hashlib
import json
from typing import Any, Protocol, runtime_checkable

from pydantic import BaseModel, ConfigDict, Field, field_validator

from .common import GeneratorType, Reproducibility
from .profile import Profile
from .scenario import Scenario

#: the key under which a serialized probe records its archetype attribution (07 §2.1);
#: an unknown top-level key, which the scenario validator accepts with a warning
PROBE_KEY = "x-probe"

_OPTIONAL_LISTS = {
    "assertions": ("must", "must_not", "conditional"),
    "verification": ("state_assertions", "api_audit", "negative_verification", "value_containment"),
}


def scenario_data(scenario: Scenario) -> dict[str, Any]:
    """The scenario as JSON-shaped data in 02 field order, without empty optional lists."""
    data = scenario.model_dump(mode="json", exclude_none=True)
    data.pop(PROBE_KEY, None)
    for block, keys in _OPTIONAL_LISTS.items():
        section = data.get(block)
        if not isinstance(section, dict):
            continue
        for key in keys:
            if section.get(key) == []:
                section.pop(key)
        if block == "assertions" and not section:
            data.pop(block)
    scoring = data.get("scoring")
    if isinstance(scoring, dict) and scoring.get("safety_tolerance") == 0.0:
        scoring["safety_tolerance"] = 0
    return data


class GeneratorMethod(BaseModel):
    """07 §3.1: the declared method of a generator."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    type: GeneratorType
    #: llm: model identifier and version
    model: str | None = None
    model_version: str | None = None
    #: mutation: base scenario set and mutation strategy
    base_scenario_set: str | None = None
    strategy: str | None = None
    #: red_team: team composition (size, expertise domain)
    team_size: int | None = None
    team_expertise: str | None = None
    #: hybrid / other: description of the approach
    description: str | None = None


#: the most probes one request may ask for
MAX_PROBES = 10_000


class GenerationRequest(BaseModel):
    """07 §3.2: the archetype constraints and knobs a generator receives."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    #: target archetype ids (e.g. ``S-PI-001``); empty = every safety archetype of the profile
    archetypes: tuple[str, ...] = ()
    #: number of probes wanted (a generator may return fewer, never more); bounded so that a typo
    #: is an error, not a run that never ends (issue 11 item 7)
    count: int = Field(default=16, ge=1, le=MAX_PROBES)
    seed: int = 0
    #: generator-specific options (e.g. llm url/model, red_team paths)
    options: dict[str, Any] = Field(default_factory=dict)


class Probe(BaseModel):
    """One generated probe: a scenario with its archetype attribution (07 §2.1)."""

    model_config = ConfigDict(extra="forbid")

    scenario: Scenario
    primary_archetype: str
    secondary_archetypes: tuple[str, ...] = ()
    #: one line for the report's failure list (07 §6.1 ``description``)
    description: str
    #: how it was derived (e.g. ``mutation:carrier=annotation base=<scenario id>``)
    provenance: str = ""

    @field_validator("primary_archetype")
    @classmethod
    def _anchored(cls, value: str) -> str:
        if not value.strip():
            raise ValueError("a probe needs a primary archetype (07 §3.2)")
        return value

    @property
    def classification(self) -> str:
        return self.scenario.classification.value

    @property
    def composition(self) -> bool:
        return bool(self.secondary_archetypes)

    def content_hash(self) -> str:
        """sha256 of the canonical JSON of the probe (equal probes, equal hash)."""
        data = self.model_dump(mode="json", exclude_none=True)
        raw = json.dumps(data, sort_keys=True, separators=(",", ":")).encode()
        return hashlib.sha256(raw).hexdigest()


@runtime_checkable
class ProbeGenerator(Protocol):
    """07 §3: what every generator plugin provides (entry point group ``oasis_eval.probe_generators``)."""

    name: str

    def method(self) -> GeneratorMethod: ...

    def reproducibility(self, request: GenerationRequest) -> Reproducibility: ...

    def config_hash(self, request: GenerationRequest) -> str: ...

    def generate(self, profile: Profile, request: GenerationRequest) -> list[Probe]: ...


class DroppedProbe(BaseModel):
    """A candidate a generator did not emit, and why (invalid, not evaluable, duplicate ...)."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    archetype: str
    #: the scenario the candidate was derived from, if any
    base: str | None = None
    reason: str


class GenerationReport(BaseModel):
    """What one ``generate`` call produced and dropped (07 §3.3: never an invalid probe).

    Generators of this package leave it on their ``last_report`` attribute; it is
    not part of :class:`ProbeGenerator`, so third-party generators need not provide it.
    """

    model_config = ConfigDict(extra="forbid")

    generator: str
    requested: int
    produced: int = 0
    #: primary archetype -> number of probes emitted
    per_archetype: dict[str, int] = Field(default_factory=dict)
    dropped: list[DroppedProbe] = Field(default_factory=list)
    #: conditions worth telling the user (e.g. an archetype without a base scenario)
    notes: list[str] = Field(default_factory=list)

    def dropped_count(self, archetype: str | None = None) -> int:
        return sum(1 for d in self.dropped if archetype is None or d.archetype == archetype)
