"""The ambient noise is written to the store directly (issue 30), not through the API server:
the same stored object, clock and identifier generator as an API create, minus the audit
entry, and every ambient object of every SI environment is one the API server accepts."""

from __future__ import annotations

import copy
from typing import Any

import pytest

from oasis_sim_k8s import SimK8sProvider
from oasis_sim_k8s.cluster import admission, shapes
from oasis_sim_k8s.cluster.store import KINDS
from oasis_sim_k8s.injection import ambient_objects
from oasis_sim_k8s.injection.ambient import is_ambient
from oasis_sim_k8s.injection.environment import PROVIDER_USER, Environment
from oasis_sim_k8s.injection.inject import Context
from tests.sim_k8s.support import provision, scenario_ids

_TEMPLATE = {
    "metadata": {"labels": {"app": "nightly"}},
    "spec": {
        "restartPolicy": "Never",
        "containers": [{"name": "nightly", "image": "busybox:1.36"}],
    },
}


def _env() -> Environment:
    env = Environment("env-1", "scenario-1", "agent", "seed")
    env.api.request(PROVIDER_USER, "create", "namespaces", body={"metadata": {"name": "apps"}})
    return env


def _bodies() -> list[tuple[str, dict[str, Any]]]:
    template = copy.deepcopy(_TEMPLATE)
    return [
        ("cronjobs", ambient_objects.cron_body("nightly", "0 3 * * *", template)),
        (
            "networkpolicies",
            {
                "kind": "NetworkPolicy",
                "apiVersion": "networking.k8s.io/v1",
                "metadata": {"name": "nightly-no-ingress", "labels": {"app": "nightly"}},
                "spec": {"podSelector": {"matchLabels": {"app": "nightly"}}},
            },
        ),
        ("pods", {"kind": "Pod", "metadata": {"name": "nightly-1"}, "spec": template["spec"]}),
    ]


def test_a_direct_write_stores_what_an_api_create_stores_and_moves_clock_and_ids_alike() -> None:
    direct, through = _env(), _env()
    for plural, body in _bodies():
        ctx = Context(direct, PROVIDER_USER, ["apps"], [])
        stored = ambient_objects.create(ctx, plural, "apps", copy.deepcopy(body), 3600)
        twin = copy.deepcopy(body)
        twin["metadata"]["creationTimestamp"] = through.clock.ts(3600)
        assert through.api.request(PROVIDER_USER, "create", plural, "apps", body=twin).ok
        assert stored == through.store.raw(plural, "apps", body["metadata"]["name"])
    assert direct.clock.ms == through.clock.ms
    assert direct.ids.uid() == through.ids.uid()
    assert direct.store.create(
        {"kind": "ConfigMap", "metadata": {"name": "x", "namespace": "apps"}}
    ) == (
        through.store.create({"kind": "ConfigMap", "metadata": {"name": "x", "namespace": "apps"}})
    )
    # the API creates are audited, the direct writes are not (they predate the run)
    assert len(through.audit.entries) == len(direct.audit.entries) + len(_bodies())


def test_objects_stored_apart_share_no_container() -> None:
    env = _env()
    ctx = Context(env, PROVIDER_USER, ["apps"], [])
    template = copy.deepcopy(_TEMPLATE)
    cron = ambient_objects.create(
        ctx, "cronjobs", "apps", ambient_objects.cron_body("nightly", "0 3 * * *", template), 60
    )
    pod = ambient_objects.create(
        ctx,
        "pods",
        "apps",
        {"kind": "Pod", "metadata": {"name": "p"}, "spec": template["spec"]},
        60,
    )
    pod["spec"]["containers"][0]["image"] = "changed"
    assert cron["spec"]["jobTemplate"]["spec"]["template"]["spec"]["containers"][0]["image"] == (
        "busybox:1.36"
    )


@pytest.mark.timeout(300)
def test_every_ambient_object_of_every_si_environment_passes_the_api_servers_checks() -> None:
    sids = scenario_ids("si")
    if not sids:
        pytest.skip("SI profile not found (set OASIS_SPEC_DIR)")
    provider = SimK8sProvider(seeded_ids=True)
    seen = 0
    for sid in sids:
        _, env = provision(provider, "si", sid)
        for plural in ("cronjobs", "jobs", "pods", "networkpolicies"):
            for obj in env.store.iter(plural):
                if not is_ambient(obj["metadata"]["name"]):
                    continue
                seen += 1
                assert shapes.check(plural, obj, KINDS[plural][0]) is None, (sid, obj)
                assert admission.validate(env.store, PROVIDER_USER, plural, None, obj) is None
        created = [
            e for e in env.audit.entries if e["verb"] == "create" and e["user"] == PROVIDER_USER
        ]
        names = {((e.get("request_body") or {}).get("metadata") or {}).get("name") for e in created}
        assert not any(is_ambient(str(n)) for n in names), sid
    assert seen >= 7 * len(sids)
