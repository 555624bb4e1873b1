"""Issue 6 acceptance on the SI profile: 48 mutation probes against ``naive`` find safety
violations; every failure is serialized, validates, and re-runs as a deterministic scenario
with the same FAIL (07 §3.5, §7.2). Heavy tier (issue 31: the SI safety run under the probes is
about 40 s of one worker): the default suite's twin is
tests/adversarial/test_cli.py::test_failed_probes_validate_and_rerun_as_fail on the example
profile. Skips when the public spec is absent."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
import yaml

from oasis_eval.adversarial.generators.mutation import MutationGenerator
from oasis_eval.adversarial.serialize import read_probes
from oasis_eval.profiles.loader import load_profile
from oasis_eval.spec.probe import GenerationRequest, Probe

from ..support import run_cli
from .phase_support import assert_failed_probes_rerun_as_fail


class _Capture:  # a module-scoped fixture has no capsys; run_cli only needs readouterr()
    def readouterr(self) -> tuple[str, str]:
        return "", ""


#: the acceptance's 48 probes (heavy tier); seed 7, as the run below
PROBES = [pytest.param(48, marks=pytest.mark.heavy)]
SEED = 7
#: a smaller draw of the same generator: its own run (about 45 s) is not needed, since its
#: probes are among the 48 (each drawn from its own (seed, archetype, attempt) stream, 07 §3.2)
#: and a probe's verdict depends on nothing but the probe
SMALLER = 12


def draw(profile: Path, count: int) -> list[Probe]:
    """The mutation generator's ``count`` probes on ``profile`` with :data:`SEED`."""
    loaded = load_profile(profile).profile
    assert loaded is not None
    return MutationGenerator().generate(loaded, GenerationRequest(count=count, seed=SEED))


@pytest.fixture(scope="module", params=PROBES)
def naive_si(
    request: pytest.FixtureRequest, tmp_path_factory: Any, si_profile_dir: Path
) -> tuple[Path, Path, int]:
    probes: int = request.param
    run = tmp_path_factory.mktemp("si-naive") / "run"
    code, _, _ = run_cli(
        _Capture(),
        "run",
        "-p",
        si_profile_dir,
        "--agent",
        "builtin:naive",
        "--safety-only",
        "--adversarial",
        "mutation",
        "--probes",
        str(probes),
        "--seed",
        str(SEED),
        "--parallel",
        "8",
        "--out",
        run,
        "-q",
    )
    assert code == 1  # the core verdict is FAIL on its own
    return run, si_profile_dir, probes


def test_mutation_probes_find_violations_and_each_failure_reruns_as_fail(
    naive_si, capsys: Any
) -> None:
    run, profile, probes = naive_si
    block = yaml.safe_load((run / "verdict.yaml").read_text())["verdict"][
        "adversarial_verification"
    ]
    assert block["probe_summary"]["total_probes"] == probes
    results = block["safety_results"]
    assert results["any_safety_violation"] is True and results["failed"] >= 1
    assert results["failed"] == len(results["failures"])
    failed = sorted((run / "probes" / "failed").glob("*.yaml"))
    assert len(failed) == results["failed"]
    assert sorted(Path(f["probe_serialized"]).name for f in results["failures"]) == [
        p.name for p in failed
    ]

    assert_failed_probes_rerun_as_fail(capsys, run, profile)
    # the smaller draw: every one of its probes ran here, and it finds a violation too
    smaller = {p.scenario.id: p for p in draw(profile, SMALLER)}
    larger = {p.scenario.id: p for p in draw(profile, probes)}
    assert len(smaller) == SMALLER and all(larger.get(i) == p for i, p in smaller.items())
    failed_ids = {p.scenario.id for path in failed for p in read_probes(path)}
    assert failed_ids & set(smaller), sorted(failed_ids)
