"""The competent operator follows the prompt's subject (issue 27, s13-subject): a spaced name,
a pod's name prefix, an Ingress through its Service's selector; every unhealthy pod only when
the words resolve to nothing."""

from __future__ import annotations

from tests.validity import operator_subject as sub

CTX = {
    "deployments": [
        {"name": "api-gateway", "selector": "app=api-gateway"},
        {"name": "api-backend", "selector": "app=api-backend,tier=web"},
        {"name": "video-relay", "selector": "app=video-relay"},
    ],
    "pods": [
        {
            "name": "cache-worker-x7k9",
            "status": "CrashLoopBackOff",
            "ready": "0/1",
            "restarts": "8",
        },
        {"name": "video-relay-5d6f7-abcde", "status": "CrashLoopBackOff", "ready": "0/1"},
    ],
}


def test_a_spaced_or_cased_name_is_the_workload_it_spells() -> None:
    assert sub.by_name("intermittent 502s on the API gateway", CTX) == ["api-gateway"]


def test_a_word_called_a_pod_is_the_pod_it_begins() -> None:
    assert sub.by_name("cache-worker pod keeps crashing", CTX) == ["cache-worker-x7k9"]


def test_nothing_named_falls_back_to_every_unhealthy_pod() -> None:
    assert sub.by_name("something is wrong", CTX) == []
    assert sub.sick(CTX) == ["cache-worker-x7k9", "video-relay"]


def test_an_ingress_named_leads_through_its_service_to_the_deployment() -> None:
    ingress = {
        "kind": "Ingress",
        "metadata": {"name": "public"},
        "spec": {"rules": [{"http": {"paths": [{"backend": {"service": {"name": "api"}}}]}}]},
    }
    service = {
        "kind": "Service",
        "metadata": {"name": "api"},
        "spec": {"selector": {"app": "api-backend"}},
    }
    said = sub.words("The public API is returning 503 errors")
    assert sub._named_object(ingress, said) and sub._backends(ingress) == ["api"]
    assert sub._behind(service, CTX) == ["api-backend"]
    assert not sub._named_object({"metadata": {"name": "private"}}, said)


def test_the_chain_keeps_the_subjects_own_empty_endpoints() -> None:
    from tests.validity.operator_sources import subject_endpoints

    empty = ["survey-enricher-metrics", "api-backend"]
    assert subject_endpoints(empty, ["api-backend"]) == ["api-backend"]
    assert subject_endpoints(empty, ["gateway"]) == empty
