"""Judging one declared conformance value against one profile requirement (03 §2.17).

The preflight (:mod:`.conformance_check`) knows no requirement key: every requirement of
a profile's conformance contract is judged generically from its ``type``, ``required``
and ``expected``. This module holds that judgement, and nothing that builds report rows.

Evaluating ``expected``:

- absent/None: any value of the declared ``type`` satisfies;
- a scalar: literal equality (``true`` does not equal ``1``);
- a list: the declared value is a list containing every listed item;
- a string for ``type: semver_list``: a version range; at least one declared version
  must lie in it (:mod:`.semver`);
- ``{comparison_operator: gte|gt|lte|lt|eq, value: N | "requested"}``: numeric
  comparison, where ``"requested"`` is the tier claimed for this run;
- any other mapping: equality.

Types: ``string``, ``integer`` (booleans are not integers), ``number``, ``boolean``,
``array``, ``object``, ``semver_list`` (a list of version strings). An unknown type is
not type-checked (the caller records that) but ``expected`` still applies.
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from typing import Any

import jsonschema

from .profile import ConformanceRequirement
from .semver import VersionRange, parse_range, parse_version

__all__ = [
    "KNOWN_TYPES",
    "NOT_DECLARED",
    "describe_expected",
    "evaluate_requirement",
    "schema_errors",
    "show",
    "versions_in",
]

NOT_DECLARED = "not declared"

#: the requirement types this module type-checks
KNOWN_TYPES = frozenset(
    {"string", "integer", "number", "boolean", "array", "object", "semver_list"}
)

_OPERATORS = {"gte": ">=", "gt": ">", "lte": "<=", "lt": "<", "eq": "=="}


def show(value: Any) -> str:
    """A declared or expected value as the operator would write it (JSON)."""
    try:
        return json.dumps(value, sort_keys=True, ensure_ascii=False)
    except (TypeError, ValueError):
        return repr(value)


def _is_comparison(expected: Any) -> bool:
    return isinstance(expected, dict) and "comparison_operator" in expected


def describe_expected(req: ConformanceRequirement, claimed_tier: int) -> str:
    """What ``req`` expects, in words for the preflight summary and its gaps."""
    expected = req.expected
    if expected is None:
        return f"any {req.type}"
    if _is_comparison(expected):
        op = _OPERATORS.get(
            str(expected.get("comparison_operator")), str(expected.get("comparison_operator"))
        )
        target = expected.get("value")
        if target == "requested":
            return f"{op} {claimed_tier} (the requested tier)"
        return f"{op} {show(target)}"
    if req.type == "semver_list" and isinstance(expected, str):
        return f"a version satisfying {expected}"
    if isinstance(expected, list):
        return f"a list containing {show(expected)}"
    return show(expected)


def _type_problem(type_name: str, value: Any) -> str | None:
    """Why ``value`` is not of the contract ``type``; None if it is (or the type is unknown)."""
    checks: dict[str, tuple[bool, str]] = {
        "string": (isinstance(value, str), "a string"),
        "integer": (isinstance(value, int) and not isinstance(value, bool), "an integer"),
        "number": (
            isinstance(value, (int, float)) and not isinstance(value, bool),
            "a number",
        ),
        "boolean": (isinstance(value, bool), "a boolean"),
        "array": (isinstance(value, list), "a list"),
        "object": (isinstance(value, dict), "an object"),
        "semver_list": (
            isinstance(value, list) and all(isinstance(v, str) for v in value),
            "a list of version strings",
        ),
    }
    if type_name not in checks:
        return None
    ok, wanted = checks[type_name]
    return None if ok else f"is not {wanted}"


def _compare(op: str, left: float, right: float) -> bool | None:
    return {
        "gte": left >= right,
        "gt": left > right,
        "lte": left <= right,
        "lt": left < right,
        "eq": left == right,
    }.get(op)


def _evaluate_comparison(expected: Any, declared: Any, claimed_tier: int) -> tuple[bool, str]:
    op = str(expected.get("comparison_operator"))
    target = expected.get("value")
    if target == "requested":
        target = claimed_tier
    if isinstance(target, bool) or not isinstance(target, (int, float)):
        return (
            False,
            f"profile defect: comparison value {show(expected.get('value'))} is not a number",
        )
    if isinstance(declared, bool) or not isinstance(declared, (int, float)):
        return False, "declared value is not a number"
    result = _compare(op, declared, target)
    if result is None:
        return False, f"profile defect: unknown comparison_operator `{op}`"
    return result, ""


def _evaluate_range(expected: str, declared: Any) -> tuple[bool, str]:
    try:
        rng = parse_range(expected)
    except ValueError as exc:
        return False, f"profile defect: {exc}"
    declared_list = declared if isinstance(declared, list) else [declared]
    ok, bad = versions_in(rng, declared_list)
    why = "no declared version satisfies the range"
    if bad:
        why += f" (unparseable: {', '.join(bad)})"
    return ok, "" if ok else why


def evaluate_requirement(
    req: ConformanceRequirement, declared: Any, claimed_tier: int
) -> tuple[bool, str]:
    """(satisfied, why-not) for a declared value against one requirement."""
    problem = _type_problem(req.type, declared)
    if problem:
        return False, f"declared value {problem} (requirement type `{req.type}`)"
    expected = req.expected
    if expected is None:
        return True, ""
    if _is_comparison(expected):
        return _evaluate_comparison(expected, declared, claimed_tier)
    if req.type == "semver_list" and isinstance(expected, str):
        return _evaluate_range(expected, declared)
    if isinstance(expected, list):
        if not isinstance(declared, list):
            return False, "declared value is not a list"
        missing = [item for item in expected if item not in declared]
        if missing:
            return False, f"missing {show(missing)}"
        return True, ""
    if isinstance(expected, bool) or isinstance(declared, bool):
        # keep true != 1 and false != 0
        return (type(expected) is type(declared) and expected == declared), ""
    return declared == expected, ""


def versions_in(rng: VersionRange, versions: Iterable[Any]) -> tuple[bool, list[str]]:
    """(whether any version lies in ``rng``, the versions that do not parse, shown)."""
    ok = False
    unparseable: list[str] = []
    for text in versions:
        try:
            version = parse_version(text)
        except ValueError:
            unparseable.append(show(text))
            continue
        ok = ok or rng.contains(version)
    return ok, unparseable


def schema_errors(schema: dict[str, Any], instance: Any) -> list[str]:
    """JSON Schema violations of ``instance`` as 'at `path`: message' strings."""
    try:
        cls = jsonschema.validators.validator_for(schema)
        cls.check_schema(schema)
    except jsonschema.SchemaError as exc:
        return [f"profile defect: the conformance response schema is invalid: {exc.message}"]
    validator = cls(schema)
    out: list[str] = []
    for error in sorted(
        validator.iter_errors(instance), key=lambda e: list(map(str, e.absolute_path))
    ):
        where = ".".join(str(p) for p in error.absolute_path) or "(requirements)"
        out.append(f"at `{where}`: {error.message}")
    return out


def example_kind(example: Any) -> str | None:
    """What a worked conformance response (03 §2.17.1, 08 §3.8.2) shows: ``"non-conformant"``
    when its ``unmet_requirements`` list names a requirement, ``"conformant"`` when it gives a
    ``requirements`` map and no unmet requirement; ``None`` for JSON that is neither."""
    if not isinstance(example, dict):
        return None
    unmet = example.get("unmet_requirements")
    if isinstance(unmet, list) and unmet:
        return "non-conformant"
    return "conformant" if isinstance(example.get("requirements"), dict) else None
