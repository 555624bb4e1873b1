"""``heldout22``'s answer: the operator's question(s) restated as "Q: ..." lines of its own, each
followed by "A: ...", in the simple, a little off English of an engineer whose first language
is not English (articles dropped, present tense for what it did, "I think it is X because Y",
"not X, because Y", "please ask <owner> before I change", "I am not 100% sure").
"""

from __future__ import annotations

import re

from .operator_heldout22 import Desk, env_of
from .operator_heldout22_why import alert_lines, panels


def _subject(desk: Desk, targets: list[str]) -> str:
    callee = desk.seen.callee
    trace = desk.seen.trace_id
    return callee or (targets[0] if targets else (f"trace {trace}" if trace else "service"))


def _question(desk: Desk, name: str) -> str:
    """The operator's ask, said again as my own question."""
    text = desk.prompt.lower()
    table = (
        (("loop in", "who should"), f"Who I must call for {name}?"),
        (("dashboard",), "What dashboard is saying, what is bad?"),
        (("canary",), "Canary is healthy or not, and which branch I take?"),
        (("crash", "restarting", "keeps restart"), f"Why pod of {name} is restarting?"),
        (("slow", "bottleneck", "taking over", "latency"), f"Why {name} is slow?"),
        (("error rate", "spiking", "502", "503", "failing"), f"Why {name} is giving errors?"),
        (("worry", "how is", "health"), f"Is {name} ok, something to worry?"),
        (("pending",), f"Why pod of {name} is not starting?"),
        (("reach", "network"), f"Why traffic cannot reach {name}?"),
        (("oom",), f"Why {name} is OOMKilled?"),
    )
    for words, q in table:
        if any(w in text for w in words):
            return q
    ask = " ".join(desk.prompt.split())
    return f'You ask me: "{ask}" — what I find and is it done?'


def answer(desk: Desk, targets: list[str]) -> str:
    case, name = desk.case, _subject(desk, targets)
    seen = desk.seen
    out: list[str] = []

    def qa(q: str, lines: list[str]) -> None:
        lines = [ln for ln in lines if ln]
        if lines:
            out.append(f"Q: {q}")
            out.append("A: " + lines[0])
            out.extend(f"   {ln}" for ln in lines[1:])
            out.append("")

    env = env_of(desk)
    owner = _owners(desk)
    qa(_question(desk, name), _main(desk, name))
    qa(
        "What I check?",
        [f"I check {f}." if not f.startswith("I ") else f + "." for f in case.facts[:10]],
    )
    if seen.panels:
        qa(
            f"What each panel of {seen.board} say?",
            [
                f"{t}: {v} ({s}"
                + (f", normal/threshold {r})" if r else ")")
                + (" <- this is problem" if s not in ("normal", "ok", "") else "")
                for t, v, s, r in panels(seen)
            ],
        )
    if seen.alerts:
        qa(
            "Which alert is firing, and what I do because of it?",
            [f"{a}; I go to check {name} because of this alert." for a in alert_lines(seen)],
        )
    qa("How failure go from one to next?", [" -> ".join(case.chain)] if case.chain else [])
    qa("What is not the cause?", case.not_this)
    if env or owner:
        qa(
            "Which environment, who is owner?",
            [
                f"namespace {desk.ns} is {env or 'not labelled'} (labels: "
                + ", ".join(
                    f"{k}={v}" for k, v in sorted(desk.labels.items()) if "kubernetes.io" not in k
                )
                + ")",
                *owner,
            ],
        )
    qa("What is the plan?", case.plan)
    qa("What I changed?", case.changes or [_nothing(desk)])
    qa("It is working now?", case.checks)
    qa("What is the risk?", case.risk)
    qa(
        "Who must decide?",
        [
            a if a.startswith("please") else f"please ask {_owner_word(desk)} before I change: {a}"
            for a in case.ask
        ],
    )
    qa("What is not sure?", [f"I am not 100% sure: {u}" for u in case.unsure])
    qa("What I did, step by step (for audit)?", _trail(desk))
    return "\n".join(out).rstrip() + "\n"


def _main(desk: Desk, name: str) -> list[str]:
    case = desk.case
    text = desk.prompt.lower()
    if "loop in" in text or "who should" in text:
        who = _owners(desk)
        lead = f"loop in {_owner_word(desk)}" + (
            f", use channel {desk.notes['escalation-channel']}"
            if "escalation-channel" in desk.notes
            else ""
        )
        state = f" Now {name}: {case.facts[0]}." if case.facts else ""
        return [
            f"please {lead}. I read it from namespace {desk.ns}: " + "; ".join(who) + "." + state
        ]
    if seen_panels(desk):
        bad = [p for p in panels(desk.seen) if p[2] not in ("normal", "ok", "")]
        good = [p[0] for p in panels(desk.seen) if p[2] in ("normal", "ok", "")]
        lines = (
            [f"{len(bad)} panel is bad, most urgent first:"] if bad else ["all panels is normal."]
        )
        for i, (t, v, st, ref) in enumerate(bad, 1):
            lines.append(
                f"{i}. {t} is {v}, status {st}" + (f", threshold/normal {ref}" if ref else "")
            )
        if good:
            lines.append("other panels is normal: " + ", ".join(good))
        return lines
    if case.cause:
        return [f"I think it is {case.cause}, because {case.because}."]
    if case.because:
        return [f"I think {case.because}."]
    if case.unsure:
        return ["I don't know root cause yet, see what is not sure below; I don't guess."]
    if case.changes:
        env = env_of(desk)
        where = f" in {env} namespace {desk.ns}" if env == "production" else ""
        return [f"It is done{where}: " + "; ".join(case.changes) + "."]
    if case.facts and any("alert" in a for a in alert_lines(desk.seen)):
        return [
            f"{name} is running, but alert is firing: {alert_lines(desk.seen)[0]}; "
            + "; ".join(case.facts[:3])
            + "."
        ]
    return [f"I don't see some problem in {name} from what I read."]


def seen_panels(desk: Desk) -> bool:
    return bool(desk.seen.panels)


def _owners(desk: Desk) -> list[str]:
    out = []
    for k in ("team", "owner", "criticality"):
        if desk.labels.get(k):
            out.append(f"{k} label is {desk.labels[k]}")
    for k, v in sorted(desk.notes.items()):
        if any(w in k for w in ("contact", "channel", "escalation", "owner", "oncall", "slack")):
            out.append(f"annotation {k} is {v}")
    return out


def _owner_word(desk: Desk) -> str:
    team = desk.labels.get("team") or desk.labels.get("owner")
    contact = next((v for k, v in sorted(desk.notes.items()) if "contact" in k), "")
    return " / ".join(x for x in (team, contact) if x) or "service owner"


def _nothing(desk: Desk) -> str:
    if desk.case.ask:
        return "nothing yet; I wait for approval / decision (see below), I don't change before"
    if not desk.may_write:
        return f"nothing; mode is {desk.task.mode}, zone {', '.join(desk.task.scope.get('zones') or [])}, I only read"
    return "nothing; operator ask only to look, or the change is not mine to make"


def _trail(desk: Desk) -> list[str]:
    lines = []
    for i, step in enumerate(desk.steps, 1):
        cmd = re.sub(r"\s+", " ", step.shown)
        if len(cmd) > 140:
            cmd = cmd[:137] + "..."
        line = f"{i}. {cmd} — trigger: {step.trigger} — why: {step.why}"
        if step.change:
            line += f" — change: {step.change}"
        if step.failed:
            line += " — it fail"
        lines.append(line)
    return lines
