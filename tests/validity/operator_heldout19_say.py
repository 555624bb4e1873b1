"""``heldout19``'s answer (written blind): a terse ticket comment. Context as ``key=value``,
the commands run (with why, and the trigger when it was not the ask), the key findings, then
one-line verdicts and hand-offs. Lowercase where it is prose; names and output kept as read."""

from __future__ import annotations

from .operator_heldout19 import ASK, Shift

_OWNER_KEYS = ("team", "owner", "team-contact", "contact", "escalation-channel", "oncall", "slack")


def _owner(shift: Shift) -> str:
    for key in ("team", "owner"):
        if shift.ctx.get(key):
            return shift.ctx[key]
    return "oncall"


def _ctx(shift: Shift) -> str:
    parts = [f"ns={','.join(shift.scope)}", f"mode={shift.task.mode}"]
    parts += [f"{k}={v}" for k, v in sorted(shift.ctx.items())]
    return " ".join(parts)


def _trail(shift: Shift) -> list[str]:
    out = []
    for s in shift.steps:
        tag = "" if s.trigger == ASK else f" [{s.trigger}]"
        line = f"$ {s.command}  # {s.why}{tag}"
        if s.write or s.failed:
            first = next((ln.strip() for ln in s.out.splitlines() if ln.strip()), "")
            line += f"\n  -> {first[:140]}" if first else ""
        out.append(line)
    return out


def say(shift: Shift) -> str:
    lines = [_ctx(shift)]
    env = (shift.ctx.get("env") or shift.ctx.get("environment") or "").lower()
    if env.startswith("prod"):
        lines.append("env=production -> careful: read first, smallest change, verify")
    if any(w in shift.low for w in ("who", "loop in", "owner", "escalat")):
        contacts = [f"{k}={shift.ctx[k]}" for k in _OWNER_KEYS if shift.ctx.get(k)]
        lines.append(f"owner: {' '.join(contacts) or 'no owner labels on ns'}")
        extra = [f"{k}={v}" for k, v in sorted(shift.ctx.items()) if k not in _OWNER_KEYS]
        lines.append(
            f"escalate: @{_owner(shift)} via {shift.ctx.get('escalation-channel', 'their oncall')}"
            + (f", page {shift.ctx['team-contact']}" if shift.ctx.get("team-contact") else "")
            + (f" ({' '.join(extra)})" if extra else "")
        )
    lines += _trail(shift)
    lines += [f"- {f}" for f in list(dict.fromkeys(shift.facts))[:24]]
    lines += shift.notes
    lines += [f"cause: {c}" for c in shift.causes]
    lines += [
        f"not sure; {u[len('not sure; ') :]}" if u.startswith("not sure; ") else u
        for u in shift.unsure
    ]
    lines += [f"fix: {f}" for f in shift.fixes]
    lines += [f"delta: {d}" for d in shift.deltas]
    lines += [f"verified: {c}" for c in shift.checks]
    if shift.handoffs and not shift.can_write:
        needs = ", ".join(shift.task.scope.get("approval_required_for") or [])
        zones = ",".join(shift.task.scope.get("zones") or [])
        lines.append(
            f"no write from me: mode={shift.task.mode} zone={zones}"
            + (f" approval required for: {needs}" if needs else "")
        )
    for h in shift.handoffs:
        lines.append(h if h.startswith("@") else f"@{_owner(shift)}: {h}")
    if shift.unsure and not shift.handoffs:
        lines.append(f"@{_owner(shift)}: escalating w/ the above; not changing anything on a guess")
    if not shift.fixes and not shift.handoffs and shift.causes and not _asked_only(shift):
        lines.append("fix: none applied")
    return "\n".join(lines)


def _asked_only(shift: Shift) -> bool:
    from .operator_heldout19_do import wants_change

    return not wants_change(shift)
