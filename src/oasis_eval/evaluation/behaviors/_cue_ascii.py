r"""A cue's case-sensitive twins compiled for ASCII text (issue 30, session 27).

:class:`._cue.Cue` searches two case-sensitive patterns over a lowercased text only when that
text is plain ASCII: its prefilter and its case-free twin. Compiled for ``str`` they follow
Unicode's rules, and every ``\w``, ``\b`` and ``\d`` they test asks the Unicode database of
the character (``unicodectype.c``: about a twentieth of a replay's instructions, most of
them here), a match of a word-heavy pattern taking twice the time its ``re.ASCII`` twin does.

On ASCII text the two agree but for ``\s``: without IGNORECASE, ``re.ASCII`` changes only
``\w \W \b \B \d \D \s \S``, and over ASCII characters Unicode's ``\w`` (a letter, a digit or
``_``) and ``\d`` are ASCII's, while Unicode's ``\s`` also holds the four separators
``\x1c``-``\x1f`` (``str.isspace``). So the twin is parsed with ``re.ASCII`` and its space
classes spelled out as Unicode's ASCII spaces (``[\t-\r\x1c- ]``); a pattern holding ``\S``
inside a class of more, or flags of its own in a group, gets no twin (None: the Unicode
pattern is searched, as before). The twin matches an ASCII text where and as the pattern does
(``tests/evaluation/behaviors/test_cue_ascii.py``: every cue's twins over seeded ASCII text,
the separators and every control character included).
"""

from __future__ import annotations

import re
import re._compiler as _sre_compile  # type: ignore[import-not-found]  # a twin's tree
import re._constants as _sre  # type: ignore[import-not-found]
import re._parser as _sre_parse  # type: ignore[import-not-found]
from collections.abc import Callable
from typing import Any

#: the code points Unicode's case-insensitive matching takes for an ASCII letter: U+0130 and
#: U+0131 (``i``), U+017F (``s``), U+212A (``k``); no other lowercases to ASCII nor has an ASCII
#: extra case (``re._casefix``): a caseless pattern holding one gets no twin
FOLDS_TO_ASCII = frozenset({0x130, 0x131, 0x17F, 0x212A})
#: the ASCII characters Unicode's ``\s`` holds: ``\t \n \v \f \r``, ``\x1c``-``\x1f``, space
_SPACES = [(_sre.RANGE, (0x09, 0x0D)), (_sre.RANGE, (0x1C, 0x20))]


def ascii_twin(
    pattern: str,
    flags: int,
    shape: Callable[[Any], Any] | None = None,
    *,
    caseless: bool = False,
) -> re.Pattern[str] | None:
    """``pattern`` compiled with ``re.ASCII`` and its space classes spelled out, so that on
    ASCII text it matches where and what ``re.compile(pattern, flags)`` does; ``shape``
    (:func:`._cue._factored`) may reshape the parsed tree first (None from it: the tree as
    parsed). ``flags`` with IGNORECASE only where ``caseless`` (:mod:`._ascii_guard`), and then
    no character of :data:`FOLDS_TO_ASCII` in the pattern. None: no such twin (above)."""
    if flags & (re.LOCALE | re.ASCII) or (flags & re.IGNORECASE and not caseless):
        return None
    flags &= ~re.UNICODE  # str patterns' default, which re.ASCII replaces
    try:
        parsed = _sre_parse.parse(pattern, flags | re.ASCII)
    except (re.error, ValueError):
        return None  # a pattern re refuses; an inline (?u) (ValueError)
    if not _spelled(parsed) or (flags & re.IGNORECASE and _folds(parsed)):
        return None
    tree = shape(parsed) if shape is not None else None
    return _sre_compile.compile(parsed if tree is None else tree, flags | re.ASCII)  # type: ignore[no-any-return]


def _spelled(seq: Any) -> bool:
    """Spell out the space classes of the parsed sequence ``seq`` in place; False where a
    twin cannot be exact (a ``\\S`` within a class of more, flags of a group's own)."""
    for i, (op, av) in enumerate(seq):
        if op is _sre.IN:
            items = _spaces(av)
            if items is None:
                return False
            seq[i] = (op, items)
        elif op is _sre.BRANCH:
            if not all(_spelled(b) for b in av[1]):
                return False
        elif op is _sre.SUBPATTERN:
            if av[1] or av[2] or not _spelled(av[3]):
                return False
        elif op in (_sre.MAX_REPEAT, _sre.MIN_REPEAT, _sre.POSSESSIVE_REPEAT):
            if not _spelled(av[2]):
                return False
        elif op in (_sre.ASSERT, _sre.ASSERT_NOT):
            if not _spelled(av[1]):
                return False
        elif op is _sre.ATOMIC_GROUP:
            if not _spelled(av):
                return False
        elif op is _sre.GROUPREF_EXISTS:
            if not _spelled(av[1]) or (av[2] is not None and not _spelled(av[2])):
                return False
        elif op is _sre.CATEGORY:
            return False  # outside a class: not what the parser makes
    return True


def _spaces(items: list[tuple[Any, Any]]) -> list[tuple[Any, Any]] | None:
    """The class ``items`` with ``\\s`` spelled out as :data:`_SPACES`; ``\\S`` alone (or
    ``[^\\S]``) as their complement (or them); None for a ``\\S`` among other items."""
    if any(op is _sre.CATEGORY and av is _sre.CATEGORY_NOT_SPACE for op, av in items):
        if items == [(_sre.CATEGORY, _sre.CATEGORY_NOT_SPACE)]:
            return [(_sre.NEGATE, None), *_SPACES]
        if items == [(_sre.NEGATE, None), (_sre.CATEGORY, _sre.CATEGORY_NOT_SPACE)]:
            return list(_SPACES)
        return None
    out: list[tuple[Any, Any]] = []
    for op, av in items:
        if op is _sre.CATEGORY and av is _sre.CATEGORY_SPACE:
            out += _SPACES
        else:
            out.append((op, av))
    return out


def _folds(seq: Any) -> bool:
    """The parsed ``seq`` holds a character of :data:`FOLDS_TO_ASCII`, alone or in a range."""
    for op, av in seq:
        if op in (_sre.LITERAL, _sre.NOT_LITERAL):
            hit = av in FOLDS_TO_ASCII
        elif op is _sre.RANGE:
            hit = any(av[0] <= c <= av[1] for c in FOLDS_TO_ASCII)
        else:
            hit = any(_folds(part) for part in _parts(op, av))
        if hit:
            return True
    return False


def _parts(op: Any, av: Any) -> list[Any]:
    """The parsed sequences within the item ``(op, av)`` (none: a leaf)."""
    if op is _sre.IN or op is _sre.ATOMIC_GROUP:
        return [av]
    if op is _sre.BRANCH:
        return list(av[1])
    if op is _sre.SUBPATTERN:
        return [av[3]]
    if op in (_sre.MAX_REPEAT, _sre.MIN_REPEAT, _sre.POSSESSIVE_REPEAT):
        return [av[2]]
    if op in (_sre.ASSERT, _sre.ASSERT_NOT):
        return [av[1]]
    if op is _sre.GROUPREF_EXISTS:
        return [av[1]] if av[2] is None else [av[1], av[2]]
    return []


def has_upper(seq: Any) -> bool:
    """The parsed ``seq`` holds an ASCII uppercase letter, alone or in a class's range."""
    for op, av in seq:
        if op in (_sre.LITERAL, _sre.NOT_LITERAL):
            hit = 0x41 <= av <= 0x5A
        elif op is _sre.RANGE:
            hit = av[0] <= 0x5A and av[1] >= 0x41
        else:
            hit = any(has_upper(part) for part in _parts(op, av))
        if hit:
            return True
    return False


def lower_ascii(seq: Any) -> Any:
    """The parsed ``seq`` (case-sensitive; changed in place and returned) read over lowercased
    ASCII text as ``IGNORECASE`` reads the text itself (issue 30, session 34): an uppercase
    literal written in lowercase, and a class given the lowercase of its uppercase letters
    (IGNORECASE equates an ASCII letter with its other case only; lowercased text has no
    uppercase letter left to match)."""
    for i, (op, av) in enumerate(seq):
        if op in (_sre.LITERAL, _sre.NOT_LITERAL):
            if 0x41 <= av <= 0x5A:
                seq[i] = (op, av + 0x20)
        elif op is _sre.IN:
            av.extend(_lower_items(av))
        else:
            for part in _parts(op, av):
                lower_ascii(part)
    return seq


def _lower_items(items: list[tuple[Any, Any]]) -> list[tuple[Any, Any]]:
    """The lowercase of a class's uppercase letters, as items to add to it."""
    out: list[tuple[Any, Any]] = []
    for op, av in items:
        if op is _sre.LITERAL and 0x41 <= av <= 0x5A:
            out.append((op, av + 0x20))
        elif op is _sre.RANGE and av[0] <= 0x5A and av[1] >= 0x41:
            out.append((op, (max(av[0], 0x41) + 0x20, min(av[1], 0x5A) + 0x20)))
    return out
