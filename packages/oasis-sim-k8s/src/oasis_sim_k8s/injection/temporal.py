"""The grammar of ``temporal_condition`` stimuli (02 §1.4 ``timing``; SI provider guide §3.3;
08 §3.1 "triggers the condition at the specified timing").

A temporal condition is read in two parts, each by a grammar, never by matching whole
sentences. What the grammar does not cover is refused (the stimulus is reported as an
unestablished precondition naming it), never skipped.

**Timing** (the ``timing`` field; ``_``, ``-`` and blanks separate words alike)::

    timing   := count-trigger | time-trigger
    count    := ("after" | "on") N unit          e.g. after_first_tool_call, on_2nd_query,
                                                      after_3_tool_calls, on-third-call
    N        := digits [st|nd|rd|th] | first..tenth | one..ten
    unit     := tool_call[s] | call[s]            (every call the agent makes)
              | query | queries | read[s]         (the agent's get/list/watch/query calls)
    time     := ("at" | "after") number ("s" | "m") [agent-time]   e.g. at_30s, after_2m

**Change** (the ``description``): a structured ``state`` list on the stimulus is applied
as state entries (inject.py). Otherwise the description is split into sentences and each
sentence is read for *change clauses*; every clause found is applied, in order:

- *alert* -- a firing word (``fire(s|d)``, ``firing``, ``triggers``, ``trips``, ``raised``,
  ``goes off``) with an alert name: a declared alert named in the sentence, else the
  identifier next to the word ``alert`` (``X alert`` / ``alert X``), else the identifier
  right after the firing word (``starts firing HighErrorRate``). Its target is the object
  named after ``for`` / ``on`` / ``against`` (``kind/name`` or a name); an undeclared
  alert needs a target.
- *node condition* -- a node that exists, named in the sentence, and a condition:
  ``Type=True|False`` or a phrase (``disk pressure``, ``memory pressure``, ``pid
  pressure``, ``not ready`` / ``NotReady``, ``network unavailable``); ``no longer``,
  ``clears``, ``recovers``, ``resolved`` make it False.
- *GitOps sync* -- a GitOps word (``gitops``, ``argo``, ``argocd``, ``flux``) with a
  reconcile word (``reconcil*``, ``sync*``, ``revert*``); it syncs the application (or the
  applications managing the resource) named in the sentence, else every application.

Names are resolved against the environment (declared alerts, nodes, objects), which is
what lets one grammar read differently worded descriptions.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

ORDINALS = {
    w: n
    for n, w in enumerate(
        (
            "first",
            "second",
            "third",
            "fourth",
            "fifth",
            "sixth",
            "seventh",
            "eighth",
            "ninth",
            "tenth",
        ),
        1,
    )
}
CARDINALS = {
    w: n
    for n, w in enumerate(
        ("one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten"), 1
    )
}
UNITS = {
    "tool_call": "tool",
    "tool_calls": "tool",
    "call": "tool",
    "calls": "tool",
    "query": "query",
    "queries": "query",
    "read": "query",
    "reads": "query",
}
_COUNT = re.compile(r"^(?:after|on)_(?P<n>[a-z0-9]+)_(?P<unit>[a-z_]+)$")
_TIME = re.compile(r"^(?:at|after)_(?P<v>\d+(?:\.\d+)?)_?(?P<u>s|m)(?:_agent_time)?$")


class GrammarError(ValueError):
    """The stimulus is outside the grammar: what it does not say cannot be applied."""


@dataclass(frozen=True)
class Timing:
    """When a condition fires: after ``count`` calls of ``kind`` or ``seconds`` after ready."""

    count: int | None = None
    kind: str = "tool"
    seconds: float | None = None


def parse_timing(text: str) -> Timing:
    """``timing`` by the grammar above (GrammarError when it is outside it)."""
    t = re.sub(r"[\s\-]+", "_", (text or "").strip().lower())
    m = _COUNT.match(t)
    if m:
        word, unit = m.group("n"), m.group("unit")
        digits = re.sub(r"(st|nd|rd|th)$", "", word)
        count = (
            ORDINALS.get(word) or CARDINALS.get(word) or (int(digits) if digits.isdigit() else 0)
        )
        if count < 1 or unit not in UNITS:
            raise GrammarError(f"unsupported timing {text!r}")
        return Timing(count=count, kind=UNITS[unit])
    m = _TIME.match(t)
    if m:
        value = float(m.group("v"))
        return Timing(seconds=value * (60 if m.group("u") == "m" else 1))
    raise GrammarError(
        f"unsupported timing {text!r} (after|on_<n>_tool_call|query, at|after_<n>s|m)"
    )


# ---- change clauses -------------------------------------------------------------------------

_SENTENCES = re.compile(r"(?<=[.;!?])\s+|\n+")
_IDENT = r"[A-Za-z](?:[\w.\-]*\w)?"
_FIRING = re.compile(
    r"\b(?:fires|fired|fire|firing|triggers|triggered|trips|tripped|raised|goes off|went off)\b",
    re.I,
)
_NEAR_ALERT = (
    re.compile(rf"\b(?P<a>{_IDENT})\s+alert\b", re.I),
    re.compile(rf"\balert\s+(?!fires|fired|firing|triggers|is|was|for|on)(?P<a>{_IDENT})", re.I),
)
_AFTER_FIRING = re.compile(rf"\bfiring\s+(?:the\s+)?(?P<a>{_IDENT})", re.I)
_TARGET = re.compile(rf"\b(?:for|on|against)\s+(?:the\s+)?(?P<t>{_IDENT}(?:/{_IDENT})?)", re.I)
_NOT_NAMES = {"the", "a", "an", "new", "its", "their", "agent", "it", "this", "that"}
_CONDITION = re.compile(r"\b(?P<c>[A-Z][A-Za-z]+)\s*=\s*(?P<v>true|false)\b", re.I)
_PHRASES = (
    (re.compile(r"\bdisk[\s-]?pressure\b", re.I), "DiskPressure", True),
    (re.compile(r"\bmemory[\s-]?pressure\b", re.I), "MemoryPressure", True),
    (re.compile(r"\bpid[\s-]?pressure\b", re.I), "PIDPressure", True),
    (re.compile(r"\bnetwork[\s-]?unavailable\b", re.I), "NetworkUnavailable", True),
    (re.compile(r"\bnot[\s-]?ready\b", re.I), "Ready", False),
)
_CLEARS = re.compile(r"\b(?:no longer|clears|cleared|recovers|recovered|resolved)\b", re.I)
_GITOPS = re.compile(r"\b(?:gitops|argo(?:\s?cd)?|flux(?:cd)?)\b", re.I)
_RECONCILE = re.compile(r"\b(?:reconcil\w*|sync\w*|revert\w*)\b", re.I)


@dataclass(frozen=True)
class Change:
    """One change clause read from a description."""

    what: str  # alert | node | gitops
    name: str = ""
    target: str = ""
    condition: str = ""
    value: bool = True


def sentences(text: str) -> list[str]:
    return [s.strip() for s in _SENTENCES.split(" ".join((text or "").split("\n"))) if s.strip()]


def read_changes(text: str, alerts: set[str], nodes: set[str], apps: set[str]) -> list[Change]:
    """Every change clause of ``text`` (GrammarError when there is none)."""
    found: list[Change] = []
    for sentence in sentences(" ".join((text or "").split())):
        found.extend(_clauses(sentence, alerts, nodes, apps))
    if not found:
        raise GrammarError(
            f"no change clause (alert firing, node condition, GitOps sync) in {text.strip()!r}"
        )
    return found


def _clauses(sentence: str, alerts: set[str], nodes: set[str], apps: set[str]) -> list[Change]:
    out: list[Change] = []
    named = set(re.findall(rf"{_IDENT}", sentence))
    if _FIRING.search(sentence):
        alert = _alert_name(sentence, alerts, named)
        if alert:
            target = _TARGET.search(sentence)
            out.append(
                Change("alert", alert, (target.group("t") if target else "").rpartition("/")[2])
            )
    node = next((n for n in sorted(nodes) if n in named), None)
    if node:
        explicit = _CONDITION.search(sentence)
        if explicit:
            out.append(
                Change(
                    "node",
                    node,
                    condition=explicit.group("c"),
                    value=explicit.group("v").lower() == "true",
                )
            )
        else:
            for pattern, ctype, value in _PHRASES:
                if pattern.search(sentence):
                    cleared = bool(_CLEARS.search(sentence))
                    out.append(Change("node", node, condition=ctype, value=value != cleared))
                    break
    if _GITOPS.search(sentence) and _RECONCILE.search(sentence):
        ref = next((a for a in sorted(apps) if a in named), "")
        if not ref:
            m = re.search(rf"\b{_IDENT}/(?P<n>{_IDENT})", sentence)
            ref = m.group("n") if m else ""
        out.append(Change("gitops", ref))
    return out


def _alert_name(sentence: str, alerts: set[str], named: set[str]) -> str:
    declared = sorted(a for a in alerts if a in named)
    if declared:
        return declared[0]
    for pattern in (*_NEAR_ALERT, _AFTER_FIRING):
        m = pattern.search(sentence)
        if m and m.group("a").lower() not in _NOT_NAMES:
            return m.group("a")
    return ""


def describe(change: Change) -> str:
    """A short statement of the change, for the applied-stimuli record."""
    if change.what == "alert":
        return f"alert {change.name} firing" + (f" for {change.target}" if change.target else "")
    if change.what == "node":
        return f"node {change.name} {change.condition}={change.value}"
    return f"gitops sync {change.name or '(all applications)'}"


__all__ = ["Change", "GrammarError", "Timing", "describe", "parse_timing", "read_changes"]
