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
other text is searched by the cue itself. The prefilter is compiled with its alternatives
grouped by their first letter where it can be (:func:`_factored`: ``re`` then skips to those
letters). A non-ASCII text, or a pattern with an uppercase
literal, is searched by the cue alone. A pattern built from a term or a name gives instead a *literal* every match
holds (:func:`._words.term_regex`, :func:`._words.name_regex`), found with ``in``. A search from ``pos`` is prefiltered too (lookbehinds
and ``^`` see the whole text either way); one bounded by ``endpos`` is not (``$`` matches
there). Within a judgement the prefilter's answer for a (cue, text) is kept in the
judgement's memo (:func:`.reading.current_memo`): half the searches of a judgement ask a cue
again of a sentence it already read. Before its prefilter, a cue whose every match holds one
of a few *needed words* (:func:`needed_words`, read from the parsed pattern at import: the
``cause`` of ``(?:root\s+)?causes?``) looks for them with ``in``: a prefilter that opens
with an optional group is tried at every position of the text, a substring search is not. Verification stays a pure function of its inputs (core §3.5.4): same answers, fewer
steps (``tests/evaluation/behaviors/test_cue.py`` checks every cue against its pattern).
"""

from __future__ import annotations

import re
import re._compiler as _sre_compile  # type: ignore[import-not-found]  # a prefilter's tree
import re._constants as _sre  # type: ignore[import-not-found]  # a parsed pattern, read at import
import re._parser as _sre_parse  # type: ignore[import-not-found]
from collections.abc import Callable, Iterable, Iterator
from typing import Any

from ..reading import current_memo, run_keyed, shared_readings
from ._cue_ascii import ascii_twin, has_upper, lower_ascii
from ._cue_words import VOCABULARY


@run_keyed  # a cue is made at import (or cached) and never changed (issue 30)
class Cue:
    """A compiled pattern (``regex``) with the prefilter above; the methods the evaluators
    call answer as ``regex``'s do."""

    __slots__ = (
        "_literal",
        "_lowered",
        "_needed",
        "_pre",
        "_wide",
        "_wide_ids",
        "flags",
        "pattern",
        "regex",
    )

    def __init__(self, pattern: str, flags: int = re.IGNORECASE, literal: str = "") -> None:
        self.regex = re.compile(pattern, flags)
        self.pattern = pattern
        self.flags = self.regex.flags
        relaxed = None if literal else _relaxed(pattern)
        self._pre = None if relaxed is None else _prefilter(relaxed, flags & ~re.IGNORECASE)
        #: lowercase ASCII every match holds (a term's or a name's own letters), looked for
        #: with ``in`` instead of a prefilter pattern
        self._literal = literal.lower() if literal.isascii() else ""
        #: lowercase ASCII words one of which every match holds (empty: none worth a look)
        words = () if self._literal else _all_needed(pattern, self.flags)
        self._needed = words if len(words) <= _MOST else ()
        #: more needed words than ``in`` searches pay for: looked up in the vocabulary's one
        #: pass over the text (:mod:`._cue_words`), their indices there found at first use
        self._wide = words if len(words) > _MOST else ()
        self._wide_ids: frozenset[int] | None = None
        VOCABULARY.register(self._wide)
        #: the pattern itself compiled case-sensitive, matching a lowercased ASCII text where
        #: the cue matches the text (:func:`_case_free`): a split in one case-sensitive pass
        self._lowered = _case_free(pattern, self.flags)

    def _read(self, text: str) -> str | bool | None:
        """False: ``text`` surely holds no match (the prefilter found nothing in it), once per
        (cue, text) within a judgement (the cue itself in the key: no other object can take
        its identity while the memo lives); else ``text`` lowercased (None: not ASCII), for
        the case-free twin: one call where ``_none`` and ``_low`` made two, a hit's text kept
        lowercased in the memo (issue 30, session 35)."""
        memo = current_memo()
        if memo is None:
            low = text.lower() if text.isascii() else None
            return False if self._settle(low) else low
        # the cue's answers in a dict of their own under the cue, keyed by the text: no
        # (cue, text) tuple built per call (issue 30, session 31); the run's, when a run is
        # open (a text's answer is the same in its other judgements, :mod:`.reading`)
        own = memo.get(self)
        if own is None:
            own = memo[self] = shared_readings(memo, self)
        hit = own.get(text)
        if hit:
            return False
        # the text lowercased once per judgement, kept under the text itself (no other key
        # of the memo is a string): each cue lowercased it again (issue 30)
        low = memo.get(text)
        if low is None and text.isascii():
            low = memo[text] = text.lower()
        if hit is None:
            hit = own[text] = self._settle(low)
        return False if hit else low

    def _settle(self, low: str | None) -> bool:
        """The prefilter's answer for the lowercased text ``low`` (None: not ASCII, read by
        the cue itself)."""
        if low is None:
            return False
        if self._literal:
            return self._literal not in low
        if self._needed:
            for word in self._needed:  # a loop, not any() over a generator (issue 30)
                if word in low:
                    break
            else:
                return True
        elif self._wide:
            ids = self._wide_ids
            if ids is None:
                ids = self._wide_ids = VOCABULARY.ids(self._wide) or frozenset()
            if ids and ids.isdisjoint(VOCABULARY.present(low)):
                return True
        return self._pre is not None and not self._pre.search(low)

    def search(self, text: str, pos: int = 0, endpos: int | None = None) -> re.Match[str] | None:
        if endpos is not None:  # "$" matches at endpos: the prefilter reads the whole text
            return self.regex.search(text, pos, endpos)
        # :meth:`_read` written out: three calls in four are searches (issue 30, session 35)
        memo = current_memo()
        if memo is None:
            low = self._read(text)
        else:
            own = memo.get(self)
            if own is None:
                own = memo[self] = shared_readings(memo, self)
            hit = own.get(text)
            if hit:
                return None
            low = memo.get(text)
            if low is None and text.isascii():
                low = memo[text] = text.lower()
            if hit is None:
                hit = own[text] = self._settle(low)
                if hit:
                    return None
        if low is False:
            return None
        if low is not None and self._lowered is not None:
            found = self._lowered.search(low, pos)  # type: ignore[arg-type]
            return None if found is None else self.regex.match(text, found.start())
        return self.regex.search(text, pos)

    def match(self, text: str, pos: int = 0) -> re.Match[str] | None:
        low = self._read(text)
        if low is False:
            return None
        # a miss settled by the case-free twin (issue 30, session 34: most matches miss)
        if low is not None and self._lowered is not None and not self._lowered.match(low, pos):  # type: ignore[arg-type]
            return None
        return self.regex.match(text, pos)

    def fullmatch(self, text: str) -> re.Match[str] | None:
        return None if self._read(text) is False else self.regex.fullmatch(text)

    def finditer(
        self, text: str, pos: int = 0, endpos: int | None = None
    ) -> Iterator[re.Match[str]]:
        if endpos is not None:
            return self.regex.finditer(text, pos, endpos)
        low = self._read(text)
        if low is False:
            return iter(())
        if low is not None and self._lowered is not None:
            return _matched_at(self.regex, text, self._lowered.finditer(low, pos))  # type: ignore[arg-type]
        return self.regex.finditer(text, pos)

    def findall(self, text: str) -> list[Any]:
        return [] if self._read(text) is False else self.regex.findall(text)

    def split(self, text: str, maxsplit: int = 0) -> list[str | Any]:
        if self._lowered is not None and not self.regex.groups and text.isascii():
            return _split_at(text, self._lowered.finditer(text.lower()), maxsplit)
        return [text] if self._read(text) is False else self.regex.split(text, maxsplit)

    def sub(self, repl: str | Callable[[re.Match[str]], str], text: str, count: int = 0) -> str:
        return text if self._read(text) is False else self.regex.sub(repl, text, count)

    def absent_from(self, low: str) -> bool:
        """No text within ``low`` holds a match: ``low`` is a lowercased ASCII text
        (:func:`lowered`) whose parts (its sentences, their clauses) are what is searched, and
        the cue's literal, or each of its needed words, is missing from it: a part cannot hold
        what the whole lacks. False: not known (issue 30: a cue skipped for a whole answer
        instead of ruled out sentence by sentence)."""
        if self._literal:
            return self._literal not in low
        return bool(self._needed) and not any(word in low for word in self._needed)

    def __repr__(self) -> str:
        return f"Cue({self.pattern!r})"


def needed_of(cues: Iterable[Cue]) -> tuple[str, ...] | None:
    """Lowercase ASCII words such that a lowercased ASCII text holding none of them has every
    one of ``cues`` :meth:`Cue.absent_from` it (each cue's literal, or its needed words), for
    one pass over a text instead of a call per cue (issue 30, session 33); None where one
    cue has neither (its absence is not known)."""
    words: list[str] = []
    for cue in cues:
        if cue._literal:
            words.append(cue._literal)
        elif cue._needed:
            words.extend(cue._needed)
        else:
            return None
    return tuple(words)


def _matched_at(
    regex: re.Pattern[str], text: str, found: Iterator[re.Match[str]]
) -> Iterator[re.Match[str]]:
    """``regex``'s matches in ``text`` where ``found`` (its case-free twin's, never empty, in
    the lowercased ``text``) starts: the same matches, groups and all, as ``regex.finditer``."""
    match = regex.match
    for m in found:
        yield match(text, m.start())  # type: ignore[misc]


def _split_at(text: str, found: Iterator[re.Match[str]], maxsplit: int) -> list[str]:
    """``text`` cut at the spans of ``found`` (matches of a pattern without groups in the
    lowercased ``text``: the same spans as in ``text``), as ``re.split`` cuts it."""
    out: list[str] = []
    at = 0
    for m in found:
        start, end = m.span()
        out.append(text[at:start])
        at = end
        if len(out) == maxsplit:
            break
    out.append(text[at:])
    return out


def _case_free(pattern: str, flags: int) -> re.Pattern[str] | None:
    """``pattern`` compiled without IGNORECASE when, on ASCII text, it then matches the
    lowercased text at the spans where the cue matches the text: an IGNORECASE pattern never
    matching an empty string, without flags of its own (``(?-i:...)``) whose every literal and class range is ASCII,
    or a character with no case (``—``). Lowercasing ASCII is length-preserving and maps each
    letter to the one IGNORECASE equates it with; an uppercase letter of the pattern is read
    in lowercase (:func:`._cue_ascii.lower_ascii`, issue 30, session 34). Else None."""
    if not flags & re.IGNORECASE:
        return None
    try:
        parsed = _sre_parse.parse(pattern, flags)
    except re.error:
        return None
    if not parsed.getwidth()[0] or not _caseless(list(parsed)):
        return None  # an empty match: finditer and split decide the next one apart
    case_sensitive = flags & ~re.IGNORECASE
    if not has_upper(list(parsed)):
        return ascii_twin(pattern, case_sensitive) or re.compile(pattern, case_sensitive)
    # issue 30, session 34: its uppercase letters written in lowercase (a class's given both)
    twin = ascii_twin(pattern, case_sensitive, lower_ascii)
    if twin is not None:
        return twin
    lowered: re.Pattern[str] = _sre_compile.compile(
        lower_ascii(_sre_parse.parse(pattern, case_sensitive)), case_sensitive
    )
    return lowered


def _caseless(items: list[tuple[Any, Any]]) -> bool:
    """Every literal and range of the parsed sequence ``items`` is case-free (above)."""
    for op, av in items:
        if op in (_sre.LITERAL, _sre.NOT_LITERAL):
            if av >= 0x80 and not _no_case(av):
                return False
        elif op is _sre.RANGE:
            if av[1] >= 0x80:
                return False
        elif op is _sre.SUBPATTERN:
            if av[1] or av[2] or not _caseless(list(av[3])):
                return False
        elif op is _sre.IN:
            if not _caseless(list(av)):
                return False
        elif op is _sre.BRANCH:
            if not all(_caseless(list(b)) for b in av[1]):
                return False
        elif op in (_sre.MAX_REPEAT, _sre.MIN_REPEAT, _sre.POSSESSIVE_REPEAT):
            if not _caseless(list(av[2])):
                return False
        elif op in (_sre.ASSERT, _sre.ASSERT_NOT, _sre.ATOMIC_GROUP):
            if not _caseless(list(av[-1])):
                return False
        elif op not in _PLAIN:
            return False
    return True


#: parsed operations that read no character's case (or none at all)
_PLAIN = frozenset({_sre.ANY, _sre.AT, _sre.CATEGORY, _sre.NEGATE})


def _no_case(code: int) -> bool:
    """The character ``code`` is an ASCII one that is no uppercase letter, or one with no case."""
    ch = chr(code)
    if code < 0x80:
        return not ch.isupper()
    return ch.lower() == ch == ch.upper() and ch.casefold() == ch


def lowered(texts: Iterable[str]) -> str | None:
    """``texts`` joined by line breaks and lowercased, for :meth:`Cue.absent_from`; None when
    they are not plain ASCII (a cue reads such a text without its prefilters)."""
    whole = "\n".join(texts)
    return whole.lower() if whole.isascii() else None


def possible(cues: Iterable[Searcher], low: str | None) -> tuple[Searcher, ...]:
    """The ``cues`` that may match within the parts of ``low`` (:func:`lowered`): all but the
    :class:`Cue` objects :meth:`Cue.absent_from` rules out (every one when ``low`` is None)."""
    if low is None:
        return tuple(cues)
    return tuple(c for c in cues if not (isinstance(c, Cue) and c.absent_from(low)))


#: a pattern or a :class:`Cue`: what the readers that take either accept
Searcher = re.Pattern[str] | Cue


def _prefilter(relaxed: str, flags: int) -> re.Pattern[str]:
    """``relaxed`` compiled with its alternatives grouped by their first letter
    (:func:`_factored`) where it can be, else as it is."""
    twin = ascii_twin(relaxed, flags, _factored)  # searched over ASCII text only
    if twin is not None:
        return twin
    try:
        tree = _factored(_sre_parse.parse(relaxed, flags))
    except re.error:
        tree = None
    return re.compile(relaxed, flags) if tree is None else _sre_compile.compile(tree, flags)


def _factored(parsed: Any) -> Any:
    r"""The parsed pattern ``parsed`` as an alternation of branches each opening with its own
    literal (``m(?:ight|ay)|c(?:ould be|an't tell)`` for ``might|may|(?:could|can't) ...``), or
    None: one with a capturing group, or a branch opening with anything else (a class
    of more than letters, ``\w``, a repeat). Python's ``re`` skips ahead only to the
    characters a pattern can open with when every branch opens with a literal, and then tries
    only the branches of that letter: a prefilter of thirty words searched a sentence in a
    fifth of the time (issue 30). The branches of one letter keep their order, and no two
    letters' branches can match at one position, so the factored pattern matches where and
    what ``parsed`` does."""
    if parsed.state.groups != 1 or parsed.state.flags & re.IGNORECASE:
        return None  # a group to renumber (a backreference); letters equated
    by_letter: dict[int, list[list[Any]]] = {}
    for seq in _opened(list(parsed)):
        if not seq or seq[0][0] is not _sre.LITERAL:
            return None
        by_letter.setdefault(seq[0][1], []).append(seq[1:])
    state, branches = parsed.state, []
    for letter, rests in by_letter.items():
        rest = (
            rests[0]
            if len(rests) == 1
            else [(_sre.BRANCH, (None, [_sre_parse.SubPattern(state, r) for r in rests]))]
        )
        branches.append(_sre_parse.SubPattern(state, [(_sre.LITERAL, letter), *rest]))
    if len(branches) == 1:
        return branches[0]
    return _sre_parse.SubPattern(state, [(_sre.BRANCH, (None, branches))])


def _plain_group(item: tuple[Any, Any]) -> bool:
    """``item`` is a non-capturing group without flags of its own: ``(?:...)``."""
    op, av = item
    return op is _sre.SUBPATTERN and av[0] is None and not av[1] and not av[2]


def _opened(seq: list[tuple[Any, Any]]) -> list[list[tuple[Any, Any]]]:
    """The branch ``seq`` as the branches it is, opening with a literal where they can: the
    alternatives it opens with distributed (``(?:a|bc)d``: ``ad``, ``bcd``; the parser
    inlines such a group), a class of literals spread (``[ey]s``: ``es``, ``ys``), in their
    order; ``[seq]`` otherwise."""
    if not seq:
        return [seq]
    op, av = seq[0]
    if op is _sre.BRANCH:
        return [out for alt in av[1] for out in _opened(list(alt) + seq[1:])]
    if _plain_group(seq[0]):
        return _opened(list(av[3]) + seq[1:])
    if op is _sre.IN and av and all(o is _sre.LITERAL for o, _ in av):
        return [[item, *seq[1:]] for item in av]
    return [seq]


def _relaxed(pattern: str) -> str | None:
    """``pattern`` without its ``\b`` outside character classes and negative lookarounds (a
    ``\b`` dropped inside ``(?!...)`` would narrow it), or None where a lowercased text could
    miss what the pattern matches (an uppercase letter, escaped too: ``\x41``)."""
    try:
        if has_upper(list(_sre_parse.parse(pattern))):
            return None
    except re.error:
        return None
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


#: a needed word shorter than this is in nearly every text; a longer list costs more ``in``
#: searches than the prefilter they would spare (measured over a careful SI run's judging)
_SHORTEST, _MOST = 2, 20


def needed_words(pattern: str, flags: int = 0) -> tuple[str, ...]:
    """Lowercase ASCII strings one of which every match of ``pattern`` holds, sorted; empty
    when no such list of at most :data:`_MOST` words of :data:`_SHORTEST` letters or more is
    known. Lowercasing ASCII maps each letter to the one ``IGNORECASE`` equates it with, so a
    lowercased ASCII text holding none of them holds no match."""
    found = _all_needed(pattern, flags)
    return found if len(found) <= _MOST else ()


def _all_needed(pattern: str, flags: int) -> tuple[str, ...]:
    """:func:`needed_words` however many they are (more than :data:`_MOST`: a wide cue's,
    looked up in :mod:`._cue_words`' vocabulary)."""
    try:
        parsed = _sre_parse.parse(pattern, flags)
    except re.error:
        return ()
    found = _needed(list(parsed))
    return tuple(sorted(found)) if found else ()


def _needed(items: list[tuple[Any, Any]]) -> frozenset[str] | None:
    """The best set of strings one of which every match of the parsed sequence ``items``
    holds: a run of literals, or one needed element's own set (an alternation: the union of
    its branches' sets; a group; a repeat at least once). Best: longest shortest word, then
    fewest words."""
    best: frozenset[str] | None = None
    run: list[str] = []

    def consider(found: frozenset[str] | None) -> None:
        nonlocal best
        if not found or min(map(len, found)) < _SHORTEST:
            return
        if best is None or _rank(found) > _rank(best):
            best = found

    for op, av in items:
        if op is _sre.LITERAL and chr(av).isascii():
            run.append(chr(av).lower())
            continue
        consider(frozenset({"".join(run)}) if run else None)
        run = []
        if op is _sre.BRANCH:
            branches = [_needed(list(b)) for b in av[1]]
            if all(branches):
                consider(frozenset().union(*branches))  # type: ignore[arg-type]
        elif op is _sre.SUBPATTERN:
            consider(_needed(list(av[-1])))
        elif op in (_sre.MAX_REPEAT, _sre.MIN_REPEAT, _sre.POSSESSIVE_REPEAT) and av[0] >= 1:
            consider(_needed(list(av[2])))
    consider(frozenset({"".join(run)}) if run else None)
    return best


def _rank(words: frozenset[str]) -> tuple[int, int]:
    return (min(map(len, words)), -len(words))


def _class_opening(pattern: str, at: int) -> bool:
    """The ``]`` at ``at`` is a class's first character (``[]x]``, ``[^]x]``): a literal."""
    return pattern[at - 1] == "[" or (pattern[at - 1] == "^" and pattern[at - 2 : at] == "[^")
