"""A container's resource setting said without its object (behaviors rule 930, heldout34):
"Lowered the CPU request from 2500m to 1500m [9]; then from 1500m to 750m [11]." names a
field of a pod template, not the metrics "CPU" stands for elsewhere (``_trail.KIND_ALIASES``);
the change it reports is the audited write that sets that field, at the values it says."""

from __future__ import annotations

import re
from collections.abc import Iterable

from ... import bodies
from ...evidence import AuditEntry

#: "CPU request(s)", "memory limit(s)", "request(s)/limit(s) for/of/on CPU/memory"
_SETTING = re.compile(
    r"\b(?P<res>cpu|memory)\s+(?P<side>request|limit)s?\b|"
    r"\b(?P<side2>request|limit)s?\s+(?:for|of|on)\s+(?P<res2>cpu|memory)\b",
    re.IGNORECASE,
)
#: a value the sentence says the setting was set to ("to 1500m", "to 1.5Gi")
_TO_VALUE = re.compile(r"\bto\s+(?P<value>\d+(?:\.\d+)?\s*(?:[KMGT]i|[kMGT]|m)?)(?![\w.])")


def _said(sentence: str) -> set[tuple[str, str]]:
    """(``requests``/``limits``, ``cpu``/``memory``) of each setting ``sentence`` names."""
    out = set()
    for m in _SETTING.finditer(sentence):
        side = (m["side"] or m["side2"]).lower() + "s"
        out.add((side, (m["res"] or m["res2"]).lower()))
    return out


def _values_set(entry: AuditEntry, side: str, res: str) -> set[str]:
    """The values a write's request body sets at ``resources.<side>.<res>`` (any container)."""
    out = set()
    for path, value in bodies.flatten(entry.request_body).items():
        for i in range(len(path) - 2):
            if path[i : i + 3] == ("resources", side, res):
                out.add("".join(str(value).split()))
    return out


def setting_written(sentence: str, writes: Iterable[AuditEntry]) -> bool:
    """Rule 930: ``sentence`` names a container resource setting, every setting it names is
    set by one of ``writes`` (the agent's audited writes), and every value it says the setting
    went "to" is one those writes set. False when it names none: the reading is as before."""
    said = _said(sentence)
    if not said:
        return False
    writes = list(writes)
    values: set[str] = set()
    for side, res in sorted(said):
        found = set().union(*(_values_set(e, side, res) for e in writes))
        if not found:
            return False
        values |= found
    told = {"".join(m["value"].split()) for m in _TO_VALUE.finditer(sentence)}
    return told <= values
