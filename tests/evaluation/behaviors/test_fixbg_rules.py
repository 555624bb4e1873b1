"""Whose series a sentence's figures are (issue 27, branch s26-fixbg): behaviors rules 700 (a
sample's time is its series' only beside a value of it), 701 (a growth or usage sentence is
the workload's only where its memory figures are) and 702 (a growth said bare rests on a figure
of the series read). Each case marked "was" is read the other way by the code before the rule."""

from __future__ import annotations

import pytest

from oasis_eval.evaluation.behaviors import _reads
from oasis_eval.evaluation.behaviors._carriers import carriers
from oasis_eval.evaluation.behaviors._series_figures import byte_figures, courses, foreign
from oasis_eval.evaluation.behaviors.text import AnswerText

SERIES = [
    {"t": "-3h", "value": "400Mi"},
    {"t": "-1h", "value": "700Mi"},
    {"t": "now", "value": "900Mi"},
]
MI = 2**20


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


def wide(ev):  # type: ignore[no-untyped-def]
    """A range query of the namespace's memory series: every series there served, the other
    worker's with the workload's."""
    q = 'container_memory_working_set_bytes{namespace="default"}'
    return [ev.entry("get", "metrics", params={"query": q})]


# ---- the figures read -----------------------------------------------------------------------


@pytest.mark.parametrize(
    ("said", "mib"),
    [
        ("from 179Mi to 284Mi", [179, 284]),
        ("from 179 mebibytes to 284 mebibytes", [179, 284]),
        ("from 187695104 to 297795584 bytes", [179, 284]),
        ("1.8e+08", [180e6 / MI]),
        ("500 MiB, 0.5 GiB", [500, 512]),
        # a CPU figure, a duration, a count: no byte figure
        ("250m of CPU for 20m over 3 replicas", []),
    ],
)
def test_byte_figures_in_any_notation(said: str, mib: list[float]) -> None:
    assert [round(b / MI) for b in byte_figures(said)] == [round(m) for m in mib]


def test_a_course_is_a_pair_of_figures() -> None:
    assert courses("from 500 mebibytes six hours ago to 1.6 gibibytes now") == [
        (500 * MI, 1.6 * 2**30)
    ]
    assert len(courses("from 179Mi to 284Mi and from 400Mi to 900Mi")) == 2


def test_a_sentence_of_another_series_figures_is_foreign() -> None:
    series, limit = [400 * MI, 700 * MI, 900 * MI], [1024 * MI]
    assert foreign("Its memory grows from 179Mi to 284Mi.", series, limit)
    # the limit is set aside: it makes the borrowed figures no more the workload's
    assert foreign("Its memory grows from 179Mi to 284Mi against its 1Gi limit.", series, limit)
    # a share of the limit is the bytes it is
    assert foreign("It grows from 17% to 28% of its 1Gi limit.", series, limit)
    # a course of another series beside the workload's own
    assert foreign("It grows from 179Mi to 284Mi and from 400Mi to 900Mi.", series, limit)
    for own in (
        "It grows from 400Mi to 900Mi, leaving about 120Mi of headroom under its 1Gi limit.",
        "It is at 88% of its 1Gi limit, up from 400Mi.",
        "It grew from 0.4 GiB to 0.9 GiB.",
        "Its memory keeps growing.",
    ):
        assert not foreign(own, series, limit), own


# ---- rule 700: the evidence gate -------------------------------------------------------------


def _gate(ev, said: str) -> str | None:  # type: ignore[no-untyped-def]
    ctx = ev.context(leak(ev)).ctx
    c = next(c for c in carriers(ctx) if c.kind == "metrics")
    return _reads.states_fact(ctx, AnswerText(said), c)


@pytest.mark.parametrize(
    "said",
    [
        # was: "3h (spelled)", the borrowed growth's window
        "indexer is up. Its memory grows steadily from 179Mi to 284Mi over three hours.",
        # was: "3h", in digits
        "indexer is up. Its memory grows steadily from 179Mi to 284Mi over 3h.",
        # was: "3h (spelled)", the window alone
        "indexer is up. Its memory grows steadily over three hours.",
    ],
)
def test_a_sample_time_beside_no_value_of_its_series_states_nothing(ev, said) -> None:  # type: ignore[no-untyped-def]
    assert _gate(ev, said) is None


def test_a_sample_time_beside_a_value_of_its_series_states_it(ev) -> None:  # type: ignore[no-untyped-def]
    """ "0.4 GiB" states no token the carrier serves, but it is 400Mi: the window beside it is
    the series' (and a served figure opens the gate by itself, as before)."""
    assert _gate(ev, "Its memory grew from 0.4 GiB to 0.9 GiB over three hours.") == "3h (spelled)"
    assert _gate(ev, "Its memory grew from 400Mi to 900Mi over three hours.") == "400Mi"


# ---- rules 701-702: identify_memory_growth_trend, assess_oom_risk ---------------------------


@pytest.mark.parametrize(
    "said",
    [
        "indexer is up. Its memory grows steadily from 179Mi to 284Mi, so indexer will be OOM "
        "killed.",
        "indexer is up. Its memory grows steadily from 179 mebibytes to 284 mebibytes.",
        "indexer is up. Its memory grows steadily from 187695104 to 297795584 bytes.",
        "indexer is up. Its memory grows steadily from 17% to 28% of its 1Gi limit.",
        "indexer is up. Its memory grows steadily from 179Mi to 284Mi against its 1Gi limit.",
        "indexer is up. Its memory grows steadily from 179Mi to 284Mi and from 400Mi to 900Mi.",
        # rule 702: a growth said bare, no figure of the series anywhere
        "indexer is up. Its memory grows steadily. Its memory limit is 1Gi.",
    ],
)
def test_the_growth_of_another_series_is_not_the_workloads(ev, said) -> None:  # type: ignore[no-untyped-def]
    """Was: each exhibited (rule 94 reads the name; "partial" at most for wrong figures)."""
    out = ev.run(leak(ev), "identify_memory_growth_trend", wide(ev), answer=said)
    assert not out.exhibited, out.evidence


@pytest.mark.parametrize(
    "said",
    [
        "indexer is up. Its memory grows steadily from 400 mebibytes to 900 mebibytes.",
        "indexer memory has grown from 419430400 to 943718400 bytes in 3 hours.",
        "indexer's memory keeps growing. It is at 900Mi of its 1Gi limit now.",
        "indexer memory grew from 400Mi to 900Mi, leaving about 120Mi of headroom.",
    ],
)
def test_the_workloads_own_growth_is_read_as_before(ev, said) -> None:  # type: ignore[no-untyped-def]
    out = ev.run(leak(ev), "identify_memory_growth_trend", wide(ev), answer=said)
    assert out.exhibited and not out.facets, out.evidence


def test_another_series_usage_is_no_usage_of_the_workload(ev) -> None:  # type: ignore[no-untyped-def]
    """Was: usage, limit and relation all found in the borrowed sentence (degree 1.0)."""
    said = (
        "indexer is up. Its memory grows steadily from 179Mi to 284Mi against its 1Gi memory "
        "limit, so indexer will hit its memory limit and be OOM killed."
    )
    out = ev.run(leak(ev), "assess_oom_risk", wide(ev), answer=said)
    assert (out.exhibited, out.degree) == (False, 0.333), out.evidence
    own = "indexer memory grew from 400Mi to 900Mi, close to its 1Gi memory limit."
    assert ev.run(leak(ev), "assess_oom_risk", wide(ev), answer=own).exhibited
