"""Subcategories (03 §2.14): profile.md's table, checked against the categories files' tables.

Parents are written as category display names (or ids); several may be listed.
A parent may also be a core safety category. profile.md is authoritative; a
subcategory only in a categories file is kept with a warning, and different
parents are a warning naming both places.
"""

from __future__ import annotations

from ...diagnostics import Findings
from ...spec.common import SourceRef
from ...spec.profile import Subcategory
from .categories import CategoriesFile
from .core_terms import core_safety_category
from .markdown import slugify
from .profile_md import ProfileMd, SubcategoryRow, read_subcategory_rows

PROFILE = "profile.md"


def build_subcategories(
    pmd: ProfileMd | None,
    files: list[CategoriesFile],
    categories: dict[str, str],
    findings: Findings,
) -> list[Subcategory]:
    """``categories`` maps category id and lower-case display name -> category id."""
    primary = pmd.subcategory_rows if pmd else []
    primary_file = pmd.file_of("subcategory") if pmd else PROFILE
    out: dict[str, Subcategory] = {}
    for row in primary:
        sub = _subcategory(row, primary_file, categories, findings)
        if sub is None:
            continue
        if sub.id in out:
            findings.error(
                "duplicate-subcategory",
                f"subcategory '{sub.id}' is defined twice",
                file=primary_file,
                line=row.line,
                field=sub.id,
                expected="unique subcategory ids (03 §2.14)",
            )
            continue
        out[sub.id] = sub
    for cf in files:
        for table in cf.subcategory_tables:
            for line, problem in table.problems:
                findings.error(
                    "unparsed-table-row",
                    f"subcategory table: {problem}",
                    file=cf.source.file,
                    line=line,
                )
            for row in read_subcategory_rows(cf.source, table):
                _compare_subcategory(row, cf.source.file, out, bool(primary), categories, findings)
    return list(out.values())


def _compare_subcategory(
    row: SubcategoryRow,
    file: str,
    out: dict[str, Subcategory],
    has_primary: bool,
    categories: dict[str, str],
    findings: Findings,
) -> None:
    sub = _subcategory(row, file, categories, findings)
    if sub is None:
        return
    known = out.get(sub.id)
    if known is None:
        if has_primary:
            findings.warning(
                "subcategory-mismatch",
                f"subcategory '{sub.id}' is not in profile.md's subcategory table",
                file=file,
                line=row.line,
                field=sub.id,
            )
        out[sub.id] = sub
    elif set(known.parents) != set(sub.parents):
        where = str(known.source) if known.source else "profile.md"
        findings.warning(
            "subcategory-mismatch",
            f"parents of '{sub.id}' differ: {where} says "
            f"{', '.join(known.parents)}; this file says {', '.join(sub.parents)}; profile.md wins",
            file=file,
            line=row.line,
            field=sub.id,
        )


def _subcategory(
    row: SubcategoryRow, file: str, categories: dict[str, str], findings: Findings
) -> Subcategory | None:
    parents: list[str] = []
    for name in row.parents:
        cid = categories.get(name.lower()) or categories.get(slugify(name))
        if cid is None:
            core = core_safety_category(name)
            cid = core.value if core is not None and slugify(name) == slugify(core.value) else None
        if cid is None:
            findings.error(
                "unknown-parent-category",
                f"subcategory '{row.id}': parent '{name}' is not a category of this profile",
                file=file,
                line=row.line,
                field=row.id,
                expected="a category name or id (03 §2.14: no orphan subcategories)",
            )
        elif cid not in parents:
            parents.append(cid)
    if not parents:
        return None
    sub = Subcategory(id=row.id, parents=parents, description=row.description)
    return sub.locate(SourceRef(file=file, line=row.line))
