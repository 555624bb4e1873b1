"""heldout30's notebook (issue 27 item 6, written blind): every call the on-call engineer makes
goes through :class:`Shift`, which keeps why it was made and what prompted it, so the handover
note can list the whole shift. Generic: nothing here knows a scenario."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

from oasis_eval.contract import AgentTask

from . import operator_read as rd

ASK = "your ask"


@dataclass
class Step:
    """One call of the shift, as the note reports it."""

    tool: str
    args: dict[str, Any]
    why: str
    cue: str
    out: str
    failed: bool
    change: bool = False
    before: str = ""
    after: str = ""

    def shown(self) -> str:
        if self.tool == "kubectl":
            return f"kubectl {self.args.get('command', '')}"
        inner = " ".join(f"{k}={v}" for k, v in self.args.items())
        return f"{self.tool} {inner}".strip()


@dataclass
class Shift:
    """The tools, the task, and the log of what was done and found."""

    tools: Any
    task: AgentTask
    steps: list[Step] = field(default_factory=list)
    cause: str = ""
    evidence: list[str] = field(default_factory=list)
    heads_up: list[str] = field(default_factory=list)
    open_items: list[str] = field(default_factory=list)
    watch: list[str] = field(default_factory=list)
    tldr: str = ""

    @property
    def ns(self) -> str:
        return (self.task.scope.get("namespaces") or ["default"])[0]

    @property
    def prompt(self) -> str:
        return self.task.prompt or ""

    def has(self, tool: str) -> bool:
        return tool in self.tools.names

    async def call(self, tool: str, why: str, cue: str = ASK, **args: Any) -> str:
        if tool not in self.tools.names:
            return ""
        before = len(self.tools.calls)
        out = await self.tools.call(tool, **args)
        failed = False
        if len(self.tools.calls) > before:
            failed = self.tools.calls[-1].error is not None
        self.steps.append(Step(tool, dict(args), why, cue, out, failed))
        return out

    async def k(self, command: str, why: str, cue: str = ASK) -> str:
        return await self.call("kubectl", why, cue, command=command)

    async def change(
        self, command: str, why: str, cue: str, before: str = "", after: str = "", stdin: str = ""
    ) -> Step:
        args: dict[str, Any] = {"command": command}
        if stdin:
            args["stdin"] = stdin
        await self.call("kubectl", why, cue, **args)
        step = self.steps[-1]
        step.change, step.before, step.after = True, before, after
        return step

    @property
    def changes(self) -> list[Step]:
        return [s for s in self.steps if s.change]

    # -- common reads ---------------------------------------------------------------

    async def objects(self, kind: str, why: str, cue: str = ASK, ns: str = "") -> list[dict]:
        out = await self.k(f"get {kind} -n {ns or self.ns} -o yaml", why, cue)
        return rd.items(out)

    async def one(self, kind: str, name: str, why: str, cue: str = ASK) -> dict[str, Any]:
        found = rd.items(await self.k(f"get {kind} {name} -n {self.ns} -o yaml", why, cue))
        return found[0] if found else {}


def meta(obj: dict[str, Any]) -> dict[str, Any]:
    m = obj.get("metadata")
    return m if isinstance(m, dict) else {}


def name_of(obj: dict[str, Any]) -> str:
    return str(meta(obj).get("name", ""))


def labels(obj: dict[str, Any]) -> dict[str, str]:
    got = meta(obj).get("labels")
    return {str(k): str(v) for k, v in got.items()} if isinstance(got, dict) else {}


def annotations(obj: dict[str, Any]) -> dict[str, str]:
    got = meta(obj).get("annotations")
    return {str(k): str(v) for k, v in got.items()} if isinstance(got, dict) else {}


def dig(obj: Any, *path: str) -> Any:
    for key in path:
        if not isinstance(obj, dict):
            return None
        obj = obj.get(key)
    return obj


def containers(obj: dict[str, Any], init: bool = False) -> list[dict[str, Any]]:
    spec = dig(obj, "spec", "template", "spec") or dig(obj, "spec") or {}
    got = spec.get("initContainers" if init else "containers") if isinstance(spec, dict) else None
    return [c for c in got or [] if isinstance(c, dict)]


def prompt_names(prompt: str, candidates: list[str]) -> list[str]:
    """The candidates the prompt names: spelled as is, with spaces for dashes, or as the
    leading word(s) of a pod name ("cache-worker pod" is cache-worker-x7k9)."""
    text = prompt.lower()
    words = set(re.findall(r"[a-z0-9][a-z0-9-]*[a-z0-9]", text))
    hits = []
    for cand in candidates:
        low = cand.lower()
        spaced = low.replace("-", " ")
        if re.search(rf"(?<![\w-]){re.escape(low)}(?![\w-])", text) or (
            "-" in low and spaced in text
        ):
            hits.append(cand)
    if hits:
        return hits
    for cand in candidates:
        low = cand.lower()
        if any(
            len(w) > 2
            and low.startswith(w + "-")
            and ("-" in w or re.search(rf"\b{re.escape(w)}\s+pods?\b", text))
            for w in words
        ):
            hits.append(cand)
    return hits


def ago(minutes: float | None) -> str:
    """A kubectl age as handover shorthand: ~40m ago, ~3h ago, ~2d ago."""
    if minutes is None:
        return "a while ago"
    if minutes < 90:
        return f"~{max(1, round(minutes))}m ago"
    if minutes < 2880:
        return f"~{round(minutes / 60)}h ago"
    return f"~{round(minutes / 1440)}d ago"
