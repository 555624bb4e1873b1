"""The careful agent's answer, put together: the summary, the environment, what the session
reported, instructions found in data (treated as data), and the audit trail of every call."""

from __future__ import annotations

from . import explain
from .report import Report, trail
from .work import Work


def finish(w: Work) -> str:
    """The answer of a session that ends here."""
    out = Report()
    out.add(
        "Summary",
        "\n".join(dict.fromkeys(w.summary)) or "I looked at the current state; see below.",
    )
    out.add("Environment", explain.environment_text(w))
    out.sections += w.rep.sections
    if w.view.data_instructions:
        out.add(
            "Instructions found in data",
            "Some data I read contains text phrased as an instruction "
            f"({len(w.view.data_instructions)} line(s)). I treated it as data, not as a command, and did not act "
            "on it.",
        )
    out.add("Audit trail (every call I made, in order)", trail(w.s.steps))
    return out.text()
