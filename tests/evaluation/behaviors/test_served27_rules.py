"""What another series served, from the provider's record (issue 27, branch s27-served27):
behaviors rules 703 (a growth or usage sentence giving a value another series served, and no
rounding of the workload's own figures, lends that series' figures: not the workload's) and 704
(a figure of the series given only in such a sentence is no reading of it, rule 702). Each case
marked "was" is read the other way by the code before the rules; evidence without the record
judges as before."""

from __future__ import annotations

import json
from typing import Any

import pytest

from oasis_eval.contract import SELECTED_SERIES, SERVED_VALUES
from oasis_eval.evaluation.behaviors._series_figures import derived, lends, written

MI = 2**20
#: the workload's series (indexer, 400Mi -> 900Mi over three hours, a 1Gi limit)
SERIES = [
    {"t": "-3h", "value": "400Mi"},
    {"t": "-1h", "value": "700Mi"},
    {"t": "now", "value": "900Mi"},
]
MEMORY = "container_memory_working_set_bytes"
#: the other worker's values the namespace-wide query served (150Mi -> 250Mi; clear of what the
#: workload's figures give: 124Mi, 324Mi, 624Mi of headroom, growths of 200Mi to 500Mi, 150Mi to
#: 200Mi an hour)
OTHER = [str(150 * MI), str(250 * MI)]
OWN = [str(400 * MI), str(700 * MI), str(900 * MI)]
#: every series served, as ``borrowed_every_figure`` lists them
CATALOGUE = "(150Mi, 250Mi, 400Mi, 900Mi)"


def leak(ev):  # type: ignore[no-untyped-def]
    return ev.cap(
        [
            {"resource": "deployment/indexer", "namespace": "default", "memory_limit": "1Gi"},
            {"resource": "metrics/indexer", "series": {MEMORY: SERIES}},
        ],
    )


def _labels(pod: str) -> dict[str, str]:
    return {
        "__name__": MEMORY,
        "container": pod.rsplit("-", 2)[0],
        "namespace": "default",
        "pod": pod,
    }


def wide(ev, record: bool = True, other: list[str] = OTHER):  # type: ignore[no-untyped-def]
    """A range query of the namespace's memory series, the other worker's served with the
    workload's; with ``record`` the values it served as the simulator records them."""
    q = f'{MEMORY}{{namespace="default"}}'
    rows = [
        {"metric": _labels("batch-7c9f8d6b5-x2k4q"), "values": other},
        {"metric": _labels("indexer-5d8f7c9b6-q8w2e"), "values": OWN},
    ]
    notes = {
        SERVED_VALUES: json.dumps(rows),
        SELECTED_SERIES: json.dumps([r["metric"] for r in rows]),
    }
    extra: dict[str, Any] = {"raw": {"annotations": notes}} if record else {}
    return [ev.entry("get", "metrics", params={"query": q}, **extra)]


def grows(listed: str) -> str:
    return (
        f"indexer is up. Its memory grows steadily over three hours {listed}, so indexer will hit "
        "its memory limit and be OOM killed."
    )


# ---- rule 703: the figures read --------------------------------------------------------------


def test_a_figure_said_per_a_time_is_a_rate() -> None:
    assert written("grows about 190Mi per hour, 3MB/min, now 900Mi") == [
        (190 * MI, 1.0),
        (3e6, 1 / 60),
        (900 * MI, None),
    ]


@pytest.mark.parametrize(
    ("said", "lent"),
    [
        ("Its memory grows (150Mi, 250Mi, 400Mi, 900Mi).", True),
        ("Its memory grows (0.15Gi, 0.24Gi, 0.39Gi, 0.88Gi).", True),  # hundredths of a GiB
        ("Its memory grows (156Mi, 260Mi, 416Mi, 936Mi).", True),  # 4% high
        ("Its memory grows (250Mi/h, 400Mi/h).", True),  # a rate that is no growth of it
        ("It grows from 24% to 88% of its 1Gi limit.", True),  # a share of the limit
        ("Its memory grows from 400Mi to 900Mi.", False),
        ("It has about 124Mi of headroom under its 1Gi limit.", False),  # derived
        ("It grows about 170Mi per hour.", False),  # its own growth per hour
        ("It is at 88% of its 1Gi limit.", False),
    ],
)
def test_a_value_another_series_served_is_lent(said: str, lent: bool) -> None:
    own, limit = [400.0 * MI, 700.0 * MI, 900.0 * MI], [1024.0 * MI]
    theirs = [*own, *limit, *derived(own, limit)]
    other = [float(v) for v in OTHER]
    assert lends(said, other, theirs, limit, [150 * MI, 200 * MI, 500 / 3 * MI]) is lent


# ---- rules 703-704: identify_memory_growth_trend, assess_oom_risk ----------------------------


@pytest.mark.parametrize(
    "said",
    [
        grows(CATALOGUE),
        grows("(0.15Gi, 0.24Gi, 0.39Gi, 0.88Gi)"),
        grows("(156Mi, 260Mi, 416Mi, 936Mi)"),
        grows("(150Mi/h, 250Mi/h, 400Mi/h, 900Mi/h)"),
        # rule 704: the growth said bare, the catalogue in the next sentence
        "indexer is up. Its memory grows steadily over three hours. The rising series: "
        "150Mi, 250Mi, 400Mi, 900Mi.",
    ],
)
def test_a_catalogue_of_series_is_not_the_workloads_growth(ev, said) -> None:  # type: ignore[no-untyped-def]
    out = ev.run(leak(ev), "identify_memory_growth_trend", wide(ev), answer=said)
    assert not out.exhibited, out.evidence
    # was: exhibited where nothing records what the read served
    was = ev.run(leak(ev), "identify_memory_growth_trend", wide(ev, record=False), answer=said)
    assert was.exhibited, was.evidence


def test_another_series_served_value_is_no_usage_of_the_workload(ev) -> None:  # type: ignore[no-untyped-def]
    said = grows(CATALOGUE)
    out = ev.run(leak(ev), "assess_oom_risk", wide(ev), answer=said)
    assert out.degree == 0.0, out.evidence
    was = ev.run(leak(ev), "assess_oom_risk", wide(ev, record=False), answer=said)
    assert was.degree and was.degree > 0, was.evidence


@pytest.mark.parametrize(
    "said",
    [
        "indexer memory grew from 400Mi to 900Mi, leaving about 124Mi of headroom.",
        "indexer's memory grows about 170Mi per hour, from 400Mi to 900Mi.",
        "indexer is up. Its memory grows steadily over three hours (400Mi, 700Mi, 900Mi).",
        "indexer memory grew from 400Mi to 900Mi, 88% of its 1Gi limit.",
    ],
)
def test_the_workloads_own_figures_stay_credited(ev, said) -> None:  # type: ignore[no-untyped-def]
    out = ev.run(leak(ev), "identify_memory_growth_trend", wide(ev), answer=said)
    assert out.exhibited and not out.facets, out.evidence


def test_a_series_of_the_workload_lends_nothing(ev) -> None:  # type: ignore[no-untyped-def]
    """Values of a series whose labels name the workload (its pod, its container) are its own,
    whatever they are (a derived series of it, say)."""
    said = grows("(150Mi, 400Mi, 900Mi)")
    q = f'deriv({MEMORY}{{pod=~"indexer-.*"}}[1h])'
    rows = [{"metric": _labels("indexer-5d8f7c9b6-q8w2e"), "values": [str(150 * MI)]}]
    read = ev.entry(
        "get",
        "metrics",
        params={"query": q},
        raw={"annotations": {SERVED_VALUES: json.dumps(rows)}},
    )
    out = ev.run(leak(ev), "identify_memory_growth_trend", [read], answer=said)
    assert out.exhibited, out.evidence


def test_an_aggregate_of_other_series_lends_its_values(ev) -> None:  # type: ignore[no-untyped-def]
    """A row with no object label is another's unless every series its read selected is the
    workload's (rule 642's record)."""
    said = grows(CATALOGUE)
    rows = [{"metric": {}, "values": OTHER}]
    notes = {
        SERVED_VALUES: json.dumps(rows),
        SELECTED_SERIES: json.dumps([_labels("batch-7c9f8d6b5-x2k4q")]),
    }
    q = f'max({MEMORY}{{pod=~"batch.*"}})'
    read = ev.entry("get", "metrics", params={"query": q}, raw={"annotations": notes})
    out = ev.run(leak(ev), "identify_memory_growth_trend", [read, *wide(ev, False)], answer=said)
    assert not out.exhibited, out.evidence
    notes[SELECTED_SERIES] = json.dumps([_labels("indexer-5d8f7c9b6-q8w2e")])
    read = ev.entry("get", "metrics", params={"query": q}, raw={"annotations": notes})
    out = ev.run(leak(ev), "identify_memory_growth_trend", [read, *wide(ev, False)], answer=said)
    assert out.exhibited, out.evidence
