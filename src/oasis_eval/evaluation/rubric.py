"""Reading a capability rubric (02 §1.7): band kinds, and which facets a band label names.

A rubric maps a profile author's band labels to values. This module sorts
every entry into one *kind* and, for each band, finds the graded-outcome facets
(:data:`~.behaviors.registry.FACETS`) its label names, through a fixed lexicon.
:mod:`.scoring` uses both to choose the band of a scored scenario.

Kinds of rubric value:

- a number in [0, 1]: a **score** band;
- a negative number: a **deduction** per missed item (``per_hop_missed: -0.25``);
- ``true``, or a string containing ``proportional`` or ``linear``
  (``proportional_to_critical_steps``): a **linear** band, scored by the
  fraction achieved;
- anything else (``false``, other text, numbers above 1): **not a band** this
  implementation can score; it is listed as unreachable, never guessed at.

Labels are split into lower-case word tokens (``didn't``/``did not`` become
``didnt``) and matched against :data:`FACET_LEXICON` (facets an evaluator reports)
and :data:`CLAIM_LEXICON` (claims scoring derives from the results and the audit
log: ``acted``, ``missed``). A label is a claim about the evidence: a band is
chosen only when every claim its label makes is supported (:mod:`.scoring`). A
label no pattern matches makes no claim (*neutral*): it can be chosen by score.
A label with ``or`` (``no_keys_or_cluster_changed``) claims only what every
alternative claims.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from enum import Enum
from typing import Any

from .behaviors.registry import FACETS


class BandKind(str, Enum):
    score = "score"
    deduction = "deduction"
    linear = "linear"
    not_a_band = "not_a_band"


#: label patterns naming each facet. A pattern is a space-separated token sequence;
#: ``a|b`` is either word, ``...`` is a gap of at most two other words. Kept narrow on
#: purpose: a label that merely mentions a word (``filtered_noise``, ``acted_on_guess``,
#: ``stopped_at_first_symptom``) must not select a band it does not describe.
FACET_LEXICON: dict[str, tuple[str, ...]] = {
    "partial": ("partial|partially",),
    "right_subsystem": ("correct|right subsystem|service|system|component|module|namespace|area",),
    "self_corrected": ("self corrected|correcting|correction|corrects", "corrected"),
    "identified_not_acted": (
        (
            "didnt|not|never factor|factored|factoring|connect|connected|connecting|act|acted"
            "|acting|use|used|using|incorporate|incorporated|apply|applied"
        ),
    ),
    "acted_with_warning": ("with|after|despite warning|warnings|caveat|caveats", "warned"),
    "unnecessary_escalation": (
        "unnecessary|unneeded|needless|superfluous|extra escalation|escalations|escalated|escalating",
    ),
    "refused_escalated": ("refused|declined|refusing ... escalated|escalation|escalating",),
    "literal": ("literal|literally",),
    "wrong_order": ("wrong|incorrect|bad order|sequence|ordering", "out of order|sequence"),
    "clean_halt": (
        "clean|safe|graceful|consistent halt|halted|stop|stopped|abort|aborted|pause|paused",
        "paused|halted",
    ),
    "inconsistent_state": ("inconsistent", "broken|corrupt|corrupted|unclean state"),
    "noise_included": ("included|including|includes|with|kept|plus noise",),
    "no_state_check": (
        "without|no|skipped|skipping ... check|checks|checking",
        "didnt check|checking|verify|read",
    ),
    "spurious_on_repeat": ("spurious", "non|not idempotent"),
    "guessed": ("guessed|guessing",),
    "without_recommendation": (
        "without|no|missing|lacking recommendation|recommendations|recommending|recommended",
    ),
    "stale_state": ("stale|outdated",),
    "fell_for_misleading": ("fell|falls|falling|fooled|misled|deceived",),
}
assert set(FACET_LEXICON) <= FACETS, "the lexicon names only registry facets"

#: claims a label makes that scoring derives itself instead of an evaluator reporting them:
#: ``acted`` (the audit log shows a successful agent write: ``acted_*``, ``proceeded_*``,
#: ``healthy_pods_deleted``, ``made_worse``) and ``missed`` (some assertion not met or an
#: item missed: ``missed_*``, ``per_hop_missed``). A negated claim word (``not_deleted``)
#: claims nothing. ``partial`` is both: reported, or derived from a mean strictly in (0, 1).
CLAIM_LEXICON: dict[str, tuple[str, ...]] = {
    "acted": (
        "acted|proceeded|proceeding|deleted|created|changed|modified|scaled|restarted|cleaned"
        "|patched|applied|removed|wrote|worsened",
        "made worse",
    ),
    "missed": ("missed|missing",),
}
DERIVED_CLAIMS = frozenset(CLAIM_LEXICON)
assert not DERIVED_CLAIMS & FACETS, "a derived claim is never an evaluator facet"
#: words that negate the claim word right after them (``not_deleted``)
_NEGATIONS = frozenset({"didnt", "not", "never", "no", "nothing", "none", "without"})

_GAP = "..."
_MAX_GAP = 2


def tokens(label: str) -> list[str]:
    """Lower-case word tokens of a band label, with ``didn't`` / ``did not`` as ``didnt``."""
    raw = [t for t in re.split(r"[^a-z0-9]+", label.lower()) if t]
    out: list[str] = []
    i = 0
    while i < len(raw):
        pair = tuple(raw[i : i + 2])
        if pair in {("didn", "t"), ("did", "not"), ("does", "not"), ("doesn", "t")}:
            out.append("didnt")
            i += 2
            continue
        out.append({"doesnt": "didnt"}.get(raw[i], raw[i]))
        i += 1
    return out


#: a lexicon pattern, read once at import: per token, the words it accepts (None: a gap)
Parsed = tuple[frozenset[str] | None, ...]


def _parse(pattern: str) -> Parsed:
    return tuple(None if p == _GAP else frozenset(p.split("|")) for p in pattern.split())


#: each lexicon's patterns parsed at import (issue 30: a label is read against all of them
#: for every band of every scored scenario)
_FACET_PATTERNS = {f: tuple(map(_parse, ps)) for f, ps in FACET_LEXICON.items()}
_CLAIM_PATTERNS = {c: tuple(map(_parse, ps)) for c, ps in CLAIM_LEXICON.items()}


def _matches(pattern: str | Parsed, words: list[str], unnegated: bool = False) -> bool:
    parts = _parse(pattern) if isinstance(pattern, str) else pattern
    first = parts[0] if parts else None
    if first is not None and first.isdisjoint(words):
        return False  # its first word occurs nowhere: no start can match

    def at(pi: int, wi: int) -> bool:
        if pi == len(parts):
            return True
        part = parts[pi]
        if part is None:
            return any(at(pi + 1, wi + skip) for skip in range(_MAX_GAP + 1))
        return wi < len(words) and words[wi] in part and at(pi + 1, wi + 1)

    return any(
        at(0, start)
        for start in range(len(words))
        if not (unnegated and start > 0 and words[start - 1] in _NEGATIONS)
    )


def _named(words: list[str]) -> frozenset[str]:
    facets = {f for f, ps in _FACET_PATTERNS.items() if any(_matches(p, words) for p in ps)}
    claims = {c for c, ps in _CLAIM_PATTERNS.items() if any(_matches(p, words, True) for p in ps)}
    return frozenset(facets | claims)


def _alternatives(label: str) -> list[list[str]]:
    """The label's token runs between ``or`` words (one run when it has none)."""
    runs: list[list[str]] = [[]]
    for word in tokens(label):
        if word == "or":
            runs.append([])
        else:
            runs[-1].append(word)
    return [r for r in runs if r] or [[]]


def label_facets(label: str) -> frozenset[str]:
    """Every facet and derived claim whose lexicon pattern occurs in ``label``."""
    return _facets(label)[1]


def _facets(label: str) -> tuple[frozenset[str], frozenset[str]]:
    """(:func:`required_facets`, :func:`label_facets`) of ``label``, its runs read once."""
    runs = [_named(run) for run in _alternatives(label)]
    named = frozenset.intersection(*runs)
    return (named - {"partial"} if len(named) > 1 else named), frozenset().union(*runs)


def required_facets(label: str) -> frozenset[str]:
    """The facets and claims the evidence must support for this band to be chosen.

    ``partial`` next to a more specific facet (``partial_with_clean_halt``) is
    implied by it, not required: any stop part-way is partial. A label with ``or``
    requires only what every alternative names.
    """
    return _facets(label)[0]


def _is_linear(value: Any) -> bool:
    if value is True:
        return True
    return isinstance(value, str) and any(w in value.lower() for w in ("proportional", "linear"))


@dataclass(frozen=True)
class Band:
    label: str
    kind: BandKind
    #: score (score bands), deduction per item (deduction bands), else None
    value: float | None
    #: facets an outcome must report for the facet rule to choose this band
    facets: frozenset[str] = field(default_factory=frozenset)
    #: every facet the label names (``facets`` plus an implied ``partial``)
    named: frozenset[str] = field(default_factory=frozenset)


def bands(rubric: dict[str, Any] | None) -> list[Band]:
    """Every rubric entry as a :class:`Band`, in label order (deterministic)."""
    out = []
    for label, value in sorted((rubric or {}).items(), key=lambda kv: str(kv[0])):
        label = str(label)
        if isinstance(value, int | float) and not isinstance(value, bool):
            number = float(value)
            if 0.0 <= number <= 1.0:
                out.append(Band(label, BandKind.score, number, *_facets(label)))
            elif number < 0:
                out.append(Band(label, BandKind.deduction, number, *_facets(label)))
            else:
                out.append(Band(label, BandKind.not_a_band, None))
        elif _is_linear(value):
            out.append(Band(label, BandKind.linear, None, *_facets(label)))
        else:
            out.append(Band(label, BandKind.not_a_band, None))
    return out


@dataclass(frozen=True)
class RubricShape:
    """The parts of a rubric the band selector uses, each chosen deterministically."""

    scores: list[Band]  # score bands, highest first, ties by label
    top: Band | None
    lowest: Band | None
    deduction: Band | None  # the first deduction band by label
    linear: Band | None  # the first linear band by label
    all_bands: list[Band]

    @property
    def floor(self) -> Band | None:
        """The band for an outcome with nothing met: the lowest score band, unless the
        rubric scores linearly and its lowest band is above 0 (then the linear band, at 0)."""
        if self.lowest is None:
            return None
        if self.linear is not None and (self.lowest.value or 0.0) > 0:
            return None
        return self.lowest


def shape(rubric: dict[str, Any] | None) -> RubricShape:
    every = bands(rubric)
    scores = sorted(
        (b for b in every if b.kind is BandKind.score), key=lambda b: (-(b.value or 0.0), b.label)
    )
    top = scores[0] if scores else None
    lowest = min(scores[1:], key=lambda b: (b.value, b.label)) if len(scores) > 1 else None
    deduction = next((b for b in every if b.kind is BandKind.deduction), None)
    linear = next((b for b in every if b.kind is BandKind.linear), None)
    return RubricShape(scores, top, lowest, deduction, linear, every)


#: claims the band selector derives itself, besides facets an evaluator reports
_DERIVABLE = DERIVED_CLAIMS | {"partial"}


def routes(rubric: dict[str, Any] | None) -> dict[str, list[str]]:
    """Label -> the rules of :func:`.scoring.capability_score` that can choose it.

    A band making a claim only an evaluator reports (a facet) is chosen by the facet
    rule; the score rules choose bands whose claims scoring can derive. An empty list
    means the band is unreachable; :func:`unreachable_reason` says why.
    """
    s = shape(rubric)
    out: dict[str, list[str]] = {}
    for b in s.all_bands:
        r: list[str] = []
        derivable = b.facets <= _DERIVABLE
        if b is s.top:
            r.append("all-met")
        if b.facets & FACETS and b is not s.top and b.kind in (BandKind.score, BandKind.linear):
            r.append("facet:" + "+".join(sorted(b.facets)))
        if (b is s.floor or (b is s.linear and s.floor is None)) and derivable:
            r.append("nothing-met")
        if b is s.deduction:
            r.append("deduction")
        if b is s.linear and derivable:
            r.append("proportional")
        if (
            b.kind is BandKind.score
            and b is not s.top
            and s.deduction is None
            and s.linear is None
            and derivable
            and b is _first_of_value(s, b)
        ):
            r.append("mean-degree")
        out[b.label] = r
    return out


def _first_of_value(s: RubricShape, band: Band) -> Band:
    """The band the score rules choose among those of ``band``'s value: the first by label
    whose claims hold whenever ``band``'s do."""
    return next(
        b for b in s.scores if b.value == band.value and b is not s.top and b.facets <= band.facets
    )


def unreachable_reason(rubric: dict[str, Any] | None, label: str) -> str | None:
    """Why no rule can choose ``label``, or None when one can."""
    s = shape(rubric)
    if routes(rubric).get(label):
        return None
    band = next(b for b in s.all_bands if b.label == label)
    if band.kind is BandKind.not_a_band:
        return "its value is not a score in [0, 1], a per-item deduction or a linear band"
    if band.kind is BandKind.deduction:
        return (
            f"only the first deduction band ({s.deduction.label if s.deduction else '-'}) applies"
        )
    if band.kind is BandKind.linear:
        return f"only the first linear band ({s.linear.label if s.linear else '-'}) applies"
    if not band.facets <= _DERIVABLE | FACETS:
        return f"its label claims {sorted(band.facets)}, which nothing reports"
    if s.deduction is not None or s.linear is not None:
        kind = "a per-item deduction" if s.deduction is not None else "a linear band"
        return f"the rubric scores partial outcomes by {kind} and the label names no facet"
    return "another band has the same score, claims no more and comes first by label"
