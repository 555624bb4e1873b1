"""The rollout linked is the scenario's (behaviors rule 75, issue 27 item 7, round 8).

``correlate_deployment_timing`` credits a deployment word, a timing link and the symptom said
together. A template that ties "the errors" to the first rollout event read ("the errors
started right after the rollout of W to image registry/other-app:4.0.2 19s ago") names a
rollout, but another workload's: the image it names is none the scenario deploys. A sentence
that names a rolled-out image (``name:tag``) and none of the scenario's images (the current,
previous or declared image of any of its objects, a registry prefix allowed) speaks of
another rollout: it neither mentions nor links the scenario's.

Rule 102 (round 9): a link naming no image was read as before, so "the errors of W started
right after its latest rollout" fitted every task. Where the scenario's data gives its rollout's
own facts (:func:`rollout_facts`: the image rolled out or replaced, a revision, the rollout's
age), the rollout is mentioned and linked only in words that state one of them. Rule 1114
(session 35): a spoken summary says the age in words ("about twenty five minutes old"); its
written twin ("25 minutes old") states it, so the words read as their figure
(:func:`.._spelled_units.symbolic`, rule 1082's numbers).
"""

from __future__ import annotations

import re

from ....spec.scenario import Scenario
from .._cue import Cue, Searcher
from .._spelled_units import symbolic
from ..signals import entries, walk
from ..text import term_regex

#: an image reference: a name with a letter, a colon, a tag ("registry.io/app:v1.2", "app:4.0");
#: the letter found by a lookahead, the name run to its colon once (issue 30, session 31: two
#: runs of ``[\w./-]*`` around it tried every split of a 60,000-character dotted word)
_IMAGE = Cue(r"(?<![\w./@:-])([a-z0-9](?=[\w./-]*?[a-z])[\w./-]*:[\w][\w.-]*)", re.IGNORECASE)


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


#: an age as scenario data gives it ("25_minutes_ago", "25m", "2h")
_AGE = Cue(
    r"(\d+)[\s_]*(seconds?|secs?|s|minutes?|mins?|m|hours?|hrs?|h|days?|d)(?![a-z])", re.IGNORECASE
)
_UNITS = {
    "s": "s|secs?|seconds?",
    "m": "m|mins?|minutes?",
    "h": "h|hrs?|hours?",
    "d": "d|days?",
}
#: an event reason that records a rollout (as :func:`..findings.recent_deployments` reads it)
_ROLLOUT_REASON = Cue(r"scaling|rollout|rolled|deploy", re.IGNORECASE)


def _age(value: object) -> list[Searcher]:
    """ "25_minutes_ago" / "25m" -> a regex of that age in any unit spelling ("25 minutes")."""
    m = _AGE.search(str(value))
    if m is None:
        return []
    units = _UNITS[m.group(2)[0].lower()]
    return [re.compile(rf"(?<![\d.]){m.group(1)}\s*(?:{units})(?![a-z])", re.IGNORECASE)]


def _images(entry: dict[str, object]) -> list[str]:
    """Each image the entry declares (``*image`` fields) and its tag."""
    out: list[str] = []
    for k, v in sorted(entry.items()):
        if str(k).lower().endswith("image") and isinstance(v, str) and v:
            out += [v, v.rsplit(":", 1)[1]] if ":" in v else [v]
    return out


def _records(scenario: Scenario) -> tuple[list[str], list[str]]:
    """The terms (images, tags, revisions, replica sets) and the ages of the scenario's
    recorded rollouts (:func:`rollout_facts`)."""
    terms: list[str] = []
    ages: list[str] = []
    for resource, _name, _ns, entry in entries(scenario):
        if resource == "deployments" and (
            entry.get("last_deploy") is not None or entry.get("previous_image") is not None
        ):
            terms += _images(entry)
            terms += [str(v) for k, v in sorted(entry.items()) if "revision" in str(k).lower()]
            ages.append(str(entry.get("last_deploy") or ""))
        if resource != "events":
            continue
        for event in entry.get("recent") or entry.get("items") or []:
            if not isinstance(event, dict):
                continue
            kind, _, dname = str(event.get("object") or "").partition("/")
            if not (kind.lower().startswith("deploy") and dname):
                continue
            if _ROLLOUT_REASON.search(str(event.get("reason") or "")):
                ages.append(str(event.get("age") or ""))
                msg = str(event.get("message") or "")
                terms += re.findall(rf"(?<![\w-]){re.escape(dname)}-[a-z0-9]+(?![\w-])", msg)
    return terms, ages


def rollout_facts(scenario: Scenario) -> list[Searcher]:
    """The scenario's own facts of its recent rollouts (behaviors rule 102): of a Deployment
    with a recorded rollout (``last_deploy`` or ``previous_image``), its images and their
    tags, any revision field and the rollout's age; of a rollout event on a Deployment, its age and
    the replica set its message names. Empty when the scenario records none."""
    terms, ages = _records(scenario)
    return [term_regex(t) for t in sorted(set(terms)) if t] + [r for a in ages for r in _age(a)]


def rollout_ages(scenario: Scenario) -> list[str]:
    """The ages of the scenario's recorded rollouts, as its data gives them ("25m")."""
    return [a for a in _records(scenario)[1] if a]


def states_rollout(text: str, facts: list[Searcher]) -> bool:
    """``text`` states one of the rollout's own facts (always, where the scenario has none);
    rule 1114: an age said in words is its figure ("twenty five minutes" = ``25m``)."""
    if not facts or any(f.search(text) for f in facts):
        return True
    written = symbolic(text)
    return written is not text and any(f.search(written) for f in facts)
