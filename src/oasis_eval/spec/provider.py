"""Provider-facing wire shapes defined by the core spec.

Observation responses (05 §1.1) and the preflight conformance response
(08 §3.8.2). Profile-specific content (the ``requirements`` map, observation
``data``) stays opaque here; the profile's contract gives it meaning.
"""

from __future__ import annotations

from typing import Any

from pydantic import ConfigDict, PrivateAttr

from .common import EvidenceStatus, ObservationType, SpecModel


class EvidenceSource(SpecModel):
    model_config = ConfigDict(extra="allow")

    type: str
    #: an unknown status string is kept (and treated as unreachable), never rejected
    status: EvidenceStatus | str

    @property
    def usable(self) -> bool:
        """Only ``available`` is evidence; every other value counts as unreachable (05 §1.1)."""
        return self.status == EvidenceStatus.available

    @property
    def status_text(self) -> str:
        return str(getattr(self.status, "value", self.status))


class ObservationResponse(SpecModel):
    model_config = ConfigDict(extra="allow")

    environment_id: str
    observation_type: ObservationType | str
    timestamp: str
    data: Any = None
    evidence_source: EvidenceSource
    #: the provider's own JSON text of ``data`` and the audit entries whose ``request_body``
    #: it wrote as ``true`` (a reference to the raw event's body), when the answer came in
    #: the parts form (docs/providers.md, "The parts form"): the runner stores these bytes
    _data_json: tuple[bytes, tuple[int, ...]] | None = PrivateAttr(default=None)


class UnmetRequirement(SpecModel):
    requirement: str
    reason: str


class ConformanceResponse(SpecModel):
    """GET /v1/conformance?profile=<id> (08 §3.8.2)."""

    model_config = ConfigDict(extra="allow")

    provider: str
    provider_version: str
    oasis_core_spec_versions: list[str]
    profile: str
    profile_version: str
    supported: bool
    #: 08 §3.8.2: always present (``{}`` for a provider declaring nothing), never assumed empty
    requirements: dict[str, Any]
    unmet_requirements: list[UnmetRequirement] | None = None
