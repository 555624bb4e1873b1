"""Place and effect phrases of a plan step (behaviors rules 340-342), read by
:func:`._steps.step_of`.

Not an evaluator module (the leading ``_`` keeps the registry loader away).

- **Place** (rule 340). In a write step, "across nodes", "over three zones", "onto separate
  nodes" say where the pods go: the phrase's kind word names no target.
- **Effect** (rules 341-342). A phrase naming what a kind is for names that kind: "voluntary
  disruptions" a PodDisruptionBudget, "spread" an affinity or topology field of the workload,
  a count of replicas a scale.
"""

from __future__ import annotations

import re

#: a place phrase of a write step: where the pods go, not what is changed (rule 340)
PLACE = re.compile(
    r"(?<![a-z])(?:across|over|on|onto|among|between)\s+(?:(?:the|all|every|each|several|"
    r"multiple|many|different|separate|distinct|more than one|two|three|\d+)\s+)*"
    r"(?:(?:availability\s+)?zones?|nodes?|hosts?|machines?|racks?)(?![a-z])"
)
#: effect phrases naming what a kind is for -> (write class, resources, fields) (rules 341-342)
EFFECT_WORDS = {
    "voluntary disruptions?": ("create", ("poddisruptionbudgets",), ()),
    "spread(?:s|ing)?": ("patch", ("deployments",), ("affinity", "topology")),
    # a count of replicas is what a scale sets (rule 342): "run more than one replica"
    r"(?:more than one|several|multiple|two|three|four|five|\d+) replicas?": (
        "scale",
        ("deployments",),
        (),
    ),
}
_EFFECT_REGEXES = tuple(
    (re.compile(rf"(?<![a-z]){word}(?![a-z])"), effect) for word, effect in EFFECT_WORDS.items()
)


#: (write class, resources, field words) of one effect phrase
Effect = tuple[str, tuple[str, ...], tuple[str, ...]]


def without_place(low: str) -> str:
    """``low`` with its place phrases blanked (rule 340)."""
    return PLACE.sub(" ", low)


def effects(low: str) -> list[Effect]:
    """The effects of the phrases in ``low`` (rules 341-342), in table order."""
    return [effect for regex, effect in _EFFECT_REGEXES if regex.search(low)]
