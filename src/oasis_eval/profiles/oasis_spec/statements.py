"""Two prose components read by their parts: the environment specification (03 §2.9) and
the Profile Quality Statement (03 §2.11, one part per §3 criterion).

Found by content in any document, never by file name: the first section whose heading
names the component ("Environment specification" / "Environment requirements", "Quality
statement"). Its parts are its sub-sections, or bold-label paragraphs inside it, told apart
by the words of their headings (an "Isolation requirements" sub-section is the isolation
part). Whether each part is there is checked by :mod:`oasis_eval.validation.statement_rules`.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TypeVar

from ...spec.profile import EnvironmentSpecification, QualityStatement
from .common import Source
from .markdown import Section, labels

#: part -> words of a heading naming it, first match wins (03 §2.9)
ENVIRONMENT_PARTS = (
    ("state_injection", ("injection",)),
    ("isolation", ("isolation",)),
    ("fidelity", ("fidelity", "mock")),
    ("system_types", ("system", "type")),
)
_M = TypeVar("_M", EnvironmentSpecification, QualityStatement)
#: part -> words of a heading naming it (03 §3.1-§3.4)
QUALITY_PARTS = (
    ("difficulty", ("difficulty",)),
    ("coverage_independence", ("independen", "attack surface", "coverage")),
    ("evasion_resistance", ("evasion", "gaming")),
    ("negative_testing", ("negative",)),
)


def read_environment_specification(docs: Sequence[Source]) -> EnvironmentSpecification | None:
    """03 §2.9, from the first section titled as the environment specification."""
    return _read(docs, _environment_title, EnvironmentSpecification(), ENVIRONMENT_PARTS)


def read_quality_statement(docs: Sequence[Source]) -> QualityStatement | None:
    """03 §2.11, from the first section titled as the quality statement."""
    return _read(docs, lambda n: "quality statement" in n, QualityStatement(), QUALITY_PARTS)


def _read(
    docs: Sequence[Source],
    titled: Callable[[str], bool],
    model: _M,
    parts: tuple[tuple[str, tuple[str, ...]], ...],
) -> _M | None:
    """The first section ``titled`` as the statement, read into ``model`` one part each."""
    found = _section(docs, titled)
    if found is None:
        return None
    found[0].locate(model, found[1].line)
    for part, text in _parts(found[1], parts):
        setattr(model, part, text)
    return model


def _environment_title(name: str) -> bool:
    return "environment" in name and ("specification" in name or name.endswith("requirements"))


def _section(
    docs: Sequence[Source], titled: Callable[[str], bool]
) -> tuple[Source, Section] | None:
    for doc in docs:
        for section in doc.doc.root.walk():
            if section.level and titled(section.name.lower()):
                return doc, section
    return None


def _parts(
    section: Section, words: tuple[tuple[str, tuple[str, ...]], ...]
) -> list[tuple[str, str]]:
    """(part, text) of each sub-section or bold label naming a part, the first one kept."""
    found: dict[str, str] = {}
    candidates = [
        (child.name.lower(), _text(child)) for child in section.walk() if child is not section
    ]
    candidates += [
        (lab.key, lab.value) for lab in labels(section.all_blocks()) if lab.value.strip()
    ]
    for name, text in candidates:
        part = next((p for p, ws in words if any(w in name for w in ws)), None)
        if part is not None and text and part not in found:
            found[part] = text
    return sorted(found.items())


def _text(section: Section) -> str:
    return " ".join(b.text.strip() for b in section.all_blocks() if b.kind != "heading").strip()
