"""NetworkPolicy enforcement (SI provider guide §1.5; conformance §3.8).

:func:`allowed` is a pure function with Kubernetes semantics: a pod is isolated for
ingress (egress) once any policy in its namespace selects it with that policy
type; an isolated direction admits only what some selecting policy's rules allow;
both the source's egress and the destination's ingress must admit a connection.
Peers: ``podSelector`` (policy namespace), ``namespaceSelector``, both (AND), and
``ipBlock`` (CIDR with ``except``). Ports: number, named container port, ``endPort``.
"""

from __future__ import annotations

import ipaddress
from typing import Any

from . import selectors


def _types(policy: dict[str, Any]) -> set[str]:
    spec = policy.get("spec") or {}
    declared = spec.get("policyTypes")
    if declared:
        return set(declared)
    return {"Ingress"} | ({"Egress"} if "egress" in spec else set())


def _selects(policy: dict[str, Any], pod: dict[str, Any]) -> bool:
    if policy["metadata"].get("namespace") != pod["metadata"].get("namespace"):
        return False
    return selectors.matches(
        (policy.get("spec") or {}).get("podSelector") or {}, pod["metadata"].get("labels")
    )


def _peer_matches(
    peer: dict[str, Any],
    policy_ns: str,
    other: dict[str, Any],
    namespace_labels: dict[str, dict[str, str]],
) -> bool:
    if "ipBlock" in peer:
        ip = (other.get("status") or {}).get("podIP")
        if not ip:
            return False
        block = peer["ipBlock"]
        addr = ipaddress.ip_address(ip)
        if addr not in ipaddress.ip_network(block["cidr"], strict=False):
            return False
        return not any(
            addr in ipaddress.ip_network(e, strict=False) for e in block.get("except") or []
        )
    other_ns = other["metadata"].get("namespace", "")
    if "namespaceSelector" in peer:
        if not selectors.matches(
            peer["namespaceSelector"] or {}, namespace_labels.get(other_ns, {})
        ):
            return False
    elif other_ns != policy_ns:
        return False
    if "podSelector" in peer:
        return selectors.matches(peer["podSelector"] or {}, other["metadata"].get("labels"))
    return True


def _port_matches(
    rule_ports: list[dict[str, Any]] | None, port: int, protocol: str, dst: dict[str, Any]
) -> bool:
    if not rule_ports:
        return True
    named = {
        p.get("name"): p.get("containerPort")
        for c in (dst.get("spec") or {}).get("containers") or []
        for p in c.get("ports") or []
        if p.get("name")
    }
    for rp in rule_ports:
        if rp.get("protocol", "TCP") != protocol:
            continue
        want = rp.get("port")
        if want is None:
            return True
        if isinstance(want, str) and not want.isdigit():
            if named.get(want) == port:
                return True
            continue
        lo = int(want)
        hi = int(rp.get("endPort", lo))
        if lo <= port <= hi:
            return True
    return False


def _direction(
    policies: list[dict[str, Any]],
    subject: dict[str, Any],
    other: dict[str, Any],
    port: int,
    protocol: str,
    kind: str,
    dst: dict[str, Any],
    namespace_labels: dict[str, dict[str, str]],
) -> bool:
    relevant = [p for p in policies if _selects(p, subject) and kind in _types(p)]
    if not relevant:
        return True
    key, peers_key = ("ingress", "from") if kind == "Ingress" else ("egress", "to")
    for policy in relevant:
        ns = policy["metadata"].get("namespace", "")
        for rule in (policy.get("spec") or {}).get(key) or []:
            peers = rule.get(peers_key)
            if peers and not any(_peer_matches(p, ns, other, namespace_labels) for p in peers):
                continue
            if _port_matches(rule.get("ports"), port, protocol, dst):
                return True
    return False


def allowed(
    src_pod: dict[str, Any],
    dst_pod: dict[str, Any],
    port: int,
    *,
    policies: list[dict[str, Any]],
    namespace_labels: dict[str, dict[str, str]],
    protocol: str = "TCP",
) -> bool:
    """Whether a connection from ``src_pod`` to ``dst_pod:port`` is admitted."""
    return _direction(
        policies, src_pod, dst_pod, port, protocol, "Egress", dst_pod, namespace_labels
    ) and _direction(
        policies, dst_pod, src_pod, port, protocol, "Ingress", dst_pod, namespace_labels
    )


def isolated(pod: dict[str, Any], policies: list[dict[str, Any]]) -> dict[str, bool]:
    """Which directions of ``pod`` are isolated by some policy."""
    return {
        kind: any(_selects(p, pod) and kind in _types(p) for p in policies)
        for kind in ("Ingress", "Egress")
    }
