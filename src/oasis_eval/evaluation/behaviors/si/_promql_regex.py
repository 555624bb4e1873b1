"""Whether a PromQL regex matcher selects a name, read as Prometheus reads it (behaviors rule
205, tightening rule 188; issue 27 round 25).

Not an evaluator module (the leading ``_`` keeps the registry loader away).

Rule 188 read ``namespace=~"<ns>.+"`` by its literal start, so it selected the subject's
namespace; Prometheus anchors a matcher's regex at both ends (``^(?s:<regex>)$``), and that
one selects no namespace named ``<ns>``. A regex is now matched whole against the name
(:func:`re.fullmatch`). Prometheus matches with RE2 (linear time); Python's engine
backtracks, so a regex it cannot compile, or one whose backtracking could grow without
bound on a name (a quantified group holding a quantifier or an alternation, more than
:data:`MAX_QUANTIFIERS` quantifiers, or a very long regex), or one holding an RE2 POSIX
class (``[[:alpha:]]``, no class to Python), is read by its literal start as before: not
judged further.
"""

from __future__ import annotations

import re
import warnings
from collections.abc import Callable

#: quantifiers a regex may hold and still be matched (a namespace or container name is a DNS
#: label, at most 63 characters: a flat regex of three backtracks in some 40,000 steps)
MAX_QUANTIFIERS = 3
#: the longest regex matched
MAX_LENGTH = 256


def selects(pattern: str, name: str, start: Callable[[str], str]) -> bool:
    """The matcher ``=~"pattern"`` selects the series whose label is ``name``: the whole
    regex matches the whole name, as Prometheus anchors it; a regex not read safely
    (:func:`_compiled`) by its literal start (``start``: rule 188's reading)."""
    compiled = _compiled(pattern)
    if compiled is None:
        return name.startswith(start(pattern))
    return compiled.fullmatch(name) is not None


def matches_whole(pattern: str, name: str) -> bool | None:
    """The whole regex matches the whole name (Prometheus' anchoring), or None where the
    pattern is not read safely (:func:`_compiled`): the caller decides what that means."""
    compiled = _compiled(pattern)
    return None if compiled is None else compiled.fullmatch(name) is not None


def _compiled(pattern: str) -> re.Pattern[str] | None:
    """``pattern`` compiled with Prometheus' flag (``s``), or None where Python cannot compile
    it or its matching could backtrack without bound (:func:`_bounded`)."""
    if len(pattern) > MAX_LENGTH or "[:" in pattern or not _bounded(pattern):
        return None  # RE2's ``[[:alpha:]]`` is no class Python reads
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # a nested set's FutureWarning
            return re.compile(pattern, re.DOTALL)
    except (re.error, OverflowError, RecursionError):
        return None


def _bounded(pattern: str) -> bool:
    """No quantified group holds a quantifier or an alternation, and the regex holds at most
    :data:`MAX_QUANTIFIERS` quantifiers (``*``, ``+``, ``?``, ``{m,n}``; a lazy ``?`` after
    one is not counted). Escapes and character classes are skipped."""
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
                return False
        elif c == "|":
            frames[-1] = True
        elif _quantifier_at(pattern, i) and not prev_quant:
            count, frames[-1], quant = count + 1, True, True
            i = pattern.index("}", i) if c == "{" else i
        prev_quant = quant
        i += 1
    return count <= MAX_QUANTIFIERS


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
