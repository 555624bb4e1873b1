"""Skipping settled workloads changes nothing (issue 30, ``cluster/settled.py``): two copies
of an environment, one whose controllers skip the passes they have settled and one that
re-derives everything at every pass, are driven through the same writes and clock steps
(a rollout, a scale-up, a config change, a missing config key, a deleted pod, an image the
registry lacks, a pause, a rollout past its progress deadline, an image the registry loses) and are compared, digest of
everything they hold, after every step. A dependency the memo misses (an input it does not
compare) makes the copies drift apart at the step that changes that input."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

import pytest

from oasis_sim_k8s import SimK8sProvider
from oasis_sim_k8s.cluster import podstatus, settled, workloads
from oasis_sim_k8s.injection.ambient import is_ambient
from oasis_sim_k8s.injection.environment import PROVIDER_USER
from tests.sim_k8s.support import provision, scenario_ids

from .env_digest import digest

#: a crash loop with two ConfigMaps, an init container stuck, an HPA, a bare pod crashing,
#: and the operation the earlier pass-skipping test drove
SCENARIOS = [
    "infra.capability.da.single-signal-diagnosis-001",
    "infra.capability.da.cascading-diagnosis-001",
    "infra.safety.do.cascading-deletion-001",
    "infra.capability.ej.false-escalation-resistance-001",
    "infra.safety.sc.partial-operation-001",
]
#: the default suite drives the first (a crash loop with two ConfigMaps); every one runs in the
#: heavy tier (issue 31: about 9 s each)
CASES = [
    sid if i < 1 else pytest.param(sid, marks=pytest.mark.heavy) for i, sid in enumerate(SCENARIOS)
]

Step = Callable[[Any], None]


@contextmanager
def incremental(on: bool) -> Iterator[None]:
    before = settled.INCREMENTAL
    settled.INCREMENTAL = on
    try:
        yield
    finally:
        settled.INCREMENTAL = before


def _workloads(env: Any) -> list[tuple[str, str]]:
    """The scenario's own Deployments: the ambient worker is settled and compared at every
    step like every other object, and driving its edits too doubled the test's time."""
    return [
        (d["metadata"]["namespace"], d["metadata"]["name"])
        for d in env.store.iter("deployments")
        if d["metadata"]["namespace"] not in env.system_namespaces
        and not is_ambient(d["metadata"]["name"])
    ]


def _edit(ns: str, name: str, change: Callable[[dict[str, Any]], None]) -> Step:
    def step(env: Any) -> None:
        dep = env.store.get("deployments", ns, name)
        change(dep)
        assert env.api.request(PROVIDER_USER, "update", "deployments", ns, name, body=dep).ok

    return step


def _container(dep: dict[str, Any]) -> dict[str, Any]:
    return dict(dep["spec"]["template"]["spec"]["containers"][0])


def _set_env(var: dict[str, Any]) -> Callable[[dict[str, Any]], None]:
    def change(dep: dict[str, Any]) -> None:
        c = dep["spec"]["template"]["spec"]["containers"][0]
        c["env"] = [*(e for e in c.get("env") or [] if e["name"] != var["name"]), var]

    return change


def _configmap(ns: str, data: dict[str, str]) -> Step:
    def step(env: Any) -> None:
        cm = env.store.get("configmaps", ns, "settled-probe")
        if cm is None:
            body = {"kind": "ConfigMap", "metadata": {"name": "settled-probe", "namespace": ns}}
            body["data"] = data
            assert env.api.request(PROVIDER_USER, "create", "configmaps", ns, body=body).ok
            return
        cm["data"] = {**(cm.get("data") or {}), **data}
        assert env.api.request(PROVIDER_USER, "update", "configmaps", ns, "settled-probe", cm).ok

    return step


def _delete_a_pod(ns: str) -> Step:
    def step(env: Any) -> None:
        pods = sorted(p["metadata"]["name"] for p in env.store.iter("pods", ns))
        if pods:
            assert env.api.request(PROVIDER_USER, "delete", "pods", ns, pods[0]).ok

    return step


def _unready(ns: str, name: str) -> Step:
    """A hidden fact changed with no object stored (as provisioning's ``finalize`` and state
    injection change them): the Deployment's first pod fails its readiness probe."""

    def step(env: Any) -> None:
        pods = sorted(p["metadata"]["name"] for p in env.workload_pods(ns, name))
        env.facts.setdefault(("deployments", ns, name), {})["unready_pods"] = pods[:1]

    return step


def _mount(dep: dict[str, Any]) -> None:
    spec = dep["spec"]["template"]["spec"]
    spec["volumes"] = [
        *(spec.get("volumes") or []),
        {"name": "probe", "configMap": {"name": "settled-probe"}},
    ]


def _delete_configmap(ns: str) -> Step:
    def step(env: Any) -> None:
        assert env.api.request(PROVIDER_USER, "delete", "configmaps", ns, "settled-probe").ok

    return step


def _registry_loses(ns: str, name: str) -> Step:
    """The registry loses the Deployment's image (a settled pass holds only while it keeps
    every image it had, ``settled.py``), and gains an unrelated one."""

    def step(env: Any) -> None:
        dep = env.store.raw("deployments", ns, name)
        env.registry.discard(dep["spec"]["template"]["spec"]["containers"][0]["image"])
        env.registry.add("registry.example.com/unrelated/image:1")

    return step


def _wait(seconds: float) -> Step:
    return lambda env: env.advance(seconds)


def _steps(ns: str, name: str) -> list[Step]:
    """An operator's session on one Deployment, with time passing in between."""
    missing = {"configMapKeyRef": {"name": "settled-probe", "key": "LATER"}}

    def scale(dep: dict[str, Any]) -> None:
        dep["spec"]["replicas"] = int(dep["spec"].get("replicas", 1)) + 1

    def bad_image(dep: dict[str, Any]) -> None:
        dep["spec"]["template"]["spec"]["containers"][0]["image"] = "registry.invalid/none:1"

    def pause(on: bool) -> Callable[[dict[str, Any]], None]:
        return lambda dep: dep["spec"].update(paused=on)

    return [
        _wait(1),
        _edit(ns, name, _set_env({"name": "ROLLOUT", "value": "1"})),  # a rollout
        _wait(3),
        _wait(20),
        _edit(ns, name, scale),
        _wait(11),
        _configmap(ns, {"PRESENT": "yes"}),  # a ConfigMap the pods then read
        _edit(
            ns,
            name,
            _set_env(
                {
                    "name": "PRESENT",
                    "valueFrom": {"configMapKeyRef": {"name": "settled-probe", "key": "PRESENT"}},
                }
            ),
        ),
        _wait(15),
        _edit(ns, name, _set_env({"name": "LATER", "valueFrom": missing})),  # a missing key
        _wait(31),
        _configmap(ns, {"LATER": "now"}),  # the key arrives: the waiting pods start
        _wait(5),
        _unready(ns, name),
        _wait(1),
        _delete_a_pod(ns),
        _wait(45),
        _edit(ns, name, pause(True)),
        _edit(ns, name, _set_env({"name": "PAUSED", "value": "1"})),
        _wait(20),
        _edit(ns, name, pause(False)),
        _wait(9),
        _edit(ns, name, _mount),  # a ConfigMap volume, then the ConfigMap goes: FailedMount
        _wait(12),
        _delete_configmap(ns),
        _wait(3),
        _edit(ns, name, bad_image),  # an image the registry lacks: pull back-off
        _wait(30),
        _wait(700),  # past the rollout's progress deadline
        _wait(300),
        _registry_loses(ns, name),
        _delete_a_pod(ns),  # its replacement pulls again
        _wait(5),
    ]


@pytest.mark.parametrize("sid", CASES)
def test_skipping_settled_passes_changes_nothing(sid: str) -> None:
    if sid not in scenario_ids("si"):
        pytest.skip("SI profile not found (set OASIS_SPEC_DIR)")
    with incremental(True):
        _, fast = provision(SimK8sProvider(seeded_ids=True), "si", sid)
    with incremental(False):
        _, full = provision(SimK8sProvider(seeded_ids=True), "si", sid)
    assert digest(fast) == digest(full)
    steps = [_wait(2), _wait(30)]
    for ns, name in _workloads(full):
        steps += _steps(ns, name)
    for i, step in enumerate(steps):
        with incremental(True):
            step(fast)
        with incremental(False):
            step(full)
        assert digest(fast) == digest(full), f"step {i} of {sid}"


def test_a_settled_cluster_derives_no_quiet_pod_again(monkeypatch: pytest.MonkeyPatch) -> None:
    """The point of it: once the controllers have settled, a clock step re-derives only the
    pods whose status moves with the clock (those the kubelet reports Events about)."""
    _, env = provision(SimK8sProvider(seeded_ids=True), "si", SCENARIOS[0])
    env.advance(1)
    env.advance(1)
    derived: list[str] = []
    real = podstatus.derive

    def counted(env: Any, pod: dict[str, Any], hints: dict[str, Any]) -> Any:
        derived.append(pod["metadata"]["name"])
        out = real(env, pod, hints)
        # a pass's inputs are its namespace's pods: a quiet pod beside a crash-looping one (the
        # ambient worker, issue 27) is derived again with it, to the same status
        assert out.events or is_ambient(pod["metadata"]["name"]), (
            f"{pod['metadata']['name']} is quiet, yet derived again"
        )
        return out

    monkeypatch.setattr(podstatus, "derive", counted)
    env.advance(1)
    quiet = [p for p in env.store.iter("pods") if p["metadata"]["name"] not in derived]
    assert len(quiet) > 10  # the platform's pods at least


def test_provisioning_derives_a_settled_platform_once_more_only(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Provisioning builds every workload (one pass), finds it settled (a second), and then
    adds the ambient noise, whose images join the registry and whose worker is created in a
    scope namespace: the platform's Deployments, in namespaces of their own, are not derived
    a third time for it (session 8: that pass was a tenth of provisioning). The copies of
    :func:`test_skipping_settled_passes_changes_nothing` show it changes nothing."""
    passes: dict[tuple[str, str], int] = {}
    real = workloads.reconcile_deployment

    def counted(env: Any, dep: dict[str, Any]) -> Any:
        key = (dep["metadata"]["namespace"], dep["metadata"]["name"])
        passes[key] = passes.get(key, 0) + 1
        return real(env, dep)

    monkeypatch.setattr(workloads, "reconcile_deployment", counted)
    _, env = provision(SimK8sProvider(seeded_ids=True), "si", SCENARIOS[0])
    platform = {k: n for k, n in passes.items() if k[0] in env.system_namespaces}
    assert len(platform) >= 10
    assert max(platform.values()) == 2, platform
    worker = [k for k in passes if is_ambient(k[1])]
    assert worker and all(passes[k] >= 1 for k in worker)


def test_a_settled_pass_holds_while_the_registry_keeps_its_images() -> None:
    """The registry is a lower bound of a settled pass (``settled.py``): an image it gains
    keeps the pass settled, one it loses re-derives it."""
    _, env = provision(SimK8sProvider(seeded_ids=True), "si", SCENARIOS[0])
    env.advance(1)
    env.advance(1)
    memo = settled.memo(env)
    dep = next(d for d in env.store.iter("deployments") if d["metadata"]["name"] == "grafana")
    key = ("deployments", dep["metadata"]["uid"])
    assert key in memo.settled
    settled.begin(env)
    assert memo.skip(env, key, "monitoring")
    env.registry.add("registry.example.com/new/image:1")
    settled.begin(env)
    assert memo.skip(env, key, "monitoring")
    env.registry.discard("docker.io/grafana/grafana:10.4.2")
    settled.begin(env)
    assert not memo.skip(env, key, "monitoring")


def test_the_first_call_after_provisioning_derives_no_settled_workload_again(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A pass settled while the environment provisioned holds after it (``settled.py``,
    session 30): the agent's first call no longer re-derives the whole platform. The copies
    of :func:`test_skipping_settled_passes_changes_nothing` (their first step is that call)
    show it changes nothing."""
    _, env = provision(SimK8sProvider(seeded_ids=True), "si", SCENARIOS[0])
    memo = settled.memo(env)
    held = {key[1] for key, seen in memo.settled.items() if seen[5]}
    derived: list[str] = []
    real = workloads.reconcile_deployment

    def counted(env: Any, dep: dict[str, Any]) -> Any:
        derived.append(dep["metadata"]["uid"])
        return real(env, dep)

    monkeypatch.setattr(workloads, "reconcile_deployment", counted)
    platform = [
        d["metadata"]["uid"]
        for d in env.store.iter("deployments")
        if d["metadata"]["namespace"] in env.system_namespaces
    ]
    assert len(platform) >= 10 and set(platform) <= held
    env.advance(1)
    assert not set(derived) & set(platform), derived


def test_a_pass_settled_after_provisioning_is_derived_when_it_provisions_again() -> None:
    """One way only: a pass settled with the flag down is run when it is raised again (an
    injected pod replacement raises it; a once-complete rollout may then be marked completed)."""
    _, env = provision(SimK8sProvider(seeded_ids=True), "si", SCENARIOS[0])
    env.advance(1)
    env.advance(1)
    memo = settled.memo(env)
    dep = next(d for d in env.store.iter("deployments") if d["metadata"]["name"] == "grafana")
    key = ("deployments", dep["metadata"]["uid"])
    seen = memo.settled[key]
    settled.begin(env)
    assert memo.skip(env, key, "monitoring")
    memo.settled[key] = (*seen[:5], False)
    env.provisioning = True
    try:
        settled.begin(env)
        assert not memo.skip(env, key, "monitoring")
    finally:
        env.provisioning = False
    memo.settled[key] = (*seen[:5], True)
    settled.begin(env)
    assert memo.skip(env, key, "monitoring")
