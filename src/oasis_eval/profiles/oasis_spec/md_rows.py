"""What the main document's tables say, before merging with the other documents (03 §2).

Rows of the category, subcategory and weight tables, and :class:`ProfileMd`, which holds
them with the metadata, vocabulary, YAML-block components and the 03 §3.4 mapping, and
remembers which document each table component was read from.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from ...spec.common import CoreDimension, CoreSafetyCategory
from ...spec.profile import (
    AgentConfigurationSchema,
    IntentPromotion,
    NegativeTestingPair,
    ProfileMetadata,
    ReservedScenarios,
    VocabularyTerm,
)
from .common import Source
from .markdown import Label, slugify


@dataclass
class SafetyRow:
    """A row of profile.md's safety category mapping (03 §2.4)."""

    name: str
    line: int
    core_mapping: list[CoreSafetyCategory]
    archetypes: int | None

    @property
    def id(self) -> str:
        """The category id: the slug of its name."""
        return slugify(self.name)


@dataclass
class CapabilityRow:
    """A row of profile.md's capability category table (03 §2.5)."""

    name: str
    line: int
    dimensions: list[CoreDimension]
    archetypes: int | None
    aggregation: str

    @property
    def id(self) -> str:
        """The category id: the slug of its name."""
        return slugify(self.name)


@dataclass
class SubcategoryRow:
    """A row of profile.md's subcategory table (03 §2.14)."""

    id: str
    line: int
    parents: list[str]  # as written (display names or ids)
    description: str


@dataclass
class WeightRow:
    """A row of profile.md's core dimension weights (core §4.3)."""

    dimension: CoreDimension
    line: int
    contributions: list[tuple[str, float]]  # (category as written, weight)


@dataclass
class ProfileMd:
    """Everything read from profile.md, before merging with the other files."""

    source: Source
    metadata: ProfileMetadata
    meta_labels: dict[str, Label] = field(default_factory=dict)
    vocabulary: list[VocabularyTerm] = field(default_factory=list)
    safety_rows: list[SafetyRow] = field(default_factory=list)
    justifications: dict[str, Label] = field(default_factory=dict)  # category id -> label line
    subcategory_rows: list[SubcategoryRow] = field(default_factory=list)
    capability_rows: list[CapabilityRow] = field(default_factory=list)
    weight_rows: list[WeightRow] = field(default_factory=list)
    intent_promotion: IntentPromotion | None = None
    agent_configuration_schema: AgentConfigurationSchema | None = None
    #: line of the ``agent_configuration_schema`` key, even when its content is invalid
    agent_configuration_line: int | None = None
    reserved_scenarios: ReservedScenarios | None = None
    negative_testing: list[NegativeTestingPair] = field(default_factory=list)
    #: component -> the document its table was read from
    sources: dict[str, Source] = field(default_factory=dict)

    def file_of(self, component: str) -> str:
        """The document a component's table came from (the main document when absent)."""
        return self.sources.get(component, self.source).file

    def has_all_yaml(self) -> bool:
        """Whether the YAML-block components (03 §2.12, §2.15, §2.16) are all found."""
        return None not in (
            self.intent_promotion,
            self.agent_configuration_schema,
            self.reserved_scenarios,
        )

    def line_of(self, *keys: str) -> int | None:
        """Line of the first of ``keys`` stated as a bold label."""
        return next((self.meta_labels[k].line for k in keys if k in self.meta_labels), None)
