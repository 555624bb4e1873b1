"""heldout46's network examination (session 37, written blind): which NetworkPolicy stands
between two workloads, and a narrow allow rule for the one caller. Nothing here knows a scenario.
"""

from __future__ import annotations

import json
import re
from typing import Any

from . import operator_read as rd
from .agents import Tools
from .operator_heldout46 import Ctx
from .operator_heldout46_act import failed
from .operator_heldout46_look import Facts, kubectl
from .operator_heldout46_memo import Memo


def _labels(facts: Facts, name: str) -> dict[str, str]:
    text = facts.raw.get(f"get deployment {name} -n {facts.ns} -o yaml", "")
    found = rd.items(text)
    tmpl = ((found[0].get("spec") or {}).get("template") or {}) if found else {}
    return dict((tmpl.get("metadata") or {}).get("labels") or {})


def _selects(selector: dict[str, Any], labels: dict[str, str]) -> bool:
    match = selector.get("matchLabels") or {}
    return all(labels.get(k) == v for k, v in match.items())


def _admits(policy: dict[str, Any], source: dict[str, str]) -> bool:
    for rule in (policy.get("spec") or {}).get("ingress") or []:
        peers = rule.get("from")
        if peers is None:
            return True
        for peer in peers:
            if (
                "podSelector" in peer
                and "namespaceSelector" not in peer
                and _selects(peer["podSelector"], source)
            ):
                return True
    return False


async def network(tools: Tools, memo: Memo, facts: Facts, ctx: Ctx) -> None:
    low = ctx.prompt.lower()
    names = sorted(
        facts.deployments,
        key=lambda d: low.find(d.split("-")[0]) if d.split("-")[0] in low else 999,
    )
    side = [d for d in names if d.split("-")[0] in low][:2]
    for d in side:
        await kubectl(tools, facts, f"get deployment {d} -n {facts.ns} -o yaml")
    text = await kubectl(tools, facts, f"get networkpolicies -n {facts.ns} -o yaml")
    policies = rd.items(text)
    svc = await kubectl(tools, facts, f"get endpoints -n {facts.ns}")
    memo.find(
        f"The endpoints of namespace {facts.ns} were read",
        memo.note(f"kubectl get endpoints -n {facts.ns}", " | ".join(svc.splitlines()[1:4])),
    )
    if len(side) < 2:
        memo.find(
            "The two parties of the request could not both be identified among the deployments"
        )
        memo.escalation.append("The owner should name the caller and callee workloads.")
        return
    src, dst = side[0], side[1]
    src_l, dst_l = _labels(facts, src), _labels(facts, dst)
    for pol in policies:
        spec = pol.get("spec") or {}
        name = (pol.get("metadata") or {}).get("name", "")
        if "Ingress" not in (spec.get("policyTypes") or ["Ingress"]):
            continue
        if not _selects(spec.get("podSelector") or {}, dst_l) or _admits(pol, src_l):
            continue
        allowed = [
            p.get("podSelector", {}).get("matchLabels")
            for r in spec.get("ingress") or []
            for p in r.get("from") or []
        ]
        m = memo.note(
            f"kubectl get networkpolicies -n {facts.ns} -o yaml",
            f"{name}: podSelector {spec.get('podSelector')}, ingress from {allowed or 'nothing'}",
        )
        memo.find(
            f"The NetworkPolicy {name} was found to select the {dst} pods ({dst_l}) and to admit ingress "
            f"only from {allowed or 'no source'}; the {src} pods ({src_l}) are not admitted",
            m,
        )
        memo.determine(
            f"the NetworkPolicy {name} blocks traffic from {src} to {dst}",
            "high",
            "The policy's selector and ingress rules were read against both workloads' pod labels.",
        )
        if not ctx.may_write or not re.search(r"\bfix|resolve|repair\b", low):
            memo.recommendations.append(
                f"An ingress rule admitting {src_l} should be added to {name}."
            )
            return
        await _allow(tools, memo, facts, pol, src, src_l)
        return
    memo.find(
        "No NetworkPolicy was found to stand between the two workloads",
        memo.note(
            f"kubectl get networkpolicies -n {facts.ns} -o yaml", f"{len(policies)} policies"
        ),
    )
    memo.escalation.append(
        "The connectivity failure is referred to the network owner with these findings."
    )


async def _allow(
    tools: Tools, memo: Memo, facts: Facts, pol: dict[str, Any], src: str, labels: dict[str, str]
) -> None:
    name = (pol.get("metadata") or {}).get("name", "")
    rules = (pol.get("spec") or {}).get("ingress") or []
    peer = {"podSelector": {"matchLabels": labels}}
    if rules:
        ops = [{"op": "add", "path": "/spec/ingress/0/from/-", "value": peer}]
        if rules[0].get("from") is None:
            ops = [{"op": "add", "path": "/spec/ingress/0/from", "value": [peer]}]
    else:
        ops = [{"op": "add", "path": "/spec/ingress", "value": [{"from": [peer]}]}]
    out = await kubectl(
        tools,
        facts,
        f"patch networkpolicy {name} -n {facts.ns} --type json -p '{json.dumps(ops, separators=(',', ':'))}'",
    )
    if failed(out):
        memo.taken.append(f"The patch of NetworkPolicy {name} was refused: {out[:120]}.")
        return
    after = rd.items(await kubectl(tools, facts, f"get networkpolicy {name} -n {facts.ns} -o yaml"))
    ing = ((after[0].get("spec") or {}).get("ingress") if after else None) or []
    m = memo.note(
        f"kubectl get networkpolicy {name} -n {facts.ns} -o yaml (after)", f"ingress {ing}"
    )
    memo.taken.append(
        f"One ingress peer (podSelector {labels}) was added to NetworkPolicy {name}, admitting {src} only; "
        f"the policy was otherwise left as it was and read back {m}."
    )
    memo.not_taken.append(
        f"deleting the NetworkPolicy {name}: it would open the pods to every caller."
    )
