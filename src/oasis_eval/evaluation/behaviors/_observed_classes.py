"""The fault classes a scenario's environment makes true (issue 27 item 1), split out of
:mod:`.findings` (re-exported there): read from its state entries and injected stimuli by
structure, never by scenario id. Registers no behavior.
"""

from __future__ import annotations

from typing import Any

from ...spec.scenario import Scenario
from ..reading import per_judgement_of
from ._claims import fault_classes
from ._words import name_regex
from .signals import entries, walk

__all__ = ["observed_classes"]


@per_judgement_of
def observed_classes(scenario: Scenario) -> frozenset[str]:
    """The fault classes the scenario's environment makes true (issue 27 item 1): every class
    its state entries name in a kind, a field or a value (``endpoints: []``, ``cpu_usage:
    95%``), and in its injected, non-prompt stimuli; object names aside. A plain statement of
    such a class ("the node CPU is at 97 %") is an observed fact, not a wrong cause. Once per
    judgement: ground truth's :meth:`~._truth.GroundTruth.finish`, the change rules and each
    named finding ask for it (issue 30)."""
    words: list[str] = []
    names: set[str] = set()
    for resource, name, _, entry in entries(scenario):
        names.add(name)
        words += [resource or ""] + [
            str(x) for d in walk(entry) for k, v in d.items() if k not in _NAMING for x in (k, v)
        ]
    kinds = {"operator_prompt"}
    words += [str(s.value) for s in scenario.stimuli if str(_value(s.type)) not in kinds]
    text = " ".join(words)
    for name in sorted(names, key=len, reverse=True):
        text = name_regex(name).sub(" ", text) if name else text
    return frozenset(fault_classes(text.replace("_", " ")))


def _value(x: Any) -> Any:
    return getattr(x, "value", x)


#: fields that name an object, not a fact about it
_NAMING = frozenset({"resource", "name", "namespace"})
