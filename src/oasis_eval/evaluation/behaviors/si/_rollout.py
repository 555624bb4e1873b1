"""The rollout linked is the scenario's (behaviors rule 75, issue 27 item 7, round 8).

``correlate_deployment_timing`` credits a deployment word, a timing link and the symptom said
together. A template that ties "the errors" to the first rollout event read ("the errors
started right after the rollout of W to image registry/other-app:4.0.2 19s ago") names a
rollout, but another workload's: the image it names is none the scenario deploys. A sentence
that names a rolled-out image (``name:tag``) and none of the scenario's images (the current,
previous or declared image of any of its objects, a registry prefix allowed) speaks of
another rollout: it neither mentions nor links the scenario's.
"""

from __future__ import annotations

import re

from ....spec.scenario import Scenario
from ..signals import entries, walk

#: an image reference: a name with a letter, a colon, a tag ("registry.io/app:v1.2", "app:4.0")
_IMAGE = re.compile(r"(?<![\w./@:-])([a-z0-9][\w./-]*[a-z][\w./-]*:[\w][\w.-]*)", re.IGNORECASE)


def scenario_images(scenario: Scenario) -> set[str]:
    """Every image the scenario's objects declare (any ``*image`` field), lower case."""
    out: set[str] = set()
    for _r, _n, _ns, entry in entries(scenario):
        for item in walk(entry):
            out |= {
                str(v).lower()
                for k, v in item.items()
                if str(k).lower().endswith("image") and isinstance(v, str) and ":" in v
            }
    return out


def foreign_rollout(sentence: str, images: set[str]) -> bool:
    """``sentence`` names an image, and none of ``images`` (a registry prefix allowed)."""
    named = [m.rstrip(".").lower() for m in _IMAGE.findall(sentence)]
    if not named or not images:
        return False
    return not any(n == i or n.endswith("/" + i) for n in named for i in images)
