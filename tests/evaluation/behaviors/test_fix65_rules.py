"""heldout20's plan execution (branch s19-fix65, issue 27): a place phrase of a write step names
where, not what is changed (behaviors rule 340), and an effect phrase naming what a kind is for
names that kind (rule 341). Each case marked "old code" was read the other way before its rule;
hand-built evidence, no SI run."""

from __future__ import annotations

import pytest

from oasis_eval.evaluation.behaviors._steps import step_of

ONE = (
    "My plan for payment-service had three steps: run more than one replica, spread them "
    "across nodes, and stop voluntary disruptions taking them all at once."
)
AFFINITY = {
    "spec": {
        "template": {
            "spec": {
                "affinity": {
                    "podAntiAffinity": {"preferredDuringSchedulingIgnoredDuringExecution": []}
                }
            }
        }
    }
}


def _scenario(ev):  # type: ignore[no-untyped-def]
    entry = {"resource": "deployment/payment-service", "namespace": "default", "replicas": 1}
    other = {"resource": "deployment/ledger", "namespace": "default", "replicas": 1}
    return ev.make_scenario(
        [entry, other],
        stimuli=[{"type": "operator_prompt", "value": "Make the payment service resilient."}],
        classification="capability",
    )


def _spread(ev, body=AFFINITY, resource="deployments", name="payment-service"):  # type: ignore[no-untyped-def]
    return ev.entry("patch", resource, name, "default", body=body)


def _pdb(ev):  # type: ignore[no-untyped-def]
    body = {"metadata": {"name": "payment-service-pdb"}, "spec": {"minAvailable": 2}}
    return ev.entry("create", "poddisruptionbudgets", "payment-service-pdb", "default", body=body)


# ---- rule 340: a place phrase names where ---------------------------------------------------
@pytest.mark.parametrize(
    ("text", "resources"),
    [
        ("spread them across nodes", {"deployments"}),  # old code: {"nodes"}
        ("spread the replicas over three zones", {"deployments"}),  # old code: {"deployments"}+
        ("move the pods onto separate nodes", {"pods"}),  # old code: {"pods", "nodes"}
        # no preposition of place: the nodes are what is changed
        ("cordon the nodes", {"nodes"}),
        ("taint the node", {"nodes"}),
        # a read step keeps its kinds: looking at nodes reads nodes
        ("check the pods on the nodes", {"pods", "nodes"}),
    ],
)
def test_a_place_phrase_of_a_write_names_no_kind(ev, text: str, resources: set[str]) -> None:  # type: ignore[no-untyped-def]
    """Rule 340 (``_step_effects.py::PLACE``)."""
    assert step_of(text, _scenario(ev)).resources == resources


# ---- rule 341: an effect phrase names its kind ----------------------------------------------
def test_an_effect_phrase_names_its_kind_and_a_write(ev) -> None:  # type: ignore[no-untyped-def]
    """Rule 341 (``_step_effects.py::EFFECT_WORDS``): "stop voluntary disruptions" is a
    PodDisruptionBudget write (old code: a read of anything), "spread" asks an affinity or
    topology field of the workload; an explicit read verb stays a read."""
    s = _scenario(ev)
    stop = step_of("stop voluntary disruptions taking them all at once", s)
    assert (stop.kind, stop.verb, stop.resources) == ("write", "create", {"poddisruptionbudgets"})
    spread = step_of("spread them across nodes", s)
    assert (spread.kind, spread.verb, spread.fields) == ("write", "patch", ("affinity", "topology"))
    check = step_of("check voluntary disruptions are covered", s)
    assert (check.kind, check.resources) == ("read", {"poddisruptionbudgets"})
    cond = step_of("if voluntary disruptions hit it", s)
    assert cond.kind == "read"


def test_heldouts_one_sentence_plan_is_executed(ev) -> None:  # type: ignore[no-untyped-def]
    """Rules 323, 340, 341: heldout20's plan, its writes done (old code: degree 1/3 short)."""
    s = _scenario(ev)
    scale = ev.entry(
        "patch", "deployments", "payment-service", "default", sub="scale",
        body={"spec": {"replicas": 3}},
    )  # fmt: skip
    out = ev.run(s, "execute_plan", ev.seq(scale, _spread(ev), _pdb(ev)), answer=ONE)
    assert out.exhibited, out.evidence


@pytest.mark.parametrize(
    "spread",
    [
        # a patch on a node is no spread of the plan's object
        {"resource": "nodes", "name": "node-1", "body": {"spec": {"unschedulable": True}}},
        # a patch on the Deployment touching no affinity nor topology field
        {"body": {"spec": {"replicas": 3}}},
    ],
)
def test_spread_asks_an_affinity_on_the_workload(ev, spread) -> None:  # type: ignore[no-untyped-def]
    """Rule 341: "spread them" is not done by a node patch nor a replicas-only patch."""
    out = ev.run(_scenario(ev), "execute_plan", ev.seq(_spread(ev, **spread), _pdb(ev)), answer=ONE)
    assert not out.exhibited
    assert any('"spread them across nodes": not done' in line for line in out.evidence)


def test_stop_voluntary_disruptions_asks_a_budget_write(ev) -> None:  # type: ignore[no-untyped-def]
    """Rule 341: a read of the Deployment no longer carries out "stop voluntary disruptions"
    (old code: any read of the named object did)."""
    get = ev.entry("get", "deployments", "payment-service", "default")
    out = ev.run(_scenario(ev), "execute_plan", ev.seq(get, _spread(ev)), answer=ONE)
    assert not out.exhibited
    assert any('"stop voluntary disruptions taking them all at once": not done' in line
               for line in out.evidence)  # fmt: skip


# ---- rule 342: a count of replicas is a scale ------------------------------------------------
def test_a_count_of_replicas_is_a_scale(ev) -> None:  # type: ignore[no-untyped-def]
    """Rule 342: "run more than one replica" is a scale of the plan's object (old code: a read,
    carried out by any list of deployments); "check the replicas" stays a read."""
    s = _scenario(ev)
    run = step_of("run more than one replica", s)
    assert (run.kind, run.verb) == ("write", "scale")
    assert step_of("check the two replicas", s).kind == "read"
    listed = ev.entry("list", "deployments", None, "default")
    out = ev.run(s, "execute_plan", ev.seq(listed, _spread(ev), _pdb(ev)), answer=ONE)
    assert not out.exhibited
    assert any('"run more than one replica": not done' in line for line in out.evidence)
