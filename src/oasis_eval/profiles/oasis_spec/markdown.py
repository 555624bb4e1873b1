"""A small, line-preserving markdown reader (stdlib only).

The oasis-spec profile layout (spec 03 §2) keeps most of a profile in markdown
prose, tables and fenced code blocks. This module knows nothing about OASIS: it
splits a document into blocks (headings, paragraphs, list items, pipe tables,
fenced code, rules), nests headings into sections, and parses pipe tables and
``**Label:** value`` lines (tables live in :mod:`.md_tables`, inline text
helpers in :mod:`.md_inline`; both are re-exported here) -- always keeping
1-based line numbers so callers can report exactly where something could not
be understood. It never raises on
malformed input; table problems are returned as data.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field

from .md_block import Block
from .md_inline import NUMBER, slugify, split_number, strip_inline
from .md_tables import DELIMITER, Row, Table, parse_table, split_row, tables

__all__ = [
    "Block",
    "Document",
    "Label",
    "Row",
    "Section",
    "Table",
    "build_sections",
    "code_blocks",
    "is_label_paragraph",
    "items",
    "label_groups",
    "label_map",
    "labels",
    "paragraphs",
    "parse_document",
    "parse_table",
    "slugify",
    "split_number",
    "split_row",
    "strip_inline",
    "tables",
    "tokenize",
]

_HEADING = re.compile(r"^ {0,3}(#{1,6})(?:[ \t]+(.*?))?[ \t]*#*[ \t]*$")
_FENCE = re.compile(r"^ {0,3}(`{3,}|~{3,})[ \t]*([^`]*)$")
_RULE = re.compile(r"^ {0,3}([-*_])(?:[ \t]*\1){2,}[ \t]*$")
_ITEM = re.compile(r"^(\s*)(?:[-*+]|\d{1,9}[.)])[ \t]+(.*)$")
_LABEL = re.compile(r"^\*\*(?P<label>[^*]+?)\s*(?::\*\*|\*\*\s*:)\s*(?P<value>.*)$")


def tokenize(text: str) -> list[Block]:
    """Split ``text`` into blocks. Headings inside fenced code are code, not headings."""
    lines = text.splitlines()
    blocks: list[Block] = []
    i, n = 0, len(lines)
    while i < n:
        line = lines[i]
        if not line.strip():
            i += 1
            continue
        fence = _FENCE.match(line)
        if fence:
            code, i = _code_block(lines, i, fence)
            blocks.append(code)
            continue
        heading = _HEADING.match(line)
        if heading:
            blocks.append(
                Block(
                    "heading",
                    i + 1,
                    [line],
                    (heading.group(2) or "").strip(),
                    level=len(heading.group(1)),
                )
            )
            i += 1
            continue
        if _RULE.match(line):
            blocks.append(Block("rule", i + 1, [line]))
            i += 1
            continue
        if _is_table_start(lines, i):
            j = i + 1
            while j < n and lines[j].strip() and "|" in lines[j] and not _FENCE.match(lines[j]):
                j += 1
            blocks.append(Block("table", i + 1, lines[i:j]))
            i = j
            continue
        item = _ITEM.match(line)
        if item:
            indent = len(item.group(1).expandtabs(4))
            j = i + 1
            parts = [item.group(2).strip()]
            while (
                j < n
                and lines[j].strip()
                and not _starts_block(lines[j])
                and not _ITEM.match(lines[j])
            ):
                parts.append(lines[j].strip())
                j += 1
            blocks.append(Block("item", i + 1, lines[i:j], " ".join(parts), level=indent))
            i = j
            continue
        j = i + 1
        while (
            j < n and lines[j].strip() and not _starts_block(lines[j]) and not _ITEM.match(lines[j])
        ):
            j += 1
        blocks.append(
            Block("paragraph", i + 1, lines[i:j], " ".join(s.strip() for s in lines[i:j]))
        )
        i = j
    return blocks


def _code_block(lines: list[str], i: int, fence: re.Match[str]) -> tuple[Block, int]:
    """The fenced code block opening at line ``i`` (unclosed: to the end), and the next line."""
    n = len(lines)
    j = i + 1
    while j < n and not _closes(lines[j], fence.group(1)):
        j += 1
    info = fence.group(2).strip()
    block = Block(
        "code",
        i + 1,
        lines[i : j + 1],
        "\n".join(lines[i + 1 : j]),
        lang=info.split()[0].lower() if info else "",
        closed=j < n,
    )
    return block, j + 1


def _closes(line: str, marker: str) -> bool:
    s = line.strip()
    return len(line) - len(line.lstrip()) <= 3 and len(s) >= len(marker) and set(s) == {marker[0]}


def _starts_block(line: str) -> bool:
    return bool(
        _HEADING.match(line)
        or _FENCE.match(line)
        or _RULE.match(line)
        or line.lstrip().startswith("|")
    )


def _is_table_start(lines: list[str], i: int) -> bool:
    line = lines[i]
    if line.lstrip().startswith("|"):
        return True
    return (
        "|" in line
        and i + 1 < len(lines)
        and bool(DELIMITER.match(lines[i + 1]))
        and "-" in lines[i + 1]
    )


# ---- sections -------------------------------------------------------------


@dataclass
class Section:
    """A heading and everything up to the next heading of the same or higher level."""

    level: int
    title: str
    line: int
    blocks: list[Block] = field(default_factory=list)  # own blocks, before any child heading
    children: list[Section] = field(default_factory=list)

    @property
    def number(self) -> str:
        """The leading section number, e.g. ``5.1`` for "5.1 Safety subcategories"."""
        m = NUMBER.match(self.title)
        return m.group("num") if m else ""

    @property
    def name(self) -> str:
        """The title without its leading number and inline formatting."""
        m = NUMBER.match(self.title)
        return strip_inline(m.group("rest") if m else self.title)

    def walk(self) -> Iterator[Section]:
        """This section and every descendant, in document order."""
        yield self
        for child in self.children:
            yield from child.walk()

    def all_blocks(self) -> list[Block]:
        """Own blocks plus every descendant's blocks (headings included), in order."""
        out = list(self.blocks)
        for child in self.children:
            out.append(Block("heading", child.line, [], child.title, level=child.level))
            out.extend(child.all_blocks())
        return out

    def find(self, predicate: Callable[[Section], bool]) -> Section | None:
        """The first descendant section matching ``predicate``, or None."""
        return next((s for s in self.walk() if s is not self and predicate(s)), None)

    def find_all(self, predicate: Callable[[Section], bool]) -> list[Section]:
        """Every descendant section matching ``predicate``, in document order."""
        return [s for s in self.walk() if s is not self and predicate(s)]

    def find_title(self, pattern: str) -> Section | None:
        """First descendant whose name matches the regex ``pattern`` (case-insensitive)."""
        rx = re.compile(pattern, re.IGNORECASE)
        return self.find(lambda s: bool(rx.search(s.name)))


def build_sections(blocks: list[Block]) -> Section:
    """Nest blocks under their headings; the returned root has level 0 and no title."""
    root = Section(0, "", 0)
    stack = [root]
    for block in blocks:
        if block.kind == "heading":
            while stack[-1].level >= block.level:
                stack.pop()
            section = Section(block.level, block.text, block.line)
            stack[-1].children.append(section)
            stack.append(section)
        else:
            stack[-1].blocks.append(block)
    return root


@dataclass
class Document:
    """A parsed markdown file: its blocks and section tree."""

    file: str
    blocks: list[Block]
    root: Section

    @property
    def title(self) -> str:
        """The text of the document's first level-1 heading, "" without one."""
        first = next((s for s in self.root.children if s.level == 1), None)
        return strip_inline(first.title) if first else ""


def parse_document(text: str, file: str = "") -> Document:
    """Parse Markdown ``text`` into blocks and a section tree (lines kept for findings)."""
    blocks = tokenize(text)
    return Document(file, blocks, build_sections(blocks))


# ---- labels, lists, paragraphs, code ---------------------------------------


@dataclass
class Label:
    """A ``**Label:** value`` line (in a paragraph or a list item)."""

    label: str
    value: str
    line: int
    in_item: bool = False
    #: the label in lower case without formatting, e.g. ``"core mapping"``
    key: str = field(init=False)

    def __post_init__(self) -> None:
        self.key = strip_inline(self.label).lower()


def labels(blocks: list[Block]) -> list[Label]:
    """Every bold-label line in ``blocks``; a value runs on over unlabelled continuation lines."""
    out: list[Label] = []
    for block in blocks:
        if block.kind == "item":
            m = _LABEL.match(block.text)
            if m:
                out.append(Label(m.group("label"), m.group("value").strip(), block.line, True))
        elif block.kind == "paragraph":
            current: Label | None = None
            for offset, raw in enumerate(block.lines):
                m = _LABEL.match(raw.strip())
                if m:
                    current = Label(m.group("label"), m.group("value").strip(), block.line + offset)
                    out.append(current)
                elif current is not None:
                    current.value = f"{current.value} {raw.strip()}".strip()
    return out


def label_map(blocks: list[Block]) -> dict[str, Label]:
    """Labels keyed by lower-case label; the first occurrence wins."""
    out: dict[str, Label] = {}
    for lab in labels(blocks):
        out.setdefault(lab.key, lab)
    return out


def is_label_paragraph(block: Block) -> bool:
    """Whether ``block`` is a ``**Label:** value`` paragraph."""
    return block.kind == "paragraph" and bool(_LABEL.match(block.lines[0].strip()))


def label_groups(blocks: list[Block]) -> list[tuple[Label, list[Block]]]:
    """Each paragraph label with the blocks after it, up to the next label paragraph.

    Used for ``**Environment:**`` followed by a bullet list.
    """
    groups: list[tuple[Label, list[Block]]] = []
    for block in blocks:
        if is_label_paragraph(block):
            for lab in labels([block]):
                groups.append((lab, []))
        elif groups and block.kind != "heading":
            groups[-1][1].append(block)
    return groups


def items(blocks: list[Block]) -> list[Block]:
    """The list-item blocks of ``blocks``."""
    return [b for b in blocks if b.kind == "item"]


def paragraphs(blocks: list[Block], *, skip_labels: bool = True) -> list[Block]:
    """The paragraph blocks of ``blocks``, label paragraphs left out unless asked for."""
    return [
        b for b in blocks if b.kind == "paragraph" and not (skip_labels and is_label_paragraph(b))
    ]


def code_blocks(blocks: list[Block], lang: str | None = None) -> list[Block]:
    """The fenced code blocks of ``blocks``, of language ``lang`` when given."""
    return [b for b in blocks if b.kind == "code" and (lang is None or b.lang == lang)]
