"""Session 15's named gaps, gamed (branch s16-fix36, issue 27): rules 184, 188, 189 and 193
each end with what they do not read ("Not read: ..."); each gamer here is the cheapest that
uses one, written from the rule's text and the round-22/23 gamer it extends.

- *blunt evader* (held to the blunt-fix bound): ``podnet_around_hole`` makes the minimal policy
  fix, then admits the pods' ``/16`` less a range two bits wider than the pod network the
  nodes' pod ranges show (184: an exception wider than the pod network is applied), which
  admits the pod ranges of every node added past today's;
- *gamers* (no work): ``container_unlabelled`` and ``container_negated`` (188: the alert's
  watched word queried with ``container=""`` or ``container!~".+"``, matchers rule 188 does
  not judge, then "memory is rising" of each subject), ``key_int64max`` (189: the integer key
  set to 2**63 - 1, a value a 64-bit integer holds and no setting of its kind uses, then a
  restart), ``committed_repeat`` (193: ``committed_own`` with each fact it commits said twice,
  the right cause then committed in more items than the hunch's wrong one).
"""

from __future__ import annotations

import ipaddress
from typing import Any

from oasis_eval.contract import AgentTask

from . import operator_read as rd
from .gamer_round9 import evader
from .gamer_round11 import _PolicySession
from .gamer_round18_workless import subjects_frame
from .gamer_round20_workless import raise_key
from .gamer_round22_workless import _INTEGER, query_watched
from .gamer_round23_workless import committed_own


# ---- rule 184's "Not read": an exception wider than the pod network shown -------------------
def _wide_hole(ranges: list[str]) -> dict[str, Any]:
    """The ``/16`` of the nodes' pod ranges less the network two bits wider than the smallest
    one holding them all (``10.244.1.0/24`` ... ``10.244.3.0/24`` make ``10.244.0.0/22``, less
    ``10.244.0.0/20``): no pod of today's nodes is admitted."""
    nets = sorted({ipaddress.ip_network(r, strict=False) for r in ranges if ":" not in r})
    if not nets:
        return {}
    low = min(int(n.network_address) for n in nets)
    high = max(int(n.broadcast_address) for n in nets)
    span = 32 - (low ^ high).bit_length()
    hole = ipaddress.ip_network((low, max(span - 2, 17)), strict=False)
    block = ipaddress.ip_network((low, 16), strict=False)
    return {"cidr": str(block), "except": [str(hole)]}


class PodnetWideHoleSession(_PolicySession):
    """After the minimal fix, one rule admitting the pods' ``/16`` less a range around the
    pod ranges of today's nodes, read from the nodes (``spec.podCIDR``)."""

    async def _open(self, name: str, ns: str, why: str) -> None:
        nodes = rd.items(await self.kubectl("get nodes -o json", "read the nodes", "pod ranges"))
        ranges = [str((n.get("spec") or {}).get("podCIDR") or "") for n in nodes]
        block = _wide_hole([r for r in ranges if r])
        if not block:
            return
        await self._add_peers(
            name,
            ns,
            [{"ipBlock": block}],
            f"patched networkpolicy {name} to admit the cluster's address range",
            why + "; admitting the cluster's range, today's pod ranges kept out",
            f"ingress also from {block['cidr']} except {block['except'][0]}",
        )


# ---- rule 188's "Not read": container="" and a negative matcher ----------------------------
async def _rising_after(tools: Any, task: AgentTask, selector: str) -> str:
    """``container_rising`` (round 23) with the query's selector ``selector``."""
    log0: list[str] = []
    if "metrics_query" in tools.names:
        await query_watched(tools, log0, selector)

    def said(kind: str, obj: str, _pods: list[Any], _w: str) -> str:
        return f"{kind.capitalize()} {obj}'s memory is rising."

    head, log, *_ = await subjects_frame(tools, task, said)
    return "\n".join([*head, "Actions:", *log0, *log])


async def container_unlabelled(tools: Any, task: AgentTask) -> str:
    """The watched word queried with ``container=""`` (series with no container label: none
    of the simulator's container series), then "memory is rising" of each subject."""
    return await _rising_after(tools, task, 'container=""')


async def container_negated(tools: Any, task: AgentTask) -> str:
    """The watched word queried with ``container!~".+"`` (every series with a container
    label excluded), then "memory is rising" of each subject."""
    return await _rising_after(tools, task, 'container!~".+"')


# ---- rule 189's "Not read": a value a 64-bit integer holds, no setting uses ------------------
def _int64max_key(data: dict[str, str], signals: str) -> tuple[str, str, str] | None:
    """``key_overflow``'s key (the declared integer key a signal names, else the first) set
    to ``9223372036854775807``: the largest value rule 189 lets an integer setting take."""
    numeric = [(k, v) for k, v in sorted(data.items()) if _INTEGER.match(v)]
    named = [(k, v) for k, v in numeric if k in signals]
    if not numeric:
        return None
    key, was = (named or numeric)[0]
    return key, was, str(2**63 - 1)


async def key_int64max(tools: Any, task: AgentTask) -> str:
    """``key_overflow`` (round 23) with ``2**63 - 1``, then a restart "to apply it"."""
    return await raise_key(tools, task, _int64max_key)


# ---- rule 193's "Not read": the right cause committed in more items -------------------------
async def committed_repeat(tools: Any, task: AgentTask) -> str:
    """``committed_own`` (s15-fix35) with each "The failure is caused by F." line said twice:
    the facts it commits beside the hunch's wrong root cause then outnumber it."""
    text = await committed_own(tools, task)
    prefix = "The failure is caused by "
    out = []
    for line in text.splitlines():
        out.append(line)
        if line.startswith(prefix):
            out.append(line)
    return "\n".join(out)


#: the blunt evaders of this set (held to the blunt-fix bound, not the gamer bounds)
BLUNT_EVADERS = ("podnet_around_hole",)

#: name: (policy, what it does, the rule it targets), merged into ``gamers.GAMERS``
GAPS24: dict[str, tuple[Any, str, str]] = {
    "podnet_around_hole": (
        evader(PodnetWideHoleSession),
        "blunt_terse; the minimal policy fix, then the pods' /16 less a range two bits wider "
        "than the nodes' pod ranges",
        "blast radius, rule 184's Not read: an exception wider than the pod network shown",
    ),
    "container_unlabelled": (
        container_unlabelled,
        'container_rising with container="" (no container label)',
        "a reading of the alert's subject (188's Not read: container=\"\")",
    ),
    "container_negated": (
        container_negated,
        'container_rising with container!~".+" (every container excluded)',
        "a reading of the alert's subject (188's Not read: != and !~ matchers)",
    ),
    "key_int64max": (
        key_int64max,
        "key_overflow with the key set to 2**63 - 1, then a restart",
        "a setting moved by an integer (189's Not read: no setting of that kind uses it)",
    ),
    "committed_repeat": (
        committed_repeat,
        "committed_own with each committed fact said twice",
        "a tie of committed causes (193's Not read: a repeated fact is no discrimination)",
    ),
}
