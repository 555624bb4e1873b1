"""View of the capability summary (spec 05 §2.4; core §4.3).

The capability summary exists only when the verdict has a ``capability``
block (05 §1: only after a safety PASS). The complexity tier is shown beside
every score, with the statement 05 §2.4 mandates. The coverage matrix is
:mod:`.view_coverage`.
"""

from __future__ import annotations

from ..engine.record import RunRecord
from ..evaluation.results import ScenarioResult, ScenarioState
from ..spec.common import CoreDimension, VerdictStatus
from ..spec.verdict import CapabilityResult
from .blocks import (
    Block,
    callout,
    cell,
    code,
    fmt_num,
    fmt_score,
    one_line,
    para,
    section,
    table,
)
from .view_results import (
    CAPABILITY,
    by_category,
    in_state,
    of_phase,
)

#: mandated verbatim by 05 §2.4
TIER_STATEMENT = "Scores are only comparable between evaluations at the same tier."


def capability_section(record: RunRecord) -> Block | None:
    """The capability section (05 §3: score, dimensions, categories), or None without one."""
    capability = record.verdict.capability
    if capability is None:
        return None
    tier = capability.tier
    score_col = f"Score (tier {tier})"
    cov = capability.coverage
    executed = in_state(of_phase(record, CAPABILITY), ScenarioState.executed)
    return section(
        "capability",
        "Capability summary",
        [
            callout(
                "info",
                f"Complexity tier {tier}",
                [
                    cell(
                        f"Every score in this section was measured at complexity tier {tier}.",
                        strong=True,
                    ),
                    cell(TIER_STATEMENT, strong=True),
                ],
            ),
            para(
                f"Capability coverage: {cov.evaluated_archetypes} of {cov.required_archetypes} "
                f"required archetypes evaluated ({'complete' if cov.complete else 'INCOMPLETE'})."
            ),
            _categories(record, capability, executed, score_col),
            _dimensions(record, capability, score_col),
            _scenarios(executed, score_col),
        ],
    )


def _categories(
    record: RunRecord, capability: CapabilityResult, executed: list[ScenarioResult], score_col: str
) -> Block:
    """One row per scored domain category, with its archetype breakdown."""
    by_cat = by_category(executed)
    summaries = {c.id: c for c in record.categories}
    rows = []
    for name, result in capability.domain_categories.items():
        summary = summaries.get(name)
        rows.append(
            [
                code(name),
                summary.name if summary and summary.name else "-",
                cell(fmt_score(result.score), strong=True),
                str(result.archetypes_evaluated),
                _archetype_breakdown(by_cat.get(name, [])),
                ", ".join(result.maps_to_dimensions) or "-",
                one_line(summary.aggregation) if summary and summary.aggregation else "-",
            ]
        )
    return section(
        "capability-categories",
        "Domain categories",
        [
            table(
                [
                    "Category",
                    "Name",
                    score_col,
                    "Archetypes evaluated",
                    "Archetype breakdown",
                    "Maps to core dimensions",
                    "Aggregation",
                ],
                rows,
                empty="No domain category scored.",
            ),
        ],
    )


def _dimensions(record: RunRecord, capability: CapabilityResult, score_col: str) -> Block:
    """One row per core dimension with the categories (and weights) feeding it."""
    rows = []
    for dim in CoreDimension:
        score = getattr(capability.core_dimensions, dim.value)
        rows.append(
            [
                code(dim.value),
                cell(fmt_score(score), strong=True)
                if score is not None
                else cell("not scored", tone="muted"),
                _contributors(record, dim.value),
            ]
        )
    return section(
        "capability-dimensions",
        "Core dimensions",
        [
            table(["Dimension", score_col, "Contributing categories (weight)"], rows),
            para(
                "Each dimension aggregates the categories mapped to it, using the weights the "
                "domain profile declares."
                if record.dimension_weights
                else "Each dimension aggregates the categories mapped to it. The run record carries "
                "no dimension weights, so the weights the profile declares are not shown."
            ),
        ],
    )


def _scenarios(executed: list[ScenarioResult], score_col: str) -> Block:
    """One row per executed capability scenario: score and rubric band, or the runtime fault."""
    rows = []
    for s in executed:
        if s.status is VerdictStatus.PROVIDER_FAILURE:
            why = cell("Runtime fault: " + one_line(s.fault or "not recorded", 200), tone="pf")
            rows.append(
                [
                    code(s.scenario_id),
                    one_line(s.description or s.name, 100),
                    code(s.category),
                    code(s.archetype),
                    cell("-"),
                    "-",
                    why,
                ]
            )
            continue
        rows.append(
            [
                code(s.scenario_id),
                one_line(s.description or s.name, 100),
                code(s.category),
                code(s.archetype),
                cell(fmt_score(s.score), strong=True),
                s.band or "-",
                one_line(s.band_reason or "", 200) or "-",
            ]
        )
    return section(
        "capability-scenarios",
        "Per-scenario scores",
        [
            table(
                [
                    "Scenario",
                    "Description",
                    "Category",
                    "Archetype",
                    score_col,
                    "Rubric band",
                    "Why this band",
                ],
                rows,
                empty="No capability scenario was executed.",
            ),
        ],
    )


def _contributors(record: RunRecord, dimension: str) -> str:
    """The categories feeding ``dimension`` with the profile's weights (05 §2.4)."""
    capability = record.verdict.capability
    scored = capability.domain_categories if capability is not None else {}
    weights = record.dimension_weights.get(dimension)
    if weights:
        parts = []
        for category, weight in weights.items():
            note = "" if category in scored else ", not scored"
            parts.append(f"{category} (weight {fmt_num(weight, 4)}{note})")
        return "; ".join(parts)
    mapped = [name for name, result in scored.items() if dimension in result.maps_to_dimensions]
    if not mapped:
        return "no category maps here"
    suffix = " (no weight recorded)" if not record.dimension_weights else " (weight not declared)"
    return "; ".join(f"{name}{suffix}" for name in mapped)


def _archetype_breakdown(results: list[ScenarioResult]) -> str:
    groups: dict[str, list[str]] = {}
    for s in results:
        groups.setdefault(s.archetype, []).append(
            f"{s.scenario_id} {fmt_score(s.score)}" if s.score is not None else s.scenario_id
        )
    return "; ".join(f"{arch}: {', '.join(items)}" for arch, items in groups.items()) or "-"
