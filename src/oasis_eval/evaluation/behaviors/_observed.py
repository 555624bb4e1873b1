"""The concrete facts a scenario seeds, as the answer may state them (SI behavior definitions
§8, §10: the findings an escalation carries), split from :mod:`.environment`: values with
units (``800ms``, ``2%``, ``1.6Gi``; bare beside the metric's name as served, rule 376:
``error_rate: 0.02``, ``latency_p99: 800``), identifier-like statuses (``OOMKilled``,
``002_add_email_verified``), numbers with the word they count (``restarts: 8``), log
messages (any two adjacent words).

Not an evaluator module (the leading ``_`` keeps the registry loader away).
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Iterator
from typing import Any

from ...spec.scenario import Scenario
from ._cue import Searcher
from ._figures import same_figure
from ._metric_figure import beside
from .common import objects
from .registry import BehaviorContext
from .text import quote

_I = re.IGNORECASE
_SKIP = frozenset({"resource", "namespace", "labels", "annotations", "zone", "t", "age", "type"})
_PLAIN = frozenset({"running", "true", "false", "ready", "active", "normal", "bound", "default"})


def loose(value: str) -> re.Pattern[str]:
    """A value with its separators loosened: ``payments-team`` ~ ``payments team``."""
    parts = [re.escape(p) for p in re.split(r"[\s\-_:/]+", value.strip().lstrip("#")) if p]
    return re.compile(r"(?<![\w])" + r"[\s\-_:/]*".join(parts) + r"(?![\w])", _I)


def observations(bctx: BehaviorContext) -> list[tuple[str, list[Searcher]]]:
    """Concrete facts the scenario seeds: ``(label, regexes that must all match one sentence)``,
    read once per judgement (rules ask per sentence, issue 30)."""
    return list(bctx.ctx.memo("observations", lambda: tuple(_observations(bctx.scenario))))


def bare_names(bctx: BehaviorContext) -> frozenset[str]:
    """The names of the seeded figures a bare figure beside them may state (rule 376)."""
    return frozenset(bctx.ctx.memo("bare_names", lambda: frozenset(_bare_names(bctx.scenario))))


def _bare_names(scenario: Scenario) -> set[str]:
    out = set()
    for obj in objects(scenario):
        for path, value in _leaves(obj.entry):
            m = re.fullmatch(r"(\d+(?:\.\d+)?)\s*([A-Za-z%]+)", str(value).strip())
            if path and m and beside(path[-1], float(m[1]), m[2]):
                out.add(path[-1])
    return out


def _observations(scenario: Scenario) -> list[tuple[str, list[Searcher]]]:
    out: list[tuple[str, list[Searcher]]] = []
    for obj in objects(scenario):
        for path, value in _leaves(obj.entry):
            fact = _fact(path[-1] if path else "", value)
            if fact and fact[0] not in [f for f, _ in out]:
                out.append(fact)
    return out


def _leaves(value: Any, path: tuple[str, ...] = ()) -> Iterator[tuple[tuple[str, ...], Any]]:
    if isinstance(value, dict):
        for k in sorted(value, key=str):
            if str(k) not in _SKIP:
                yield from _leaves(value[k], (*path, str(k)))
    elif isinstance(value, list):
        for item in value:
            yield from _leaves(item, path)
    elif not isinstance(value, bool) and value is not None:
        yield path, value


def _fact(key: str, value: Any) -> tuple[str, list[Searcher]] | None:
    if isinstance(value, (int, float)):
        words = sorted((w for w in re.split(r"[\W_]+", key) if len(w) >= 4), key=len, reverse=True)
        if not words:
            return None
        num = re.compile(rf"(?<![\d.]){re.escape(str(value))}(?![\d])")
        return f"{key}={value}", [num, re.compile(rf"\b{re.escape(words[0][:5])}", _I)]
    text = str(value).strip()
    m = re.fullmatch(r"(\d+(?:\.\d+)?)\s*([A-Za-z%]+)", text)
    if m:
        said = rf"(?<![\d.]){same_figure(m[1])}\s*{re.escape(m[2])}(?!\w)"  # rule 1045
        bare = beside(key, float(m[1]), m[2])  # rule 376: "error_rate: 0.02" states 2%
        return text, [re.compile(said + (f"|{bare.pattern}" if bare else ""), _I)]
    words = re.findall(r"[A-Za-z]{3,}", text)
    if len(text.split()) >= 3 and len(words) >= 2:  # a log message: any two adjacent words
        pairs = [
            rf"\b{a}\w{{0,3}}\W+(?:\w{{1,3}}\W+){{0,2}}{b}\w{{0,3}}\b"
            for a, b in itertools.pairwise(words)
        ]
        return quote(text, 60), [re.compile("|".join(pairs), _I)]
    identifier = re.search(r"[\d_\-:]", text) or sum(c.isupper() for c in text) >= 2
    if identifier and len(text) >= 4 and text.lower() not in _PLAIN:
        return text, [loose(text)]
    return None
