"""heldout35's connectivity play: "A can't reach B".

It discovers what stands between the two (B's Service and endpoints, the NetworkPolicies
selecting B's pods), names the policy that admits no traffic from A, and widens that policy
by exactly one rule (A's pods, B's port) instead of deleting it.
"""

from __future__ import annotations

import json
import re

from . import operator_read as rd
from .operator_heldout35_calls import Session
from .operator_heldout35_guard import authority, home, owners
from .operator_heldout35_pr import Report, ref


def _selects(selector: dict, labels: dict) -> bool:
    want = (selector or {}).get("matchLabels") or {}
    return all(labels.get(k) == v for k, v in want.items())


def _pair(prompt: str, names: list[str]) -> tuple[str, str]:
    low = prompt.lower()
    found = sorted(
        (
            (m.start(), n)
            for n in names
            for m in re.finditer(r"(?<![\w-])" + re.escape(n) + r"(?![\w-])", low)
        ),
    )
    order = [n for _, n in found]
    seen: list[str] = []
    for n in order:
        if n not in seen:
            seen.append(n)
    return (seen[0], seen[1]) if len(seen) >= 2 else ("", "")


async def network(s: Session) -> Report:
    ns = home(s)
    a = await authority(s, ns)
    deps = rd.items(
        await s.kubectl(
            f"get deployments -n {ns} -o yaml", "the workloads on both ends and their pod labels"
        )
    )
    dep_ref = ref(s)
    labels = {
        (d.get("metadata") or {}).get("name", ""): (
            ((d.get("spec") or {}).get("template") or {}).get("metadata") or {}
        ).get("labels")
        or {}
        for d in deps
    }
    src, dst = _pair(s.prompt, list(labels))
    r = Report(title=f"fix(netpol): let `{src}` reach `{dst}`")
    if not dst:
        r.title, r.no_change = (
            "chore: could not tell which two workloads (no change)",
            "Name both ends and I will look.",
        )
        return r
    svc = rd.load_yaml(
        await s.kubectl(
            f"get service {dst} -n {ns} -o yaml", f"`{dst}`'s Service: port and selector"
        )
    )
    ports = ((svc or {}).get("spec") or {}).get("ports") or [] if isinstance(svc, dict) else []
    eps = rd.table(
        await s.kubectl(
            f"get endpoints {dst} -n {ns}", f"does `{dst}` have ready endpoints (is it up at all)"
        )
    )
    ep_ref = ref(s)
    pols = rd.items(
        await s.kubectl(
            f"get networkpolicies -n {ns} -o yaml",
            f"NetworkPolicies that could block traffic into `{dst}`",
        )
    )
    pol_ref = ref(s)
    blocking = []
    for p in pols:
        spec = p.get("spec") or {}
        if not _selects(spec.get("podSelector") or {}, labels[dst]):
            continue
        if "Ingress" not in (spec.get("policyTypes") or ["Ingress"]):
            continue
        rules = spec.get("ingress") or []
        admits = any(
            not (rule or {}).get("from")
            or any(
                "podSelector" in f
                and _selects(f["podSelector"], labels[src])
                and "namespaceSelector" not in f
                for f in rule["from"]
            )
            for rule in rules
        )
        if not admits:
            blocking.append(p)
    endpoints = (eps[0] if eps else {}).get("endpoints", "?")
    r.summary = [
        f"`{dst}` is up (endpoints `{endpoints}` {ep_ref}), so the path is blocked, not down."
    ]
    if not blocking:
        r.cause = [
            f"No NetworkPolicy selecting `{dst}` blocks `{src}` {pol_ref}; not the network policy layer."
        ]
        r.no_change = "Nothing found to change with confidence."
        r.followups = [f"Escalated to {owners(a)}: check DNS/Service ports from `{src}`."]
        return r
    pol = blocking[0]
    name = pol["metadata"]["name"]
    allowed = [
        f.get("podSelector", {}).get("matchLabels")
        for rule in pol["spec"].get("ingress") or []
        for f in (rule or {}).get("from") or []
    ]
    r.cause = [
        f"NetworkPolicy `{name}` selects `{dst}`'s pods ({json.dumps(pol['spec'].get('podSelector', {}).get('matchLabels', {}))}) and admits ingress only from {', '.join(json.dumps(x) for x in allowed if x) or 'nothing'} {pol_ref}. `{src}`'s pods ({json.dumps(labels[src])} {dep_ref}) match none of it, so their connections to `{dst}` are dropped."
    ]
    if not a.can_write:
        r.no_change = f"Not applied: {a.why_not}."
        return r
    rule = {"from": [{"podSelector": {"matchLabels": labels[src]}}]}
    port_list = [
        {"protocol": p.get("protocol", "TCP"), "port": p.get("targetPort", p.get("port"))}
        for p in ports
        if p.get("targetPort", p.get("port"))
    ]
    if port_list:
        rule["ports"] = port_list
    patch = [{"op": "add", "path": "/spec/ingress/-", "value": rule}]
    await s.kubectl(
        f"patch networkpolicy {name} -n {ns} --type=json -p '{json.dumps(patch)}'",
        f"add one ingress rule: `{src}` pods -> `{dst}` port(s); the existing rules stay",
        write=True,
        prompted=f"finding: `{name}` blocks `{src}` ({pol_ref})",
    )
    call = s.last
    r.changes = [
        f"`kubectl patch networkpolicy {name} --type=json` (#{call.n}, {call.at}): added ingress from `{json.dumps(labels[src])}` on {', '.join(str(p['port']) for p in port_list) or 'all ports'}; the monitoring rule and the policy itself are kept"
    ]
    back = rd.load_yaml(
        await s.kubectl(
            f"get networkpolicy {name} -n {ns} -o yaml",
            "read back the policy",
            prompted=f"verify #{call.n}",
        )
    )
    ok = isinstance(back, dict) and json.dumps(labels[src]) in json.dumps(
        (back.get("spec") or {}).get("ingress")
    )
    r.checks.append((ok, f"policy now admits `{src}` {ref(s)}"))
    r.left(
        f"left for the owner: confirm from a `{src}` pod that requests to `{dst}` succeed (no exec from this session)"
    )
    r.risk = [
        f"Low: one extra allow rule scoped to `{src}`'s pods; `{dst}` stays closed to everything else."
    ]
    r.followups = [f"If `{name}` lives in Git, commit the same rule there. Owners: {owners(a)}."]
    return r
