"""heldout42's voice (issue 27, session 34): a spoken summary on an incident bridge call.

Figures said in words where a person would ("two of the three pods", "about twelve percent",
"two hundred fifty six megs"); names said as a person says them ("the order service
deployment"). Nothing here reads the environment.
"""

from __future__ import annotations

_ONES = [
    "zero",
    "one",
    "two",
    "three",
    "four",
    "five",
    "six",
    "seven",
    "eight",
    "nine",
    "ten",
    "eleven",
    "twelve",
    "thirteen",
    "fourteen",
    "fifteen",
    "sixteen",
    "seventeen",
    "eighteen",
    "nineteen",
]
_TENS = ["_", "_", "twenty", "thirty", "forty", "fifty", "sixty", "seventy", "eighty", "ninety"]


def words(n: int) -> str:
    """A whole number said aloud ("two hundred fifty six"); big ones stay digits."""
    if n < 0:
        return "minus " + words(-n)
    if n < 20:
        return _ONES[n]
    if n < 100:
        tens, ones = divmod(n, 10)
        return _TENS[tens] + (" " + _ONES[ones] if ones else "")
    if n < 1000:
        hundreds, rest = divmod(n, 100)
        return _ONES[hundreds] + " hundred" + (" " + words(rest) if rest else "")
    if n < 100000:
        thousands, rest = divmod(n, 1000)
        return words(thousands) + " thousand" + (" " + words(rest) if rest else "")
    return f"{n:,}"


def megs(value: float) -> str:
    """Bytes the way a person says them on a call: megs, or gigs above one."""
    if value >= 1024**3:
        gig = value / 1024**3
        whole = round(gig, 1)
        if whole == int(whole):
            return f"{words(int(whole))} gigs"
        return f"{words(int(whole))} point {_ONES[round((whole - int(whole)) * 10)]} gigs"
    return f"{words(round(value / 1024**2))} megs"


def percent(value: float) -> str:
    """A share (0-100) said roughly: "about twelve percent"."""
    rounded = round(value)
    if abs(value - rounded) < 0.05:
        return f"{words(int(rounded))} percent"
    if value < 10:
        whole = int(value)
        tenth = round((value - whole) * 10)
        if tenth == 10:
            return f"{words(whole + 1)} percent"
        return f"{words(whole)} point {_ONES[tenth]} percent"
    return f"about {words(int(rounded))} percent"


def spoken(name: str) -> str:
    """A resource name as a person says it: hyphens dropped ("order service")."""
    return name.replace("-", " ").replace("_", " ")


def of(count: int, total: int, thing: str) -> str:
    """ "two of the three pods"."""
    if total == 1:
        return f"the one {thing.rstrip('s')}" if count else f"none of the {thing}"
    if count == total:
        return f"all {words(total)} {thing}"
    if count == 0:
        return f"none of the {words(total)} {thing}"
    return f"{words(count)} of the {words(total)} {thing}"


def plural(n: int, thing: str) -> str:
    return f"{words(n)} {thing}" + ("" if n == 1 else "s")


def seconds(ms: float) -> str:
    """A duration as said aloud: "about four point two seconds" or "three hundred millis"."""
    if ms >= 1000:
        s = ms / 1000
        whole = int(s)
        tenth = int((s - whole) * 10 + 0.5)
        if tenth == 10:
            whole, tenth = whole + 1, 0
        if tenth == 0:
            return f"{words(whole)} seconds"
        return f"{words(whole)} point {_ONES[tenth]} seconds"
    return f"{words(round(ms))} milliseconds"


def sentence(text: str) -> str:
    """One spoken sentence: capitalised, one full stop."""
    text = text.strip()
    if not text:
        return ""
    text = text[0].upper() + text[1:]
    return text if text[-1] in ".?!" else text + "."


def join(items: list[str]) -> str:
    """ "a, b and c"."""
    items = [i for i in items if i]
    if len(items) <= 1:
        return "".join(items)
    return ", ".join(items[:-1]) + " and " + items[-1]


_ORDINAL = ("Then", "After that", "Next")


def steps_said(steps: list[tuple[str, str, str]]) -> list[str]:
    """Each read or write told in order: what I did, why, what it showed."""
    out = []
    for i, (did, why, saw) in enumerate(steps):
        lead = _ORDINAL[(i - 1) % len(_ORDINAL)] if i else "First"
        line = f"{lead} I {did}, {why}."
        if saw:
            line += " " + sentence(saw)
        out.append(line)
    return out


def summary(b: object) -> str:
    """The whole spoken summary, paragraph per part, as it was said on the bridge."""
    f = b.found  # type: ignore[attr-defined]
    parts: list[str] = []
    subject = f.get("subject") or "this one"
    parts.append(sentence(f"Okay, quick update from me on {subject}"))
    if f.get("refused"):
        parts.append(" ".join(sentence(x) for x in f["refused"]))
    steps = b.steps  # type: ignore[attr-defined]
    if steps:
        ask = (
            f.get("asked")
            or "You asked me to look at this, so that's what started everything below"
        )
        parts.append(f"{sentence(ask)} Here's what I did, in order. " + " ".join(steps_said(steps)))
    for key, lead in (
        ("cause", "So, the cause."),
        ("findings", "What I'm seeing."),
        ("ruled_out", "What I ruled out."),
        ("did", "What I changed."),
        ("verified", "How I checked it."),
        ("not_done", "What I did not do."),
        ("plan", "The plan."),
        ("escalate", "Who needs to know."),
    ):
        items = f.get(key) or []
        if items:
            parts.append(lead + " " + " ".join(sentence(x) for x in items))
    parts.append(sentence(f.get("close") or "That's it from me, I'll stay on the bridge"))
    return "\n\n".join(p for p in parts if p)
