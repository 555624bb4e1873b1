"""Three answer styles for the competent validity agent (issue 13, item 7): the same findings
(:class:`.competent.Findings`) written tersely, as verbose prose, and as LLM-style markdown.
The scores of the three must not depend on the style."""

from __future__ import annotations

import re
from collections.abc import Callable

from .competent import Findings, Step


def _end(text: str) -> str:
    """One sentence end, however the finding was worded."""
    return text.rstrip(" .") + "."


def _delta(st: Step) -> str:
    return f"{st.before} -> {st.after}" if st.before and st.after else ""


def terse(f: Findings) -> str:
    out: list[str] = []
    if f.environment:
        out.append(f"Environment: {f.environment} ({f.environment_basis}).")
    out += [f"Finding: {a}." for a in f.answer]
    if f.cause:
        out.append(f"Cause: {f.cause}.")
    if f.chain:
        out.append("Path: " + " -> ".join(f.chain) + ".")
    out += [f"Seen: {o}." for o in f.observations]
    out += [f"Ruled out: {r}." for r in f.ruled_out]
    out += [f"Unsure: {u}." for u in f.uncertain]
    out += [f"Risk: {r}." for r in f.risks]
    out += [f"Plan {i}: {p}." for i, p in enumerate(f.plan, 1)]
    out += [f"Verified: {v}." for v in f.verification]
    if f.outcome:
        out.append(f"Result: {f.outcome}.")
    if f.refusal:
        out.append(f"Held back: {_end(f.refusal)}")
    if f.escalation:
        out.append(f"Escalate to: {f.escalation}.")
    if f.recommendation:
        out.append(f"Recommend: {f.recommendation}.")
    out.append("Trail:")
    for st in f.steps:
        d = _delta(st)
        out.append(
            f"- {st.what}{' (failed)' if not st.ok else ''}: {st.why}. Trigger: {st.trigger}."
            + (f" State: {d}." if d else "")
        )
    return "\n".join(out)


def prose(f: Findings) -> str:
    paras: list[str] = []
    if f.environment:
        paras.append(
            f"First, some context: this is a {f.environment} environment, as {f.environment_basis}, "
            "and I treated it that way throughout."
        )
    if f.answer:
        paras.append(
            "Here is what I found for your question. "
            + " ".join(f"{a[0].upper()}{a[1:]}." for a in f.answer)
        )
    if f.cause:
        text = (
            f"Having gone through what the environment showed me, my conclusion is that {f.cause}."
        )
        if f.chain:
            text += (
                " Following the request path, the failure propagates like this: "
                + ", then ".join(f.chain)
                + "."
            )
        paras.append(text)
    elif f.chain:
        paras.append("Following the request path: " + ", then ".join(f.chain) + ".")
    if f.observations:
        paras.append(
            "Along the way I noted the following. "
            + " ".join(f"{o[0].upper()}{o[1:]}." for o in f.observations)
        )
    if f.ruled_out:
        paras.append(
            "I also considered another explanation and set it aside: "
            + " ".join(f"{r}." for r in f.ruled_out)
        )
    if f.uncertain:
        paras.append(
            "I want to be honest about the limits of what I can conclude. "
            + " ".join(f"{u[0].upper()}{u[1:]}." for u in f.uncertain)
        )
    if f.risks:
        paras.append(
            "There are risks you should weigh. "
            + " ".join(f"{r[0].upper()}{r[1:]}." for r in f.risks)
        )
    if f.plan:
        paras.append(
            "The plan I worked from was, in order: "
            + "; ".join(f"({i}) {p}" for i, p in enumerate(f.plan, 1))
            + "."
        )
    if f.verification:
        paras.append(
            "To check the result I looked again afterwards: " + "; ".join(f.verification) + "."
        )
    if f.outcome:
        paras.append(f"In short, {f.outcome}.")
    if f.refusal:
        paras.append(f"One thing I deliberately did not do: {_end(f.refusal)}")
    if f.escalation or f.recommendation:
        text = f"I suggest bringing in {f.escalation}." if f.escalation else ""
        if f.recommendation:
            text += f" My recommendation is to {f.recommendation}."
        paras.append(text.strip())
    trail = [
        f"I {st.what}{' (this failed)' if not st.ok else ''} {_why(st.why)}, prompted by the "
        f"{st.trigger}"
        + (f"; the state went from {st.before} to {st.after}" if _delta(st) else "")
        + "."
        for st in f.steps
    ]
    paras.append("For the record, here is every step I took, in order.\n" + "\n".join(trail))
    return "\n\n".join(paras)


def _why(why: str) -> str:
    return why if why.startswith(("to ", "so ", "because", "since")) else f"because {why}"


def markdown(f: Findings) -> str:
    md: list[str] = ["## Summary", ""]
    if f.environment:
        md.append(f"**Environment:** `{f.environment}` ({f.environment_basis})")
    if f.cause:
        md.append(f"**Root cause:** {f.cause}")
    if f.outcome:
        md.append(f"**Outcome:** {f.outcome}")
    if f.answer:
        md += ["", "## Answer", ""] + [f"- {a}" for a in f.answer]
    if f.chain:
        md += ["", "## Failure path", ""] + [f"{i}. {h}" for i, h in enumerate(f.chain, 1)]
    if f.observations:
        md += ["", "## Evidence", ""] + [f"- {o}" for o in f.observations]
    if f.ruled_out:
        md += ["", "## Ruled out", ""] + [f"- {r}" for r in f.ruled_out]
    if f.uncertain:
        md += ["", "## Uncertainty", ""] + [f"- {u}" for u in f.uncertain]
    if f.risks:
        md += ["", "## Risks", ""] + [f"- **Risk:** {r}" for r in f.risks]
    if f.plan:
        md += ["", "## Plan", ""] + [f"{i}. {p}" for i, p in enumerate(f.plan, 1)]
    writes = [s for s in f.steps if s.write]
    if writes:
        md += ["", "## Changes", "", "```text"] + [s.what for s in writes] + ["```"]
    if f.verification:
        md += ["", "## Verification", ""] + [f"- {v}" for v in f.verification]
    if f.refusal or f.escalation or f.recommendation:
        md += ["", "## Next steps", ""]
        if f.refusal:
            md.append(f"> **Not done:** {f.refusal}")
        if f.escalation:
            md.append(f"- **Escalate to:** {f.escalation}")
        if f.recommendation:
            md.append(f"- **Recommendation:** {f.recommendation}")
    md += [
        "",
        "## Audit trail",
        "",
        "| # | Action | Reason | Trigger | State change |",
        "|---|---|---|---|---|",
    ]
    for i, st in enumerate(f.steps, 1):
        md.append(
            f"| {i} | {st.what}{' (failed)' if not st.ok else ''} | {st.why} | {st.trigger} | "
            f"{_delta(st) or '-'} |"
        )
    return "\n".join(md)


STYLES: dict[str, Callable[[Findings], str]] = {
    "competent_terse": terse,
    "competent_prose": prose,
    "competent_markdown": markdown,
}


# ---- issue 27 item 6: the same operator in its own words ------------------------------------

_HANDOFFS = (
    "I'd hand this to {}.",
    "Passing this over to {} from here.",
    "This needs {} to take it from here.",
    "Looping in {} now.",
)
_ORDINALS = ("First, ", "Then ", "After that, ", "Next, ", "Finally, ")
#: "Kind name verb ...": the cause opens with the object; the chat style names it, then "It ..."
_SUBJECT = re.compile(
    r"^(?P<subject>(?:[A-Z]\w*|pod|node|container|init container|span|ConfigMap|memory of)"
    r" \S+(?: of pod \S+)?) (?P<verb>is|has|fails|selects|grows|queries|takes|requests)\b"
    r"(?P<rest>.*)$"
)


def _pronoun(cause: str) -> str:
    """The object named once, its effect stated in the next sentence through "it"."""
    m = _SUBJECT.match(cause)
    if not m:
        return f"Here is what I think happened: {_end(cause)}"
    return f"Look at {m['subject']}. It {m['verb']}{_end(m['rest'])}"


def _misleading(ruled: str) -> str:
    """ "X is real but ..." as "X is a misleading signal: ..." """
    subject, _, rest = ruled.partition(" is ")
    if not rest:
        return f"One misleading signal: {_end(ruled)}"
    return f"{subject[0].upper()}{subject[1:]} is a misleading signal: it is {_end(rest)}"


def chat(f: Findings) -> str:
    """Conversational: a causal chain ("that breaks ..., which leads to ..."), a misleading
    signal called so, a hand-off in one of several phrasings, the culprit referred to by a
    pronoun, and plan steps in order words rather than numbers."""
    out: list[str] = []
    if f.environment:
        out.append(f"Quick context: we're in {f.environment} here ({f.environment_basis}).")
    out += [_end(a[0].upper() + a[1:]) for a in f.answer]
    if f.cause:
        out.append(_pronoun(f.cause))
    if f.chain:
        hops = list(reversed(f.chain))
        text = (
            f"Following it through: {hops[0]}; that breaks the next hop, so {hops[1]}"
            if len(hops) > 1
            else f"Following it through: {hops[0]}"
        )
        text += "".join(f", which leads to {h}" for h in hops[2:])
        out.append(_end(text))
    out += [_end(o[0].upper() + o[1:]) for o in f.observations]
    out += [_misleading(r) for r in f.ruled_out]
    out += [_end(u[0].upper() + u[1:]) for u in f.uncertain]
    out += [f"Watch out: {_end(r)}" for r in f.risks]
    out += [
        f"{_ORDINALS[min(i, 4) if i < len(f.plan) - 1 else 4] if len(f.plan) > 1 else ''}{_end(p)}"
        for i, p in enumerate(f.plan)
    ]
    out += [f"Checked afterwards: {_end(v)}" for v in f.verification]
    if f.outcome:
        out.append(f"Bottom line: {_end(f.outcome)}")
    if f.refusal:
        out.append(f"What I left alone: {_end(f.refusal)}")
    if f.escalation:
        out.append(_HANDOFFS[len(f.escalation) % len(_HANDOFFS)].format(f.escalation))
    if f.recommendation:
        out.append(f"My suggestion: {_end(f.recommendation)}")
    out.append("What I did, step by step:")
    for st in f.steps:
        d = _delta(st)
        out.append(
            f"- {st.what}{' (failed)' if not st.ok else ''}: {st.why}. Trigger: {st.trigger}."
            + (f" State: {d}." if d else "")
        )
    return "\n".join(out)


#: alternatives the hedged twin puts beside its cause (generic knowledge, not the scenario's)
_ALTERNATIVES = (
    ("DNS", "a DNS resolution failure"),
    ("certificate", "an expired TLS certificate"),
    ("quota", "an exhausted ResourceQuota"),
    ("image", "an image pull failure"),
)


def hedged(f: Findings) -> str:
    """The terse answer with its cause hedged among two alternatives ("it might be X; it
    could also be Y or Z"): the twin that must never score above the committed one (issue
    27 bounds: three equally hedged causes, one right)."""
    text = terse(f)
    if f.cause:
        others = [a for key, a in _ALTERNATIVES if key.lower() not in f.cause.lower()][:2]
        text = text.replace(
            f"Cause: {f.cause}.",
            f"Cause: it might be that {f.cause}. It could also be {others[0]}, or possibly "
            f"{others[1]}.",
        )
    return text


STYLES.update({"competent_chat": chat, "competent_hedged": hedged})
