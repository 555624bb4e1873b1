"""Which profile errors stop a run (validation/blocking.py, issue 11 item 3, C4)."""

from __future__ import annotations

import ast
from pathlib import Path

import anyio
import pytest

from oasis_eval.adapters.agents import agent_from_config
from oasis_eval.adapters.providers import provider_from_config
from oasis_eval.diagnostics import Findings
from oasis_eval.engine.record import RunInputs
from oasis_eval.engine.runner import evaluate
from oasis_eval.examples import EXAMPLE_PROFILE_DIR
from oasis_eval.profiles.loader import load_profile
from oasis_eval.validation.blocking import (
    BLOCKING,
    DEFECTS,
    UnjudgeableProfile,
    gate_profile,
    is_blocking,
)

SRC = Path(__file__).resolve().parents[2] / "src" / "oasis_eval"
#: codes built at run time (profiles/oasis_spec/tiers.py: f"missing-{what}-tier")
DYNAMIC = {"missing-capability-tier", "missing-complexity-tier"}


def emitted_error_codes() -> set[str]:
    """Every literal code passed to ``.error(...)`` in the profile and validation layers,
    plus the pydantic codes of profiles/scenarios.py (``_error_code``)."""
    codes = set(DYNAMIC) | {"missing-field", "unknown-field", "invalid-value", "invalid-type"}
    for folder in ("profiles", "validation"):
        for path in (SRC / folder).rglob("*.py"):
            for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
                if (
                    isinstance(node, ast.Call)
                    and isinstance(node.func, ast.Attribute)
                    and node.func.attr == "error"
                    and node.args
                    and isinstance(node.args[0], ast.Constant)
                    and isinstance(node.args[0].value, str)
                ):
                    codes.add(node.args[0].value)
    return codes


def test_every_error_code_is_classified_once() -> None:
    codes = emitted_error_codes()
    assert len(codes) > 100
    assert not set(BLOCKING) & set(DEFECTS)
    unclassified = sorted(codes - set(BLOCKING) - set(DEFECTS))
    assert not unclassified, f"classify these in validation/blocking.py: {unclassified}"


def test_an_unknown_error_code_blocks_and_a_warning_never_does() -> None:
    findings = Findings()
    new = findings.error("a-code-added-tomorrow", "x")
    warn = findings.warning("duplicate-scenario-id", "x")
    assert is_blocking(new) and not is_blocking(warn)


def test_the_si_profile_has_exactly_its_two_known_defects_and_nothing_blocking(
    si_profile_dir: Path,
) -> None:
    loaded = load_profile(si_profile_dir)
    assert loaded.profile is not None
    gate = gate_profile(loaded.profile, loaded.findings)
    assert gate.blocking == []
    assert sorted(f.code for f in gate.defects) == [
        "missing-agent-configuration-schema",
        "subcategory-parent-mismatch",
    ]


def _with_duplicate_id() -> object:
    profile = load_profile(EXAMPLE_PROFILE_DIR).profile
    assert profile is not None
    first = next(s for s in profile.scenarios if s.is_safety)
    twin = first.model_copy(deep=True)
    twin.intent = (
        "A second scenario under the id of the first: one result would overwrite the other."
    )
    return profile.model_copy(update={"scenarios": [*profile.scenarios, twin]})


def test_the_engine_refuses_a_profile_with_a_duplicate_scenario_id() -> None:
    """The Python path: ``evaluate`` itself applies the gate before preflight (C4: a duplicate
    id overwrote a FAIL with a PASS and the run claimed conformance)."""
    profile = _with_duplicate_id()
    agent = agent_from_config({"type": "builtin", "name": "naive"})
    provider = provider_from_config("sim-k8s")

    async def go() -> None:
        try:
            await evaluate(profile, agent, provider, RunInputs(parallel=1))  # type: ignore[arg-type]
        finally:
            await agent.aclose()
            await provider.aclose()

    with pytest.raises(UnjudgeableProfile) as caught:
        anyio.run(go)
    assert [f.code for f in caught.value.findings] == ["duplicate-scenario-id"]
    assert "nothing was run" in str(caught.value)
