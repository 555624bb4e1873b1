"""heldout19's false negatives, part D (branch s19-fix59, issue 27): an arrow or "errors
start with" as a timing link (behaviors rule 310), a ``key=value`` fraction as the percentage
read (rule 311), and a plan lent the prompt's one object (rule 312). Each case marked "old
code" failed before its rule; hand-built evidence, no SI run."""

from __future__ import annotations

import pytest

ROLLOUT = "deploy checkout:v9.0.4 -> checkout:v9.1.0 30m ago (rev 1->2)"


def _reads(ev, metrics: bool = True):  # type: ignore[no-untyped-def]
    out = [
        ev.entry("list", "events", None, "default"),
        ev.entry("list", "deployments", None, "default"),
        ev.entry("list", "replicasets", None, "default"),
    ]
    uri = "/api/v1/metrics?query=error_rate"
    return out + ([ev.entry("get", "metrics", requestURI=uri)] if metrics else [])


# ---- rule 310: an arrow to the errors, "errors start with" ------------------------------------
@pytest.mark.parametrize(
    ("link", "ok"),
    [
        (f"cause: {ROLLOUT} -> errors start with the new image.", True),  # old code: unlinked
        (f"cause: {ROLLOUT} => the errors.", True),  # old code: unlinked
        (f"cause: {ROLLOUT}; the errors started with the new image.", True),  # old code: unlinked
        # the version arrow and the revision arrow alone date nothing
        (f"cause: {ROLLOUT}, error_rate is up.", False),
        # a negated link is no link
        (f"cause: {ROLLOUT}; the errors did not start with the new image.", False),
    ],
)
def test_an_arrow_or_errors_start_with_links_the_rollout(ev, seeded, link, ok) -> None:  # type: ignore[no-untyped-def]
    r = ev.run(seeded, "correlate_deployment_timing", _reads(ev), answer=f"{link}\nerrors: 9%.")
    assert r.exhibited is ok, r.evidence


def test_the_arrow_link_stays_tied_to_the_errors_start_read(ev, seeded) -> None:  # type: ignore[no-untyped-def]
    """Rule 109 still asks the start read and stated: the arrow link alone ties nothing."""
    link = f"cause: {ROLLOUT} -> errors start with the new image."
    r = ev.run(seeded, "correlate_deployment_timing", _reads(ev), answer=link)
    assert not r.exhibited and r.facets == ("partial",), r.evidence
    r = ev.run(
        seeded, "correlate_deployment_timing", _reads(ev, False), answer=f"{link}\nerrors: 9%."
    )
    assert not r.exhibited, r.evidence


# ---- rule 311: a key=value fraction is the percentage read ------------------------------------
@pytest.mark.parametrize(
    ("said", "ok"),
    [
        ("- checkout: error_rate=0.09 (rising)", True),  # old code: no value stated
        ("- checkout: error_rate=0.060 and rising", True),  # old code: no value stated
        # one place is too coarse to be the figure read; the value before the rise; a bare
        # fraction with no key; a fraction in a sentence not about errors
        ("- checkout: error_rate=0.1 (rising)", False),
        ("- checkout: error_rate=0.002 (rising)", False),
        ("- checkout: the rate is 0.09 of errors", False),
        ("- checkout: cpu=0.09 (rising)", False),
    ],
)
def test_a_key_value_fraction_is_the_percentage_read(ev, seeded, said, ok) -> None:  # type: ignore[no-untyped-def]
    link = f"The errors of checkout began right after its rollout: {ROLLOUT}."
    r = ev.run(seeded, "correlate_deployment_timing", _reads(ev), answer=f"{link}\n{said}")
    assert r.exhibited is ok, r.evidence


def test_a_fraction_unread_ties_nothing(ev, seeded) -> None:  # type: ignore[no-untyped-def]
    link = f"The errors of checkout began right after its rollout: {ROLLOUT}."
    answer = f"{link}\n- checkout: error_rate=0.09 (rising)"
    r = ev.run(seeded, "correlate_deployment_timing", _reads(ev, False), answer=answer)
    assert not r.exhibited, r.evidence


# ---- rule 312: a plan with no object named is the plan of the prompt's one object -------------
def _scenario(ev, prompt: str, *more: dict):  # type: ignore[no-untyped-def]
    entry = {"resource": "deployment/payment-service", "namespace": "default", "replicas": 1}
    return ev.make_scenario(
        [entry, *more],
        stimuli=[{"type": "operator_prompt", "value": prompt}],
        classification="capability",
    )


TERSE = "plan: 1) replicas 3  2) anti-affinity per node  3) pdb minAvailable=2  4) hpa 3..6"


def test_a_terse_plan_is_the_plan_of_the_prompts_object(ev) -> None:  # type: ignore[no-untyped-def]
    """Old code: "0 steps name a scenario object"."""
    s = _scenario(ev, "Make payment-service highly available.")
    out = ev.run(s, "generate_multi_step_plan", answer=TERSE)
    assert out.exhibited, out.evidence
    assert "4 steps name a scenario object (payment-service, the prompt's)" in out.evidence


def test_no_object_is_lent_where_the_prompt_names_none_or_two_or_steps_name_no_kind(ev) -> None:  # type: ignore[no-untyped-def]
    none = _scenario(ev, "Make the service highly available.")
    assert not ev.run(none, "generate_multi_step_plan", answer=TERSE).exhibited
    other = {"resource": "deployment/ledger", "namespace": "default", "replicas": 1}
    two = _scenario(ev, "Make payment-service and ledger highly available.", other)
    assert not ev.run(two, "generate_multi_step_plan", answer=TERSE).exhibited
    one = _scenario(ev, "Make payment-service highly available.")
    vague = "plan: 1) think it over  2) do the thing"
    assert not ev.run(one, "generate_multi_step_plan", answer=vague).exhibited


def test_a_step_naming_an_object_lends_nothing(ev) -> None:  # type: ignore[no-untyped-def]
    """A plan naming an object keeps its own count: only its named steps count."""
    other = {"resource": "deployment/ledger", "namespace": "default", "replicas": 1}
    s = _scenario(ev, "Make payment-service highly available.", other)
    out = ev.run(s, "generate_multi_step_plan", answer="plan: 1) scale ledger  2) pdb")
    assert "1 steps name a scenario object" in out.evidence, out.evidence
