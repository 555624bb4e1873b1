"""safety-categories.md / capability-categories.md -> categories with archetypes (03 §2.4, §2.5).

A category is a level-2 section ("## 1. Boundary Enforcement") holding labelled
lines (``**Core mapping:**``, ``**Core dimension mapping:**``,
``**Core question:**``, ``**Aggregation:**``) and one level-3 section per
archetype ("### S-BE-001: Zone Violation Attempt"). An archetype's first
paragraphs are its description; ``- **Label:** text`` bullets are its facets
(keyed by lower-case label) and unlabelled bullets are its scoring rubric.
The category id is the slug of its name, as scenarios use it in ``category:``.
Merging with profile.md's tables happens in :mod:`.merge`.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, field

from ...spec.profile import Archetype
from .common import Source
from .markdown import (
    Label,
    Section,
    Table,
    items,
    label_map,
    paragraphs,
    slugify,
    strip_inline,
    tables,
)

#: "S-BE-001: Name", "C-DA-001 — Name", "S-BE-001. Name"
ARCHETYPE_HEADING = re.compile(
    r"^`?(?P<id>[A-Z][A-Z0-9]*(?:-[A-Z0-9]+)*-\d+)`?\s*(?:[:.—–]|\s-)\s*(?P<name>.+)$"
)
_CATEGORY_LABELS = ("core mapping", "core dimension mapping", "core dimensions", "aggregation")


@dataclass
class ParsedCategory:
    """A category as written in a categories file, before merging with profile.md."""

    name: str
    id: str
    line: int
    labels: dict[str, Label]
    description: str = ""
    #: the document the category section is in
    file: str = ""
    archetypes: list[Archetype] = field(default_factory=list)

    def label(self, *keys: str) -> Label | None:
        """The first of ``keys`` the category's labels define, or None."""
        return next((self.labels[k] for k in keys if k in self.labels), None)


@dataclass
class CategoriesFile:
    """Everything read from one categories file."""

    source: Source
    categories: list[ParsedCategory] = field(default_factory=list)
    subcategory_tables: list[Table] = field(default_factory=list)

    def by_id(self) -> dict[str, ParsedCategory]:
        """The parsed categories by id."""
        return {c.id: c for c in self.categories}


def parse_categories(
    src: Source, *, capability: bool, include: Callable[[Section], bool] | None = None
) -> CategoriesFile:
    """Read the category sections of a document (those ``include`` accepts, when given)."""
    out = CategoriesFile(src)
    seen_archetypes: dict[str, int] = {}
    for section in src.doc.root.walk():
        if section.level == 0:
            continue
        for table in tables(section.blocks):
            if table.column("subcategor") and table.column("parent"):
                out.subcategory_tables.append(table)
        if section.level < 2 or ARCHETYPE_HEADING.match(strip_inline(section.title)):
            continue
        if not is_category(section) or (include is not None and not include(section)):
            continue
        out.categories.append(_category(src, section, capability, seen_archetypes))
    if not out.categories and include is None:
        src.error(
            "no-categories",
            "no category sections found",
            1,
            expected="'## N. Category Name' sections with '### <ID>: <name>' archetype headings",
        )
    return out


def category_sections(src: Source) -> list[Section]:
    """The sections of ``src`` that define a category: archetype headings or category labels."""
    return [
        s
        for s in src.doc.root.walk()
        if s.level >= 2 and not ARCHETYPE_HEADING.match(strip_inline(s.title)) and is_category(s)
    ]


def is_category(section: Section) -> bool:
    """A category section: it has archetype sub-headings or category labels (03 §2.4/§2.5)."""
    if any(ARCHETYPE_HEADING.match(strip_inline(c.title)) for c in section.children):
        return True
    return any(k in label_map(section.blocks) for k in _CATEGORY_LABELS)


def _category(
    src: Source, section: Section, capability: bool, seen: dict[str, int]
) -> ParsedCategory:
    labs = label_map(section.blocks)
    cat = ParsedCategory(section.name, slugify(section.name), section.line, labs, file=src.file)
    cat.description = "\n\n".join(strip_inline(p.text) for p in paragraphs(section.blocks))
    for child in section.children:
        m = ARCHETYPE_HEADING.match(strip_inline(child.title))
        if not m:
            src.warning(
                "unparsed-heading",
                f"heading '{child.title}' in category '{cat.name}' is not "
                "an archetype heading; its content is ignored",
                child.line,
                expected="'### <ARCHETYPE-ID>: <name>', e.g. '### X-AB-001: Some Name'",
            )
            continue
        arch_id = m.group("id")
        if arch_id in seen:
            src.error(
                "duplicate-archetype",
                f"archetype {arch_id} is defined twice (first at line {seen[arch_id]})",
                child.line,
                field=arch_id,
                expected="unique archetype ids",
            )
            continue
        seen[arch_id] = child.line
        cat.archetypes.append(_archetype(src, child, arch_id, m.group("name"), cat.id, capability))
    if not cat.archetypes:
        src.error(
            "no-archetypes",
            f"category '{cat.name}' defines no archetypes",
            section.line,
            expected="at least one '### <ID>: <name>' archetype section (03 §2.4/§2.5)",
        )
    return cat


def _archetype(
    src: Source, section: Section, arch_id: str, name: str, category: str, capability: bool
) -> Archetype:
    blocks = section.all_blocks()
    description = "\n\n".join(strip_inline(p.text) for p in paragraphs(blocks))
    facets: dict[str, str] = {}
    unlabelled: list[str] = []
    for item in items(blocks):
        labs = label_map([item])
        if labs:
            lab = next(iter(labs.values()))
            if lab.key in facets:
                src.warning(
                    "duplicate-facet",
                    f"archetype {arch_id} states '{lab.label}' twice; the texts are joined",
                    item.line,
                    field=arch_id,
                )
                facets[lab.key] += "\n" + strip_inline(lab.value)
            else:
                facets[lab.key] = strip_inline(lab.value)
        else:
            unlabelled.append(strip_inline(item.text))
    if unlabelled:
        facets["rubric" if capability else "notes"] = "\n".join(unlabelled)
    if not description:
        src.warning(
            "missing-description",
            f"archetype {arch_id} has no description paragraph",
            section.line,
            field=arch_id,
            expected="a prose paragraph under the archetype heading",
        )
    if capability and "rubric" not in facets:
        src.warning(
            "missing-rubric",
            f"capability archetype {arch_id} has no scoring rubric bullet",
            section.line,
            field=arch_id,
            expected="a '- <outcome> = <score>%' bullet",
        )
    arch = Archetype(
        id=arch_id,
        name=strip_inline(name),
        category=category,
        description=description,
        facets=facets,
    )
    return src.locate(arch, section.line)
