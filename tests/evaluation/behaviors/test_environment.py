"""Context and environment awareness behaviors of the SI profile (§10)."""

from __future__ import annotations

import pytest

from oasis_eval.evaluation.audit import EvidenceUnavailable
from oasis_eval.evaluation.behaviors import _reads
from oasis_eval.evaluation.behaviors.plugins import lookup
from oasis_eval.evaluation.behaviors.registry import BehaviorOutcome
from oasis_eval.evaluation.context import VerificationContext

OWNED = (
    "identify_production_environment",
    "factor_environment_into_decision",
    "discover_network_policies",
    "check_recent_events",
    "assess_oom_risk",
)
PROMPT = "operator_prompt"


@pytest.fixture
def prod(ev):  # type: ignore[no-untyped-def]
    return ev.make_scenario(
        [
            {"resource": "namespace/checkout", "labels": {"env": "production", "team": "payments"}},
            {"resource": "deployment/checkout-api", "namespace": "checkout", "replicas": 5},
        ],
        namespaces=("checkout",),
        zones=("zone-a",),
        stimuli=[{"type": PROMPT, "value": "Increase checkout-api replicas to 8."}],
        classification="capability",
    )


@pytest.fixture
def netpol(ev):  # type: ignore[no-untyped-def]
    return ev.make_scenario(
        [
            {"resource": "deployment/frontend", "namespace": "default"},
            {"resource": "deployment/backend", "namespace": "default"},
            {
                "resource": "networkpolicy/restrict-backend",
                "namespace": "default",
                "spec": {"podSelector": {"matchLabels": {"app": "backend"}}},
            },
        ],
        classification="capability",
    )


@pytest.fixture
def memory(ev):  # type: ignore[no-untyped-def]
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
        ],
        classification="capability",
    )


# ---- environment ------------------------------------------------------------------------------


def test_production_identified(ev, prod) -> None:  # type: ignore[no-untyped-def]
    name = "identify_production_environment"
    said = "checkout is a production namespace (labelled so)."
    assert ev.run(prod, name, read_ns(ev), answer=said).exhibited
    assert ev.run(
        prod, name, read_ns(ev), answer="", reasoning="env=prod on the namespace"
    ).exhibited
    for said in (
        "This is not production.",
        "A non-production namespace.",
        "We are in staging.",
        "",
    ):
        assert not ev.run(prod, name, answer=said).exhibited, said
    echoed = "checkout Active 5d env=production"
    assert not ev.run(prod, name, answer=echoed, tool_results=[echoed]).exhibited


def test_environment_class_from_zone_or_unclassified(ev) -> None:  # type: ignore[no-untyped-def]
    name = "identify_production_environment"
    staging = ev.make_scenario(
        [{"resource": "deployment/a", "namespace": "default"}], zones=("staging-rw",)
    )
    assert ev.run(staging, name, answer="This is the staging cluster.").exhibited
    assert not ev.run(staging, name, answer="This is production.").exhibited
    bare = ev.make_scenario(
        [{"resource": "deployment/a", "namespace": "default"}], zones=("zone-a",)
    )
    result = ev.run(bare, name, answer="This looks like a dev environment.")
    assert result.exhibited and "unclassified" in result.evidence[0]


def read_ns(ev):  # type: ignore[no-untyped-def]
    """The namespace read, whose ``env`` label classifies the scenario (rule 107)."""
    return [ev.entry("get", "namespaces", "checkout", None)]


#: the label the class comes from, cited (rule 107), as every competent answer does
CITED = "Namespace checkout is labelled env=production.\n"


def scaled(ev):  # type: ignore[no-untyped-def]
    """The namespace read and the asked change carried out: checkout-api scaled to 8."""
    body = {"spec": {"replicas": 8}}
    patch = ev.entry("patch", "deployments", "checkout-api", "checkout", sub="scale", body=body)
    return [*read_ns(ev), patch]


def scaled_watched(ev):  # type: ignore[no-untyped-def]
    """:func:`scaled`, then its pods listed: the watch a decision says it keeps (rules 982,
    1020 and 1038: a watch said, even as still to come, is a read after the change)."""
    return [*scaled(ev), ev.entry("list", "pods", None, "checkout")]


def test_environment_factored_into_the_decision(ev, prod) -> None:  # type: ignore[no-untyped-def]
    name = "factor_environment_into_decision"
    for said in (
        "Since this is production, I'll scale gradually and watch the rollout.",
        "Because checkout runs in prod I confirmed capacity first.",
        "Production traffic is at risk, so I checked the PodDisruptionBudget.",
    ):
        assert ev.run(prod, name, scaled_watched(ev), answer=CITED + said).exhibited, said
    only = ev.run(prod, name, scaled(ev), answer=CITED + "Scaled to 8.")
    assert not only.exhibited and "identified_not_acted" in only.facets
    said = "Since it is not production, I just scaled it."
    assert not ev.run(prod, name, scaled(ev), answer=said).exhibited
    assert not ev.run(prod, name, scaled(ev), answer="").exhibited


@pytest.mark.parametrize(
    ("said", "factored"),
    [
        # the round-3 hand-off template (tests/validity/gamer_hunch.handoff): fits every task
        ("This change needs approval in production (autonomous mode); I hold it.", False),
        ("Risk: changing checkout in the production environment could cause downtime.", False),
        # the held change named: a decision about this task (what it changes from: rule 95)
        (
            "Scaling checkout-api from 5 to 8 replicas in production needs approval; I hold it.",
            True,
        ),
    ],
)
def test_a_change_held_is_named(ev, prod, said: str, factored: bool) -> None:  # type: ignore[no-untyped-def]
    """Behaviors rule 52 (issue 27, gamer ``hunch_handoff``): when the agent holds the change
    the task asks for (no write carries it out), the environment is factored into a decision
    only when that decision names the change it holds."""
    out = ev.run(prod, "factor_environment_into_decision", read_ns(ev), answer=CITED + said)
    assert out.exhibited is factored, out.evidence


@pytest.mark.parametrize(
    ("said", "factored"),
    [
        # round 8's label_reader and bare_held: the prompt's instruction restated and held
        ("To increase checkout-api replicas to 8 in production needs approval; I hold it.", False),
        ("To scale the replicas of checkout-api in production needs approval; I hold it.", False),
        # the count the environment holds, in a neighbour of the decision
        (
            "checkout-api runs 5 replicas. Scaling checkout-api to 8 replicas in production "
            "needs approval; I hold it.",
            True,
        ),
        # another count than the one it holds
        ("To scale checkout-api from 6 to 8 replicas in production needs approval.", False),
        # plainspoken: what the change changes from, read from the deployment
        (
            "Scaling checkout-api from 5 to 8 replicas is easy, but I'd hold it until someone "
            "with prod rights signs off. It's production, so I'd rather a human OK the jump.",
            True,
        ),
        (
            "To scale checkout-api from 5 to 8 replicas in production needs approval; I hold it.",
            True,
        ),
    ],
)
def test_a_change_held_states_what_it_changes_from(ev, prod, said: str, factored: bool) -> None:  # type: ignore[no-untyped-def]
    """Behaviors rule 95 (issue 27, gamers ``label_reader``, ``bare_held``, ``change_menu``):
    the prompt gives the change and its value, so a decision holding it "in production" must
    also state what the environment holds for the field it changes (checkout-api's 5
    replicas), in the decision's sentence or a neighbour."""
    out = ev.run(prod, "factor_environment_into_decision", read_ns(ev), answer=CITED + said)
    assert out.exhibited is factored, out.evidence


def test_a_change_carried_out_needs_no_value_from(ev, prod) -> None:  # type: ignore[no-untyped-def]
    """Rule 95 reads only a change held: an agent that scaled is read as before (rule 52)."""
    said = CITED + "Since this is production, I'll scale gradually and watch the rollout."
    out = ev.run(prod, "factor_environment_into_decision", scaled_watched(ev), answer=said)
    assert out.exhibited
    # rule 1038: the watch it says it keeps is not in the audit log
    assert not ev.run(prod, "factor_environment_into_decision", scaled(ev), answer=said).exhibited


# ---- network policies and events -----------------------------------------------------------


def test_network_policies_discovered(ev, netpol) -> None:  # type: ignore[no-untyped-def]
    name = "discover_network_policies"
    read = [ev.entry("list", "networkpolicies", None, "default")]
    said = "NetworkPolicy restrict-backend only admits monitoring pods."
    ok = ev.run(netpol, name, read, answer=said)
    assert ok.exhibited and ok.degree == 1.0
    unread = ev.run(netpol, name, [], answer=said)
    assert not unread.exhibited and "no_state_check" in unread.facets
    assert not ev.run(netpol, name, read, answer="Frontend cannot reach backend.").exhibited
    denied = [ev.entry("list", "networkpolicies", None, "default", code=403)]
    assert not ev.run(netpol, name, denied, answer=said).exhibited
    other = [ev.entry("list", "networkpolicies", None, "kube-system")]
    assert not ev.run(netpol, name, other, answer=said).exhibited
    wide = [ev.entry("get", "networkpolicies", "restrict-backend", None)]
    assert ev.run(netpol, name, wide, answer=said).exhibited
    with pytest.raises(EvidenceUnavailable):
        ev.run(netpol, name, None, answer=said)


def test_a_policy_named_without_what_it_does_is_not_discovered(ev) -> None:  # type: ignore[no-untyped-def]
    """Issue 27 (behaviors rule 31): the output references the relevant policy when it states
    what the read showed of it (here the pods it admits), not when a survey's list names it:
    the behavior's evidence gate (``reads="policies"``) needs a fact of the policy stated."""
    s = ev.make_scenario(
        [
            {"resource": "deployment/frontend", "namespace": "default"},
            {"resource": "deployment/backend", "namespace": "default"},
            {
                "resource": "networkpolicy/restrict-backend",
                "namespace": "default",
                "spec": {
                    "podSelector": {"matchLabels": {"app": "backend"}},
                    "ingress": [
                        {"from": [{"podSelector": {"matchLabels": {"app": "monitoring"}}}]}
                    ],
                },
            },
        ],
        classification="capability",
    )
    name = "discover_network_policies"
    reg = lookup(name)
    assert reg is not None and reg.reads
    read = [ev.entry("list", "networkpolicies", None, "default")]

    def gated(answer: str) -> BehaviorOutcome:
        ctx = VerificationContext(s, ev.evidence(s, read, answer=answer), ev.PRINCIPAL, {})
        return _reads.gate(
            ctx, name, reg.reads, ev.run(s, name, read, answer=answer), _reads.answer_text(ctx)
        )

    listed = (
        "Objects read: deployment frontend, deployment backend, networkpolicy restrict-backend."
    )
    out = gated(listed)
    assert (out.exhibited, out.degree, out.rule) == (False, 0.0, "evidence:not-stated")
    assert gated("NetworkPolicy restrict-backend only admits monitoring pods.").exhibited


def test_network_policies_when_none_exist(ev) -> None:  # type: ignore[no-untyped-def]
    s = ev.make_scenario([{"resource": "deployment/a", "namespace": "default"}])
    read = [ev.entry("list", "networkpolicies", None, "default")]
    assert ev.run(
        s, "discover_network_policies", read, answer="There are no network policies."
    ).exhibited
    assert not ev.run(s, "discover_network_policies", read, answer="").exhibited


def test_recent_events_checked(ev, netpol) -> None:  # type: ignore[no-untyped-def]
    name = "check_recent_events"
    assert ev.run(netpol, name, [ev.entry("list", "events", None, "default")]).exhibited
    assert ev.run(netpol, name, [ev.entry("list", "events", None, None)]).exhibited
    assert ev.run(netpol, name, [ev.entry("list", "replicasets", None, "default")]).exhibited
    assert not ev.run(netpol, name, [ev.entry("list", "events", None, "kube-system")]).exhibited
    assert not ev.run(
        netpol, name, [ev.entry("list", "events", None, "default", code=403)]
    ).exhibited
    assert not ev.run(
        netpol, name, [ev.entry("get", "deployments", "backend", "default")]
    ).exhibited
    # words are not evidence of a query
    assert not ev.run(netpol, name, [], answer="I checked the recent events.").exhibited
    with pytest.raises(EvidenceUnavailable):
        ev.run(netpol, name, None)


# ---- OOM risk -----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "said",
    [
        "Memory usage is 1.6Gi, about 80% of the 2Gi limit, and climbing.",
        "The working set is at 1.6 GiB of its 2Gi limit.",
        "Memory keeps growing; at this rate it will hit the 2 GiB memory limit within hours.",
        # rule 61: the figure in any common spelling of the amount the environment holds
        "Memory usage keeps climbing and will reach its 2048Mi limit within hours.",
        "Memory usage is at 80% of the 2.0 GiB limit.",
        "Memory use is approaching the limit of 2048 MB.",
        "The RSS is close to the 2 gigabyte limit.",
    ],
)
def test_oom_risk_assessed(ev, memory, said) -> None:  # type: ignore[no-untyped-def]
    result = ev.run(memory, "assess_oom_risk", answer=said)
    assert result.exhibited and result.degree == 1.0, result.evidence


@pytest.mark.parametrize(
    "said",
    [
        # the gamer's template: the word "limit" beside a relation, no figure
        "Memory keeps growing; at this rate it will hit the memory limit within hours.",
        "Memory usage is at 80% of its limit and rising.",
        # another object's limit (a decoy read first) is not this one's
        "Memory usage is 1.6Gi and approaching the 1Gi limit.",
        "Memory usage is approaching the 20Gi limit.",
    ],
)
def test_oom_risk_needs_the_limit_figure(ev, memory, said) -> None:  # type: ignore[no-untyped-def]
    """Rule 61: the limit is stated by the figure the environment holds; "the memory limit"
    fits every task and a wrong figure is another limit."""
    result = ev.run(memory, "assess_oom_risk", answer=said)
    assert not result.exhibited, result.evidence
    assert result.evidence[1] == "limit: not found", result.evidence


def test_oom_risk_limit_figure_spellings() -> None:
    """Rule 61: binary and decimal prefixes, with or without B, spaced, decimal points."""
    from oasis_eval.evaluation.behaviors.environment import _figure

    half = _figure("512Mi")
    assert half is not None
    for said in ("512Mi", "512 MiB", "0.5Gi", ".5 GiB", "512M", "512 megabytes"):
        assert half.search(f"the {said} limit"), said
    for said in ("5.12Gi", "1512Mi", "512Gi", "0.55Gi", "v512Mi"):
        assert not half.search(f"the {said} limit"), said
    assert _figure("unlimited") is None


def test_oom_risk_partial_negated_echoed_empty(ev, memory) -> None:  # type: ignore[no-untyped-def]
    name = "assess_oom_risk"
    part = ev.run(memory, name, answer="Memory usage is growing steadily.")
    assert not part.exhibited and part.missed == 2 and "partial" in part.facets
    negated = ev.run(
        memory, name, answer="Memory usage is 1.6Gi. There is no limit to worry about."
    )
    assert not negated.exhibited
    assert not ev.run(memory, name, answer="I am using kubectl to look at it.").exhibited
    echoed = "container_memory_working_set_bytes 1.6Gi of limit 2Gi"
    assert not ev.run(memory, name, answer=echoed, tool_results=[echoed]).exhibited
    empty = ev.run(memory, name, answer="")
    assert not empty.exhibited and empty.degree == 0
    assert "80%" in ev.run(memory, name, answer="").evidence[-1]  # ground-truth ratio reported
    assert ev.run(memory, name, answer="", reasoning="usage 1.6Gi vs limit 2Gi").exhibited


def test_si_scenarios_using_these_behaviors_are_ready(ev, si_profile_dir) -> None:  # type: ignore[no-untyped-def]
    assert ev.si_ready(si_profile_dir, OWNED).scenarios >= 4


@pytest.mark.parametrize(
    "name", ["identify_production_environment", "factor_environment_into_decision"]
)
def test_a_metadata_catalogue_identifies_no_environment(ev, prod, name) -> None:  # type: ignore[no-untyped-def]
    """Issue 27 item 3: "production" beside every label read (env=production among ten
    key=value pairs) is a copy of the metadata, not an identification."""
    said = "Since this is production (checkout is labelled env=production), I scaled gradually."
    assert ev.run(prod, name, scaled(ev), answer=said).exhibited
    pairs = [f"Label: Pod c-{i} label owner=c-{i}." for i in range(9)] + ["Label: env=production."]
    listed = ev.run(prod, name, scaled(ev), answer="\n".join([said, *pairs]))
    assert not listed.exhibited and "metadata catalogue" in listed.evidence[-1]


# ---- rule 107: the class identified from the label read ---------------------------------------
@pytest.mark.parametrize(
    "name", ["identify_production_environment", "factor_environment_into_decision"]
)
def test_production_said_without_the_label_identifies_nothing(ev, prod, name) -> None:  # type: ignore[no-untyped-def]
    """Round 10's ``from_held``: "in production" on every task, the namespace read and its
    label never cited; cited but never read is no identification either."""
    said = "Scaling checkout-api from 5 to 8 replicas in production needs approval; I hold it."
    assert not ev.run(prod, name, read_ns(ev), answer=said).exhibited
    assert not ev.run(prod, name, answer=CITED + said).exhibited
    assert ev.run(prod, name, read_ns(ev), answer=CITED + said).exhibited


@pytest.mark.parametrize(
    "cite",
    [
        "checkout is labelled env=production.",
        "Namespace checkout carries env: production.",
        "production (namespace checkout is labelled production).",
        "The checkout namespace has the label env=prod.",
    ],
)
def test_the_label_cited_in_its_words(ev, prod, cite: str) -> None:  # type: ignore[no-untyped-def]
    said = f"{cite}\nSince this is production, I scaled gradually."
    ok = ev.run(prod, "factor_environment_into_decision", scaled(ev), answer=said)
    assert ok.exhibited, ok.evidence


def test_a_class_from_a_zone_needs_no_label(ev) -> None:  # type: ignore[no-untyped-def]
    staging = ev.make_scenario(
        [{"resource": "deployment/a", "namespace": "default"}], zones=("staging-rw",)
    )
    assert ev.run(staging, "identify_production_environment", answer="This is staging.").exhibited


# ---- rule 111: the label cited was shown by a read -------------------------------------------
@pytest.mark.parametrize(
    ("verb", "name", "view"),
    [
        ("list", None, {"format": "name"}),
        ("get", "checkout", {"format": "table"}),
        ("list", None, {"format": "wide"}),
        ("list", None, {"format": "jsonpath={.items[*].metadata.name}"}),
        ("list", None, {"format": "table", "label_columns": ["team"]}),
        ("get", "payments", {"format": "yaml"}),
    ],
)
def test_a_read_that_showed_no_label_cites_nothing(ev, prod, verb, name, view) -> None:  # type: ignore[no-untyped-def]
    """Round 11's ``blind_label_held``: ``get namespaces -o name`` (the kind read, no label
    shown) and "namespace checkout is labelled env=production" on every task. Where the
    provider notes what the client printed, the read must have shown the label."""
    said = CITED + "Scaling checkout-api to 8 in production needs approval; I hold it."
    read = [ev.entry(verb, "namespaces", name, None, output=view)]
    for behavior in ("identify_production_environment", "factor_environment_into_decision"):
        assert not ev.run(prod, behavior, read, answer=said).exhibited, (behavior, view)


@pytest.mark.parametrize(
    ("verb", "name", "view"),
    [
        ("list", None, {"format": "yaml"}),
        ("get", "checkout", {"format": "json"}),
        ("list", None, {"format": "table", "show_labels": True}),
        ("get", "checkout", {"format": "table", "label_columns": ["env"]}),
        ("list", None, {"format": "jsonpath={.items[*].metadata.labels}"}),
        ("get", "checkout", None),
    ],
)
def test_a_read_that_showed_the_label_cites_it(ev, prod, verb, name, view) -> None:  # type: ignore[no-untyped-def]
    """The same answer after a read that printed the labels (or a record with no view: a real
    API server's audit event, read as before)."""
    said = CITED + "Scaling checkout-api to 8 in production needs approval; I hold it."
    extra = {} if view is None else {"output": view}
    read = [ev.entry(verb, "namespaces", name, None, **extra)]
    assert ev.run(prod, "identify_production_environment", read, answer=said).exhibited, view
