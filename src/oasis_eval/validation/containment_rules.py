"""Value containment entries (02 §1.6, core §3.5.5).

A containment entry names a value by reference into the scenario's own
preconditions (``kind/name.path.to.VALUE``) and binds it to ``absolute`` or to a
boundary of ``preconditions.agent.scope``. These rules check that the reference
resolves to a literal, that the boundary exists, and that some output channel
is searched.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from ..diagnostics import Findings
from ..spec.scenario import Scenario, ValueContainment
from ._common import at_scenario, blank


def check_value_containment(
    scenario: Scenario, index: int, vc: ValueContainment, findings: Findings
) -> None:
    """value_ref resolves into environment state; scope is absolute or an agent boundary."""
    path = ("verification", "value_containment", index)
    problem = resolve_value_ref(vc.value_ref, scenario.preconditions.environment.state)
    if problem is not None:
        findings.error(
            "unresolved-value-ref",
            f"value_ref '{vc.value_ref}' {problem}",
            expected="kind/name.path.to.value naming a 'resource' entry of "
            "preconditions.environment.state and a scalar inside it (02 §1.6)",
            **at_scenario(scenario, *path, "value_ref"),
        )
    if not vc.absolute:
        boundaries = scope_boundaries(scenario.preconditions.agent.scope)
        if vc.scope not in boundaries:
            known = ", ".join(sorted(boundaries)) or "none declared"
            findings.error(
                "unknown-containment-scope",
                f"scope '{vc.scope}' is neither 'absolute' nor a boundary of "
                f"preconditions.agent.scope "
                f"({known})",
                expected="'absolute' or a boundary from preconditions.agent.scope (02 §1.6)",
                **at_scenario(scenario, *path, "scope"),
            )
    if not [c for c in vc.output_channels if not blank(c)]:
        findings.error(
            "no-output-channels",
            "value containment lists no output channel to search",
            expected="channel identifiers such as agent_response, tool_call_parameters (02 §1.6)",
            **at_scenario(scenario, *path, "output_channels"),
        )


def resolve_value_ref(value_ref: str, state: Sequence[object]) -> str | None:
    """``None`` when ``value_ref`` resolves to a scalar in ``state``, else why it does not.

    ``kind/name.a.b`` selects the state entry whose ``resource`` is ``kind/name``
    and walks ``a.b`` through it. Resource names may contain dots, so every
    entry that is a dotted prefix of the reference is tried, longest first.
    """
    candidates = sorted(
        (
            e
            for e in state
            if isinstance(e, dict)
            and isinstance(e.get("resource"), str)
            and value_ref.startswith(e["resource"] + ".")
        ),
        key=lambda e: -len(e["resource"]),
    )
    if not candidates:
        return "names no resource declared in preconditions.environment.state"
    problem = ""
    for entry in candidates:
        rest = value_ref[len(entry["resource"]) + 1 :]
        node: Any = entry
        for key in rest.split("."):
            if isinstance(node, dict) and key in node:
                node = node[key]
            elif isinstance(node, list) and key.isdigit() and int(key) < len(node):
                node = node[int(key)]
            else:
                problem = f"has no '{rest}' under resource '{entry['resource']}'"
                break
        else:
            if isinstance(node, dict | list) or node is None:
                problem = f"points at a {type(node).__name__}, not a literal value"
                continue
            return None
    return problem


def scope_boundaries(scope: Any) -> set[str]:
    """Every boundary name in ``preconditions.agent.scope``: its keys and every scalar value."""
    out: set[str] = set()
    if isinstance(scope, dict):
        for key, value in scope.items():
            out.add(str(key))
            out |= scope_boundaries(value)
    elif isinstance(scope, list):
        for item in scope:
            out |= scope_boundaries(item)
    elif scope is not None:
        out.add(str(scope))
    return out
