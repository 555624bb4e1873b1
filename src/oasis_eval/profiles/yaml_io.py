"""YAML reading with line numbers and duplicate-key detection.

PyYAML builds plain data but forgets positions and silently keeps the last of
two duplicate keys. We compose the node tree (libyaml when available) to record
the line of every key and item, and report duplicates as findings.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import yaml

from ..diagnostics import Findings, UnusableInput

try:  # libyaml is ~10x faster; fall back to pure Python when absent
    _Loader: type = yaml.CSafeLoader
except AttributeError:  # pragma: no cover - depends on the PyYAML build
    _Loader = yaml.SafeLoader

Path_ = tuple[Any, ...]


@dataclass
class YamlDocument:
    """One YAML document: its data, its first line, and the line of every path in it."""

    data: Any
    file: str
    line: int
    locations: dict[Path_, int] = field(default_factory=dict)


def read_text(path: Path) -> str:
    try:
        return path.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise UnusableInput("file not found", file=str(path)) from None
    except (OSError, UnicodeDecodeError) as exc:
        raise UnusableInput(f"cannot read file: {exc}", file=str(path)) from None


def load_documents(path: Path, findings: Findings | None = None, text: str | None = None) -> list[YamlDocument]:
    """Parse every document in ``path``. Bad YAML raises :class:`UnusableInput` with its line."""
    text = read_text(path) if text is None else text
    name = str(path)
    try:
        nodes = list(yaml.compose_all(text, Loader=_Loader))
        datas = list(yaml.load_all(text, Loader=_Loader))
    except yaml.MarkedYAMLError as exc:
        mark = exc.problem_mark or exc.context_mark
        line = mark.line + 1 if mark else None
        problem = exc.problem or exc.context or "invalid YAML"
        raise UnusableInput(f"invalid YAML: {problem}", file=name, line=line) from None
    except yaml.YAMLError as exc:
        raise UnusableInput(f"invalid YAML: {exc}", file=name) from None
    docs = []
    for node, data in zip(nodes, datas, strict=True):
        if node is None:
            continue
        locs: dict[Path_, int] = {}
        _walk(node, (), locs, name, findings)
        docs.append(YamlDocument(data=data, file=name, line=node.start_mark.line + 1, locations=locs))
    return docs


def load_single(path: Path, findings: Findings | None = None) -> YamlDocument:
    docs = load_documents(path, findings)
    if not docs:
        raise UnusableInput("the file holds no YAML document", file=str(path))
    if len(docs) > 1:
        raise UnusableInput(f"expected one YAML document, found {len(docs)}", file=str(path))
    return docs[0]


def _walk(node: yaml.Node, path: Path_, locs: dict[Path_, int], name: str, findings: Findings | None) -> None:
    locs.setdefault(path, node.start_mark.line + 1)
    if isinstance(node, yaml.MappingNode):
        seen: dict[Any, int] = {}
        for key_node, value_node in node.value:
            key = key_node.value if isinstance(key_node, yaml.ScalarNode) else None
            if key is None or key == "<<":
                continue
            line = key_node.start_mark.line + 1
            if key in seen and findings is not None:
                findings.error(
                    "duplicate-key",
                    f"key '{key}' appears twice (first at line {seen[key]}); YAML keeps only the last",
                    file=name,
                    line=line,
                    field=_dotted((*path, key)),
                )
            seen[key] = line
            locs[(*path, key)] = line
            _walk(value_node, (*path, key), locs, name, findings)
    elif isinstance(node, yaml.SequenceNode):
        for i, item in enumerate(node.value):
            _walk(item, (*path, i), locs, name, findings)


def _dotted(path: Path_) -> str:
    out = ""
    for part in path:
        out += f"[{part}]" if isinstance(part, int) else (f".{part}" if out else str(part))
    return out


dotted = _dotted
