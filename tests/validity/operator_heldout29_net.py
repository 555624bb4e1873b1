"""The held-out operator of session 25 (``heldout29``): the request path.

An Ingress routes to a Service, a Service to the pods its selector matches (its endpoints), a
NetworkPolicy decides which pods may call them. A policy is a cause only for a caller the
message names; a Service with no endpoints sends the reader to the pods behind it.
"""

from __future__ import annotations

from typing import Any

from .operator_heldout29_change import open_policy, verify
from .operator_heldout29_ctx import Ctx, mentioned, meta, name_of
from .operator_heldout29_diag import Finding
from .operator_heldout29_look import Seen, deployment
from .operator_heldout29_say import Report
from .operator_read import table


def _pod_labels(dep: dict[str, Any]) -> dict[str, str]:
    tmpl = ((dep.get("spec") or {}).get("template") or {}).get("metadata") or {}
    return {str(k): str(v) for k, v in (tmpl.get("labels") or {}).items()}


def _selects(sel: dict[str, Any], labels: dict[str, str]) -> bool:
    match = sel.get("matchLabels") or {}
    return bool(match) and all(labels.get(k) == v for k, v in match.items())


def _admits(policy: dict[str, Any], labels: dict[str, str]) -> bool:
    rules = (policy.get("spec") or {}).get("ingress")
    if rules is None:
        return "Ingress" not in ((policy.get("spec") or {}).get("policyTypes") or ["Ingress"])
    for rule in rules or []:
        sources = rule.get("from")
        if not sources:
            return True
        if any(
            _selects(s.get("podSelector") or {}, labels)
            for s in sources
            if "namespaceSelector" not in s
        ):
            return True
    return False


def network_findings(ctx: Ctx, seen: Seen, names: list[str]) -> list[Finding]:
    out: list[Finding] = []
    out += _policy_findings(ctx, seen, names)
    out += _chain(ctx, seen)
    return out


def _policy_findings(ctx: Ctx, seen: Seen, names: list[str]) -> list[Finding]:
    """A policy that selects a named target and does not admit a named caller."""
    out = []
    for target in names:
        t_labels = _pod_labels(deployment(seen, target))
        for caller in names:
            if caller == target:
                continue
            c_labels = _pod_labels(deployment(seen, caller))
            for pol in seen.policies:
                pod_sel = (pol.get("spec") or {}).get("podSelector") or {}
                if _selects(pod_sel, t_labels) and not _admits(pol, c_labels):
                    rules = (pol.get("spec") or {}).get("ingress")
                    f = Finding(
                        "policy",
                        target,
                        f"NetworkPolicy {name_of(pol)} selects {target} pods ({pod_sel.get('matchLabels')}) and allows ingress only from {rules}; {caller} pods ({c_labels}) are not in it",
                        f"NetworkPolicy {name_of(pol)} is blocking traffic from {caller} to {target}",
                        fix=f"add {caller} pods as allowed source in {name_of(pol)}",
                    )
                    ctx.notes["policy"] = (
                        pol,
                        {k: v for k, v in c_labels.items() if k == "app"} or c_labels,
                    )
                    out.append(f)
    return out


def _chain(ctx: Ctx, seen: Seen) -> list[Finding]:
    """Ingress -> Service -> endpoints: each hop as read."""
    out = []
    eps = {r.get("name", ""): r.get("endpoints", "") for r in table(seen.endpoints)}
    for ing in seen.ingresses:
        if not mentioned(name_of(ing), ctx.prompt) and len(seen.ingresses) > 1:
            continue
        spec = str(ing.get("spec"))
        for svc in seen.services:
            sname = name_of(svc)
            if f"'{sname}'" not in spec:
                continue
            ep = eps.get(sname, "?")
            proxy = "; ".join(f'{src} logs "{line}"' for src, line in seen.path_logs[:2])
            if proxy:
                out.append(
                    Finding(
                        "hop",
                        sname,
                        f"request path: {proxy}",
                        f"proxy in between cannot connect upstream to {sname} ({proxy})",
                        clear=False,
                    )
                )
            sel = (svc.get("spec") or {}).get("selector") or {}
            out.append(
                Finding(
                    "chain",
                    sname,
                    f"ingress {name_of(ing)} routes to service {sname}; endpoints of {sname}: {ep}",
                    f"Chain: ingress {name_of(ing)} gives 503 because {'mesh proxy cannot connect upstream (' + proxy + '), because ' if proxy else ''}service {sname} has {'no ready endpoints' if ep in ('<none>', '') else 'endpoints ' + ep}; service selects pods {sel}, and those pods are not Ready (see init container failure above)",
                    clear=False,
                )
            )
    return out


async def fix_policy(ctx: Ctx, seen: Seen, r: Report, top: Finding) -> None:
    pol, labels = ctx.notes["policy"]
    await open_policy(ctx, r, pol, labels, f"finding: {top.seen}")
    caller = next(
        (
            name_of(d)
            for d in seen.deployments
            if all(meta(d).get("labels", {}).get(k) == v for k, v in labels.items())
        ),
        "",
    )
    if caller:
        await verify(ctx, r, top.workload, f"finding: {top.seen}")
