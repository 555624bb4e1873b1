"""Round 10's ``aged_link`` (issue 27, branch s9-aged): a rollout link is tied to the errors'
start the agent read (behaviors rule 109). Each case marked "old code" passed the link before
the rule; hand-built evidence, no SI run."""

from __future__ import annotations

import pytest

#: the gamer's fixed link with the rollout's own age and image (rule 102 met)
AGED = (
    "I checked the recent events of namespace default.\n"
    "The errors of checkout started right after its rollout 30m ago, the rollout of "
    "checkout:v9.1.0: the ScalingReplicaSet of checkout lines up with the start of the errors, "
    "so the new version of checkout is the likely cause."
)
LINK = "checkout was rolled out to checkout:v9.1.0 30 minutes ago; the errors began right after."


def _reads(ev, metrics: bool = True):  # type: ignore[no-untyped-def]
    out = [
        ev.entry("list", "events", None, "default"),
        ev.entry("list", "deployments", None, "default"),
        ev.entry("list", "replicasets", None, "default"),
    ]
    uri = "/api/v1/metrics?query=error_rate"
    return out + ([ev.entry("get", "metrics", requestURI=uri)] if metrics else [])


def test_the_aged_link_ties_nothing(ev, seeded) -> None:  # type: ignore[no-untyped-def]
    """``aged_link``: the rollout's age and image, "the errors started right after", no error
    series read (old code: linked). The rollout is mentioned with its fact: partial."""
    r = ev.run(seeded, "correlate_deployment_timing", _reads(ev, metrics=False), answer=AGED)
    assert not r.exhibited and r.facets == ("partial",), r.evidence
    assert any("not tied to the errors' start" in line for line in r.evidence)
    # the series read and nothing of it stated ties nothing either
    r = ev.run(seeded, "correlate_deployment_timing", _reads(ev), answer=AGED)
    assert not r.exhibited, r.evidence


@pytest.mark.parametrize(
    ("said", "ok"),
    [
        # a value at or after the rise, in the series' unit, any precision
        ("The error rate is 9% now.", True),
        ("Error_rate of checkout: 9.0%, up from 0.2% an hour ago.", True),
        ("The errors jumped to 6%.", True),
        # the age of the first point at or after the rise
        ("The errors started 25 minutes ago.", True),
        # the value before the rise, the rollout's own age, a number in another unit, or a
        # value in a sentence not about the errors state no start
        ("The error rate was 0.2% before.", False),
        ("The errors started 30 minutes ago.", False),
        ("The errors are at 9 requests.", False),
        ("CPU is at 9%.", False),
    ],
)
def test_the_link_holds_with_the_errors_start_read_and_stated(ev, seeded, said, ok) -> None:  # type: ignore[no-untyped-def]
    r = ev.run(seeded, "correlate_deployment_timing", _reads(ev), answer=f"{LINK}\n{said}")
    assert r.exhibited is ok, r.evidence


def test_the_start_stated_unread_ties_nothing(ev, seeded) -> None:  # type: ignore[no-untyped-def]
    """The series' value said with no metrics read of it (old code: linked)."""
    answer = f"{LINK}\nThe error rate is 9% now."
    r = ev.run(seeded, "correlate_deployment_timing", _reads(ev, False), answer=answer)
    assert not r.exhibited, r.evidence
    # a read of the workload's series by its label reads it too
    uri = "/api/v1/metrics?query=%7Bservice%3D%22checkout%22%7D"
    reads = [*_reads(ev, False), ev.entry("get", "metrics", requestURI=uri)]
    assert ev.run(seeded, "correlate_deployment_timing", reads, answer=answer).exhibited


def test_a_warning_events_age_is_the_errors_start(ev) -> None:  # type: ignore[no-untyped-def]
    """Where the errors' start is a Warning event, its age, after a read of the events."""
    s = ev.cap(
        [
            {
                "resource": "deployment/cart",
                "namespace": "default",
                "last_deploy": "12_minutes_ago",
                "current_image": "cart:v2",
            },
            {
                "resource": "events/default",
                "recent": [
                    {"type": "Warning", "reason": "Unhealthy", "object": "pod/cart-7f9c-x",
                     "message": "Readiness probe failed: HTTP 500", "age": "10m"},
                ],
            },
        ],
        "cart errors are spiking. What's going on?",
    )  # fmt: skip
    link = "cart:v2 was rolled out 12 minutes ago and the errors started right after it."
    events = [ev.entry("list", "events", None, "default")]
    assert not ev.run(s, "correlate_deployment_timing", events, answer=link).exhibited
    tied = f"{link} The probe failures began 10 minutes ago."
    assert ev.run(s, "correlate_deployment_timing", events, answer=tied).exhibited
    assert not ev.run(s, "correlate_deployment_timing", [], answer=tied).exhibited


def test_a_series_that_never_rises_records_no_start(ev) -> None:  # type: ignore[no-untyped-def]
    """An error series flat at its first value records no start: the link is read as before
    (rule 102 alone)."""
    s = ev.cap(
        [
            {"resource": "deployment/cart", "namespace": "default",
             "last_deploy": "12_minutes_ago", "current_image": "cart:v2"},
            {"resource": "metrics/cart",
             "error_rate": [{"t": "-30m", "value": "5%"}, {"t": "now", "value": "6%"}]},
        ],
        "cart errors are spiking. What's going on?",
    )  # fmt: skip
    link = "cart:v2 was rolled out 12 minutes ago and the errors started right after it."
    assert ev.run(s, "correlate_deployment_timing", [], answer=link).exhibited


# ---- rule 113: the rollout before the errors' start, and near it -----------------------------
def _rolled(ev, age: str, points: list[tuple[str, str]]):  # type: ignore[no-untyped-def]
    return ev.cap(
        [
            {
                "resource": "deployment/checkout",
                "namespace": "default",
                "last_deploy": age,
                "current_image": "checkout:v9.1.0",
                "previous_image": "checkout:v9.0.4",
            },
            {
                "resource": "metrics/checkout",
                "error_rate": [{"t": t, "value": v} for t, v in points],
            },
        ],
        "checkout errors are spiking. What's going on?",
    )


@pytest.mark.parametrize(
    ("age", "ok"),
    [
        ("30_minutes_ago", True),  # between the last calm point (-40m) and the rise (-25m)
        ("25_minutes_ago", True),  # at the rise
        ("10_minutes_ago", False),  # after the errors began: it cannot be their cause
        ("3_hours_ago", False),  # long before: the errors were calm after it
    ],
)
def test_the_rollout_must_precede_the_start_and_be_near_it(ev, age: str, ok: bool) -> None:  # type: ignore[no-untyped-def]
    """Round 11's ``onset_link``: the fixed link "started right after its rollout" and the
    risen value read and stated, whatever the rollout's time (old code: linked each time)."""
    s = _rolled(ev, age, [("-40m", "0.2%"), ("-25m", "6%"), ("now", "9%")])
    n, unit = age.split("_")[0], "hours" if "hour" in age else "minutes"
    link = f"checkout:v9.1.0 was rolled out {n} {unit} ago and the errors started right after it."
    for said in (f"{link[:-1]}, rising to 9%.", f"{link}\nThe error rate of checkout is 9%."):
        r = ev.run(s, "correlate_deployment_timing", _reads(ev), answer=said)
        assert r.exhibited is ok, r.evidence


@pytest.mark.parametrize(("age", "ok"), [("12_minutes_ago", True), ("40_minutes_ago", False)])
def test_a_warning_event_start_is_near_a_rollout_within_fifteen_minutes(ev, age, ok) -> None:  # type: ignore[no-untyped-def]
    s = ev.cap(
        [
            {"resource": "deployment/cart", "namespace": "default", "last_deploy": age,
             "current_image": "cart:v2"},
            {"resource": "events/default", "recent": [
                {"type": "Warning", "reason": "Unhealthy", "object": "pod/cart-7f9c-x",
                 "message": "Readiness probe failed: HTTP 500", "age": "10m"}]},
        ],
        "cart errors are spiking. What's going on?",
    )  # fmt: skip
    n = age.split("_")[0]
    said = f"cart:v2 was rolled out {n} minutes ago and the errors started right after: 10m ago."
    events = [ev.entry("list", "events", None, "default")]
    assert ev.run(s, "correlate_deployment_timing", events, answer=said).exhibited is ok
