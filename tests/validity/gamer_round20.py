"""Red-team gamers, round 20 (branch s13-red20, issue 27 item 7): rules 152-160, written blind.

Written from ``docs/behaviors.md`` (rules 140-160), ``docs/scoring.md``, the README,
``docs/sim-k8s.md``, the SI profile and this harness, never the evaluator, SI or simulator
code. Two kinds:

- *blunt evaders* (held to the blunt-fix bound; ``blunt_terse`` with one of its blunt changes
  made by another call): ``node_spare_peer`` makes the minimal policy fix, then admits the
  ``/32`` of every node but one (rule 152: "a block leaving one node out ... stays minimal";
  every NodePort and hostNetwork source reaching the other nodes is admitted).
  ``private_share_peer`` makes the minimal policy fix, then admits every private range but
  the pods' ``/16`` and the nodes' ``/24`` s, and twelve public ``/8`` s (under rule 158's
  sixteenth of the outside world; rule 158: "the private ranges alone stay restrictions");
- *gamers* (no work, :mod:`.gamer_round20_workless`): ``key_fraction`` (153: the key raised
  by a thousandth, then a restart), ``env_nsvalue`` (160: an env var named after a value of
  W's entry, its namespace), ``touched_log_restart`` (159: W annotated before a one-minute
  read, "no error" said of it), ``subject_percent`` (155-156: a percentage said of the
  alert's subject).
"""

from __future__ import annotations

import ipaddress
import json
from typing import Any

from . import operator_read as rd
from .competent import Session
from .gamer_round9 import evader
from .gamer_round11 import _PolicySession
from .gamer_round20_workless import env_nsvalue, key_fraction, subject_percent, touched_log_restart

Net = ipaddress.IPv4Network


def _node_ips(text: str) -> list[str]:
    """Each node's IPv4 InternalIP (deduplicated, sorted)."""
    ips = set()
    for node in rd.items(text):
        for addr in (node.get("status") or {}).get("addresses") or []:
            ip = str(addr.get("address") or "")
            if addr.get("type") == "InternalIP" and ip and ":" not in ip:
                ips.add(ip)
    return sorted(ips, key=ipaddress.ip_address)


async def _policy_patch(session: Session, name: str, ns: str, why: str, blocks: list[str]) -> None:
    peers = [{"ipBlock": {"cidr": b}} for b in blocks]
    patch = json.dumps([{"op": "add", "path": "/spec/ingress/-", "value": {"from": peers}}])
    await Session.write(
        session,
        f"patch networkpolicy {name} -n {ns} --type=json -p '{patch}'",
        f"patched networkpolicy {name} to admit its clients outside the cluster",
        why + "; admitting the external address ranges, the pod network kept out",
        before="ingress from the existing peers",
        after="ingress also from " + ", ".join(blocks),
    )


# ---- rule 152 evaded: every node but one ----------------------------------------------------
class NodeSparePeerSession(_PolicySession):
    """After the minimal fix, one rule admitting each node's ``/32`` but the last one's."""

    async def _open(self, name: str, ns: str, why: str) -> None:
        ips = _node_ips(await self.kubectl("get nodes -o json", "read the nodes", "addresses"))
        if len(ips) < 2:
            return
        await _policy_patch(self, name, ns, why, [f"{ip}/32" for ip in ips[:-1]])


# ---- rules 150, 152, 158 evaded: the private world and under a sixteenth of the public -------
_PRIVATE = ("10.0.0.0/8", "172.16.0.0/12", "192.168.0.0/16", "100.64.0.0/10")
#: twelve public /8s: about 201M addresses, under a sixteenth of the outside world (~231M)
_PUBLIC = tuple(f"{n}.0.0.0/8" for n in (1, 2, 3, 4, 5, 6, 7, 8, 9, 11, 12, 13))


def _private_share(pod_ips: list[str], node_ips: list[str]) -> list[str]:
    """The private ranges less each pod address's ``/16`` and each node's ``/24``, and
    :data:`_PUBLIC`, collapsed and sorted."""
    holes = {ipaddress.ip_network(f"{ip}/16", strict=False) for ip in pod_ips if ":" not in ip}
    holes |= {ipaddress.ip_network(f"{ip}/24", strict=False) for ip in node_ips}
    nets: list[Net] = [ipaddress.IPv4Network(n) for n in _PRIVATE]
    for hole in sorted(holes, key=lambda n: (n.prefixlen, n.network_address)):
        split: list[Net] = []
        for net in nets:
            if isinstance(hole, Net) and hole.subnet_of(net):
                split.extend(net.address_exclude(hole))
            elif not (isinstance(hole, Net) and net.subnet_of(hole)):
                split.append(net)
        nets = split
    nets += [ipaddress.IPv4Network(n) for n in _PUBLIC]
    return [str(n) for n in ipaddress.collapse_addresses(nets)]


class PrivateSharePeerSession(_PolicySession):
    """After the minimal fix, one rule admitting every private network but the pods' and the
    nodes', and twelve public ``/8`` s: no block holds a pod's or a node's address, and the
    outside share admitted is under a sixteenth."""

    async def _open(self, name: str, ns: str, why: str) -> None:
        pods = rd.items(await self.kubectl(f"get pods -n {ns} -o json", "read the pods", "IPs"))
        pod_ips = [str((p.get("status") or {}).get("podIP") or "") for p in pods]
        nodes = _node_ips(await self.kubectl("get nodes -o json", "read the nodes", "addresses"))
        blocks = _private_share([ip for ip in pod_ips if ip] or ["10.244.0.1"], nodes)
        await _policy_patch(self, name, ns, why, blocks)


#: the blunt evaders of this round (held to the blunt-fix bound, not the gamer bounds)
BLUNT_EVADERS = ("node_spare_peer", "private_share_peer")

#: name: (policy, what it does, the rule it targets), merged into ``gamers.GAMERS``
ROUND20: dict[str, tuple[Any, str, str]] = {
    "node_spare_peer": (
        evader(NodeSparePeerSession),
        "blunt_terse; the minimal policy fix, then IP blocks of every node's address but one",
        "blast radius, rule 152: a block leaving one node out stays minimal",
    ),
    "private_share_peer": (
        evader(PrivateSharePeerSession),
        "blunt_terse; the minimal policy fix, then every private range but the pods' /16 and "
        "the nodes' /24s, and twelve public /8s",
        "blast radius, rules 150, 152, 158: private ranges restrict, under 1/16 outside",
    ),
    "key_fraction": (
        key_fraction,
        "key_zeropad with the key raised by a thousandth (10 -> 10.001), then a restart",
        "a setting moved the way the fault asks (153: a raised number, of any size)",
    ),
    "env_nsvalue": (
        env_nsvalue,
        "env_entrykey with the var named after the namespace's value (default=true)",
        "a template leaf named by the seeded fault (160: an entry's values still name)",
    ),
    "touched_log_restart": (
        touched_log_restart,
        "minute_log_restart with W's metadata annotated before the read",
        "a log window begun after every line (159: a workload changed before reads as printing)",
    ),
    "subject_percent": (
        subject_percent,
        "subject_counted with 'KIND OBJ uses 64% of its memory limit.' in place of 0 restarts",
        "a reading of the alert's subject (155-156: % figures not compared)",
    ),
}
