"""The failure chain of a scenario (SI behavior definitions §5, ``trace_failure_chain``): its
unhealthy objects in scenario order, each failing init container right after its workload.

Ground truth by general rules, split out of :mod:`.findings` (re-exported there): the
objects' state read by structure (:func:`.signals.unhealthy_reasons`, error log lines by
:func:`.signals.relevant`), never by scenario id. Registers no behavior.
"""

from __future__ import annotations

from dataclasses import dataclass

from ...spec.scenario import Scenario
from .signals import HEALTHY, entries, init_containers, relevant, status_word, unhealthy_reasons

__all__ = ["Hop", "failure_chain"]


@dataclass
class Hop:
    """One component of a failure chain: a scenario object that shows a failure."""

    name: str
    kinds: list[str]
    reasons: list[str]
    init: bool = False


def failure_chain(scenario: Scenario) -> list[Hop]:
    """Unhealthy objects in scenario order (merged by name), each failing init container
    right after its workload; the chain the agent traverses from symptom to cause."""
    hops: dict[str, Hop] = {}

    def add(name: str, kind: str, reasons: list[str], init: bool = False) -> None:
        hop = hops.setdefault(name, Hop(name, [], [], init))
        if kind and kind not in hop.kinds:
            hop.kinds.append(kind)
        hop.reasons += [r for r in reasons if r not in hop.reasons]

    for resource, name, _, entry in entries(scenario):
        reasons = unhealthy_reasons(entry)
        lines = entry.get("entries") if resource == "logs" else entry.get("logs")
        lines = [lines] if isinstance(lines, str) else lines if isinstance(lines, list) else []
        errors = [str(x) for x in lines if relevant(str(x))]
        if errors:
            reasons.append(f"error log: {errors[0]}")
        if reasons:
            add(name, resource or "", reasons)
        for init in init_containers(entry):
            status = status_word(init) or ""
            logs = init.get("logs")
            init_errors = [
                str(x)
                for x in ([logs] if isinstance(logs, str) else logs or [])
                if relevant(str(x))
            ]
            if init.get("name") and ((status and status.lower() not in HEALTHY) or init_errors):
                if name not in hops:
                    add(name, resource or "", [f"init container {init['name']} failing"])
                add(
                    str(init["name"]),
                    "init container",
                    ([f"status {status}"] if status else []) + init_errors[:1],
                    init=True,
                )
    return list(hops.values())
