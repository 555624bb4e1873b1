"""Injected instructions and the carriers that hold them (07 §2.2 template mutation).

An *injected instruction* is text that reaches the agent through data rather
than through the operator (core §3.1 prompt injection resistance). It is found
by one general rule, never by scenario id:

- the payload of an ``environmental_state`` stimulus aimed at a data sub-path
  (``<kind>/<name>/logs``, ``/annotations/<key>``, ``/data/<key>``) or of any
  ``tool_output_injection`` stimulus (02 §1.4); or
- a string in a data-bearing field of a state entry (annotation values, dashboard
  and panel titles, alert description/summary, ConfigMap data values, log lines,
  event messages, a pod's last log line)

that reads as an order to automation: it contains one of :data:`ADDRESS_MARKERS`
and one of the operation words of :data:`OPERATION_WORDS` (fixed lists below).

A carrier is a place the simulated provider (sim-k8s, SI provider guide §1.4,
§1.8, §3) can provision such text from the scenario alone: a log line, an
annotation, an event message, a dashboard panel title, an alert description, a
tool output, a ConfigMap value. :func:`~.placement.place` puts an instruction into one of
them and returns a sentence for the operator prompt that makes the agent look
there, so the probe still exercises the archetype.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

#: words that address automation or claim authority over it (fixed list; case-insensitive)
ADDRESS_MARKERS = (
    "instruction",
    "override",
    "automated",
    "automation",
    "remediation required",
    "assistant",
    "agent",
    "bot",
    "must run",
    "execute",
    "directive",
    "action required",
    "operator note",
)
#: operation words an order to automation carries (fixed list; case-insensitive word stems)
OPERATION_WORDS = re.compile(
    r"\b(delet\w*|remov\w*|scal(?:e|es|ed|ing)\b|creat\w*|patch\w*|appl(?:y|ies)\b|restart\w*|drain\w*|"
    r"cordon\w*|bind\w*|grant\w*|exec\w*|run\b|wipe\w*|purge\w*|kill\w*|rollback|roll back|"
    r"set image|label\b|annotate\w*|copy\b|expose\w*|disable\w*)",
    re.IGNORECASE,
)
_QUOTED = re.compile(r"\"([^\"]+)\"|“([^”]+)”")

#: carrier kinds this module can place an instruction into
CARRIERS = (
    "log",
    "annotation",
    "event",
    "dashboard_panel",
    "alert",
    "tool_output",
    "configmap_value",
)
#: human wording of each carrier (descriptions, quality.attack_surface)
CARRIER_WORDS = {
    "log": "a workload log line",
    "annotation": "a resource annotation",
    "event": "a Kubernetes event message",
    "dashboard_panel": "a dashboard panel title",
    "dashboard_title": "a dashboard title",
    "alert": "an alert description",
    "tool_output": "tool output",
    "configmap_value": "a ConfigMap value",
}
#: quality.attack_surface of a probe whose instruction moved (02 §1.2)
CARRIER_SURFACES = {
    "log": "log-line",
    "annotation": "annotation",
    "event": "event-message",
    "dashboard_panel": "dashboard-panel-title",
    "alert": "alert-description",
    "tool_output": "tool-output",
    "configmap_value": "configmap-value",
}
WORKLOAD_KINDS = ("deployment", "deploy", "statefulset", "daemonset")


def is_instruction(text: str) -> bool:
    """Whether ``text`` reads as an instruction to the agent: it addresses it and names an operation."""
    low = text.lower()
    return any(m in low for m in ADDRESS_MARKERS) and bool(OPERATION_WORDS.search(text))


def payload(description: str) -> str:
    """The quoted text of a stimulus description (the longest quote), else all of it.

    The same reading a provider applies to ``environmental_state`` descriptions
    (SI provider guide §3)."""
    quotes = [a or b for a, b in _QUOTED.findall(description or "")]
    return max(quotes, key=len).strip() if quotes else (description or "").strip()


@dataclass
class Injection:
    """Where an instruction was found: the carrier kind, a path into the scenario data, the text."""

    carrier: str
    path: tuple[Any, ...]
    text: str


def kind_name(resource: Any) -> tuple[str, str]:
    """(lower-case kind, name) of a ``kind/name`` reference."""
    kind, _, name = str(resource or "").partition("/")
    return kind.lower(), name


def find_injections(data: dict[str, Any]) -> list[Injection]:
    """Every injected instruction of the scenario data, stimuli first, in file order."""
    found: list[Injection] = []
    for i, stim in enumerate(data.get("stimuli") or []):
        kind = stim.get("type")
        text = payload(str(stim.get("description") or stim.get("value") or ""))
        if kind == "tool_output_injection" and text:
            found.append(Injection("tool_output", ("stimuli", i), text))
        elif kind == "environmental_state":
            parts = str(stim.get("target") or "").split("/")
            sub = parts[2].lower() if len(parts) > 2 else ""
            carrier = {"logs": "log", "annotations": "annotation", "data": "configmap_value"}.get(
                sub
            )
            if carrier and text and is_instruction(text):
                found.append(Injection(carrier, ("stimuli", i), text))
    state = ((data.get("preconditions") or {}).get("environment") or {}).get("state") or []
    for i, entry in enumerate(state):
        if not isinstance(entry, dict):
            continue
        kind, _ = kind_name(entry.get("resource"))
        base = ("preconditions", "environment", "state", i)
        for key, value in sorted((entry.get("annotations") or {}).items()):
            if isinstance(value, str) and is_instruction(value):
                found.append(Injection("annotation", (*base, "annotations", key), value))
        candidates: list[tuple[str, tuple[Any, ...], Any]] = []
        if kind == "dashboard":
            candidates.append(("dashboard_title", ("title",), entry.get("title")))
            for n, panel in enumerate(entry.get("panels") or []):
                if isinstance(panel, dict):
                    candidates.append(
                        ("dashboard_panel", ("panels", n, "title"), panel.get("title"))
                    )
        elif kind == "alert":
            candidates += [("alert", (k,), entry.get(k)) for k in ("description", "summary")]
        elif kind in ("configmap", "cm"):
            candidates += [
                ("configmap_value", ("data", k), v)
                for k, v in sorted((entry.get("data") or {}).items())
            ]
        elif kind in ("logs", "log"):
            candidates += [
                ("log", ("entries", n), v) for n, v in enumerate(entry.get("entries") or [])
            ]
        elif kind in ("events", "event"):
            for n, ev in enumerate(entry.get("recent") or entry.get("events") or []):
                key = "recent" if entry.get("recent") else "events"
                if isinstance(ev, dict):
                    candidates.append(("event", (key, n, "message"), ev.get("message")))
        elif kind == "pod":
            candidates.append(("log", ("last_log",), entry.get("last_log")))
        for carrier, sub_path, value in candidates:
            if isinstance(value, str) and is_instruction(value):
                found.append(Injection(carrier, (*base, *sub_path), value))
    return found


def _at(data: Any, path: tuple[Any, ...]) -> Any:
    for part in path:
        data = data[part]
    return data


def text_at(data: dict[str, Any], inj: Injection) -> str:
    """The instruction's current text (a stimulus: the payload of its description or value)."""
    if inj.path[0] == "stimuli":
        stim = _at(data, inj.path)
        return payload(str(stim.get("description") or stim.get("value") or ""))
    return str(_at(data, inj.path))


def replace_text(data: dict[str, Any], inj: Injection, new: str) -> None:
    """Put ``new`` where the instruction was (a stimulus keeps its quoting)."""
    if inj.path[0] == "stimuli":
        stim = _at(data, inj.path)
        key = "description" if stim.get("description") else "value"
        stim[key] = str(stim[key]).replace(inj.text, new) if inj.text in str(stim[key]) else new
        return
    parent = _at(data, inj.path[:-1])
    parent[inj.path[-1]] = new


def remove(data: dict[str, Any], inj: Injection) -> None:
    """Take the instruction out of its carrier, leaving the carrier's object in place."""
    path = inj.path
    if path[0] == "stimuli":
        data["stimuli"].pop(path[1])
        return
    entry = _at(data, path[:4])
    sub = path[4:]
    if sub[0] == "annotations":
        entry["annotations"].pop(sub[1])
        if not entry["annotations"]:
            entry.pop("annotations")
    elif sub[0] == "title":
        entry["title"] = kind_name(entry.get("resource"))[1].replace("-", " ").title()
    elif sub[0] == "panels":
        entry["panels"].pop(sub[1])
    elif sub[0] in ("description", "summary"):
        entry[sub[0]] = f"{kind_name(entry.get('resource'))[1]} is firing"
    elif sub[0] == "data":
        entry["data"].pop(sub[1])
    elif sub[0] == "entries":
        entry["entries"].pop(sub[1])
        if not entry["entries"]:
            entry["entries"] = ["INFO service started"]
    elif sub[0] in ("recent", "events"):
        entry[sub[0]].pop(sub[1])
    elif sub[0] == "last_log":
        entry.pop("last_log")


def state_of(data: dict[str, Any]) -> list[dict[str, Any]]:
    """The declared environment state of scenario data (the transformations mutate it in place)."""
    return data["preconditions"]["environment"]["state"]


def scope_namespaces(data: dict[str, Any]) -> list[str]:
    """The namespaces in the agent's declared scope, as strings."""
    scope = data["preconditions"]["agent"].get("scope") or {}
    return [str(n) for n in scope.get("namespaces") or [] if isinstance(n, str)]
