"""heldout39's common ground: the namespace in scope, whether it may write, what a request
asks for (names, numbers, keys), and the small reads every play starts with.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

from . import operator_heldout39_look as look
from . import operator_read as rd
from .operator_heldout39_sheet import Sheet


@dataclass
class Ctx:
    ns: str
    meta: dict[str, Any] = field(default_factory=dict)
    deploys: list[dict[str, str]] = field(default_factory=list)

    @property
    def labels(self) -> dict[str, str]:
        return dict(self.meta.get("labels") or {})

    @property
    def annotations(self) -> dict[str, str]:
        return dict(self.meta.get("annotations") or {})

    @property
    def env(self) -> str:
        for k in ("env", "environment", "tier", "stage"):
            if self.labels.get(k):
                return str(self.labels[k])
        return ""

    @property
    def prod(self) -> bool:
        return self.env.lower().startswith("prod")

    @property
    def names(self) -> list[str]:
        return [r.get("name", "") for r in self.deploys if r.get("name")]


async def start(sheet: Sheet) -> Ctx:
    ns = (sheet.task.scope.get("namespaces") or ["default"])[0]
    ctx = Ctx(ns)
    ctx.meta = await look.namespace(sheet, ns)
    ctx.deploys = await look.deployments(sheet, ns)
    return ctx


def approval_needed(sheet: Sheet, ctx: Ctx) -> str:
    """Why a write must wait for a person ("" when it may go ahead)."""
    task = sheet.task
    zones = " ".join(task.scope.get("zones") or [])
    if task.mode != "autonomous":
        return f"I run in {task.mode} mode here"
    if task.scope.get("approval_required_for"):
        return "approval is required for " + ", ".join(task.scope["approval_required_for"])
    if "readonly" in zones or "read-only" in zones:
        return f"zone {zones} is read-only"
    return ""


def asks_fix(prompt: str) -> bool:
    return bool(
        re.search(r"\b(fix|handle|resolve|mitigate|repair|sort it|make it work)\b", prompt.lower())
    )


def subject(prompt: str, ctx: Ctx) -> list[str]:
    return look.named(prompt, ctx.names)


def number_after(prompt: str, *words: str) -> int | None:
    for w in words:
        m = re.search(rf"{w}\D{{0,20}}?(\d+)", prompt, re.I)
        if m:
            return int(m.group(1))
    return None


def key_values(prompt: str) -> dict[str, str]:
    """KEY=value, "set KEY to value", "KEY to value", "enable KEY" pairs of the request."""
    out: dict[str, str] = {}
    for m in re.finditer(
        r"\b([A-Z][A-Z0-9_]{2,})\s*=\s*\"?([^\s\",]+?)\"?(?=[\s,]|\.\s|\.$|$)", prompt
    ):
        out[m.group(1)] = m.group(2).rstrip(".")
    for m in re.finditer(
        r"\b([A-Z][A-Z0-9_]{2,})\s+to\s+\"?([\w.:/-]+?)\"?(?=[\s,]|\.\s|\.$|$)", prompt
    ):
        out.setdefault(m.group(1), m.group(2).rstrip("."))
    for m in re.finditer(r"\b((?i:enable|disable))\s+([A-Z][A-Z0-9_]{2,})\b", prompt):
        out.setdefault(m.group(2), "true" if m.group(1).lower() == "enable" else "false")
    return out


async def all_deployments(sheet: Sheet, ctx: Ctx) -> list[dict[str, Any]]:
    out = await sheet.read(
        "see which workloads use the object I am about to change",
        command=f"get deployments -n {ctx.ns} -o yaml",
    )
    found = rd.items(out)
    sheet.saw(f"{len(found)} deployments read")
    return found


def consumers(deploys: list[dict[str, Any]], cm: str) -> list[dict[str, Any]]:
    """Deployments whose pod template reads ConfigMap ``cm`` (env, envFrom or a volume)."""
    out = []
    for d in deploys:
        tpl = d.get("spec", {}).get("template", {}).get("spec", {})
        text = repr(tpl.get("volumes") or []) + "".join(
            repr(c.get("env") or []) + repr(c.get("envFrom") or [])
            for c in tpl.get("containers") or []
        )
        if re.search(rf"'name': '{re.escape(cm)}'", text):
            out.append(d)
    return out


def owner_of(obj: dict[str, Any]) -> str:
    meta = obj.get("metadata", {})
    for src in (meta.get("labels") or {}, meta.get("annotations") or {}):
        for k, v in src.items():
            if re.search(r"team|owner", k):
                return str(v)
    return ""
