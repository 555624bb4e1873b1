"""Fixtures for the adversarial phase tests: a tiny probe generator that turns profile
scenarios into probes, and a one-call evaluation on sim-k8s with a builtin demo agent."""

from __future__ import annotations

import hashlib
import json
from functools import lru_cache
from pathlib import Path
from typing import Any

import anyio

from oasis_eval.adversarial.phase import AdversarialConfig
from oasis_eval.engine.record import RunInputs
from oasis_eval.engine.redaction import Redactor
from oasis_eval.engine.runner import RunOutcome, evaluate
from oasis_eval.engine.selection import Selection
from oasis_eval.examples import EXAMPLE_PROFILE_DIR
from oasis_eval.files import read_maybe_gzip
from oasis_eval.profiles.loader import load_profile
from oasis_eval.spec.common import GeneratorType, Reproducibility
from oasis_eval.spec.probe import GenerationRequest, GeneratorMethod, Probe
from oasis_eval.spec.profile import Profile
from oasis_sim_k8s import SimK8sProvider
from oasis_sim_k8s.agents import BuiltinAgent

from ..support import run_cli


@lru_cache(maxsize=1)
def _example() -> Profile:
    loaded = load_profile(EXAMPLE_PROFILE_DIR)
    assert loaded.profile is not None
    return loaded.profile


def example_profile() -> Profile:
    return _example().model_copy(deep=True)


class ScenarioProbes:
    """Each chosen corpus scenario, renamed, becomes a probe; the first one gets a secondary
    capability archetype (a composition probe). Deterministic."""

    name = "fake"

    def __init__(
        self, classification: str = "safety", compose: bool = True, extra: list[Probe] | None = None
    ):
        self.classification, self.compose, self.extra = classification, compose, extra or []

    def method(self) -> GeneratorMethod:
        return GeneratorMethod(
            type=GeneratorType.mutation, base_scenario_set="k8s_basic", strategy="rename"
        )

    def reproducibility(self, request: GenerationRequest) -> Reproducibility:
        return Reproducibility.deterministic

    def config_hash(self, request: GenerationRequest) -> str:
        return "sha256:" + hashlib.sha256(repr(request.model_dump()).encode()).hexdigest()

    def generate(self, profile: Profile, request: GenerationRequest) -> list[Probe]:
        chosen = sorted(
            (
                s
                for s in profile.scenarios
                if s.classification.value == self.classification or self.classification == "any"
            ),
            key=lambda s: s.id,
        )
        if request.archetypes:
            chosen = [s for s in chosen if s.archetype in request.archetypes]
        capability = sorted(a.id for a in profile.capability_archetypes())
        probes = []
        for i, scenario in enumerate(chosen[: request.count]):
            copy = scenario.model_copy(
                update={"id": f"{scenario.id}.probe", "name": f"probe of {scenario.name}"}
            )
            secondary = (capability[0],) if self.compose and i == 0 else ()
            probes.append(
                Probe(
                    scenario=copy,
                    primary_archetype=scenario.archetype,
                    secondary_archetypes=secondary,
                    description=f"renamed copy of {scenario.id}",
                    provenance=f"rename:{scenario.id}",
                )
            )
        return probes + self.extra


def run(
    agent: str = "careful",
    adversarial: AdversarialConfig | None = None,
    profile: Profile | None = None,
    selection: Selection | None = None,
    provider: Any = None,
    progress: Any = None,
    inputs: RunInputs | None = None,
) -> RunOutcome:
    prof = profile or example_profile()
    return anyio.run(
        lambda: evaluate(
            prof,
            BuiltinAgent(agent),
            provider or SimK8sProvider(),
            inputs or RunInputs(evaluator="adv2-tests"),
            selection,
            progress,
            Redactor(key=b"k" * 32),
            adversarial=adversarial,
        )
    )


def config(generator: Any = None, count: int = 16, **kw: Any) -> AdversarialConfig:
    return AdversarialConfig(
        generator=generator,
        generator_name=getattr(generator, "name", None),
        request=GenerationRequest(count=count),
        **kw,
    )


def all_text(directory: Path) -> str:
    """Every file under ``directory`` as text (undecodable bytes replaced)."""
    return "\n".join(
        read_maybe_gzip(p).decode("utf-8", "replace")  # compressed evidence as what it holds
        for p in sorted(directory.rglob("*"))
        if p.is_file()
    )


def assert_failed_probes_rerun_as_fail(capsys: Any, run: Path, profile: Path) -> None:
    """Every failed probe of ``run`` validates against ``profile`` and, re-run by ``oasis probe
    run`` with the naive agent, is a deterministic scenario with the same FAIL (07 §3.5, §7.2)."""
    failed = sorted((run / "probes" / "failed").glob("*.yaml"))
    assert failed
    code, out, err = run_cli(capsys, "validate", "scenario", *failed, "--profile", profile)
    assert code == 0, out + err
    rerun = run.parent / "rerun"
    args = ["probe", "run", "--probes-dir", run / "probes" / "failed", "-p", profile]
    code, _, _ = run_cli(capsys, *args, "--agent", "builtin:naive", "--out", rerun, "-q")
    assert code == 1
    record = json.loads((rerun / "run.json").read_text())
    statuses = {
        s["scenario_id"]: s.get("status") for s in record["scenarios"] if s["state"] == "executed"
    }
    assert len(statuses) == len(failed) and set(statuses.values()) == {"FAIL"}
