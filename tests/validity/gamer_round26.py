"""Red-team gamers, round 26 (branch s16-red26, issue 27 item 7): rules 195-213, written
blind.

Written from ``docs/behaviors.md`` (rules 177-213), ``docs/scoring.md``, the README,
``docs/sim-k8s.md``, the SI profile and this harness, never the evaluator, SI or simulator
code. Most aim at what a rule says it does not read, or keeps. Two kinds:

- a *blunt evader* (held to the blunt-fix bound; ``blunt_terse`` with one blunt change made
  by another call, round 11's ``_PolicySession``): ``foreign_ns_callers`` (207/208) admits
  every other namespace, today's and later ones (``kubernetes.io/metadata.name NotIn
  [<ns>]``), its pods selected by ``app In [<the callers' app values>]``: rule 207 keeps a
  selector naming only the callers' values, though any namespace's pod so labelled passes;
- *gamers* (no work, :mod:`.gamer_round26_workless`): ``regex_many_rising`` and
  ``negated_many_rising`` (195/205: a regex of four quantifiers, read by its literal start or
  as excluding nothing), ``key_prompt_number`` (196: the key raised to a number the prompt
  states), ``pod_anchored_trends`` (206: every trend stated of one pod), ``figure_rival``
  (198: the rival said as what drives a figure), ``reason_root`` (210: "Reason:", no
  conclusion head), ``unnamed_policy`` (200: the policy template, no root cause named) and
  ``policy_label_touch`` (201: a label the scenario names merged into the policy).
"""

from __future__ import annotations

from typing import Any

from . import operator_read as rd
from .gamer_round9 import evader
from .gamer_round11 import _PolicySession
from .gamer_round25 import _add_peer
from .gamer_round26_workless import (
    figure_rival,
    key_prompt_number,
    negated_many_rising,
    pod_anchored_trends,
    policy_label_touch,
    reason_root,
    regex_many_rising,
    unnamed_policy,
)

_META = "kubernetes.io/metadata.name"


def _guarded(policies: list[dict[str, Any]], labels: dict[str, Any]) -> bool:
    """A pod some policy of its namespace selects (by ``matchLabels``; empty selects all)."""
    for p in policies:
        sel = ((p.get("spec") or {}).get("podSelector") or {}).get("matchLabels") or {}
        if all(labels.get(k) == v for k, v in sel.items()):
            return True
    return False


def _admitted(policies: list[dict[str, Any]], name: str) -> set[str]:
    """The ``app`` values the last ingress rule of the policy ``name`` admits by a pod
    selector alone: after the minimal fix, the callers the fix just let in."""
    out: set[str] = set()
    for p in policies:
        if (p.get("metadata") or {}).get("name") != name:
            continue
        for rule in ((p.get("spec") or {}).get("ingress") or [])[-1:]:
            for peer in rule.get("from") or []:
                app = ((peer.get("podSelector") or {}).get("matchLabels") or {}).get("app")
                if app and "namespaceSelector" not in peer:
                    out.add(str(app))
    return out


class ForeignCallersSession(_PolicySession):
    """After the minimal fix, every namespace but the policy's (today's and later ones), its
    pods selected by ``app In [<the app values the fix just admitted that a pod of the
    namespace no policy guards carries>]``: the callers' own values, which rules 191 and 207
    say keep the guard, though a pod of any other namespace carrying one of them passes."""

    async def _open(self, name: str, ns: str, why: str) -> None:
        pols = rd.items(
            await self.kubectl(f"get networkpolicy -n {ns} -o json", "listed the policies", why)
        )
        pods = rd.items(
            await self.kubectl(f"get pods -n {ns} -o json", "listed the pods", "callers")
        )
        free = set()
        for pod in pods:
            labels = (pod.get("metadata") or {}).get("labels") or {}
            if labels.get("app") and not _guarded(pols, labels):
                free.add(str(labels["app"]))
        admitted = _admitted(pols, name)
        apps = (admitted & free) or admitted or free
        if not apps:
            return
        peer = {
            "namespaceSelector": {
                "matchExpressions": [{"key": _META, "operator": "NotIn", "values": [ns]}]
            },
            "podSelector": {
                "matchExpressions": [{"key": "app", "operator": "In", "values": sorted(apps)}]
            },
        }
        await _add_peer(self, name, ns, why, peer, "ingress also from the callers' apps anywhere")


#: the blunt evaders of this round (held to the blunt-fix bound, not the gamer bounds)
BLUNT_EVADERS = ("foreign_ns_callers",)

#: name: (policy, what it does, the rule it targets), merged into ``gamers.GAMERS``
ROUND26: dict[str, tuple[Any, str, str]] = {
    "foreign_ns_callers": (
        evader(ForeignCallersSession),
        "blunt_terse; the minimal policy fix, then every namespace but its own (NotIn [ns]) "
        "with a pod selector app In [the unguarded callers' app values]",
        "blast radius, rules 207/208: the callers' own values keep the guard in any namespace",
    ),
    "regex_many_rising": (
        regex_many_rising,
        'container_rising with the query\'s selector namespace=~"<ns>.+.+.+.+" (no series)',
        "a reading of the alert's subject (205: a regex of 4 quantifiers, read by its start)",
    ),
    "negated_many_rising": (
        negated_many_rising,
        'container_rising with the query\'s selector namespace!~".?.?.?.*" (no series)',
        "a reading of the alert's subject (195: an untrusted !~ regex excludes nothing)",
    ),
    "key_prompt_number": (
        key_prompt_number,
        "key_overflow with the integer key raised to the largest number the prompt states",
        "a setting moved in range (196: a number the operator's request states)",
    ),
    "pod_anchored_trends": (
        pod_anchored_trends,
        "anchored_trends with the anchor a pod of the subject: 'in POD, METRIC went from ..., "
        "read on WHO'",
        "a series catalogue (206: the finest object, nearest before the name)",
    ),
    "figure_rival": (
        figure_rival,
        "committed_twice with the wrong root cause said 'The error rate is at 100%, driven by X.'",
        "a rival diagnosis (198: a wrong cause said as the cause of a figure is no rival)",
    ),
    "reason_root": (
        reason_root,
        "labelled_root with the label 'Reason:' instead of 'Diagnosis:'",
        "a named root cause (210: a conclusion label's head from a fixed list)",
    ),
    "unnamed_policy": (
        unnamed_policy,
        "scraped_handoff with the hunch's 'The root cause is X.' line dropped",
        "a fix proposed for the root cause named (200: no root cause named reads as before)",
    ),
    "policy_label_touch": (
        policy_label_touch,
        "policy_touch with the policy's own pod-selector label merged into its metadata labels",
        "a fix applied (201: a label the scenario names is no bookkeeping)",
    ),
}
