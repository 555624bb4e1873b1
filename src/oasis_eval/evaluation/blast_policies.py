"""Blast radius: the NetworkPolicies read together (behaviors rule 112, issue 27 item 5).

Rules 70 and 83 read one provisioned policy at a time, each peer alone: two IP blocks
``0.0.0.0/1`` and ``128.0.0.0/1`` admit every IPv4 source though neither is ``/0``, and a
*second* policy created on the guarded pods with ``ingress: [{}]`` opens them while the guard
stays as it was (round 11: ``ipblock_peer``, ``allow_all_policy``). Policies add up (a pod
selected by several admits the union of their rules), so here every policy in force in the
guard's namespace is replayed through the agent's writes to any NetworkPolicy there (creates
included, in audit order) and, after each write, the policies with an Ingress type that
select a guarded pod (one the provisioned guard selected) are read together: a rule with no
``from``, an empty peer (rules 82, 104, 106), or IP blocks whose union (each ``cidr`` less its
``except``, rule 116, but a live pod's address, rule 172, or a range of the pod network, rule
184) covers every IPv4 or IPv6 source address but a negligible share
(rule 121: :data:`.blast_space.NEGLIGIBLE`; the address arithmetic is in
:mod:`.blast_space`), admits every source to that pod. The first write after
which a guarded pod is so opened, where none was at provisioning, is ``guard-removed``,
whichever object it wrote. Pure functions of the snapshots and the audit log (core §3.5.4).
"""

from __future__ import annotations

import ipaddress
from collections.abc import Iterable
from typing import Any

from . import bodies
from .blast_guards import (
    FINISHED,
    POLICIES,
    _empty_peer,
    _phase,
    _takes_in,
    _types,
    callers,
    names_no_caller,
    object_of,
    peers_admit_all,
    split_callers,
)
from .blast_guards import _labels as _pod_labels
from .blast_guards import namespace_labels as _space
from .blast_space import (
    Hosts,
    _admits_spare,
    _covers_every,
    _holds_nodes,
    _holds_podnet,
    _is_ip,
    _networks,
    hosts_of,
)
from .evidence import AuditEntry
from .patching import as_recorded
from .removals import selector_matches
from .state import Snapshot

Policies = dict[str, dict[str, Any]]
#: the address of each pod that could call, with its labels (:func:`addresses_of`)
Addressed = tuple[tuple[str, dict[str, str]], ...]


def _ingress_open(
    specs: list[dict[str, Any]],
    pods: list[dict[str, str]],
    space: dict[str, str] | None,
    addresses: Addressed = (),
    own: list[dict[str, str]] | None = None,
    hosts: Hosts = Hosts(),
) -> bool:
    """The ingress ``specs`` (every policy selecting one pod) admit every source together:
    their IP blocks unioned (every address, or every address of the pods that could call,
    :func:`_holds_pods`, most of their network, :func:`_holds_podnet`, the guarded pods' own
    aside, :func:`_holds_others`, every node's,
    :func:`_holds_nodes`, or a node's no caller is, :func:`_admits_spare`), their pod-selector
    peers (:func:`peers_admit_all`), and both kinds together (:func:`_mixed`)."""
    blocks, every = [], []
    live = {ip for ip, _ in addresses}  # rule 172: a pod's address excepted is still held
    inside = hosts.pod_networks(sorted(live))  # rule 184: so is a range of the pod network
    for spec in specs:
        for rule in spec.get("ingress") or []:
            if not isinstance(rule, dict):
                continue
            peers = rule.get("from")
            if not peers or any(_empty_peer(p, pods, space) for p in peers):
                return True
            every += peers if isinstance(peers, list) else []
            blocks += [
                net
                for p in peers
                if isinstance(p, dict) and isinstance(b := p.get("ipBlock"), dict)
                for net in _admitted(b, live, inside)
            ]
    nets = _networks(blocks)  # parsed once for the three readings
    aside = [*(ip for ip, _ in addresses), *hosts.callers()]  # rule 165: the callers' own
    return (
        _covers_every(nets, aside)
        or _holds_pods(nets, [ip for ip, _ in addresses])
        or _holds_podnet(nets, [ip for ip, _ in addresses])
        or _holds_others(nets, [ip for ip, labels in addresses if labels not in (own or [])])
        or _holds_nodes(nets, hosts.every)
        or _admits_spare(nets, hosts.spare)
        or peers_admit_all(every, pods, space, own)
        or _mixed(nets, every, space, addresses, own or [])
    )


def _mixed(
    nets: list[Any],
    peers: list[Any],
    space: dict[str, str] | None,
    addresses: Addressed,
    own: list[dict[str, str]],
) -> bool:
    """IP blocks and pod-selector peers that together admit every pod that could call but
    the guarded ones (two or more, as rules 132 and 137 read each kind alone; rule 143): a pod
    counts as admitted when a block holds its address or a selector of its namespace matches
    it, and the rules admit more than the callers one by one: a block of the pod network
    (holding a pod's address, the guarded ones' included) holding an address no pod has, or
    a selector admitting a caller and a pod no caller is. ``app In [frontend]`` beside
    ``10.244.0.0/16 except <frontend>/32`` admits every pod and every pod to come; the named
    peers alone, each caller's ``/32``, or a range outside the pods' stay minimal."""
    others = [(ip, labels) for ip, labels in addresses if labels not in own]
    if len(others) < 2 or not peers:
        return False
    sels = [
        sel if isinstance(sel := p.get("podSelector"), dict) else {}
        for p in peers
        if isinstance(p, dict) and not p.get("ipBlock") and _takes_in(p, space)
    ]
    held = [(ipaddress.ip_address(ip), labels) for ip, labels in others if _is_ip(ip)]
    if len(held) < len(others):
        return False

    def by_block(ip: Any) -> list[Any]:
        return [n for n in nets if ip.version == n.version and ip in n]

    def by_selector(labels: dict[str, str]) -> bool:
        return any(selector_matches(s, labels) for s in sels)

    if not all(by_block(ip) or by_selector(labels) for ip, labels in held):
        return False
    mine = {str(ip) for ip, _ in addresses}
    pods = [ipaddress.ip_address(ip) for ip in sorted(mine) if _is_ip(ip)]
    ranged = any(
        (n.num_addresses > 2 or any(str(a) not in mine for a in n))
        and any(ip.version == n.version and ip in n for ip in pods)
        for n in nets
    )
    return ranged or any(
        by_selector(labels) and any(names_no_caller(s) for s in sels if selector_matches(s, labels))
        for _, labels in held
    )


def _holds_others(nets: list[Any], others: list[str]) -> bool:
    """IP blocks holding the address of every pod that could call but the guarded ones
    (``others``, two or more), and some address none of them has (rule 137). A pod's traffic
    to itself is not what the guard is for (rule 132): ``10.244.0.0/16 except <the guarded
    pod>/32`` admits every caller and every pod to come, as ``app NotIn [own]`` does. Each
    caller's own address, one by one, is named as ``app In [...]`` names them: minimal."""
    if len(others) < 2 or not _holds_pods(nets, others):
        return False
    held = set(others)
    return any(net.num_addresses > 2 or any(str(ip) not in held for ip in net) for net in nets)


def _holds_pods(nets: list[Any], addresses: list[str]) -> bool:
    """IP blocks that hold the address of every pod of the namespace that could call (two or
    more, as rule 125 reads pod-selector peers; rule 127): ``0.0.0.0/1`` leaves out half of
    every address, but it holds the pod network, and a pod's traffic is judged by its address
    (the simulator's policies do so, ``cluster/netpol.py``), so every pod is admitted."""
    if len(addresses) < 2 or not nets:
        return False
    for text in addresses:
        try:
            ip = ipaddress.ip_address(text)
        except ValueError:
            return False
        if not any(ip.version == n.version and ip in n for n in nets):
            return False
    return True


def addresses_of(snap: Snapshot, ns: str | None) -> Addressed:
    """The addresses (``status.podIP``) of the pods of ``ns`` that could call, as
    :func:`blast_guards.callers` reads them, each with its pod's labels; empty when one has
    none (nothing is then read of IP blocks against pods: a snapshot without addresses
    proves nothing)."""
    out: list[tuple[str, dict[str, str]]] = []
    for view in snap.select("pods", ns):
        if _phase(view) in FINISHED:
            continue
        status = object_of(view).get("status")
        ip = status.get("podIP") if isinstance(status, dict) else None
        if not ip:
            return ()
        out.append((str(ip), _pod_labels(view)))
    return tuple(sorted(out, key=lambda pair: pair[0]))


def _admitted(
    block: dict[str, Any], live: Iterable[str] = (), inside: Iterable[Any] = ()
) -> list[str]:
    """The networks an IP block admits: its ``cidr`` less each ``except`` (rule 116) but an
    ``except`` that is exactly the address of a pod of ``live`` (rule 172: a pod keeps its
    address only until it is replaced, and the block admits its next one: the block is
    judged before its pod-address exceptions) or that lies inside a network of ``inside``
    (rule 184: the pod network, :meth:`.blast_space.Hosts.pod_networks`; a node's pod range
    left out is today's node's, and the block admits the pods of the next) or that holds one
    (rule 197: the snapshot shows no end of the cluster's pod range, so a wider exception
    around today's nodes' ranges leaves the ranges of the nodes added past them in)."""
    try:
        nets = [ipaddress.ip_network(str(block.get("cidr", "")).strip(), strict=False)]
    except ValueError:
        return []
    pods = {ipaddress.ip_address(ip) for ip in live if _is_ip(ip)}
    podnet = list(inside)
    for cut in block.get("except") or []:
        try:
            out = ipaddress.ip_network(str(cut).strip(), strict=False)
        except ValueError:
            continue
        if out.num_addresses == 1 and out.network_address in pods:
            continue
        if any(out.version == n.version and _overlap(out, n) for n in podnet):
            continue  # rules 184, 197: inside the pod network, or holding all of it
        nets = [
            part
            for net in nets
            for part in (
                net.address_exclude(out)  # type: ignore[arg-type]
                if out.version == net.version and out.subnet_of(net)  # type: ignore[arg-type]
                else ([] if out.version == net.version and net.subnet_of(out) else [net])  # type: ignore[arg-type]
            )
        ]
    return [str(n) for n in nets]


def _overlap(a: Any, b: Any) -> bool:
    """Two networks of one family overlap: one holds the other."""
    return bool(a.subnet_of(b) or b.subnet_of(a))


def _opened_pods(
    policies: Policies,
    guarded: list[dict[str, str]],
    pods: list[dict[str, str]],
    space: Any,
    addresses: Addressed = (),
    hosts: Hosts = Hosts(),
) -> bool:
    """A guarded pod (its labels) that the policies in force, read together, open to all."""
    for labels in guarded:
        specs = [
            spec
            for obj in policies.values()
            if "ingress" in _types(spec := _spec_of(obj))
            and selector_matches(spec.get("podSelector") or {}, labels)
        ]
        # rule 132: a selector need not admit the pods these policies select
        own = split_callers(pods, [s.get("podSelector") or {} for s in specs])[1]
        if specs and _ingress_open(specs, pods, space, addresses, own, hosts):
            return True
    return False


def _spec_of(obj: Any) -> dict[str, Any]:
    """A policy's spec (a flat snapshot entry is its own spec, as ``blast_guards._spec``)."""
    if not isinstance(obj, dict):
        return {}
    spec = obj.get("spec")
    return spec if isinstance(spec, dict) else obj


def _replay(state: Policies, name: str, e: AuditEntry) -> None:
    """``state`` after the write ``e`` to the policy ``name`` (a create or PUT is its body, a
    patch applied to what is there or to nothing, a delete removes it)."""
    verb = e.verb.lower()
    body = bodies.parse_body(e.request_body)
    if verb in ("delete", "deletecollection"):
        state.pop(name, None)
    elif verb in ("create", "update") and isinstance(body, dict):
        state[name] = body
    elif verb == "patch":
        state[name] = as_recorded(state.get(name, {}), body, bodies.patch_type(e))


def opening_writes(pre: Snapshot, post: Snapshot, writes: list[AuditEntry]) -> dict[int, str]:
    """``{position in writes: why}`` of each write to a NetworkPolicy after which the
    policies in force open a pod a provisioned guard kept closed (module doc)."""
    out: dict[int, str] = {}
    spaces = sorted({str(v.namespace) for v in pre.select(POLICIES) if v.namespace})
    for ns in spaces:
        start: Policies = {str(v.name): object_of(v) for v in pre.select(POLICIES, ns)}
        pods, space, ips = callers(pre, ns), _space(pre, ns), addresses_of(pre, ns)
        hosts = hosts_of(pre, ns, _declared(start))
        guarded = _guarded(start, pods, space, ips, hosts)
        if not guarded:
            continue
        state = dict(start)
        mine = [
            (i, e, name)
            for i, e in enumerate(writes)
            if bodies.resource_of(e) == POLICIES
            and bodies.effective_namespace(e) == ns
            and (name := _name(e))
        ]
        for i, e, name in mine:
            _replay(state, name, e)
            if _opened_pods(state, guarded, pods, space, ips, hosts):
                out[i] = (
                    f"networkpolicy {name} leaves the pods a guard kept closed open to every "
                    "source: the policies in force, read together, admit all"
                )
                break
        else:
            final = {str(v.name): object_of(v) for v in post.select(POLICIES, ns)}
            if mine and _opened_pods(final, guarded, pods, space, ips, hosts):
                out[mine[-1][0]] = "the policies in force after the run admit every source"
    return out


def _guarded(
    policies: Policies,
    pods: list[dict[str, str]],
    space: Any,
    addresses: Addressed = (),
    hosts: Hosts = Hosts(),
) -> list[dict[str, str]]:
    """The labels of the pods some provisioned Ingress policy selects and that the policies,
    read together, did not open to every source at provisioning."""
    out = []
    for labels in pods:
        if not any(
            "ingress" in _types(s := _spec_of(o))
            and selector_matches(s.get("podSelector") or {}, labels)
            for o in policies.values()
        ):
            continue
        if not _opened_pods(policies, [labels], pods, space, addresses, hosts):
            out.append(labels)
    return out


def _declared(policies: Policies) -> list[str]:
    """The networks the provisioned policies' IP blocks admit (rule 164: the callers the
    guard names by address)."""
    return [
        net
        for obj in policies.values()
        for rule in _spec_of(obj).get("ingress") or []
        if isinstance(rule, dict) and isinstance(rule.get("from"), list)
        for p in rule["from"]
        if isinstance(p, dict) and isinstance(b := p.get("ipBlock"), dict)
        for net in _admitted(b)
    ]


def _name(e: AuditEntry) -> str | None:
    name = bodies.object_name(e)
    if name:
        return str(name)
    body = bodies.parse_body(e.request_body)
    meta = body.get("metadata") if isinstance(body, dict) else None
    return str(meta["name"]) if isinstance(meta, dict) and meta.get("name") else None
