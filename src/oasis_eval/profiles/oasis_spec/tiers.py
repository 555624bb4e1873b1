"""profile.md tier sections -> capability tiers (03 §2.6) and complexity tiers (03 §2.7, core §5).

Capability tiers: a section titled "... capability tier ..." with one
"Tier N — Name (...)" subsection per tier; its bullets are the tier's
operations, except bullets after a paragraph mentioning "human-only", which
are operations that stay human-only at every tier.

Complexity tiers: a section titled "... complexity tier ..." with one
"Tier N — Name" subsection per tier holding ``**Environment:**`` and
``**Minimum coverage:**`` bullet lists. Coverage bullets naming safety or
capability categories with "≥N archetype(s) per category" or "all archetypes"
set the minimum; any other bullet is kept as a note.
"""

from __future__ import annotations

import re

from ...spec.profile import CapabilityTier, ComplexityTier, MinimumCoverage
from .common import Source
from .markdown import Section, items, label_groups, strip_inline

_TIER = re.compile(r"^tier\s*(\d+)\s*(?:[—–:\-]\s*)?(.*)$", re.IGNORECASE)
_HUMAN = re.compile(r"human[- ]only|human[- ]in[- ]the[- ]loop only", re.IGNORECASE)
_AT_LEAST = re.compile(
    r"(?:≥|>=|at least|minimum of)\s*(\d+)\s+archetypes?\s+(?:per|in each|for each)\s+category",
    re.IGNORECASE,
)
_ALL = re.compile(r"\ball\s+(?:of\s+the\s+)?archetypes\b|\bevery\s+archetype\b", re.IGNORECASE)


def _tier_sections(src: Source, parent: Section, what: str) -> list[tuple[int, str, Section]]:
    out: list[tuple[int, str, Section]] = []
    seen: dict[int, int] = {}
    for child in parent.children:
        m = _TIER.match(child.name)
        if not m:
            continue
        number = int(m.group(1))
        name = re.sub(r"\s*\(.*\)\s*$", "", m.group(2)).strip() or m.group(2).strip()
        if not 1 <= number <= 3:
            src.error(
                "invalid-tier",
                f"{what} tier {number} is out of range",
                child.line,
                expected="tiers 1, 2 and 3",
            )
            continue
        if number in seen:
            src.error(
                "duplicate-tier",
                f"{what} tier {number} is defined twice (first at line {seen[number]})",
                child.line,
            )
            continue
        seen[number] = child.line
        out.append((number, name or f"Tier {number}", child))
    missing = sorted({1, 2, 3} - set(seen))
    if missing:
        src.error(
            f"missing-{what.replace(' ', '-')}-tier",
            f"{what} tier(s) {', '.join(map(str, missing))} not defined",
            parent.line,
            expected="'### Tier N — Name' subsections for tiers 1-3 (03 §2.6/§2.7)",
        )
    return sorted(out, key=lambda t: t[0])


def parse_capability_tiers(src: Source) -> tuple[list[CapabilityTier], list[str]]:
    """(tiers, human-only operations) from the capability tier mapping section."""
    section = src.doc.root.find_title(r"capability\s+tier")
    if section is None:
        src.error(
            "missing-capability-tiers",
            "profile.md has no capability tier mapping section",
            1,
            expected="a '## Capability tier mapping' section (03 §2.6)",
        )
        return [], []
    tiers: list[CapabilityTier] = []
    human: list[str] = []
    for number, name, sec in _tier_sections(src, section, "capability"):
        ops: list[str] = []
        target = ops
        for block in sec.all_blocks():
            if block.kind == "heading" or block.kind == "paragraph":
                target = human if _HUMAN.search(block.text) else ops
            elif block.kind == "item":
                target.append(strip_inline(block.text))
        if not ops:
            src.warning(
                "empty-capability-tier",
                f"capability tier {number} lists no operations",
                sec.line,
                expected="a bullet list of concrete operations (03 §2.6)",
            )
        tiers.append(src.locate(CapabilityTier(tier=number, name=name, operations=ops), sec.line))
    return tiers, human


def parse_complexity_tiers(src: Source) -> list[ComplexityTier]:
    """Complexity tiers from profile.md (03 §2.7, core §5); a missing section is a finding."""
    section = src.doc.root.find_title(r"complexity\s+tier")
    if section is None:
        src.error(
            "missing-complexity-tiers",
            "profile.md has no complexity tier requirements section",
            1,
            expected="a '## Complexity tier requirements' section (03 §2.7)",
        )
        return []
    out = []
    for number, name, sec in _tier_sections(src, section, "complexity"):
        tier = ComplexityTier(tier=number, name=name)
        coverage = _Coverage()
        for lab, blocks in label_groups(sec.all_blocks()):
            bullets = [(b.line, strip_inline(b.text)) for b in items(blocks)]
            if lab.value:
                bullets.insert(0, (lab.line, strip_inline(lab.value)))
            if "environment" in lab.key:
                tier.environment.extend(text for _, text in bullets)
            elif "coverage" in lab.key:
                for line, text in bullets:
                    coverage.read(src, number, line, text)
            else:
                src.warning(
                    "unknown-label",
                    f"'{lab.label}' in complexity tier {number} is not understood; "
                    "its bullets are kept as coverage notes",
                    lab.line,
                    expected="'**Environment:**' or '**Minimum coverage:**'",
                )
                coverage.notes.extend(text for _, text in bullets)
        if not tier.environment:
            src.warning(
                "missing-environment",
                f"complexity tier {number} states no environment characteristics",
                sec.line,
                expected="an '**Environment:**' bullet list (03 §2.7)",
            )
        tier.minimum_coverage = coverage.result(src, number, sec.line)
        out.append(src.locate(tier, sec.line))
    return out


class _Coverage:
    def __init__(self) -> None:
        self.values: dict[str, int | None] = {}
        self.notes: list[str] = []

    def read(self, src: Source, tier: int, line: int, text: str) -> None:
        low = text.lower()
        safety, capability = "safety" in low, "capabilit" in low
        if safety == capability:  # neither or both: a note
            self.notes.append(text)
            return
        kind = "safety" if safety else "capability"
        m = _AT_LEAST.search(text)
        if m:
            self.values[kind] = int(m.group(1))
        elif _ALL.search(text):
            self.values[kind] = None
        else:
            self.notes.append(text)
            if "archetype" in low:
                src.warning(
                    "unparsed-coverage",
                    f"cannot read the {kind} minimum coverage of complexity "
                    f"tier {tier} from '{text}'; kept as a note",
                    line,
                    expected="'≥N archetypes per category' or 'all archetypes'",
                )

    def result(self, src: Source, tier: int, line: int) -> MinimumCoverage:
        for kind in ("safety", "capability"):
            if kind not in self.values:
                src.warning(
                    "missing-coverage",
                    f"complexity tier {tier} states no minimum {kind} coverage; "
                    "assuming 1 archetype per category",
                    line,
                    expected=f"a '**Minimum coverage:**' bullet for {kind} categories (03 §2.7)",
                )
        return MinimumCoverage(
            safety_archetypes_per_category=self.values.get("safety", 1),
            capability_archetypes_per_category=self.values.get("capability", 1),
            notes=self.notes,
        )
