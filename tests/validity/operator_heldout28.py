"""``heldout28``: a held-out competent operator, session 24 (issue 27, fairness), written blind.

Written from the SI profile (scenarios, prompts), ``docs/agents.md``, ``docs/scoring.md``, the
README and this harness only, before its author read the evaluator. It works as an SRE does: it
looks at the namespace and the workload the request names, reads its pods, events, logs and
metrics, makes the smallest safe change the request needs when it may, checks it, and answers
as a plain-English note for a non-expert stakeholder (a product manager reading it on a
phone): prose paragraphs only, no lists, no markdown, no commands quoted; what it did told in
words, each technical term explained in passing, numbers with their units.

It decides from the task (prompt, mode, scope, tools) and what the environment returns, never
from a scenario id. This module holds the note (what was done, found, changed, held) and the
calls; ``operator_heldout28_look`` the reading and the diagnosis, ``operator_heldout28_act``
the changes and what is declined or held for a person to decide.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

from oasis_eval.contract import AgentTask

from .agents import Tools, namespaces


@dataclass
class Deed:
    """One thing I did, in words: what, why, what prompted it, and the change it made."""

    words: str
    why: str
    prompted: str
    change: str = ""
    failed: bool = False


@dataclass
class Note:
    """One task: what I did and found, what I changed, what I left for a person to decide."""

    tools: Tools
    task: AgentTask
    opening: str = ""
    deeds: list[Deed] = field(default_factory=list)
    found: list[str] = field(default_factory=list)
    changed: list[str] = field(default_factory=list)
    held: list[str] = field(default_factory=list)
    closing: str = ""
    prompted: str = "your request"
    labels: dict[str, str] = field(default_factory=dict)
    annotations: dict[str, str] = field(default_factory=dict)
    facts: dict[str, Any] = field(default_factory=dict)

    @property
    def low(self) -> str:
        return self.task.prompt.lower()

    @property
    def ns(self) -> str:
        return namespaces(self.task)[0]

    @property
    def approval(self) -> str:
        return "; ".join(self.task.scope.get("approval_required_for") or [])

    @property
    def writable(self) -> bool:
        """I change things only autonomously, outside a read-only zone, with no approval rule."""
        zones = " ".join(self.task.scope.get("zones") or []).replace("-", "").lower()
        return self.task.mode == "autonomous" and "readonly" not in zones and not self.approval

    @property
    def production(self) -> bool:
        for key in ("env", "environment", "stage"):
            if self.labels.get(key, "").lower().startswith("prod"):
                return True
        zones = " ".join(self.task.scope.get("zones") or []).lower()
        return "prod" in zones or self.ns.startswith("prod")

    def has(self, tool: str) -> bool:
        return tool in self.tools.names

    def find(self, text: str) -> None:
        if text and text not in self.found:
            self.found.append(text)

    def hold(self, text: str) -> None:
        if text and text not in self.held:
            self.held.append(text)

    def did_change(self, text: str) -> None:
        if text and text not in self.changed:
            self.changed.append(text)

    def _deed(self, words: str, why: str, change: str) -> None:
        failed = bool(self.tools.calls and self.tools.calls[-1].error)
        self.deeds.append(Deed(words, why, self.prompted, "" if failed else change, failed))

    async def k(self, command: str, words: str, why: str, change: str = "", **extra: Any) -> str:
        out = await self.tools.call("kubectl", command=command, **extra)
        self._deed(words, why, change)
        return out

    async def use(self, tool: str, words: str, why: str, **args: Any) -> str:
        if not self.has(tool):
            return ""
        out = await self.tools.call(tool, **args)
        self._deed(words, why, "")
        return out


def mentions(text: str, name: str) -> bool:
    return bool(re.search(rf"(?<![\w-]){re.escape(name.lower())}(?![\w-])", text.lower()))


def section(text: str, key: str) -> dict[str, str]:
    """The ``key=value`` lines of one ``describe`` section (Labels, Annotations)."""
    out: dict[str, str] = {}
    inside = False
    for line in text.splitlines():
        if line.startswith(f"{key}:"):
            inside, line = True, line[len(key) + 1 :]
        elif line[:1].strip():
            inside = False
        entry = line.strip()
        if not inside or entry in ("", "<none>"):
            continue
        k, sep, v = entry.partition("=")
        if not sep or ":" in k:
            k, sep, v = entry.partition(":")
        if sep:
            out[k.strip()] = v.strip()
    return out


_ORDINAL = ("First", "Then", "After that", "Next", "Then", "After that", "Next")


def _deeds(note: Note) -> str:
    """What I did, one sentence each, in order, each with its reason and what prompted it."""
    out = []
    for n, d in enumerate(note.deeds):
        lead = _ORDINAL[n] if n < len(_ORDINAL) else "Then"
        because = (
            "because of your request" if d.prompted == "your request" else f"because {d.prompted}"
        )
        line = f"{lead}, {because}, I {d.words} {d.why}"
        if d.change:
            line += f", which changed {d.change}"
        if d.failed:
            line += ", but the cluster refused it with an error"
        out.append(line.rstrip(".") + ".")
    return " ".join(out)


def render(note: Note) -> str:
    """The note: a short answer, what I did, what I found, what I changed or held, what next."""
    paras = [note.opening or "Here is what I looked at and what I found, in plain words."]
    paras.append(_deeds(note) or "I made no call to the cluster for this request.")
    if note.found:
        paras.append(" ".join(note.found))
    if note.changed:
        paras.append(" ".join(note.changed))
    if note.held:
        paras.append(" ".join(note.held))
    if note.closing:
        paras.append(note.closing)
    return "\n\n".join(p.strip() for p in paras if p.strip())


async def run(tools: Tools, task: AgentTask) -> str:
    """Look at the namespace, take the route the request asks for, then write the note."""
    from .operator_heldout28_act import route

    note = Note(tools, task)
    await route(note)
    return render(note)
