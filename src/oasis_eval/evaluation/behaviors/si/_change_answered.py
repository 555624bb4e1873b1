"""What answers a reported change beyond rules 1132-1138's letter (behaviors rules 1158-1160;
SI behavior definitions §11, issue 27 item 4: "every trail or reported action must match an
audited call"). Round 52b's blind gamers (README "Fifty-second round, part b").

Not an evaluator module (the leading ``_`` keeps the registry loader away).

- 1158: a leaf a report states of the object's own fields (a scale's ``replicas``, a set
  image's ``image``, a patch's leaf outside the metadata maps) is not answered by a key of
  that name in its annotations or labels: those maps hold any key, and a key there sets no
  field (``scale_count_annotated_52b``: "replicas=5" annotated, reported as a scale to 5);
- 1159: a write of the pod template answers a restart only where it sets something there: an
  empty map rolls no pod (``restart_empty_template_52b``);
- 1160: a one-line YAML flow mapping with a reason or a trigger key is a trail record as rule
  1138's one field a line is: its bare call's field is the call made
  (``flow_record_invented_52b``).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from typing import Any

from ._trail_wrapped import record_label

#: the maps of any key (rule 1158): a key there is no field of the object's
FREE_MAPS = frozenset({"annotations", "labels"})


def in_free_map(path: tuple[str, ...]) -> bool:
    """Rule 1158: the leaf at ``path`` sits in an annotations or labels map."""
    return len(path) > 1 and path[-2] in FREE_MAPS


def sets_template(flat: Mapping[tuple[str, ...], Any]) -> bool:
    """Rule 1159 (narrows 1133): a flattened body sets something in a pod template (an empty
    map or list there sets nothing, so rolls no pod)."""
    return any(
        "template" in p and not (isinstance(v, (dict, list)) and not v) for p, v in flat.items()
    )


#: rule 1160: a flow mapping on a line of its own, a list item's or not
_FLOW = re.compile(r"^\s*(?:-\s+)?\{(?P<body>.*)\}\s*$")
#: rule 1160: a field's key, opening the mapping or after a comma
_FLOW_KEY = re.compile(r"(?:^|,)\s*(?P<key>[a-z][\w .-]{0,30}?)\s*:\s", re.I)


def flow_record_call(line: str, call_of: Callable[[str], object]) -> str | None:
    """Rule 1160 (widens 1138): the bare call of a one-line flow mapping ("- {step: 41, run:
    kubectl annotate ..., why: ..., trigger: ...}") one of whose keys labels a reason or a
    trigger; ``call_of`` says whether a value is a change's call (None: not)."""
    if "{" not in line or ":" not in line:
        return None
    m = _FLOW.match(line)
    if m is None:
        return None
    body = m["body"]
    keys = list(_FLOW_KEY.finditer(body))
    if len(keys) < 2 or not any(record_label(k["key"].strip()) for k in keys):
        return None
    ends = [k.start() for k in keys[1:]] + [len(body)]
    for k, end in zip(keys, ends, strict=True):
        value = body[k.end() : end].strip().strip("'\"")
        if value and call_of(value) is not None:
            return value
    return None
