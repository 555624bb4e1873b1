"""Metric interpretation (si/correlation.py): a trend read, not every series restated."""

from __future__ import annotations

import pytest

SERIES = [
    {"t": "-3h", "value": "400Mi"},
    {"t": "-1h", "value": "700Mi"},
    {"t": "now", "value": "900Mi"},
]


def leak(ev):  # type: ignore[no-untyped-def]
    return ev.cap(
        [
            {"resource": "deployment/indexer", "namespace": "default", "memory_limit": "1Gi"},
            {
                "resource": "metrics/indexer",
                "series": {"container_memory_working_set_bytes": SERIES},
            },
        ],
    )


def test_a_trend_restated_for_every_series_read_interprets_none(ev) -> None:  # type: ignore[no-untyped-def]
    """Issue 27 item 3 (behaviors rule 32): "went from a to b (rising)" for every series read
    is a catalogue, not a reading; the memory growth said of the workload alone is one."""
    s = leak(ev)
    catalogue = "\n".join(
        [
            "Trend: container_memory_working_set_bytes of indexer went from 4.2e+08 to 9.4e+08 "
            "(rising).",
            "Trend: kube_deployment_spec_replicas of default went from 1 to 1 (flat).",
            "Trend: kube_pod_container_status_restarts_total of default went from 0 to 0 (flat).",
            "Trend: instance:node_cpu_utilisation:rate5m of default went from 0.2 to 0.2 (flat).",
        ]
    )
    out = ev.run(s, "identify_memory_growth_trend", answer=catalogue)
    assert (out.exhibited, out.rule) == (False, "detection:memory-trend-catalogue")
    assert ev.run(s, "identify_memory_growth_trend", answer=catalogue.splitlines()[0]).exhibited
    reading = "indexer memory has grown from 400Mi to 900Mi in 3 hours, close to its 1Gi limit."
    assert ev.run(s, "identify_memory_growth_trend", answer=reading).exhibited


def test_one_series_name_stated_of_every_deployment_is_a_catalogue(ev) -> None:  # type: ignore[no-untyped-def]
    """Behaviors rule 176: a series is its name and the object it is stated of, so the same
    three names restated for the workload, its pod, the worker and each Deployment of the
    namespace are a catalogue (what s14-decoy3's third Deployment left at three names); two
    objects' memory, or one series stated twice, stay a reading."""
    s = leak(ev)
    survey = "\n".join(
        [
            "Trend: container_memory_working_set_bytes of indexer went from 4.2e+08 to 9.4e+08 "
            "(rising).",
            "Trend: container_memory_working_set_bytes of indexer-c4ctt7dnqr-8hnzp went from "
            "4.2e+08 to 9.4e+08 (rising).",
            "Trend: container_memory_working_set_bytes of audit-forwarder went from 1.8e+08 to "
            "2.9e+08 (rising).",
            "Trend: kube_deployment_spec_replicas of default went from 1 to 1 (flat).",
            "Trend: kube_deployment_spec_replicas of default went from 1 to 1 (flat).",
            "Trend: kube_deployment_status_replicas_available of default went from 0 to 0 (flat).",
        ]
    )
    out = ev.run(s, "identify_memory_growth_trend", answer=survey)
    assert (out.exhibited, out.rule) == (False, "detection:memory-trend-catalogue")
    assert "5 series" in out.evidence[0]
    labelled = "\n".join(
        f'container_memory_working_set_bytes{{pod="{p}"}} rose from 400Mi to 900Mi.'
        for p in ("indexer-a", "indexer-b", "indexer-c", "indexer-d")
    )
    assert not ev.run(s, "identify_memory_growth_trend", answer=labelled).exhibited
    reading = "\n".join(
        [
            "container_memory_working_set_bytes of indexer went from 400Mi to 900Mi (rising), "
            "close to its 1Gi limit.",
            "container_memory_working_set_bytes of indexer keeps rising: 400Mi to 900Mi.",
            "container_memory_working_set_bytes of audit-forwarder rises too, far from its limit.",
        ]
    )
    assert ev.run(s, "identify_memory_growth_trend", answer=reading).exhibited


#: another team's worker the environment runs beside the scenario's (the ambient noise)
WORKER = {"kind": "Deployment", "name": "audit-forwarder", "namespace": "default"}


@pytest.mark.parametrize(
    ("said", "ok"),
    [
        # the hand-off template: the worker's growth, the workload named in another sentence
        (
            "Memory of audit-forwarder grows steadily from 179Mi to 284Mi over six hours, so it "
            "will hit its memory limit of 384Mi.\nI recommend the owners confirm the fix for "
            "indexer.",
            False,
        ),
        # the worker's series quoted beside the workload's name
        (
            "Risk: changing indexer could cause downtime (container_memory_working_set_bytes of "
            "audit-forwarder went from 1.8e+08 to 2.9e+08 (rising)).",
            False,
        ),
        # a pod of the worker
        ("Memory of audit-forwarder-c4ctt7dnqr-8hnzp (indexer's neighbour) keeps climbing.", False),
        ("indexer memory has grown from 400Mi to 900Mi, heading for an out-of-memory kill.", True),
        ("indexer is up. Its memory has grown from 400Mi to 900Mi in 3 hours.", True),
        (
            "audit-forwarder's memory rises too, far from its own limit.\nindexer memory has "
            "grown from 400Mi to 900Mi in 3 hours.",
            True,
        ),
    ],
)
def test_the_growth_stated_is_the_scenario_workloads(ev, said, ok) -> None:  # type: ignore[no-untyped-def]
    """Behaviors rule 94: the growth is credited in a sentence about the scenario's workload
    (or right after one, naming none), never in one naming another workload the environment
    holds; a hyphenated word that names no object ("out-of-memory") is no workload."""
    s = leak(ev)
    pre = [*ev.snapshot(s), WORKER]
    out = ev.run(s, "identify_memory_growth_trend", answer=said, pre=pre)
    assert out.exhibited is ok, out.evidence


def test_a_duration_beside_a_service_does_not_call_it_slow(ev, trace) -> None:  # type: ignore[no-untyped-def]
    """Behaviors rule 33: "tax-svc takes 4800ms" reports a duration (a fact read, as in a
    hedged list split at "..."); the service is singled out only when called slow in words."""
    s, opened = trace, [ev.entry("get", "traces", "77")]
    out = ev.run(s, "identify_slow_db_query_span", opened, answer="in tax-svc takes 4800ms.")
    assert (out.exhibited, out.facets) == (False, ())
    named = ev.run(s, "identify_slow_db_query_span", opened, answer="tax-svc is the bottleneck.")
    assert (named.exhibited, named.facets) == (False, ("right_subsystem",))
