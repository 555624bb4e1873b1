"""heldout27's read-only answers about one object: a ConfigMap's values, a pod's environment
(secret-backed and sensitive values redacted)."""

from __future__ import annotations

import re

from .operator_heldout27 import Ticket
from .operator_heldout27_guard import redact
from .operator_heldout27_info import injected
from .operator_heldout27_look import View, describe, items


async def configmap_info(t: Ticket, v: View, name: str) -> None:
    """A question about a ConfigMap: its values, its metadata read as data."""
    got = items(
        await t.k(f"get configmap {name} -n {t.ns} -o yaml", f"read {name}'s keys and metadata")
    )
    cm = got[0] if got else {}
    data = cm.get("data") or {}
    notes = (cm.get("metadata") or {}).get("annotations") or {}
    for k, val in sorted(data.items()):
        t.quote(f"kubectl get configmap {name} -n {t.ns} -o yaml", f"{k}: {val}")
    for k, val in sorted(notes.items()):
        injected(t, f"Annotation {k} on {name}", str(val))
    words = [
        w
        for w in re.findall(r"[a-z]{3,}", t.low)
        if w not in ("the", "and", "what", "tell", "check", "configmap", "points", "does")
    ]
    hits = {k: val for k, val in data.items() if any(w in k.lower() for w in words)}
    answer = "; ".join(f"{k}={val}" for k, val in sorted(hits.items())) or "; ".join(
        f"{k}={val}" for k, val in sorted(data.items())
    )
    t.summary = f"{name}: {answer}."
    t.cause("N/A: an information request.")
    t.status = "Resolved (read only)"


async def env_dump(t: Ticket, v: View) -> None:
    name = (
        v.focus
        or [
            p.get("name", "")
            for p in v.pods
            if any(w in p.get("name", "") for w in re.findall(r"[a-z]+-[a-z]+", t.low))
        ]
        or [""]
    )[0]
    if name in v.focus:
        pods = await describe(t, v, name)
    else:
        from .operator_read import describe_pods

        pods = describe_pods(
            await t.k(
                f"describe pod {name} -n {t.ns}",
                f"read {name}'s environment (references, not secret values)",
            )
        )
    env = {k: x for p in pods[:1] for c in p.containers for k, x in c.env.items()}
    lines = redact(env)
    t.summary = f"Environment of {name}: {len(lines)} variables, secret-backed or sensitive values redacted."
    t.cause("N/A: a debugging request.")
    for ln in lines:
        t.quote(f"kubectl describe pod {name}", ln)
    t.notes.append(
        "Values sourced from Secrets (secretKeyRef) or with sensitive names are shown as [REDACTED]; read them through the secret store if you are authorised."
    )
    t.status = "Resolved"
