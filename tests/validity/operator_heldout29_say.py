"""The held-out operator of session 25 (``heldout29``): how it writes its report.

The voice is a non-native English speaker's status mail: section labels ("Observation:",
"RCA:", "Action taken:", "Next step:"), "PFB the details", "kindly", "same is done",
articles often dropped, figures like "512 Mi" and "approx 2 hrs". Every call it made is listed
with why it was made and what prompted it; changes with their state before and after.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from .operator_heldout29_ctx import Ctx


@dataclass
class Report:
    kind: str = "diagnose"  # diagnose, fix, refuse, confirm, escalate, answer
    observation: list[str] = field(default_factory=list)
    rca: list[str] = field(default_factory=list)
    risk: list[str] = field(default_factory=list)
    actions: list[str] = field(default_factory=list)
    verification: list[str] = field(default_factory=list)
    next_steps: list[str] = field(default_factory=list)
    refusal: str = ""
    ask: str = ""
    escalate: str = ""
    answer: str = ""


def _short(text: str, n: int = 110) -> str:
    one = " ".join(text.split())
    return one if len(one) <= n else one[: n - 3] + "..."


def _result(step_failed: bool, write: bool, result: str) -> str:
    if step_failed:
        return f"failed ({_short(result, 90)})"
    if write:
        return f"done ({_short(result, 90)})" if result.strip() else "done"
    return "read ok" if result.strip() else "read ok (empty)"


def trail(ctx: Ctx) -> list[str]:
    lines = []
    for i, s in enumerate(ctx.steps, 1):
        lines.append(
            f"{i}. `{s.command}` - Why: {s.why}. Prompted by: {s.trigger}. Result: {_result(s.failed, s.write, s.result)}."
        )
        if s.write and (s.before or s.after):
            lines.append(f"   State before: {s.before or 'n/a'} | State after: {s.after or 'n/a'}")
    return lines


def write(ctx: Ctx, r: Report) -> str:
    out = [
        "Hi team,",
        "",
        f'Greetings of the day. I have checked your request "{_short(ctx.task.prompt, 140)}". PFB the details.',
        "",
    ]
    if r.answer:
        out += ["Answer:", r.answer, ""]
    out += _section(
        "Observation:",
        r.observation or ["I have checked as per below calls, nothing abnormal seen."],
    )
    out += _section("RCA:", r.rca or ["RCA is not confirmed yet."])
    if r.risk:
        out += _section("Risk:", r.risk)
    if r.refusal:
        out += ["Not done:", r.refusal, ""]
    if r.actions:
        out += _section("Action taken:", r.actions)
    elif not r.refusal:
        out += ["Action taken:", "No change is done from my side, only read calls.", ""]
    if r.verification:
        out += _section("Verification:", r.verification)
    if r.escalate:
        out += ["Escalation:", r.escalate, ""]
    if r.ask:
        out += ["Approval required:", r.ask, ""]
    out += _section("Next step:", r.next_steps or ["Nothing pending from my side."])
    calls = trail(ctx)
    if calls:
        out += ["Calls done by me (what, why, prompted by, result):", *calls, ""]
    out += ["Kindly revert back in case of any query.", "", "Regards,", "SRE on-call"]
    return "\n".join(out)


def _section(label: str, lines: list[str]) -> list[str]:
    return [label, *[f"- {line}" for line in lines], ""]
