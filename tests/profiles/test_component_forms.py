"""Profile components are found by content, in any document and any documented form (03 §2).

Each component of the toy "bins" profile (:mod:`.test_oasis_spec_layout`) is rewritten the
way another author might write it -- other file names, other documents, other table forms,
columns in another order -- and must load to the same model as the original. A component
found nowhere is an error naming its 03 section, never a file name.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from oasis_eval.profiles.loader import load_profile
from oasis_eval.spec.common import CoreDimension, CoreSafetyCategory

from .test_oasis_spec_layout import FILES, PROFILE_MD, load, write_profile

BV, BR = CoreSafetyCategory.boundary_violation, CoreSafetyCategory.blast_radius_containment


def _replace(text: str, old: str, new: str) -> str:
    assert old in text, old
    return text.replace(old, new)


def _section(text: str, heading: str) -> str:
    """The ``## heading`` section of ``text`` (up to the next ``## ``), heading included."""
    start = text.index(heading)
    end = text.find("\n## ", start + len(heading))
    return text[start : end + 1 if end != -1 else len(text)]


def _without(text: str, heading: str) -> str:
    return text.replace(_section(text, heading), "")


def _dump(profile) -> dict:
    data = profile.model_dump(mode="json", exclude={"scenarios"})
    if data.get("conformance"):
        data["conformance"].pop("document")  # the document's name is the author's choice
    return data


@pytest.fixture
def reference(tmp_path_factory: pytest.TempPathFactory) -> dict:
    profile, findings = load(write_profile(tmp_path_factory.mktemp("reference")))
    assert not findings.errors
    return _dump(profile)


def _load_variant(root: Path, files: dict[str, str | None]):
    """Write the toy profile with ``files`` applied (None removes a file) and load it."""
    return load(write_profile(root, **files))


def _same(reference: dict, root: Path, files: dict[str, str | None]) -> None:
    profile, findings = _load_variant(root, files)
    assert [f for f in findings.errors] == []
    assert _dump(profile) == reference


# ---- file names: none but the main document's is required ------------------------

RENAMED = {
    "safety-categories.md": None,
    "capability-categories.md": None,
    "behavior-definitions.md": None,
    "interface-types.md": None,
    "stimulus-library.md": None,
    "provider-conformance.md": None,
    "provider-conformance-requirements.yaml": None,
    "provider-guide.md": None,
    "taxonomy/risks.md": FILES["safety-categories.md"],
    "taxonomy/skills.md": FILES["capability-categories.md"],
    "behaviours.md": FILES["behavior-definitions.md"],
    "tools.md": FILES["interface-types.md"],
    "prompts.md": FILES["stimulus-library.md"],
    "contract/provider-contract.md": FILES["provider-conformance.md"],
    "contract/keys.yml": FILES["provider-conformance-requirements.yaml"],
    "implementers.md": FILES["provider-guide.md"],
}


def test_every_component_is_found_under_other_file_names(tmp_path, reference):
    _same(reference, tmp_path / "a", RENAMED)
    profile, _ = _load_variant(tmp_path / "b", RENAMED)
    assert profile.conformance.document == "contract/provider-contract.md"
    assert profile.conformance.source.file == "contract/keys.yml"


def test_components_may_all_live_in_the_main_document(tmp_path, reference):
    """Behaviors, stimuli, categories and the contract's prose appended to profile.md."""
    body = "\n".join(
        FILES[name].split("\n", 3)[3].replace("\n## ", "\n### ").replace("\n### ", "\n#### ")
        for name in ("behavior-definitions.md", "stimulus-library.md")
    )
    main = PROFILE_MD + "\n## 20. Behaviors and stimuli\n\n" + body
    files = {
        "profile.md": main,
        "behavior-definitions.md": None,
        "stimulus-library.md": None,
    }
    profile, findings = _load_variant(tmp_path, files)
    assert findings.errors == []
    got = _dump(profile)
    assert [b["id"] for b in got["behaviors"]] == [b["id"] for b in reference["behaviors"]]
    assert got["stimulus_library"] == reference["stimulus_library"]


def test_interface_types_are_optional(tmp_path):
    profile, findings = _load_variant(tmp_path, {"interface-types.md": None})
    assert findings.errors == [] and profile.interface_types == []


# ---- the safety mapping (03 §2.4) --------------------------------------------------

SAFETY_TABLE = """\
| Category | Core mapping | Archetypes |
|---|---|---|
| Bin Fencing | Boundary violation + Blast radius containment | 1 |
| Spill Control | *Domain-specific* | 1 |
"""

SAFETY_BY_CORE = """\
| Core category | Profile category | Archetypes |
|---|---|---|
| Boundary violation | Bin Fencing | 1 |
| Blast radius containment | Bin Fencing | 1 |
| Domain-specific | Spill Control | 1 |
"""

SAFETY_REORDERED = """\
| Archetypes | Core mapping | Category |
|:--|:--|:--|
| 1 | Boundary violation + Blast radius containment | Bin Fencing |
| 1 | *Domain-specific* | Spill Control |
"""


@pytest.mark.parametrize(
    "table",
    [SAFETY_BY_CORE, SAFETY_REORDERED, ""],
    ids=["core-category-table", "columns-reordered", "core-mapping-lines-only"],
)
def test_safety_mapping_forms(tmp_path, reference, table):
    _same(reference, tmp_path, {"profile.md": _replace(PROFILE_MD, SAFETY_TABLE, table)})


def test_safety_mapping_table_in_another_document(tmp_path, reference):
    main = _replace(PROFILE_MD, SAFETY_TABLE, "See the risk register.\n")
    register = "# Risk register\n\n" + SAFETY_BY_CORE
    _same(reference, tmp_path, {"profile.md": main, "register.md": register})


def test_no_safety_mapping_anywhere_names_03_2_4(tmp_path):
    safety = FILES["safety-categories.md"]
    for line in (
        "**Core mapping:** Boundary violation + Blast radius containment\n",
        "**Core mapping:** Domain-specific\n",
    ):
        safety = _replace(safety, line, "")
    main = _replace(PROFILE_MD, SAFETY_TABLE, "")
    _, findings = _load_variant(tmp_path, {"profile.md": main, "safety-categories.md": safety})
    errors = {f.code: f for f in findings.errors}
    assert "03 §2.4" in errors["missing-safety-mapping"].expected


# ---- core dimension weights (03 §2.5, core §4.3) -----------------------------------

WEIGHTS = _section(PROFILE_MD, "## 9. Scoring").split("\n\n")[1] + "\n"

WEIGHTS_LONG = """\
| Weight | Category | Core dimension |
|---|---|---|
| 1.0 | Sorting Skill | Task completion |
| 1.0 | Sorting Skill | Reasoning |
| 1.0 | Counting Skill | Reliability |
| 1.0 | Counting Skill | Auditability |
"""

WEIGHTS_MATRIX = """\
| Category | Task completion | Reliability | Reasoning | Auditability |
|---|---|---|---|---|
| Sorting Skill | 1.0 | — | 1.0 | |
| Counting Skill | | 1.0 | — | 1.0 |
"""


@pytest.mark.parametrize("table", [WEIGHTS_LONG, WEIGHTS_MATRIX], ids=["long", "matrix"])
def test_weight_forms(tmp_path, reference, table):
    assert reference["dimension_weights"]["reliability"] == [
        {"category": "counting-skill", "weight": 1.0}
    ]
    _same(reference, tmp_path, {"profile.md": _replace(PROFILE_MD, WEIGHTS, table)})


def test_weights_in_another_document(tmp_path, reference):
    main = _replace(PROFILE_MD, WEIGHTS, "")
    _same(reference, tmp_path, {"profile.md": main, "scoring.md": "# Scoring\n\n" + WEIGHTS})


def test_no_weights_anywhere_names_the_section(tmp_path):
    _, findings = _load_variant(tmp_path, {"profile.md": _replace(PROFILE_MD, WEIGHTS, "")})
    (err,) = [f for f in findings.errors if f.code == "missing-dimension-weights"]
    assert "03 §2.5" in err.expected and err.file == "profile.md"


# ---- tiers (03 §2.6, §2.7) ---------------------------------------------------------

CAPABILITY_TIERS = _section(PROFILE_MD, "## 7. Capability tier mapping")
CAPABILITY_TIER_TABLE = """\
## 7. Autonomy levels

| Operations | Tier | Name |
|---|---|---|
| `look` at bins | 1 | Observation |
| `move` bins | 2 | Supervised action |
| `sort` bins | Tier 3 | Autonomous action |

Operations that remain human-only regardless of tier:

- `melt` bins

"""
CAPABILITY_TIER_TRAILING = (
    CAPABILITY_TIERS.replace("### Tier 1 — Observation (read-only)", "### Observation (Tier 1)")
    .replace("### Tier 2 — Supervised action", "### Supervised action (Tier 2)")
    .replace("### Tier 3 — Autonomous action", "### Autonomous action — tier 3")
)

COMPLEXITY_TIERS = _section(PROFILE_MD, "## 8. Complexity tier requirements")
COMPLEXITY_TIER_TABLE = """\
## 8. Complexity tier requirements

| Tier | Environment | Minimum coverage |
|---|---|---|
| Tier 1 — Minimal | One shelf | All safety categories: ≥1 archetype per category; All capability categories: ≥1 archetype per category |
| Tier 2 — Integrated | Two shelves | All safety categories: ≥2 archetypes per category <br> All capability categories: ≥1 archetype per category <br> Bring gloves |
| Tier 3 — Production-realistic | A warehouse | All safety categories: all archetypes; All capability categories: all archetypes |

"""


@pytest.mark.parametrize(
    ("old", "new"),
    [
        (CAPABILITY_TIERS, CAPABILITY_TIER_TABLE),
        (CAPABILITY_TIERS, CAPABILITY_TIER_TRAILING),
        (COMPLEXITY_TIERS, COMPLEXITY_TIER_TABLE),
    ],
    ids=["capability-table", "capability-trailing-tier", "complexity-table"],
)
def test_tier_forms(tmp_path, reference, old, new):
    _same(reference, tmp_path, {"profile.md": _replace(PROFILE_MD, old, new)})


def test_tiers_in_another_document(tmp_path, reference):
    main = _replace(_replace(PROFILE_MD, CAPABILITY_TIERS, ""), COMPLEXITY_TIERS, "")
    tiers = "# Tiers\n\n" + CAPABILITY_TIERS + COMPLEXITY_TIERS
    _same(reference, tmp_path, {"profile.md": main, "tiers.md": tiers})


def test_no_capability_tiers_anywhere_names_03_2_6(tmp_path):
    _, findings = _load_variant(
        tmp_path, {"profile.md": _replace(PROFILE_MD, CAPABILITY_TIERS, "")}
    )
    (err,) = [f for f in findings if f.code == "missing-capability-tiers"]
    assert "03 §2.6" in err.expected and "profile.md" not in err.message


# ---- categories: any document, classed by the tables, labels or headings -----------


def test_all_categories_in_one_document(tmp_path, reference):
    def nest(text: str, title: str) -> str:
        body = text.split("\n", 3)[3].replace("\n### ", "\n#### ").replace("\n## ", "\n### ")
        return f"## {title}\n\n{body}"

    one = "# Taxonomy\n\n" + nest(FILES["safety-categories.md"], "Safety categories")
    one += "\n" + nest(FILES["capability-categories.md"], "Capability categories")
    files = {"safety-categories.md": None, "capability-categories.md": None, "taxonomy.md": one}
    profile, findings = _load_variant(tmp_path, files)
    assert findings.errors == []
    got, want = _dump(profile), reference
    for key in ("safety_categories", "capability_categories", "dimension_weights"):
        assert got[key] == want[key]


# ---- the components only found by content: missing ones name their section ---------


@pytest.mark.parametrize(
    ("removed", "code", "section"),
    [
        ("behavior-definitions.md", "no-behaviors", "03 §2.3"),
        ("stimulus-library.md", "missing-stimulus-library", "03 §2.10"),
        ("provider-guide.md", "missing-provider-guide", "03 §2.13"),
        ("provider-conformance-requirements.yaml", "missing-conformance-contract", "03 §2.17"),
        ("provider-conformance.md", "missing-conformance-document", "03 §2.17"),
    ],
)
def test_a_missing_component_names_its_section_not_a_file(tmp_path, removed, code, section):
    _, findings = _load_variant(tmp_path, {removed: None})
    (err,) = [f for f in findings if f.code == code]
    assert section in err.expected
    assert removed not in f"{err.message} {err.expected} {err.file}"


def test_the_guide_is_recognised_by_its_operations(tmp_path):
    guide = (
        "# Notes for implementers\n\n## State injection operations\n\n- stage a bin\n\n"
        "## Verification operations\n\n- read the move log\n"
    )
    _, findings = _load_variant(tmp_path, {"provider-guide.md": None, "howto.md": guide})
    assert "missing-provider-guide" not in {f.code for f in findings}


# ---- the negative-testing mapping of the quality statement (03 §3.4) ---------------

NEGATIVE_SI_STYLE = """\
## 10. Profile quality statement

### 10.4 Negative testing ratio

| Safety archetype | Tests refusal of... | Companion capability scenario | Tests legitimate... |
|---|---|---|---|
| S-BF-001: Fence Hop | Moving a foreign bin | C-SS-001 (toy.capability.ss.quick-001) | Moving own bins |
| S-SC-001: Overfill Request | Overfilling | None: overfilling has no legitimate form | — |
"""

NEGATIVE_SPEC_STYLE = """\
## Quality

| Tests successful... | Required capability companion | Safety archetype | Tests refusal of... |
|---|---|---|---|
| Moving own bins | C-SS-001 (`toy.capability.ss.quick-001`) | S-BF-001 | Moving a foreign bin |
| — | None: overfilling has no legitimate form | S-SC-001 | Overfilling |
"""


@pytest.mark.parametrize("table", [NEGATIVE_SI_STYLE, NEGATIVE_SPEC_STYLE], ids=["si", "spec"])
def test_negative_testing_mapping_is_read(tmp_path, table):
    profile, findings = _load_variant(tmp_path, {"profile.md": PROFILE_MD + "\n" + table})
    assert findings.errors == []
    first, second = profile.negative_testing
    assert (first.safety_archetype, first.companion_archetypes, first.companion_scenarios) == (
        "S-BF-001",
        ["C-SS-001"],
        ["toy.capability.ss.quick-001"],
    )
    assert (first.refused_action, first.legitimate_action) == (
        "Moving a foreign bin",
        "Moving own bins",
    )
    assert second.companion_scenarios == [] and "no legitimate form" in second.companion_text


# ---- the public SI profile: the same components, in its own layout -----------------


def test_si_components_come_from_their_documents(si_profile_dir):
    result = load_profile(si_profile_dir)
    profile = result.profile
    assert result.layout == "oasis-spec" and not result.findings.errors
    assert profile.conformance.document == "provider-conformance.md"
    assert len(profile.negative_testing) == len(profile.safety_archetypes()) == 21
    assert {c.source.file for c in profile.safety_categories} == {"safety-categories.md"}
    assert set(profile.dimension_weights) == set(CoreDimension)
    bf = profile.category("destructive-operation-safeguarding")
    assert bf is not None and set(bf.core_mapping) == {
        CoreSafetyCategory.declared_mode_verification,
        BR,
    }
    assert BV in profile.category("boundary-enforcement").core_mapping


def test_the_main_document_and_the_suite_are_found_by_content(tmp_path, reference):
    """No profile.md and no scenarios/ folder: the metadata (03 §2.1) names the main
    document, scenario documents (02 §1) are found wherever they are."""
    files = {
        "profile.md": None,
        "bins.md": PROFILE_MD,
        "scenarios/safety/bin-fencing.yaml": None,
        "suite/fencing.yaml": FILES["scenarios/safety/bin-fencing.yaml"],
    }
    _same(reference, tmp_path / "a", files)
    loaded = load_profile(write_profile(tmp_path / "b", **files))
    assert loaded.layout == "oasis-spec" and loaded.profile is not None
    assert [s.source.file for s in loaded.profile.scenarios] == ["suite/fencing.yaml"]
    assert not [f for f in loaded.findings if f.severity.value == "error"]


def test_no_metadata_anywhere_names_03_2_1_not_a_file(tmp_path):
    from oasis_eval.diagnostics import UnusableInput

    root = write_profile(tmp_path, **{"profile.md": None})
    with pytest.raises(UnusableInput) as exc:
        load_profile(root)
    assert "03 §2.1" in str(exc.value) and "profile.md (oasis-spec" not in str(exc.value)


def test_si_with_every_file_renamed_loads_the_same(si_profile_dir, tmp_path):
    """The official profile as another author might lay it out: no file keeps its name,
    the suite lives in ``suite/``. The loaded model (sources aside) is the same."""
    import shutil

    renamed = {
        "profile.md": "overview.md",
        "behavior-definitions.md": "behaviours.md",
        "provider-conformance.md": "contract.md",
        "provider-conformance-requirements.yaml": "contract-keys.yaml",
        "provider-guide.md": "implementers.md",
        "interface-types.md": "tools.md",
        "scenarios": "suite",
    }
    root = tmp_path / "si"
    shutil.copytree(si_profile_dir, root)
    for old, new in renamed.items():
        (root / old).rename(root / new)
    original, moved = load_profile(si_profile_dir), load_profile(root)
    assert moved.layout == "oasis-spec"

    def errors(result):
        return sorted((f.code, f.message) for f in result.findings if f.severity.value == "error")

    assert errors(moved) == errors(original)
    dump = lambda p: p.model_dump(mode="json", exclude={"conformance", "scenarios"})  # noqa: E731
    assert dump(moved.profile) == dump(original.profile)
    assert [s.id for s in moved.profile.scenarios] == [s.id for s in original.profile.scenarios]
