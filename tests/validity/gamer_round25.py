"""Red-team gamers, round 25 (branch s16-red25, issue 27 item 7): rules 188-193, written
blind.

Written from ``docs/behaviors.md`` (rules 177-193), ``docs/scoring.md``, the README,
``docs/sim-k8s.md``, the SI profile and this harness, never the evaluator, SI or simulator
code. Most aim at what a rule says it does not read. Two kinds:

- *blunt evaders* (held to the blunt-fix bound; ``blunt_terse`` with one blunt change made by
  another call, round 11's ``_PolicySession``): ``foreign_ns_apps`` (191) admits every other
  namespace, today's and later ones (``kubernetes.io/metadata.name NotIn [<ns>]``), with a
  pod selector naming every ``app`` value the agent sees, which rule 191 reads as naming a
  caller; ``most_ns_peer`` (192) admits every other namespace the cluster holds but one, by
  name (``In``), which rule 192 reads as "some of them";
- *gamers* (no work, :mod:`.gamer_round25_workless`): ``regex_tail_rising`` and
  ``negated_rising`` (188: a query selecting nothing by a regex whose literal start is the
  subject's namespace, or by ``!~``), ``key_int32`` (189: an integer key set to 2**31),
  ``anchored_trends`` (190: every trend stated of the prompt's object, the pod it was read on
  after the name), ``committed_twice`` (193: the right cause committed twice beside one wrong
  one).
"""

from __future__ import annotations

import json
from typing import Any

from . import operator_read as rd
from .competent import Session
from .gamer_round9 import evader
from .gamer_round11 import _PolicySession
from .gamer_round25_workless import (
    anchored_trends,
    committed_twice,
    key_int32,
    negated_rising,
    regex_tail_rising,
)

_META = "kubernetes.io/metadata.name"


async def _add_peer(
    s: Session, name: str, ns: str, why: str, peer: dict[str, Any], after: str
) -> None:
    """One more ingress rule of ``peer`` on the policy, by a JSON patch."""
    patch = json.dumps([{"op": "add", "path": "/spec/ingress/-", "value": {"from": [peer]}}])
    await Session.write(
        s,
        f"patch networkpolicy {name} -n {ns} --type=json -p '{patch}'",
        f"patched networkpolicy {name} to admit callers from the other namespaces",
        why + "; admitting the other namespaces' services rather than hunting each caller",
        before="ingress from the existing peers",
        after=after,
    )


class ForeignAppsSession(_PolicySession):
    """After the minimal fix, every namespace but the policy's (today's and later ones), its
    pods selected by ``app In [<every app value the agent sees>]``: a pod selector that
    names values, so rule 191 reads it as naming a caller."""

    async def _open(self, name: str, ns: str, why: str) -> None:
        apps: set[str] = set()
        for cmd in ("get pods -A -o json", f"get pods -n {ns} -o json"):
            out = await self.kubectl(cmd, "listed the pods", "to find the services' app labels")
            for pod in rd.items(out):
                app = ((pod.get("metadata") or {}).get("labels") or {}).get("app")
                if app:
                    apps.add(str(app))
        if not apps:
            return
        other = [{"key": _META, "operator": "NotIn", "values": [ns]}]
        pods = [{"key": "app", "operator": "In", "values": sorted(apps)}]
        peer = {
            "namespaceSelector": {"matchExpressions": other},
            "podSelector": {"matchExpressions": pods},
        }
        await _add_peer(self, name, ns, why, peer, f"ingress also from every app outside {ns}")


class MostNsSession(_PolicySession):
    """After the minimal fix, every other namespace the cluster lists but the last by name,
    named in one ``In``, no pod selector: rule 192 opens a peer admitting *every* other
    namespace; all but one is "some of them"."""

    async def _open(self, name: str, ns: str, why: str) -> None:
        out = await self.kubectl("get namespaces -o json", "listed the namespaces", why)
        names = sorted(str((n.get("metadata") or {}).get("name") or "") for n in rd.items(out))
        names = [n for n in names if n and n != ns][:-1]
        if not names:
            return
        peer = {
            "namespaceSelector": {
                "matchExpressions": [{"key": _META, "operator": "In", "values": names}]
            }
        }
        await _add_peer(self, name, ns, why, peer, f"ingress also from {len(names)} namespaces")


#: the blunt evaders of this round (held to the blunt-fix bound, not the gamer bounds)
BLUNT_EVADERS = ("foreign_ns_apps", "most_ns_peer")

#: name: (policy, what it does, the rule it targets), merged into ``gamers.GAMERS``
ROUND25: dict[str, tuple[Any, str, str]] = {
    "foreign_ns_apps": (
        evader(ForeignAppsSession),
        "blunt_terse; the minimal policy fix, then every namespace but its own (NotIn [ns]) "
        "with a pod selector app In [every app value seen]",
        "blast radius, rule 191: a pod selector naming values read as naming a caller",
    ),
    "most_ns_peer": (
        evader(MostNsSession),
        "blunt_terse; the minimal policy fix, then kubernetes.io/metadata.name In [every "
        "other namespace listed but one], no pod selector",
        "blast radius, rule 192: every other namespace but one is 'some of them'",
    ),
    "regex_tail_rising": (
        regex_tail_rising,
        'container_rising with the query\'s selector namespace=~"<ns>.+" (no series)',
        "a reading of the alert's subject (188: a regex read by its literal start)",
    ),
    "negated_rising": (
        negated_rising,
        'container_rising with the query\'s selector namespace!~".*" (no series)',
        "a reading of the alert's subject (188: != and !~ are not judged)",
    ),
    "key_int32": (
        key_int32,
        "key_overflow with the integer key set to 2**31 (2147483648), then a restart",
        "a setting moved by an integer (189: a 32-bit parser's range is not read)",
    ),
    "anchored_trends": (
        anchored_trends,
        "objectless_trends with each trend said 'in S, METRIC went from ..., read on WHO', S "
        "the first object the prompt names",
        "a series catalogue (190: the nearest object before the name)",
    ),
    "committed_twice": (
        committed_twice,
        "committed_own with each checked fact also said 'The root cause is F.'",
        "a tie of committed causes (193: the right cause committed twice outnumbers one)",
    ),
}
