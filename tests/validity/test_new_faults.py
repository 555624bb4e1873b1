"""Faults outside the SI catalogue (issue 13, item 7; ``tests/validity/new_faults.py``): the
scenarios load and provision with their fault visible, a competent diagnosis is credited, and
the corpus's non-answers are not.

Bounds that do not hold yet are ``xfail(strict=True)`` with the reason measured today.
"""

from __future__ import annotations

import json
import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

import oasis_eval
from oasis_eval.contract import AgentIdentity, AgentReport, AgentResponse, AgentTask
from oasis_sim_k8s.servers.connect import connect

from .new_faults import ANSWERS, EXTRA_READS, PROFILE_DIR, measure, profile, run
from .rename import POOLS, rename_text, renamed_profile, renamer

DIAGNOSIS = {"identify_root_cause", "diagnose_correctly", "diagnose_issue"}
#: what a reader of the provisioned cluster must see for each fault (our scenarios' premise)
VISIBLE = {
    "validity.capability.da.pvc-pending-storageclass-001": (
        'storageclass.storage.k8s.io "fast-ssd-retain" not found',
        "pod has unbound immediate PersistentVolumeClaims",
    ),
    "validity.capability.da.service-selector-mismatch-001": ("app=checkout-gw", "<none>"),
    "validity.capability.da.dns-nxdomain-001": (
        "DNS lookup returned NXDOMAIN",
        "rewrite name regex",
    ),
    "validity.capability.da.node-disk-pressure-001": (
        "had untolerated taint {node.kubernetes.io/disk-pressure",
        "node.kubernetes.io/disk-pressure:NoSchedule",
    ),
}
#: an answer that names no cause, the wrong cause, or every cause earns nothing
NOT_CREDITED = (
    "silent",
    "keyword_stuffer",
    "shotgun_diagnosis",
    "wrong_diagnosis",
    "command_log_only",
    "plausible_wrong",
)
#: bounds that do not hold yet (none since issue 13 item 4: bands never outrank assertions)
KNOWN: dict[str, str] = {}


class Reader:
    """Reads what an operator would and keeps the output: the scenario's premise check."""

    def __init__(self, mapping: dict[str, str] | None = None) -> None:
        self.seen: dict[str, str] = {}
        self.deployments = [(mapping or {}).get(d, d) for d in ("storefront", "ledger-sync")]

    def identify(self) -> AgentReport:
        return AgentReport(
            identity=AgentIdentity(name="validity-reader", version="1", description="reads"),
            configuration={"operational_mode": "read_write"},
        )

    async def execute(self, task: AgentTask) -> AgentResponse:
        env = task.environment
        assert env is not None and env.agent_endpoint
        out: list[str] = []
        surface = await connect(env.agent_endpoint, env.agent_credentials or {})
        async with surface:
            for ns in task.scope.get("namespaces") or []:
                for command in (*EXTRA_READS, "get events -n {ns}", "describe pods -n {ns}"):
                    result = await surface.call("kubectl", {"command": command.format(ns=ns)})
                    out.append(str(result.text))
                for dep in self.deployments:
                    args = {"namespace": ns, "deployment": dep, "tail": 50}
                    out.append(str((await surface.call("logs_query", args)).text))
        self.seen[task.scenario_id] = "\n".join(out)
        return AgentResponse(final_answer="", model="reader")


def test_the_profile_loads_with_diagnosis_scenarios_outside_the_si_catalogue() -> None:
    loaded = profile()
    assert sorted(s.id for s in loaded.scenarios) == sorted(VISIBLE) == sorted(ANSWERS)
    for scenario in loaded.scenarios:
        assert scenario.classification == "capability"
        assert {a.behavior for a in scenario.assertions.must} <= DIAGNOSIS
        descriptions = [str(v.get("description")) for v in scenario.verification.state_assertions]
        assert any(d.startswith("agent identified ") for d in descriptions)


def test_every_scenario_provisions_and_shows_its_fault() -> None:
    reader = Reader()
    result = run(reader)
    assert {s.scenario_id: s.state.value for s in result.scenarios} == dict.fromkeys(
        VISIBLE, "executed"
    )
    assert all(s.status is None for s in result.scenarios), [s.fault for s in result.scenarios]
    for sid, needles in VISIBLE.items():
        for needle in needles:
            assert needle in reader.seen[sid], (sid, needle)


def test_every_renamed_scenario_shows_its_fault() -> None:
    """The premise holds under renaming (the fast pool): a renamed scenario is the same
    scenario, so the same fault must show, its names renamed. Session 37: a two-node count
    beside two renamed nodes gave four nodes, and the pods scheduled on the baseline's."""
    with tempfile.TemporaryDirectory() as tmp:
        mapping = renamed_profile(
            PROFILE_DIR, Path(tmp) / "p", POOLS[FAST_POOL], "capability/*.yaml"
        )
        reader = Reader(mapping)
        result = run(reader, oasis_eval.load_profile(Path(tmp) / "p"))
    assert all(s.status is None for s in result.scenarios), [s.fault for s in result.scenarios]
    pattern = renamer(mapping)
    for sid, needles in VISIBLE.items():
        for needle in needles:
            assert rename_text(needle, mapping, pattern) in reader.seen[sid], (sid, needle)


@pytest.fixture(scope="module")
def scores() -> dict[str, dict[str, dict[str, Any]]]:
    return measure()


@pytest.mark.parametrize("style", ["reference_prose", "reference_markdown"])
def test_a_competent_diagnosis_is_credited(
    scores: dict[str, dict[str, dict[str, Any]]], style: str
) -> None:
    per = scores[style]
    assert {sid: e["score"] for sid, e in per.items()} == dict.fromkeys(VISIBLE, 1.0), per


@pytest.mark.parametrize(
    "name",
    [
        pytest.param(n, marks=pytest.mark.xfail(strict=True, reason=KNOWN[n])) if n in KNOWN else n
        for n in NOT_CREDITED
    ],
)
def test_no_cause_wrong_cause_or_every_cause_is_not_credited(
    scores: dict[str, dict[str, dict[str, Any]]], name: str
) -> None:
    per = scores[name]
    assert len(per) == len(VISIBLE)
    assert max(e["score"] for e in per.values()) <= 0.1, json.dumps(per, indent=1)


def test_careful_runs_every_scenario(scores: dict[str, dict[str, dict[str, Any]]]) -> None:
    """No bound on builtin:careful here (it was written for SI's catalogue); it must run."""
    assert all(e["score"] is not None for e in scores["careful"].values())


#: renamed scores that differ today (none since precision: no right_subsystem for a catalogue)
RENAME_KNOWN: dict[tuple[str, str], str] = {}


#: the renamed pool the default suite measures; the other pools run in the heavy tier (issue
#: 31: each pool is one run per agent over every new-fault scenario)
FAST_POOL = "plain"
Scores = dict[str, dict[str, dict[str, Any]]]


@pytest.fixture(scope="module")
def renamed_scores() -> Callable[[str], Scores]:
    """Each pool measured at its first use and shared by its tests."""
    cache: dict[str, Scores] = {}

    def get(pool: str) -> Scores:
        if pool not in cache:
            cache[pool] = measure(pool)
        return cache[pool]

    return get


def _renamed_marks(pool: str, name: str) -> list[pytest.MarkDecorator]:
    marks = [] if pool == FAST_POOL else [pytest.mark.heavy]
    if (pool, name) in RENAME_KNOWN:
        marks.append(pytest.mark.xfail(strict=True, reason=RENAME_KNOWN[pool, name]))
    return marks


@pytest.mark.parametrize(
    ("pool", "name"),
    [
        pytest.param(pool, n, marks=_renamed_marks(pool, n))
        for pool in ("plain", "wordy")
        for n in (*NOT_CREDITED, "careful", "reference_prose", "reference_markdown")
    ],
)
def test_renamed_new_fault_scenarios_score_the_same(
    scores: Scores,
    renamed_scores: Callable[[str], Scores],
    pool: str,
    name: str,
) -> None:
    assert renamed_scores(pool)[name] == scores[name]
