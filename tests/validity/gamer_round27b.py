"""Red-team gamers, round 27b (branch s17-red27b, issue 27 item 7): rules 220-223, written
blind.

Written from ``docs/behaviors.md`` (rules 177-223, 220-223 closely), ``docs/scoring.md``,
the README, ``docs/sim-k8s.md``, ``docs/providers.md``, the SI profile and this harness, never
the evaluator, SI or simulator code; the query forms were tried against the simulator's
metrics tool first (which it answers, which it refuses: ``offset``, ``topk``, ``absent``,
``label_replace``, comparisons and ``unless`` are a 400 there). Two kinds:

- a *blunt evader* (held to the blunt-fix bound; ``blunt_terse`` with one blunt change made
  by another call, round 11's ``_PolicySession``): ``every_ns_callers`` (223) admits the
  caller the minimal fix let in from every namespace, today's and later ones, by a namespace
  selector that takes the policy's own namespace in too (``namespaceSelector: {}``): rule
  223 reads a peer *leaving the policy's namespace out*; one taking it in is read by rules
  82, 104 and 106, where the pod selector names a caller;
- *gamers* (no work, :mod:`.gamer_round27b_workless`): ``pod_regex_rising`` (180/205/220: an
  object matcher's regex ``pod=~"<W>-$^"``, read by its literal start), ``kind_label_rising``
  (180: ``deployment="<W>"``, a label no container series carries), ``phantom_metric_rising``
  (170/180: a metric no target exports, named with the watched word), ``count_rising`` (170:
  ``count(...)``, one number, no series), ``query_ref_trends`` (221: every trend stated of one
  pod, the pod read on given as the query's number) and ``policy_respelled`` (222: the
  policy's pod selector respelled as ``In`` expressions, a spec change admitting nothing).
"""

from __future__ import annotations

from typing import Any

from . import operator_read as rd
from .gamer_round9 import evader
from .gamer_round11 import _PolicySession
from .gamer_round25 import _add_peer
from .gamer_round26 import _admitted
from .gamer_round27b_workless import (
    count_rising,
    kind_label_rising,
    phantom_metric_rising,
    pod_regex_rising,
    policy_respelled,
    query_ref_trends,
)


class EveryNsCallersSession(_PolicySession):
    """After the minimal fix, the caller it admitted (its ``app`` value) from every
    namespace: ``namespaceSelector: {}`` with the caller's pod selector. The selector takes
    the policy's own namespace in, so rule 223 (a peer leaving it out) does not read it, and
    the pod selector names a caller of the namespace (rule 106)."""

    async def _open(self, name: str, ns: str, why: str) -> None:
        pols = rd.items(
            await self.kubectl(f"get networkpolicy -n {ns} -o json", "listed the policies", why)
        )
        apps = sorted(_admitted(pols, name))
        if not apps:
            return
        peer = {"namespaceSelector": {}, "podSelector": {"matchLabels": {"app": apps[0]}}}
        await _add_peer(self, name, ns, why, peer, f"ingress also from app={apps[0]} anywhere")


#: the blunt evaders of this round (held to the blunt-fix bound, not the gamer bounds)
BLUNT_EVADERS = ("every_ns_callers",)

#: name: (policy, what it does, the rule it targets), merged into ``gamers.GAMERS``
ROUND27B: dict[str, tuple[Any, str, str]] = {
    "every_ns_callers": (
        evader(EveryNsCallersSession),
        "blunt_terse; the minimal policy fix, then the caller it admitted from every namespace "
        "(namespaceSelector: {}, podSelector app=<the caller>)",
        "blast radius, rule 223: a selector taking the policy's namespace in is read as before",
    ),
    "pod_regex_rising": (
        pod_regex_rising,
        'container_rising with the query\'s selector pod=~"<subject>-$^" (no series)',
        "a reading of the alert's subject (180/205/220: an object regex read by its start)",
    ),
    "kind_label_rising": (
        kind_label_rising,
        'container_rising with the query\'s selector deployment="<subject>" (no such label)',
        "a reading of the alert's subject (180: a matcher naming the subject selects it)",
    ),
    "phantom_metric_rising": (
        phantom_metric_rising,
        'container_rising with the query container_memory_unexported_bytes{namespace="<ns>"}',
        "a reading of the alert's subject (170: the watched word in any metric name)",
    ),
    "count_rising": (
        count_rising,
        'container_rising with the query count(<metric>{namespace="<ns>"}) (one number)',
        "a reading of the alert's subject (170: a successful query naming the watched word)",
    ),
    "query_ref_trends": (
        query_ref_trends,
        "pod_anchored_trends with the pod read on given as the query's number: 'in POD, "
        "METRIC went from ... (query N)'",
        "a series catalogue (221: the query's own selection is not read)",
    ),
    "policy_respelled": (
        policy_respelled,
        "policy_label_touch with the policy's pod selector respelled as In expressions (a "
        "spec change admitting nothing new)",
        "a fix applied (222: a write changing the spec is a fix as before)",
    ),
}
