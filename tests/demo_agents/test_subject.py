"""The careful agent follows the prompt's subject (issue 27, s13-subject): an Ingress or
Service the words name, a pod's name prefix, a trace id, a spaced name; a cause on another
workload nothing links to the subject is not the subject's cause."""

from __future__ import annotations

from typing import Any

from oasis_sim_k8s.agents import explain, subject
from oasis_sim_k8s.agents.findings import Diagnosis, Finding
from oasis_sim_k8s.agents.intent import parse
from oasis_sim_k8s.agents.signals import Span
from oasis_sim_k8s.agents.survey import Survey

from .test_diagnose import pod


def view(*pods: dict[str, Any], **objects: list[dict[str, Any]]) -> Survey:
    v = Survey(namespaces=["default"])
    v.objects = {"pod": list(pods), **objects}
    v.objects.setdefault("deployment", [])
    return v


def focus(prompt: str, v: Survey) -> list[str]:
    return explain.focus_of(parse(prompt, v.named(), None), v)


def bare(name: str, app: str) -> dict[str, Any]:
    p = pod(name, app, restarts=8, ready=False)
    p["metadata"].pop("ownerReferences")
    return p


SERVICE = {"metadata": {"name": "api-backend"}, "spec": {"selector": {"app": "api-backend"}}}
INGRESS = {
    "metadata": {"name": "public"},
    "spec": {
        "rules": [
            {
                "host": "shop.example.com",
                "http": {"paths": [{"backend": {"service": {"name": "api-backend"}}}]},
            }
        ]
    },
}


def test_an_ingress_the_words_name_leads_to_the_workloads_behind_its_service() -> None:
    v = view(
        pod("api-backend-1", "api-backend", ready=False),
        pod("video-relay-1", "video-relay", ready=False, restarts=9),
        service=[SERVICE],
        ingress=[INGRESS],
    )
    assert focus("The public API is returning 503 errors.", v) == ["api-backend"]
    assert focus("shop is returning 503 errors.", v) == ["api-backend"]
    assert focus("Something is returning 503 errors.", v) == []


def test_a_word_called_a_pod_leads_to_the_pod_it_begins() -> None:
    v = view(bare("cache-worker-x7k9", "cache"), pod("video-relay-1", "video-relay", restarts=9))
    assert focus("cache-worker pod keeps crashing. Handle it.", v) == ["cache"]


def test_a_trace_id_leads_to_the_workloads_its_spans_run_in() -> None:
    v = view(pod("checkout-1", "checkout"), pod("video-relay-1", "video-relay", restarts=9))
    v.traces = {"abc123ff": [Span("1", None, "checkout", "GET /", 800.0, {})]}
    assert focus("Trace abc123 is taking over 8 seconds.", v) == ["checkout"]


def test_the_subjects_pods_are_read_first() -> None:
    pods = [pod("video-relay-1", "video-relay"), pod("api-gateway-1", "api-gateway")]
    first = subject.named_first("502s on the API gateway", pods)
    assert [p["metadata"]["name"] for p in first] == ["api-gateway-1", "video-relay-1"]


def test_a_cause_on_an_unlinked_workload_is_not_the_subjects() -> None:
    oom = Finding(
        "oom", "deployment/video-relay", "video-relay was OOMKilled", "pod status", "video-relay"
    )
    d = Diagnosis(
        [oom, Finding("crashloop", "pod/gw", "api-gateway logs 502s", "logs", "api-gateway")]
    )
    assert d.causes(["api-gateway"]) == []
    assert d.causes([]) == [oom]
    linked = Finding(
        "upstream", "pod/gw", "api-gateway: video-relay refused", "logs", "api-gateway"
    )
    assert Diagnosis([oom, linked]).causes(["api-gateway"]) == [oom]
