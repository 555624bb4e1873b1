"""Which cues' words a text holds, in one pass over it (issue 30, session 27).

A :class:`._cue.Cue` whose every match holds one of a few *needed words* looks for them with
``in`` before its prefilter; a cue with more than ``_cue._MOST`` such words (a vocabulary of
twenty to seventy: "might", "may", "perhaps", ...) skipped that test, since that many ``in``
searches cost more than the prefilter they spare, and ran its prefilter pattern over every
text it was asked of. This module keeps the words of those wide cues in one Aho-Corasick
automaton (``ahocorasick-rs``, already a dependency of the engine): one overlapping pass over
a lowercased text reports every occurrence of every word, hence exactly the set of words the
text holds (:func:`present`); a wide cue none of whose words is in it holds no match (the
same argument as for the needed words: lowercasing ASCII maps each letter to the one
``IGNORECASE`` equates it with), and its prefilter runs only where one is.

The automaton holds the words of the wide cues registered before its first use (module-level
cues, made at import); a cue made later, or one whose words it lacks, is tested as before
(:meth:`Vocabulary.ids` None). Either way the answer is the cue's own: this only decides
which texts the prefilter is spared. The set for a text is kept in the judgement's memo.
"""

from __future__ import annotations

import ahocorasick_rs

from ..reading import current_memo, shared_readings


class Vocabulary:
    """The wide cues' words (registered at import), their automaton built at first use."""

    __slots__ = ("_automaton", "_index", "_words")

    def __init__(self) -> None:
        self._words: dict[str, int] = {}
        self._index: dict[str, int] | None = None
        self._automaton: ahocorasick_rs.AhoCorasick | None = None

    def register(self, words: tuple[str, ...]) -> None:
        """``words`` (a cue's needed words) join the automaton, unless it is built already."""
        if self._index is None:
            for word in words:
                self._words.setdefault(word, len(self._words))

    def ids(self, words: tuple[str, ...]) -> frozenset[int] | None:
        """The indices of ``words`` in the automaton (building it on the first call), or None
        when it lacks one of them (the cue is then tested as before)."""
        if self._index is None:
            self._index = dict(self._words)
            if self._index:
                self._automaton = ahocorasick_rs.AhoCorasick(
                    sorted(self._index, key=self._index.__getitem__)
                )
        found = [self._index.get(word) for word in words]
        if not found or None in found:
            return None
        return frozenset(i for i in found if i is not None)

    def present(self, low: str) -> frozenset[int]:
        """The indices of the words the lowercased ASCII text ``low`` holds, once per text
        within a judgement (every occurrence of every word: an overlapping search)."""
        automaton = self._automaton
        if automaton is None:
            return frozenset()
        memo = current_memo()
        own = None
        if memo is not None:
            # its answers under the vocabulary itself, keyed by the text: the run's when a
            # run is open (:func:`.reading.shared_readings`)
            own = memo.get(self)
            if own is None:
                own = memo[self] = shared_readings(memo, self)
            hit = own.get(low)
            if hit is not None:
                return hit  # type: ignore[no-any-return]
        found = frozenset([m[0] for m in automaton.find_matches_as_indexes(low, overlapping=True)])
        if own is not None:
            own[low] = found
        return found


#: the vocabulary of the cues made at import (:class:`._cue.Cue` registers its wide words)
VOCABULARY = Vocabulary()
