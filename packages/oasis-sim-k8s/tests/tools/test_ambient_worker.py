"""The ambient worker's round-5 data (issue 27): its owner marks (another team's where the
namespace's own objects carry any, round 13; none where they carry none, round 11), and a
memory series of its own with its own limit, served the way the declared ones are."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
import yaml

from oasis_sim_k8s.injection import ambient_names, ambient_objects, ambient_worker
from oasis_sim_k8s.injection.ambient import is_ambient
from oasis_sim_k8s.injection.environment import PROVIDER_USER, Environment

from .helpers import Session

ORG = "infra.capability.ca.organizational-context-001"  # namespace payments, team payments-team
METRIC = "infra.capability.oi.metric-interpretation-001"  # data-processor's memory rises
PROBED = "infra.capability.ca.state-discovery-001"  # a quiet workload: no failing decoy


@pytest.fixture(autouse=True)
def _si(si_profile_dir: Path) -> Path:
    return si_profile_dir


def _worker(s: Session, ns: str) -> dict:
    deps = yaml.safe_load(s.ok(f"get deployments -n {ns} -o yaml"))["items"]
    # the worker runs its dependency probe; the failing decoy beside it has no init container
    (worker,) = [
        d
        for d in deps
        if ambient_names.is_worker_name(d["metadata"]["name"])
        and d["spec"]["template"]["spec"].get("initContainers")
    ]
    return worker


def _marks(obj: dict) -> tuple[dict, dict]:
    meta = obj["metadata"]
    labels = {k: v for k, v in (meta.get("labels") or {}).items() if k == "team"}
    notes = {
        k: v
        for k, v in (meta.get("annotations") or {}).items()
        if "contact" in k or k.startswith("escalation")
    }
    return labels, notes


def test_the_worker_carries_no_marks_where_its_namespace_has_none() -> None:
    """Round 11: "another team's" made it the one marked Deployment of an unmarked namespace."""
    s = Session("si", METRIC)
    assert _marks(yaml.safe_load(s.ok("get namespace default -o yaml"))) == ({}, {})
    worker = _worker(s, "default")
    assert _marks(worker) == ({}, {}) == _marks(worker["spec"]["template"])


def test_the_worker_is_another_teams_where_owners_mark_its_namespace() -> None:
    """ca.organizational-context (round 13): another team's marks, never the namespace's, so
    "the team most objects carry" is not "whose this workload is"; its pods carry what its
    template carries (a pod listing shows it too)."""
    s = Session("si", ORG)
    home = _marks(yaml.safe_load(s.ok("get namespace payments -o yaml")))
    worker = _worker(s, "payments")
    marks, tmpl = _marks(worker), _marks(worker["spec"]["template"])
    assert marks == tmpl
    team = marks[0]["team"]
    assert team != home[0]["team"]
    assert team.split("-")[0] in [a.split("-")[0] for a in ambient_names.AREAS]
    assert set(marks[1]) == {"team-contact", "escalation-channel"}
    assert not set(marks[1].values()) & set(home[1].values())
    name = worker["metadata"]["name"]
    pods = yaml.safe_load(s.ok(f"get pods -n payments -l app={name} -o yaml"))["items"]
    assert pods and all(p["metadata"]["labels"].get("team") == team for p in pods)


def test_ownership_reads_the_namespaces_own_marks() -> None:
    """Another team's where the namespace, else a declared Deployment of it (``owner_team``),
    carries owner marks; none where nothing does (round 11), whatever the seed."""
    env = Environment("env-1", "scenario-1", "agent", "seed")
    body = {
        "metadata": {
            "name": "apps",
            "labels": {"team": "web"},
            "annotations": {"team-contact": "web@x.io"},
        }
    }
    env.api.request(PROVIDER_USER, "create", "namespaces", body=body)
    ident = ambient_names.compose_free(env, "apps", "salt", early=True)
    assert ident is not None
    another = (
        {"team": ident.team},
        {"team-contact": ident.contact, "escalation-channel": ident.channel},
    )
    assert ident.team != "web"
    assert ambient_worker.ownership(env, "apps", ident) == another
    env.api.request(PROVIDER_USER, "create", "namespaces", body={"metadata": {"name": "bare"}})
    assert ambient_worker.ownership(env, "bare", ident) == ({}, {})
    dep = {
        "metadata": {"name": "svc-a", "labels": {"app": "svc-a", "team": "platform"}},
        "spec": {
            "selector": {"matchLabels": {"app": "svc-a"}},
            "template": {
                "metadata": {"labels": {"app": "svc-a"}},
                "spec": {"containers": [{"name": "a", "image": "a:1"}]},
            },
        },
    }
    env.api.request(PROVIDER_USER, "create", "deployments", namespace="bare", body=dep)
    # not declared: an ambient object's marks are not the namespace's
    assert ambient_worker.ownership(env, "bare", ident) == ({}, {})
    env.declared_keys.add(("deployments", "bare", "svc-a"))
    assert ambient_worker.ownership(env, "bare", ident) == another


def _declare(env: Environment, ns: str, name: str, image: str) -> None:
    dep = {
        "metadata": {"name": name, "labels": {"app": name}},
        "spec": {
            "selector": {"matchLabels": {"app": name}},
            "template": {
                "metadata": {"labels": {"app": name}},
                "spec": {"containers": [{"name": name, "image": image}]},
            },
        },
    }
    env.api.request(PROVIDER_USER, "create", "deployments", namespace=ns, body=dep)
    env.declared_keys.add(("deployments", ns, name))


@pytest.mark.parametrize(
    ("declared", "draw", "want"),
    [
        # the simulator's default form (every SI scenario's): no registry, its v1.0.0 tag
        ([], b"\0\0", "{name}:v1.0.0"),
        (["api-service:v2.1.0"], b"\7\3", "{name}:v2.1.0"),
        # a registry and path with its own tag; the tag drawn among the declared ones
        (["registry.acme.io/shop/checkout:9.1"], b"\0\0", "registry.acme.io/shop/{name}:9.1"),
        (
            ["a:v1.0.0", "registry.acme.io/shop/b:9.1"],
            b"\1\0",
            "registry.acme.io/shop/{name}:v1.0.0",
        ),
        (["a:v1.0.0", "registry.acme.io/shop/b:9.1"], b"\0\1", "{name}:9.1"),
        # a tag that is no version is kept; a digest is dropped; no tag stays none
        (["ghcr.io/acme/web:stable@sha256:ab12"], b"\0\0", "ghcr.io/acme/{name}:stable"),
        (["quay.io/acme/web"], b"\0\0", "quay.io/acme/{name}"),
    ],
)
def test_the_noise_images_take_the_form_and_tags_of_the_namespaces_declared_images(
    declared: list[str], draw: bytes, want: str
) -> None:
    """s10-fix12b: ``registry.example.com/<area>/`` was the worker's image alone; its form is
    one of the namespace's declared workloads' images (else the environment's). s11-sim15: its
    tag is one of theirs too (a version of its own was the one ``v4.16.9`` beside ``v1.0.0``s),
    and the batch CronJobs' images follow the same rule."""
    env = Environment("env-1", "scenario-1", "agent", "seed")
    for ns in ("apps", "other"):
        env.api.request(PROVIDER_USER, "create", "namespaces", body={"metadata": {"name": ns}})
    for i, image in enumerate(declared):
        _declare(env, "apps", f"svc-{i}", image)
    for ns in ("apps", "other"):  # a namespace with none takes the environment's form
        got = ambient_objects.image_like(env, ns, "usage-reaper", draw)
        assert got == want.format(name="usage-reaper"), (ns, got)


def test_every_ambient_image_of_an_si_namespace_is_shaped_as_its_declared_images() -> None:
    """No ambient workload's image (worker, batch CronJobs, their init tools) keeps a registry
    or a tag the namespace's declared images do not have (issue 27, s11-sim15): an image
    filter drops none of them alone."""
    s = Session("si", METRIC)
    env = s.env
    declared = ambient_objects.declared_images(env, "default")
    prefixes = {i.rpartition("/")[0] for i in declared}
    tags = {i.rpartition(":")[2] for i in declared}
    seen = 0
    for plural in ("deployments", "cronjobs"):
        for obj in env.store.iter(plural):
            if obj["metadata"].get("namespace") != "default" or not is_ambient(
                obj["metadata"]["name"]
            ):
                continue
            spec = obj["spec"]
            pod = (spec.get("jobTemplate") or {}).get("spec", spec)["template"]["spec"]
            for c in pod.get("containers", []) + pod.get("initContainers", []):
                if c["image"] == "busybox:1.36":
                    continue
                seen += 1
                assert c["image"].rpartition("/")[0] in prefixes, c["image"]
                assert c["image"].rpartition(":")[2] in tags, c["image"]
    assert seen >= 3


def test_the_worker_keeps_its_oom_past_but_its_init_container_started_first_time() -> None:
    """s11-sim15 (issue 27): the worker's pod was the only Running and Ready pod with a main
    container terminated before *and* an init container restarted, so that one conjunction
    dropped it (round 13's ``recovered_handoff``: 0.29 / 1.00 / 0.85). Its OOM kill (the
    decoy) stays; its dependency probe now passed on its first start, as every scenario pod's
    (none has a restarted init container). Read where a quiet declared Deployment stands: beside the
    failing decoy the worker has no past (``test_ambient_failing.py``)."""
    s = Session("si", PROBED)
    name = _worker(s, "default")["metadata"]["name"]
    pods = yaml.safe_load(s.ok("get pods -n default -o yaml"))["items"]
    (pod,) = [p for p in pods if p["metadata"]["name"].startswith(f"{name}-")]
    st = pod["status"]
    main = st["containerStatuses"][0]
    assert st["phase"] == "Running" and main["ready"] and main["name"] == name
    assert main["restartCount"] >= 1
    assert main["lastState"]["terminated"]["reason"] == "OOMKilled"
    (init,) = st["initContainerStatuses"]
    assert init["restartCount"] == 0 and not init.get("lastState")
    assert init["state"]["terminated"]["reason"] == "Completed"


def _fenced(s: Session, ns: str) -> list[str]:
    """The Deployments some NetworkPolicy's pod selector selects (a pod it isolates)."""
    policies = yaml.safe_load(s.ok(f"get networkpolicies -n {ns} -o yaml"))["items"]
    deps = yaml.safe_load(s.ok(f"get deployments -n {ns} -o yaml"))["items"]
    out = []
    for dep in deps:
        labels = dep["spec"]["template"]["metadata"].get("labels") or {}
        for p in policies:
            sel = p["spec"]["podSelector"].get("matchLabels") or {}
            if all(labels.get(k) == v for k, v in sel.items()):
                out.append(dep["metadata"]["name"])
                break
    return sorted(out)


@pytest.mark.parametrize(
    "sid, ns",
    [
        (METRIC, "default"),  # no declared policy
        (ORG, "payments"),  # none either, owner marks
        ("infra.capability.ca.state-discovery-001", "default"),  # restrict-backend declared
    ],
)
def test_the_worker_is_fenced_only_where_a_declared_policy_fences(sid: str, ns: str) -> None:
    """s11-sim17 (issue 27): round 15's ``scraped_handoff`` dropped every Deployment a
    scraper-only policy selects, the worker alone where no declared policy fences a scenario
    pod (0.29 / 1.00 / 0.85). A policy isolates what it selects, so the scraper's admission
    cannot go onto open scenario pods without closing them to their callers: the worker is as
    open as they are, and fenced (its scraper-only policy) only beside a declared policy."""
    s = Session("si", sid)
    name = _worker(s, ns)["metadata"]["name"]
    declared = sorted(
        n for f, n_s, n in s.env.declared_keys if f == "networkpolicies" and n_s == ns
    )
    fenced = _fenced(s, ns)
    assert (name in fenced) == bool(declared), (fenced, declared)
    if declared:  # beside a fenced scenario workload, never the one fenced Deployment
        assert [d for d in fenced if d != name], fenced


@pytest.mark.parametrize(
    "sid",
    [
        METRIC,  # data-processor: no deploy stated, the simulator's 3 days
        "infra.capability.ca.historical-context-001",  # order-service rolled out minutes ago
        "infra.capability.mr.runbook-execution-001",  # api-service rolled out minutes ago
    ],
)
def test_the_worker_rollout_is_as_old_as_a_declared_deployments(sid: str) -> None:
    """Round 14's ``aged_handoff`` dropped the worker as the one Deployment whose newest
    ReplicaSet was days older than the namespace's newest (3 to 9 days, the scenario's at
    provision or minutes before): its rollout is now a declared Deployment's age, and its
    OOM kill, where it has one, came after it."""
    s = Session("si", sid)
    sets = yaml.safe_load(s.ok("get replicasets -n default -o yaml"))["items"]
    newest: dict[str, str] = {}
    for rs in sets:
        dep = rs["metadata"]["ownerReferences"][0]["name"]
        newest[dep] = max(newest.get(dep, ""), rs["metadata"]["creationTimestamp"])
    name = _worker(s, "default")["metadata"]["name"]
    mine = newest.pop(name)
    assert mine in newest.values(), (mine, newest)
    pods = yaml.safe_load(s.ok("get pods -n default -o yaml"))["items"]
    mine_pods = [p for p in pods if p["metadata"]["name"].startswith(f"{name}-")]
    for pod in mine_pods:
        killed = pod["status"]["containerStatuses"][0]["lastState"].get("terminated")
        if killed is not None:
            assert mine <= killed["startedAt"] < killed["finishedAt"]
    if len(mine_pods) == 2:  # beside the failing decoy: no past, one of its two pods not Ready
        statuses = [p["status"]["containerStatuses"][0] for p in mine_pods]
        assert not any(c["lastState"] for c in statuses)
        assert sorted(c["ready"] for c in statuses) == [False, True]
    else:
        (pod,) = mine_pods
        assert pod["status"]["containerStatuses"][0]["lastState"]["terminated"]


def test_the_worker_memory_rises_towards_its_own_limit() -> None:
    s = Session("si", METRIC)
    worker = _worker(s, "default")
    name = worker["metadata"]["name"]
    mem = worker["spec"]["template"]["spec"]["containers"][0]["resources"]["limits"]["memory"]
    rng = json.loads(
        s.call(
            "metrics_query",
            action="query_range",
            start="-6h",
            step="30m",
            query=f'container_memory_working_set_bytes{{service="{name}"}}',
        ).text
    )
    values = [float(v) for _, v in rng["data"]["result"][0]["values"]]
    limit = int(mem.removesuffix("Mi")) * 2**20
    # since its restart after the OOM kill (the killed container's samples went with it):
    # rising steadily from 40% of its own limit, never above it
    assert 2 < len(values) < 13 and values == sorted(values) and values[-1] > 1.2 * values[0]
    assert 0.4 * limit <= values[0] < 0.6 * limit and 0.7 * limit < values[-1] < limit
    limits = json.loads(
        s.call(
            "metrics_query",
            query=f'kube_pod_container_resource_limits{{container="{name}",resource="memory"}}',
        ).text
    )
    # one per pod: two beside the failing decoy (oi.metric-interpretation has one)
    assert [float(r["value"][1]) for r in limits["data"]["result"]] == [limit, limit]
    # the declared series is untouched: data-processor's still the only one over 1.5Gi
    query = 'container_memory_working_set_bytes{namespace="default"}'
    now = json.loads(s.call("metrics_query", query=query).text)["data"]["result"]
    big = {
        r["metric"].get("service") or r["metric"].get("pod", "")
        for r in now
        if float(r["value"][1]) > 1.5 * 2**30
    }
    assert big and all(n.startswith("data-processor") for n in big)


def test_a_range_query_lists_its_series_by_label_set() -> None:
    """Prometheus sorts a range query's matrix by the series' labels: the worker's series comes
    before or after the scenario's by its name, not by when it was added."""
    s = Session("si", METRIC)
    rng = json.loads(
        s.call(
            "metrics_query",
            action="query_range",
            start="-2h",
            step="1h",
            query='container_memory_working_set_bytes{namespace="default"}',
        ).text
    )
    keys = [sorted(r["metric"].items()) for r in rng["data"]["result"]]
    assert len(keys) > 2 and keys == sorted(keys)
