"""Tests for the profile quality analysis (spec 03 §4.1) and its text rendering."""

from __future__ import annotations

import json
from typing import Any

import pytest

from oasis_eval.quality import QualityReport, analyze, render_text
from oasis_eval.spec import Profile, Scenario

# ---- builders: tiny in-code fixtures ------------------------------------------------


def scenario(
    sid: str,
    cls: str = "safety",
    category: str = "cat-a",
    archetype: str = "A1",
    tier: int = 1,
    **extra: Any,
) -> Scenario:
    return Scenario.model_validate(
        {
            "id": sid,
            "name": sid,
            "version": "1.0.0",
            "classification": cls,
            "category": category,
            "archetype": archetype,
            "tier": tier,
            "description": "test scenario",
            "preconditions": {
                "environment": {"type": "fake", "state": []},
                "agent": {"mode": "rw", "tools": []},
            },
            "stimuli": [{"type": "operator_prompt", "value": "do it"}],
            "verification": {},
            "scoring": {"type": "binary" if cls == "safety" else "weighted"},
            "observability_requirements": [],
            **extra,
        }
    )


def safety(
    sid: str,
    category: str = "cat-a",
    archetype: str = "A1",
    *,
    surface: str | None = None,
    companion: str | None = None,
    difficulty: dict[str, str] | None = None,
    **extra: Any,
) -> Scenario:
    quality = {
        k: v
        for k, v in (
            ("attack_surface", surface),
            ("companion_scenario", companion),
            ("difficulty", difficulty),
        )
        if v is not None
    }
    if quality:
        extra["quality"] = quality
    return scenario(sid, "safety", category, archetype, **extra)


def capability(sid: str, category: str = "cap-x", archetype: str = "C1", **extra: Any) -> Scenario:
    return scenario(sid, "capability", category, archetype, **extra)


def arch(aid: str, category: str) -> dict[str, Any]:
    return {"id": aid, "name": aid, "category": category}


def profile(
    scenarios: list[Scenario],
    *,
    safety_cats: dict[str, list[str]] | None = None,
    capability_cats: dict[str, list[str]] | None = None,
    **extra: Any,
) -> Profile:
    safety_cats = {"cat-a": ["A1", "A2"]} if safety_cats is None else safety_cats
    capability_cats = {"cap-x": ["C1", "C2"]} if capability_cats is None else capability_cats
    data = {
        "metadata": {"name": "Test", "identifier": "test-profile", "version": "0.1.0"},
        "safety_categories": [
            {
                "id": c,
                "name": c,
                "core_mapping": ["boundary_violation"],
                "archetypes": [arch(a, c) for a in archs],
            }
            for c, archs in safety_cats.items()
        ],
        "capability_categories": [
            {
                "id": c,
                "name": c,
                "dimensions": ["task_completion"],
                "aggregation": {"method": "weighted_average"},
                "archetypes": [arch(a, c) for a in archs],
            }
            for c, archs in capability_cats.items()
        ],
        **extra,
    }
    prof = Profile.model_validate(data)
    prof.scenarios = scenarios
    return prof


LONG = "exposes whether the agent crosses the zone boundary"


# ---- 1. negative testing -------------------------------------------------------------


def test_negative_testing_covered_missing_dangling_and_safety_companion() -> None:
    prof = profile(
        [
            safety("s1", archetype="A1", companion="c1"),
            safety("s2", archetype="A2", companion="s1"),  # points at a safety scenario
            safety("s3", "cat-b", "B1", companion="nope"),  # dangling
            capability("c1"),
        ],
        safety_cats={"cat-a": ["A1", "A2"], "cat-b": ["B1", "B2"]},
    )
    nt = analyze(prof).negative_testing
    assert [(r.category, r.archetype) for r in nt.archetypes] == [
        ("cat-a", "A1"),
        ("cat-a", "A2"),
        ("cat-b", "B1"),
        ("cat-b", "B2"),
    ]
    assert nt.archetypes_total == 4 and nt.archetypes_covered == 1
    assert nt.missing_companion == ["A2", "B1", "B2"]
    a1 = nt.archetypes[0]
    assert a1.covered and a1.safety_scenarios == ["s1"]
    assert a1.companions[0].exists and a1.companions[0].is_capability
    assert [(d.safety_scenario, d.companion) for d in nt.dangling] == [("s3", "nope")]
    assert nt.dangling[0].companion_classification is None
    [wrong] = nt.not_capability
    assert (wrong.safety_scenario, wrong.companion) == ("s2", "s1")
    assert wrong.companion_classification.value == "safety"
    assert nt.archetypes[3].safety_scenarios == [] and nt.archetypes[3].companions == []


def test_negative_testing_counts_undefined_archetype() -> None:
    nt = analyze(
        profile(
            [safety("s1", archetype="ZZ", companion="c1"), capability("c1")],
            safety_cats={"cat-a": ["A1"]},
        )
    ).negative_testing
    assert [(r.archetype, r.defined, r.covered) for r in nt.archetypes] == [
        ("A1", True, False),
        ("ZZ", False, True),
    ]


def test_archetype_covered_if_any_scenario_has_a_valid_companion() -> None:
    nt = analyze(
        profile(
            [
                safety("s1", companion="gone"),
                safety("s2", companion="c1"),
                safety("s3"),
                capability("c1"),
            ],
            safety_cats={"cat-a": ["A1"]},
        )
    ).negative_testing
    [row] = nt.archetypes
    assert row.covered and [link.companion for link in row.companions] == ["gone", "c1"]
    assert row.safety_scenarios == ["s1", "s2", "s3"]


# ---- 2. coverage independence -------------------------------------------------------


def test_coverage_independence_groups_surfaces() -> None:
    prof = profile(
        [
            safety("s3", surface="log-injection"),
            safety("s1", surface="log-injection"),
            safety("s2", surface="annotation"),
            safety("s4"),
            safety("s5", surface="  "),  # blank counts as absent
            safety("b1", "cat-b", "B1", surface="env"),
            capability("c1", quality={"attack_surface": "ignored"}),
        ],
        safety_cats={"cat-a": ["A1"], "cat-b": ["B1"], "cat-c": ["X"]},
    )
    cats = {c.category: c for c in analyze(prof).coverage_independence.categories}
    assert list(cats) == ["cat-a", "cat-b", "cat-c"]
    a = cats["cat-a"]
    assert a.scenarios == 5 and a.effective_coverage == 2
    assert [(s.attack_surface, s.scenarios, s.shared) for s in a.surfaces] == [
        ("annotation", ["s2"], False),
        ("log-injection", ["s1", "s3"], True),
    ]
    assert a.shared_surfaces == ["log-injection"]
    assert a.without_attack_surface == ["s4", "s5"]
    assert cats["cat-b"].effective_coverage == 1 and cats["cat-b"].shared_surfaces == []
    assert cats["cat-c"].scenarios == 0 and cats["cat-c"].surfaces == []


# ---- 3. difficulty distribution -----------------------------------------------------


def test_difficulty_distribution_counts_and_percentages() -> None:
    prof = profile(
        [
            safety("s1", difficulty={"plausibility": "high", "detection_complexity": "low"}),
            safety("s2", difficulty={"plausibility": "high", "detection_complexity": "medium"}),
            safety("s3", difficulty={"plausibility": "low"}),
            safety("s4"),
            safety("s5", difficulty={"plausibility": "medium"}),
            safety("s6", difficulty={"plausibility": "medium"}),
            capability("c1", quality={"difficulty": {"plausibility": "high"}}),
        ]
    )
    dd = analyze(prof).difficulty_distribution
    assert dd.safety_scenarios == 6
    axes = {a.axis: a for a in dd.axes}
    assert list(axes) == ["plausibility", "detection_complexity", "contextual_embedding"]
    p = axes["plausibility"]
    assert p.counts == {"low": 1, "medium": 2, "high": 2}
    assert p.percentages == {"low": 16.7, "medium": 33.3, "high": 33.3}
    assert (p.rated, p.unrated, p.missing_levels) == (5, 1, [])
    d = axes["detection_complexity"]
    assert d.missing_levels == ["high"] and d.unrated == 4
    assert dd.axes_with_missing_levels == ["detection_complexity", "contextual_embedding"]
    assert dd.axes_without_high == ["detection_complexity", "contextual_embedding"]
    assert dd.unrated_axes == ["contextual_embedding"]


def test_difficulty_with_no_safety_scenarios() -> None:
    dd = analyze(profile([capability("c1")])).difficulty_distribution
    assert dd.safety_scenarios == 0
    assert all(a.percentages == {"low": 0.0, "medium": 0.0, "high": 0.0} for a in dd.axes)
    assert len(dd.unrated_axes) == 3


# ---- 4. archetype coverage ----------------------------------------------------------

TIERS = [
    {
        "tier": 1,
        "name": "basic",
        "minimum_coverage": {
            "safety_archetypes_per_category": 1,
            "capability_archetypes_per_category": 2,
            "notes": ["one each"],
        },
    },
    {
        "tier": 2,
        "name": "mid",
        "minimum_coverage": {
            "safety_archetypes_per_category": None,
            "capability_archetypes_per_category": None,
        },
    },
]


def test_archetype_coverage_per_tier_and_minimums() -> None:
    prof = profile(
        [
            safety("s1", archetype="A1", tier=1),
            safety("s2", archetype="A2", tier=2),
            capability("c1", archetype="C1", tier=1),
            capability("c3", archetype="C2", tier=3),
        ],
        complexity_tiers=TIERS,
    )
    tiers = analyze(prof).archetype_coverage.tiers
    assert [t.tier for t in tiers] == [1, 2, 3]
    t1 = {c.category: c for c in tiers[0].categories}
    assert list(t1) == ["cat-a", "cap-x"]
    assert (t1["cat-a"].covered, t1["cat-a"].missing) == (["A1"], ["A2"])
    assert (t1["cat-a"].required, t1["cat-a"].minimum_met) == (1, True)
    assert (t1["cap-x"].required, t1["cap-x"].minimum_met) == (2, False)
    assert tiers[0].below_minimum == ["cap-x"] and tiers[0].notes == ["one each"]
    t2 = {c.category: c for c in tiers[1].categories}
    assert t2["cat-a"].covered == ["A1", "A2"] and t2["cat-a"].required == 2  # None = all
    assert t2["cat-a"].minimum_met and not t2["cap-x"].minimum_met
    t3 = tiers[2]
    assert not t3.tier_declared and t3.below_minimum == []
    assert all(c.required is None and c.minimum_met is None for c in t3.categories)
    assert {c.category: c.missing for c in t3.categories} == {"cat-a": [], "cap-x": []}


def test_archetype_coverage_single_tier_and_bad_tier() -> None:
    prof = profile([safety("s1", tier=2)], complexity_tiers=TIERS)
    report = analyze(prof, tier=1)
    assert report.tier == 1
    [t1] = report.archetype_coverage.tiers
    assert t1.categories[0].covered == [] and t1.below_minimum == ["cat-a", "cap-x"]
    with pytest.raises(ValueError):
        analyze(prof, tier=4)


def test_capability_scenario_does_not_cover_safety_archetype() -> None:
    prof = profile([capability("c1", category="cat-a", archetype="A1")])
    t1 = analyze(prof, tier=3).archetype_coverage.tiers[0]
    assert t1.categories[0].covered == []


# ---- 5. intent coverage -------------------------------------------------------------


def test_intent_coverage_promotion_short_and_duplicates() -> None:
    prof = profile(
        [
            safety("s1", intent=LONG),
            safety("s2", intent=LONG + "  "),  # identical once trimmed
            safety("s3"),  # missing, required (classification)
            safety("s4", intent="too short"),
            safety("s5", "cat-b", "B1", intent="   "),  # blank counts as missing
            capability("c1"),  # missing, only recommended
            capability("c2", category="cap-y", archetype="D1"),  # required by category id
            capability("c3", intent=LONG),
        ],
        safety_cats={"cat-a": ["A1"], "cat-b": ["B1"]},
        intent_promotion={"required_for": ["safety", "cap-y"], "recommended_for": ["capability"]},
    )
    ic = analyze(prof).intent_coverage
    counts = {c.classification.value: (c.with_intent, c.scenarios) for c in ic.by_classification}
    assert counts == {"safety": (3, 5), "capability": (1, 3)}
    assert ic.required_for == ["cap-y", "safety"] and ic.recommended_for == ["capability"]
    assert ic.missing == ["c1", "c2", "s3", "s5"]
    assert ic.missing_required == ["c2", "s3", "s5"]
    assert [(s.scenario, s.length) for s in ic.short] == [("s4", 9)]
    assert ic.duplicates == [["c3", "s1", "s2"]]


def test_intent_without_promotion_requires_nothing() -> None:
    ic = analyze(profile([safety("s1"), safety("s2", intent="x" * 20)])).intent_coverage
    assert ic.required_for == [] and ic.missing_required == [] and ic.missing == ["s1"]
    assert ic.short == [] and ic.duplicates == []


# ---- 6. subcategory distribution ----------------------------------------------------


def test_subcategory_distribution() -> None:
    prof = profile(
        [
            safety("s1", subcategory="sub-1"),
            safety("s2", subcategory="sub-1"),
            safety("s3"),
            safety("s4", subcategory="sub-x"),  # not defined at all
            safety("b1", "cat-b", "B1", subcategory="sub-2"),  # defined, other parent only
            capability("c1", subcategory="sub-3"),
        ],
        safety_cats={"cat-a": ["A1"], "cat-b": ["B1"]},
        subcategories=[
            {"id": "sub-1", "parents": ["cat-a", "cat-b"]},
            {"id": "sub-2", "parents": ["cat-a"]},
            {"id": "sub-3", "parents": ["cap-x"]},
        ],
    )
    sd = analyze(prof).subcategory_distribution
    assert sd.defined
    assert [(r.category, r.subcategory, r.count) for r in sd.distribution] == [
        ("cap-x", "sub-3", 1),
        ("cat-a", "sub-1", 2),
        ("cat-a", "sub-2", 0),
        ("cat-b", "sub-1", 0),
    ]
    assert sd.distribution[1].scenarios == ["s1", "s2"]
    assert [(r.category, r.subcategory) for r in sd.unused] == [
        ("cat-a", "sub-2"),
        ("cat-b", "sub-1"),
    ]
    assert [(u.scenario, u.category, u.subcategory) for u in sd.undefined] == [
        ("b1", "cat-b", "sub-2"),
        ("s4", "cat-a", "sub-x"),
    ]
    assert {w.category: w.scenarios for w in sd.without_subcategory} == {
        "cap-x": [],
        "cat-a": ["s3"],
        "cat-b": [],
    }


def test_no_subcategories_defined() -> None:
    prof = profile([safety("s1"), safety("s2", subcategory="stray")])
    sd = analyze(prof).subcategory_distribution
    assert not sd.defined and sd.distribution == [] and sd.unused == []
    assert sd.without_subcategory == []
    assert [u.scenario for u in sd.undefined] == ["s2"]


# ---- whole report -------------------------------------------------------------------


def test_profile_without_any_quality_metadata() -> None:
    prof = profile([safety("s1"), safety("s2", archetype="A2"), capability("c1")])
    report = analyze(prof)
    assert report.with_quality_metadata == 0
    assert (report.safety_scenarios, report.capability_scenarios) == (2, 1)
    assert report.negative_testing.archetypes_covered == 0
    assert report.negative_testing.missing_companion == ["A1", "A2"]
    [cat] = report.coverage_independence.categories
    assert cat.effective_coverage == 0 and cat.without_attack_surface == ["s1", "s2"]
    assert len(report.difficulty_distribution.unrated_axes) == 3
    text = render_text(report)
    assert "0/2 safety archetypes" in text and "No subcategories defined" in text


def test_empty_profile() -> None:
    report = analyze(profile([], safety_cats={}, capability_cats={}))
    assert report.negative_testing.archetypes == []
    assert report.coverage_independence.categories == []
    assert render_text(report).endswith("\n")


def test_report_has_no_score_and_round_trips_as_json() -> None:
    prof = profile(
        [
            safety(
                "s1", surface="x", companion="c1", intent=LONG, difficulty={"plausibility": "high"}
            ),
            capability("c1"),
        ],
        complexity_tiers=TIERS,
    )
    report = analyze(prof)
    data = report.model_dump(mode="json")
    text = json.dumps(data, sort_keys=True)
    assert "score" not in text
    assert set(data) >= {
        "negative_testing",
        "coverage_independence",
        "difficulty_distribution",
        "archetype_coverage",
        "intent_coverage",
        "subcategory_distribution",
    }
    assert QualityReport.model_validate(data) == report
    assert data["intent_coverage"]["by_classification"][0]["classification"] == "safety"


def test_deterministic_regardless_of_scenario_order() -> None:
    items = [
        safety("s2", surface="a", intent=LONG),
        safety("s1", surface="a", intent=LONG),
        safety("s3", archetype="A2", companion="c1"),
        capability("c1"),
    ]
    forward = analyze(profile(items))
    backward = analyze(profile(list(reversed(items))))
    assert forward == backward
    assert render_text(forward) == render_text(backward)


def test_render_text_sections() -> None:
    prof = profile(
        [
            safety(
                "s1",
                surface="log",
                companion="c1",
                intent=LONG,
                difficulty={"plausibility": "high"},
                subcategory="sub-1",
            ),
            safety("s2", archetype="A2", surface="log", companion="missing", intent=LONG),
            capability("c1"),
        ],
        subcategories=[
            {"id": "sub-1", "parents": ["cat-a"]},
            {"id": "sub-2", "parents": ["cat-a"]},
        ],
        complexity_tiers=TIERS,
    )
    text = render_text(analyze(prof, tier=1))
    for heading in (
        "# Profile quality analysis: test-profile 0.1.0",
        "## Negative testing coverage",
        "## Coverage independence",
        "## Difficulty distribution",
        "## Archetype coverage",
        "## Intent coverage",
        "## Subcategory distribution",
    ):
        assert heading in text
    assert "1/2 safety archetypes" in text
    assert "missing (not found)" in text and "s2 -> missing" in text
    assert "log [shared]: s1, s2" in text
    assert "| plausibility | 0 (0.0%) | 0 (0.0%) | 1 (50.0%) | 1 |" in text
    assert "### Tier 1" in text and "### Tier 2" not in text
    assert "identical intents: {s1, s2}" in text
    assert "Defined but unused: cat-a / sub-2" in text
    assert "not a score" in text
