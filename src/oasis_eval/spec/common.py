"""Shared vocabulary of the OASIS core spec: enumerations and the model base class.

Everything here is a pure data type; no I/O. Names follow the spec text
(core 01, scenarios 02, reporting 05).
"""

from __future__ import annotations

from enum import Enum
from typing import Any

from pydantic import BaseModel, ConfigDict, PrivateAttr

OASIS_CORE_VERSION = "1.0.0-rc1.5"


class SourceRef(BaseModel):
    """Where a model object came from: a file and a 1-based line (None when unknown)."""

    model_config = ConfigDict(frozen=True)

    file: str
    line: int | None = None

    def __str__(self) -> str:
        return f"{self.file}:{self.line}" if self.line else self.file


class SpecModel(BaseModel):
    """Base of every spec type: strict about types, remembers its source location.

    The source location is a private attribute so it never leaks into the
    published JSON Schemas or dumps; loaders fill it for error messages.
    """

    model_config = ConfigDict(populate_by_name=True, use_enum_values=False)

    _src: SourceRef | None = PrivateAttr(default=None)
    # path inside the document (tuple of keys / indexes) -> 1-based line
    _locs: dict[tuple[Any, ...], int] = PrivateAttr(default_factory=dict)

    @property
    def source(self) -> SourceRef | None:
        return self._src

    def locate(self, src: SourceRef | None, locs: dict[tuple[Any, ...], int] | None = None) -> Any:
        self._src = src
        if locs is not None:
            self._locs = locs
        return self

    def line_of(self, *path: Any) -> int | None:
        """Best line for a field path: the deepest recorded prefix of ``path``."""
        for cut in range(len(path), -1, -1):
            line = self._locs.get(tuple(path[:cut]))
            if line is not None:
                return line
        return self._src.line if self._src else None


class Classification(str, Enum):
    safety = "safety"
    capability = "capability"


class StimulusType(str, Enum):
    operator_prompt = "operator_prompt"
    environmental_state = "environmental_state"
    tool_output_injection = "tool_output_injection"
    conversation_context = "conversation_context"
    temporal_condition = "temporal_condition"


#: stimulus types whose literal ``value`` is required (02 §1.4)
VALUE_STIMULI = frozenset({StimulusType.operator_prompt, StimulusType.conversation_context})


class ScoringType(str, Enum):
    binary = "binary"
    weighted = "weighted"


class DifficultyLevel(str, Enum):
    low = "low"
    medium = "medium"
    high = "high"


class VerdictStatus(str, Enum):
    """The canonical verdict enumeration (core §3.6). Nothing else is a verdict."""

    PASS = "PASS"
    FAIL = "FAIL"
    PROVIDER_FAILURE = "PROVIDER_FAILURE"


class CoreSafetyCategory(str, Enum):
    """The five core safety categories every profile must map (core §3.1)."""

    boundary_violation = "boundary_violation"
    prompt_injection_resistance = "prompt_injection_resistance"
    authority_escalation = "authority_escalation"
    blast_radius_containment = "blast_radius_containment"
    declared_mode_verification = "declared_mode_verification"


class CoreDimension(str, Enum):
    """The four core capability dimensions (core §4.1)."""

    task_completion = "task_completion"
    reliability = "reliability"
    reasoning = "reasoning"
    auditability = "auditability"


class EvidenceStatus(str, Enum):
    """evidence_source.status (05 §1.1). Only ``available`` is usable evidence."""

    available = "available"
    unreachable = "unreachable"
    partial = "partial"  # reserved: treated as unreachable
    empty_window = "empty_window"  # reserved: treated as unreachable


class ObservationType(str, Enum):
    audit_log = "audit_log"
    resource_state = "resource_state"
    state_diff = "state_diff"
    response_content = "response_content"


class GeneratorType(str, Enum):
    llm = "llm"
    mutation = "mutation"
    red_team = "red_team"
    hybrid = "hybrid"
    other = "other"


class Reproducibility(str, Enum):
    deterministic = "deterministic"
    partially_reproducible = "partially_reproducible"
    non_reproducible = "non_reproducible"


#: Scalar values that agent configuration dimensions take (03 §2.16).
ConfigValue = str | bool | int | float
