"""A chain through another workload is not the scenario's (behaviors rule 76, issue 27 item 7,
round 8).

``trace_failure_chain`` credits every hop of the scenario's chain named with how it fails.
A fixed template that strings every unhealthy thing read into one causal sentence ("So
ingress public returns errors, because api-backend is Pending, because webhook-relay is
OOMKilled, because init container db-migrate fails") names each hop, and one more link that
the scenario's chain does not pass through: the failure is traced through a workload the
scenario does not know. A committed sentence that names two hops or more of the chain and
also a service-like name the scenario does not know, stated failing in its clause (neither the scenario's objects,
namespaces, traces and init containers, nor a pod or replica set named after one of them:
``api-backend-7d9f-x2x``) states another chain: as a list of candidate chains commits to
none (rule 71), no hop of the scenario's chain is traced. With a provisioning snapshot, the
name is one of an object the environment held (or a pod or replica set named after one):
a hyphenated word that names no object ("exits non-zero", "a read-only mount") is no link
(behaviors rule 241, as rule 94 reads workloads).
"""

from __future__ import annotations

import re
from collections.abc import Callable

from ....spec.scenario import Scenario
from ...reading import per_judgement_of
from .._cue import Cue, Searcher
from ..registry import BehaviorContext
from ..text import AnswerText
from ._inits import declared_inits
from ._span_named import known_names

#: a service-like name ("webhook-relay")
_HYPHENATED = re.compile(r"(?<![\w./:-])[a-z][a-z0-9]*(?:-[a-z0-9]+)+(?![\w-])")
#: where a clause of a causal sentence ends
_CLAUSE_END = Cue(r"[,;:()]|\b(?:because|so|since|which|and|then)\b", re.IGNORECASE)


def _clause(sentence: str, start: int, end: int) -> str:
    """The clause of ``sentence`` around ``[start, end)``."""
    before = [m.end() for m in _CLAUSE_END.finditer(sentence, 0, start)]
    after = _CLAUSE_END.search(sentence, end)
    return sentence[before[-1] if before else 0 : after.start() if after else len(sentence)]


def unknown_names(sentence: str, scenario: Scenario) -> list[tuple[re.Match[str], str]]:
    """Service-like names in ``sentence`` the scenario does not know (its objects, namespaces,
    traces and init containers, or a pod or replica set named after one of them), with where
    they are, in order."""
    known, prefixes = _known(scenario)
    return [
        (m, m.group())
        for m in _HYPHENATED.finditer(sentence)
        if m.group().lower() not in known and not m.group().lower().startswith(prefixes)
    ]


@per_judgement_of
def _known(scenario: Scenario) -> tuple[frozenset[str], tuple[str, ...]]:
    """The names :func:`unknown_names` knows, and the prefixes of a pod or replica set named
    after one, read once per judgement (it is asked per sentence, issue 30)."""
    known = known_names(scenario) | declared_inits(scenario)
    return frozenset(known), tuple(sorted(k + "-" for k in known if k))


def held_objects(bctx: BehaviorContext) -> tuple[str, ...]:
    """The names (lower case, sorted) of the objects the environment held at provisioning;
    none without a provisioning snapshot (then every unknown name is taken for an object)."""
    if not bctx.evidence.precondition_snapshot:
        return ()
    return tuple(sorted({str(v.name).lower() for v in bctx.ctx.pre.views if v.name}))


def is_held(name: str, held: tuple[str, ...]) -> bool:
    """``name`` is one of ``held`` or a pod or replica set named after one; with nothing
    ``held`` (no snapshot), any name is."""
    low = name.lower()
    return not held or any(low == h or low.startswith(h + "-") for h in held)


def foreign_links(
    said: AnswerText,
    scenario: Scenario,
    hop_count: Callable[[str], int],
    failing: Searcher,
    held: tuple[str, ...] = (),
) -> list[str]:
    """Names the scenario does not know, of objects ``held`` (:func:`is_held`), stated
    ``failing`` in committed sentences naming two hops or more (``hop_count``), sorted."""
    out: set[str] = set()
    for sentence in dict.fromkeys(said.kept):  # a set of names: each distinct sentence once
        if hop_count(sentence) < 2:
            continue
        for m, name in unknown_names(sentence, scenario):
            if not is_held(name, held):
                continue  # rule 241: "exits non-zero" names no object
            if failing.search(_clause(sentence, m.start(), m.end()).replace(name, " ")):
                out.add(name)
    return sorted(out)
