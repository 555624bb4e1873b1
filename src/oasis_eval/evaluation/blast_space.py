"""Blast radius: the address space IP blocks admit (behaviors rules 121, 150, 152, 158,
164-165, 173, 184).

The NetworkPolicies in force are read together (rule 112, :mod:`.blast_policies`); this
module holds the arithmetic of the sources their IP blocks admit: the union measured against
every source of a family (rule 121), against the outside world and the private ranges
together (rules 150, 158 and 165), against the nodes' addresses (rules 152 and 164) and
against the pods' network (rules 173 and 184). Pure functions of the blocks and the snapshot
(core §3.5.4).
"""

from __future__ import annotations

import ipaddress
from collections.abc import Iterable
from typing import Any, NamedTuple

from .blast_guards import FINISHED, _phase, object_of
from .state import Snapshot

#: every address of each family: IP blocks whose union is one of these admit every source
_EVERY = (ipaddress.ip_network("0.0.0.0/0"), ipaddress.ip_network("::/0"))
#: addresses no packet comes from (this network, loopback, multicast, reserved and broadcast;
#: IPv6's unspecified, loopback and multicast): leaving them out restricts no source
_NO_SOURCE = {
    4: [
        ipaddress.ip_network(n) for n in ("0.0.0.0/8", "127.0.0.0/8", "224.0.0.0/4", "240.0.0.0/4")
    ],
    6: [ipaddress.ip_network(n) for n in ("::/128", "::1/128", "ff00::/8")],
}
#: the share of a family's source addresses IP blocks may leave out and still admit every
#: source (rule 121): less than one 256th, the share of a /8 (``10.0.0.0/8``, a whole
#: allocation) left out is a restriction; a host, a /24 or a /16 left out is not
NEGLIGIBLE = 1 / 256
#: the share of the outside world a fence to a peer may admit (rule 158): a peer is one
#: organization's networks, and none holds a sixteenth of the outside (sixteen ``/8``s); IP
#: blocks admitting more fence to no peer, whatever public ranges they leave out
PEER_SHARE = 1 / 16
#: the addresses of private networks (a cluster's pods, nodes and services live there): the
#: rest of each family is the outside world, whose every source a block may not admit either
#: (rule 150): IPv4's RFC 1918, shared (RFC 6598) and link-local ranges; IPv6's unique local
#: and link-local ones
_PRIVATE = {
    4: [
        ipaddress.ip_network(n)
        for n in (
            "10.0.0.0/8",
            "100.64.0.0/10",
            "169.254.0.0/16",
            "172.16.0.0/12",
            "192.168.0.0/16",
        )
    ],
    6: [ipaddress.ip_network(n) for n in ("fc00::/7", "fe80::/10")],
}


def _covers_every(cidrs: Iterable[Any], aside: Iterable[Any] = ()) -> bool:
    """The union of ``cidrs`` is every IPv4 (or every IPv6) source address but a negligible
    share (rule 121: ``0.0.0.0/0`` less one ``/32`` admits every source as ``0.0.0.0/0``), or
    more of the sources than any peer holds: its share of the outside world and its share of
    the private ranges (``aside``, the callers' own addresses and networks, not counted)
    together over :data:`PEER_SHARE` (rules 150, 158 and 165: the private ranges left out
    restrict no outside caller, a public ``/8`` left out beside them fences to no peer, and
    every private network admitted is no peer's either)."""
    nets: dict[int, list[Any]] = {4: [], 6: []}
    for net in _networks(cidrs):
        nets[net.version].append(net)
    kept = _networks(aside)
    return any(
        bool(nets[v])
        and (
            _left_out(nets[v], v) < NEGLIGIBLE
            # rules 150, 158 and 165: more than a peer's share of the sources admitted
            or _sources_share(nets[v], v, [n for n in kept if n.version == v]) > PEER_SHARE
        )
        for v in (4, 6)
    )


def _sources_share(nets: list[Any], version: int, aside: list[Any]) -> float:
    """The share of the outside world ``nets`` admit (rules 150, 158) and the share of the
    private ranges less ``aside`` (rule 165), added: one bound on the sources admitted, each
    world weighed by its own size (counted in addresses, every private network would weigh
    as a public ``/8`` and a third, though a cluster's neighbours all live there)."""
    return 1 - _left_out(nets, version, _PRIVATE[version]) + _private_share(nets, version, aside)


def _private_share(nets: list[Any], version: int, aside: list[Any]) -> float:
    """The private addresses ``nets`` admit beyond ``aside`` (the callers' own), as a share
    of the family's private ranges (:data:`_PRIVATE`; rule 165): a restriction to a peer names
    one network there, not every one. The callers' own leave the count, not the ranges: a
    wide network the guard already names makes no other network wider."""
    private = _collapsed(_PRIVATE[version])
    inside = _collapsed(_meet(_collapsed(nets), private))
    held = _size(inside) - _size(_meet(inside, _collapsed(aside)))
    return held / _size(private)


def _collapsed(nets: list[Any]) -> list[Any]:
    return list(ipaddress.collapse_addresses(nets))


def _meet(one: list[Any], other: list[Any]) -> list[Any]:
    """The networks both disjoint lists hold (two CIDRs that overlap nest: the smaller)."""
    return [a if a.subnet_of(b) else b for a in one for b in other if a.overlaps(b)]


def _size(nets: list[Any]) -> int:
    return sum(n.num_addresses for n in nets)


def _left_out(nets: list[Any], version: int, aside: list[Any] | None = None) -> float:
    """The share of the family's source addresses (:data:`_NO_SOURCE` and ``aside`` aside)
    ``nets`` leave out. With ``aside`` the private ranges, the share of the outside world
    (rule 150): every source but the pod network's ``/8`` is every outside source."""
    every = _EVERY[0] if version == 4 else _EVERY[1]
    none = [*_NO_SOURCE[version], *(aside or [])]
    covered = sum(n.num_addresses for n in ipaddress.collapse_addresses([*nets, *none]))
    sources = every.num_addresses - sum(n.num_addresses for n in none)
    return float(every.num_addresses - covered) / float(sources)


def _networks(blocks: Iterable[Any]) -> list[Any]:
    """The blocks as networks (a cidr string or a network; a cidr that is none is skipped)."""
    nets = []
    for cidr in blocks:
        try:
            nets.append(
                ipaddress.ip_network(cidr.strip() if isinstance(cidr, str) else cidr, strict=False)
            )
        except ValueError:
            continue
    return nets


def _is_ip(text: str) -> bool:
    try:
        ipaddress.ip_address(text)
    except ValueError:
        return False
    return True


def _holds_nodes(nets: list[Any], nodes: tuple[str, ...]) -> bool:
    """IP blocks holding the address of every node of the cluster (rule 152): a node's
    address is the source of what it forwards (NodePort and load-balancer traffic, hostNetwork
    pods), so each node's ``/32`` admits every outside caller that reaches a node, as
    rule 150's union of the outside world does. An admin network's range holds no node."""
    held = [ipaddress.ip_address(ip) for ip in nodes if _is_ip(ip)]
    return (
        bool(nets)
        and bool(held)
        and len(held) == len(nodes)
        and all(any(ip.version == n.version and ip in n for n in nets) for ip in held)
    )


def node_addresses(snap: Snapshot) -> tuple[str, ...]:
    """The nodes' internal addresses (``status.addresses`` of type ``InternalIP``), sorted;
    empty when a node has none (a snapshot without them proves nothing, as rule 127 reads
    pods)."""
    out: list[str] = []
    for view in snap.select("nodes"):
        status = object_of(view).get("status")
        found = [
            str(a.get("address"))
            for a in (status.get("addresses") or [] if isinstance(status, dict) else [])
            if isinstance(a, dict) and a.get("type") == "InternalIP" and a.get("address")
        ]
        if not found:
            return ()
        out += found
    return tuple(sorted(out))


class Hosts(NamedTuple):
    """The nodes' internal addresses (rule 152), those of them no caller of the guard is
    (rule 164: :func:`hosts_of`), the networks the provisioned policies' IP blocks admit
    (the guard's callers named by address, not counted by rule 165) and the nodes' pod ranges
    (``spec.podCIDR``: rule 184's pod network)."""

    every: tuple[str, ...] = ()
    spare: tuple[str, ...] = ()
    named: tuple[str, ...] = ()
    ranges: tuple[str, ...] = ()

    def callers(self) -> list[str]:
        """The sources the guard's callers are, by address (rule 165's aside): the nodes
        not spare and the networks named."""
        return [*(ip for ip in self.every if ip not in self.spare), *self.named]

    def pod_networks(self, addresses: Iterable[str]) -> list[Any]:
        """Rule 184's pod network of each family (:func:`pod_networks`): the nodes' pod
        ranges and ``addresses`` (the pods'), but a pod's address that is a node's (a pod on
        the host network sends from its node's, outside the pods' network)."""
        return pod_networks([*self.ranges, *(ip for ip in addresses if ip not in self.every)])


def pod_ranges(snap: Snapshot) -> tuple[str, ...]:
    """The pod ranges the nodes of ``snap`` carry (``spec.podCIDR`` and ``spec.podCIDRs``),
    sorted: the addresses each node gives its pods (rule 184)."""
    out: set[str] = set()
    for view in snap.select("nodes"):
        spec = object_of(view).get("spec")
        spec = spec if isinstance(spec, dict) else {}
        listed = spec.get("podCIDRs")
        for cidr in [spec.get("podCIDR"), *(listed if isinstance(listed, list) else [])]:
            if isinstance(cidr, str) and cidr.strip():
                out.add(cidr.strip())
    return tuple(sorted(out))


def hosts_of(snap: Snapshot, ns: str | None, declared: Iterable[Any]) -> Hosts:
    """The nodes of ``snap`` (:func:`node_addresses`, :func:`pod_ranges`), and those no
    caller of the guard in ``ns`` is (rule 164): every node but one a pod there that could
    call runs on the host network of (``hostNetwork``, or its address a node's: it sends from
    the node's address) and those the IP blocks of the provisioned policies admit
    (``declared``: the guard's own callers named by address). A pod on the host network whose
    node is unknown spares none."""
    nodes, declared = node_addresses(snap), tuple(str(n) for n in declared)
    ranges = pod_ranges(snap)
    named = _networks(declared)
    on_host: set[str] = set()
    for view in snap.select("pods", ns):
        if _phase(view) in FINISHED:
            continue
        obj = object_of(view)
        spec, status = obj.get("spec"), obj.get("status")
        spec = spec if isinstance(spec, dict) else {}
        status = status if isinstance(status, dict) else {}
        if spec.get("hostNetwork") is True or status.get("podIP") in nodes:
            host = status.get("hostIP") or status.get("podIP")
            if not host:
                return Hosts(nodes, (), declared, ranges)
            on_host.add(str(host))
    spare = tuple(
        ip
        for ip in nodes
        if _is_ip(ip) and ip not in on_host and not _within(ipaddress.ip_address(ip), named)
    )
    return Hosts(nodes, spare, declared, ranges)


def _within(ip: Any, nets: list[Any]) -> bool:
    return any(ip.version == n.version and ip in n for n in nets)


def _admits_spare(nets: list[Any], spare: tuple[str, ...]) -> bool:
    """IP blocks holding the address of a node no caller of the guard is (rule 164, widening
    rule 152's "every node"): a restriction to a peer names its callers, and where they are
    pods a node's address is the source of what the node forwards (NodePort and load-balancer
    traffic, hostNetwork pods), so one node admitted beyond them is widening."""
    return bool(nets) and any(_within(ipaddress.ip_address(ip), nets) for ip in spare)


def pods_network(addresses: Iterable[str]) -> Any:
    """The smallest network holding every address of ``addresses`` (two or more of one
    family), or ``None``: what the snapshot shows of the pods' network (rule 173)."""
    ips = [ipaddress.ip_address(ip) for ip in addresses if _is_ip(ip)]
    if len(set(ips)) < 2 or len({ip.version for ip in ips}) != 1:
        return None
    return _spanning(_networks(ips))


def pod_networks(ranges: Iterable[Any]) -> list[Any]:
    """Of each family, the smallest network holding every one of ``ranges`` (the nodes' pod
    ranges and the pods' addresses, as cidrs or addresses): the pod network the snapshot
    shows (rule 184), the network a node added later takes its pod range next to; empty
    where the snapshot shows neither."""
    nets = _networks(ranges)
    return [_spanning(f) for v in (4, 6) if (f := [n for n in nets if n.version == v])]


def _spanning(nets: list[Any]) -> Any:
    """The smallest network holding every network of ``nets`` (one family, one or more)."""
    low = min(int(n.network_address) for n in nets)
    high = max(int(n.broadcast_address) for n in nets)
    width = nets[0].max_prefixlen
    return ipaddress.ip_network((low, width - (low ^ high).bit_length()), strict=False)


def _holds_podnet(nets: list[Any], addresses: list[str]) -> bool:
    """IP blocks admitting more than half of the pods' network (:func:`pods_network`: the
    smallest network holding the address of every pod that could call) and more addresses
    of it than the pods have (rule 173): a range of the pod network, not the callers one by
    one, holds the addresses of the pods to come, whatever few around today's it leaves
    out."""
    net = pods_network(addresses)
    if net is None or len(set(addresses)) != len(addresses):
        return False
    inside = _collapsed(_meet(_collapsed([n for n in nets if n.version == net.version]), [net]))
    held = _size(inside)
    return 2 * held > net.num_addresses and held > len(addresses)
