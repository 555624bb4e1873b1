"""heldout42: traffic between workloads (network policies) and pods that can't be scheduled."""

from __future__ import annotations

import json
import re

from . import operator_heldout42_look as lk
from . import operator_read as rd
from .operator_heldout42 import Bridge
from .operator_heldout42_say import plural, spoken, words


def _matches(sel: dict, labels: dict) -> bool:
    want = sel.get("matchLabels") or {}
    return (bool(want) and all(labels.get(k) == v for k, v in want.items())) or sel == {}


async def reach(b: Bridge) -> None:
    """A can't reach B: the pods' labels, then the policies that select B."""
    names = b.named(b.deployments)
    words_in = re.findall(r"[a-z][a-z0-9-]+", b.low)
    if len(names) < 2:
        names = [
            d
            for d in b.deployments
            if any(
                w == d or d.startswith(w + "-") or d.endswith("-" + w) or w == d.split("-")[0]
                for w in words_in
            )
        ]
    b.found["subject"] = " reaching ".join(spoken(n) for n in names[:2]) or "the networking issue"
    out = await b.kubectl(
        f"get pods -n {b.ns} --show-labels",
        "listed the pods with their labels",
        "to know what the policies would match",
    )
    labels: dict[str, dict] = {}
    for row in rd.table(out):
        lab = dict(kv.split("=", 1) for kv in row.get("labels", "").split(",") if "=" in kv)
        for n in names:
            if row.get("name", "").startswith(n + "-"):
                labels[n] = lab
    pols = await b.kubectl(
        f"get networkpolicies -n {b.ns} -o yaml",
        "read every network policy in full",
        "because traffic between pods is what they govern",
    )
    items = rd.items(pols)
    b.saw(f"{plural(len(items), 'policy')}")
    if len(names) < 2:
        b.add("findings", "I couldn't tell which two workloads you meant")
        return
    src, dst = names[0], names[1]
    if re.search(
        rf"{re.escape(spoken(names[1]))}.*can'?t reach.*{re.escape(spoken(names[0]))}", b.low
    ):
        src, dst = dst, src
    for pol in items:
        spec = pol.get("spec") or {}
        pname = (pol.get("metadata") or {}).get("name", "")
        if not _matches(spec.get("podSelector") or {}, labels.get(dst, {})):
            continue
        if "Ingress" not in (spec.get("policyTypes") or ["Ingress"]):
            continue
        rules = spec.get("ingress") or []
        ok = any(
            not r.get("from")
            or any(
                _matches(f.get("podSelector") or {"x": 1}, labels.get(src, {}))
                for f in r.get("from") or []
            )
            for r in rules
        )
        if ok:
            b.add("ruled_out", f"the policy {pname}, it does let {spoken(src)} in")
            continue
        allowed = (
            "; ".join(json.dumps(r.get("from"), sort_keys=True) for r in rules) or "nothing at all"
        )
        b.add(
            "cause",
            f"the network policy {pname} selects the {spoken(dst)} pods and only allows ingress from {allowed}. The {spoken(src)} pods, labelled {', '.join(f'{k}={v}' for k, v in labels.get(src, {}).items() if k != 'pod-template-hash')}, aren't in it, so their traffic is dropped",
        )
        await _open(b, pol, pname, src, dst, labels.get(src, {}), rules)
        return
    b.add(
        "findings",
        f"no policy blocks {spoken(src)} from {spoken(dst)}; next I'd check the service and its endpoints",
    )


async def _open(
    b: Bridge, pol: dict, pname: str, src: str, dst: str, lab: dict, rules: list
) -> None:
    key = "app" if "app" in lab else next(iter(lab), "")
    if not key or b.read_only or b.needs_approval:
        b.add(
            "plan",
            f"add an ingress rule to {pname} allowing pods with {key}={lab.get(key)}; I haven't changed it",
        )
        return
    ports = next((r.get("ports") for r in rules if r.get("ports")), None)
    rule: dict = {"from": [{"podSelector": {"matchLabels": {key: lab[key]}}}]}
    if ports:
        rule["ports"] = ports
    patch = json.dumps(
        [{"op": "add", "path": "/spec/ingress/-", "value": rule}]
        if rules
        else [{"op": "add", "path": "/spec/ingress", "value": [rule]}]
    )
    out = await b.kubectl(
        f"patch networkpolicy {pname} -n {b.ns} --type json -p '{patch}'",
        f"added one ingress rule to {pname} letting in pods with {key}={lab[key]}",
        "because that's the narrowest change that lets the traffic through, the rest of the policy stays as it was",
    )
    b.saw(out.strip().splitlines()[0] if out.strip() else "")
    back = await b.kubectl(
        f"get networkpolicy {pname} -n {b.ns} -o yaml",
        "read the policy back",
        "to check the rule landed and nothing else moved",
    )
    got = rd.items(back)
    n = len((got[0].get("spec") or {}).get("ingress") or []) if got else 0
    b.saw(f"It now has {plural(n, 'ingress rule')}")
    b.add(
        "did",
        f"network policy {pname}: ingress went from {plural(len(rules), 'rule')} to {words(n)}, the new one admits {key}={lab[key]}"
        + (" on the same ports" if any(r.get("ports") for r in rules) else ""),
    )
    b.add(
        "verified",
        f"read {pname} back after the patch, the rule is there and the old rules are unchanged",
    )


async def pending(b: Bridge, look: lk.Look, fix: bool) -> None:
    """Pods Pending: the scheduler's own message, the request against what the nodes have."""
    msg = next(
        (
            re.split(r"\s{2,}", e)[-1]
            for e in look.events
            if "FailedScheduling" in e or "nodes are available" in e
        ),
        "",
    )
    out = await b.kubectl(
        "get nodes -o yaml",
        "read the nodes' allocatable resources",
        "to compare them with what the pod asks for",
    )
    nodes = rd.items(out)
    cpu = [
        rd.quantity(str(((n.get("status") or {}).get("allocatable") or {}).get("cpu", ""))) or 0
        for n in nodes
    ]
    req = look.request("cpu")
    reqv = rd.quantity(req) or 0
    biggest = max(cpu, default=0)
    b.saw(f"{plural(len(nodes), 'node')}, the biggest has {biggest:g} CPU allocatable")
    name = spoken(look.name)
    b.add(
        "cause",
        f"the {name} pods are Pending because the scheduler can't place them: {msg or 'no node fits'}. The pod asks for {req} CPU and the biggest node only has {biggest:g} allocatable",
    )
    if not fix or not reqv or reqv <= biggest or b.read_only or b.needs_approval:
        b.add(
            "plan",
            f"bring the {name} CPU request down to something a node can hold, or add a bigger node",
        )
        return
    new = f"{int(biggest * 1000 * 0.25)}m"
    container = look.containers()[0].get("name", look.name)
    patch = json.dumps(
        {
            "spec": {
                "template": {
                    "spec": {
                        "containers": [{"name": container, "resources": {"requests": {"cpu": new}}}]
                    }
                }
            }
        }
    )
    await b.kubectl(
        f"patch deployment {look.name} -n {b.ns} --type strategic -p '{patch}'",
        f"lowered the {name} CPU request from {req} to {new}",
        f"because {req} can never fit on a node with {biggest:g} CPU, and a quarter of a node is plenty for one replica",
    )
    st = await b.kubectl(
        f"rollout status deployment/{look.name} -n {b.ns} --timeout=60s",
        "watched the rollout",
        "to check the new pods get scheduled",
    )
    b.saw(st.strip().splitlines()[-1] if st.strip() else "")
    await lk.pods(b, look)
    b.add(
        "did", f"deployment {look.name}: CPU request went from {req} to {new}, nothing else changed"
    )
    b.add("verified", f"after the change the pods are {lk.pod_count_said(look)}")
