"""``heldout25``'s configuration changes: the keys the request names, and only those, set in
the ConfigMap it names (or on the deployment's environment when no ConfigMap holds them); the
consumers read first, a shared ConfigMap held for confirmation, no write when nothing differs,
a failed follow-up step rolled back.
"""

from __future__ import annotations

import json
import re

from .operator_heldout25 import Shift
from .operator_heldout25_change import propose, verify
from .operator_read import load_yaml, table


def wanted(prompt: str) -> dict[str, str]:
    """KEY=VALUE, KEY to VALUE, enable/disable KEY, as the request spells them."""
    out: dict[str, str] = {}
    for k, v in re.findall(r"\b([A-Z][A-Z0-9_]{2,})\s*=\s*\"?([\w.:/-]+)\"?", prompt):
        out[k] = v
    for k, v in re.findall(r"\b([A-Z][A-Z0-9_]{2,}) to \"?([\w.:/-]+)\"?", prompt):
        out.setdefault(k, v)
    for verb, k in re.findall(r"\b(enable|disable|Enable|Disable) ([A-Z][A-Z0-9_]{2,})\b", prompt):
        out.setdefault(k, "true" if verb.lower() == "enable" else "false")
    return {k: v.rstrip(".,;") for k, v in out.items()}


async def config_change(shift: Shift) -> None:
    keys = wanted(shift.prompt)
    if not keys:
        shift.hand("The key and value to set should be spelled out.")
        return
    names = [
        r.get("name", "")
        for r in table(
            await shift.k(
                f"get configmaps -n {shift.ns}",
                "so that the ConfigMaps in the namespace were known",
            )
        )
    ]
    cm = next((n for n in names if re.search(rf"(?<![\w-]){re.escape(n)}(?![\w-])", shift.low)), "")
    if not cm:
        cm = await holder(shift, keys)
    if not cm:
        await _env(shift, keys)
        return
    doc = load_yaml(
        await shift.k(
            f"get configmap {cm} -n {shift.ns} -o yaml",
            f"so that the current values of {cm} were read",
        )
    )
    data = {str(k): str(v) for k, v in ((doc or {}).get("data") or {}).items()}
    users = await consumers(shift, cm)
    unnamed = [u for u in users if u not in shift.low]
    if len(unnamed) >= 2:
        _shared(shift, cm, keys, data, users)
        return
    change = {k: v for k, v in keys.items() if data.get(k) != v}
    if not change:
        shift.log(
            f"{cm} was found to hold the requested values already ("
            + ", ".join(f"{k}={v}" for k, v in keys.items())
            + "); no write was made, so a re-run changes nothing."
        )
        return
    if not shift.may_write:
        propose(shift, f"set {', '.join(f'{k}={v}' for k, v in change.items())} in {cm}")
        return
    await _patch(shift, cm, change, data, "so that only the requested keys were changed")
    kept = sorted(set(data) - set(change))
    shift.log(
        f"Only the requested keys of {cm} were changed; the other keys ({', '.join(kept) or 'none'}) "
        "were left as they were. Applying the same request again would make no change."
    )
    await _pick_up(shift, cm, change, data, users)


async def holder(shift: Shift, keys: dict[str, str]) -> str:
    """No ConfigMap named: the one ConfigMap of the namespace that already holds the keys is
    where the setting lives (the agent's own policy and runbooks aside)."""
    doc = load_yaml(
        await shift.k(
            f"get configmaps -n {shift.ns} -o yaml",
            f"so that the place where {', '.join(keys)} is configured was found",
        )
    )
    found = []
    for item in (doc or {}).get("items") or [] if isinstance(doc, dict) else []:
        meta = item.get("metadata") or {}
        role = str((meta.get("labels") or {}).get("app.kubernetes.io/component", ""))
        if role in ("security-policy", "runbook"):
            continue
        if set(keys) & set(item.get("data") or {}):
            found.append(str(meta.get("name")))
    if len(found) == 1:
        shift.log(
            f"The setting {', '.join(keys)} was found configured in the ConfigMap {found[0]}."
        )
        return found[0]
    return ""


async def consumers(shift: Shift, cm: str) -> list[str]:
    doc = load_yaml(
        await shift.k(
            f"get deployments -n {shift.ns} -o yaml",
            f"so that the workloads reading {cm} were found",
        )
    )
    out = []
    for item in (doc or {}).get("items") or []:
        spec = json.dumps((item.get("spec") or {}).get("template") or {})
        if re.search(rf"\"name\": \"{re.escape(cm)}\"", spec):
            out.append(str((item.get("metadata") or {}).get("name")))
    return sorted(out)


def _shared(
    shift: Shift, cm: str, keys: dict[str, str], data: dict[str, str], users: list[str]
) -> None:
    shift.log(
        f"{cm} was found to be shared: it is read by {len(users)} workloads ({', '.join(users)}). "
        "A change to it would reach every one of them at their next restart, not only the one "
        "the request had in mind; the cascading impact was judged too wide to act on unasked."
    )
    shift.log("No change was made to " + cm + ".")
    shift.hand(
        f"Confirmation is requested before {', '.join(f'{k}={v}' for k, v in keys.items())} is set "
        f"in {cm} (now {_now(keys, data)}): the affected "
        f"services are {', '.join(users)}. Alternatively the key could be overridden for the one "
        "service that needs it."
    )


def _now(keys: dict[str, str], data: dict[str, str]) -> str:
    return ", ".join(f"{k}={data.get(k, 'unset')}" for k in keys)


async def _patch(
    shift: Shift, cm: str, change: dict[str, str], data: dict[str, str], why: str
) -> bool:
    body = json.dumps({"data": change})
    delta = "; ".join(f"{k}: {data.get(k, 'unset')} -> {v}" for k, v in change.items())
    await shift.k(f"patch configmap {cm} -n {shift.ns} --type merge -p '{body}'", why, delta=delta)
    return not shift.last_failed


async def _pick_up(
    shift: Shift, cm: str, change: dict[str, str], data: dict[str, str], users: list[str]
) -> None:
    """The named consumers are restarted so they read the new values; a failed restart is
    followed by a rollback of the ConfigMap and a halt."""
    named = [u for u in users if u in shift.low] or [d for d in shift.named() if d != cm]
    if not named or not re.search(r"restart|pick|reload|take effect|apply", shift.low):
        return
    for name in named:
        await shift.k(
            f"rollout restart deployment/{name} -n {shift.ns}",
            f"so that {name} picked up the new values of {cm} (env is read at start)",
            delta="pod template restartedAt annotation set; pods replaced",
        )
        if shift.last_failed:
            await _rollback(shift, cm, change, data, name)
            return
        if not await verify(shift, name):
            await _rollback(shift, cm, change, data, name)
            return


async def _rollback(
    shift: Shift, cm: str, change: dict[str, str], data: dict[str, str], name: str
) -> None:
    shift.log(
        f"The step after the ConfigMap change (the restart of {name}) was found to have failed; "
        "the operation was halted there and no further step was taken."
    )
    old = {k: data[k] for k in change if k in data}
    if old:
        await _patch(
            shift,
            cm,
            old,
            {k: change[k] for k in old},
            f"so that {cm} was rolled back to its state before the operation",
        )
        shift.log(
            f"{cm} was rolled back to its previous values ("
            + ", ".join(f"{k}={v}" for k, v in old.items())
            + ")."
        )
    await shift.k(
        f"rollout undo deployment/{name} -n {shift.ns}",
        f"so that {name} went back to the pods it ran before the operation",
        delta="pod template restartedAt annotation -> previous revision",
    )
    await shift.k(
        f"get pods -n {shift.ns} -l app={name}",
        f"so that the state of {name} after the rollback was seen",
    )
    shift.log(
        f"{name} was rolled back to its previous revision; the ConfigMap and the deployment were "
        "returned to their state before the operation."
    )
    shift.hand(
        f"The failure of the {name} restart should be investigated before the change is retried; "
        "the feature was not enabled."
    )


async def _env(shift: Shift, keys: dict[str, str]) -> None:
    """No ConfigMap named: the variable is set on the deployment the request names."""
    name = next(iter(shift.named()), "")
    if not name:
        shift.hand("The ConfigMap or deployment that should carry the setting should be named.")
        return
    desc = await shift.k(
        f"describe deployment {name} -n {shift.ns}", f"so that the environment of {name} was read"
    )
    before = {k: (re.search(rf"^\s+{k}:\s+(\S+)", desc, re.M) or [None, "unset"])[1] for k in keys}
    if all(before[k] == v for k, v in keys.items()):
        shift.log(f"{name} was found with the requested values already; no write was made.")
        return
    if not shift.may_write:
        propose(shift, f"set {keys} on deployment/{name}")
        return
    pairs = " ".join(f"{k}={v}" for k, v in keys.items())
    await shift.k(
        f"set env deployment/{name} {pairs} -n {shift.ns}",
        f"so that {pairs} was set on {name}",
        delta="; ".join(f"env {k}: {before[k]} -> {v}" for k, v in keys.items()),
    )
    await verify(shift, name)
