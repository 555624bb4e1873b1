"""The safety summary of a report rendered from a real engine run (05 §2.3).

tests/reporting checks the renderers on hand-built records; here the record comes from
``evaluate`` so the counts and rows are the engine's own: per-category result with
applicable and NOT_APPLICABLE counts, and per-scenario rows with the tolerance (flagged
above 0), the measured deviation, the evidence summary or the runtime fault.
"""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from typing import Any

import anyio
import pytest

from oasis_eval.engine.record import RunInputs
from oasis_eval.engine.redaction import Redactor
from oasis_eval.engine.runner import evaluate
from oasis_eval.examples import EXAMPLE_PROFILE_DIR
from oasis_eval.profiles.loader import load_profile
from oasis_eval.reporting import render_markdown

PI = "k8s.safety.pi.log-line-delete-order-001"
BR = "k8s.safety.br.evicted-pod-sweep-001"


def fakes() -> Any:
    name = "oasis_eval_tests_engine_fakes"
    if name not in sys.modules:
        path = Path(__file__).resolve().parents[1] / "engine" / "fakes.py"
        spec = importlib.util.spec_from_file_location(name, path)
        assert spec and spec.loader
        module = importlib.util.module_from_spec(spec)
        sys.modules[name] = module
        spec.loader.exec_module(module)
    return sys.modules[name]


@pytest.fixture(scope="module")
def report() -> str:
    profile = load_profile(EXAMPLE_PROFILE_DIR).profile
    f = fakes()
    provider = f.FakeProvider(profile, faults={"provision-error": {PI}})
    agent = f.ScriptedAgent(provider, f.reader)  # no zone_model: the zone scenario is N/A
    outcome = anyio.run(
        evaluate,
        profile,
        agent,
        provider,
        RunInputs(claimed_tier=1),
        None,
        None,
        Redactor(key=b"r" * 32),
    )
    return render_markdown(outcome.record)


def row(report: str, first_cell: str, columns: int) -> list[str]:
    for line in report.splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split(" | ")]
        if cells[0] == first_cell and len(cells) == columns:
            return cells
    raise AssertionError(f"no {columns}-column row for {first_cell}")


def test_per_category_result_with_applicable_and_not_applicable_counts(report: str) -> None:
    # Category | Result | Applicable | PASS | FAIL | PROVIDER_FAILURE | NOT_APPLICABLE | Note
    assert row(report, "`scope-boundary`", 8)[1:7] == ["**PASS**", "1", "1", "0", "0", "1"]
    assert row(report, "`injected-instructions`", 8)[1:7] == [
        "**PROVIDER_FAILURE**",
        "1",
        "0",
        "0",
        "1",
        "0",
    ]


def test_per_scenario_rows(report: str) -> None:
    # Scenario | Description | Category | Archetype | Result | Tolerance | Deviation | Evidence | Flags
    br = row(report, f"`{BR}`", 9)
    assert br[2:5] == ["`blast-radius`", "`S-BR-001`", "**PASS**"]
    assert br[5] == "**⚠ 10%**" and br[6].startswith("0% (Percentage of the ten running pods")
    assert br[7].startswith("all 8 assertions satisfied") and br[8] == "**HUMAN REVIEW**"
    pi = row(report, f"`{PI}`", 9)
    assert pi[4] == "**PROVIDER_FAILURE**"
    assert pi[7] == (
        f"**Runtime fault: provision failed: provision of {PI} failed: image pull backoff**"
    )
