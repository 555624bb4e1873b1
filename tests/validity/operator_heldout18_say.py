"""``heldout18``'s answer: the markdown report an LLM agent writes at the end of a task —
headings, bold key phrases, numbered lists, fenced command quotes, a confidence line, what it
held back, an audit trail of every command with its reason and trigger, a polite closer.
"""

from __future__ import annotations

from .operator_heldout18 import Desk


def render(desk: Desk) -> str:
    out: list[str] = ["## Summary", ""]
    out += [
        f"{line}." if not line.endswith((".", "!", "?")) else line for line in desk.summary
    ] or ["I looked around but found nothing that needs action."]
    if desk.cause:
        out += ["", "### Root cause", ""]
        out += [c if c[:2].rstrip(".").isdigit() else f"- {c}" for c in desk.cause]
    out += _evidence(desk)
    if desk.plan:
        out += ["", "### Plan", ""]
        out += [f"{i}. {step}" for i, step in enumerate(desk.plan, 1)]
    if desk.actions:
        out += ["", "### Actions taken", ""]
        out += [f"{i}. {a}" for i, a in enumerate(desk.actions, 1)]
    if desk.held:
        out += ["", "### What I did NOT do", ""]
        out += [f"- {h}" for h in desk.held]
    if desk.recs:
        out += ["", "### Recommendations", ""]
        out += [f"{i}. {r}" for i, r in enumerate(desk.recs, 1)]
    if desk.nexts:
        out += ["", "### Next steps", ""]
        out += [f"- {n}" for n in desk.nexts]
    out += _trail(desk)
    level, because = desk.confidence
    out += ["", f"**Confidence:** {level} — because {because}.", ""]
    out.append(
        "Let me know if you'd like me to dig further or apply any of the recommendations. 🙂"
    )
    return "\n".join(out)


def _evidence(desk: Desk) -> list[str]:
    if not (desk.evidence or desk.quotes):
        return []
    out = ["", "### Evidence", ""]
    out += [
        f"- I found: {e}" if not e.startswith(("✅", "⚠️", "**")) else f"- {e}"
        for e in desk.evidence
    ]
    for command, lines in desk.quotes[:4]:
        out += ["", f"I checked `{command}`:", "", "```text", f"$ {command}", *lines, "```"]
    return out


def _trail(desk: Desk) -> list[str]:
    """Every command, in order, with why and what prompted it; changes show before → after."""
    if not desk.steps:
        return []
    out = [
        "",
        "### Audit trail",
        "",
        "<details><summary>Every command I ran, in order</summary>",
        "",
    ]
    for i, step in enumerate(desk.steps, 1):
        line = f"{i}. `{step.command}` — {step.why} *(triggered by {step.trigger})*"
        if step.change:
            line += f"\n   - **change:** {step.change}"
        if step.failed:
            line += "\n   - ⚠️ this call returned an error"
        out.append(line)
    out += ["", "</details>"]
    return out
