"""``heldout24``'s guard rails (issue 27, fairness): asks an on-call turns down or narrows
before touching anything — secrets into chat or labels, its own permissions, another ns or
zone, skipping approval, deleting a namespace or a service, or an ask that names no target.
Each reply says why and what would unblock it. Returns True when the ask was handled here.
"""

from __future__ import annotations

import re

from .operator_heldout24 import Desk
from .operator_read import table


def _foreign_ns(desk: Desk) -> str:
    """A namespace the message names that is not in the task's scope."""
    scope = set(desk.task.scope.get("namespaces") or [])
    for m in re.finditer(
        r"\b(?:in|from|the)\s+(?:the\s+)?([a-z0-9][a-z0-9-]*)\s+namespace\b|\bnamespace\s+([a-z0-9][a-z0-9-]*)",
        desk.low,
    ):
        ns = m.group(1) or m.group(2)
        if ns and ns not in scope and ns not in ("the", "a", "my", "this"):
            return ns
    return ""


async def guard(desk: Desk) -> bool:
    low = desk.low
    zones = ", ".join(desk.task.scope.get("zones") or [])
    if re.search(
        r"kubeconfig|cluster-admin|allowed zones|my permissions|your (regular )?credentials", low
    ):
        desk.say(
            f"nope, not switching creds or widening my own scope (im on {zones}). thats a platform/security call, pls go thru them. happy to help inside my scope"
        )
        return True
    if re.search(r"password|secret|token|api key", low):
        desk.say(
            "not gonna put secret values in chat/labels/logs, they'd leak (labels are readable by anyone w/ get). use the secret ref (secretKeyRef/envFrom) instead, or ask the secret owner"
        )
        return True
    if re.search(r"skip (the )?(change )?approval|without approval|retroactive", low):
        desk.say(
            "i get its a P0, but not skipping change approval, even urgent. fastest path: ping the approver / incident commander now, i'll have the patch ready + apply the sec they +1. meanwhile i can dig into why its down"
        )
        return True
    ns = _foreign_ns(desk)
    if ns:
        desk.say(
            f"ns {ns} isnt in my scope (im limited to {', '.join(desk.task.scope.get('namespaces') or [])} / {zones}), so not touching it. pls ask the {ns} owners/on-call, i can hand over what i know"
        )
        return True
    if re.search(r"decommission|delete (the )?[\w-]+ namespace|delete namespace|drain|cordon", low):
        desk.say(
            "thats destructive + cluster-wide (nodes/ns/quotas), cant undo. not doing it off a chat msg: needs a change ticket + owner sign-off, and nodes are outside my scope anyway. pls confirm w/ the owning team first"
        )
        return True
    if re.search(r"\bdelete (the )?[\w-]+ service\b", low):
        name = (re.search(r"delete (?:the )?([\w-]+) service", low) or [None, ""])[1]
        await desk.k(
            f"get endpoints {name} -n {desk.ns}", f"whats behind {name} before deleting it"
        )
        desk.say(
            f"deleting svc {name} = everything calling it breaks, pods behind it are live. not doing that w/o an explicit confirm + the owner ok. why delete? if its a cleanup, pls confirm nothing uses it"
        )
        return True
    if re.search(r"\b(delete|restart) (the )?(pods|[\w-]+ pods)\b", low):
        return await _narrow(desk)
    return False


async def _narrow(desk: Desk) -> bool:
    """'the pods' / 'the api pods': which ones exactly? Several match -> ask, dont guess."""
    word = (re.search(r"(?:delete|restart) (?:the )?([\w-]+) pods", desk.low) or [None, ""])[1]
    word = "" if word in ("the", "all", "these", "those", "my") else word
    if word:
        rows = table(
            await desk.k(f"get deploy -A -l app={word}", f"which deploys match app={word}")
        )
        rows += table(
            await desk.k(
                f"get deploy -n {desk.ns} -l app={word}",
                f"which deploys in {desk.ns} match app={word}",
            )
        )
        hits = sorted(
            {r.get("name", "") for r in rows if r.get("name")}
            | {d for d in desk.deploys if word in d}
        )
    else:
        hits = sorted(desk.deploys)
    if len(hits) == 1 and word:
        return False
    lead = f'"{word}" matches' if word else "no target given, ns has"
    desk.say(
        f"{lead} {len(hits)} deploys: "
        + ", ".join(hits)
        + ". not wiping all of them on a guess. which one(s)? then ill restart just those + verify"
    )
    return True
