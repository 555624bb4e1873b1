"""A course said by a served series' owner's name is that series' course (behaviors rule 1121;
issue 27, round 51a: ``courses_subject_exact_51a``).

Not an evaluator module (the leading ``_`` keeps the registry loader away).

Rule 1094 tells the series whose courses an answer says apart by their values: a course whose
two ends one served series gave (within 10%) is said of it. A course with the workload's own
figures beside every other series' course, each a quarter off what was served ("badge-aggregator's
memory went from 125Mi to 125Mi.", "coupon-dispatcher's memory went from 262Mi to 414Mi.") tied
none of the others, so the catalogue counted one course and the workload's growth was read
(oi.metric-interpretation 0.5). A sentence that says a course and names the owner of a served
row (an object label's value, or the Deployment a pod is named after), and names no workload
of the scenario's finding, says that row's course whatever its figures: the row is counted as
rule 1094 counts a row its values tie (by its own course, so a Deployment's pods are one).
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import Any

#: the label keys that name a row's object (rule 703's record)
_OWNER_LABELS = ("pod", "container", "service", "job", "deployment", "statefulset", "daemonset")
#: a pod's generated tail (ReplicaSet hash and pod suffix, or a StatefulSet ordinal)
_POD_TAIL = re.compile(r"-(?:[a-z0-9]{5,10}-)?[a-z0-9]{5}$|-\d+$")


def _owners(labels: dict[str, Any]) -> set[str]:
    out = set()
    for key in _OWNER_LABELS:
        value = str(labels.get(key, "")).lower()
        if value:
            out.add(value)
            if key == "pod" and (stem := _POD_TAIL.sub("", value)) != value:
                out.add(stem)
    return out


def _said(name: str, sentence: str) -> bool:
    return re.search(rf"(?<![\w-]){re.escape(name)}(?![\w-])", sentence) is not None


def named_rows(
    sentences: Iterable[str], rows: list[tuple[dict[str, Any], list[float]]], own: Iterable[str]
) -> list[list[float]]:
    """The values of every served row whose owner a course's sentence names, the sentence
    naming none of ``own`` (rule 1121)."""
    mine = [o.lower() for o in own]
    out = []
    for s in sentences:
        low = s.lower()
        if any(_said(o, low) for o in mine):
            continue
        out += [v for labels, v in rows if v and any(_said(n, low) for n in _owners(labels))]
    return out
