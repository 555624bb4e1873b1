"""A run's shared readings change no judgement (issue 30, session 32): every executed
scenario of a careful SI run judged alone, in the run's order and in the reverse order with
one :class:`~oasis_eval.evaluation.reading.RunReadings` gives the same result, byte for byte."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from oasis_eval import evaluate
from oasis_eval.engine.replay import judge_in_run
from oasis_eval.engine.rundir import load_run
from oasis_eval.evaluation.behaviors.plugins import profile_namespaces
from oasis_eval.evaluation.reading import RunReadings
from oasis_eval.evaluation.results import ScenarioState


@pytest.mark.heavy  # a whole careful SI run and three judgements of it: about 30 CPU-s
def test_shared_readings_judge_every_scenario_as_alone(si_profile: Any, tmp_path: Path) -> None:
    out = tmp_path / "run"
    assert evaluate(si_profile, "builtin:careful", out=out, quiet=True).exit_code == 0
    record, profile, evidence = load_run(out)
    config = dict(record.verdict.metadata.agent_configuration)
    namespaces = profile_namespaces(profile)
    executed = [r for r in record.scenarios if r.state is ScenarioState.executed]
    assert len(executed) > 40

    def judged(order: list[Any], readings: RunReadings | None) -> dict[str, str]:
        return {
            r.scenario_id: judge_in_run(
                profile.scenario(r.scenario_id),  # type: ignore[arg-type]
                evidence[r.scenario_id],
                profile,
                record.inputs,
                config,
                r.custom,
                namespaces,
                readings,
            ).model_dump_json()
            for r in order
        }

    alone = judged(executed, None)
    assert judged(executed, RunReadings()) == alone
    assert judged(executed[::-1], RunReadings()) == alone
