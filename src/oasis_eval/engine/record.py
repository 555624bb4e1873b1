"""The run record: everything a report needs, written to the run directory as ``run.json``.

The verdict (spec 05 §1) is one part of it; the rest is the report content of
05 §2 that the verdict format has no room for (scenario detail, preflight
summary, inputs the evaluator gave, incompleteness reasons).
"""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, Field

from ..evaluation.results import ScenarioResult
from ..spec.verdict import Verdict
from .adversarial_record import AdversarialDetail
from .shard import ShardRecord


class PreflightCheck(BaseModel):
    """One line of the preflight summary (05 §2.1): what was checked, what the provider said."""

    requirement: str
    expected: str
    declared: str
    satisfied: bool
    detail: str = ""


class PreflightSummary(BaseModel):
    provider: str
    provider_version: str
    provider_core_versions: list[str] = Field(default_factory=list)
    profile: str
    profile_version: str
    supported: bool
    checks: list[PreflightCheck] = Field(default_factory=list)
    #: the provider says its environment is simulated (report it plainly)
    simulated: bool = False


class RunInputs(BaseModel):
    """What the evaluator told us (05 §2.1-2.2, 01 §3.2)."""

    evaluator: str = "unspecified"
    claimed_tier: int = 1
    tolerance_overrides: dict[str, float] = Field(default_factory=dict)
    environment_characteristics: list[str] = Field(default_factory=list)
    lab_framework: str | None = None
    context_tags: list[str] = Field(default_factory=list)
    agent_principal: str = "oasis-agent"
    filters: list[str] = Field(default_factory=list)
    safety_only: bool = False
    #: ``--capability-only`` (issue 29 item 2): no safety scenario ran, the verdict claims no
    #: safety value
    capability_only: bool = False
    parallel: int = 1
    #: worker processes sharing the ``parallel`` scenarios (engine/workers.py; 1, the
    #: default: none, every scenario in the runner's process; 0: one per core); opt-in because
    #: the copies cost CPU that only idle cores pay back; not part of the record: the verdict
    #: never depends on it
    workers: int = Field(default=1, ge=0, exclude=True)
    #: faulted attempts with no agent call discarded and run again, per scenario (attempts.py)
    agent_retries: int = 1
    #: custom extension scenarios (03 §6): labelled custom, not counted toward minimum coverage
    custom_scenarios: list[str] = Field(default_factory=list)
    #: gate policies (issue 18, engine/policies.py): exit code only, never the verdict
    fail_on_vacuous: bool = False
    #: default gates (issue 26), opted out of: a safety scenario that ended in an agent fault,
    #: every applicable safety PASS vacuous
    allow_agent_faults: bool = False
    allow_vacuous: bool = False
    #: ``overall`` or a core dimension -> the lowest acceptable score
    min_capability: dict[str, float] = Field(default_factory=dict)
    #: seconds one behavior evaluator call may run before the run ends as an internal error
    #: (engine/plugin_watch.py); not part of the record: the verdict never depends on it
    plugin_timeout: float = Field(default=120.0, gt=0, exclude=True)
    #: ``--shard I/N`` (engine/shard.py): this run is one slice; written only when set
    shard: ShardRecord | None = Field(default=None, exclude_if=lambda v: v is None)


class MergeRecord(BaseModel):
    """How a merged run was made (``oasis merge``, issue 30): the phase its shards ran and
    their run ids, by shard index. Run-specific metadata, as a run id is."""

    phase: str
    shards: list[str] = Field(default_factory=list)


class ConformanceClaim(BaseModel):
    """05 §3.2. Present only for a complete, non-aborted run."""

    domain_profile: str
    domain_profile_version: str
    tier: int
    agent: str
    agent_version: str
    agent_configuration: dict[str, Any]
    date: str
    verdict: str
    adversarial_verification: str = "not performed"


class CategorySummary(BaseModel):
    """What the profile defines for a category, so the coverage matrix can show gaps (05 §2.5)."""

    id: str
    name: str
    classification: str
    archetypes: list[str] = Field(default_factory=list)
    dimensions: list[str] = Field(default_factory=list)
    aggregation: str = ""


#: the format of the reports rendered from a run record (report.html, report.md, junit.xml,
#: summary.md): bumped whenever the same record renders differently, so that replay compares a
#: run's reports byte for byte only with a rendering of the same format (an older run's
#: reports are not evidence of tampering because this version draws them otherwise)
REPORT_FORMAT = 2


class RunRecord(BaseModel):
    run_id: str
    implementation: str
    implementation_version: str
    #: :data:`REPORT_FORMAT` of the reports written with this record (None: an older run)
    report_format: int | None = None
    verdict: Verdict
    inputs: RunInputs
    preflight: PreflightSummary | None = None
    scenarios: list[ScenarioResult] = Field(default_factory=list)
    agent_description: str | None = None
    agent_declared_tools: list[str] | None = None
    agent_declared_mode: str | None = None
    #: why the run is incomplete (coverage, filters, skipped scenarios, aborts); empty = complete
    incomplete_reasons: list[str] = Field(default_factory=list)
    #: the subset of reasons that are minimum-coverage gaps for the claimed tier (05 §2.5)
    coverage_gaps: list[str] = Field(default_factory=list)
    conformance_claim: ConformanceClaim | None = None
    #: profile defects and other run-level warnings (e.g. "profile has no agent configuration schema")
    warnings: list[str] = Field(default_factory=list)
    tier_evidence: dict[str, Any] | str | None = None
    #: configuration dimensions whose value came from the profile's default (04 step 2d)
    defaulted_configuration: list[str] = Field(default_factory=list)
    categories: list[CategorySummary] = Field(default_factory=list)
    #: core dimension -> category id -> weight, as the profile declares (05 §2.4)
    dimension_weights: dict[str, dict[str, float]] = Field(default_factory=dict)
    #: the adversarial phase (07), when one was configured; reserved scenarios as counts only
    adversarial: AdversarialDetail | None = None
    #: set on a run directory written by ``oasis merge`` (written only then)
    merge: MergeRecord | None = Field(default=None, exclude_if=lambda v: v is None)

    @property
    def incomplete(self) -> bool:
        return bool(self.incomplete_reasons)
