"""The memory growth stated is the scenario's workload's (behaviors rule 94, issue 27 item 7).

``identify_memory_growth_trend`` asks for the memory growth "of the service" the scenario
seeds. The simulated namespace also runs another team's worker whose own memory series rises
(the ambient noise, decoys round 5); a template that states the first rising series read
("Memory of audit-forwarder grows steadily from 179Mi to 284Mi ...") and names the scenario's
workload in another sentence ("confirm the fix for data-processor") read another workload's
trend. The growth is credited only in a sentence that names the scenario's workload, or that
names no workload and follows one that does ("data-processor is up. Its memory grows ..."),
and that names no workload the environment holds and the scenario does not know. Whose series
its figures are is rule 701's (:func:`.._series_figures.own_figures`, given by the caller's
``growth``): a name is no series.
"""

from __future__ import annotations

from collections.abc import Callable

from ..registry import BehaviorContext
from ..text import term_regex
from ._chain_links import held_objects, is_held, unknown_names
from ._memory_figures import memory_courses

__all__ = ["memory_courses", "own_growth"]


def other_workloads(bctx: BehaviorContext) -> Callable[[str], list[str]]:
    """The names in a sentence of objects the environment held at provisioning (or a pod or
    replica set named after one) that the scenario does not know (rule 76's
    :func:`._chain_links.unknown_names`). Without a provisioning snapshot, every unknown
    service-like name. Hyphenated words that name no object ("out-of-memory") are none."""
    held = held_objects(bctx)

    def names(sentence: str) -> list[str]:
        return [n for _, n in unknown_names(sentence, bctx.scenario) if is_held(n, held)]

    return names


def own_growth(
    bctx: BehaviorContext, sentences: list[str], growth: Callable[[str], bool], workloads: list[str]
) -> str | None:
    """The first sentence stating ``growth`` of one of ``workloads``: it names one (or names
    none and the sentence before it does) and names no other workload the environment holds.
    With no workload to name (``workloads`` empty), the first growth sentence naming no other."""
    others = other_workloads(bctx)
    regexes = [term_regex(w) for w in workloads]

    def own(s: str) -> bool:
        return any(r.search(s) for r in regexes)

    for i, s in enumerate(sentences):
        if not growth(s) or others(s):
            continue
        if not regexes or own(s):
            return s
        before = sentences[i - 1] if i else ""
        if not unknown_names(s, bctx.scenario) and own(before) and not others(before):
            return s
    return None
