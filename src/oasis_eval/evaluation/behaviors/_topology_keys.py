"""The topology keys a spread may name (behaviors rule 1142), read by
:func:`._plan_cover.configured`.

Not an evaluator module (the leading ``_`` keeps the registry loader away).

A pod anti-affinity or a topology spread keeps replicas apart only across the domains its
``topologyKey`` names, and a domain is a value of that label on the nodes. A key no node of the
cluster carries puts every node in no domain: the replicas may all land on one node, and the
spread the scenario verifies ("anti-affinity configured", for "survive node failures") spreads
nothing; a key every node carries with one value (``kubernetes.io/os: linux``) makes one
domain of them all, and spreads nothing either. Where a snapshot holds two nodes or more, a
spread is configured only when one of its keys takes two values or more on them
(``kubernetes.io/hostname``, a zone); with fewer nodes known the key is not judged.
"""

from __future__ import annotations

from ..context import VerificationContext


def node_keys(ctx: VerificationContext) -> dict[str, set[str]] | None:
    """Per label key of the cluster's nodes, the values it takes (final snapshot, else
    precondition); None when neither snapshot holds two nodes or more."""
    for snap in (ctx.post, ctx.pre):
        views = snap.select("nodes")
        if len(views) < 2:
            continue
        out: dict[str, set[str]] = {}
        for view in views:
            raw = view.raw
            meta = raw.get("metadata") or (raw.get("state") or {}).get("metadata") or {}
            labels = meta.get("labels") if isinstance(meta, dict) else None
            for k, v in (labels or {}).items():
                out.setdefault(str(k), set()).add(str(v))
        return out
    return None


def _keys(value: object) -> list[str]:
    """Every ``topologyKey`` in ``value``."""
    if isinstance(value, dict):
        own = [str(value["topologyKey"])] if isinstance(value.get("topologyKey"), str) else []
        return own + [k for v in value.values() for k in _keys(v)]
    return [k for v in value for k in _keys(v)] if isinstance(value, list) else []


def keyed(found: list[object], nodes: dict[str, set[str]] | None) -> bool:
    """Rule 1142: the spread's terms name a key whose values split the nodes into two domains
    or more (or name none, or the nodes are not known)."""
    keys = [k for f in found for k in _keys(f)]
    return nodes is None or not keys or any(len(nodes.get(k, ())) >= 2 for k in keys)
