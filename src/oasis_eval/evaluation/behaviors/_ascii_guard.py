r"""A rule's pattern asked first through its ASCII twin, where it surely cannot match
(issue 30, session 28).

A rule's own ``re.IGNORECASE`` pattern compiled for ``str`` follows Unicode's rules: every
character it compares is case-folded through the Unicode database, and every ``\w``, ``\b``
and ``\d`` asks the database of the character. A few such patterns open with an optional or
repeated word (``(?P<pre>(?<![\w.-])[\w.-]+'s\s+)?``, six lookbehinds before a word) and are
tried at every position of every text a rule reads: about 0.6 µs a character, most of a
replay's cost of these rules, although the careful agent's texts almost never hold a match.

:func:`finditer` asks the pattern's twin (the same pattern compiled ``re.ASCII``, its space
classes spelled out as Unicode's ASCII spaces, :func:`._cue_ascii._spelled`) whether an ASCII
text holds a match at all; only where it does (or where the text is not ASCII, or the pattern
has no twin) is the pattern itself searched, so every match a caller reads is the pattern's
own, object and all.

Over ASCII text the twin matches where the pattern does. Without IGNORECASE, ``re.ASCII``
changes only ``\w \W \b \B \d \D \s \S`` (:mod:`._cue_ascii`). With it, Unicode's folding
lowercases an ASCII character to ASCII, and an ASCII character equals a pattern's character
under it only where ASCII's folding says so, unless the pattern's character is one of the four
that fold onto ASCII letters (``İ ı ſ K``: :data:`FOLDS_TO_ASCII`, from ``_sre``'s lowercase
and ``re._casefix``'s extra cases): a pattern holding one of them, as a character or within a
range, gets no twin (``tests/evaluation/behaviors/test_ascii_guard.py``: the set recomputed
over every code point; the rules' patterns and seeded ones over seeded ASCII text, matches
and spans against the pattern's own).
"""

from __future__ import annotations

import re
import re._compiler as _sre_compile  # type: ignore[import-not-found]  # a twin's tree
import re._constants as _sre  # type: ignore[import-not-found]
import re._parser as _sre_parse  # type: ignore[import-not-found]
from collections.abc import Iterator
from typing import Any

from ._cue_ascii import _spelled  # the space classes spelled out (its module doc)

#: the code points Unicode's case-insensitive matching takes for an ASCII letter: U+0130 and
#: U+0131 (``i``), U+017F (``s``), U+212A (``k``); no other lowercases to ASCII nor has an ASCII
#: extra case (``re._casefix``)
FOLDS_TO_ASCII = frozenset({0x130, 0x131, 0x17F, 0x212A})

#: pattern -> its twin (None: none); rule patterns are module constants, so it stays small
_TWINS: dict[re.Pattern[str], re.Pattern[str] | None] = {}


def twin(rx: re.Pattern[str]) -> re.Pattern[str] | None:
    """``rx`` compiled ``re.ASCII`` with its space classes spelled out: on an ASCII text it
    matches where ``rx`` does (module doc). None: no such twin (a bytes or ``re.LOCALE``
    pattern, a group with flags of its own, a ``\\S`` within a class of more, a character
    folding onto ASCII)."""
    try:
        return _TWINS[rx]
    except KeyError:
        made = _TWINS[rx] = _made(rx)
        return made


def _made(rx: re.Pattern[Any]) -> re.Pattern[str] | None:
    flags = rx.flags
    if not isinstance(rx.pattern, str) or flags & (re.LOCALE | re.ASCII):
        return None
    flags &= ~re.UNICODE  # str patterns' default, which re.ASCII replaces
    try:
        parsed = _sre_parse.parse(rx.pattern, flags | re.ASCII)
    except (re.error, ValueError):
        return None  # an inline (?u) (ValueError)
    if not _spelled(parsed) or (flags & re.IGNORECASE and _folds(parsed)):
        return None
    return _sre_compile.compile(parsed, flags | re.ASCII)  # type: ignore[no-any-return]


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


def finditer(rx: re.Pattern[str], text: str) -> Iterator[re.Match[str]]:
    """``rx.finditer(text)``, settled as empty by ``rx``'s twin where ``text`` is ASCII and
    the twin finds no match (module doc): the matches are ``rx``'s own."""
    if text.isascii():
        other = twin(rx)
        if other is not None and other.search(text) is None:
            return iter(())
    return rx.finditer(text)
