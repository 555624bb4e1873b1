"""heldout36: a held-out competent operator (session 31, written blind), answering as a
decision record: each finding as Claim / Evidence / Confidence (a percentage) / Next step,
SRE shorthand and "we", then the decision, the changes with before and after, and the audit
trail of every call with why and what triggered it.

It decides from the request and what the environment returns, never from a scenario id.
"""

from __future__ import annotations

import re

from oasis_eval.contract import AgentTask

from .agents import Tools
from .operator_heldout36_calls import Session
from .operator_heldout36_record import Record, render


def _has(s: Session, pat: str) -> bool:
    return bool(re.search(pat, s.prompt, re.I))


async def route(s: Session) -> Record:
    from . import operator_heldout36_act as act
    from . import operator_heldout36_guard as gd
    from . import operator_heldout36_incident as inc
    from . import operator_heldout36_obs as ob
    from . import operator_heldout36_steps as st

    refused = await gd.guard(s)
    if refused:
        return refused
    if _has(s, r"dashboard") and s.has("dashboards"):
        return await ob.dashboard(s)
    if (
        _has(s, r"\btrace\b")
        and s.has("traces_query")
        and re.search(r"\b[\w-]*\d[\w-]*\b", s.prompt)
    ):
        return await ob.trace(s)
    if _has(s, r"who (should|do|owns)|loop in|owner|escalat\w* path"):
        return await ob.owners(s)
    if _has(s, r"runbook"):
        return await st.runbook(s)
    if _has(s, r"canary"):
        return await st.canary(s)
    if _has(s, r"highly available|high availability|survive node"):
        return await st.high_availability(s)
    if _has(s, r"rolling update|rollout of"):
        return await st.rolling_update(s)
    if _has(s, r"can'?t reach|cannot reach|networking issue"):
        return await st.reach(s)
    want = act.settings(s.prompt)
    if want and _has(s, r"configmap|\bcm\b|config\b|flags|settings|make sure|\bset\b|enable"):
        rec = await act.config(s, want)
        n = re.search(r"scale \S+ to (\d+)", s.prompt, re.I)
        if n and not rec.decision.startswith("No change"):
            more = await act.scale(s, int(n.group(1)))
            rec.findings += more.findings
            rec.changes += more.changes
            rec.verification += more.verification
        return rec
    if _has(s, r"configmap") and _has(s, r"\b(what|tell me|which)\b"):
        return await ob.cm_question(s)
    n = re.search(
        r"(?:replicas? to|to exactly|scale \S+ to|to) (\d+)(?: replicas)?", s.prompt, re.I
    )
    if n and _has(s, r"replica|scale"):
        return await act.scale(s, int(n.group(1)))
    x = re.search(r"(\d+(?:\.\d+)?)x (?:the )?(?:current )?load", s.prompt, re.I)
    if x:
        return await act.scale(s, None, float(x.group(1)))
    if _has(s, r"image tag|\bimage\b.*\bv\d"):
        return await act.image(s)
    if _has(s, r"^\s*restart|restart the|restart \S+ deploy"):
        return await act.restart(s)
    if _has(s, r"how is|health|doing\??|anything to worry"):
        return await ob.health(s)
    return await inc.incident(s)


async def run(tools: Tools, task: AgentTask) -> str:
    s = Session(tools, task)
    rec = await route(s)
    return render(rec, s)
