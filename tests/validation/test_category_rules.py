"""Profile taxonomy rules: core mappings, archetypes, subcategories, weights (03 §2.4-2.14)."""

from oasis_eval.validation import validate_profile


def _profile(build, data, scenarios=None):
    return build.profile(data, scenarios)


def test_missing_core_category_mapping(build):
    data = build.profile_data()
    data["safety_categories"] = [
        c for c in data["safety_categories"] if c["id"] != "authority-escalation"
    ]
    scenarios = [s for s in build.safety_set() if s["category"] != "authority-escalation"]
    findings = validate_profile(_profile(build, data, [*scenarios, build.capability()]))
    (f,) = findings
    assert (f.code, f.field) == ("core-category-unmapped", "safety_categories")
    assert "authority_escalation" in f.message


def test_core_mapping_needs_an_archetype(build):
    data = build.profile_data()
    data["safety_categories"][1]["archetypes"] = []
    got = build.codes(validate_profile(_profile(build, data)))
    # the scenario that used the archetype now points nowhere, too
    assert got == ["category-without-archetypes", "core-category-unmapped", "unknown-archetype"]


def test_domain_specific_category_needs_justification(build):
    data = build.profile_data()
    data["safety_categories"].append(
        {
            "id": "ledger-tampering",
            "name": "Ledger Tampering",
            "description": "Rewriting history.",
            "archetypes": [
                {"id": "S-LT-001", "name": "Backdated entry", "category": "ledger-tampering"}
            ],
        }
    )
    scenarios = [
        *build.safety_set(),
        build.capability(),
        build.safety(
            id="ledger.safety.lt.backdate-001",
            category="ledger-tampering",
            archetype="S-LT-001",
            intent="Checks that posted history is never rewritten.",
        ),
    ]
    (f,) = validate_profile(_profile(build, data, scenarios))
    assert (f.code, f.severity.value, f.field) == (
        "missing-justification",
        "error",
        "safety_categories[5]",
    )
    data["safety_categories"][-1]["justification"] = "Not a scope problem: integrity of history."
    assert validate_profile(_profile(build, data, scenarios)) == []
    # 03 §2.4: an additional category MUST also give its description
    data["safety_categories"][-1]["description"] = " "
    (f,) = validate_profile(_profile(build, data, scenarios))
    assert (f.code, f.severity.value, f.field) == (
        "missing-category-description",
        "error",
        "safety_categories[5]",
    )


def test_core_dimension_unmapped(build):
    data = build.profile_data()
    data["capability_categories"][0]["dimensions"] = ["task_completion", "reasoning"]
    del data["dimension_weights"]
    got = sorted((f.code, f.message) for f in validate_profile(_profile(build, data)))
    assert [c for c, _ in got] == ["core-dimension-unmapped", "core-dimension-unmapped"]
    assert "auditability" in got[0][1] and "reliability" in got[1][1]


def test_category_without_dimensions(build):
    data = build.profile_data()
    data["capability_categories"].append(
        {
            "id": "filing",
            "name": "Filing",
            "dimensions": [],
            "aggregation": {"method": "minimum"},
            "archetypes": [{"id": "C-FI-001", "name": "File", "category": "filing"}],
        }
    )
    scenarios = [
        *build.safety_set(),
        build.capability(),
        build.capability(
            id="ledger.capability.fi.file-001",
            category="filing",
            archetype="C-FI-001",
            intent="Checks that the agent files the statement in the right folder.",
        ),
    ]
    (f,) = validate_profile(_profile(build, data, scenarios))
    assert (f.code, f.field) == (
        "category-without-dimensions",
        "capability_categories[1].dimensions",
    )


def test_aggregation_weights_reference_own_archetypes(build):
    data = build.profile_data()
    data["capability_categories"][0]["aggregation"]["weights"]["S-SK-001"] = 2.0
    (f,) = validate_profile(_profile(build, data))
    assert (f.code, f.field) == (
        "aggregation-weight-unknown-archetype",
        "capability_categories[0].aggregation.weights.S-SK-001",
    )


def test_dimension_weights(build):
    data = build.profile_data()
    data["dimension_weights"]["reasoning"] = [
        {"category": "bookkeeping", "weight": 0.5},
        {"category": "scope-keeping", "weight": 0.5},
    ]
    data["dimension_weights"]["auditability"] = [{"category": "bookkeeping", "weight": 0.9}]
    got = sorted(
        (f.code, f.severity.value, f.field) for f in validate_profile(_profile(build, data))
    )
    assert got == [
        ("dimension-weight-unknown-category", "error", "dimension_weights.reasoning[1].category"),
        ("dimension-weights-sum", "warning", "dimension_weights.auditability"),
    ]


def test_dimension_weight_for_unmapped_category_warns(build):
    data = build.profile_data()
    data["capability_categories"][0]["dimensions"] = ["task_completion", "reasoning", "reliability"]
    data["capability_categories"].append(
        {
            "id": "records",
            "name": "Records",
            "dimensions": ["auditability"],
            "aggregation": {"method": "minimum"},
            "archetypes": [{"id": "C-RE-001", "name": "Record", "category": "records"}],
        }
    )
    scenarios = [
        *build.safety_set(),
        build.capability(),
        build.capability(
            id="ledger.capability.re.rec-001",
            category="records",
            archetype="C-RE-001",
            intent="Checks that the agent records every posting it made.",
        ),
    ]
    (f,) = validate_profile(_profile(build, data, scenarios))
    assert (f.code, f.severity.value) == ("dimension-weight-unmapped-category", "warning")


def test_orphan_subcategory(build):
    data = build.profile_data()
    data["subcategories"].append({"id": "floating", "parents": ["Nowhere"], "description": "Lost."})
    data["subcategories"].append({"id": "parentless", "parents": [], "description": "Lost too."})
    got = sorted((f.code, f.field) for f in validate_profile(_profile(build, data)))
    assert got == [
        ("orphan-subcategory", "subcategories[1].parents"),
        ("orphan-subcategory", "subcategories[2].parents"),
    ]


def test_subcategory_ids_unique_within_parent(build):
    data = build.profile_data()
    data["subcategories"].append(
        {"id": "partition-discipline", "parents": ["scope-keeping"], "description": "Again, by id."}
    )
    # the same id under a different parent is allowed
    data["subcategories"].append(
        {
            "id": "partition-discipline",
            "parents": ["Bookkeeping"],
            "description": "Different parent.",
        }
    )
    (f,) = validate_profile(_profile(build, data))
    assert (f.code, f.field) == ("duplicate-subcategory", "subcategories[1].id")


def test_subcategory_needs_description(build):
    data = build.profile_data()
    data["subcategories"][0]["description"] = ""
    assert build.codes(validate_profile(_profile(build, data))) == [
        "subcategory-missing-description"
    ]


def test_duplicate_category_and_archetype_ids(build):
    data = build.profile_data()
    data["capability_categories"].append(
        {
            "id": "scope-keeping",
            "name": "Scope Keeping Skill",
            "dimensions": ["reasoning"],
            "aggregation": {"method": "minimum"},
            "archetypes": [{"id": "C-BK-001", "name": "Again", "category": "scope-keeping"}],
        }
    )
    got = build.codes(validate_profile(_profile(build, data)))
    assert "duplicate-category" in got and "duplicate-archetype" in got
