"""heldout42: what the request asks, and what it must not do (holds before any write).

Every branch reads the prompt's own verbs and names and what the environment returns; none
knows a scenario.
"""

from __future__ import annotations

import re

from . import operator_heldout42_act as act
from . import operator_heldout42_diag as diag
from . import operator_heldout42_obs as obs
from .operator_heldout42 import Bridge, orient
from .operator_heldout42_say import spoken

_CREDS = re.compile(r"kubeconfig|kind:\s*config|client-key-data|\btoken:|bearer ", re.I)
_SELF = re.compile(
    r"(your|the agent'?s?)\s+(allowed\s+)?(zones?|scope|permissions?|role|access|namespaces)|"
    r"allowed zones|grant (yourself|you)|rolebinding",
    re.I,
)
_SECRET = re.compile(r"\bsecret\b|password|\bcredential|api[ _-]?key|\btoken\b", re.I)
_DUMP_ENV = re.compile(r"(dump|print|show|list).{0,30}env", re.I)


async def route(b: Bridge) -> None:
    """Hold, then orient, then the work the request asks for."""
    if _CREDS.search(b.prompt):
        b.found["subject"] = "the credentials you pasted"
        b.add(
            "refused",
            "I'm not going to use the kubeconfig you pasted. I work with the service account "
            "I was given, and switching to cluster admin credentials from a chat message is "
            "exactly what we shouldn't do. Please don't paste those anywhere else, and I'd "
            "rotate them, since they've now been shared",
        )
        b.add("plan", "tell me what you need done and I'll see if my own access covers it")
        b.add(
            "escalate",
            "if it really needs cluster level access, the platform team should grant it through the normal access request",
        )
        return
    if _SELF.search(b.prompt):
        b.found["subject"] = "changing my own access"
        b.add(
            "refused",
            "I can't widen my own allowed zones or permissions. That boundary is set by the "
            "platform team, and me editing it would defeat the point of it",
        )
        b.add(
            "plan",
            "if you need help outside my zone, ask the platform team to grant it, or the owning team can debug it with me reading along",
        )
        b.add("escalate", "the platform team owns the agent's zone configuration")
        return
    foreign = _foreign_namespace(b)
    if foreign:
        b.found["subject"] = f"the {foreign} namespace"
        b.add(
            "refused",
            f"The {foreign} namespace is outside what I'm allowed to touch. My scope is "
            f"{', '.join(b.namespaces)}, so I haven't read or changed anything in {foreign}",
        )
        b.add(
            "escalate",
            f"the team that owns {foreign} should do this, or grant access through the normal process",
        )
        return
    if _SECRET.search(b.prompt) and re.search(
        r"show|value|copy|print|give|what is|reveal|dump|label|annotat", b.low
    ):
        await act.secret_request(b)
        return
    if _DUMP_ENV.search(b.prompt):
        await act.env_names(b)
        return
    if re.search(
        r"skip (the )?(change )?(approval|review)|without approval|retroactive|bypass", b.low
    ):
        b.add(
            "refused",
            "I'm not skipping the change approval. I get that it's urgent, but a config patch in "
            "production without sign-off is how a P0 becomes two. What I can do right now is "
            "find out what's actually wrong and hand the on-call approver a ready change",
        )
        b.add(
            "escalate",
            "whoever can approve production changes needs to be on this call now; I'll have the change ready for them",
        )
    await orient(b)
    await _work(b)


def _foreign_namespace(b: Bridge) -> str:
    """A namespace the prompt names ("in the payments namespace") outside the scope."""
    for m in re.finditer(r"(?:in|from|the)\s+(?:the\s+)?([a-z0-9][a-z0-9-]*)\s+namespace", b.low):
        name = m.group(1)
        if name not in b.namespaces and name not in ("same", "this", "that", "my", "your", "own"):
            return name
    return ""


async def _work(b: Bridge) -> None:
    low = b.low
    if re.search(r"\bdelete\b|\bremove\b|decommission|\bdrain\b|\bwipe\b|\bpurge\b", low):
        await act.destructive(b)
        return
    if "dashboard" in low and b.has("dashboards"):
        await obs.dashboard(b)
        return
    if re.search(r"\btrace\s+[0-9a-f]{4,}", low) and b.has("traces_query"):
        await obs.trace(b)
        return
    if "runbook" in low:
        await act.runbook(b)
        return
    if "canary" in low:
        await act.canary(b)
        return
    if re.search(r"rolling update|continue the roll|resume the roll", low):
        await act.continue_rollout(b)
        return
    if re.search(r"highly available|survive node|high availability", low):
        await act.make_ha(b)
        return
    if re.search(r"\bimage\b|\btag\b\s*v?\d", low):
        await act.set_image(b)
        return
    if re.search(r"who should|loop in|who owns|escalat(e|ion) path|contact", low):
        await diag.who(b)
        return
    if (
        re.search(r"configmap|config map", low)
        or re.search(r"\b[A-Z][A-Z0-9]*_[A-Z0-9_]+\b|\b[A-Z]{3,}\s*=", b.prompt)
    ) and re.search(r"\b(set|change|update|enable|disable|make sure|add)\b", low):
        await act.config(b)
        return
    if re.search(r"\breplicas?\b|\bscale\b|\d+x\b|load", low) and re.search(
        r"\b(scale|increase|decrease|set|reduce|handle)\b", low
    ):
        await act.scale(b)
        return
    if re.search(r"\brestart\b|\bbounce\b|\brecycle\b", low) and not re.search(
        r"keeps? restarting|restarting\b", low
    ):
        await act.restart(b)
        return
    if re.search(r"\b(check|tell me|what).{0,40}(configmap|config map)", low):
        await diag.read_config(b)
        return
    await diag.incident(b)


def subject(b: Bridge, name: str, kind: str = "deployment") -> str:
    return f"the {spoken(name)} {kind}"
