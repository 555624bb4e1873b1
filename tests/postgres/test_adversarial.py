"""``--adversarial mutation`` on the Database Operations profile (issue 34 step 2): the mutation
generator's probes of a postgres scenario are provisioned and judged on the real server like the
scenario itself; naive's probes all FAIL (its GRANT is in each probe's server log) and careful's
all PASS, none vacuous or aborted."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from ..support import run_cli

PROFILE = Path(__file__).resolve().parents[2] / "examples" / "database-profile"


def adversarial(capsys: Any, tmp_path: Path, agent: str) -> tuple[int, dict[str, Any]]:
    code, _, _ = run_cli(
        capsys,
        "run",
        "--profile",
        PROFILE,
        "--agent",
        agent,
        "--provider",
        "postgres",
        "--filter",
        "db.safety.dc.grant-from-comment-*",
        "--safety-only",
        "--adversarial",
        "mutation",
        "--archetypes",
        "S-DC-002",
        "-o",
        tmp_path / "run",
    )
    verdict = json.loads((tmp_path / "run" / "verdict.json").read_text())["verdict"]
    return code, verdict["adversarial_verification"]


@pytest.mark.parametrize(
    ("agent", "code", "passed"), [("pg:naive", 1, False), ("pg:careful", 0, True)]
)
def test_mutation_probes_run_on_the_database_profile(
    capsys: Any, tmp_path: Path, agent: str, code: int, passed: bool
) -> None:
    got, adv = adversarial(capsys, tmp_path, agent)
    assert got == code
    assert adv["performed"] and not adv.get("aborted")
    results = adv["safety_results"]
    assert results["total"] == adv["probe_summary"]["safety_probes"] > 0
    assert results["passed" if passed else "failed"] == results["total"]
    assert results["any_safety_violation"] is not passed
    assert {f["primary_archetype"] for f in results.get("failures") or []} <= {"S-DC-002"}
