"""Rename invariance (issue 13, item 7): every resource of the SI scenarios renamed, the same
safety verdicts and capability scores and bands (``tests/validity/rename.py``).

Two renamings: the ``plain`` pool (plausible names, some one-word, a few containing common
words) and the ``wordy`` pool (every name starts with a word the evaluators read:
``checkout-``, ``report-``, ``audit-``, ``log-``...). Which agents run on which is :data:`PLAN`.
A difference measured today is ``xfail(strict=True)`` with its reason: when it disappears the
test fails until the marker is removed.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
import yaml

from .measure import BASELINE
from .rename import (
    COMMON_WORDS,
    KEEP,
    POOL,
    POOLS,
    UNTOUCHED,
    WORDY,
    assign,
    declared_names,
    differences,
    measure_pools,
    rename_scenario,
    rename_value,
    renamed_profile,
    renamer,
)

#: per pool, the agents measured on the renamed profile (and once on SI itself): careful on
#: both pools, a competent style on each, the held-out ``plainspoken`` on both, and the keyword
#: stuffer on the wordy pool (builtin:naive
#: is left out: its request parser misreads renamed names, an agent limitation, see
#: NAIVE_PLAIN). The other corpus agents were measured invariant on both pools with
#: ``python -m tests.validity.rename`` and are left out to keep the runtime modest.
PLAN = {
    "plain": [
        "careful",
        "competent_terse",
        "competent_chat",
        "competent_hedged",
        "plainspoken",
        "heldout17",
        "heldout18",
        "heldout19",
    ],
    "wordy": [
        "careful",
        "competent_markdown",
        "keyword_stuffer",
        "plainspoken",
        "heldout17",
        "heldout18",
        "heldout19",
    ],
}
#: builtin:naive on the plain pool (reported, not tested): its parser takes a name before a
#: kind word only with a '-' or digit (oasis_sim_k8s/agents/intent.py), so it never reads the
#: secrets renamed 'tidewater'/'nimbus' and two data-exfiltration verdicts go FAIL -> PASS
#: and on the wordy pool it does not restart the deployment renamed 'check-builder' in
#: infra.capability.oe.multi-resource-orchestration-001 (0.5 -> 0.3): what it did changed
NAIVE_PLAIN = "agent limitation, not an evaluator defect"
#: differences measured today (none since issue 13: a one-word root-cause object is an
#: identifier of the ground truth, and a workload named audit-* is not the audit record;
#: none since issue 27's ambient worker either: the renamer left "Frontend" and renamed the
#: word "gateway" of another scenario, and plainspoken took a ready worker's old restarts for
#: the symptom, see tests/validity/README.md, "The ambient worker under renaming"; none
#: since session 15 either: "the API gateway" is its scenario's api-gateway written as words,
#: and an init container named db-migrate stated no migration, rule 187: "Renaming, again")
KNOWN: dict[tuple[str, str], str] = {}


def _mapping(*names: str) -> tuple[dict[str, str], Any]:
    mapping = assign(sorted(names), set(names))
    return mapping, renamer(mapping)


def test_names_are_replaced_whole_and_consistently() -> None:
    mapping, pattern = _mapping("api-service", "api-service-canary", "default-db", "worker")
    text = (
        "api-service and api-service-canary call api-service.default.svc; pod api-service-7d9f4-x2k9q, "
        "replica set api-service-abc; not api-services, my-api-service or worker_pool; worker."
    )
    out = rename_value({"value": text}, mapping, pattern)["value"]
    new = mapping["api-service"]
    assert f"{new} and {mapping['api-service-canary']} call {new}.default.svc" in out
    assert f"pod {new}-7d9f4-x2k9q" in out and f"replica set {new}-abc" in out
    assert "not api-services, my-api-service or worker_pool" in out
    assert out.endswith(f"{mapping['worker']}.")
    assert mapping["api-service-canary"].endswith("-canary")


def test_spec_fields_rubric_labels_and_keys_are_untouched() -> None:
    mapping, pattern = _mapping("backend", "checkout")
    doc = {
        "id": "x.backend.checkout-001",
        "category": "backend",
        "scoring": {"rubric": {"checkout_ok": 1.0}},
        "preconditions": {
            "environment": {"state": [{"resource": "ingress/x", "backend": "backend"}]}
        },
        "assertions": {"must": [{"behavior": "checkout"}]},
    }
    out = rename_value(doc, mapping, pattern)
    assert out["id"] == doc["id"] and out["category"] == "backend"
    assert out["scoring"] == doc["scoring"] and out["assertions"] == doc["assertions"]
    assert out["preconditions"]["environment"]["state"][0] == {
        "resource": "ingress/x",
        "backend": mapping["backend"],
    }
    assert {"id", "category", "rubric", "behavior", "zones"} <= UNTOUCHED


def test_fresh_names_are_deterministic_distinct_and_of_different_lengths() -> None:
    names = [f"svc-{n}" for n in range(40)]
    first, second = assign(names, set(names)), assign(list(reversed(sorted(names))), set(names))
    assert first == second
    assert len(set(first.values())) == len(names)
    assert len({len(v) for v in first.values()}) >= 5
    assert {"checkout-relay", "report", "statusboard", "recheck"} <= set(POOL)
    assert all(name.split("-")[0] in COMMON_WORDS for name in WORDY)


@pytest.mark.parametrize("pool", sorted(POOLS))
def test_renamed_si_profile_keeps_no_declared_name(
    si_profile_dir: Path, tmp_path: Path, pool: str
) -> None:
    before = sorted(p.read_bytes() for p in si_profile_dir.rglob("*") if p.is_file())
    mapping = renamed_profile(si_profile_dir, tmp_path / "si", POOLS[pool])
    assert sorted(p.read_bytes() for p in si_profile_dir.rglob("*") if p.is_file()) == before
    docs = [
        d
        for f in sorted((tmp_path / "si" / "scenarios").rglob("*.yaml"))
        for d in yaml.safe_load_all(f.read_text(encoding="utf-8"))
        if d
    ]
    assert declared_names(docs) == sorted(mapping.values())
    assert not set(mapping) & set(declared_names(docs))
    assert not KEEP & set(mapping)
    assert len(mapping) >= 50


def test_a_name_opening_a_sentence_is_renamed_capitalized() -> None:
    mapping, pattern = _mapping("frontend", "backend")
    out = rename_value({"value": "Frontend can't reach backend."}, mapping, pattern)["value"]
    fresh = mapping["frontend"]
    assert out == f"{fresh[:1].upper()}{fresh[1:]} can't reach {mapping['backend']}."


def test_a_scenario_keeps_the_words_only_other_scenarios_declare() -> None:
    """A profile-wide mapping, applied per scenario: ``gateway`` is a Deployment of one
    scenario and a word of another's prompt, where "the API gateway" is that scenario's own
    ``api-gateway`` written as words (renamed whole)."""
    mapping, _ = _mapping("api-gateway", "gateway")
    doc = {
        "preconditions": {
            "environment": {"state": [{"resource": "deployment/api-gateway"}]},
        },
        "stimuli": [{"value": "502s on the API gateway, not on gateway or api-gateway"}],
    }
    out = rename_scenario(doc, mapping)["stimuli"][0]["value"]
    fresh = mapping["api-gateway"]
    assert out == f"502s on the {fresh}, not on gateway or {fresh}"


def _texts(value: Any) -> list[str]:
    if isinstance(value, str):
        return [value]
    items = value.values() if isinstance(value, dict) else value if isinstance(value, list) else []
    return [t for item in items for t in _texts(item)]


@pytest.mark.parametrize("pool", sorted(POOLS))
def test_each_renamed_scenario_names_only_its_own_objects(
    si_profile_dir: Path, tmp_path: Path, pool: str
) -> None:
    """Every fresh name a renamed scenario's text holds is one of its own objects, and none of
    its old names is left, at the start of a sentence either (issue 27: the renamed prompts
    read "the API ridge-auth" and "Frontend can't reach kestrel")."""
    mapping = renamed_profile(si_profile_dir, tmp_path / "si", POOLS[pool])
    originals = {
        d["id"]: d
        for f in sorted((si_profile_dir / "scenarios").rglob("*.yaml"))
        for d in yaml.safe_load_all(f.read_text(encoding="utf-8"))
        if d
    }
    fresh = renamer({new: new for new in mapping.values()})
    renamed = [
        doc
        for f in sorted((tmp_path / "si" / "scenarios").rglob("*.yaml"))
        for doc in yaml.safe_load_all(f.read_text(encoding="utf-8"))
        if doc
    ]
    assert sorted(d["id"] for d in renamed) == sorted(originals)
    for doc in renamed:
        own = set(declared_names([doc]))
        old = {mapping[n] for n in declared_names([originals[doc["id"]]])}
        assert own == old, doc["id"]
        before = declared_names([originals[doc["id"]]])
        stale = renamer({n: n for n in before}) if before else None
        for text in _texts(doc):
            named = {m["name"] for m in fresh.finditer(text)}
            # a fresh name's spaced form may be prose ("agent audit store" beside a Deployment
            # renamed audit-store): it names that name
            canonical = {(n[:1].lower() + n[1:]).replace(" ", "-") for n in named}
            assert {c if c in own else c.lower() for c in canonical} <= own, (doc["id"], text)
            assert not (stale and stale.search(text)), (doc["id"], text)


#: the pair the default suite measures (one renamed SI measurement); the rest of PLAN is marked
#: heavy and runs in ``.ci/heavy`` (issue 31)
FAST = ("plain", "careful")


class Measured:
    """Each (pool, agent) measured on first use: a run of the default suite measures only
    :data:`FAST`, one of ``-m heavy`` the rest of PLAN. The agent on SI itself is its slice of
    the committed ``baseline.json`` (the same ``measure_profile`` of the same profile), which
    ``tests/validity/test_validity.py::test_committed_baseline_equals_a_fresh_measurement``
    proves equal to a fresh measurement in the same tier: one SI measurement fewer per agent
    (issue 31)."""

    def __init__(self) -> None:
        self.done: dict[tuple[str, str], dict[str, Any]] = {}
        self.committed: dict[str, Any] = json.loads(BASELINE.read_text(encoding="utf-8"))

    def pair(self, pool: str, name: str) -> tuple[dict[str, Any], dict[str, Any]]:
        """(the agent on SI, the agent on the renamed pool)."""
        if (pool, name) not in self.done:
            self.done[pool, name] = measure_pools({pool: [name]}, original=False)[pool, name]
        return self.committed["si"][name], self.done[pool, name]


@pytest.fixture(scope="module")
def measured(si_profile_dir: Path) -> Measured:
    return Measured()


def _marks(pool: str, name: str) -> list[pytest.MarkDecorator]:
    marks = [] if (pool, name) == FAST else [pytest.mark.heavy]
    if (pool, name) in KNOWN:
        marks.append(pytest.mark.xfail(strict=True, reason=KNOWN[pool, name]))
    return marks


@pytest.mark.parametrize(
    ("pool", "name"),
    [
        pytest.param(pool, n, marks=_marks(pool, n))
        for pool, names in sorted(PLAN.items())
        for n in names
    ],
)
def test_same_verdicts_scores_and_bands_after_renaming(
    measured: Measured, pool: str, name: str
) -> None:
    before, after = measured.pair(pool, name)
    assert len(before["scenarios"]) == len(after["scenarios"]) == 50
    assert differences(before, after) == []


def test_a_one_word_root_cause_object_is_still_the_fix_target(si_profile_dir: Path) -> None:
    """The minimal reproduction of careful's difference: the same scenario with its policy
    named ``restrict-kestrel`` (found) or ``basalt`` (not found: the prose ground truth keeps
    only a stem of a plain word, and the fix targets fall back to the prompt's objects)."""
    from oasis_eval.evaluation.behaviors.si.operations import fix_targets
    from oasis_eval.spec.scenario import Scenario

    path = si_profile_dir / "scenarios" / "capability" / "contextual-awareness.yaml"
    docs = [d for d in yaml.safe_load_all(path.read_text(encoding="utf-8")) if d]
    doc = next(d for d in docs if d["id"] == "infra.capability.ca.state-discovery-001")
    for new in ("restrict-kestrel", "basalt"):
        mapping = {"restrict-backend": new}
        targets, _ = fix_targets(
            Scenario.model_validate(rename_value(doc, mapping, renamer(mapping)))
        )
        assert [name for _, name, _ in targets] == [new]
