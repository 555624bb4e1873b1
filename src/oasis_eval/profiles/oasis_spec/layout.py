"""Load a profile written in the oasis-spec layout (a directory of Markdown like the SI profile).

Spec 03 §2 prescribes components, not files, so every Markdown document of the profile is
read (:mod:`.documents`) and each component is found by its content, wherever it is:

- metadata, vocabulary, the category tables, subcategories, weights, the 03 §3.4
  negative-testing mapping: tables recognised by their columns and labelled lines
  (:mod:`.profile_md`), the main document (``profile.md``) first;
- category sections with archetypes (§2.4, §2.5): any document, each category classed as
  safety or capability by the tables, its labels or its headings (:mod:`.categories`);
- tiers (§2.6, §2.7), behaviors (§2.3), the stimulus library (§2.10), interface types
  (optional), the conformance contract (§2.17, a YAML file with ``requirements`` plus a
  conformance document) and the provider guide (§2.13): by headings and blocks;
- ``scenarios/**/*.yaml`` -- multi-document scenario files (§2.8).

A component found nowhere is an error naming its 03 section; no file name is required but
the main document's. Nothing here raises on malformed content: every problem is a finding
with file, line and what was expected. Only a missing profile directory raises.
"""

from __future__ import annotations

import re
from pathlib import Path

from ... import files
from ...diagnostics import Findings, UnusableInput
from ...spec.profile import ConformanceContract, Profile, ProfileMetadata
from ...spec.scenario import Scenario
from ...spec.yaml_io import YamlDocument
from ..paths import confined_files
from ..scenarios import load_scenario_file
from .behaviors import holds_behaviors, parse_behaviors
from .categories import CategoriesFile, category_sections, parse_categories
from .common import Source, unusable_message
from .conformance import (
    find_requirements_file,
    holds_contract,
    load_requirements,
    read_contract_document,
)
from .documents import (
    MAIN_DOCUMENT,
    first,
    has_heading,
    nowhere,
    profile_files,
    read_documents,
    states_metadata,
)
from .drift import check_counts, check_statements, markdown_statements, yaml_statements
from .interfaces import holds_interface_types, parse_interface_types
from .markdown import Section, label_map, slugify
from .merge import build_capability, build_safety
from .metadata import read_reused
from .profile_md import ProfileMd, parse_profile_md
from .statements import read_environment_specification, read_quality_statement
from .stimuli import holds_stimuli, is_stimulus_entry, parse_stimulus_library
from .subcategories import build_subcategories
from .tiers import parse_capability_tiers, parse_complexity_tiers
from .weights import build_dimension_weights

PROFILE_MD = MAIN_DOCUMENT
SCENARIO_GLOBS = ("scenarios/**/*.yaml", "scenarios/**/*.yml")
_GUIDE_TITLE = re.compile(r"(provider|implementation)\b.*\bguide", re.IGNORECASE)


def is_oasis_spec_layout(root: Path) -> bool:
    """Whether ``root`` is an oasis-spec profile directory: it has profile.md, or a Markdown
    document (scenarios aside) stating the profile metadata (03 §2.1)."""
    if (root / PROFILE_MD).is_file():
        return True
    docs = read_documents(root, Findings())
    return bool(docs) and states_metadata(docs[0])


def load_oasis_spec_profile(root: Path, findings: Findings) -> Profile:
    """Read every document of an oasis-spec profile directory into one :class:`Profile`.

    Problems are appended to ``findings``; a missing directory raises
    :class:`UnusableInput`. The profile is returned even when components are missing.
    """
    root = Path(root)
    if not root.is_dir():
        raise UnusableInput("not a profile directory", file=str(root))
    docs = read_documents(root, findings)
    main = docs[0] if docs and (docs[0].file == PROFILE_MD or states_metadata(docs[0])) else None
    if main is None:
        findings.error(
            "missing-metadata",
            "no document of the profile states its metadata (identifier and version)",
            file=str(root),
            expected="a Markdown document with the 03 §2.1 metadata: '**Version:** <semver>', "
            "'- **Profile identifier:** ...' (usually profile.md)",
        )
    others = [d for d in docs if d is not main]
    pmd = parse_profile_md(main, root.name, others) if main else None
    meta = (
        pmd.metadata if pmd else ProfileMetadata(name=root.name, identifier=root.name, version="")
    )
    contract, req_doc = _contract(root, docs, main, findings)

    profile = Profile(metadata=meta)
    if pmd is not None:
        profile.vocabulary = pmd.vocabulary
        profile.intent_promotion = pmd.intent_promotion
        profile.agent_configuration_schema = pmd.agent_configuration_schema
        profile.reserved_scenarios = pmd.reserved_scenarios
        profile.negative_testing = pmd.negative_testing
        profile.behavior_namespaces = read_reused(pmd.meta_labels)
        profile.capability_tiers, profile.human_only_operations = parse_capability_tiers(docs)
        profile.complexity_tiers = parse_complexity_tiers(docs)
        # a missing schema (03 §2.16) is reported by validation, for both layouts
    safety_cfs, capability_cfs = _categories(docs, pmd, main, findings)
    profile.safety_categories = build_safety(pmd, safety_cfs, findings)
    profile.capability_categories = build_capability(pmd, capability_cfs, findings)
    names = {c.name.lower(): c.id for c in profile.categories()} | {
        c.id: c.id for c in profile.categories()
    }
    profile.subcategories = build_subcategories(
        pmd, [*safety_cfs, *capability_cfs], names, findings
    )
    profile.dimension_weights = build_dimension_weights(
        pmd, profile.capability_categories, findings
    )
    _documented_components(profile, docs, main, findings)
    profile.conformance = contract
    profile.environment_specification = read_environment_specification(docs)
    profile.quality_statement = read_quality_statement(docs)

    _check_restatements(root, pmd, docs, contract, req_doc, profile, findings)
    profile.scenarios = load_scenarios(root, findings)
    return profile


def _documented_components(
    profile: Profile, docs: list[Source], main: Source | None, findings: Findings
) -> None:
    """Behaviors (03 §2.3), the stimulus library (§2.10), interface types and the
    provider guide (§2.13), each from whichever documents hold them."""
    behavior_docs = [d for d in docs if holds_behaviors(d)]
    seen: dict[str, tuple[str, int]] = {}
    for doc in behavior_docs:
        profile.behaviors.extend(parse_behaviors(doc, seen))
    if not behavior_docs:
        findings.error(
            "no-behaviors",
            **nowhere(
                main,
                "behavior definitions",
                "'### `identifier`' headings with a definition and a '**Verification:**' "
                "paragraph (03 §2.3)",
            ),
        )
    stimulus_seen: dict[str, int] = {}
    stimulus_docs = [d for d in docs if holds_stimuli(d)]
    for doc in stimulus_docs:
        profile.stimulus_library.extend(parse_stimulus_library(doc, stimulus_seen))
    if not stimulus_docs:
        findings.error(
            "missing-stimulus-library",
            **nowhere(
                main,
                "a stimulus library",
                "'### <ID>: <name>' entries with a ```yaml block stating the stimulus type "
                "(03 §2.10)",
            ),
        )
    for doc in docs:
        if holds_interface_types(doc):
            profile.interface_types.extend(parse_interface_types(doc))
    if first(docs, _is_guide) is None:
        findings.error(
            "missing-provider-guide",
            **nowhere(
                main,
                "a provider implementation guide",
                "a document titled as the provider implementation guide, or sections on state "
                "injection operations and verification operations (03 §2.13)",
            ),
        )


def _is_guide(doc: Source) -> bool:
    """03 §2.13: a document titled as the guide, or one giving state injection and
    verification operations."""
    if _GUIDE_TITLE.search(doc.doc.title):
        return True
    return has_heading(doc, r"state\s+injection") and has_heading(doc, r"verification")


def _contract(
    root: Path, docs: list[Source], main: Source | None, findings: Findings
) -> tuple[ConformanceContract | None, YamlDocument | None]:
    """The conformance contract (03 §2.17): its machine-readable requirement keys and its
    conformance document, each found by content."""
    name = find_requirements_file(root, profile_files(root, (".yaml", ".yml")))
    if name is None:
        findings.error(
            "missing-conformance-contract",
            **nowhere(
                main,
                "the provider conformance contract's requirement keys",
                "a YAML file with 'requirements: {key: {type, required, expected, description}}' "
                "(03 §2.17.1)",
            ),
        )
        return None, None
    contract, req_doc = load_requirements(root, findings, name)
    ranked = sorted(
        (d for d in docs if holds_contract(d)),
        key=lambda d: ("conformance" not in d.doc.title.lower(), d is main),
    )
    if contract is not None and ranked:
        read_contract_document(ranked[0], contract)
    elif contract is not None:
        findings.error(
            "missing-conformance-document",
            **nowhere(
                main,
                "the human-readable conformance contract",
                "a document with a conformance heading, a JSON Schema of the provider's "
                "response and worked examples (03 §2.17.1)",
            ),
        )
    return contract, req_doc


def _categories(
    docs: list[Source], pmd: ProfileMd | None, main: Source | None, findings: Findings
) -> tuple[list[CategoriesFile], list[CategoriesFile]]:
    """The category sections of every document, classed safety or capability (03 §2.4/§2.5)."""
    safety: list[CategoriesFile] = []
    capability: list[CategoriesFile] = []
    for doc in docs:
        kinds = {id(s): _category_kind(s, path, pmd) for s, path in _category_paths(doc)}
        for s, _ in _category_paths(doc):
            if kinds[id(s)] is None:
                doc.warning(
                    "unclassified-category",
                    f"category '{s.name}' is neither in a safety nor a capability table, and "
                    "neither its labels nor its headings say which it is; it is ignored",
                    s.line,
                    expected="a row in a category table, a '**Core mapping:**' (safety) or "
                    "'**Core dimension mapping:**' (capability) line, or a heading saying "
                    "'safety' or 'capability' above it (03 §2.4/§2.5)",
                )
        for kind, out in (("safety", safety), ("capability", capability)):
            if kind in kinds.values():
                out.append(
                    parse_categories(
                        doc,
                        capability=kind == "capability",
                        include=lambda s, k=kind, m=kinds: m.get(id(s)) == k,  # type: ignore[misc]
                    )
                )
    if not safety and not capability:
        findings.error(
            "no-categories",
            **nowhere(
                main,
                "category sections with archetypes",
                "'## <Category>' sections with '### <ID>: <name>' archetype headings "
                "(03 §2.4, §2.5)",
            ),
        )
    return safety, capability


def _category_paths(doc: Source) -> list[tuple[Section, str]]:
    """Each category section of ``doc`` with the titles above it (document title first)."""
    wanted = {
        id(s)
        for s in category_sections(doc)
        if not (s.children and all(is_stimulus_entry(c) for c in s.children))
    }
    out: list[tuple[Section, str]] = []

    def walk(section: Section, path: str) -> None:
        for child in section.children:
            if id(child) in wanted:
                out.append((child, path))
            walk(child, f"{path} {child.name}")

    walk(doc.doc.root, "")
    return out


def _category_kind(section: Section, path: str, pmd: ProfileMd | None) -> str | None:
    """Safety or capability: by the category tables, else the section's labels, else the
    headings above it."""
    cid = slugify(section.name)
    if pmd is not None:
        if any(r.id == cid for r in pmd.safety_rows):
            return "safety"
        if any(r.id == cid for r in pmd.capability_rows):
            return "capability"
    labels = label_map(section.blocks)
    if "core mapping" in labels:
        return "safety"
    if any(k in labels for k in ("core dimension mapping", "core dimensions", "aggregation")):
        return "capability"
    low = path.lower()
    safety, capability = low.rfind("safety"), low.rfind("capabilit")
    if safety == capability:
        return None
    return "safety" if safety > capability else "capability"


def _check_restatements(
    root: Path,
    pmd: ProfileMd | None,
    docs: list[Source],
    contract: ConformanceContract | None,
    req_doc: YamlDocument | None,
    profile: Profile,
    findings: Findings,
) -> None:
    """Versions, identifiers, core dependency and counts restated in other files (:mod:`.drift`)."""
    if pmd is None:
        return
    sources = sorted(docs, key=lambda s: s.file)
    statements = [st for src in sources for st in markdown_statements(src)]
    req_file = contract.source.file if contract and contract.source else ""
    if req_doc is not None and isinstance(req_doc.data, dict):
        text = files.read_text(root / req_file)
        statements += yaml_statements(req_file, text, req_doc.data, req_doc.locations)
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
            req_file,
            set(contract.requirements),
        )
    for src in sources:
        check_counts(src, actual, findings)


def load_scenarios(root: Path, findings: Findings) -> list[Scenario]:
    """Every scenario document of the profile, files in sorted order (03 §2.8).

    Every YAML file under ``scenarios/`` when the profile has that directory; otherwise
    every YAML file of the profile that holds a scenario document (top-level ``id`` and
    ``verification`` or ``preconditions``, 02 §1) — 03 names the suite, not its folder."""
    if (root / "scenarios").is_dir():
        where = "scenarios/"
        paths = sorted(
            {p for pattern in SCENARIO_GLOBS for p in root.glob(pattern) if not p.is_dir()}
        )
    else:
        where = "the profile's YAML files"
        paths = [root / name for name in profile_files(root, (".yaml", ".yml"))]
        paths = [p for p in paths if _holds_scenario(p)]
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
            f"no scenario documents found in {where}",
            file=str(root) if where != "scenarios/" else where,
            expected="YAML scenario documents (02 §1), at least one per archetype (03 §2.8)",
        )
    return out


_SCENARIO_KEYS = re.compile(r"^(?:verification|preconditions):", re.MULTILINE)


def _holds_scenario(path: Path) -> bool:
    """A YAML file with a scenario document: top-level ``id:`` and ``verification:`` or
    ``preconditions:`` (a broken one is still loaded, so its errors are reported)."""
    try:
        text = files.read_text(path)
    except (OSError, UnicodeDecodeError):
        return False
    return bool(re.search(r"^id:", text, re.MULTILINE)) and bool(_SCENARIO_KEYS.search(text))
