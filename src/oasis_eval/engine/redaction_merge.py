"""A scoped redactor's bytes heads that recur, searched with the run-wide ones (issue 30).

Every scenario's credential redactor (:meth:`.redaction.Redactor.scoped`) registers the
issued credentials again, and with them the same CA certificate's forms: searched one
``bytes.find`` each over every dump, each scenario. A head an earlier scenario's copy had
joins the run-wide heads in one Aho-Corasick automaton (:func:`.automaton`, cached), built
once a run; only the copy's new heads (its token's forms) are searched one by one. The same
heads and regex forms are searched either way, so the same items are found.
"""

from __future__ import annotations

from typing import Any

from .encoded_forms import factored
from .redaction_search import any_head, automaton, bytes_each, literal_search, one_of

#: a :class:`.redaction.Redactor` (not imported: it imports this module)
Redactor = Any

__all__ = ["MERGED_KEPT", "SEEN_KEPT", "bytes_each_of", "bytes_heads", "merged", "recurring"]

#: bytes heads of scoped copies the run-wide redactor remembers (:func:`recurring`), and head
#: sets it merges into an automaton at most (:func:`merged`): past them, copies search as before
SEEN_KEPT, MERGED_KEPT = 4096, 8


def bytes_heads(forms: list[str], prefix: int) -> tuple[bytes, ...]:
    """The heads :func:`.searchers` searches over bytes for ``forms``."""
    return tuple(sorted({f[:prefix].encode("utf-8") for f in forms}))


def bytes_each_of(patterns: list[str], prefixes: dict[str, str]) -> Any:
    """The bytes search :func:`.searchers` makes of the regex forms ``patterns`` (or None)."""
    return bytes_each(factored(sorted({prefixes.get(p, p) for p in patterns})))


def root_of(redactor: Redactor) -> Redactor:
    """The run-wide redactor ``redactor`` was scoped from (itself if none)."""
    while redactor._base is not None:
        redactor = redactor._base
    return redactor


def merged(
    redactor: Redactor,
    base: Redactor,
    own: tuple[bytes, ...],
    regex_bytes: Any,
    search_bytes: Any,
    automata: tuple[Any, ...],
) -> tuple[Any, tuple[Any, ...]]:
    """(bytes search, automata) of the scoped copy ``redactor`` whose base searches ``base``'s
    and which searches its own heads ``own``: the heads an earlier copy had too in one
    automaton with the base's, the others one by one (module doc). ``search_bytes`` and
    ``automata`` as they are when the base searches more than one automaton, nothing recurs,
    or :data:`MERGED_KEPT` other sets were built. Sets ``redactor._dfa_heads``."""
    again = recurring(redactor, own)
    if base._dfa_heads is None or not again:
        return search_bytes, automata
    heads = tuple(sorted({*base._dfa_heads, *again}))
    built = root_of(redactor)._merged_sets
    if heads not in built:
        if len(built) >= MERGED_KEPT:  # the sets vary: building each costs more than it saves
            return search_bytes, automata
        built.add(heads)
    found = automaton(heads)
    fresh = tuple(h for h in own if h not in again)
    redactor._dfa_heads = None if fresh else heads
    literal = one_of(any_head(heads), literal_search(list(fresh)))
    return one_of(literal, regex_bytes), ((found, fresh) if fresh else (found,))


def recurring(redactor: Redactor, heads: tuple[bytes, ...]) -> set[bytes]:
    """Which of the scoped copy's bytes ``heads`` another copy of the run had first (a copy's
    number is given by :meth:`.Redactor.scoped`; its long-forms twin shares it)."""
    root = root_of(redactor)
    if not redactor._serial:  # not made by scoped(): a copy of its own
        root._copies += 1
        redactor._serial = root._copies
    seen = root._first_seen
    out = set()
    for head in heads:
        first = seen.get(head)
        if first is None and len(seen) < SEEN_KEPT:
            seen[head] = redactor._serial
        elif first is not None and first != redactor._serial:
            out.add(head)
    return out
