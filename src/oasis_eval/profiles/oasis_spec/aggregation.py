"""Category aggregation text -> :class:`Aggregation` (core §4.3, profiles 03 §2.5).

Profiles describe how archetype scores roll up in words: "Minimum",
"Weighted average (trace nav 1.5x)", or "Weighted average. Multi-signal and
cascading archetypes weighted 1.5x." We read the method, then every
``<phrase> <factor>x`` clause, and resolve each phrase to the category's
archetypes by word-prefix matching against archetype names ("trace nav" ->
"Trace Navigation"); an archetype id also matches itself. Nothing here knows
any particular profile's archetypes.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from ...spec.profile import Aggregation, AggregationMethod, Archetype
from .common import phrase_matches, split_names, words
from .markdown import strip_inline

_FACTOR = re.compile(r"(?<![\w.])(\d+(?:\.\d+)?|\.\d+)\s*[x×](?![a-z])", re.IGNORECASE)
# a clause ends at brackets, semicolons, colons and sentence ends (a dot not inside a number)
_BOUNDARY = re.compile(r"[()\[\];:]|\.(?!\d)")
_METHODS = (
    (re.compile(r"\bmin(?:imum)?\b", re.IGNORECASE), AggregationMethod.minimum),
    (
        re.compile(r"\b(?:weighted\s+)?(?:average|mean)\b", re.IGNORECASE),
        AggregationMethod.weighted_average,
    ),
)
_FILLER = {
    "weighted",
    "weight",
    "weights",
    "weighting",
    "archetype",
    "archetypes",
    "at",
    "by",
    "is",
    "are",
    "with",
    "where",
    "the",
    "of",
    "x",
    "counts",
    "count",
    "counted",
    "as",
    "score",
    "scores",
    "average",
    "mean",
    "minimum",
}


@dataclass
class ParsedAggregation:
    """The aggregation plus what could not be understood (phrases, method)."""

    aggregation: Aggregation | None
    unresolved: list[str] = field(default_factory=list)
    problems: list[str] = field(default_factory=list)


def parse_aggregation(text: str, archetypes: list[Archetype]) -> ParsedAggregation:
    """Read an aggregation description against one category's archetypes."""
    plain = strip_inline(text)
    out = ParsedAggregation(None)
    if not plain:
        out.problems.append("aggregation text is empty")
        return out
    method = _method(plain)
    weights: dict[str, float] = {}
    for phrase, factor in _clauses(plain):
        matched = resolve_phrase(phrase, archetypes)
        if not matched:
            out.unresolved.append(phrase)
            continue
        for arch in matched:
            weights[arch.id] = factor
    if method is None:
        if weights:
            method = AggregationMethod.weighted_average
        else:
            out.problems.append(f"no aggregation method in '{plain}'")
            return out
    if method is AggregationMethod.minimum and weights:
        out.problems.append("weights given for a minimum aggregation are ignored")
        weights = {}
    out.aggregation = Aggregation(method=method, weights=dict(sorted(weights.items())), text=plain)
    return out


def _method(text: str) -> AggregationMethod | None:
    # the first method keyword in the text wins ("Weighted average ... minimum ..." is an average)
    best: tuple[int, AggregationMethod] | None = None
    for rx, method in _METHODS:
        m = rx.search(text)
        if m and (best is None or m.start() < best[0]):
            best = (m.start(), method)
    return best[1] if best else None


def _clauses(text: str) -> list[tuple[str, float]]:
    """``(phrase, factor)`` for every ``<phrase> <factor>x`` in ``text``."""
    out: list[tuple[str, float]] = []
    previous_end = 0
    for m in _FACTOR.finditer(text):
        head = text[previous_end : m.start()]
        cuts = [b.end() for b in _BOUNDARY.finditer(head)]
        clause = head[cuts[-1] :] if cuts else head
        previous_end = m.end()
        factor = float(m.group(1))
        for part in split_names(clause, conjunction=True):
            phrase = _trim(part)
            if phrase:
                out.append((phrase, factor))
    return out


def _trim(part: str) -> str:
    tokens = part.split()
    while tokens and tokens[0].lower().strip(".,") in _FILLER:
        tokens.pop(0)
    while tokens and tokens[-1].lower().strip(".,") in _FILLER:
        tokens.pop()
    return " ".join(tokens).strip(" .,")


def resolve_phrase(phrase: str, archetypes: list[Archetype]) -> list[Archetype]:
    """Archetypes whose id is ``phrase`` or whose name word-prefix-matches it."""
    exact = [a for a in archetypes if a.id.lower() == phrase.strip().lower()]
    if exact:
        return exact
    pw = words(phrase)
    hits = [a for a in archetypes if phrase_matches(pw, words(a.name))]
    if not hits and pw and pw[-1].endswith("s") and len(pw[-1]) > 3:  # plural: "correlations"
        singular = [*pw[:-1], pw[-1][:-1]]
        hits = [a for a in archetypes if phrase_matches(singular, words(a.name))]
    return hits


def same_aggregation(a: Aggregation, b: Aggregation) -> bool:
    """Equal method and effective weights (an explicit 1.0 equals an omitted weight)."""
    if a.method is not b.method:
        return False
    keys = set(a.weights) | set(b.weights)
    return all(abs(a.weight(k) - b.weight(k)) < 1e-9 for k in keys)


def describe(agg: Aggregation) -> str:
    """``"weighted_average {C-DA-002: 1.5}"`` for messages."""
    if not agg.weights:
        return agg.method.value
    inner = ", ".join(f"{k}: {v:g}" for k, v in sorted(agg.weights.items()))
    return f"{agg.method.value} {{{inner}}}"
