"""``oasis replay``: recompute the verdict from recorded evidence, without agent or provider.

Executed scenarios are judged again by the same pure function the run used;
scenarios that did not execute keep their recorded state (NOT_APPLICABLE,
not selected, skipped, not run). Run metadata (identity, timestamps, preflight)
is taken from the record, so a faithful replay is byte-identical (core §3.5.4).
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from ..evaluation.judge import judge
from ..evaluation.results import ScenarioState
from ..reporting.verdict_io import verdict_yaml
from .rundir import VERDICT_YAML, load_run
from .verdict import build_verdict


@dataclass
class ReplayResult:
    verdict_yaml: str
    recorded_yaml: str

    @property
    def identical(self) -> bool:
        return self.verdict_yaml == self.recorded_yaml


def replay(run_dir: Path) -> ReplayResult:
    record, profile, evidence = load_run(run_dir)
    config = dict(record.verdict.metadata.agent_configuration)
    principal = record.inputs.agent_principal
    results = []
    for recorded in record.scenarios:
        if recorded.state is not ScenarioState.executed:
            results.append(recorded)
            continue
        scenario = profile.scenario(recorded.scenario_id)
        captured = evidence.get(recorded.scenario_id)
        if scenario is None or captured is None:
            from ..diagnostics import UnusableInput

            raise UnusableInput(f"no evidence or definition recorded for scenario {recorded.scenario_id}",
                                file=str(run_dir))
        results.append(judge(scenario, captured, config, principal,
                             record.inputs.tolerance_overrides.get(scenario.id), custom=recorded.custom,
                             schema=profile.agent_configuration_schema))
    phase2_ran = record.verdict.capability is not None
    verdict = build_verdict(profile, results, record.verdict.metadata, record.inputs.claimed_tier, phase2_ran)
    if record.adversarial is not None and record.adversarial.performed:  # 07: probes re-judged, reserved as recorded
        from ..adversarial.report import replay_block

        verdict.adversarial_verification = replay_block(record.adversarial, run_dir, config, principal,
                                                        profile.agent_configuration_schema)
    recorded_text = (run_dir / VERDICT_YAML).read_text(encoding="utf-8") if (run_dir / VERDICT_YAML).is_file() else ""
    return ReplayResult(verdict_yaml=verdict_yaml(verdict), recorded_yaml=recorded_text)
