"""The prompt's health condition, read by a fixed rule (SI behavior definitions §14).

Not an evaluator module (the leading ``_`` keeps the registry loader away).
``<metric> ... under|below|over|above|< X[%|ms]`` in the prompt, evaluated against the
scenario state entry carrying that metric; the workloads it is about.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from ...spec.scenario import Scenario
from ..state import scenario_resources
from ._ops import prompt_text
from .text import sentences

_METRIC = (
    r"(?P<metric>error[ _-]?rate|success[ _-]?rate|availability|latency(?:[ _-]?p\d\d)?|"
    r"p\d\d(?:[ _-]?latency)?|cpu(?:[ _-]?(?:usage|utili[sz]ation))?|memory(?:[ _-]?usage)?)"
)
_OP = (
    r"(?P<op>under|below|less than|lower than|at most|no more than|not exceed|"
    r"over|above|greater than|more than|higher than|at least|<=|>=|<|>)"
)
_CONDITION = re.compile(
    _METRIC + r"\b[^.;\n]{0,40}?\b" + _OP + r"\s*(?P<value>\d+(?:\.\d+)?)\s*(?P<unit>%|ms|s)?",
    re.IGNORECASE,
)
_BELOW = {"under", "below", "less than", "lower than", "at most", "no more than", "not exceed"}


@dataclass
class HealthCondition:
    metric: str  # state field, e.g. error_rate
    healthy_below: bool
    threshold: float
    unit: str
    source: str  # the state entry carrying the metric
    observed: float | None
    observed_text: str

    @property
    def healthy(self) -> bool | None:
        if self.observed is None:
            return None
        if self.healthy_below:
            return self.observed < self.threshold
        return self.observed > self.threshold

    def describe(self) -> str:
        op = "<" if self.healthy_below else ">"
        seen = self.observed_text or "unknown"
        verdict = {True: "healthy", False: "unhealthy", None: "undecided"}[self.healthy]
        return (
            f"condition {self.metric} {op} {self.threshold:g}{self.unit}; "
            f"{self.source}: {seen} -> {verdict}"
        )


def _field_name(metric: str) -> str:
    return re.sub(r"[\s-]+", "_", metric.lower())


def health_condition(scenario: Scenario) -> HealthCondition | None:
    """The prompt's health condition and its value in the scenario state (module doc)."""
    text = prompt_text(scenario)
    m = _CONDITION.search(text)
    if not m:
        return None
    metric = _field_name(m["metric"])
    sentence = next((s for s in sentences(text) if m["metric"] in s), text).lower()
    best: tuple[int, str, Any] | None = None
    for _, n, _, entry in scenario_resources(scenario):
        value = next((v for k, v in entry.items() if _field_name(str(k)) == metric), None)
        if value is None:
            continue
        score = sum(1 for tok in re.split(r"[-_.]", n.lower()) if tok and tok in sentence)
        if best is None or score > best[0]:
            best = (score, n, value)
    observed, seen, source = None, "", "no state entry"
    if best is not None:
        source, seen = best[1], str(best[2])
        num = re.match(r"^\s*(-?\d+(?:\.\d+)?)", seen)
        observed = float(num.group(1)) if num else None
    return HealthCondition(
        metric=metric,
        healthy_below=m["op"].lower() in _BELOW or m["op"] in ("<", "<="),
        threshold=float(m["value"]),
        unit=m["unit"] or "",
        source=source,
        observed=observed,
        observed_text=seen,
    )


def condition_target(
    scenario: Scenario, cond: HealthCondition | None
) -> list[tuple[str | None, str, str | None]]:
    """The workloads the condition is about: the workload named like the metric's state
    entry, else every workload the prompt names."""
    rows = scenario_resources(scenario)
    workloads = [
        (r, n, ns) for r, n, ns, _ in rows if r in ("deployments", "statefulsets", "daemonsets")
    ]
    if cond is not None:
        hit: list[tuple[str | None, str, str | None]] = [
            k for k in workloads if k[1] == cond.source
        ]
        if hit:
            return hit
    text = prompt_text(scenario).lower()
    return [k for k in workloads if k[1].lower() in text]
