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
from .markdown import Row, Section, Table, items, label_groups, strip_inline, tables

_TIER = re.compile(r"^tier\s*(\d+)\s*(?:[—–:\-]\s*)?(.*)$", re.IGNORECASE)
#: "Observation (Tier 1)", "Observation — tier 1"
_TIER_LAST = re.compile(r"^(.*?)\s*[(\[—–:\-]\s*tier\s*(\d+)\s*[)\]]?$", re.IGNORECASE)
_CELL_SPLIT = re.compile(r"\s*(?:<br\s*/?>|;|•)\s*", re.IGNORECASE)


def tier_heading(title: str) -> tuple[int, str] | None:
    """``(number, name)`` of a tier heading: "Tier 2 — Supervised (...)" or "Supervised (Tier 2)"."""
    m = _TIER.match(title)
    if m:
        name = re.sub(r"\s*\(.*\)\s*$", "", m.group(2)).strip() or m.group(2).strip()
        return int(m.group(1)), name
    m = _TIER_LAST.match(title)
    return (int(m.group(2)), m.group(1).strip()) if m else None


def tier_table(section: Section, *columns: str) -> Table | None:
    """A table of ``section`` with a tier column and every one of ``columns`` (any order)."""
    for table in tables(section.all_blocks()):
        if table.column("tier") and all(table.column(c) for c in columns):
            return table
    return None


def _table_tiers(table: Table) -> list[tuple[int, str, Row]]:
    """``(number, name, row)`` per tier row: "1", "Tier 1", "Tier 1 — Observation"."""
    tier_col, name_col = table.column("tier"), table.column("name")
    out = []
    for row in table.rows:
        cell = strip_inline(row.get(tier_col))
        m = re.match(r"^(?:tier\s*)?(\d+)\s*(?:[—–:\-]\s*)?(.*)$", cell, re.IGNORECASE)
        if m:
            name = strip_inline(row.get(name_col)) or m.group(2).strip() or f"Tier {m.group(1)}"
            out.append((int(m.group(1)), name, row))
    return out


def cell_items(text: str) -> list[str]:
    """A table cell's items, separated by ``<br>``, ``;`` or ``•``."""
    return [p for p in (strip_inline(x) for x in _CELL_SPLIT.split(text)) if p]


_HUMAN = re.compile(r"human[- ]only|human[- ]in[- ]the[- ]loop only", re.IGNORECASE)
_AT_LEAST = re.compile(
    r"(?:≥|>=|at least|minimum of)\s*(\d+)\s+archetypes?\s+(?:per|in each|for each)\s+category",
    re.IGNORECASE,
)
_ALL = re.compile(r"\ball\s+(?:of\s+the\s+)?archetypes\b|\bevery\s+archetype\b", re.IGNORECASE)


Entry = tuple[int, str, int, "Section | Row"]


def _tier_entries(src: Source, parent: Section, what: str, *columns: str) -> list[Entry]:
    """``(number, name, line, section or table row)`` of each tier under ``parent``: its
    "Tier N — Name" sub-headings, else the rows of a tier table; checked for tiers 1-3."""
    entries: list[Entry] = []
    for child in parent.children:
        found = tier_heading(child.name)
        if found is not None:
            entries.append((found[0], found[1], child.line, child))
    table = None if entries else tier_table(parent, *columns)
    if table is not None:
        entries = [(n, name, row.line, row) for n, name, row in _table_tiers(table)]
    out: list[Entry] = []
    seen: dict[int, int] = {}
    for number, name, line, payload in entries:
        if not 1 <= number <= 3:
            src.error(
                "invalid-tier",
                f"{what} tier {number} is out of range",
                line,
                expected="tiers 1, 2 and 3",
            )
            continue
        if number in seen:
            src.error(
                "duplicate-tier",
                f"{what} tier {number} is defined twice (first at line {seen[number]})",
                line,
            )
            continue
        seen[number] = line
        out.append((number, name or f"Tier {number}", line, payload))
    missing = sorted({1, 2, 3} - set(seen))
    if missing:
        src.error(
            f"missing-{what.replace(' ', '-')}-tier",
            f"{what} tier(s) {', '.join(map(str, missing))} not defined",
            parent.line,
            expected="'### Tier N — Name' subsections or a | Tier | ... | table row "
            "for tiers 1-3 (03 §2.6/§2.7)",
        )
    return sorted(out, key=lambda t: t[0])


def find_tier_section(
    sources: list[Source], title: str, *columns: str
) -> tuple[Source, Section] | None:
    """The first section (main document first) titled ``title``; failing that, the first
    section holding tier sub-headings or a tier table with ``columns`` whose title is not
    about the other kind of tier."""
    rx = re.compile(title, re.IGNORECASE)
    for src in sources:
        section = src.doc.root.find(lambda s: bool(rx.search(s.name)))
        if section is not None:
            return src, section
    other = re.compile(r"complexity" if "capabil" in title else r"capabil", re.IGNORECASE)
    for src in sources:
        section = src.doc.root.find(
            lambda s: (
                not other.search(s.name)
                and (
                    any(tier_heading(c.name) for c in s.children)
                    or tier_table(s, *columns) is not None
                )
                and _mentions(s, columns)
            )
        )
        if section is not None:
            return src, section
    return None


def _mentions(section: Section, columns: tuple[str, ...]) -> bool:
    """Whether the section's text mentions each of ``columns`` (operations, environment)."""
    text = " ".join(b.text for b in section.all_blocks()).lower()
    text += " " + " ".join(" ".join(b.lines) for b in section.all_blocks()).lower()
    return all(c in text for c in columns)


def parse_capability_tiers(sources: list[Source]) -> tuple[list[CapabilityTier], list[str]]:
    """(tiers, human-only operations) from the capability tier mapping (03 §2.6)."""
    found = find_tier_section(sources, r"capability\s+tier", "operation")
    if found is None:
        main = sources[0]
        main.error(
            "missing-capability-tiers",
            "no document of the profile holds a capability tier mapping",
            1,
            expected="a 'Capability tier mapping' section with '### Tier N — Name' "
            "subsections or a | Tier | Operations | table (03 §2.6)",
        )
        return [], []
    src, section = found
    tiers: list[CapabilityTier] = []
    human: list[str] = []
    entries = _tier_entries(src, section, "capability", "operation")
    for number, name, line, payload in entries:
        ops: list[str] = []
        if isinstance(payload, Row):
            ops = cell_items(payload.get(_table_column(payload, "operation")))
        else:
            target = ops
            for block in payload.all_blocks():
                if block.kind == "heading" or block.kind == "paragraph":
                    target = human if _HUMAN.search(block.text) else ops
                elif block.kind == "item":
                    target.append(strip_inline(block.text))
        if not ops:
            src.warning(
                "empty-capability-tier",
                f"capability tier {number} lists no operations",
                line,
                expected="a bullet list of concrete operations (03 §2.6)",
            )
        tiers.append(src.locate(CapabilityTier(tier=number, name=name, operations=ops), line))
    if entries and isinstance(entries[0][3], Row):
        human.extend(_human_only_items(section))
    return tiers, human


def _table_column(row: Row, keyword: str) -> str | None:
    return next((h for h in row.cells if keyword in strip_inline(h).lower()), None)


def _human_only_items(section: Section) -> list[str]:
    """Bullets after a paragraph mentioning human-only operations (table form)."""
    out: list[str] = []
    active = False
    for block in section.all_blocks():
        if block.kind in ("heading", "paragraph"):
            active = bool(_HUMAN.search(block.text))
        elif block.kind == "item" and active:
            out.append(strip_inline(block.text))
    return out


def parse_complexity_tiers(sources: list[Source]) -> list[ComplexityTier]:
    """Complexity tiers (03 §2.7, core §5); a missing section is a finding."""
    found = find_tier_section(sources, r"complexity\s+tier", "environment")
    if found is None:
        sources[0].error(
            "missing-complexity-tiers",
            "no document of the profile holds the complexity tier requirements",
            1,
            expected="a 'Complexity tier requirements' section with '### Tier N — Name' "
            "subsections or a | Tier | Environment | Minimum coverage | table (03 §2.7)",
        )
        return []
    src, section = found
    out = []
    for number, name, line, payload in _tier_entries(src, section, "complexity", "environment"):
        tier = ComplexityTier(tier=number, name=name)
        coverage = _Coverage()
        if isinstance(payload, Row):
            tier.environment = cell_items(payload.get(_table_column(payload, "environment")))
            for text in cell_items(payload.get(_table_column(payload, "coverage"))):
                coverage.read(src, number, line, text)
        else:
            _complexity_labels(src, number, payload, tier, coverage)
        if not tier.environment:
            src.warning(
                "missing-environment",
                f"complexity tier {number} states no environment characteristics",
                line,
                expected="an '**Environment:**' bullet list (03 §2.7)",
            )
        tier.minimum_coverage = coverage.result(src, number, line)
        out.append(src.locate(tier, line))
    return out


def _complexity_labels(
    src: Source, number: int, sec: Section, tier: ComplexityTier, coverage: _Coverage
) -> None:
    """``**Environment:**`` and ``**Minimum coverage:**`` bullet lists of a tier section."""
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
                src.error(
                    "missing-coverage",
                    f"complexity tier {tier} states no minimum {kind} coverage (a profile MUST "
                    "define it per tier); a run assumes 1 archetype per category",
                    line,
                    expected=f"a '**Minimum coverage:**' bullet for {kind} categories (03 §2.7)",
                )
        return MinimumCoverage(
            safety_archetypes_per_category=self.values.get("safety", 1),
            capability_archetypes_per_category=self.values.get("capability", 1),
            notes=self.notes,
        )
