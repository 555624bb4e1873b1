"""The held-out operator of session 29 (``heldout34``): how it writes.

A status-page incident update: phases ("Investigating", "Identified", "Monitoring",
"Resolved" or "Escalated"), each a short paragraph with a time in the requester's local
zone and its offset, figures said the way people say them, and the calls listed at the end
as numbered footnotes the text cites.
"""

from __future__ import annotations

import re
from datetime import datetime
from fractions import Fraction
from zoneinfo import ZoneInfo

from .operator_heldout34_ops import Ops

#: the requester's zone: the operator writes for a team on US Eastern time
LOCAL = ZoneInfo("America/New_York")


def clock(when: datetime | None) -> str:
    if when is None:
        return ""
    local = when.astimezone(LOCAL)
    offset = local.strftime("%z")
    return f"{local:%H:%M} {local.tzname()} ({offset[:3]}:{offset[3:]})"


def share(ratio: float) -> str:
    """A ratio as people say it: "about 9 in 10", "roughly half", "about 1 in 20"."""
    if ratio <= 0:
        return "none"
    if ratio >= 0.995:
        return "all"
    named = {
        Fraction(1, 2): "roughly half",
        Fraction(1, 3): "about a third",
        Fraction(2, 3): "about two thirds",
        Fraction(1, 4): "about a quarter",
        Fraction(3, 4): "about three quarters",
    }
    for frac, words in named.items():
        if abs(float(frac) - ratio) < 0.02:
            return words
    if ratio >= 0.5:
        return f"about {round(ratio * 10)} in 10"
    if ratio >= 0.001:
        return f"about 1 in {round(1 / ratio)}"
    return "well under 1 in 1000"


def percent(ratio: float) -> str:
    """A ratio as a percent figure, said plainly ("12 percent", "0.5 percent")."""
    value = ratio * 100
    if value >= 10 or value == int(value):
        return f"{value:.0f} percent"
    return f"{value:.1f} percent".replace(".0 ", " ")


def size(num_bytes: float) -> str:
    """Bytes as people say them: "1.5 gigs", "about 250 megs"."""
    gib = num_bytes / 1024**3
    if gib >= 1:
        text = f"{gib:.1f}".rstrip("0").rstrip(".")
        return f"{text} gigs"
    mib = num_bytes / 1024**2
    if mib >= 100:
        return f"about {round(mib / 10) * 10:.0f} megs"
    return f"about {mib:.0f} megs"


def size_q(quantity: str) -> str:
    """A Kubernetes quantity as people say it: "256Mi" is "256 megs", "2Gi" is "2 gigs"."""
    m = re.fullmatch(r"(\d+(?:\.\d+)?)(Mi|Gi|M|G)", quantity or "")
    if not m:
        return quantity
    return f"{m.group(1)} {'gigs' if m.group(2).startswith('G') else 'megs'}"


def seconds(ms: float) -> str:
    if ms >= 1000:
        text = f"{ms / 1000:.1f}".rstrip("0").rstrip(".")
        return f"{text} seconds" if text != "1" else "1 second"
    return f"{ms:.0f} milliseconds"


def render(ops: Ops, title: str) -> str:
    """The whole update: title, phases newest last (as a status page reads top to bottom in
    time order here), then the footnotes."""
    lines = [title, ""]
    for phase in ops.phases:
        when = clock(ops.stamp_at(phase.at))
        head = f"{phase.name} - {when}" if when else phase.name
        lines += [head, phase.text.strip(), ""]
    if ops.calls:
        lines.append("Calls made for this update:")
        for call in ops.calls:
            outcome = " It failed." if call.failed else ""
            lines.append(
                f"[{call.n}] {call.command()} - why: {call.why}; prompted by: {call.trigger}.{outcome}"
            )
    else:
        lines.append("Calls made for this update: none.")
    return "\n".join(lines).rstrip() + "\n"
