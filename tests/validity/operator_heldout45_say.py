"""heldout45's walkthrough (session 37, written blind): the lesson written as a senior engineer
talks a junior through it, in the order the work was done.
"""

from __future__ import annotations

from typing import Any

from .operator_heldout45 import Lesson


def write(L: Lesson, desk: Any) -> str:
    out = [
        "Let's look at this together. You'll have the pager next time, so I'll say why I do each thing, not just what.",
        "",
    ]
    out.append(f'What the request says: "{L.ask}"')
    out += L.says
    out.append(_does_not_say(L))
    out.append("")
    if L.reads:
        out.append("What I read, in order, and what each one showed:")
        for i, r in enumerate(L.reads, 1):
            trig = "" if r.trigger == "your request" else f" (because of {r.trigger})"
            line = f"{i}. `{r.call}`{trig}: {r.why}."
            if r.shows:
                line += f" It shows: {r.shows}"
            out.append(line)
        out.append("")
    alerts = [e for e in L.extra if e.startswith("alert:")]
    for a in alerts:
        _, name, rest = a.split(":", 2)
        who, text = (rest.split("|", 1) + [""])[:2]
        out.append(
            f"Partway through, alert {name} fired{' for ' + who if who else ''}{': ' + text if text else ''}. That's a new trigger, so I noted it and checked it alongside your request; anything I did because of it is marked as such."
        )
    steps = [e.split(":", 2)[2] for e in L.extra if e.startswith("step:")]
    if steps:
        out.append("The runbook, step by step, against what I actually saw:")
        out += [f"  step {i}: {s}" for i, s in enumerate(steps, 1)]
    if alerts or steps:
        out.append("")
    if L.tempting:
        out.append("Now, the explanations you might reach for first, and why they're wrong here:")
        for wrong, why in L.tempting:
            out.append(f"- You might think {wrong}. But {why}")
        out.append("")
    if L.cause:
        out.append(f"So where does that leave us? The cause: {L.cause}.")
        if L.evidence:
            out.append("What settles it:")
            out += [f"- {e}" for e in L.evidence]
    elif L.evidence:
        out.append("What the reads establish:")
        out += [f"- {e}" for e in L.evidence]
    if L.unknown:
        out.append(
            "What I don't know: "
            + "; ".join(L.unknown)
            + ". I'm not going to guess at a cause I couldn't confirm; I'd rather hand it on with what I have."
        )
        if not L.told:
            L.told.append(
                "the service's owning team / the on-call lead, with the reads above, what's ruled out and what isn't"
            )
    out.append("")
    if L.done:
        out.append("What I did:")
        for c in L.done:
            trig = "" if c.trigger == "your request" else f" (trigger: {c.trigger})"
            out.append(
                f"- {c.what}{trig}. Why: {c.why}. Before: {c.before}. After: {c.after}. Check: {c.check}."
            )
    else:
        out.append("What I did: no changes. Everything above was a read.")
    if L.not_done:
        out.append("What I deliberately didn't do, and why:")
        out += [f"- {n}" for n in L.not_done]
    if L.told:
        out.append("Who I told:")
        out += [f"- {t}" for t in L.told]
    out.append("")
    out.append("What I'd want you to remember:")
    rem = L.remember or [
        "Read before you write, and read again after: the after-read is the only proof a change worked."
    ]
    if L.tempting and not any("loudest" in r for r in rem):
        rem.append(
            "The loudest signal isn't always the cause; make every suspect earn its place with a read."
        )
    out += [f"- {r}" for r in rem]
    return "\n".join(out)


def _does_not_say(L: Lesson) -> str:
    low = L.ask.lower()
    if any(
        w in low
        for w in ("what's wrong", "what is wrong", "investigate", "going on", "find", "diagnose")
    ):
        return "What it doesn't say: what the cause is, or whether to change anything beyond what it asks. So I start from what the cluster shows, not from a guess."
    if any(w in low for w in ("fix", "handle")):
        return "What it doesn't say: what's actually broken. \"Fix it\" still starts with finding out what it is."
    return "What it doesn't say: anything about the current state. So I read that first and change only what the request names."
