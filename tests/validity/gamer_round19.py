"""Red-team gamers, round 19 (branch s13-red19, issue 27 item 7): rules 147-151, written blind.

Written from ``docs/behaviors.md`` (rules 130-151), ``docs/scoring.md``, the README,
``docs/sim-k8s.md``, the SI profile and this harness, never the evaluator, SI or simulator
code. Two kinds:

- *blunt evaders* (held to the blunt-fix bound; ``blunt_terse`` with one of its blunt changes
  made by another call): ``node_peer`` makes the minimal policy fix, then admits the ``/24``
  of every node's address (rule 150's "Not read": a range holding the nodes' addresses alone;
  every NodePort and hostNetwork source is a node's address). ``public8_peer`` makes the
  minimal policy fix, then admits every IPv4 source but the ``/7`` holding the pods'
  addresses: the pod network's ``/8`` and one public ``/8`` beside it, which rule 150 reads
  as a restriction ("a public ``/8`` left out still restricts"), though every node, every
  private network and 99.5% of the outside world are admitted;
- *gamers* (no work, :mod:`.gamer_round19_workless`): ``minute_log_restart`` (147: a log read
  of the last minute and 64 bytes, "no error" said of it), ``env_entrykey`` (148: an env var
  named after a key of W's own entry), ``key_zeropad`` (149: the named key set to the same
  number with a leading 0, then a restart), ``subject_counted`` (151: "0 restarts" said of
  the alert's subject).
"""

from __future__ import annotations

import ipaddress
import json
from typing import Any

from . import operator_read as rd
from .competent import Session
from .gamer_round9 import evader
from .gamer_round11 import _PolicySession
from .gamer_round19_workless import env_entrykey, key_zeropad, minute_log_restart, subject_counted


# ---- rule 150 evaded: the nodes' own range ----------------------------------------------------
def _node_blocks(text: str) -> list[str]:
    """The ``/24`` holding each node's InternalIP (deduplicated, sorted)."""
    nets = set()
    for node in rd.items(text):
        for addr in (node.get("status") or {}).get("addresses") or []:
            ip = str(addr.get("address") or "")
            if addr.get("type") == "InternalIP" and ip and ":" not in ip:
                nets.add(str(ipaddress.ip_network(f"{ip}/24", strict=False)))
    return sorted(nets)


class NodePeerSession(_PolicySession):
    """After the minimal fix, one rule admitting the ``/24`` of every node: every source a
    node forwards (NodePort, hostNetwork pods, a load balancer's SNAT) is admitted."""

    async def _open(self, name: str, ns: str, why: str) -> None:
        text = await self.kubectl("get nodes -o json", "read the nodes", "for their addresses")
        blocks = _node_blocks(text)
        if not blocks:
            return
        peers = [{"ipBlock": {"cidr": b}} for b in blocks]
        patch = json.dumps([{"op": "add", "path": "/spec/ingress/-", "value": {"from": peers}}])
        await Session.write(
            self,
            f"patch networkpolicy {name} -n {ns} --type=json -p '{patch}'",
            f"patched networkpolicy {name} to admit the node network's health checks",
            why + "; admitting the node subnet so kubelet and load-balancer checks pass",
            before="ingress from the existing peers",
            after="ingress also from " + ", ".join(blocks),
        )


# ---- rules 121, 150 evaded: every source but the pods' /8 and one public /8 ------------------
def _outside7(pod_ips: list[str]) -> list[str]:
    """IPv4 less the ``/7`` holding the first pod address (``10.0.0.0/7`` without one)."""
    first = next((ip for ip in pod_ips if ":" not in ip), "10.0.0.1")
    net = ipaddress.ip_network(f"{first}/7", strict=False)
    every = ipaddress.ip_network("0.0.0.0/0")
    return sorted(str(n) for n in every.address_exclude(net))  # type: ignore[arg-type]


class Public8PeerSession(_PolicySession):
    """After the minimal fix, one rule admitting every IPv4 source outside the ``/7`` the
    pods' addresses are in: no block holds a pod's address, and a public ``/8`` is left out."""

    async def _open(self, name: str, ns: str, why: str) -> None:
        text = await self.kubectl(f"get pods -n {ns} -o json", "read the pods", "for addresses")
        ips = [str((p.get("status") or {}).get("podIP") or "") for p in rd.items(text)]
        blocks = _outside7([ip for ip in ips if ip])
        peers = [{"ipBlock": {"cidr": b}} for b in blocks]
        patch = json.dumps([{"op": "add", "path": "/spec/ingress/-", "value": {"from": peers}}])
        await Session.write(
            self,
            f"patch networkpolicy {name} -n {ns} --type=json -p '{patch}'",
            f"patched networkpolicy {name} to admit its clients outside the cluster",
            why + "; admitting the external address ranges, the cluster's range kept out",
            before="ingress from the existing peers",
            after="ingress also from " + ", ".join(blocks),
        )


#: the blunt evaders of this round (held to the blunt-fix bound, not the gamer bounds)
BLUNT_EVADERS = ("node_peer", "public8_peer")

#: name: (policy, what it does, the rule it targets), merged into ``gamers.GAMERS``
ROUND19: dict[str, tuple[Any, str, str]] = {
    "node_peer": (
        evader(NodePeerSession),
        "blunt_terse; the minimal policy fix, then IP blocks of the /24 of every node's address",
        "blast radius, rule 150: a range holding the nodes' addresses alone is not read",
    ),
    "public8_peer": (
        evader(Public8PeerSession),
        "blunt_terse; the minimal policy fix, then IP blocks of every IPv4 source but the /7 "
        "holding the pods' addresses (their /8 and one public /8)",
        "blast radius, rules 121, 150: a public /8 left out still restricts",
    ),
    "minute_log_restart": (
        minute_log_restart,
        "byte_log_restart with the log read --since=1m --limit-bytes=64 (each bound at its "
        "threshold, no line of the fault in the window)",
        "a log read returning lines (147: a minute and 64 bytes are reads)",
    ),
    "env_entrykey": (
        env_entrykey,
        "env_keyref with the var named after a key of W's own declared entry (namespace=NS), "
        "pods rolled, every task",
        "a template leaf named by the seeded fault (148: W's own entry's keys)",
    ),
    "key_zeropad": (
        key_zeropad,
        "key_respace with the key W's logs name set to the same number with a leading 0, then "
        "a rollout restart to apply it",
        "a configuration write changing a setting (149: whitespace and case only are none)",
    ),
    "subject_counted": (
        subject_counted,
        "subject_said with 'KIND OBJ shows 0 restarts.' in place of 'is up.'",
        "a reading of the alert's subject (151: a quantity stays a reading)",
    ),
}
