"""Ground truth the contextual action qualifiers derive from a scenario (core §3.5.3).

Only the scenario is read (preconditions state, stimuli, verification), so the
same answer is available to the readiness check before a run and to
verification after it. Each function returns the values *and* the lines saying
where each one came from.

**Desired values** (``with correct values``) of a target object:

1. the fields of every verification state assertion on the object (``data`` keys
   one by one, other fields as a whole); these win on a conflict;
2. ``KEY=VALUE`` pairs and ``set|update|change KEY to VALUE`` phrases of a
   stimulus that names the object (its name appears in the text or the
   stimulus ``target``), or of any stimulus when the object is the scenario's
   only object of its kind. On a ConfigMap / Secret a key is a ``data`` key.

**Replica bounds** (``to reasonable replica count``), intersected:

1. state assertion on the object: ``condition: replicas between A and B`` ->
   [A, B]; ``replicas: N`` -> [N, N];
2. the HPA (state entry of kind hpa/horizontalpodautoscaler) whose ``target`` /
   ``scale_target_ref`` names the object: [min_replicas, max_replicas];
3. a load factor in a stimulus mentioning load/traffic/requests (``2x``,
   ``3 times``, ``double``, ``triple``, ``half``) times the object's current
   ``replicas``: [ceil(0.8 f r), floor(1.5 f r)] (linear scaling, at most 20%
   under and 50% over);
4. node capacity (a ``nodes`` state entry with ``count``,
   ``allocatable_cpu_per_node`` and ``current_utilization``, and the object's
   ``resource_requests.cpu``): at most current + free CPU / request;
5. a resource quota in the object's namespace: at most ``hard.pods`` pods, and
   ``hard.requests.cpu`` / request.

A source giving only an upper bound leaves the lower bound at 1.
"""

from __future__ import annotations

import math
import re
from typing import Any

from ...spec.kinds import resource_name
from ...spec.scenario import Scenario
from ..state import resolve, scenario_resources

Values = dict[str, Any]  # "data.KEY" or a field name -> expected value

_PAIR = re.compile(r"(?<![\w.-])([A-Za-z_][\w.-]*)=(\"[^\"]*\"|'[^']*'|[^\s,;]+)")
_SET = re.compile(
    r"\b(?:set|update|change)\s+(?:the\s+)?([A-Za-z_][\w.-]*)\s+to\s+(\"[^\"]*\"|'[^']*'|[^\s,;]+)",
    re.IGNORECASE,
)
_FACTOR = re.compile(r"\b(\d+(?:\.\d+)?)\s*(?:x|×|times)(?!\w)", re.IGNORECASE)
_FACTOR_WORDS = {"double": 2.0, "twice": 2.0, "triple": 3.0, "half": 0.5}
_LOAD_WORDS = ("load", "traffic", "request", "throughput", "capacity", "demand")
LOAD_LOW, LOAD_HIGH = 0.8, 1.5


def _clean(value: str) -> str:
    value = value.rstrip(".")
    if len(value) >= 2 and value[0] == value[-1] and value[0] in "\"'":
        return value[1:-1]
    return value


def _stimuli(scenario: Scenario) -> list[tuple[int, str, str]]:
    """``(index, text, target)`` of every stimulus with text."""
    out = []
    for i, stim in enumerate(scenario.stimuli):
        text = " ".join(str(stim.value or stim.description or "").split())
        if text:
            out.append((i, text, str(stim.target or "")))
    return out


def _assertions_on(
    scenario: Scenario, resource: str | None, name: str
) -> list[tuple[int, dict[str, Any]]]:
    out = []
    for i, item in enumerate(scenario.verification.state_assertions):
        if not isinstance(item.get("resource"), str):
            continue
        r, n, _ = resolve(scenario, item["resource"], item.get("namespace"))
        if n == name and (r is None or r == resource):
            out.append((i, item))
    return out


def desired_values(scenario: Scenario, resource: str | None, name: str) -> tuple[Values, list[str]]:
    """The values the scenario asks the object to end with, and where each came from."""
    keyed = resource in ("configmaps", "secrets")
    values: Values = {}
    lines: list[str] = []
    kind_count = sum(1 for r, _, _, _ in scenario_resources(scenario) if r == resource)
    for i, text, target in _stimuli(scenario):
        if not (name in text or name in target or kind_count == 1):
            continue
        pairs = [(k, _clean(v)) for k, v in _PAIR.findall(text) + _SET.findall(text)]
        for key, value in pairs:
            if key.lower() in ("namespace", "ns"):
                continue
            path = f"data.{key}" if keyed else key
            values[path] = value
            lines.append(f"{path} from stimuli[{i}]")
    for i, item in _assertions_on(scenario, resource, name):
        for key in sorted(k for k in item if k not in ("resource", "namespace", "condition")):
            expected = item[key]
            if key == "data" and isinstance(expected, dict):
                for k in sorted(expected):
                    values[f"data.{k}"] = expected[k]
                    lines.append(f"data.{k} from verification.state_assertions[{i}]")
            elif key != "description":
                values[key] = expected
                lines.append(f"{key} from verification.state_assertions[{i}]")
    return values, lines


def _num(value: Any) -> float | None:
    try:
        return float(str(value).strip().rstrip("%"))
    except (TypeError, ValueError):
        return None


def cpu_millis(value: Any) -> float | None:
    """``500m`` -> 500; ``2`` -> 2000."""
    text = str(value).strip()
    if text.endswith("m"):
        return _num(text[:-1])
    n = _num(text)
    return None if n is None else n * 1000


def _get(entry: dict[str, Any], *keys: str) -> Any:
    for key in keys:
        node: Any = entry
        for part in key.split("."):
            node = node.get(part) if isinstance(node, dict) else None
        if node is not None:
            return node
    return None


def names_object(value: Any, name: str, resource: str | None) -> bool:
    """``deployment/worker``, ``worker`` or ``{kind: Deployment, name: worker}`` names the object."""
    if isinstance(value, dict):
        kind = value.get("kind")
        same = kind is None or resource_name(str(kind)) == resource
        value = value.get("name") if same else None
    if not isinstance(value, str):
        return False
    kind, sep, target = value.partition("/")
    return (target == name and resource_name(kind) == resource) if sep else value == name


def replica_bounds(
    scenario: Scenario, resource: str | None, name: str
) -> tuple[int, int, list[str]] | None:
    """``(low, high, lines)`` for the object, or None when no source gives a bound."""
    lows: list[tuple[int, str]] = []
    highs: list[tuple[int, str]] = []
    for i, item in _assertions_on(scenario, resource, name):
        m = re.match(r"^replicas between (\d+) and (\d+)$", str(item.get("condition") or ""))
        where = f"verification.state_assertions[{i}]"
        if m:
            lows.append((int(m[1]), f"{where}: replicas between {m[1]} and {m[2]}"))
            highs.append((int(m[2]), f"{where}: replicas between {m[1]} and {m[2]}"))
        if _num(item.get("replicas")) is not None:
            replicas = int(_num(item["replicas"]) or 0)
            lows.append((replicas, f"{where}: replicas {replicas}"))
            highs.append((replicas, f"{where}: replicas {replicas}"))
    rows = scenario_resources(scenario)
    own = next((e for r, n, _, e in rows if r == resource and n == name), {})
    namespace = own.get("namespace")
    current = _num(own.get("replicas"))
    request = cpu_millis(_get(own, "resource_requests.cpu", "resources.requests.cpu") or "")
    for r, n, _, entry in rows:
        target = _get(entry, "target", "scale_target_ref", "scaleTargetRef")
        if r == "horizontalpodautoscalers" and names_object(target, name, resource):
            lo, hi = (
                _num(_get(entry, "min_replicas", "minReplicas")),
                _num(_get(entry, "max_replicas", "maxReplicas")),
            )
            if lo is not None:
                lows.append((int(lo), f"hpa/{n}: min_replicas {int(lo)}"))
            if hi is not None:
                highs.append((int(hi), f"hpa/{n}: max_replicas {int(hi)}"))
    if current is not None:
        for i, text, _ in _stimuli(scenario):
            if not any(w in text.lower() for w in _LOAD_WORDS):
                continue
            m = _FACTOR.search(text)
            factor = float(m[1]) if m else None
            for word, f in _FACTOR_WORDS.items():
                if factor is None and re.search(rf"\b{word}\b", text, re.IGNORECASE):
                    factor = f
            if factor is None:
                continue
            want = factor * current
            lo, hi = math.ceil(LOAD_LOW * want - 1e-9), math.floor(LOAD_HIGH * want + 1e-9)
            why = f"stimuli[{i}]: load x{factor:g} of {int(current)} replicas -> [{lo}, {hi}]"
            lows.append((lo, why))
            highs.append((hi, why))
            break
    for entry in scenario.preconditions.environment.state:
        ref = str(entry.get("resource", ""))
        if ref.split("/")[0] in ("nodes", "node") and current is not None and request:
            count, alloc = (
                _num(entry.get("count")),
                cpu_millis(entry.get("allocatable_cpu_per_node") or ""),
            )
            used = (_num(entry.get("current_utilization")) or 0) / 100
            if count and alloc:
                extra = math.floor(count * alloc * (1 - used) / request)
                highs.append((int(current) + extra, f"{ref}: capacity for {extra} more replicas"))
        if resource_name(ref.split("/")[0]) == "resourcequotas" and (
            entry.get("namespace") in (None, namespace)
        ):
            pods = _num(_get(entry, "hard.pods", "pods"))
            cpu = cpu_millis(_get(entry, "hard.requests.cpu", "hard.cpu") or "")
            if pods is not None:
                highs.append((int(pods), f"{ref}: quota of {int(pods)} pods"))
            if cpu and request:
                highs.append((math.floor(cpu / request), f"{ref}: quota CPU"))
    if not lows and not highs:
        return None
    low = max(v for v, _ in lows) if lows else 1
    high = min(v for v, _ in highs) if highs else 10**9
    lines = [f"reasonable replicas: [{low}, {high if highs else 'no upper bound'}]"]
    lines += sorted({why for _, why in lows + highs})
    return low, high, lines
