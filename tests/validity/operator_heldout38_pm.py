"""heldout38's answer: a blameless postmortem as an SRE team files it (Summary, Impact,
Timeline (UTC), Root cause, Contributing factors, What went well / wrong, Action items)."""

from __future__ import annotations

from dataclasses import dataclass, field

from .operator_heldout38_calls import Session


@dataclass
class Postmortem:
    title: str = "Incident postmortem"
    summary: list[str] = field(default_factory=list)
    impact: list[str] = field(default_factory=list)
    #: (time, event) rows read from the system: log timestamps, event ages, rollout ages
    history: list[tuple[str, str]] = field(default_factory=list)
    root_cause: list[str] = field(default_factory=list)
    factors: list[str] = field(default_factory=list)
    ruled_out: list[str] = field(default_factory=list)
    went_well: list[str] = field(default_factory=list)
    went_wrong: list[str] = field(default_factory=list)
    #: (action, owner, priority, status)
    actions: list[tuple[str, str, str, str]] = field(default_factory=list)
    #: per write call number: the state before and after, said by the responder
    deltas: dict[int, str] = field(default_factory=dict)
    notes: list[str] = field(default_factory=list)

    def done(self, action: str) -> None:
        self.actions.append((action, "on-call SRE (this response)", "P1", "done"))

    def open(self, action: str, owner: str, priority: str = "P1") -> None:
        self.actions.append((action, owner, priority, "open"))


def _cell(text: str) -> str:
    return text.replace("|", "/").replace("\n", " ").strip()


def render(pm: Postmortem, s: Session) -> str:
    """The postmortem document; the response's own calls close the timeline, each with its
    reason and trigger, so the trail can be reconstructed from it alone."""
    out = [
        f"# Postmortem: {pm.title}",
        "",
        "Status: draft, blameless. Filed by the on-call SRE.",
        "",
    ]
    out += ["## Summary", ""] + (pm.summary or ["No incident was found."]) + [""]
    out += ["## Impact", ""] + [f"- {x}" for x in (pm.impact or ["No user impact was measured."])]
    out += ["", "## Timeline (UTC)", "", "| time | event |", "|---|---|"]
    out += [f"| {_cell(t)} | {_cell(e)} |" for t, e in pm.history]
    for c in s.calls:
        kind = "Change" if c.write else "Read"
        delta = f" State: {pm.deltas[c.n]}." if c.n in pm.deltas else ""
        out.append(
            f"| response step {c.n} | {kind}: `{_cell(c.what)}` was run. Reason: {_cell(c.why)}."
            f"{_cell(delta)} Trigger: {c.trigger}. |"
        )
    out += ["", "## Root cause", ""] + (pm.root_cause or ["Not determined."])
    out += ["", "## Contributing factors", ""]
    out += [f"- {x}" for x in pm.factors] or ["- None identified."]
    if pm.ruled_out:
        out += ["", "Ruled out:"] + [f"- {x}" for x in pm.ruled_out]
    out += ["", "## What went well / what went wrong", "", "What went well:"]
    out += [f"- {x}" for x in pm.went_well] or ["- The signals were available."]
    out += ["", "What went wrong:"] + ([f"- {x}" for x in pm.went_wrong] or ["- Nothing further."])
    out += [
        "",
        "## Action items",
        "",
        "| action | owner | priority | status |",
        "|---|---|---|---|",
    ]
    out += [f"| {_cell(a)} | {_cell(o)} | {p} | {st} |" for a, o, p, st in pm.actions]
    if pm.notes:
        out += ["", "## Notes", ""] + pm.notes
    return "\n".join(out) + "\n"
