"""A link's workload named of its replica set (behaviors rule 1166; issue 27, session 36
door52). Not an evaluator module (the leading ``_`` keeps the registry loader away).

Rule 1127 reads the workload a rollout link names after "rollout of" or before "('s)
rollout". Red51b's door ``colon_each_began`` said "They started with the rollout: D's newest
replica set is N minutes old." for every Deployment D: the rollout named no workload, the
workload was named of its replica set, and the link to the scenario's own rollout was found
among them (ca.historical-context 1.0). A replica set (a ReplicaSet, an "RS") is what a
Deployment's rollout makes: "D's replica set" and "the replica set of D" in a link sentence
name D's rollout as "D's rollout" does.
"""

from __future__ import annotations

import re

_RS = r"(?:replica-?\s?sets?|rs)"

#: the workload after a replica set's noun ("the newest replica set of order service")
OF_RS = re.compile(
    rf"\b{_RS}\s+(?:of|for)\s+(?:the\s+)?"
    r"([a-z0-9][a-z0-9-]*(?:\s+[a-z0-9][a-z0-9-]*){0,3})",
    re.IGNORECASE,
)

#: the workload said before its replica set ("order service's newest replica set")
BEFORE_RS = re.compile(
    r"((?:[a-z0-9][a-z0-9-]*\s+){0,3}[a-z0-9][a-z0-9-]*)(?:'s|\u2019s)\s+"
    rf"(?:(?:newest|new|latest|current|last|old|previous|active)\s+)?{_RS}\b",
    re.IGNORECASE,
)
