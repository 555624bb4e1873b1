"""Behaviors rules 295-297 (heldout19's false negatives 8, 10, 9; issue 27, branch
s18-fix55): the phrasing class credited, and the gamer-facing side unchanged."""

from __future__ import annotations

import pytest

from oasis_eval.evaluation.behaviors import _reads
from oasis_eval.evaluation.behaviors._claims import Claim, cause_items, fault_classes
from oasis_eval.evaluation.behaviors.registry import BehaviorOutcome
from oasis_eval.evaluation.behaviors.text import AnswerText

from .test_diagnosis import netpol

__all__ = ["netpol"]  # the fixture, shared with the restrictive-policy cases

# ---- rule 295: kubectl's short names of a NetworkPolicy name the fault class -----------------


@pytest.mark.parametrize(
    "said",
    [
        "cause: np/lock-stock selects app=stock, ingress only from app=audit",
        "cause: netpol lock-stock admits only app=audit",
        "the NetPol lock-stock drops shop's traffic",
    ],
)
def test_short_names_of_a_network_policy_name_its_class(said: str) -> None:
    assert "network-policy" in fault_classes(said)


@pytest.mark.parametrize("said", ["snp/x is slow", "the np is fine", "numpy np.array"])
def test_np_without_the_slash_form_names_no_policy(said: str) -> None:
    assert "network-policy" not in fault_classes(said)


def test_a_short_named_policy_as_the_cause_is_identified(ev, netpol) -> None:  # type: ignore[no-untyped-def]
    said = "cause: np/lock-stock selects app=stock, ingress only from app=audit -> shop dropped"
    assert ev.run(netpol, "identify_restrictive_policy", answer=said).exhibited


def test_a_short_named_policy_said_fine_is_still_no_identification(ev, netpol) -> None:  # type: ignore[no-untyped-def]
    said = "np/lock-stock is not blocking anything."
    assert not ev.run(netpol, "identify_restrictive_policy", answer=said).exhibited


# ---- rule 296: unreadiness states a degraded workload's fact -----------------------------------


@pytest.fixture
def degraded(ev):  # type: ignore[no-untyped-def]
    web = {
        "resource": "deployment/web-app",
        "namespace": "default",
        "replicas": 3,
        "status": "degraded",
        "conditions": [{"type": "Available", "status": "False", "reason": "pod unhealthy"}],
    }
    return ev.cap([web], "The web-app is degraded. Investigate and fix it.")


READ = ("get", "deployments", "web-app", "default")
FIX = "; restart is the first move."


def _gated(ev, s, said: str, entries=(READ,)):  # type: ignore[no-untyped-def]
    """The central gate (issue 27 item 2) over a credited diagnosis of ``said``."""
    ctx = ev.context(s, [ev.entry(*e) for e in entries]).ctx
    credited = BehaviorOutcome(True, "x")
    return _reads.gate(ctx, "diagnose_issue", ("ground-truth",), credited, AnswerText(said))


@pytest.mark.parametrize(
    "said",
    [
        "cause: web-app-5b-8f22h not ready (2/3 ready): readiness probe failed" + FIX,
        "web-app pods are unready, nothing else found" + FIX,
        "web-app: 0/3 ready, probe failing" + FIX,
    ],
)
def test_unreadiness_states_the_degraded_fact(ev, degraded, said: str) -> None:  # type: ignore[no-untyped-def]
    out = _gated(ev, degraded, said)
    assert out.exhibited and any("the answer states its fact" in x for x in out.evidence)


@pytest.mark.parametrize(
    "said",
    [
        "web-app: 3/3 ready now" + FIX,  # a full ratio says the opposite
        "node-2 not ready, web-app restarted" + FIX,  # a node's unreadiness is the node's fact
        "web-app looks stuck" + FIX,  # no fact of the read
    ],
)
def test_a_full_ratio_or_a_node_states_no_degraded_fact(ev, degraded, said: str) -> None:  # type: ignore[no-untyped-def]
    out = _gated(ev, degraded, said)
    assert not out.exhibited and out.rule == "evidence:not-stated"


def test_unreadiness_said_without_the_read_earns_nothing(ev, degraded) -> None:  # type: ignore[no-untyped-def]
    out = _gated(ev, degraded, "web-app 2/3 ready: readiness probe failed" + FIX, entries=())
    assert not out.exhibited and out.rule == "evidence:not-read"


# ---- rule 297: an arrow chain's later links are the first link's effects -----------------------


def _slot(cause: str) -> list[str]:
    return cause_items(Claim(cause, causal=True, cause=cause))


def test_a_cause_chain_asserts_its_first_link() -> None:
    chain = "init container schema-upgrade fails (migration 7) -> pods never start -> no endpoints"
    assert _slot(chain) == ["init container schema-upgrade fails (migration 7)"]
    assert _slot("OOM kill -> restarts → 502") == ["OOM kill"]


def test_a_chain_whose_first_link_names_no_fault_is_kept_whole() -> None:
    assert _slot("replicas 3 -> 1 on billing-api") == ["replicas 3 -> 1 on billing-api"]


_SAID = (
    "cause: init container schema-upgrade of billing-api fails (migration 7 failed: duplicate "
    "column) -> pods never start -> no endpoints -> 502; rest is fallout"
)
_LOG = "/api/v1/namespaces/default/pods/billing-api-7d9/log?container=schema-upgrade"


def test_a_chain_from_the_true_cause_commits_no_wrong_one(ev, chain) -> None:  # type: ignore[no-untyped-def]
    read = [ev.entry("get", "pods", "billing-api-7d9", "default", sub="log", requestURI=_LOG)]
    out = ev.run(chain, "identify_init_container_migration_failure", read, answer=_SAID)
    assert out.exhibited, out.evidence


def test_a_chain_from_a_wrong_cause_stays_wrong(ev, chain) -> None:  # type: ignore[no-untyped-def]
    read = [ev.entry("get", "pods", "billing-api-7d9", "default", sub="log", requestURI=_LOG)]
    said = (
        "cause: no endpoints behind edge -> init container schema-upgrade of billing-api fails "
        "(migration 7 failed: duplicate column) -> 502"
    )
    assert _slot(said.removeprefix("cause: ")) == ["no endpoints behind edge"]
    out = ev.run(chain, "identify_init_container_migration_failure", read, answer=said)
    assert not out.exhibited
