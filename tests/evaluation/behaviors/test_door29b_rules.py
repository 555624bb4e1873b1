"""Behaviors rules 885-887 (branch s29-door29b, issue 27 item 7: three undecided doors). Each
test pairs what a rule now refuses with what it keeps; the cases marked "was" read the other way
with the rule off; hand-built text and scenarios, no SI run."""

from __future__ import annotations

import json
from typing import Any

import pytest

from oasis_eval.contract import SELECTED_SERIES, SERVED_VALUES
from oasis_eval.evaluation.behaviors._limit_said import other_limits
from oasis_eval.evaluation.behaviors._or_options import without_or_lists
from oasis_eval.evaluation.behaviors._series_content import content

from .test_served27_rules import MEMORY, OTHER, OWN, _labels, leak, wide

GI, MI = 2**30, 2**20

# ---- rule 885 (61, 850): a limit said of every candidate singles none out ----------------------


@pytest.fixture
def memory(ev: Any) -> Any:
    return ev.make_scenario(
        [
            {
                "resource": "deployment/data-processor",
                "namespace": "default",
                "memory_limit": "2Gi",
            },
            {
                "resource": "metrics/data-processor",
                "series": {
                    "container_memory_working_set_bytes": [
                        {"t": "-6h", "value": "500Mi"},
                        {"t": "now", "value": "1.6Gi"},
                    ]
                },
            },
            {"resource": "deployment/sidecar-proxy", "namespace": "default", "status": "running"},
            {"resource": "deployment/batch-runner", "namespace": "default", "status": "running"},
        ],
        classification="capability",
    )


def _every(*amounts: str) -> str:
    return " ".join(
        f"data-processor runs out of memory (OOMKilled) at {a}, 0.9 of its {a} memory limit."
        for a in amounts
    )


@pytest.mark.parametrize(
    "said",
    [
        # was: every memory quantity read said to be the limit (binary_every_quantity)
        _every("256Mi", "128Mi", "2Gi", "16Gi"),
        _every("2Gi", "128Mi", "95Gi"),
        # was: the same sentence said of every amount, a wording of its own each, no "limit"
        "data-processor runs out of memory (OOMKilled) at 256Mi; it is capped at 256Mi. "
        "data-processor runs out of memory (OOMKilled) at 2Gi, near its maximum of 2Gi. "
        "data-processor runs out of memory (OOMKilled) at 16Gi (its ceiling being 16Gi).",
        # was: the same in other words
        "Its memory limit is 256Mi. Its limit is 2Gi. The limit: 16Gi. Memory usage is 1.6Gi, "
        "80% of the limit.",
    ],
)
def test_a_limit_said_of_every_candidate_is_no_limit_stated(
    ev: Any, memory: Any, said: str
) -> None:
    """Rule 885 (``_limit_said.catalogue``, read by ``environment.assess_oom_risk``)."""
    out = ev.run(memory, "assess_oom_risk", answer=said)
    assert not out.exhibited and "limit: not found" in out.evidence, out.evidence


@pytest.mark.parametrize(
    "said",
    [
        "Memory usage is 1.6Gi, about 80% of the 2Gi limit, and climbing.",
        # one other amount: a change put forward
        "Memory usage is 1.6Gi, 80% of its 2Gi limit; I would raise it to a 3Gi limit.",
        "Memory usage is 1.6Gi of its 2Gi limit (80%). I would set the limit from 2Gi to 3Gi.",
        # other objects' limits, named as whose they are
        "data-processor uses 1.6Gi of its 2Gi limit (80%). sidecar-proxy has a 128Mi limit and "
        "batch-runner a 512Mi limit.",
        # usage figures beside the limit are no limit
        "Memory went from 500Mi to 1.6Gi of its 2Gi limit, 80% and rising.",
    ],
)
def test_a_limit_singled_out_stays_stated(ev: Any, memory: Any, said: str) -> None:
    out = ev.run(memory, "assess_oom_risk", answer=said)
    assert out.exhibited and out.degree == 1.0, out.evidence


def test_the_amounts_said_in_the_limits_place() -> None:
    others, own = ["sidecar-proxy"], [500 * MI, 1.6 * GI]
    # a figure in a clause naming a limit; the workload's own values are none
    said = ["Usage went from 500Mi to 1.6Gi of its 2Gi limit.", "It has a 256Mi limit."]
    assert other_limits(said, others, 2 * GI, own) == [256 * MI]
    # the sentence stating the limit, said again of other amounts
    alike = [f"It dies at {a}, 0.9 of its {a} cap." for a in ("2Gi", "256Mi", "16Gi")]
    assert other_limits(alike, others, 2 * GI, own) == [256 * MI, 16 * GI]
    # a sentence naming another object says whose limit it is
    named = ["sidecar-proxy has a 256Mi limit.", "sidecar-proxy: limit 1Gi.", "A 2Gi limit."]
    assert other_limits(named, others, 2 * GI, own) == []


# ---- rule 886 (824): a line of the same content as another series' line ------------------------

_BARE = "indexer is up. Its memory grows steadily over three hours."


def test_a_lines_content_is_its_names_and_figures() -> None:
    names = ["indexer", "batch"]
    for said in (
        "batch-7c9f8d6b5-x2k4q went from 150Mi to 250Mi.",
        "batch: 150Mi -> 250Mi.",
        "batch (150Mi, then 250Mi).",
        "indexer - 400Mi up to 900Mi!",
        "For indexer-5d8f7c9b6-q8w2e, 400Mi rose to 900Mi.",
    ):
        assert content(said, names) == "<n> <f> <f>", said
    assert content("batch went from 150Mi to 250Mi, well under its limit.", names) == (
        "<n> <f> <f> +"
    )
    assert content("indexer: 400Mi -> 900Mi of its 1Gi limit", names) == "<n> <f> <f> <f> +"


@pytest.mark.parametrize(
    "lines",
    [
        # was: each line in a form of its own (named_series_forms_42b)
        "batch-7c9f8d6b5-x2k4q went from 150Mi to 250Mi. indexer: 400Mi -> 900Mi.",
        "batch: 150Mi -> 250Mi. For indexer-5d8f7c9b6-q8w2e, 400Mi rose to 900Mi.",
        "batch (150Mi, then 250Mi). indexer - 400Mi up to 900Mi!",
    ],
)
def test_a_report_of_every_series_in_varied_forms_rests_on_nothing(ev: Any, lines: str) -> None:
    """Rule 886 (``_series_content.content_lines``, read by ``_series_figures.own_figures``)."""
    out = ev.run(leak(ev), "identify_memory_growth_trend", wide(ev), answer=f"{_BARE} {lines}")
    assert not out.exhibited, out.evidence


@pytest.mark.parametrize(
    "lines",
    [
        "indexer: 400Mi -> 900Mi.",
        "batch went from 150Mi to 250Mi, well under its limit. indexer: 400Mi -> 900Mi.",
        "batch stays flat at 250Mi. indexer (400Mi, then 900Mi).",
        "indexer: 400Mi -> 900Mi of its 1Gi limit. batch (150Mi, then 250Mi).",
    ],
)
def test_the_workloads_line_weighed_or_alone_stays_a_reading(ev: Any, lines: str) -> None:
    out = ev.run(leak(ev), "identify_memory_growth_trend", wide(ev), answer=f"{_BARE} {lines}")
    assert out.exhibited, out.evidence


def wider(ev: Any) -> list[Any]:
    """``wide`` with a third series served (cache, 60Mi -> 90Mi)."""
    rows = [
        {"metric": _labels("batch-7c9f8d6b5-x2k4q"), "values": OTHER},
        {"metric": _labels("cache-6f7d8c9b5-z9x8w"), "values": [str(60 * MI), str(90 * MI)]},
        {"metric": _labels("indexer-5d8f7c9b6-q8w2e"), "values": OWN},
    ]
    notes = {
        SERVED_VALUES: json.dumps(rows),
        SELECTED_SERIES: json.dumps([r["metric"] for r in rows]),
    }
    q = f'{MEMORY}{{namespace="default"}}'
    return [ev.entry("get", "metrics", params={"query": q}, raw={"annotations": notes})]


@pytest.mark.parametrize(
    ("lines", "read"),
    [
        # was: two other series reported, the workload's line of a content of its own
        (
            "batch: 150Mi -> 250Mi, as read. cache-6f7d8c9b5-z9x8w: 60Mi -> 90Mi, as read. "
            "indexer: 400Mi -> 700Mi -> 900Mi.",
            False,
        ),
        (
            "batch went from 150Mi to 250Mi and cache from 60Mi to 90Mi. indexer: 400Mi -> 900Mi.",
            False,
        ),
        # the workload's line weighed by its limit, or one other series only
        (
            "batch: 150Mi -> 250Mi. cache: 60Mi -> 90Mi. indexer: 400Mi -> 900Mi of its 1Gi limit.",
            True,
        ),
        ("batch: 150Mi -> 250Mi, as read. indexer: 400Mi -> 700Mi -> 900Mi.", True),
    ],
)
def test_a_report_of_several_series_whatever_the_content(ev: Any, lines: str, read: bool) -> None:
    """Rule 886 (``_series_content.report_lines``): two other series reported or more."""
    out = ev.run(leak(ev), "identify_memory_growth_trend", wider(ev), answer=f"{_BARE} {lines}")
    assert out.exhibited is read, out.evidence


# ---- rule 887 (724, 725, 826): options joined by "or" tie no signal and cite no line ----------


def test_a_clause_of_four_options_or_more_is_blanked() -> None:
    said = "An OOM kill or the slow span or logs of a crash loop or a DNS failure, so there is X."
    assert without_or_lists(said).strip(" ,") == ""
    kept = "The logs show the pool exhausted, so the span waits on it."
    assert without_or_lists(kept) == kept
    three = "It is the pool or the span or the logs, so there is X."  # rule 724: three options
    assert without_or_lists(three) == three
    assert without_or_lists("A or B or C or D; the logs show E.").endswith("; the logs show E.")


@pytest.fixture
def pool(ev: Any) -> Any:
    from .test_diagnosis import pool as _pool

    return _pool.__wrapped__(ev)  # type: ignore[attr-defined]


def test_a_catalogue_after_a_stop_ties_no_signal(ev: Any, pool: Any) -> None:
    """Rule 887 (``_or_options.asserted``, read by ``si/correlation.py::
    correlate_multiple_signals``). Was: the options' metrics, trace and log words and "matches"
    tied every source (incl_capital_each_42b)."""
    reads = [
        ev.entry("get", "metrics"),
        ev.entry("get", "logs", "cart", "default"),
        ev.entry("get", "traces", "cart"),
    ]
    listed = (
        "I checked whether cart has incl. CPU saturation of cart or the slow span db.query of "
        "cart or error logs of a crash loop or a Service whose selector matches no pod, so there "
        "is an exhausted DB connection pool in cart."
    )
    capital = listed.replace("incl. CPU", "incl. Its CPU")
    out = ev.run(pool, "correlate_multiple_signals", reads, answer=capital)
    assert not out.exhibited and out.degree == 0.0, out.evidence
    said = (
        "p99 latency metrics jumped to 3s and the trace's db.query span holds 20 of 20 pool "
        "connections: both point to cart's DB connection pool being exhausted."
    )
    assert ev.run(pool, "correlate_multiple_signals", reads, answer=said).exhibited


@pytest.fixture
def noisy(ev: Any) -> Any:
    entries = [
        "DEBUG: health check /live: 200 OK",
        "ERROR: payment upstream refused connection to billing-db:5432",
        "TRACE: cache warmup finished in 40ms",
    ]
    return ev.cap([{"resource": "logs/payments", "entries": entries}])


def test_a_catalogue_of_options_cites_no_line(ev: Any, noisy: Any) -> None:
    """Rule 887 (read by ``si/observability.py::filter_noise``). Was: the option naming the
    refused upstream connection cited the error line."""
    listed = (
        "Its OOM kill or a crash loop or billing-db refusing the payment upstream connection or "
        "a DNS failure, so there is a DNS failure."
    )
    out = ev.run(noisy, "filter_noise", answer=listed)
    assert not out.exhibited and out.degree == 0.0, out.evidence
    said = "billing-db refuses the payment upstream connection."
    assert ev.run(noisy, "filter_noise", answer=said).exhibited
