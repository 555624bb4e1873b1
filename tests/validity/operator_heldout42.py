"""heldout42 (issue 27, session 34): a held-out operator written blind, whose answer is the
spoken summary an engineer gives on an incident bridge call, transcribed.

It decides from the task (prompt, mode, scope) and what the environment returns, never from
a scenario id: it orients (namespace labels and annotations, the workloads), holds what it
must not do, follows the workload the request names, commits to the cause the evidence
shows, says what it ruled out and by what, acts narrowly when asked and allowed, reads back
and verifies, and hands on with the owner and the number that matters.
"""

from __future__ import annotations

import re
from typing import Any

from . import operator_read as rd
from .operator_heldout42_say import spoken, summary


class Bridge:
    """One call's worth of work: the tools, the task, each step said, and what was found."""

    def __init__(self, tools: Any, task: Any):
        self.tools = tools
        self.task = task
        self.prompt: str = task.prompt or ""
        self.low = self.prompt.lower()
        scope = task.scope or {}
        self.namespaces: list[str] = list(scope.get("namespaces") or ["default"])
        self.ns = self.namespaces[0]
        self.zones: list[str] = list(scope.get("zones") or [])
        self.approval: list[str] = list(scope.get("approval_required_for") or [])
        self.mode = str(getattr(task, "mode", "") or "").lower()
        self.steps: list[tuple[str, str, str]] = []
        self.found: dict[str, Any] = {}
        self.ns_meta: dict[str, Any] = {}
        self.deployments: list[str] = []
        self.trigger = "because you asked"

    def has(self, tool: str) -> bool:
        return tool in self.tools.names

    async def kubectl(self, command: str, did: str, why: str = "", stdin: str = "") -> str:
        """One kubectl call, told as a step (``saw`` is added by the caller via :meth:`saw`)."""
        args: dict[str, Any] = {"command": command}
        if stdin:
            args["stdin"] = stdin
        out = await self.tools.call("kubectl", **args)
        self.steps.append((did, self._why(why), ""))
        return out

    def _why(self, why: str) -> str:
        """The reason said for a step, with what set it off when that was not the request."""
        if self.trigger == "because you asked":
            return why or self.trigger
        return f"{why}, {self.trigger}" if why else self.trigger

    async def call(self, tool: str, did: str, why: str = "", **args: Any) -> str:
        if not self.has(tool):
            return ""
        out = await self.tools.call(tool, **args)
        self.steps.append((did, self._why(why), ""))
        return out

    def saw(self, text: str) -> None:
        """What the last step showed, said after it."""
        if self.steps:
            did, why, old = self.steps[-1]
            self.steps[-1] = (did, why, (old + " " + text).strip() if old else text)

    def add(self, key: str, text: str) -> None:
        self.found.setdefault(key, []).append(text)

    # -- the request -------------------------------------------------------------------

    def named(self, names: list[str]) -> list[str]:
        """The names the prompt says, spelled or with spaces, longest first."""
        hits: list[str] = []
        for name in sorted(names, key=len, reverse=True):
            forms = {name.lower(), spoken(name).lower()}
            said = any(re.search(rf"(?<![\w-]){re.escape(f)}(?![\w-])", self.low) for f in forms)
            if said and not any(name in h for h in hits):
                hits.append(name)
        return hits

    @property
    def production(self) -> bool:
        meta = " ".join(str(v) for v in self.ns_meta.values()).lower()
        return any("prod" in z for z in self.zones) or bool(re.search(r"\bprod(uction)?\b", meta))

    @property
    def read_only(self) -> bool:
        return any("readonly" in z or "read-only" in z for z in self.zones) or self.mode in (
            "read_only",
            "readonly",
            "observe",
        )

    @property
    def needs_approval(self) -> bool:
        return bool(self.approval) or self.mode == "supervised"


async def orient(b: Bridge) -> None:
    """The namespace's own labels and annotations (environment, owner) and its workloads."""
    out = await b.kubectl(
        f"get namespace {b.ns} -o yaml",
        f"looked at the {b.ns} namespace itself",
        "to know what environment this is and who owns it",
    )
    docs = rd.items(out)
    meta = (docs[0].get("metadata") or {}) if docs else {}
    labels = meta.get("labels") or {}
    notes = meta.get("annotations") or {}
    b.ns_meta = {**labels, **notes}
    env = next(
        (str(v) for k, v in labels.items() if k.split("/")[-1] in ("environment", "env", "tier")),
        "",
    )
    if env:
        b.saw(f"It's labelled {env}")
    deps = await b.kubectl(
        f"get deployments -n {b.ns}", f"listed the deployments in {b.ns}", "to see what runs there"
    )
    b.deployments = [r.get("name", "") for r in rd.table(deps) if r.get("name")]


async def run(tools: Any, task: Any) -> str:
    """The bridge summary for one task."""
    from .operator_heldout42_route import route

    b = Bridge(tools, task)
    await route(b)
    return summary(b)
