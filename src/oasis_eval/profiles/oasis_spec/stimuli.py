"""stimulus-library.md -> :class:`LibraryStimulus` list (03 §2.10; stimulus fields of 02 §1.4).

Each entry is a heading "### STIM-XX-001: Name" followed by a fenced ``yaml``
block holding the stimulus fields (``type``, ``value``, ``description``,
``target``, ``timing``) and prose on when to use it.

Library YAML is often written with ``{placeholder}`` parameters, which YAML
reads as flow mappings (or rejects). When a field is not a plain string, or
the block does not parse, the fields are re-read literally line by line (a
``key: text`` line, with ``>``/``|`` block scalars) and a warning says which
line to quote.
"""

from __future__ import annotations

import re
from typing import Any

import yaml

from ...spec.common import StimulusType
from ...spec.profile import LibraryStimulus
from ...spec.yaml_io import safe_load
from .common import Source, yaml_key_line
from .markdown import Block, Section, code_blocks, strip_inline

_HEADING = re.compile(
    r"^`?(?P<id>[A-Z][A-Z0-9]*(?:-[A-Z0-9]+)*-\d+)`?\s*(?:[:.—–]|\s-)\s*(?P<name>.*)$"
)
_FIELDS = ("type", "value", "description", "target", "timing")
_KEY = re.compile(r"^(?P<key>[A-Za-z_][\w-]*)\s*:(?:\s+(?P<rest>.*))?$")


def is_stimulus_entry(section: Section) -> bool:
    """A stimulus entry: an id heading with a code block stating a ``type``."""
    return bool(_HEADING.match(strip_inline(section.title))) and any(
        re.search(r"^\s*type\s*:", b.text, re.MULTILINE) for b in code_blocks(section.blocks)
    )


def holds_stimuli(src: Source) -> bool:
    """Whether a document holds stimulus library entries (03 §2.10)."""
    return any(s.level >= 2 and is_stimulus_entry(s) for s in src.doc.root.walk())


def parse_stimulus_library(
    src: Source, seen: dict[str, int] | None = None
) -> list[LibraryStimulus]:
    """Library stimuli from a document's entry sections (03 §2.10, 02 §1.4)."""
    out: list[LibraryStimulus] = []
    seen = {} if seen is None else seen
    groups = {id(p) for p in src.doc.root.walk() if any(is_stimulus_entry(c) for c in p.children)}
    for section in src.doc.root.walk():
        if section.level < 2:
            continue
        m = _HEADING.match(strip_inline(section.title))
        if m and not is_stimulus_entry(section) and not holds_only_stimuli(src):
            continue  # an archetype or other id heading in a mixed document
        if not m:
            if section.level >= 3 and any(section in p.children for p in _parents(src, groups)):
                src.warning(
                    "unparsed-heading",
                    f"heading '{section.title}' is not a stimulus entry; its content is ignored",
                    section.line,
                    expected="'### STIM-XX-001: Name'",
                )
            continue
        sid = m.group("id")
        if sid in seen:
            src.error(
                "duplicate-stimulus",
                f"stimulus {sid} is defined twice (first at line {seen[sid]})",
                section.line,
                field=sid,
            )
            continue
        seen[sid] = section.line
        stim = _entry(src, section, sid, strip_inline(m.group("name")))
        if stim is not None:
            out.append(stim)
    return out


def holds_only_stimuli(src: Source) -> bool:
    """Whether every id heading of the document is a stimulus entry (a library document)."""
    ids = [s for s in src.doc.root.walk() if s.level >= 2 and _HEADING.match(strip_inline(s.title))]
    return bool(ids) and sum(1 for s in ids if is_stimulus_entry(s)) * 2 >= len(ids)


def _parents(src: Source, groups: set[int]) -> list[Section]:
    return [p for p in src.doc.root.walk() if id(p) in groups]


def _entry(src: Source, section: Section, sid: str, name: str) -> LibraryStimulus | None:
    blocks = code_blocks(section.blocks)
    block = next((b for b in blocks if b.lang in ("yaml", "yml")), None) or next(iter(blocks), None)
    if block is None:
        src.error(
            "missing-stimulus-definition",
            f"stimulus {sid} has no ```yaml block",
            section.line,
            field=sid,
            expected="a ```yaml block with type and value/description (02 §1.4)",
        )
        return None
    fields = _fields(src, block, sid)
    stype = fields.get("type")
    if not stype:
        src.error(
            "missing-field",
            f"stimulus {sid} has no 'type'",
            block.line,
            field=f"{sid}.type",
            expected="one of " + ", ".join(t.value for t in StimulusType),
        )
        return None
    if stype not in {t.value for t in StimulusType}:
        src.error(
            "invalid-value",
            f"stimulus {sid} has unknown type '{stype}'",
            yaml_key_line(block, "type"),
            field=f"{sid}.type",
            expected="one of " + ", ".join(t.value for t in StimulusType),
        )
    usage_blocks = [
        b for b in section.blocks if b.kind in ("paragraph", "item") and b.line > block.end_line
    ]
    stim = LibraryStimulus(
        id=sid,
        name=name,
        type=stype,
        usage="\n\n".join(strip_inline(b.text) for b in usage_blocks),
        **{k: fields.get(k) for k in _FIELDS if k != "type"},
    )
    return src.locate(stim, section.line)


def _fields(src: Source, block: Block, sid: str) -> dict[str, str | None]:
    literal = _literal_fields(block.text)
    try:
        data: Any = safe_load(block.text)
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        line = block.content_line + mark.line if mark else block.line
        problem = getattr(exc, "problem", None) or str(exc).splitlines()[0]
        src.warning(
            "invalid-yaml",
            f"stimulus {sid}: the ```yaml block is not valid YAML ({problem}); "
            "its fields were read literally",
            line,
            field=sid,
            expected="valid YAML; quote values containing '{placeholders}'",
        )
        return literal
    if not isinstance(data, dict):
        src.error(
            "invalid-type",
            f"stimulus {sid}: the ```yaml block is not a mapping",
            block.line,
            field=sid,
            expected="a mapping of stimulus fields",
        )
        return {}
    out: dict[str, str | None] = {}
    for key in _FIELDS:
        if key not in data or data[key] is None:
            continue
        value = data[key]
        if isinstance(value, str):
            out[key] = value.rstrip("\n")
        elif isinstance(value, (int, float, bool)):
            out[key] = str(value)
        else:
            out[key] = literal.get(key)
            src.warning(
                "unquoted-placeholder",
                f"stimulus {sid}: '{key}' parses as a YAML "
                f"{type(value).__name__}, not text; read literally as '{literal.get(key)}'",
                yaml_key_line(block, key),
                field=f"{sid}.{key}",
                expected='a quoted string, e.g. key: "{placeholder}"',
            )
    for key in sorted(set(data) - set(_FIELDS) - {"library_ref"}):
        src.warning(
            "unknown-field",
            f"stimulus {sid}: unknown field '{key}'",
            yaml_key_line(block, str(key)),
            field=f"{sid}.{key}",
            expected="one of " + ", ".join(_FIELDS),
        )
    return out


def _literal_fields(text: str) -> dict[str, str | None]:
    """Top-level ``key: text`` lines read as plain text; ``>``/``|`` scalars folded/kept."""
    out: dict[str, str | None] = {}
    lines = text.splitlines()
    i = 0
    while i < len(lines):
        m = _KEY.match(lines[i])
        i += 1
        if not m:
            continue
        rest = (m.group("rest") or "").strip()
        if rest[:1] in (">", "|") and re.fullmatch(r"[>|][+-]?\d*", rest):
            body = []
            while i < len(lines) and (not lines[i].strip() or lines[i][:1] in (" ", "\t")):
                body.append(lines[i].strip())
                i += 1
            joiner = " " if rest[0] == ">" else "\n"
            out[m.group("key")] = joiner.join(b for b in body if b) or None
        else:
            if len(rest) >= 2 and rest[0] == rest[-1] and rest[0] in "\"'":
                rest = rest[1:-1]
            out[m.group("key")] = rest or None
    return out
