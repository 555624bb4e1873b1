"""The scenario schema of spec 02 §1, one field per spec field.

The model checks types and hard-required fields only. Rules that depend on the
profile, or that are "required when ..." (02 §1.4, §1.5, §1.7), are checked by
``oasis_eval.validation`` so that a profile author gets every finding at once,
each with its file and line, instead of the first pydantic error.
"""

from __future__ import annotations

import re
from typing import Any

from pydantic import ConfigDict, Field, field_validator

from .common import (
    Classification,
    ConfigValue,
    DifficultyLevel,
    ScoringType,
    SpecModel,
    StimulusType,
)

#: applicability / conditional ``when`` maps: exact value or any-of list (02 §1.9)
ConfigCondition = dict[str, ConfigValue | list[ConfigValue]]


class Difficulty(SpecModel):
    plausibility: DifficultyLevel | None = None
    detection_complexity: DifficultyLevel | None = None
    contextual_embedding: DifficultyLevel | None = None


class Quality(SpecModel):
    """Optional quality metadata (02 §1.2); feeds ``oasis quality`` only."""

    attack_surface: str | None = None
    difficulty: Difficulty | None = None
    companion_scenario: str | None = None


class EnvironmentPreconditions(SpecModel):
    type: str
    #: state entries; their shape is profile-defined (02 §1.3)
    state: list[dict[str, Any]]


class AgentPreconditions(SpecModel):
    mode: str
    tools: list[str]
    scope: dict[str, Any] | None = None


class Preconditions(SpecModel):
    environment: EnvironmentPreconditions
    agent: AgentPreconditions


#: ``after_first_tool_call``, ``after_3rd_call``, ``on_second_query`` (02 §1.6 ``timing``)
_AFTER = re.compile(
    r"^(?:after|on)_(?:(?P<d>\d+)(?:st|nd|rd|th)?|(?P<w>[a-z]+))_(?P<what>tool_call|query|call)$"
)
#: ``at_30s``: an offset from scenario start
_AT = re.compile(r"^at_(?P<s>\d+(?:\.\d+)?)s$")
ORDINALS = {"first": 1, "second": 2, "third": 3, "fourth": 4, "fifth": 5}


class StimulusTiming(SpecModel):
    """A parsed ``temporal_condition`` timing (02 §1.6): after the n-th agent call, or at an offset.

    Evaluation reads when a stimulus applied from here rather than re-parsing the
    string; a provider keeps its own parser (it must reject what it cannot trigger).
    """

    #: the stimulus applies after this many agent tool calls (or reads, with ``reads_only``)
    after: int | None = None
    #: count reads only (``on_second_query``), not every tool call
    reads_only: bool = False
    #: seconds after scenario start (``at_30s``)
    at_seconds: float | None = None

    @classmethod
    def parse(cls, timing: str | None) -> StimulusTiming | None:
        """The timing of ``after|on_<n>_<tool_call|call|query>`` or ``at_<n>s``; None otherwise.

        ``<n>`` is digits with an optional ordinal suffix (``3``, ``3rd``) or an
        ordinal word up to ``fifth``; case and surrounding blanks are ignored.
        """
        text = (timing or "").strip().lower()
        m = _AFTER.match(text)
        if m:
            count = int(m["d"]) if m["d"] else ORDINALS.get(m["w"])
            return None if count is None else cls(after=count, reads_only=m["what"] == "query")
        m = _AT.match(text)
        return cls(at_seconds=float(m["s"])) if m else None


class Stimulus(SpecModel):
    type: StimulusType
    value: str | None = None
    description: str | None = None
    target: str | None = None
    timing: str | None = None
    library_ref: str | None = None

    @property
    def parsed_timing(self) -> StimulusTiming | None:
        """``timing`` parsed (:meth:`StimulusTiming.parse`); None when absent or not understood."""
        return StimulusTiming.parse(self.timing)


class AssertionEntry(SpecModel):
    """One ``must`` / ``must_not`` entry. Extra keys (e.g. ``tool_hint``) are kept."""

    model_config = ConfigDict(extra="allow")

    behavior: str | None = None
    action: str | None = None

    @property
    def extras(self) -> dict[str, Any]:
        return dict(self.model_extra or {})


class ConditionalAssertion(SpecModel):
    """Configuration-conditioned assertions (02 §1.10)."""

    when: ConfigCondition
    must: list[AssertionEntry] = Field(default_factory=list)
    must_not: list[AssertionEntry] = Field(default_factory=list)


class Assertions(SpecModel):
    must: list[AssertionEntry] = Field(default_factory=list)
    must_not: list[AssertionEntry] = Field(default_factory=list)
    conditional: list[ConditionalAssertion] = Field(default_factory=list)


class ValueContainment(SpecModel):
    """A value that must not cross an output boundary (02 §1.6, core §3.5.5)."""

    value_ref: str
    scope: str
    output_channels: list[str]

    @property
    def absolute(self) -> bool:
        return self.scope == "absolute"


class Verification(SpecModel):
    """Independent verification methods (02 §1.6). Entry shapes are profile-defined."""

    state_assertions: list[dict[str, Any]] = Field(default_factory=list)
    api_audit: list[dict[str, Any] | str] = Field(default_factory=list)
    negative_verification: list[str | dict[str, Any]] = Field(default_factory=list)
    state_diff: dict[str, Any] | None = None
    value_containment: list[ValueContainment] = Field(default_factory=list)

    def methods(self) -> list[str]:
        """Names of the verification methods this block actually declares."""
        present = []
        for name in ("state_assertions", "api_audit", "negative_verification", "value_containment"):
            if getattr(self, name):
                present.append(name)
        if self.state_diff:
            present.append("state_diff")
        return sorted(present)


class Scoring(SpecModel):
    """Scoring block (02 §1.7): binary for safety, weighted for capability."""

    type: ScoringType
    safety_tolerance: float = Field(default=0.0, ge=0.0, le=100.0)

    @field_validator("safety_tolerance", mode="before")
    @classmethod
    def _number(cls, value: object) -> object:
        # YAML `true` or "5" are not percentages; only real numbers are
        if isinstance(value, bool) or not isinstance(value, int | float):
            raise ValueError("must be a number between 0 and 100")
        return value

    deviation_measure: str | None = None
    pass_condition: str | None = None
    rubric: dict[str, Any] | None = None
    dimensions: dict[str, float] | None = None


class Scenario(SpecModel):
    """An OASIS scenario (02 §1). Unknown top-level keys are kept and warned about."""

    model_config = ConfigDict(extra="allow")

    id: str
    name: str
    version: str
    classification: Classification
    category: str
    archetype: str
    tier: int = Field(ge=1, le=3, strict=True)
    description: str
    intent: str | None = None
    subcategory: str | None = None
    quality: Quality | None = None
    preconditions: Preconditions
    stimuli: list[Stimulus] = Field(min_length=1)
    assertions: Assertions | None = None
    verification: Verification
    scoring: Scoring
    observability_requirements: list[str]
    applicability: ConfigCondition | None = None

    @field_validator("id", "name", "version", "category", "archetype", "description")
    @classmethod
    def _not_blank(cls, value: str) -> str:
        if not value.strip():
            raise ValueError("must be a non-empty string")
        return value

    @property
    def is_safety(self) -> bool:
        return self.classification is Classification.safety

    @property
    def unknown_fields(self) -> list[str]:
        return sorted(self.model_extra or {})

    def all_assertion_entries(self) -> list[tuple[tuple[Any, ...], AssertionEntry]]:
        """Every assertion entry with its path, top-level and conditional, in file order."""
        out: list[tuple[tuple[Any, ...], AssertionEntry]] = []
        if self.assertions is None:
            return out
        for kind in ("must", "must_not"):
            for i, entry in enumerate(getattr(self.assertions, kind)):
                out.append((("assertions", kind, i), entry))
        for c, cond in enumerate(self.assertions.conditional):
            for kind in ("must", "must_not"):
                for i, entry in enumerate(getattr(cond, kind)):
                    out.append((("assertions", "conditional", c, kind, i), entry))
        return out

    def behaviors_used(self) -> list[str]:
        return sorted({e.behavior for _, e in self.all_assertion_entries() if e.behavior})
