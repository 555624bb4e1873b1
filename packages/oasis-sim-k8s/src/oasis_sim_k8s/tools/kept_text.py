"""``-o yaml`` and ``-o json`` texts kept by the document's exact value (issue 30, CI time,
session 34: the emission was a tenth of a gamer's run, and gamer after gamer reads the same
objects of the same scenarios at the same pinned clock).

The key is the ``marshal`` bytes of what the document is made from (version 2: no
references, no sharing): equal bytes decode to the same tree, key order, exact types (``1``,
``1.0`` and ``True`` apart) and values, and ``marshal`` refuses a subclass of ``dict``,
``list`` or ``str``. The document is a function of that value (``k8s_format.for_output``,
which copies every dict and list, so no container of it is met twice whatever the source
shares), and the text a function of the document but for one thing, a container met twice
(an alias in ``-o yaml``) or a type ``_nodes`` does not lay out: a YAML text is kept only
from a document proved plain (:func:`plain`: exact JSON types, no container twice), and a
document made from an equal source is then plain too. A JSON text is the same for any
document of equal value (``json`` repeats a shared container). At most :data:`BUDGET` bytes of keys and texts a process, least recently used
dropped first.
"""

from __future__ import annotations

import marshal
import threading
from collections import OrderedDict
from collections.abc import Callable
from typing import Any

#: bytes of keys and texts kept a process (both kinds together)
BUDGET = 48 * 2**20

_KEPT: OrderedDict[tuple[str, bytes], str] = OrderedDict()
_SIZE = [0]
_LOCK = threading.Lock()
#: hits and texts made (tests and the benchmark read them)
STATS = {"hits": 0, "made": 0}

_LEAVES = frozenset({str, int, float, bool, type(None)})


def plain(doc: Any) -> bool:
    """``doc`` is built of exact ``dict`` (text keys), ``list`` and JSON leaves only, and no
    container appears twice: what ``k8s_format._nodes`` lays out without an alias."""
    seen: set[int] = set()
    stack = [doc]
    while stack:
        value = stack.pop()
        kind = type(value)
        if kind is dict:
            if id(value) in seen or any(type(k) is not str for k in value):
                return False
            seen.add(id(value))
            stack.extend(value.values())
        elif kind is list:
            if id(value) in seen:
                return False
            seen.add(id(value))
            stack.extend(value)
        elif kind not in _LEAVES:
            return False
    return True


def kept(kind: str, source: Any, build: Callable[[Any], Any], emit: Callable[[Any], str]) -> str:
    """``emit(build(source))``, the ``kind`` (``yaml`` or ``json``, of an object or a ``... list``) text of the document
    ``build`` makes of ``source`` (``k8s_format.for_output``: a function of its value, every
    container fresh), from the texts kept by ``source``'s value (module doc)."""
    try:
        key = (kind, marshal.dumps(source, 2))
    except ValueError:  # a type marshal refuses (a subclass, an object): made every time
        return emit(build(source))
    with _LOCK:
        text = _KEPT.get(key)
        if text is not None:
            _KEPT.move_to_end(key)
            STATS["hits"] += 1
            return text
    doc = build(source)
    text = emit(doc)
    if kind.startswith("yaml") and not plain(doc):
        return text
    size = len(key[1]) + len(text) + 200
    with _LOCK:
        STATS["made"] += 1
        if key not in _KEPT and size <= BUDGET:
            _KEPT[key] = text
            _SIZE[0] += size
            while _SIZE[0] > BUDGET:
                (_, old), dropped = _KEPT.popitem(last=False)
                _SIZE[0] -= len(old) + len(dropped) + 200
    return text


def clear() -> None:
    """Forget every kept text (tests)."""
    with _LOCK:
        _KEPT.clear()
        _SIZE[0] = 0
