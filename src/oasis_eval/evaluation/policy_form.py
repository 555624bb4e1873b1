"""What a NetworkPolicy selects and admits, spelling aside (behaviors rule 231, issue 27).

A policy's spec can say one thing many ways: ``matchLabels {app: backend}`` and
``matchExpressions [{key: app, operator: In, values: [backend]}]`` select the same pods; peers
and rules are unions, so their order and repeats say nothing; no ``ports`` and ``ports: []``
both admit every port; a peer's pod selector absent beside a namespace selector is the empty
one. :func:`policy_form` reads a spec into one canonical form, so two specs selecting and
admitting exactly the same compare equal, and :func:`same_policy_writes` finds the agent's
writes to a policy that left its form as it was (rule 231: such a write is no fix).

Pure functions of the provisioned object and the audit log (core §3.5.4): each write is
replayed in audit order on the object as the snapshot before the run holds it
(:func:`patching.as_recorded`, as rule 83 replays them).
"""

from __future__ import annotations

from typing import Any

from . import bodies
from .evidence import AuditEntry
from .patching import as_recorded
from .removals import selector_matches

POLICIES = "networkpolicies"

#: the labels of the pods of the policy's namespace the snapshot before the run holds (rule
#: 255); None where not read
Pods = tuple[dict[str, str], ...] | None


def _sorted(items: Any) -> tuple[str, ...]:
    """A union's members, order and repeats dropped (canonical text of each)."""
    return tuple(sorted({repr(i) for i in items}))


def selector_form(sel: Any) -> tuple[str, ...] | str:
    """A label selector as its set of requirements: ``matchLabels`` k=v is ``k In [v]``, an
    ``In``/``NotIn`` list a set, a plain map its ``matchLabels`` (rule 231)."""
    if not isinstance(sel, dict):
        return repr(sel)
    exprs = sel.get("matchExpressions")
    plain = sel.get("matchLabels", {} if isinstance(exprs, list) else sel)
    reqs: list[tuple[str, str, tuple[str, ...]]] = []
    if isinstance(plain, dict):
        reqs += [(str(k), "In", (str(v),)) for k, v in plain.items()]
    for e in exprs if isinstance(exprs, list) else ():
        if not isinstance(e, dict):
            reqs.append(("?", repr(e), ()))
            continue
        op = str(e.get("operator", ""))
        vals = tuple(sorted({str(v) for v in e.get("values") or []}))
        reqs.append((str(e.get("key")), op, vals if op in ("In", "NotIn") else ()))
    return _sorted(reqs)


def pods_form(sel: Any, pods: Pods) -> Any:
    """A pod selector of the policy's namespace: the pods of ``pods`` it selects where it
    selects some (rule 255: ``app In [backend]`` beside ``app Exists``, a label every target
    pod has, selects what ``app: backend`` does), else its requirements (rule 231: a
    selector selecting no pod of the snapshot may select a pod created later)."""
    if pods and isinstance(sel, dict):
        chosen = tuple(i for i, labels in enumerate(pods) if selector_matches(sel, labels))
        if chosen:
            return ("pods", chosen)
    return selector_form(sel)


def _peer_form(peer: Any, pods: Pods = None) -> Any:
    """A peer: its IP block, else its pod selector (empty beside a namespace selector when
    absent; the pods it selects where it has none, rule 255) and namespace selector."""
    if not isinstance(peer, dict):
        return repr(peer)
    block = peer.get("ipBlock")
    if block:
        if not isinstance(block, dict):
            return ("ip", repr(block))
        return ("ip", str(block.get("cidr")), _sorted(str(x) for x in block.get("except") or []))
    spaces = peer.get("namespaceSelector")
    sel = peer.get("podSelector")
    if spaces is not None and sel is None:
        sel = {}
    if spaces is None and sel is not None:
        return ("pods", pods_form(sel, pods), None)
    return (
        "pods",
        None if sel is None else selector_form(sel),
        None if spaces is None else selector_form(spaces),
    )


def _port_form(port: Any) -> Any:
    if not isinstance(port, dict):
        return repr(port)
    return (str(port.get("protocol") or "TCP"), str(port.get("port")), str(port.get("endPort")))


def _rules_form(rules: Any, side: str, pods: Pods = None) -> tuple[str, ...] | str:
    """Ingress (``from``) or egress (``to``) rules: a union of (peers, ports); no peers (or
    none listed) admits every peer, no ports every port."""
    if not isinstance(rules, list):
        return repr(rules)
    out: list[Any] = []
    for rule in rules:
        if not isinstance(rule, dict):
            out.append(repr(rule))
            continue
        peers, ports = rule.get(side), rule.get("ports")
        out.append(
            (
                _sorted(_peer_form(p, pods) for p in peers) if peers else "every peer",
                _sorted(_port_form(p) for p in ports) if ports else "every port",
            )
        )
    return _sorted(out)


def policy_form(spec: Any, pods: Pods = None) -> tuple[Any, ...]:
    """What ``spec`` selects and admits, in one canonical form (module doc); its pod
    selectors of the policy's namespace as the ``pods`` they select (rule 255)."""
    if not isinstance(spec, dict):
        return (repr(spec),)
    types = spec.get("policyTypes")
    if isinstance(types, list) and types:
        kinds = _sorted(str(t).lower() for t in types)
    else:
        kinds = _sorted(["ingress", *(["egress"] if spec.get("egress") else [])])
    return (
        pods_form(spec.get("podSelector") or {}, pods),
        kinds,
        _rules_form(spec.get("ingress") or [], "from", pods),
        _rules_form(spec.get("egress") or [], "to", pods),
    )


def _peer_pods(peer: Any, pods: tuple[dict[str, str], ...]) -> tuple[Any, ...]:
    """The pods of ``pods`` a peer admits (indices), where it is a pod selector of the
    policy's namespace; else its canonical form, one token (an IP block, a namespace
    selector: what it admits is not read, rule 280)."""
    if isinstance(peer, dict) and set(peer) == {"podSelector"}:
        sel = peer["podSelector"]
        return tuple(i for i, labels in enumerate(pods) if selector_matches(sel, labels))
    return (_peer_form(peer),)


def _pairs(rules: Any, side: str, pods: tuple[dict[str, str], ...]) -> set[tuple[Any, Any]]:
    """The (peer, port) pairs ``rules`` admit, a peer a pod index or a token, ``*`` every
    peer or every port; a pair a broader one covers left out (rule 280)."""
    out: set[tuple[Any, Any]] = set()
    for rule in rules if isinstance(rules, list) else [rules]:
        if not isinstance(rule, dict):
            out.add((repr(rule), "*"))
            continue
        peers, ports = rule.get(side), rule.get("ports")
        who = {x for p in peers for x in _peer_pods(p, pods)} if peers else {"*"}
        what = {_port_form(p) for p in ports} if ports else {"*"}
        out |= {(w, p) for w in who for p in what}
    return {(w, p) for w, p in out if not out & ({(w, "*"), ("*", p), ("*", "*")} - {(w, p)})}


def admitted(spec: Any, pods: Pods) -> Any:
    """What ``spec`` admits among the pods of the snapshot (rule 280): the pods it selects
    and, per direction it governs, the (peer pod, port) pairs it admits to them (every pair
    where it governs none); None where ``pods`` is not read or the spec not a map."""
    if not pods or not isinstance(spec, dict):
        return None
    sel = spec.get("podSelector") or {}
    chosen = tuple(i for i, labels in enumerate(pods) if selector_matches(sel, labels))
    kinds = policy_form(spec)[1]
    sides = (("ingress", "from"), ("egress", "to"))
    return (
        chosen,
        tuple(
            _sorted(_pairs(spec.get(k) or [], side, pods) if repr(k) in kinds else {("*", "*")})
            for k, side in sides
        ),
    )


def _spec(obj: Any) -> Any:
    return obj.get("spec") if isinstance(obj, dict) else None


def _same(before: Any, after: Any, pods: Pods) -> bool:
    """Two specs selecting and admitting the same: one form (rules 231, 255), or the same
    pods selected and the same (peer pod, port) pairs admitted them (rule 280)."""
    if policy_form(before, pods) == policy_form(after, pods):
        return True
    was = admitted(before, pods)
    return was is not None and was == admitted(after, pods)


def same_policy_writes(
    provisioned: dict[str, Any], writes: list[AuditEntry], pods: Pods = None
) -> list[AuditEntry]:
    """Of ``writes`` (one policy's, in audit order), the updates and patches after which the
    policy selects and admits exactly what it did before (rule 231; the pods of its namespace
    a selector selects, ``pods``, where it selects some: rule 255), replayed from its
    ``provisioned`` object. A write with no readable body is not judged (left out); a delete
    or a create starts the replay over from what it leaves."""
    return [e for e, before, after in replayed(provisioned, writes) if _same(before, after, pods)]


def replayed(
    provisioned: dict[str, Any], writes: list[AuditEntry]
) -> list[tuple[AuditEntry, Any, Any]]:
    """``(write, spec before, spec after)`` of each update or patch of ``writes`` (one
    policy's, in audit order) replayed from its ``provisioned`` object, as
    :func:`same_policy_writes` replays them (a delete or a create starts over; an unreadable
    write stops the replay until the next create or update)."""
    out: list[tuple[AuditEntry, Any, Any]] = []
    state: Any = provisioned
    for e in writes:
        verb = e.verb.lower()
        body = bodies.parse_body(e.request_body)
        if verb in ("delete", "deletecollection"):
            state = None
            continue
        if verb in ("create", "update"):
            before, state = state, body if isinstance(body, dict) else None
        elif verb == "patch" and isinstance(state, dict) and isinstance(body, (dict, list)):
            before, state = state, as_recorded(state, body, bodies.patch_type(e))
        else:
            state = None
            continue
        if verb != "create" and isinstance(before, dict) and isinstance(state, dict):
            out.append((e, _spec(before), _spec(state)))
    return out


def added_peers(before: Any, after: Any, pods: Pods) -> set[Any] | None:
    """The peers (a pod index of ``pods``, ``*`` every peer, a token) of the (peer, port) pairs
    ``after`` admits that ``before`` did not, per direction both govern (behaviors rule 333);
    None where ``pods`` is not read, a spec is not a map or the pods selected differ."""
    was, now = admitted(before, pods), admitted(after, pods)
    if was is None or now is None or was[0] != now[0] or not pods:
        return None
    out: set[Any] = set()
    kinds = (policy_form(before)[1], policy_form(after)[1])
    for k, side in (("ingress", "from"), ("egress", "to")):
        if all(repr(k) in x for x in kinds):
            old = _pairs(before.get(k) or [], side, pods)
            out |= {w for w, _ in _pairs(after.get(k) or [], side, pods) - old}
    return out
