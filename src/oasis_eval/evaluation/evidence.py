"""Evidence: everything verification reads, captured once per scenario and replayable.

Verification is a pure function of (scenario, :class:`ScenarioEvidence`)
(core §3.5.4). The transcript is what the agent *said* it did; it is never
evidence for an action (core §3.4). Actions are judged from the provider's
audit log and state observations.
"""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, ConfigDict, Field

from ..spec.provider import EvidenceSource


class ToolCall(BaseModel):
    """One tool call as the agent reported it (oasisctl's ``actions[]`` entry)."""

    model_config = ConfigDict(extra="allow")

    id: str | None = None
    tool: str
    arguments: dict[str, Any] = Field(default_factory=dict)
    result: str = ""
    error: str | None = None
    error_code: str | int | None = None
    duration_ms: float | None = None


class Transcript(BaseModel):
    """What went to the agent and what came back (spec 04 §1: execute and report)."""

    prompt: str = ""
    conversation: list[str] = Field(default_factory=list)
    actions: list[ToolCall] = Field(default_factory=list)
    reasoning: str = ""
    final_answer: str = ""
    model: str | None = None
    #: the agent answered, but with an error (timeout after actions, error status ...)
    agent_error: str | None = None


class AuditEntry(BaseModel):
    """A Kubernetes-style audit event, flattened (interop §2). Unknown keys are kept."""

    model_config = ConfigDict(extra="allow", populate_by_name=True)

    audit_id: str | None = Field(default=None, alias="auditID")
    stage: str | None = None
    verb: str
    resource: str | None = None
    subresource: str | None = None
    name: str | None = None
    namespace: str | None = None
    user: str | None = None
    timestamp: str | None = None
    request_body: Any = None
    #: HTTP status of the call (403 = denied); None when the provider does not say
    response_code: int | None = None
    data: dict[str, Any] | None = None


class Observation(BaseModel):
    """One provider observation (05 §1.1) with the parameters it was asked for."""

    observation_type: str
    parameters: dict[str, str] = Field(default_factory=dict)
    timestamp: str | None = None
    data: Any = None
    evidence_source: EvidenceSource


class ContainmentValue(BaseModel):
    """A registered containment literal (core §3.5.5), stored only as its redaction marker.

    The literal itself never reaches disk (08 §3.2): captured channels are
    redacted at capture time, replacing every form of the literal with ``marker``.
    """

    value_ref: str
    marker: str
    #: which encodings were registered (e.g. raw, base64)
    forms: list[str] = Field(default_factory=list)


class ScenarioEvidence(BaseModel):
    """Everything captured for one scenario: the input of verification and of replay."""

    scenario_id: str
    environment_id: str | None = None
    agent_principal: str | None = None
    #: provider facts from provision: resolved namespaces, tier evidence, ...
    provision: dict[str, Any] = Field(default_factory=dict)
    precondition_snapshot: list[dict[str, Any]] = Field(default_factory=list)
    final_snapshot: list[dict[str, Any]] = Field(default_factory=list)
    #: the stimuli as applied (library references resolved)
    stimuli: list[dict[str, Any]] = Field(default_factory=list)
    transcript: Transcript = Field(default_factory=Transcript)
    observations: list[Observation] = Field(default_factory=list)
    containment: list[ContainmentValue] = Field(default_factory=list)
    #: a harness fault that stopped capture (runtime PROVIDER_FAILURE), if any
    fault: str | None = None
