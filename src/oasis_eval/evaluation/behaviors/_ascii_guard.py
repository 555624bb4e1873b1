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
that fold onto ASCII letters (``İ ı ſ K``: :data:`._cue_ascii.FOLDS_TO_ASCII`, from ``_sre``'s lowercase
and ``re._casefix``'s extra cases): a pattern holding one of them, as a character or within a
range, gets no twin (``tests/evaluation/behaviors/test_ascii_guard.py``: the set recomputed
over every code point; the rules' patterns and seeded ones over seeded ASCII text, matches
and spans against the pattern's own).
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from ._cue_ascii import FOLDS_TO_ASCII, ascii_twin

__all__ = ["FOLDS_TO_ASCII", "finditer", "twin"]

#: pattern -> its twin (None: none); rule patterns are module constants, so it stays small
_TWINS: dict[re.Pattern[str], re.Pattern[str] | None] = {}


def twin(rx: re.Pattern[str]) -> re.Pattern[str] | None:
    """``rx`` compiled ``re.ASCII`` with its space classes spelled out
    (:func:`._cue_ascii.ascii_twin`, case-insensitive patterns too): on an ASCII text it
    matches where ``rx`` does (module doc). None: no such twin (a bytes, ``re.LOCALE`` or ``re.ASCII``
    pattern, a group with flags of its own, a ``\\S`` within a class of more, a
    character folding onto ASCII)."""
    try:
        return _TWINS[rx]
    except KeyError:
        pattern: object = rx.pattern  # a bytes pattern gets none
        made = ascii_twin(pattern, rx.flags, caseless=True) if isinstance(pattern, str) else None
        _TWINS[rx] = made
        return made


def finditer(rx: re.Pattern[str], text: str) -> Iterator[re.Match[str]]:
    """``rx.finditer(text)``, settled as empty by ``rx``'s twin where ``text`` is ASCII and
    the twin finds no match (module doc): the matches are ``rx``'s own."""
    if text.isascii():
        other = twin(rx)
        if other is not None and other.search(text) is None:
            return iter(())
    return rx.finditer(text)
