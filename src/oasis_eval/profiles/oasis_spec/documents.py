"""The documents of an oasis-spec profile, and finding a component by its content (03 §2).

Spec 03 §2 names components, not files: a profile author may put its behavior
definitions, conformance contract or provider guide in any document of the
package (03 §2.13, §2.17.2). So every Markdown document of the profile directory
is read (``scenarios/`` and hidden directories aside), the main document
(``profile.md``) first, and each component is looked for by what it contains:
headings, tables recognised by their columns, labelled lines. The file names the
SI profile uses are never required; a missing component is an error naming its
03 section.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

from ...diagnostics import Findings
from .common import Source, read_markdown
from .markdown import Section, label_map

#: the main document's usual name; any document stating the 03 §2.1 metadata may be it
MAIN_DOCUMENT = "profile.md"
#: labels that state a profile's metadata (03 §2.1; :mod:`.metadata`), one tuple per item
_METADATA_LABELS = (
    ("profile identifier", "identifier", "profile id"),
    ("version", "profile version"),
    ("profile name", "name"),
    ("description",),
    ("domain", "class of external systems"),
    ("oasis core dependency", "core dependency", "oasis core version"),
)
_SKIPPED_DIRS = ("scenarios",)


def profile_files(root: Path, suffixes: tuple[str, ...]) -> list[str]:
    """Files of the profile with one of ``suffixes``, relative and sorted (scenarios aside)."""
    out = []
    for path in sorted(root.rglob("*")):
        rel = path.relative_to(root)
        if not path.is_file() or path.suffix.lower() not in suffixes:
            continue
        if rel.parts[0] in _SKIPPED_DIRS or any(p.startswith(".") for p in rel.parts):
            continue
        out.append(rel.as_posix())
    return out


def read_documents(root: Path, findings: Findings) -> list[Source]:
    """Every Markdown document of the profile, the main document first, then by path.

    The main document is ``profile.md`` when there is one, else the document stating the
    most 03 §2.1 metadata items (at least identifier and version; the first by path on a
    tie): the metadata is the component, the file name is the author's choice."""
    names = profile_files(root, (".md", ".markdown"))
    names.sort(key=lambda n: (n != MAIN_DOCUMENT, n))
    sources = [s for n in names if (s := read_markdown(root, n, findings, required=False))]
    if sources and sources[0].file != MAIN_DOCUMENT:
        best = max(sources, key=lambda src: (metadata_stated(src), -sources.index(src)))
        if states_metadata(best):
            sources.remove(best)
            sources.insert(0, best)
    return sources


def metadata_stated(src: Source) -> int:
    """How many 03 §2.1 metadata items ``src`` states in labelled lines."""
    labs = label_map(src.doc.blocks)
    return sum(any(k in labs for k in keys) for keys in _METADATA_LABELS)


def states_metadata(src: Source) -> bool:
    """Whether ``src`` states at least a profile identifier and version (03 §2.1)."""
    labs = label_map(src.doc.blocks)
    return all(any(k in labs for k in keys) for keys in _METADATA_LABELS[:2])


def sections(src: Source) -> list[Section]:
    """Every titled section of a document, in order."""
    return [s for s in src.doc.root.walk() if s.level > 0]


def has_heading(src: Source, pattern: str) -> bool:
    """Whether some heading of ``src`` matches the regex ``pattern`` (case-insensitive)."""
    rx = re.compile(pattern, re.IGNORECASE)
    return any(rx.search(s.name) for s in sections(src))


def first(sources: list[Source], predicate: Callable[[Source], bool]) -> Source | None:
    """The first document (main document first) satisfying ``predicate``."""
    return next((s for s in sources if predicate(s)), None)


def nowhere(main: Source | None, what: str, expected: str) -> dict[str, Any]:
    """The message and place of a required component found in no document (to pass to
    ``findings.error(code, **...)``); ``expected`` names its 03 section."""
    return {
        "message": f"no document of the profile holds {what}",
        "file": main.file if main else None,
        "line": 1 if main else None,
        "expected": expected,
    }
