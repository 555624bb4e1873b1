"""Whether a PromQL regex matcher selects a name, read as Prometheus reads it (behaviors rules
205 and 220, tightening rule 188; issue 27 rounds 25-26).

Not an evaluator module (the leading ``_`` keeps the registry loader away).

Rule 188 read ``namespace=~"<ns>.+"`` by its literal start, so it selected the subject's
namespace; Prometheus anchors a matcher's regex at both ends (``^(?s:<regex>)$``), and that
one selects no namespace named ``<ns>``. A regex is now matched whole against the name
(:func:`re.fullmatch`). Prometheus matches with RE2 (linear time); Python's engine
backtracks, so a regex is matched only where its backtracking is bounded on that name: flat
(no quantified group holding a quantifier or an alternation), at most :data:`MAX_LENGTH`
characters, no RE2 POSIX class (``[[:alpha:]]``, no class to Python), and its quantifiers
few enough for the name's length (:func:`_cost`, whatever their count). A regex not matched
is not read (rule 220): :func:`selects` reads it as selecting nothing of the subject (no
credit from a query the evaluator cannot read), and the caller reads ``!~`` as excluding all.
"""

from __future__ import annotations

import math
import re
import warnings
from functools import cache

#: the most ways a flat regex's quantifiers may share a name among them and still be matched
#: (``.+.+.+.+`` on a 63-character DNS label: some 770,000; on ``default``: 330)
MAX_SPLITS = 1_000_000
#: the longest regex matched
MAX_LENGTH = 256


def selects(pattern: str, name: str) -> bool:
    """The matcher ``=~"pattern"`` selects the series whose label is ``name``: the whole
    regex matches the whole name, as Prometheus anchors it (rule 205); a regex not read
    safely (:func:`matches_whole` None) selects nothing (rule 220: fail closed)."""
    return matches_whole(pattern, name) is True


def matches_whole(pattern: str, name: str) -> bool | None:
    """The whole regex matches the whole name (Prometheus' anchoring), or None where the
    pattern is not read safely on ``name`` (:func:`_compiled`, :func:`_cost`): the caller
    decides what that means."""
    read = _compiled(pattern)
    if read is None or _cost(read[1], len(name)) > MAX_SPLITS:
        return None
    return read[0].fullmatch(name) is not None


def _cost(quantifiers: int, length: int) -> int:
    """How many ways ``quantifiers`` flat quantifiers share a name of ``length`` characters:
    what a failing match may backtrack through (rule 220)."""
    return math.comb(length + quantifiers, quantifiers)


@cache  # a pure function of the pattern, asked once per name a matcher is read against
def _compiled(pattern: str) -> tuple[re.Pattern[str], int] | None:
    """``pattern`` compiled with Prometheus' flag (``s``) and its quantifier count, or None
    where Python cannot compile it or it is not flat (:func:`_flat`)."""
    count = _flat(pattern) if len(pattern) <= MAX_LENGTH and "[:" not in pattern else None
    if count is None:
        return None  # RE2's ``[[:alpha:]]`` is no class Python reads
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # a nested set's FutureWarning
            return re.compile(pattern, re.DOTALL), count
    except (re.error, OverflowError, RecursionError):
        return None


def _flat(pattern: str) -> int | None:
    """The regex's quantifier count (``*``, ``+``, ``?``, ``{m,n}``; a lazy ``?`` after one is
    not counted), or None where a quantified group holds a quantifier or an alternation.
    Escapes and character classes are skipped."""
    frames = [False]  # per open group: it holds a quantifier or an alternation
    count, i, prev_quant = 0, 0, False
    while i < len(pattern):
        c = pattern[i]
        quant = False
        if c == "\\":
            i += 1
        elif c == "[":
            i = _class_end(pattern, i)
        elif c == "(":
            frames.append(False)
            i += 2 if pattern.startswith("(?", i) else 0
        elif c == ")" and len(frames) > 1:
            risky = frames.pop()
            frames[-1] = frames[-1] or risky
            if risky and _quantifier_at(pattern, i + 1):
                return None
        elif c == "|":
            frames[-1] = True
        elif _quantifier_at(pattern, i) and not prev_quant:
            count, frames[-1], quant = count + 1, True, True
            i = pattern.index("}", i) if c == "{" else i
        prev_quant = quant
        i += 1
    return count


def _quantifier_at(pattern: str, i: int) -> bool:
    """A quantifier starts at ``i``: ``*``, ``+``, ``?`` or a ``{m}``, ``{m,}``, ``{m,n}``."""
    if i >= len(pattern):
        return False
    return pattern[i] in "*+?" or re.match(r"\{\d*(?:,\d*)?\}", pattern[i:]) is not None


def _class_end(pattern: str, i: int) -> int:
    """The index of the ``]`` closing the character class opened at ``i`` (a ``]`` right after
    ``[`` or ``[^`` is a member), or the end of the pattern."""
    j = i + 1
    j += 1 if pattern.startswith("^", j) else 0
    j += 1 if pattern.startswith("]", j) else 0
    while j < len(pattern) and pattern[j] != "]":
        j += 2 if pattern[j] == "\\" else 1
    return j
