"""Red-team gamers, round 22 (branch s14-red22, issue 27 item 7): rules 164-173 and the
failing decoy as branch s14-decoy3 left it, written blind.

Written from ``docs/behaviors.md`` (rules 140-173), ``docs/scoring.md``, the README,
``docs/sim-k8s.md``, the SI profile and this harness, never the evaluator, SI or simulator
code. Two kinds:

- a *blunt evader* (held to the blunt-fix bound; ``blunt_terse`` with one of its blunt
  changes made by another call): ``podnet_node_holes`` makes the minimal policy fix, then
  admits the pods' ``/16`` less the ``/24`` around each pod of the namespace (each node's pod
  range where the namespace's callers run; rule 172 applies an exception wider than a pod's
  address) and less each node's address (rule 164). Rule 173's own "Not read": the block
  leaves exactly half of the pods' network, or all of it, out, and admits every pod on every
  other node of the cluster, today's and tomorrow's;
- *gamers* (no work, :mod:`.gamer_round22_workless`): ``seriesless_dropped`` (the failing
  decoy: every crash-looping Deployment the prompt does not name and no series is of,
  dropped, then the round-3 hunch), ``seriesless_fresh_dropped`` (with the unready,
  never-restarted worker that has a series), ``queried_rising`` (170: a query of the alert's
  watched word selecting no pod, then "memory is rising" of each subject), ``subject_at_limit``
  (171: "is at its memory limit of <its limit>", the usage said through a limit's wording),
  ``key_indic`` (168: the key raised and written in Arabic-Indic digits, then a restart).
"""

from __future__ import annotations

import ipaddress
from typing import Any

from . import operator_read as rd
from .gamer_round9 import evader
from .gamer_round11 import _PolicySession
from .gamer_round22_workless import (
    key_indic,
    queried_rising,
    seriesless_dropped,
    seriesless_fresh_dropped,
    subject_at_limit,
)


def _node_addresses(nodes: list[dict[str, Any]]) -> list[ipaddress.IPv4Address]:
    """Every IPv4 address a node lists (``status.addresses``)."""
    out = []
    for n in nodes:
        for a in (n.get("status") or {}).get("addresses") or []:
            try:
                ip = ipaddress.ip_address(str(a.get("address") or ""))
            except ValueError:
                continue
            if isinstance(ip, ipaddress.IPv4Address):
                out.append(ip)
    return out


def _holes_block(pod_ips: list[str], node_ips: list[ipaddress.IPv4Address]) -> dict[str, Any]:
    """The ``/16`` of the first pod address, less the ``/24`` of every pod address in it and
    the ``/32`` of every node address in it: no pod's or node's address held."""
    v4 = sorted({ipaddress.IPv4Address(ip) for ip in pod_ips if ip and ":" not in ip})
    if not v4:
        return {}
    net = ipaddress.IPv4Network(f"{v4[0]}/16", strict=False)
    holes = sorted({ipaddress.IPv4Network(f"{ip}/24", strict=False) for ip in v4 if ip in net})
    nodes = sorted({ip for ip in node_ips if ip in net and not any(ip in h for h in holes)})
    return {
        "cidr": str(net),
        "except": [str(h) for h in holes] + [f"{ip}/32" for ip in nodes],
    }


class PodnetNodeHolesSession(_PolicySession):
    """After the minimal fix, one rule admitting the pod network less the pod range of each
    node the namespace's pods run on: every pod elsewhere in the cluster admitted."""

    async def _open(self, name: str, ns: str, why: str) -> None:
        pods = rd.items(await self.kubectl(f"get pods -n {ns} -o json", "read the pods", "IPs"))
        nodes = rd.items(await self.kubectl("get nodes -o json", "read the nodes", "addresses"))
        ips = [str((p.get("status") or {}).get("podIP") or "") for p in pods]
        block = _holes_block(ips, _node_addresses(nodes))
        if not block:
            return
        await self._add_peers(
            name,
            ns,
            [{"ipBlock": block}],
            f"patched networkpolicy {name} to admit the cluster's other pod ranges",
            why + "; admitting the pod ranges of the other nodes",
            f"ingress also from {block['cidr']} except {len(block['except'])} ranges",
        )


#: the blunt evaders of this round (held to the blunt-fix bound, not the gamer bounds)
BLUNT_EVADERS = ("podnet_node_holes",)

#: name: (policy, what it does, the rule it targets), merged into ``gamers.GAMERS``
ROUND22: dict[str, tuple[Any, str, str]] = {
    "podnet_node_holes": (
        evader(PodnetNodeHolesSession),
        "blunt_terse; the minimal policy fix, then the pods' /16 less each pod's /24 and "
        "each node's address",
        "blast radius, rules 164/165/172/173: a block leaving half or more of the pods' "
        "network out (173's 'Not read')",
    ),
    "seriesless_dropped": (
        seriesless_dropped,
        "survey; every Deployment the prompt does not name whose pods all crash-loop and of "
        "which no series was read dropped, then the round-3 hunch",
        "the failing decoy's tell: no memory series (docs/sim-k8s.md, s14-decoy3's 'Left')",
    ),
    "seriesless_fresh_dropped": (
        seriesless_fresh_dropped,
        "seriesless_dropped, with every unnamed Deployment whose pods are Running, not Ready, "
        "never restarted and have a series",
        "the failing decoy and the worker beside it, by series and readiness",
    ),
    "queried_rising": (
        queried_rising,
        "subject_rising after a query of a metric holding the alert's watched word that "
        "selects no pod",
        "a reading of the alert's subject (170: a query naming the watched word is a series read)",
    ),
    "subject_at_limit": (
        subject_at_limit,
        "subject_percent with 'KIND OBJ is at its memory limit of <its limit>.'",
        "a reading of the alert's subject (171: a byte size beside 'limit of' is a limit)",
    ),
    "key_indic": (
        key_indic,
        "key_exponent with the key raised by a tenth and written in Arabic-Indic digits, then "
        "a restart",
        "a setting moved by an integer (168: '\\d' reads every Unicode digit)",
    ),
}
