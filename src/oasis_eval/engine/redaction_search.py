"""The redactor's prefilter: does a string, or a whole JSON-like structure, hold any
registered form at all? (:mod:`.redaction`)

Most strings hold none, so one search decides before any form is replaced: a trie-shaped
regex over the forms' prefixes for a string, and the same over UTF-8 bytes for a
structure's marshal bytes, with longer prefixes and each regex form apart (a form occurs in
some string of a structure exactly when its bytes occur in those, :func:`plain_bytes`).
"""

from __future__ import annotations

import bisect
import functools
import marshal
import re
import re._compiler as _sre_compile  # type: ignore[import-not-found]  # the literal prefix
import re._parser as _sre_parse_module  # type: ignore[import-not-found]
from collections.abc import Sequence
from typing import Any

import ahocorasick_rs

from ..errors import OasisError
from .encoded_forms import PATTERN_SHORTEST, factored

__all__ = [
    "CLEAN_ITEM_MAX",
    "CLEAN_KEPT",
    "FEW",
    "NARROW_ABOVE",
    "NARROW_ITEMS",
    "PACKED",
    "RUN",
    "NotPlain",
    "any_head",
    "automaton",
    "bytes_each",
    "compiled_pattern",
    "either",
    "items_holding",
    "literal_prefix",
    "literal_search",
    "one_of",
    "packed",
    "plain_bytes",
    "prefixed_search",
    "searchers",
]

#: a container with a form whose bytes are longer is narrowed down child by child, a
#: shorter one rebuilt whole (walking it costs less than pickling its children again)
NARROW_ABOVE = 2048
#: a container with more items is narrowed down without a dump of its own; a long list
#: is searched in runs of this many items
NARROW_ITEMS = 64
#: then the runs that hold a form, in runs of this many items, before item by item
RUN = 8
#: the marshal format :func:`plain_bytes` writes (3.4 on: strings written once)
MARSHAL_VERSION = 4
#: at most this many dumps of items found clean are remembered per set of forms, each at
#: most this long (16 MiB at most: a snapshot's resource dumps to about a kilobyte)
CLEAN_KEPT, CLEAN_ITEM_MAX = 1024, 16384


_sre_parse = _sre_parse_module.parse


class NotPlain(OasisError):
    """The data holds something other than dicts, lists, tuples, sets and scalars."""


def plain_bytes(value: Any) -> bytes:
    """``value`` as the prefilter searches it: its :mod:`marshal` bytes (version 4), in C.

    marshal writes exact dicts, lists, tuples, sets, str, bytes and numbers (and bytes-like
    objects as their bytes); any other object, a subclass of str, dict or list included,
    stops it (:class:`NotPlain`): a subclass could hide its strings. Every str is written
    whole, as its UTF-8 bytes (``surrogatepass``, as pickle writes it), so a form occurs in
    some string of ``value`` exactly when the form's bytes occur here, and a string seen
    twice is written once (which is enough: the search only asks whether some string holds
    a form). Half the CPU of a pickle over a snapshot or an audit log (issue 30). Equal bytes
    mean equal content (what the clean memo of :func:`items_holding` relies on); equal
    content may differ in its bytes (marshal marks the objects referenced elsewhere), which
    only costs a search."""
    try:
        return marshal.dumps(value, MARSHAL_VERSION)
    except (ValueError, RecursionError):  # unmarshallable, or nested beyond marshal's depth
        raise NotPlain from None


def items_holding(
    items: list[Any],
    heads: Sequence[bytes] | Sequence[Any],
    regexes: list[bytes],
    clean: set[bytes] | None = None,
) -> set[int]:
    """The indices of ``items`` whose bytes (:func:`plain_bytes`) hold one of ``heads`` (byte
    strings, or the :func:`automaton` of some) or a match of one of ``regexes``, from one dump
    of all items and one scan per automaton (issue 30: scanning each item's dump apart costs a
    Python call per item and head). A match running over the
    end of an item counts for the item it starts in (at worst an item searched for nothing
    more closely); a match inside an item is always found: every start position is tried.

    ``clean``: the dumps of items already found to hold none of these heads and regexes
    (the caller keeps one set per set of heads): such an item is not searched again, and
    each item found clean here is added (up to :data:`CLEAN_KEPT` of at most
    :data:`CLEAN_ITEM_MAX` bytes). Equal dumps are equal content, so an unchanged object (a
    final snapshot's resource the agent never touched, issue 30) is known clean by its bytes.
    Raises :class:`NotPlain` as :func:`plain_bytes` does."""
    if heads and isinstance(heads[0], bytes):
        heads = [tuple(sorted(set(heads)))]
    data, ends = _dumped(items)
    if clean is None:
        return _found(data, ends, heads, regexes)
    pieces = [data[start:end] for start, end in zip([0, *ends], ends)]  # each plain_bytes(item)
    unknown = [i for i, piece in enumerate(pieces) if piece not in clean]
    if len(unknown) == len(items):
        found = _found(data, ends, heads, regexes)
    else:
        found = _found(b"".join(pieces[i] for i in unknown), _ends(pieces, unknown), heads, regexes)
    for n, i in enumerate(unknown):
        if n not in found and len(pieces[i]) <= CLEAN_ITEM_MAX and len(clean) < CLEAN_KEPT:
            clean.add(pieces[i])
    return {unknown[n] for n in found}


def _dumped(items: list[Any]) -> tuple[bytes, list[int]]:
    """Each item's :func:`plain_bytes` one after the other (every string of an item within
    its own bytes), and their ends."""
    pieces = [plain_bytes(item) for item in items]
    ends, total = [], 0
    for piece in pieces:
        total += len(piece)
        ends.append(total)
    return b"".join(pieces), ends


def _ends(pieces: list[bytes], chosen: list[int]) -> list[int]:
    ends, total = [], 0
    for i in chosen:
        total += len(pieces[i])
        ends.append(total)
    return ends


def _found(data: bytes, ends: list[int], heads: Sequence[Any], regexes: list[bytes]) -> set[int]:
    """The indices of the items (ending at ``ends`` in ``data``) holding a head or a match:
    every occurrence of every head, overlapping ones included, in one pass per automaton."""
    hits: set[int] = set()
    searches = []
    for found in heads:
        if isinstance(found, tuple):  # heads searched one by one (a scenario's own)
            searches += [functools.partial(data.find, head) for head in found]
            continue
        for _, start, _ in found.find_matches_as_indexes(data, overlapping=True):
            hits.add(bisect.bisect_right(ends, start))
    searches += [_regex_start(prefixed_search(regex), data) for regex in regexes]
    for search in searches:
        pos = search(0)
        while pos != -1:
            index = bisect.bisect_right(ends, pos)
            hits.add(index)
            pos = search(ends[index]) if index < len(ends) else -1  # on from the next item
    return hits


def _regex_start(search: Any, data: bytes) -> Any:
    def start(pos: int) -> int:
        found = search(data, pos)
        return -1 if found is None else found.start()

    return start


@functools.lru_cache(maxsize=1024)
def compiled_pattern(pattern: str) -> re.Pattern[str]:
    """A regex form, compiled once per run (every scenario's scoped copy shares it)."""
    return re.compile(pattern)


#: up to this many prefixes are searched one by one (``in``, in C), not as a compiled trie:
#: compiling a trie costs about 5 ms per scenario's credentials (some 40 forms), and over a
#: snapshot's dump 40 scans for a literal run about 3x faster than one trie-shaped regex;
#: over a short string the trie is faster, but a snapshot's dump is where the time goes
#: (measured, issue 30)
FEW = 64


def searchers(
    heads: list[str], regexes: list[str], long_heads: list[str] | None = None, dfa: bool = False
) -> tuple[Any, Any, int, Any]:
    """(search over str, search over UTF-8 bytes or None, shortest match, the :func:`automaton`
    of the bytes heads or None) for the prefilter: the str search looks for ``heads``, the
    bytes search for ``long_heads`` (``heads`` when not given). ``dfa``: the heads are kept
    all run, searched in one :func:`automaton`; else one by one (the fourth item is then
    the heads themselves, for :func:`items_holding`)."""
    if not heads and not regexes:
        return (lambda _: None), (lambda _: None), 1 << 30, None
    shortest = min(map(len, heads), default=1 << 30)
    if regexes:
        shortest = min(shortest, PATTERN_SHORTEST)
    # the literal prefixes and the regex forms are two searches: one alternation of both
    # would lose the literal-prefix scan that makes the trie fast; regex forms sharing their
    # first unit are one regex (encoded_forms.factored)
    regexes = factored(regexes)
    pattern = "|".join(regexes)
    search = _one_of(_literals(heads), compiled_pattern(pattern).search if regexes else None)
    try:
        raw = sorted({h.encode("utf-8") for h in (heads if long_heads is None else long_heads)})
    except UnicodeEncodeError:  # a lone surrogate: strings are searched one by one
        return search, None, shortest, None
    if not dfa:  # a scenario's own heads: building an automaton costs more than it saves
        return search, _one_of(_literals(raw), _each(regexes)), shortest, tuple(raw) or None
    found = automaton(tuple(raw)) if raw else None
    literal = None if found is None else any_head(raw)
    return search, _one_of(literal, _each(regexes)), shortest, found


@functools.lru_cache(maxsize=64)
def automaton(heads: tuple[bytes, ...]) -> Any:
    """One Aho-Corasick automaton (``ahocorasick-rs``, a DFA) of the heads a redactor keeps
    all run (the run-wide one's: every scenario's secrets): whether a structure's bytes hold
    any of them, and where each occurs, in one pass whatever their number (issue 30, session
    15: for 88 heads, 4 times the speed of a ``bytes.find`` per head over a snapshot's 25 KB,
    9 times over a kilobyte). Built once a run (a few milliseconds): a scenario's own heads
    (its issued credentials) are searched one by one, as the build would cost more than
    the scans it saves (measured, docs/benchmarks.md "Session 15")."""
    return ahocorasick_rs.BytesAhoCorasick(
        list(heads), implementation=ahocorasick_rs.Implementation.DFA
    )


#: heads per automaton of :func:`any_head`: up to 64 patterns, the ``aho-corasick`` crate
#: searches leftmost-first with its packed SIMD searcher (Teddy)
PACKED = 64


@functools.lru_cache(maxsize=64)
def packed(heads: tuple[bytes, ...]) -> tuple[Any, ...]:
    """Leftmost-first automata of ``heads`` (distinct, not empty), :data:`PACKED` heads each:
    built once a run for the heads a redactor keeps all run (the run-wide ones, the merged
    sets of :mod:`.redaction_merge`). A contiguous NFA: its search runs in the crate's
    prefilter; a DFA would take milliseconds to build."""
    return tuple(
        ahocorasick_rs.BytesAhoCorasick(
            list(heads[i : i + PACKED]),
            matchkind=ahocorasick_rs.MatchKind.LeftmostFirst,
            implementation=ahocorasick_rs.Implementation.ContiguousNFA,
        )
        for i in range(0, len(heads), PACKED)
    )


def any_head(heads: Sequence[bytes]) -> Any:
    """Whether one of ``heads`` occurs in the data (bytes): truthy exactly when
    ``any(h in data for h in heads)`` is (None for no heads), for the heads a redactor keeps
    all run.

    A leftmost-first search reports a match wherever some head occurs (the leftmost one
    starting there), so its "none" is the same answer as every head's ``find``. It is not
    the standard search of :func:`automaton`, whose every occurrence :func:`items_holding`
    needs, but as a yes or no it is the same, and the crate's packed searcher makes it several
    times cheaper over a dump (issue 30, session 26: the run-wide automaton's scans were
    1.0 M instructions a scenario, about 0.5 M this way). A scenario's own heads stay
    :func:`literal_search`'s: building an automaton each scenario costs more than it saves."""
    kept = tuple(sorted(set(heads)))
    if not kept:
        return None
    if b"" in kept:  # an empty head occurs in any data (the crate refuses one)
        return lambda data: True
    automata = packed(kept)
    return lambda data: any(a.find_matches_as_indexes(data) for a in automata)


def _literals(heads: list[Any]) -> Any:
    """A search for any of ``heads`` (str or bytes): truthy when one occurs."""
    if not heads:
        return None
    if len(heads) <= FEW:
        return _fitting(heads)
    return re.compile(_trie(heads)).search


def _fitting(heads: list[Any]) -> Any:
    """``any(h in data for h in heads)``, asking only the heads no longer than ``data`` (a
    longer one cannot occur in it): a scenario's own heads are its credentials' forms, 40 or
    so of 40-90 characters, and most strings searched (an answer's, a transcript's) are
    shorter than all of them (issue 30, session 35: some 1,700 ``in`` tests a scenario, most
    of them now none). The same answer: False when no head fits, else ``any``'s."""
    ordered = sorted(heads, key=len)
    lengths = [len(h) for h in ordered]
    fit = bisect.bisect_right

    def search(data: Any) -> bool:
        n = fit(lengths, len(data))
        return n > 0 and any(h in data for h in ordered[:n])

    return search


def _each(regexes: list[str]) -> Any:
    """A search over bytes for any of ``regexes``, one scan each: over a snapshot's dump
    the regex forms' prefixes take half the time apart as in one alternation (which loses
    each one's literal start, issue 30)."""
    if not regexes:
        return None
    searches = [prefixed_search(r.encode("utf-8")) for r in regexes]
    return lambda data: any(search(data) for search in searches)


@functools.lru_cache(maxsize=1024)
def compiled_bytes(pattern: bytes) -> re.Pattern[bytes]:
    """A bytes regex of the prefilter, compiled once per run (as :func:`compiled_pattern`;
    one per regex form: three per secret)."""
    return re.compile(pattern)


@functools.lru_cache(maxsize=1024)
def prefixed_search(pattern: bytes) -> Any:
    """``compiled_bytes(pattern).search`` (data, pos=0), with a ``bytes.find`` of the literal
    prefix every match of ``pattern`` starts with first (issue 30, session 37: ``sre``'s own
    prefix scan costs several instructions a byte, ``find`` a fraction of one; the hex forms'
    ``0x73``, ``73``, the letter-spaced form's ``s``). Exact: no match starts before the
    prefix's first occurrence from ``pos``, and the search from there sees the same text
    (``pos`` keeps what lies before it for lookbehinds and ``\\b``). The prefix is the one
    ``re``'s compiler itself derives for its search (none for a pattern that could match
    without it: an alternation, a class, a repeat, an assertion first)."""
    regex = compiled_bytes(pattern)
    prefix = literal_prefix(pattern, regex.flags)
    if not prefix:
        return regex.search
    find, search = prefix, regex.search

    def prefixed(data: bytes, pos: int = 0) -> re.Match[bytes] | None:
        first = data.find(find, pos)
        return None if first < 0 else search(data, first)

    return prefixed


def literal_prefix(pattern: bytes, flags: int = 0) -> bytes:
    """The literal bytes every match of ``pattern`` starts with, as ``re``'s compiler reads
    them (``_get_literal_prefix``: leading literals, through groups, none that a case-
    insensitive flag would let differ); ``b""`` when there are none."""
    parsed = _sre_parse(pattern, flags)
    flags = parsed.state.flags  # with the pattern's inline flags, as the compiler reads them
    if flags & re.IGNORECASE and flags & re.LOCALE:
        return b""
    units, _, _ = _sre_compile._get_literal_prefix(parsed, flags)
    return bytes(units)


def one_of(first: Any, second: Any) -> Any:
    """Truthy when either search is (None: no search); None when both are None."""
    return _one_of(first, second)


literal_search = _literals
bytes_each = _each


def _one_of(first: Any, second: Any) -> Any:
    if first is None or second is None:
        return first or second
    return lambda data: first(data) or second(data)


def either(first: Any, second: Any) -> Any:
    if first is None or second is None:
        return None
    return lambda data: first(data) or second(data)


def _trie(words: list[Any]) -> Any:
    """One regex source matching any of ``words`` (str or bytes), shaped as a trie.

    Python's ``re`` tries the branches of an alternation one after the other at every
    position; sharing prefixes makes that one branch per distinct next character."""
    bytes_mode = bool(words) and isinstance(words[0], bytes)
    root: dict[Any, Any] = {}
    for word in words:
        node = root
        for unit in (word[i : i + 1] for i in range(len(word))):
            node = node.setdefault(unit, {})
        node[None] = {}

    # str or bytes units, as the words are: Any lets one trie builder serve both
    units: tuple[Any, Any, Any, Any, Any] = (
        (b"", b"|", b"(?:", b")", b"?") if bytes_mode else ("", "|", "(?:", ")", "?")
    )
    empty, bar, opener, closer, opt = units

    def emit(node: dict[Any, Any]) -> Any:
        chain = empty  # a run of single children is one literal (no recursion per character)
        while len(node) == 1 and None not in node:
            unit = next(iter(node))
            chain += re.escape(unit)
            node = node[unit]
        alts = [
            re.escape(unit) + emit(node[unit]) for unit in sorted(k for k in node if k is not None)
        ]
        if not alts:
            return chain
        body = opener + bar.join(alts) + closer
        return chain + body + (opt if None in node else empty)

    return emit(root)
