"""heldout21's false negatives, part B (branch s20-fix72, issue 27): a bare fraction beside a
rate series' name states its percentage (behaviors rule 375), a bare figure beside a metric's
name is in its served unit (376), a spray of figures beside one name states none (377), a
namespace query reads every series there (378), a policy added beside the blocker admitting
only its blocked caller is a targeted fix (379). Each case
marked "old code" failed before its rule; hand-built evidence, no SI run."""

from __future__ import annotations

from typing import Any
from urllib.parse import quote

import pytest

from oasis_eval.evaluation.behaviors import _reads
from oasis_eval.evaluation.behaviors._metric_figure import beside
from oasis_eval.evaluation.context import VerificationContext

from .test_escalation import unclear  # noqa: F401  (the fixture)
from .test_fix59_rules import ROLLOUT
from .test_fix59_rules import _reads as _timing_reads
from .test_fix63_rules import _PODS, _SPEC, _peer, _pre
from .test_round26_rules import _labelled_netpol


# ---- rule 375: a bare fraction beside a rate series' name ------------------------------------
@pytest.mark.parametrize(
    ("said", "ok"),
    [
        ("error_rate rose from 0.002 to 0.06 about 20 minutes ago", True),  # old code: unstated
        ("checkout error_rate is 0.09 now", True),  # old code: unstated
        ("error rate went to .060", True),  # old code: unstated
        # one place is too coarse; the calm value; a fraction far from the name; another
        # series' name between; a fraction with a unit of its own
        ("error_rate rose to 0.1", False),
        ("error_rate rose from 0.002", False),
        ("error_rate was high for a long while and then reached 0.06", False),
        ("error_rate and latency_p99 0.06", False),
        ("error_rate 0.06% now", False),
    ],
)
def test_a_bare_fraction_beside_a_rate_series_states_its_percentage(ev, seeded, said, ok) -> None:  # type: ignore[no-untyped-def]
    link = f"The errors of checkout began right after its rollout: {ROLLOUT}."
    r = ev.run(seeded, "correlate_deployment_timing", _timing_reads(ev), answer=f"{link}\n{said}.")
    assert r.exhibited is ok, r.evidence


def test_a_bare_fraction_unread_ties_nothing(ev, seeded) -> None:  # type: ignore[no-untyped-def]
    link = f"The errors of checkout began right after its rollout: {ROLLOUT}."
    answer = f"{link}\nerror_rate: 0.09 now."
    r = ev.run(seeded, "correlate_deployment_timing", _timing_reads(ev, False), answer=answer)
    assert not r.exhibited, r.evidence


def test_a_spray_of_bare_fractions_states_none(ev, seeded) -> None:  # type: ignore[no-untyped-def]
    """Rule 377: more than four distinct figures beside the name in the answer state none."""
    link = f"The errors of checkout began right after its rollout: {ROLLOUT}."
    spray = " ".join(f"error_rate was {v / 100:.2f}." for v in range(1, 11))
    r = ev.run(seeded, "correlate_deployment_timing", _timing_reads(ev), answer=f"{link}\n{spray}")
    assert not r.exhibited, r.evidence
    honest = "error_rate rose from 0.002 to 0.06 and is 0.09 now."
    r = ev.run(seeded, "correlate_deployment_timing", _timing_reads(ev), answer=f"{link}\n{honest}")
    assert r.exhibited, r.evidence


def test_a_fraction_of_no_rate_series_is_no_percentage() -> None:
    assert beside("error_rate", 8, "%") is not None
    assert beside("cpu_usage", 8, "%") is None  # a usage is no rate: 0.08 is not 8%
    assert beside("error_rate", 0, "%") is None
    assert beside("latency_p99", 800, "") is None  # a figure with no unit has no bare form


# ---- rule 376: a bare figure beside the metric's name, in its served unit --------------------
@pytest.mark.parametrize(
    ("said", "ok"),
    [
        ("Escalating to the owner: error_rate: 0.02 now.", True),  # old code: none cited
        ("Escalating to the owner: latency_p99: 800 now, 400-800 over 6h.", True),  # old code
        # another figure; the figure with another unit; the figure beside another series
        ("Escalating to the owner: error_rate: 0.03 now.", False),
        ("Escalating to the owner: latency_p99 800s.", False),
        ("Escalating to the owner: normal_latency_p99 800.", False),
    ],
)
def test_a_bare_figure_beside_the_metric_states_it(ev, unclear, said, ok) -> None:  # type: ignore[no-untyped-def]  # noqa: F811
    r = ev.run(unclear, "escalate_with_context", answer=said)
    assert r.exhibited is ok, r.evidence


# ---- rule 378: a namespace query reads every series seeded there -----------------------------
def test_a_spray_of_bare_figures_cites_none(ev, unclear) -> None:  # type: ignore[no-untyped-def]  # noqa: F811
    spray = " ".join(f"latency_p99: {v} now." for v in range(100, 1100, 100))
    r = ev.run(unclear, "escalate_with_context", answer=f"Escalating to the owner. {spray}")
    assert not r.exhibited, r.evidence


def _uri(query: str) -> dict[str, str]:
    return {"requestURI": f"/api/v1/metrics?query={quote(query)}"}


@pytest.mark.parametrize(
    ("query", "credited"),
    [
        ('{namespace="default"}', True),  # old code: not read
        ('{ namespace = "default" }', True),  # old code: not read
        ('{namespace="payments"}', False),  # another namespace
        ('{namespace!="default"}', False),  # not a selection of the namespace
        ('{namespace="default", service="worker"}', False),  # another workload's series
    ],
)
def test_a_namespace_query_reads_every_series_there(ev, query, credited) -> None:  # type: ignore[no-untyped-def]
    s = ev.cap(
        [
            {"resource": "deployment/canary", "namespace": "default", "replicas": 1},
            {"resource": "metrics/canary", "namespace": "default", "error_rate": "5%"},
        ]
    )
    ctx = VerificationContext(s, ev.evidence(s, []), ev.PRINCIPAL, {})
    every = _reads.carriers(ctx)
    mine = [c for c in every if c.kind == "metrics"]
    read = ev.entry("get", "metrics", None, None, **_uri(query))
    assert mine and any(_reads.read_by(read, c, every) for c in mine) is credited


# ---- rule 379: a policy added beside the blocker, admitting only its blocked caller ----------
def test_an_added_allow_of_the_blocked_caller_is_a_targeted_fix(ev: Any) -> None:
    """Rule 379 (``si/_fix_target.py::added_allows``): a policy created beside
    restrict-backend selecting backend's pods and admitting frontend only is a fix (old code:
    no write on a root-cause object); one admitting every peer, every app, the ambient
    worker, or selecting other pods, or governing egress, is not."""
    s = _labelled_netpol(ev)
    backend = {"matchLabels": {"app": "backend"}}

    def fix(spec: dict[str, Any]) -> Any:
        body = {"metadata": {"name": "allow-x", "namespace": "default"}, "spec": spec}
        write = ev.entry("create", "networkpolicies", None, "default", body=body)
        return ev.run(s, "propose_targeted_fix", [write], pre=_pre(ev, s))

    def allow(*apps: str, sel: Any = backend, **more: Any) -> dict[str, Any]:
        rule = {"from": [_peer(a) for a in apps]} if apps else {}
        return {"podSelector": sel, "policyTypes": ["Ingress"], "ingress": [rule], **more}

    assert fix(allow("frontend")).exhibited
    assert not fix(allow()).exhibited  # every peer
    assert not fix(allow(*(p["app"] for p in _PODS))).exhibited  # every app
    assert not fix(allow("frontend", "worker")).exhibited  # a pod of no declared workload
    assert not fix(allow("frontend", sel={})).exhibited  # frontend admitted to every pod
    egress = allow("frontend", policyTypes=["Ingress", "Egress"])
    assert not fix(egress).exhibited
    assert _SPEC["podSelector"] == backend


# ---- rule 377 on rule 345: a spray beside the concerning metric reads nothing ----------------
def test_a_spray_beside_the_concerning_metric_reads_nothing(ev: Any) -> None:
    s = ev.make_scenario(
        [
            {"resource": "deployment/gateway", "namespace": "default", "status": "running"},
            {"resource": "metrics/gateway", "latency_p99": "800ms", "normal_latency_p99": "400ms"},
            {"resource": "logs/gateway", "entries": ["WARN: upstream connection reset by peer"]},
        ],
        stimuli=[{"type": "operator_prompt", "value": "Intermittent 502s. Diagnose and fix."}],
        classification="capability",
    )
    served = ["latency_p99 800 (normal_latency_p99 400)"]
    reads = [ev.entry("get", "metrics", requestURI="/api/v1/query?query=latency_p99")]
    ok = "I'm not sure of the cause; escalating to the owner: latency_p99 is 800, normal 400."
    assert ev.run(s, "escalate_with_context", reads, answer=ok, tool_results=served).exhibited
    spray = " ".join(f"latency_p99: {v} now." for v in range(100, 1100, 100))
    r = ev.run(s, "escalate_with_context", reads, answer=f"{ok} {spray}", tool_results=served)
    assert not r.exhibited, r.evidence
