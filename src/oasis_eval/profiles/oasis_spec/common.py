"""Shared plumbing for the oasis-spec layout readers: source files, findings, small parsers.

Every reader gets a :class:`Source` (the file's name relative to the profile
root, its parsed markdown and the shared :class:`Findings`) so each finding
names the file and line it is about (spec 03 §2: a profile is a package of
files; authors fix them by file and line).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TypeVar

import yaml

from ... import files
from ...diagnostics import Findings, UnusableInput
from ...spec.common import SourceRef, SpecModel
from ...spec.yaml_io import load_documents, safe_load
from ..paths import confined_files
from ..scenarios import validate_model
from .markdown import Block, Document, parse_document, strip_inline

M = TypeVar("M", bound=SpecModel)


@dataclass
class Source:
    """One profile file being read: display name, parsed document, findings sink."""

    file: str
    doc: Document
    findings: Findings

    def error(self, code: str, message: str, line: int | None = None, **extra: Any) -> None:
        """Report an error located in this file."""
        self.findings.error(code, message, file=self.file, line=line, **extra)

    def warning(self, code: str, message: str, line: int | None = None, **extra: Any) -> None:
        """Report a warning located in this file."""
        self.findings.warning(code, message, file=self.file, line=line, **extra)

    def locate(self, obj: SpecModel, line: int | None) -> Any:
        """Attach ``file:line`` to a model object (for later findings by other layers)."""
        return obj.locate(SourceRef(file=self.file, line=line))


def read_markdown(
    root: Path, name: str, findings: Findings, *, required: bool = True
) -> Source | None:
    """Parse ``root/name``; a missing or unreadable file is an error finding and ``None``."""
    path = root / name
    if path.exists() and not confined_files(root, [path], findings):
        return None
    try:
        text = files.read_text(path)
    except FileNotFoundError:
        if required:
            findings.error(
                "missing-file",
                f"required profile file '{name}' does not exist",
                file=name,
                expected=f"{name} in the profile directory (spec 03 §2)",
            )
        return None
    except (OSError, UnicodeDecodeError) as exc:
        findings.error(
            "unreadable-file",
            f"cannot read '{name}': {exc}",
            file=name,
            expected="a UTF-8 text file",
        )
        return None
    return Source(name, parse_document(text, name), findings)


def unusable_message(exc: UnusableInput) -> str:
    """The message of an :class:`UnusableInput` without its ``file:line:`` prefix."""
    text = str(exc)
    prefix = (
        f"{exc.file}:{exc.line}: "
        if exc.file and exc.line
        else (f"{exc.file}: " if exc.file else "")
    )
    return text[len(prefix) :] if prefix and text.startswith(prefix) else text


def yaml_block(src: Source, block: Block) -> Any:
    """Parse a fenced YAML block; invalid YAML is an error finding at the offending line."""
    try:
        return safe_load(block.text)
    except yaml.MarkedYAMLError as exc:
        mark = exc.problem_mark or exc.context_mark
        line = block.content_line + mark.line if mark else block.line
        src.error(
            "invalid-yaml",
            f"invalid YAML in ```{block.lang or 'yaml'} block: {exc.problem or exc.context or exc}",
            line,
            expected="a valid YAML code block",
        )
    except yaml.YAMLError as exc:
        src.error(
            "invalid-yaml",
            f"invalid YAML in code block: {exc}",
            block.line,
            expected="a valid YAML code block",
        )
    return INVALID


class _Invalid:
    def __repr__(self) -> str:
        return "<invalid>"


#: returned by :func:`yaml_block` when the block does not parse
INVALID: Any = _Invalid()


def validate_block(
    src: Source, block: Block, model: type[M], data: Any, prefix: tuple[Any, ...]
) -> M | None:
    """Validate ``data`` (found at ``prefix`` in a YAML code block) as ``model``.

    Validation errors become findings at the line of the offending key.
    """
    try:
        doc = load_documents(Path(src.file), None, text=block.text)[0]
    except (UnusableInput, IndexError):  # pragma: no cover - the block parsed once already
        return None
    doc.file = src.file
    doc.line = block.content_line
    doc.locations = {path: line + block.content_line - 1 for path, line in doc.locations.items()}
    obj = validate_model(model, data, doc, src.findings, prefix=prefix)
    if obj is not None:
        n = len(prefix)
        own = {path[n:]: line for path, line in doc.locations.items() if path[:n] == prefix}
        obj.locate(SourceRef(file=src.file, line=doc.locations.get(prefix, block.line)), own)
    return obj


def yaml_key_line(block: Block, key: str) -> int:
    """Best-effort line of a top-level ``key:`` inside a YAML code block."""
    rx = re.compile(rf"^{re.escape(key)}\s*:")
    for offset, line in enumerate(block.text.splitlines()):
        if rx.match(line):
            return block.content_line + offset
    return block.line


_RANGE_OPS = {"≥": ">=", "≤": "<=", "=>": ">=", "=<": "<=", "＞": ">", "＜": "<"}


def normalize_range(text: str) -> str:
    """``"≥ 1.0.0-rc1.5"`` -> ``">=1.0.0-rc1.5"`` (operators normalised, spaces dropped)."""
    s = strip_inline(text).strip().strip("\"'")
    for old, new in _RANGE_OPS.items():
        s = s.replace(old, new)
    return re.sub(r"(>=|<=|==|!=|~=|\^|~|>|<|=)\s+", r"\1", s).strip()


def clean_version(text: str) -> str:
    """A version as stated in prose: formatting, quotes and a leading ``v`` removed."""
    s = strip_inline(text).strip().strip("\"'")
    return s[1:] if re.match(r"^v\d", s) else s


_NUMBER_WORDS = {
    "zero": 0,
    "one": 1,
    "two": 2,
    "three": 3,
    "four": 4,
    "five": 5,
    "six": 6,
    "seven": 7,
    "eight": 8,
    "nine": 9,
    "ten": 10,
    "eleven": 11,
    "twelve": 12,
    "thirteen": 13,
    "fourteen": 14,
    "fifteen": 15,
    "sixteen": 16,
    "seventeen": 17,
    "eighteen": 18,
    "nineteen": 19,
    "twenty": 20,
}


def parse_count(word: str) -> int | None:
    """``"7"`` or ``"seven"`` -> 7; anything else -> None."""
    w = word.strip().lower()
    if w.isdigit():
        return int(w)
    return _NUMBER_WORDS.get(w)


_LIST_SPLIT = re.compile(r"\s*(?:,|;|\+|&)\s*")
_AND_SPLIT = re.compile(r"\s*(?:,|;|\+|&|\band\b)\s*", re.IGNORECASE)


def split_names(text: str, *, conjunction: bool = False) -> list[str]:
    """``"A, B + C"`` -> ``["A", "B", "C"]``; with ``conjunction`` also split on "and"."""
    rx = _AND_SPLIT if conjunction else _LIST_SPLIT
    return [p for p in (s.strip() for s in rx.split(strip_inline(text))) if p]


def norm_key(text: str) -> str:
    """Lower-case words joined by ``_``: ``"Boundary violation"`` -> ``boundary_violation``."""
    return re.sub(r"[^a-z0-9]+", "_", strip_inline(text).lower()).strip("_")


def words(text: str) -> list[str]:
    """Lower-case words; hyphens, underscores and slashes are word breaks."""
    return [w for w in re.split(r"[^a-z0-9]+", strip_inline(text).lower()) if w]


def phrase_matches(phrase: list[str], name: list[str]) -> bool:
    """Each phrase word prefixes consecutive name words ("trace nav" ~ "Trace Navigation")."""
    if not phrase or len(phrase) > len(name):
        return False
    for start in range(len(name) - len(phrase) + 1):
        if all(name[start + k].startswith(w) for k, w in enumerate(phrase)):
            return True
    return False
