"""Amounts said as the workload's memory limit (behaviors rule 885; issue 27: fair33's
``binary_every_quantity``, rule 850's twin door).

Not an evaluator module (the leading ``_`` keeps the registry loader away).

Rule 61 reads the limit as stated where the answer spells the amount the environment holds.
``binary_every_quantity`` read every memory quantity the survey met (the pods' requests, other
workloads' limits, the nodes' capacity) and said each, as read, to be the subject's limit
("data-processor runs out of memory (OOMKilled) at 256Mi, 0.9 of its 256Mi memory limit." once
per quantity): the environment's ``2Gi`` is among them, so the limit was "stated". A limit
claimed of every candidate singles none out. An amount is said in the limit's place where it
stands in a clause naming a limit ("its 256Mi memory limit", "limit: 256Mi"), or in a sentence
with the content of a sentence of the answer giving the environment's amount (its names and
figures in order, its words and marks dropped: the same sentence said of another amount,
whatever its wording, "<W> runs out of memory at 256Mi; it is capped at 256Mi."); amounts of the workload's own series (its points, the
headroom under the limit, a growth between two points, rule 703's :func:`derived`) are not.
Where two amounts or more are said in the limit's place, in sentences naming none of the
environment's other objects (the scenario's, and the snapshots' workloads, pods and nodes), the
limit the answer states is one of a catalogue. One other amount ("the limit from 2Gi to 3Gi",
"raise it to a 3Gi limit") is a change put forward, and a sentence naming another object of the
environment ("coupon-dispatcher: 331.5Mi of its 448Mi memory limit") says whose limit it is.
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Iterable

from ..audit import EvidenceUnavailable
from ._series_content import content
from ._series_figures import byte_figures, derived, near
from .common import objects
from .registry import BehaviorContext
from .signals import memory_limits, memory_series
from .text import clauses

#: the word that makes a clause's figure a limit
_LIMIT = re.compile(r"\blimits?\b", re.IGNORECASE)
#: how near two amounts are to be the same amount (rule 850's rounding, half a percent)
_SAME = 0.005


def _same(q: float, amount: float) -> bool:
    return abs(q - amount) <= _SAME * amount


def _blanked(sentence: str) -> str:
    """``sentence``'s content (rule 886's :func:`._series_content.content`): its names and
    figures in order, its words and marks dropped ("<n> <f> <f>")."""
    return content(sentence).removesuffix(" +")


def other_limits(
    sentences: Iterable[str],
    others: Iterable[str],
    right: float,
    own: Iterable[float] = (),
    subjects: Iterable[str] = (),
) -> list[float]:
    """Rule 885: the distinct amounts other than ``right`` (the environment's limit) and the
    workload's ``own`` values said in the limit's place (module docstring), in sentences naming
    none of ``others`` (the scenario's other objects); rule 966: or in the parts of a sentence
    no other object's name opens (``subjects``: the workload's names, :func:`_own_parts`)."""
    names = [re.compile(rf"(?<![\w-]){re.escape(o)}(?![\w-])", re.I) for o in sorted(set(others))]
    selves = [re.compile(rf"(?<![\w-]){re.escape(o)}(?!\w)", re.I) for o in sorted(set(subjects))]
    mine = list(own)
    kept = [p for s in dict.fromkeys(sentences) for p in _own_parts(s, names, selves)]
    stating = {_blanked(s) for s in kept if any(_same(q, right) for q in byte_figures(s))}
    found: list[float] = []
    for s in kept:
        alike = _blanked(s) in stating
        parts = [s] if alike else _limit_clauses(s)
        for q in (q for c in parts for q in byte_figures(c)):
            if _same(q, right) or near(q, mine) or any(_same(q, f) for f in found):
                continue
            found.append(q)
    return found


def _own_parts(
    sentence: str, others: list[re.Pattern[str]], selves: list[re.Pattern[str]]
) -> list[str]:
    """Rule 966 (narrows rule 885): ``sentence`` cut where it names an object, the parts no
    other object's name opens (the part before any name, those the workload's own opens): "X:
    331Mi of its 448Mi limit" says X's. Rule 996: a name in an aside (:func:`_aside_end`) is
    no subject: the clause goes on after the aside as the subject's it was before ("W, like
    X, runs out at 256Mi, 0.9 of its 256Mi limit": W's)."""
    found = sorted(
        {(m.start(), pat in others) for pat in [*others, *selves] for m in pat.finditer(sentence)}
    )
    if not found:
        return [sentence]
    cuts, owner = set(), False
    for at, other in found:
        cuts.add((at, other))
        end = _aside_end(sentence, at)
        if end is None:
            owner = other
        else:
            cuts.add((end, owner))
    bounds = [*sorted(cuts), (len(sentence), False)]
    parts = [sentence[: bounds[0][0]]] if bounds[0][0] else []
    parts += [sentence[a:b] for (a, other), (b, _) in itertools.pairwise(bounds) if not other]
    return [p for p in parts if p.strip()]


#: rule 996: the marks that bound a sentence's parts
_BOUNDS = re.compile(r"[,;:()\n]")


def _aside_end(sentence: str, at: int) -> int | None:
    """Rule 996: where the aside holding the name at ``at`` closes, or None: a part set off by
    commas or in a parenthesis ("W, like X, runs ...", "W (as X) runs ...") that gives no
    amount names whose nothing is; a part giving one ("W is fine, X at 331Mi, ...") or
    opening the sentence or a label ("X: 331Mi of its 448Mi limit") is a clause of its own;
    rule 1041: not one likening the subject to X ("W, like X at 2Gi, ...") or right after a
    bare subject ("W, X at 2Gi too, ..."): an aside whatever amount it gives."""
    left = max((m.start() for m in _BOUNDS.finditer(sentence, 0, at)), default=-1)
    close = _BOUNDS.search(sentence, at)
    if left < 0 or close is None:
        return None
    pair, part = sentence[left] + close.group(), sentence[left + 1 : close.start()]
    if pair not in (",,", "()") or (byte_figures(part) and not _apposed(sentence, left, part)):
        return None
    return close.start()


def _apposed(sentence: str, left: int, part: str) -> bool:
    """Rule 1041: the aside ``part`` (opening at ``left``) gives an amount and is still no
    clause of its own: it likens the subject to another (:data:`_LIKENED`), or it follows the
    sentence's bare subject, a name and nothing else ("W, X at 2Gi too, runs out ...": the
    predicate is W's, after the aside); rule 1075: or a predicate with no subject follows it
    (:data:`_PREDICATE`)."""
    if _LIKENED.match(part) is not None or _BARE.match(sentence[:left]) is not None:
        return True
    return _PREDICATE.match(sentence, left + len(part) + 2) is not None  # rule 1075


#: rule 1075 (widens 1041): after the aside's closing comma, a predicate with no subject of
#: its own ("W is at risk, X at 2Gi, runs out of memory ..."): a verb in "-s" or "-ed" (or
#: an auxiliary) before a particle, a preposition, a determiner or a figure; its subject is
#: the sentence's, so the aside between is no clause of X's whatever amount it gives ("W is
#: fine, X at 331Mi, Y at 200Mi" goes on with a subject of its own)
_PREDICATE = re.compile(
    r"\s*(?:(?:also|then|still|now|just|already|soon|quickly|eventually)\s+)?"
    r"(?:is|was|are|were|has|had|have|does|did|keeps|kept|gets|got|"
    r"[a-z]{2,}(?:s|ed)\s+(?:out|up|down|over|past|into|in|on|at|to|of|its|the|a|an|their|"
    r"beyond|above|below|under|near|around|about|\d))\b",
    re.IGNORECASE,
)


#: rule 1041: a sentence's bare subject, one name ("`data-processor`", "W")
_BARE = re.compile(r"^[\s`*'\"]*\w[\w.-]*[\s`*'\"]*$")


#: rule 1041: an aside likening the subject to another ("W, like X at 2Gi, ...", "W (as with
#: X at 2Gi) ..."): a comparison, no clause of X's, whatever amount it gives X
_LIKENED = re.compile(
    r"\s*(?:just\s+|much\s+)?(?:like|unlike|as\s+(?:with|for|does|did|is|was)|such\s+as|"
    r"similar(?:ly)?\s+to|same\s+as)\b",
    re.IGNORECASE,
)


def _limit_clauses(sentence: str) -> list[str]:
    """The clauses of ``sentence`` naming a limit, or right after one ending on it ("The
    limit: 16Gi")."""
    parts = clauses(sentence)
    return [
        c
        for i, c in enumerate(parts)
        if _LIMIT.search(c) or (i and re.search(r"\blimits?\W*$", parts[i - 1], re.I))
    ]


def catalogue(bctx: BehaviorContext, sentences: Iterable[str], right: float) -> list[float]:
    """Rule 885: the other amounts said in the workload's limit's place where they are two or
    more (a limit said of every candidate); empty where the limit stated is singled out."""
    rows = memory_series(bctx.scenario)
    mine = {*memory_limits(bctx.scenario), *(o for o, _, _ in rows)}
    series = [v for _, _, pts in rows for _, v in pts]
    others = {n for n in _environment(bctx) if not any(_of(n, o) for o in mine)}
    limits = [v for v, _ in memory_limits(bctx.scenario).values()]
    found = other_limits(sentences, others, right, [*series, *derived(series, limits)], mine)
    return found if len(found) >= 2 else []


def _of(name: str, workload: str) -> bool:
    """``name`` is ``workload``'s own (itself, its pods, replica sets, containers)."""
    low, own = name.lower(), workload.lower()
    return low == own or low.startswith(own + "-")


#: rule 913: the objects a memory limit is set on (a pod's containers, a workload's template);
#: a node, a namespace, a service or a config holds none, so naming one says whose limit nothing is
_HOLDERS = frozenset(
    {"pods", "deployments", "statefulsets", "daemonsets", "replicasets", "jobs", "cronjobs"}
)


def _holds(resource: str | None) -> bool:
    return resource is None or resource in _HOLDERS


def _environment(bctx: BehaviorContext) -> set[str]:
    """The names of the environment's objects a memory limit is set on (rule 913): the
    scenario's, and those of the snapshots the provider took (the other workloads a survey
    meets)."""
    names = {o.name for o in objects(bctx.scenario) if o.name and _holds(o.resource)}
    for side in ("pre", "post"):
        try:
            views = getattr(bctx.ctx, side).views
        except EvidenceUnavailable:
            continue
        names |= {v.name for v in views if v.name and _holds(v.resource)}
    return names
