r"""Case-insensitive cue patterns, searched behind a prefilter (issue 30).

Python's ``re`` skips ahead by a pattern's possible first characters only when the pattern is
case-sensitive and opens with literals. A cue compiled ``IGNORECASE`` that opens with ``\b``
tries every alternative at every position: about 0.1 ms for one sentence against the larger
cues, a large share of a judgement's CPU. :class:`Cue` answers exactly as its pattern does,
but first searches a *prefilter* over the lowercased text: the same pattern with its ``\b``
dropped (outside character classes, where it is a backspace, and outside negative lookarounds,
where dropping it would narrow the pattern), compiled case-sensitive. Dropping such a ``\b``
only widens a pattern, and lowercasing ASCII maps each letter to the one ``IGNORECASE``
equates it with, so a text in which the prefilter finds nothing holds no match of the cue; any
other text is searched by the cue itself. A non-ASCII text, or a pattern with an uppercase
literal, is searched by the cue alone. A pattern built from a term or a name gives instead a *literal* every match
holds (:func:`._words.term_regex`, :func:`._words.name_regex`), found with ``in``. A search from ``pos`` is prefiltered too (lookbehinds
and ``^`` see the whole text either way); one bounded by ``endpos`` is not (``$`` matches
there). Within a judgement the prefilter's answer for a (cue, text) is kept in the
judgement's memo (:func:`.reading.current_memo`): half the searches of a judgement ask a cue
again of a sentence it already read. Verification stays a pure function of its inputs (core §3.5.4): same answers, fewer
steps (``tests/evaluation/behaviors/test_cue.py`` checks every cue against its pattern).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from typing import Any

from ..reading import current_memo


class Cue:
    """A compiled pattern (``regex``) with the prefilter above; the methods the evaluators
    call answer as ``regex``'s do."""

    __slots__ = ("_literal", "_pre", "flags", "pattern", "regex")

    def __init__(self, pattern: str, flags: int = re.IGNORECASE, literal: str = "") -> None:
        self.regex = re.compile(pattern, flags)
        self.pattern = pattern
        self.flags = self.regex.flags
        relaxed = None if literal else _relaxed(pattern)
        self._pre = None if relaxed is None else re.compile(relaxed, flags & ~re.IGNORECASE)
        #: lowercase ASCII every match holds (a term's or a name's own letters), looked for
        #: with ``in`` instead of a prefilter pattern
        self._literal = literal.lower() if literal.isascii() else ""

    def _none(self, text: str) -> bool:
        """``text`` surely holds no match (the prefilter found nothing in it), once per
        (cue, text) within a judgement (the cue itself in the key: no other object can
        take its identity while the memo lives)."""
        memo = current_memo()
        if memo is None:
            return self._settle(text)
        key = (self, text)
        hit = memo.get(key)
        if hit is None:
            hit = memo[key] = self._settle(text)
        return hit

    def _settle(self, text: str) -> bool:
        if not text.isascii():
            return False
        if self._literal:
            return self._literal not in text.lower()
        return self._pre is not None and not self._pre.search(text.lower())

    def search(self, text: str, pos: int = 0, endpos: int | None = None) -> re.Match[str] | None:
        if endpos is not None:  # "$" matches at endpos: the prefilter reads the whole text
            return self.regex.search(text, pos, endpos)
        return None if self._none(text) else self.regex.search(text, pos)

    def match(self, text: str, pos: int = 0) -> re.Match[str] | None:
        return None if self._none(text) else self.regex.match(text, pos)

    def fullmatch(self, text: str) -> re.Match[str] | None:
        return None if self._none(text) else self.regex.fullmatch(text)

    def finditer(
        self, text: str, pos: int = 0, endpos: int | None = None
    ) -> Iterator[re.Match[str]]:
        if endpos is not None:
            return self.regex.finditer(text, pos, endpos)
        return iter(()) if self._none(text) else self.regex.finditer(text, pos)

    def findall(self, text: str) -> list[Any]:
        return [] if self._none(text) else self.regex.findall(text)

    def split(self, text: str, maxsplit: int = 0) -> list[str | Any]:
        return [text] if self._none(text) else self.regex.split(text, maxsplit)

    def sub(self, repl: str | Callable[[re.Match[str]], str], text: str, count: int = 0) -> str:
        return text if self._none(text) else self.regex.sub(repl, text, count)

    def __repr__(self) -> str:
        return f"Cue({self.pattern!r})"


#: a pattern or a :class:`Cue`: what the readers that take either accept
Searcher = re.Pattern[str] | Cue


def _relaxed(pattern: str) -> str | None:
    """``pattern`` without its ``\b`` outside character classes and negative lookarounds (a
    ``\b`` dropped inside ``(?!...)`` would narrow it), or None where a lowercased text could
    miss what the pattern matches (an uppercase letter not escaped)."""
    out: list[str] = []
    negative: list[bool] = []  # the open groups, each a negative lookaround or not
    in_class, i, n = False, 0, len(pattern)
    while i < n:
        ch = pattern[i]
        if ch == "\\" and i + 1 < n:
            if not (pattern[i + 1] == "b" and not in_class and not any(negative)):
                out.append(pattern[i : i + 2])
            i += 2
            continue
        if ch.isupper():
            return None
        if in_class:
            if ch == "]" and not _class_opening(pattern, i):
                in_class = False
        elif ch == "[":
            in_class = True
        elif ch == "(":
            negative.append(pattern.startswith(("?!", "?<!"), i + 1))
        elif ch == ")" and negative:
            negative.pop()
        out.append(ch)
        i += 1
    return "".join(out)


def _class_opening(pattern: str, at: int) -> bool:
    """The ``]`` at ``at`` is a class's first character (``[]x]``, ``[^]x]``): a literal."""
    return pattern[at - 1] == "[" or (pattern[at - 1] == "^" and pattern[at - 2 : at] == "[^")
