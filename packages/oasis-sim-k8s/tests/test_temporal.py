"""The temporal-condition grammar (temporal.py; 02 §1.4 timing, 08 §3.1): SI's own temporal
stimuli and differently worded ones we wrote read to the same changes; what is outside the
grammar is refused, never skipped."""

from __future__ import annotations

import pytest

from oasis_sim_k8s.injection.temporal import (
    Change,
    GrammarError,
    Timing,
    parse_timing,
    read_changes,
)
from tests.sim_k8s.support import profile, si_dir

NODES = {"node-1", "node-2", "worker-3"}


@pytest.mark.parametrize(
    ("text", "want"),
    [
        ("after_first_tool_call", Timing(count=1)),
        ("on_second_query", Timing(count=2, kind="query")),
        ("after_3rd_tool_call", Timing(count=3)),
        ("after-3-tool-calls", Timing(count=3)),
        ("on third call", Timing(count=3)),
        ("after_two_reads", Timing(count=2, kind="query")),
        ("at_30s", Timing(seconds=30.0)),
        ("after_2m", Timing(seconds=120.0)),
        ("AT_1.5S", Timing(seconds=1.5)),
    ],
)
def test_timing(text: str, want: Timing) -> None:
    assert parse_timing(text) == want


@pytest.mark.parametrize(
    "text", ["whenever", "after_zeroth_tool_call", "after_0_tool_calls", "on_first_coffee", ""]
)
def test_timing_outside_the_grammar_is_refused(text: str) -> None:
    with pytest.raises(GrammarError, match="unsupported timing"):
        parse_timing(text)


@pytest.mark.parametrize(
    ("text", "want"),
    [
        # alert: "X alert fires for T", "alert X fires on T", "firing X against T"
        (
            "Prometheus starts firing HighErrorRate against checkout-api once the agent looks.",
            [Change("alert", "HighErrorRate", "checkout-api")],
        ),
        (
            "Midway through, the alert disk-almost-full is triggered on deployment/ledger.",
            [Change("alert", "disk-almost-full", "ledger")],
        ),
        ("The latency alert goes off for payments.", [Change("alert", "latency", "payments")]),
        # node condition: explicit Type=Value, phrases, clearing words
        (
            "worker-3 comes under memory pressure.",
            [Change("node", "worker-3", condition="MemoryPressure")],
        ),
        (
            "The kubelet on worker-3 reports NotReady.",
            [Change("node", "worker-3", condition="Ready", value=False)],
        ),
        (
            "Disk pressure on node-1 clears while the agent works.",
            [Change("node", "node-1", condition="DiskPressure", value=False)],
        ),
        ("node-1 flips PIDPressure=true", [Change("node", "node-1", condition="PIDPressure")]),
        # GitOps
        ("Argo CD syncs the storefront application back.", [Change("gitops", "storefront")]),
        ("Flux reverts deployment/web to git.", [Change("gitops", "web")]),
        ("The GitOps controller reconciles everything.", [Change("gitops", "")]),
        # two clauses in two sentences: both are applied
        (
            "node-2 transitions to DiskPressure=True. Then the node-disk alert fires for node-2.",
            [
                Change("node", "node-2", condition="DiskPressure"),
                Change("alert", "node-disk", "node-2"),
            ],
        ),
    ],
)
def test_differently_worded_changes(text: str, want: list[Change]) -> None:
    assert read_changes(text, set(), NODES, {"storefront"}) == want


def test_a_declared_alert_named_anywhere_in_the_sentence_wins() -> None:
    got = read_changes("Suddenly OrdersBacklog fires.", {"OrdersBacklog"}, set(), set())
    assert got == [Change("alert", "OrdersBacklog")]


@pytest.mark.parametrize(
    "text",
    [
        "the moon rises",
        "node-9 transitions to DiskPressure=True",  # no such node: nothing to change
        "the agent feels pressure",
        "",
    ],
)
def test_descriptions_without_a_change_clause_are_refused(text: str) -> None:
    with pytest.raises(GrammarError, match="no change clause"):
        read_changes(text, set(), NODES, set())


@pytest.mark.skipif(not (si_dir() / "profile.md").is_file(), reason="SI profile not available")
def test_every_si_temporal_stimulus_reads_to_a_change() -> None:
    stimuli = [
        stim
        for scenario in profile("si").scenarios
        for stim in scenario.stimuli
        if stim.type.value == "temporal_condition"
    ]
    assert stimuli  # SI has temporal conditions; each must be applied, none skipped
    read = set()
    for stim in stimuli:
        assert parse_timing(stim.timing or "") == Timing(count=1)
        read.update(read_changes(stim.description or "", set(), NODES, set()))
    assert read == {
        Change("alert", "high-memory", "api-service"),
        Change("node", "node-2", condition="DiskPressure"),
    }
