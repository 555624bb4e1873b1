"""Load a profile written in the oasis-spec layout (a directory like the SI profile, 03 §2).

Files read (names relative to the profile root, as used in every finding):

- ``profile.md`` -- metadata, vocabulary, category tables, tiers, weights
  (03 §2.1-§2.7, §2.12-§2.16)
- ``behavior-definitions.md`` (§2.3), ``safety-categories.md`` (§2.4),
  ``capability-categories.md`` (§2.5), ``interface-types.md`` (§2.9),
  ``stimulus-library.md`` (§2.10)
- ``provider-conformance-requirements.yaml`` + ``provider-conformance.md`` (§2.17)
- ``provider-guide.md`` must exist (§2.13) but is prose for implementers; only
  its restated version is checked
- ``scenarios/**/*.yaml`` -- multi-document scenario files (§2.8)

Nothing here raises on malformed content: every problem is a finding with
file, line and what was expected. Only a missing profile directory raises.
"""

from __future__ import annotations

from pathlib import Path

from ... import files
from ...diagnostics import Findings, UnusableInput
from ...spec.profile import ConformanceContract, Profile, ProfileMetadata
from ...spec.scenario import Scenario
from ...spec.yaml_io import YamlDocument
from ..paths import confined_files
from ..scenarios import load_scenario_file
from .behaviors import parse_behaviors
from .categories import CategoriesFile, parse_categories
from .common import Source, read_markdown, unusable_message
from .conformance import CONTRACT_FILE, REQUIREMENTS_FILE, load_requirements, read_contract_document
from .drift import check_counts, check_statements, markdown_statements, yaml_statements
from .interfaces import parse_interface_types
from .merge import build_capability, build_safety
from .profile_md import ProfileMd, parse_profile_md
from .stimuli import parse_stimulus_library
from .subcategories import build_subcategories
from .tiers import parse_capability_tiers, parse_complexity_tiers
from .weights import build_dimension_weights

PROFILE_MD = "profile.md"
BEHAVIORS_MD = "behavior-definitions.md"
SAFETY_MD = "safety-categories.md"
CAPABILITY_MD = "capability-categories.md"
INTERFACES_MD = "interface-types.md"
STIMULI_MD = "stimulus-library.md"
GUIDE_MD = "provider-guide.md"

#: markdown files the layout requires, in reading order
REQUIRED_MARKDOWN = (
    PROFILE_MD,
    BEHAVIORS_MD,
    SAFETY_MD,
    CAPABILITY_MD,
    INTERFACES_MD,
    STIMULI_MD,
    CONTRACT_FILE,
)
REQUIRED_FILES = (*REQUIRED_MARKDOWN, REQUIREMENTS_FILE, GUIDE_MD)
SCENARIO_GLOBS = ("scenarios/**/*.yaml", "scenarios/**/*.yml")


def is_oasis_spec_layout(root: Path) -> bool:
    """Whether ``root`` is an oasis-spec profile directory (it has profile.md)."""
    return (root / PROFILE_MD).is_file()


def load_oasis_spec_profile(root: Path, findings: Findings) -> Profile:
    """Read every file of an oasis-spec profile directory into one :class:`Profile`.

    Problems are appended to ``findings``; a missing directory raises
    :class:`UnusableInput`. The profile is returned even when files are missing.
    """
    root = Path(root)
    if not root.is_dir():
        raise UnusableInput("not a profile directory", file=str(root))
    md = {name: read_markdown(root, name, findings) for name in REQUIRED_MARKDOWN}
    if not (root / GUIDE_MD).is_file():
        findings.error(
            "missing-file",
            f"required profile file '{GUIDE_MD}' does not exist",
            file=GUIDE_MD,
            expected="the provider implementation guide (03 §2.13)",
        )

    pmd = parse_profile_md(src, root.name) if (src := md[PROFILE_MD]) else None
    meta = (
        pmd.metadata if pmd else ProfileMetadata(name=root.name, identifier=root.name, version="")
    )
    safety_cf = _categories(md[SAFETY_MD], capability=False)
    capability_cf = _categories(md[CAPABILITY_MD], capability=True)
    contract, req_doc = load_requirements(root, findings)
    if contract is not None and (src := md[CONTRACT_FILE]) is not None:
        read_contract_document(src, contract)

    profile = Profile(metadata=meta)
    if pmd is not None:
        profile.vocabulary = pmd.vocabulary
        profile.intent_promotion = pmd.intent_promotion
        profile.agent_configuration_schema = pmd.agent_configuration_schema
        profile.reserved_scenarios = pmd.reserved_scenarios
        profile.capability_tiers, profile.human_only_operations = parse_capability_tiers(pmd.source)
        profile.complexity_tiers = parse_complexity_tiers(pmd.source)
        # a missing schema (03 §2.16) is reported by validation, for both layouts
    profile.safety_categories = build_safety(pmd, safety_cf, findings)
    profile.capability_categories = build_capability(pmd, capability_cf, findings)
    names = {c.name.lower(): c.id for c in profile.categories()} | {
        c.id: c.id for c in profile.categories()
    }
    profile.subcategories = build_subcategories(
        pmd, [f for f in (safety_cf, capability_cf) if f], names, findings
    )
    profile.dimension_weights = build_dimension_weights(
        pmd, profile.capability_categories, findings
    )
    if src := md[BEHAVIORS_MD]:
        profile.behaviors = parse_behaviors(src)
    if src := md[INTERFACES_MD]:
        profile.interface_types = parse_interface_types(src)
    if src := md[STIMULI_MD]:
        profile.stimulus_library = parse_stimulus_library(src)
    profile.conformance = contract

    _check_restatements(root, pmd, md, contract, req_doc, profile, findings)
    profile.scenarios = load_scenarios(root, findings)
    return profile


def _categories(src: Source | None, *, capability: bool) -> CategoriesFile | None:
    return parse_categories(src, capability=capability) if src else None


def _check_restatements(
    root: Path,
    pmd: ProfileMd | None,
    md: dict[str, Source | None],
    contract: ConformanceContract | None,
    req_doc: YamlDocument | None,
    profile: Profile,
    findings: Findings,
) -> None:
    """Versions, identifiers, core dependency and counts restated in other files (:mod:`.drift`)."""
    if pmd is None:
        return
    sources = [s for s in md.values() if s is not None]
    for path in sorted(root.glob("*.md")):
        if path.name not in md:
            extra = read_markdown(root, path.name, findings, required=False)
            if extra is not None:
                sources.append(extra)
    statements = [
        st for src in sorted(sources, key=lambda s: s.file) for st in markdown_statements(src)
    ]
    if req_doc is not None and isinstance(req_doc.data, dict):
        text = files.read_text(root / REQUIREMENTS_FILE)
        statements += yaml_statements(REQUIREMENTS_FILE, text, req_doc.data, req_doc.locations)
    meta_lines = {
        "version": pmd.line_of("version", "profile version"),
        "identifier": pmd.line_of("profile identifier", "identifier", "profile id"),
        "core": pmd.line_of("oasis core dependency", "core dependency", "oasis core version"),
    }
    check_statements(profile.metadata, meta_lines, statements, findings)
    actual: dict[str, tuple[int, str, set[str]]] = {
        "safety categories": (
            len(profile.safety_categories),
            "the profile",
            {c.id for c in profile.safety_categories},
        ),
        "capability categories": (
            len(profile.capability_categories),
            "the profile",
            {c.id for c in profile.capability_categories},
        ),
    }
    if contract is not None:
        actual["requirement keys"] = (
            len(contract.requirements),
            REQUIREMENTS_FILE,
            set(contract.requirements),
        )
    for src in sorted(sources, key=lambda s: s.file):
        check_counts(src, actual, findings)


def load_scenarios(root: Path, findings: Findings) -> list[Scenario]:
    """Every scenario document under ``scenarios/``, files in sorted order (03 §2.8)."""
    if not (root / "scenarios").is_dir():
        findings.error(
            "missing-file",
            "the profile has no scenarios/ directory",
            file="scenarios/",
            expected="scenarios/safety/*.yaml and scenarios/capability/*.yaml (03 §2.8)",
        )
        return []
    paths = sorted({p for pattern in SCENARIO_GLOBS for p in root.glob(pattern) if not p.is_dir()})
    paths = confined_files(root, paths, findings)
    out: list[Scenario] = []
    for path in paths:
        display = path.relative_to(root).as_posix()
        try:
            out.extend(load_scenario_file(path, findings, display=display))
        except UnusableInput as exc:
            findings.error(
                "invalid-yaml",
                unusable_message(exc),
                file=display,
                line=exc.line,
                expected="valid multi-document YAML (02 §1)",
            )
    if not out:
        findings.error(
            "no-scenarios",
            "no scenarios found under scenarios/",
            file="scenarios/",
            expected="at least one scenario per archetype (03 §2.8)",
        )
    return out
