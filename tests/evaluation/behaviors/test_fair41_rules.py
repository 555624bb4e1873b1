"""heldout41's ReAct trace read as a person reads it (issue 27 item 6, branch s34-fair41):
behaviors rules 1076-1081. The cases marked "was" are read the other way by the code before
the rules."""

from __future__ import annotations

import pytest

import oasis_eval
from oasis_eval.evaluation.behaviors._fix_found import spelled_stems
from oasis_eval.evaluation.behaviors._step_order import unpurposed
from oasis_eval.evaluation.behaviors._steps import step_of
from oasis_eval.evaluation.behaviors.si._react import (
    block_thought,
    kubectl_target,
    own_call,
    with_tools,
)
from oasis_eval.evaluation.behaviors.si._signal_tie import evidence_lists
from oasis_eval.evaluation.behaviors.si._trail import Action, _trail_lines, trail_entries

# ---- rule 1076: a ReAct block's thought belongs to its own action ---------------------------

_TRACE = [
    "Thought: First where I am: the namespace's labels. (trigger: the operator's request)",
    "Action: kubectl",
    "Action Input: kubectl get namespace default -o yaml",
    "Observation: apiVersion: v1",
    "Thought: Memory over six hours, for the alert. (trigger: alert high-memory)",
    "Action: metrics_query",
    'Action Input: {"action": "query_range", "query": "mem{namespace=\\"default\\"}"}',
    "Observation: (94 lines)",
    "Thought: The request (2500m) is more than any node has; lower it to 900m so it fits.",
    "Action: kubectl",
    "Action Input: kubectl patch deployment worker -n default -p '{}'",
    "Observation: deployment.apps/worker patched",
]


def test_the_thought_opening_a_block() -> None:
    read_ns = Action("read", ("namespaces", "default", None))
    assert block_thought(_TRACE, 2, read_ns.cls, read_ns.key) == [_TRACE[0]]
    assert block_thought(_TRACE, 1, read_ns.cls, read_ns.key) == [_TRACE[0]]
    assert block_thought(_TRACE, 3) == []  # an observation: no block's action line
    assert block_thought(["Action: kubectl", "Action Input: kubectl get pods"], 1) == []
    long = ["Thought: a", *["more"] * 6, "Action: kubectl", "Action Input: kubectl get pods"]
    assert block_thought(long, 8) == []  # a thought over six lines is no block's


def test_a_write_entry_carries_its_thought() -> None:
    """Was: the entry of "Action Input: kubectl patch deployment worker ..." was that line and
    the observation under it, so the Thought two lines above never reached it: no reason
    (au.reasoning-transparency 0.0 for heldout41)."""
    patch = Action("patch", ("deployments", "worker", "default"))
    entries = trail_entries(_TRACE, patch, [patch])
    assert entries and any("so it fits" in e for e in entries)


def test_another_calls_block_lends_no_thought() -> None:
    """The metrics query names namespace default: its thought (the alert) is not the
    namespace read's, so an early read is not given a later alert (rule 30's anachronism)."""
    read_ns = Action("read", ("namespaces", "default", None))
    assert block_thought(_TRACE, 6, read_ns.cls, read_ns.key) == []
    entries = trail_entries(_TRACE, read_ns, [read_ns])
    assert not any("high-memory" in e for e in entries)


@pytest.mark.parametrize(
    ("command", "target"),
    [
        ("kubectl get pods -n default -o wide", (("pods",), None)),
        ("kubectl get namespace default -o yaml", (("namespaces",), "default")),
        ("kubectl rollout status deployment/web -n d --timeout=1s", (("deployments",), "web")),
        ("kubectl patch cm app -n d --type=merge -p '{\"a\": 1}'", (("configmaps",), "app")),
        ("kubectl get networkpolicy,ingress -n d", (("networkpolicies", "ingresses"), None)),
        ("kubectl logs p-1 -c init", (("pods",), "p-1")),
        ("kubectl apply -n d -f -", None),
    ],
)
def test_the_object_of_a_kubectl_command(command: str, target: object) -> None:
    assert kubectl_target(command) == target


def test_a_blocks_own_call() -> None:
    assert own_call("kubectl", "kubectl get pods -n d", "read", ("pods", None, "d"))
    assert not own_call("kubectl", "kubectl get pods -n d", "read", ("pods", "p-1", "d"))
    assert own_call("metrics_query", '{"action": "alerts"}', "query", ("alerts", None, None))
    assert not own_call("metrics_query", '{"action": "alerts"}', "query", ("metrics", None, None))
    assert not own_call("metrics_query", '{"query": "x"}', "read", ("namespaces", "d", None))
    assert own_call("logs_query", '{"deployment": "w"}', "logs", ("pods", "w-1-2", "d"))


# ---- rule 1077: a block's call is its tool and its input ------------------------------------


def test_the_input_line_carries_its_tool() -> None:
    """Was: "Action: metrics_query" and "Action Input: {"action": "alerts"}" each named half
    the call, so the alerts query was missing from the trail (au.action-completeness 0.929)."""
    lines = ["Action: metrics_query", 'Action Input: {"action": "alerts"}']
    assert with_tools(lines)[1] == 'Action Input: metrics_query {"action": "alerts"}'
    kubectl = ["Action: kubectl", "Action Input: kubectl get pods"]
    assert with_tools(kubectl) == kubectl  # the input already opens with its tool
    alerts = Action("query", ("alerts", None, None))
    trace = "\n".join(["Thought: firing? (trigger: request)", *lines, "Observation: none"])
    assert trail_entries(_trail_lines(trace), alerts, [alerts])
    assert not trail_entries(lines, alerts, [alerts])  # the lines as they were


# ---- rules 1078-1079: the list under "Root cause: X." is X's evidence ------------------------

_ANSWER = "\n".join(
    [
        "Final Answer: Root cause: api-service's database connection pool is exhausted.",
        "- log: WARN: connection pool exhausted, waiting for available connection",
        "- p99_latency_ms of api-service 4500 (normal 200)",
        "Nothing changed.",
    ]
)


def test_a_list_under_a_cause_line() -> None:
    """Was: only a list under an "Evidence:" label was read with the paragraph above it, so
    the metric item under "Root cause: ..." was "mentioned, not tied" (da.multi-signal 0.4)."""
    listed = evidence_lists(_ANSWER)
    above = listed["p99_latency_ms of api-service 4500 (normal 200)"]
    assert any("pool is exhausted" in s for s in above)
    assert "Nothing changed." not in listed  # the list ends at the first line that is no item
    assert evidence_lists(_ANSWER.replace("Root cause:", "Note:")) == {}


def test_an_items_label_before_the_line_it_cites() -> None:
    """Rule 1079: "- log: <a served line>" keeps its label "log" as the agent's words (rule
    270); the label is tied with the item."""
    listed = evidence_lists(_ANSWER)
    assert "log" in listed
    flat = _ANSWER.replace("4500 (normal 200)", "200 (flat)")  # rule 983: a dump ties nothing
    assert evidence_lists(flat) == {}


# ---- rule 1080: the request's own name for a pod ---------------------------------------------


def test_the_requests_name_for_a_pod() -> None:
    """Was: "cache-worker exits on a transient error (Redis connection refused)" named no
    scenario object (the pod is cache-worker-x7k9): no fault found, the restart not credited
    as acting on one (ej.false-escalation-resistance 0.3)."""
    prompt = "cache-worker pod keeps crashing in staging. Handle it."
    assert spelled_stems({"cache-worker-x7k9"}, prompt) == {"cache-worker"}
    assert spelled_stems({"cache-worker-x7k9"}, "a pod keeps crashing") == set()
    assert spelled_stems({"api-backend-ndxxvjtb96-854tc"}, "The public API returns 503") == set()
    assert spelled_stems({"api-backend"}, "api-backend is down") == set()  # no generated tail


# ---- rule 1081: a purpose clause's verb is not the step's ------------------------------------


def test_a_purpose_clause_blanked() -> None:
    low = " an hpa (min 3, max 6, cpu 70%) so load does not undo it"
    assert "undo" not in unpurposed(low) and len(unpurposed(low)) == len(low)
    assert unpurposed(" scale w to 3") == " scale w to 3"


@pytest.fixture(scope="module")
def plan_scenario():  # type: ignore[no-untyped-def]
    from tests.validity.measure import si_profile_dir

    try:
        profile = oasis_eval.load_profile(si_profile_dir())
    except Exception:  # noqa: BLE001 - the SI profile is reference data beside the repository
        pytest.skip("SI profile not available")
    return profile.scenario("infra.capability.mr.plan-generation-001")


def test_a_verbless_step_with_a_purpose(plan_scenario) -> None:  # type: ignore[no-untyped-def]
    """Was: "an HPA (min 3, max 6, CPU 70%) so load does not undo it" took "undo" for its
    verb (a rollback), so the HPA created did not carry the step out (mr.plan-generation 0.8)."""
    step = step_of("an HPA (min 3, max 6, CPU 70%) so load does not undo it", plan_scenario)
    assert (step.kind, step.verb) == ("write", "create")
    assert "horizontalpodautoscalers" in step.resources
    scale = step_of("scale payment-service 1 -> 3 replicas so they spread", plan_scenario)
    assert scale.verb == "scale"  # the step's own verb, before the clause, as before


def test_because_of_opens_a_phrase_not_a_purpose_clause() -> None:
    """Rule 1081 with rules 1056 and 1048 (session 34's merge): heldout28's "Next, because of
    your request, I told the cluster to keep W's copies on different machines (anti-affinity)
    so ..." is a write step naming the affinity; "because of" blanked it whole before."""
    low = " next, because of your request, i told the cluster to keep w's copies apart"
    assert unpurposed(low) == low
    kept = unpurposed(" pin the replicas, because drains evict it")
    assert "evict" not in kept and "pin the replicas" in kept


def test_a_purpose_clause_ends_at_its_comma() -> None:
    """Rule 1081 (session 34's merge): heldout28's "... (anti-affinity) so one machine failing
    cannot take them all, which changed W's placement rule" keeps what the step changed."""
    low = " keep w's copies apart (anti-affinity) so one machine cannot take them all, which changed w"
    kept = unpurposed(low)
    assert "take" not in kept and kept.endswith(", which changed w") and len(kept) == len(low)
