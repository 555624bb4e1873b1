"""YAML reading with line numbers, duplicate-key detection and bounded aliases.

PyYAML builds plain data but forgets positions and silently keeps the last of
two duplicate keys. We compose the node tree (libyaml when available) to record
the line of every key and item, and report duplicates as findings.

Every YAML read in oasis-eval goes through :func:`safe_load` / :func:`safe_load_all`
or :func:`load_documents`, which first scan the event stream against
:class:`YamlLimits`: nesting depth, alias count and the node count *with aliases
expanded*. A "billion laughs" alias bomb is thus a fast, clear error naming the file
instead of a hang or exhausted memory (issue 11 H4); a recursive alias is refused too.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import yaml

from .. import files
from ..diagnostics import Findings, UnusableInput
from ..errors import OasisError

try:  # libyaml is ~10x faster; fall back to pure Python when absent
    _Loader: type = yaml.CSafeLoader
except AttributeError:  # pragma: no cover - depends on the PyYAML build
    _Loader = yaml.SafeLoader

Path_ = tuple[Any, ...]


@dataclass(frozen=True)
class YamlLimits:
    """Bounds on one YAML stream; far above any profile, run config or manifest we read."""

    max_depth: int = 100
    max_aliases: int = 10_000
    #: nodes counted as if every alias were expanded in place
    max_nodes: int = 1_000_000


LIMITS = YamlLimits()


class YamlLimitError(OasisError, yaml.MarkedYAMLError):
    """A YAML stream over :data:`LIMITS` (an alias bomb, a recursive alias, absurd nesting)."""

    def __init__(self, problem: str, mark: Any):
        super().__init__(problem=problem, problem_mark=mark)


def check_limits(text: str, limits: YamlLimits = LIMITS) -> None:
    """Scan ``text``'s events (never expanding an alias); :class:`YamlLimitError` past a limit."""
    total = aliases = 0
    stack: list[tuple[str | None, int]] = []
    sizes: dict[str, int] = {}
    for event in yaml.parse(text, Loader=_Loader):
        if isinstance(event, yaml.DocumentStartEvent):
            sizes.clear()  # anchors are per document
        elif isinstance(event, yaml.CollectionStartEvent):
            if len(stack) >= limits.max_depth:
                raise YamlLimitError(
                    f"nesting deeper than {limits.max_depth} levels", event.start_mark
                )
            stack.append((event.anchor, total))
            total += 1
        elif isinstance(event, yaml.CollectionEndEvent):
            anchor, start = stack.pop()
            if anchor is not None:
                sizes[anchor] = total - start
        elif isinstance(event, yaml.ScalarEvent):
            total += 1
            if event.anchor is not None:
                sizes[event.anchor] = 1
        elif isinstance(event, yaml.AliasEvent):
            aliases += 1
            if aliases > limits.max_aliases:
                raise YamlLimitError(f"more than {limits.max_aliases} aliases", event.start_mark)
            if any(anchor == event.anchor for anchor, _ in stack):
                raise YamlLimitError(
                    f"alias *{event.anchor} refers to a node that contains it (recursive alias)",
                    event.start_mark,
                )
            # an undefined alias is the composer's error
            total += sizes.get(event.anchor, 0) if event.anchor is not None else 0
        if total > limits.max_nodes:
            raise YamlLimitError(
                f"more than {limits.max_nodes} nodes with aliases expanded (an alias bomb?)",
                event.start_mark,
            )


def _bounded_nodes_and_data(text: str, limits: YamlLimits = LIMITS) -> list[tuple[Any, Any]]:
    """``(node, data)`` for every document: one parse after the limit scan."""
    check_limits(text, limits)
    loader = _Loader(text)
    try:
        out = []
        while loader.check_node():
            node = loader.get_node()
            out.append((node, loader.construct_document(node)))
        return out
    finally:
        loader.dispose()


def safe_load_all(text: str, limits: YamlLimits = LIMITS) -> list[Any]:
    """``yaml.safe_load_all`` within ``limits`` (raises ``yaml.YAMLError``)."""
    return [data for _, data in _bounded_nodes_and_data(text, limits)]


def safe_load(text: str, limits: YamlLimits = LIMITS) -> Any:
    """``yaml.safe_load`` within ``limits`` (raises ``yaml.YAMLError``). Aliases are built as
    shared objects: a caller that lifts :attr:`YamlLimits.max_nodes` must walk by identity.

    A plain document (no anchor, alias, merge key or tag beyond the core schema's scalars) is
    built in the one pass that checks the limits (:func:`_plain_load`, issue 30); anything else,
    or anything that pass refuses or fails on, takes the limit scan and libyaml's loader as
    before, so the data and the errors are theirs."""
    plain = _plain_load(text, limits)
    if plain is not _NOT_PLAIN:
        return plain
    docs = safe_load_all(text, limits)
    if len(docs) > 1:
        raise yaml.YAMLError(f"expected a single document, found {len(docs)}")
    return docs[0] if docs else None


_NOT_PLAIN = object()
_STR = yaml.resolver.BaseResolver.DEFAULT_SCALAR_TAG
#: scalar tags built by the safe constructor's own function for them (the rest: not plain)
_SCALARS = frozenset(
    "tag:yaml.org,2002:" + name
    for name in ("null", "bool", "int", "float", "binary", "timestamp", "str")
)
_SEQUENCES = (None, "!", yaml.resolver.BaseResolver.DEFAULT_SEQUENCE_TAG)
_MAPPINGS = (None, "!", yaml.resolver.BaseResolver.DEFAULT_MAPPING_TAG)


def _plain_load(text: str, limits: YamlLimits) -> Any:
    """``safe_load(text)`` of a plain document from the parser's events alone, each limit
    checked on the way, or :data:`_NOT_PLAIN`. The one parse ``check_limits`` makes already:
    libyaml's second parse, its node tree and the constructor's generators are not needed
    when nothing is shared or tagged (issue 30: the issued kubeconfig is parsed each
    scenario). Scalars are resolved and constructed by the loader's own resolver and
    constructor functions, so a value is exactly what ``safe_load`` gives it."""
    if _LOADER.yaml_path_resolvers:  # resolution would depend on the path: the full path
        return _NOT_PLAIN
    events: Any = yaml.parse(text, Loader=_Loader)  # a generator: closed when done
    try:
        return _built(events, limits)
    except (yaml.YAMLError, ValueError, TypeError):  # the full path raises its own error
        return _NOT_PLAIN
    finally:
        events.close()


def _built(events: Any, limits: YamlLimits) -> Any:
    resolve, constructors = _LOADER.resolve, _LOADER.yaml_constructors
    stack: list[tuple[Any, list[Any] | None]] = []  # (container, a mapping's pending key)
    documents, total, root = 0, 0, None
    for event in events:
        kind = type(event)
        if kind is yaml.ScalarEvent:
            if event.anchor is not None:
                return _NOT_PLAIN
            tag = event.tag
            if tag is None or tag == "!":
                tag = resolve(yaml.ScalarNode, event.value, event.implicit)
            if tag == _STR:
                value: Any = event.value
            elif tag in _SCALARS:
                value = constructors[tag](_LOADER, yaml.ScalarNode(tag, event.value))
            else:
                return _NOT_PLAIN  # a merge key, the value key, a tag of another schema
            total += 1
        elif kind is yaml.MappingStartEvent or kind is yaml.SequenceStartEvent:
            if event.anchor is not None or len(stack) >= limits.max_depth:
                return _NOT_PLAIN
            if event.tag not in (_MAPPINGS if kind is yaml.MappingStartEvent else _SEQUENCES):
                return _NOT_PLAIN
            value = {} if kind is yaml.MappingStartEvent else []
            total += 1
        elif kind is yaml.MappingEndEvent or kind is yaml.SequenceEndEvent:
            value = stack.pop()[0]
            if not stack:
                root = value
            continue
        elif kind is yaml.DocumentStartEvent:
            documents += 1
            if documents > 1:
                return _NOT_PLAIN
            continue
        elif kind is yaml.AliasEvent:
            return _NOT_PLAIN
        else:  # stream start and end, document end
            continue
        if total > limits.max_nodes:
            return _NOT_PLAIN
        _place(stack, value)
        if kind is not yaml.ScalarEvent:
            stack.append((value, [] if kind is yaml.MappingStartEvent else None))
        elif not stack:
            root = value
    return root


def _place(stack: list[tuple[Any, list[Any] | None]], value: Any) -> None:
    """Put a new node in the container on top of the stack: a list's next item, a mapping's
    key (kept until its value) or the value of the pending key (the last of equal keys wins,
    as in the constructor)."""
    if not stack:
        return
    container, pending = stack[-1]
    if pending is None:
        container.append(value)
    elif pending:
        container[pending.pop()] = value
    else:
        if isinstance(value, (dict, list)):
            raise TypeError("a collection as a mapping key")  # the full path's error
        pending.append(value)


#: the loader whose resolver and scalar constructors :func:`_plain_load` calls (the class's own
#: tables; a scalar's resolution and construction read nothing of the instance's state)
_LOADER = _Loader("")
_LOADER.dispose()


@dataclass
class YamlDocument:
    """One YAML document: its data, its first line, and the line of every path in it."""

    data: Any
    file: str
    line: int
    locations: dict[Path_, int] = field(default_factory=dict)


def read_text(path: Path) -> str:
    try:
        return files.read_text(path)
    except FileNotFoundError:
        raise UnusableInput("file not found", file=str(path)) from None
    except (OSError, UnicodeDecodeError) as exc:
        raise UnusableInput(f"cannot read file: {exc}", file=str(path)) from None


def load_documents(
    path: Path, findings: Findings | None = None, text: str | None = None
) -> list[YamlDocument]:
    """Parse every document in ``path``. Bad YAML raises :class:`UnusableInput` with its line."""
    text = read_text(path) if text is None else text
    name = str(path)
    try:
        pairs = _bounded_nodes_and_data(text)
    except yaml.MarkedYAMLError as exc:
        mark = exc.problem_mark or exc.context_mark
        line = mark.line + 1 if mark else None
        problem = exc.problem or exc.context or "invalid YAML"
        raise UnusableInput(f"invalid YAML: {problem}", file=name, line=line) from None
    except yaml.YAMLError as exc:
        raise UnusableInput(f"invalid YAML: {exc}", file=name) from None
    docs = []
    for node, data in pairs:
        if node is None:
            continue
        locs: dict[Path_, int] = {}
        _walk(node, (), locs, name, findings, set())
        docs.append(
            YamlDocument(data=data, file=name, line=node.start_mark.line + 1, locations=locs)
        )
    return docs


def load_single(path: Path, findings: Findings | None = None) -> YamlDocument:
    docs = load_documents(path, findings)
    if not docs:
        raise UnusableInput("the file holds no YAML document", file=str(path))
    if len(docs) > 1:
        raise UnusableInput(f"expected one YAML document, found {len(docs)}", file=str(path))
    return docs[0]


def _walk(
    node: yaml.Node,
    path: Path_,
    locs: dict[Path_, int],
    name: str,
    findings: Findings | None,
    seen_nodes: set[int],
) -> None:
    """Record lines and duplicate keys; an aliased node is walked once (paths through a second
    alias fall back to the alias's own line), so an alias graph costs its size, not its paths."""
    locs.setdefault(path, node.start_mark.line + 1)
    if id(node) in seen_nodes:
        return
    seen_nodes.add(id(node))
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
            _walk(value_node, (*path, key), locs, name, findings, seen_nodes)
    elif isinstance(node, yaml.SequenceNode):
        for i, item in enumerate(node.value):
            _walk(item, (*path, i), locs, name, findings, seen_nodes)


def _dotted(path: Path_) -> str:
    out = ""
    for part in path:
        out += f"[{part}]" if isinstance(part, int) else (f".{part}" if out else str(part))
    return out


dotted = _dotted
