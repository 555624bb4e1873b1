"""Evidence: everything verification reads, captured once per scenario and replayable.

Verification is a pure function of (scenario, :class:`ScenarioEvidence`)
(core §3.5.4). The transcript is what the agent *said* it did; it is never
evidence for an action (core §3.4). Actions are judged from the provider's
audit log and state observations.
"""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, ConfigDict, Field, PrivateAttr

from ..contract import ToolCall
from ..spec.provider import EvidenceSource


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
    #: calls the agent says it retried in place after a transient fault (its own account)
    retries: list[str] = Field(default_factory=list)


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


# ---- a cheaper construction path for captured audit logs ------------------------------------
# An audit log can hold a million entries. ``AuditEntry.model_validate`` costs microseconds and
# several container objects per entry (which also drives full garbage-collector passes), while
# verification reads only the agent's entries. So captured entries are shape-checked here in
# one cheap pass, and only those that a check cannot vouch for go through pydantic at once;
# the rest become AuditEntry objects on first use, identical to what model_validate returns.

#: (input key, field name, default) in field declaration order
_AUDIT_KEYS: tuple[tuple[str, str, Any], ...] = tuple(
    (f.alias or name, name, f.default) for name, f in AuditEntry.model_fields.items()
)
_KNOWN_KEYS = frozenset(key for key, _, _ in _AUDIT_KEYS)
#: keys whose value must be a str or None (``verb`` must be a str)
_OPTIONAL_STR = (
    "auditID",
    "stage",
    "resource",
    "subresource",
    "name",
    "namespace",
    "user",
    "timestamp",
)
_STR_OR_NONE = frozenset({str, type(None)})
_INT_OR_NONE = frozenset({int, type(None)})
_DICT_OR_NONE = frozenset({dict, type(None)})
#: the check below knows exactly these fields; if AuditEntry changes, everything goes through pydantic
_FAST = {*_OPTIONAL_STR, "verb", "request_body", "response_code", "data"} == _KNOWN_KEYS
_set_attr = object.__setattr__


def plain_audit_entry(item: Any) -> bool:
    """True when ``AuditEntry.model_validate(item)`` would accept ``item`` without coercing
    anything: a dict with exact str/int/dict values and str keys. Anything else (a str
    subclass, ``"200"`` for a status, the field name ``audit_id`` instead of its alias ...)
    is left to pydantic, which converts it or raises exactly as before."""
    return type(item) is dict and plain_audit_shape(item) and plain_audit_data(item.get("data"))


def plain_audit_shape(item: dict[Any, Any]) -> bool:
    """The part of :func:`plain_audit_entry` that depends only on the keys and the types of the
    values, so a caller may decide it once per shape (a log has a handful of shapes)."""
    if not _FAST:
        return False
    get = item.get
    if type(get("verb")) is not str or "audit_id" in item:
        return False
    if not set(map(type, map(get, _OPTIONAL_STR))) <= _STR_OR_NONE:
        return False
    if type(get("response_code")) not in _INT_OR_NONE or type(get("data")) not in _DICT_OR_NONE:
        return False
    return all(type(key) is str for key in item)  # extra keys are kept, but they must be str


def plain_audit_data(data: Any) -> bool:
    """The rest of :func:`plain_audit_entry`: the keys of ``data`` are str."""
    return data is None or all(type(key) is str for key in data)


def build_audit_entry(item: dict[str, Any], update: dict[str, Any] | None = None) -> AuditEntry:
    """The AuditEntry ``model_validate`` builds from a :func:`plain_audit_entry` dict (same
    values, extras and fields-set), with ``update`` applied as ``model_copy(update=...)`` would."""
    values: dict[str, Any] = {}
    fields_set: set[str] = set()
    for key, name, default in _AUDIT_KEYS:
        if key in item:
            value = item[key]
            values[name] = dict(value) if name == "data" and value is not None else value
            fields_set.add(name)
        else:
            values[name] = default
    extra = {k: v for k, v in item.items() if k not in _KNOWN_KEYS}
    fields_set.update(extra)
    if update:
        values.update(update)
        fields_set.update(update)
    entry = AuditEntry.__new__(AuditEntry)
    _set_attr(entry, "__dict__", values)
    _set_attr(entry, "__pydantic_fields_set__", fields_set)
    _set_attr(entry, "__pydantic_extra__", extra)
    _set_attr(entry, "__pydantic_private__", None)
    return entry


class Observation(BaseModel):
    """One provider observation (05 §1.1) with the parameters it was asked for."""

    observation_type: str
    parameters: dict[str, str] = Field(default_factory=dict)
    timestamp: str | None = None
    data: Any = None
    evidence_source: EvidenceSource
    #: ``data`` as the provider's own JSON text, checked free of every redaction form, and
    #: the audit entries whose body it wrote by reference: stored as these bytes
    #: (:func:`.stored_evidence.stored_json`; issue 30); None: dumped from ``data``
    _data_json: tuple[bytes, tuple[int, ...]] | None = PrivateAttr(default=None)


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
    #: redaction marker -> what it stands for (a value_ref or an agent credential field), to
    #: name a value the agent leaked in re-encoded form; never the value itself
    redacted: dict[str, str] = Field(default_factory=dict)
    #: a harness fault that stopped capture (runtime PROVIDER_FAILURE), if any
    fault: str | None = None
    #: the agent crashed, hung or answered outside the protocol: judged with an empty answer
    agent_fault: str | None = None
    #: nothing was exchanged with the agent: only a violation the environment shows stands
    agent_unreached: bool = False
    #: the faults of earlier attempts discarded because the agent made no call in them
    #: (engine/attempts.py); this evidence is the attempt that was judged
    discarded_attempts: list[str] = Field(default_factory=list)
