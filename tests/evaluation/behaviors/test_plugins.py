"""Behavior evaluators arrive as plugins of the ``oasis_eval.behaviors`` group (issue 14).

Discovery is deterministic (sorted by entry point), a broken plugin is an error naming its
entry point, ids are namespaced by profile, and the fault catalogue is extended by plugins
rather than closed.
"""

from __future__ import annotations

import re
import sys
import types
from importlib.metadata import EntryPoint, entry_points

import pytest

from oasis_eval.evaluation.behaviors import _claims, plugins
from oasis_eval.evaluation.behaviors.plugins import GROUP, PluginError, load, lookup
from oasis_eval.evaluation.behaviors.registry import (
    BehaviorContext,
    BehaviorOutcome,
    Evaluators,
    Registration,
)

SI = "oasis-profile-software-infrastructure"
EXAMPLE = "oasis-eval-example-k8s"


def _evaluate(bctx: BehaviorContext) -> BehaviorOutcome:
    return BehaviorOutcome(True, "test")


def _set(namespace: str, *ids: str, faults: dict[str, str] | None = None) -> Evaluators:
    regs = tuple(Registration(b, "detection", "final_answer", _evaluate) for b in ids)
    return Evaluators(namespace, regs, faults or {})


@pytest.fixture
def fake_module(monkeypatch: pytest.MonkeyPatch) -> types.ModuleType:
    """A module the fake entry points below point into."""
    module = types.ModuleType("fake_behavior_plugin")
    module.first = lambda: _set("prof-a", "b1", "b2")  # type: ignore[attr-defined]
    module.second = lambda: [_set("prof-b", "b1"), _set("prof-c", "b3")]  # type: ignore[attr-defined]
    module.ready = _set("prof-d", "b4")  # type: ignore[attr-defined]
    module.clash = lambda: _set("prof-a", "b2")  # type: ignore[attr-defined]
    module.wrong = lambda: {"namespace": "x"}  # type: ignore[attr-defined]
    module.faults = lambda: _set("prof-e", faults={"quota": "quota*"})  # type: ignore[attr-defined]

    def boom() -> Evaluators:
        raise RuntimeError("no database")

    module.boom = boom  # type: ignore[attr-defined]
    monkeypatch.setitem(sys.modules, "fake_behavior_plugin", module)
    return module


def ep(name: str, attr: str) -> EntryPoint:
    return EntryPoint(name, f"fake_behavior_plugin:{attr}", GROUP)


def test_this_package_registers_si_and_the_example_through_the_group() -> None:
    names = {e.name: e.value for e in entry_points(group=GROUP)}
    assert names["software-infrastructure"].endswith("behaviors.si:evaluators")
    assert names["k8s-basic"].endswith("behaviors.k8s_basic:evaluators")
    served = {p.evaluators.namespace: len(p.evaluators.evaluators) for p in plugins.installed()}
    assert served[SI] == 107 and served[EXAMPLE] == 14
    assert plugins.installed() is plugins.installed()  # discovered once per process


def test_discovery_is_sorted_and_accepts_objects_callables_and_sequences(fake_module) -> None:
    loaded = load([ep("z", "ready"), ep("b", "second"), ep("a", "first")])
    assert [(p.entry_point.split(" ")[0], p.evaluators.namespace) for p in loaded] == [
        ("a", "prof-a"),
        ("b", "prof-b"),
        ("b", "prof-c"),
        ("z", "prof-d"),
    ]
    # same behavior id in two namespaces is no clash: ids are namespaced by profile
    assert [r.behavior_id for p in loaded[:2] for r in p.evaluators.evaluators] == [
        "b1",
        "b2",
        "b1",
    ]


def test_a_broken_plugin_names_its_entry_point(fake_module) -> None:
    with pytest.raises(PluginError, match=r"'broken = fake_behavior_plugin:boom'.*no database"):
        load([ep("broken", "boom")])
    with pytest.raises(PluginError, match=r"'missing = fake_behavior_plugin:nothing'"):
        load([ep("missing", "nothing")])
    with pytest.raises(
        PluginError, match=r"'wrong = fake_behavior_plugin:wrong'.*not oasis_eval Evaluators"
    ):
        load([ep("wrong", "wrong")])
    with pytest.raises(
        PluginError, match=r"'a = .*first' and 'c = .*clash' both register prof-a/b2"
    ):
        load([ep("a", "first"), ep("c", "clash")])


def test_ids_are_namespaced_by_profile() -> None:
    assert lookup("identify_root_cause", [SI]) is not None
    assert lookup("identify_root_cause", [EXAMPLE]) is None
    assert lookup("perform_no_writes", [EXAMPLE, SI]) is lookup(f"{EXAMPLE}/perform_no_writes")
    assert lookup("perform_no_writes", [SI]) is None


def test_a_plugin_extends_the_fault_catalogue(fake_module, monkeypatch) -> None:
    """Fault knowledge is contributed by plugins, not a closed list in the core."""
    assert "quota" in _claims.fault_classes("the namespace quota is exhausted")
    extra = load([ep("f", "faults")])
    si = next(e for e in entry_points(group=GROUP) if e.name == "software-infrastructure")
    with pytest.raises(PluginError, match="both register fault class 'quota'"):
        load([si, ep("f", "faults")])  # a class another plugin already contributes
    novel = load([ep("n", "first")])
    monkeypatch.setattr(plugins, "installed", lambda: (*novel, *extra))
    _claims.catalogue.cache_clear()
    try:
        assert _claims.fault_classes("quota exceeded") == {"quota"}
        assert _claims.fault_classes("OOMKilled") == set()  # SI's classes are SI's plugin's
    finally:
        _claims.catalogue.cache_clear()


def test_profile_fitted_stop_words_come_from_the_plugin(monkeypatch) -> None:
    """Words fitted to SI's verification sentences are SI's plugin's, not the core's."""
    from oasis_eval.evaluation.behaviors import _truth

    assert "identified" in _truth.stop_words() and "identified" not in _truth._STOP
    monkeypatch.setattr(plugins, "installed", lambda: ())
    _truth.stop_words.cache_clear()
    try:
        assert _truth.stop_words() == _truth._STOP and "the" in _truth.stop_words()
    finally:
        _truth.stop_words.cache_clear()


@pytest.mark.parametrize(
    "family, source, named",
    [
        ("detecton", "final_answer", "unknown family 'detecton'"),
        ("detection", "final_anwser", "bad evidence_source 'final_anwser'"),
        ("detection", "audit_log+audit_log", "bad evidence_source 'audit_log+audit_log'"),
        ("detection", "", "bad evidence_source ''"),
    ],
)
def test_a_typo_in_family_or_evidence_source_names_the_plugin_and_the_value(
    monkeypatch: pytest.MonkeyPatch, family: str, source: str, named: str
) -> None:
    """Issue 31: a misspelled family or evidence source would silently change scoring."""
    with pytest.raises(ValueError, match=re.escape(named)):
        Registration("b1", family, source, _evaluate)
    module = types.ModuleType("typo_behavior_plugin")
    module.evaluators = lambda: Evaluators(  # type: ignore[attr-defined]
        "prof-t", (Registration("b1", family, source, _evaluate),)
    )
    monkeypatch.setitem(sys.modules, "typo_behavior_plugin", module)
    with pytest.raises(PluginError) as caught:
        load([EntryPoint("typo", "typo_behavior_plugin:evaluators", GROUP)])
    assert "'typo = typo_behavior_plugin:evaluators'" in str(caught.value)
    assert named in str(caught.value) and "behavior 'b1'" in str(caught.value)


def test_every_installed_evaluator_uses_a_known_family_and_sources() -> None:
    from oasis_eval.evaluation.behaviors.registry import EVIDENCE_SOURCES, FAMILIES

    regs = [r for p in plugins.installed() for r in p.evaluators.evaluators]
    assert len(regs) > 100
    assert {r.family for r in regs} == set(FAMILIES)
    assert {s for r in regs for s in r.evidence_source.split("+")} == set(EVIDENCE_SOURCES)
