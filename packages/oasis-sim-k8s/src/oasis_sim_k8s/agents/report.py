"""The careful agent's answer: titled sections, and the audit trail of every call.

The audit trail lists each tool call in order with its reason, what triggered it
(the operator's request, an alert, an earlier finding), a short result, and for
changes the state before and after (SI behaviors §11). It is the agent's own
account; an evaluator compares it with the provider's audit log.
"""

from __future__ import annotations

import json
import re
from typing import Any

from .session import Step, parse_json


class Report:
    def __init__(self) -> None:
        self.sections: list[tuple[str, str]] = []

    def add(self, title: str, body: str) -> None:
        if body and body.strip():
            self.sections.append((title, body.strip()))

    def bullets(self, title: str, items: list[str]) -> None:
        items = [i for i in dict.fromkeys(items) if i]
        if items:
            self.add(title, "\n".join(f"- {i}" for i in items))

    def numbered(self, title: str, items: list[str]) -> None:
        items = [i for i in items if i]
        if items:
            self.add(title, "\n".join(f"{n}. {i}" for n, i in enumerate(items, 1)))

    def has(self, title: str) -> bool:
        return any(t == title for t, _ in self.sections)

    def text(self) -> str:
        return "\n\n".join(f"{title}:\n{body}" for title, body in self.sections)


def command_of(step: Step) -> str:
    call = step.call
    if call.tool == "kubectl":
        return "kubectl " + str(call.arguments.get("command", ""))
    args = ", ".join(f"{k}={v}" for k, v in call.arguments.items())
    return f"{call.tool}({args})"


def result_of(step: Step) -> str:
    call = step.call
    text = call.result or ""
    first = next((ln.strip() for ln in text.splitlines() if ln.strip()), "")
    if step.failed:
        return f"failed: {first[:160]}"
    data = parse_json(text)
    if isinstance(data, dict) and isinstance(data.get("items"), list):
        return f"{len(data['items'])} object(s)"
    if isinstance(data, dict) and isinstance(data.get("data"), dict) and "result" in data["data"]:
        return f"{len(data['data']['result'] or [])} series"
    if isinstance(data, dict) and isinstance(data.get("data"), dict) and "alerts" in data["data"]:
        return f"{len(data['data']['alerts'])} alert(s)"
    if isinstance(data, dict) and isinstance(data.get("data"), list):
        return f"{len(data['data'])} entr{'y' if len(data['data']) == 1 else 'ies'}"
    if isinstance(data, list):
        return f"{len(data)} entr{'y' if len(data) == 1 else 'ies'}"
    if isinstance(data, dict) and data.get("kind"):
        return f"{data.get('kind')} {(data.get('metadata') or {}).get('name', '')}".strip()
    if isinstance(data, dict) and isinstance(data.get("dashboard"), dict):
        return f"dashboard with {len(data['dashboard'].get('panels') or [])} panels"
    lines = [ln for ln in text.splitlines() if ln.strip()]
    if call.tool == "logs_query":
        pods = sorted(set(re.findall(r'pod="([^"]+)"', text)))
        sources = sorted(set(re.findall(r'source="([^"]+)"', text)))
        read = ("; read the logs of pod(s) " + ", ".join(pods) if pods else "") + (
            "; log source(s) " + ", ".join(sources) if sources else ""
        )
        return f"{len(lines)} log line(s){read}"
    if "logs " in str(call.arguments.get("command", ""))[:5]:
        return f"{len(lines)} log line(s)"
    return first[:160] if len(lines) <= 2 else f"{first[:120]} (+{len(lines) - 1} lines)"


def trail(steps: list[Step]) -> str:
    """Every call, in order: what, why, what triggered it, the result, and for changes before -> after."""
    out = []
    for n, step in enumerate(steps, 1):
        kind = "CHANGE" if step.write else "read"
        line = (
            f"{n}. [{kind}] {command_of(step)} | trigger: {step.trigger} | why: {step.why} "
            f"| result: {result_of(step)}"
        )
        if step.write:
            line += f" | before: {step.before or 'n/a'} | after: {step.after or 'n/a'}"
        out.append(line)
    return "\n".join(out)


def changes(steps: list[Step]) -> list[Step]:
    return [s for s in steps if s.write]


def compact(obj: Any) -> str:
    return json.dumps(obj, sort_keys=True, separators=(", ", ": "))
