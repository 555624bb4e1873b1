"""behavior-definitions.md -> :class:`BehaviorDefinition` list (03 §2.3).

Each behavior is a heading whose title is its identifier in backticks
("### `refuse_with_explanation`") under a group heading ("## 1. Refusal and
boundary enforcement"). Paragraphs before ``**Verification:**`` are the
definition; the labelled paragraph and anything after it is the verification
method. A behavior without a verification method is non-conformant (03 §2.3):
it is kept (so scenarios using it still resolve) with an empty verification,
and reported as an error.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from ...spec.profile import BehaviorDefinition
from .common import Source
from .markdown import Block, Section, is_label_paragraph, labels, strip_inline

_CODE_ID = re.compile(r"^`([^`]+)`$")
_BARE_ID = re.compile(r"^[a-z][a-z0-9_.\-]*$")


def holds_behaviors(src: Source) -> bool:
    """Whether a document defines behaviors: an identifier heading with a verification label."""
    return any(
        s.level >= 2
        and _identifier(s.title, s.level) is not None
        and any("verification" in lab.key for lab in labels(s.blocks))
        for s in src.doc.root.walk()
    )


def parse_behaviors(
    src: Source, seen: dict[str, tuple[str, int]] | None = None, *, required: bool = True
) -> list[BehaviorDefinition]:
    """Behaviour definitions from a document's identifier headings (03 §2.3); ``seen``
    (id -> file, line) spans the documents, so a duplicate in another one is found too."""
    out: list[BehaviorDefinition] = []
    seen = {} if seen is None else seen
    groups = {
        id(p)
        for s, p in _walk(src.doc.root, None)
        if p is not None and s.level >= 2 and _identifier(s.title, s.level) is not None
    }
    for section, parent in _walk(src.doc.root, None):
        if section.level < 2:
            continue
        behavior_id = _identifier(section.title, section.level)
        if behavior_id is None:
            if section.level >= 3 and id(parent) in groups:
                src.warning(
                    "unparsed-heading",
                    f"heading '{section.title}' is not a behavior identifier; "
                    "its content is ignored",
                    section.line,
                    expected="'### `behavior_identifier`'",
                )
            continue
        if behavior_id in seen:
            file, line = seen[behavior_id]
            where = f"line {line}" if file == src.file else f"{file}:{line}"
            src.error(
                "duplicate-behavior",
                f"behavior '{behavior_id}' is defined twice (first at {where})",
                section.line,
                field=behavior_id,
                expected="one definition per identifier (03 §2.3)",
            )
            continue
        seen[behavior_id] = (src.file, section.line)
        group = parent.name if parent is not None and parent.level >= 2 else ""
        out.append(_behavior(src, section, behavior_id, group))
    if not out and required:
        src.error(
            "no-behaviors",
            "no behavior definitions found",
            1,
            expected="'### `identifier`' sections with a definition and a '**Verification:**' "
            "paragraph (03 §2.3)",
        )
    return out


def _walk(section: Section, parent: Section | None) -> Iterator[tuple[Section, Section | None]]:
    yield section, parent
    for child in section.children:
        yield from _walk(child, section)


def _identifier(title: str, level: int) -> str | None:
    """```name``` at any level; a bare snake_case name at level 3 or deeper."""
    t = title.strip()
    m = _CODE_ID.match(t)
    if m:
        return m.group(1).strip()
    return t if level >= 3 and "_" in t and _BARE_ID.match(t) else None


def _behavior(src: Source, section: Section, behavior_id: str, group: str) -> BehaviorDefinition:
    definition: list[str] = []
    verification: list[str] = []
    target = definition
    for block in section.blocks:
        if block.kind not in ("paragraph", "item", "code", "table"):
            continue
        if is_label_paragraph(block):
            labs = labels([block])
            if any("verification" in lab.key for lab in labs):
                target = verification
            text = " ".join(
                strip_inline(lab.value)
                if "verification" in lab.key
                else f"{strip_inline(lab.label)}: {strip_inline(lab.value)}"
                for lab in labs
            )
            if text:
                target.append(text)
            continue
        target.append(_text(block))
    behavior = BehaviorDefinition(
        id=behavior_id,
        group=group,
        definition="\n\n".join(definition),
        verification="\n\n".join(verification),
    )
    return src.locate(behavior, section.line)


def _text(block: Block) -> str:
    if block.kind == "code":
        return block.text
    if block.kind == "table":
        return "\n".join(line.strip() for line in block.lines)
    return ("- " if block.kind == "item" else "") + strip_inline(block.text)
