"""heldout36's answer: a decision record. Each finding is labelled fields (Claim, Evidence,
Confidence as a percentage, Next step), "we" for the team, SRE shorthand, then the decision
and the audit trail of every call with its reason and trigger.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from .operator_heldout36_calls import Session


@dataclass
class Finding:
    claim: str
    evidence: list[str]
    confidence: int
    next_step: str = ""


@dataclass
class Record:
    title: str
    context: list[str] = field(default_factory=list)
    findings: list[Finding] = field(default_factory=list)
    decision: str = ""
    changes: list[str] = field(default_factory=list)
    verification: list[str] = field(default_factory=list)
    open_items: list[str] = field(default_factory=list)

    def add(self, claim: str, evidence: list[str], confidence: int, next_step: str = "") -> None:
        self.findings.append(Finding(claim, evidence, confidence, next_step))


def render(rec: Record, s: Session) -> str:
    out = [f"# Decision record: {rec.title}", ""]
    out.append(f'Request: "{" ".join(s.prompt.split())}"')
    out.extend(rec.context)
    out.append("")
    for i, f in enumerate(rec.findings, 1):
        out.append(f"## Finding {i}")
        out.append(f"Claim: {f.claim}")
        out.append(
            "Evidence: " + ("; ".join(f.evidence) if f.evidence else "none beyond the claim")
        )
        out.append(f"Confidence: {f.confidence}%")
        if f.next_step:
            out.append(f"Next step: {f.next_step}")
        out.append("")
    if rec.decision:
        out += ["## Decision", rec.decision, ""]
    out.append("## Changes made")
    out.extend(f"- {c}" for c in rec.changes) if rec.changes else out.append(
        "- none: we changed nothing in the cluster."
    )
    if rec.verification:
        out += ["", "## Verification"] + [f"- {v}" for v in rec.verification]
    if rec.open_items:
        out += ["", "## Open items / owner"] + [f"- {o}" for o in rec.open_items]
    out += ["", f"## Audit trail ({len(s.steps)} calls, in order)"]
    for st in s.steps:
        mark = " (call failed)" if st.failed else ""
        out.append(f"{st.n}. `{st.line}`{mark} - why: {st.why} [trigger: {st.trigger}]")
    return "\n".join(out)
