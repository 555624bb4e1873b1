"""The ambient worker's identity is composed, not listed (issue 27, round 6 of the noise): no
list a reader can copy names every worker, and a draw never takes the environment's own names."""

from __future__ import annotations

import re
from typing import Any

import pytest

from oasis_sim_k8s import SimK8sProvider
from oasis_sim_k8s.injection import ambient_names as an
from oasis_sim_k8s.injection.environment import PROVIDER_USER, Environment
from tests.sim_k8s.support import provision, scenario_ids


def _env() -> Environment:
    env = Environment("env-1", "scenario-1", "agent", "seed")
    env.api.request(PROVIDER_USER, "create", "namespaces", body={"metadata": {"name": "apps"}})
    return env


def _deployment(name: str, labels: dict[str, str]) -> dict[str, Any]:
    return {
        "metadata": {"name": name, "labels": labels},
        "spec": {
            "selector": {"matchLabels": {"app": name}},
            "template": {
                "metadata": {"labels": {"app": name}},
                "spec": {"containers": [{"name": name, "image": "busybox:1.36"}]},
            },
        },
    }


def test_the_pools_compose_hundreds_of_identities() -> None:
    assert len(an.EARLY) * len(an.ROLES) >= 250 and len(an.LATE) * len(an.ROLES) >= 250
    assert len(an.INIT_SHAPES) * len(an.DEPENDENCIES) >= 60
    assert len(an.AREAS) * len(an.TEAM_SUFFIXES) >= 100


def test_a_draw_that_collides_with_the_environment_is_drawn_again() -> None:
    env = _env()
    first = an.compose_free(env, "apps", "salt", early=True)
    assert first is not None and first.name.split("-")[0] in an.EARLY
    assert an.compose_free(env, "apps", "salt", early=True) == first  # deterministic
    # a declared Deployment named like the worker's prefix, labelled with its team
    body: dict[str, Any] = _deployment(first.name.split("-")[0], {"team": first.team})
    body["spec"]["template"]["spec"]["initContainers"] = [{"name": first.init, "image": "x"}]
    env.api.request(PROVIDER_USER, "create", "deployments", namespace="apps", body=body)
    again = an.compose_free(env, "apps", "salt", early=True)
    assert again is not None and again.name != first.name
    assert not again.name.startswith(first.name.split("-")[0] + "-")
    assert again.team != first.team and again.init != first.init


@pytest.mark.timeout(300)
def test_the_si_workers_are_many_and_never_the_scenarios_own() -> None:
    sids = scenario_ids("si")
    if not sids:
        pytest.skip("SI profile not found (set OASIS_SPEC_DIR)")
    provider = SimK8sProvider(seeded_ids=True)
    names, inits, policies, services = set(), set(), set(), set()
    for sid in sids:
        _, env = provision(provider, "si", sid)
        declared = {n for _, _, n in env.declared_keys}
        for dep in env.store.iter("deployments"):
            name = dep["metadata"]["name"]
            if not an.is_worker_name(name) or name in declared:
                continue
            pod = dep["spec"]["template"]["spec"]
            assert not any(d.startswith(name + "-") or name.startswith(d + "-") for d in declared)
            if not pod.get("initContainers"):  # the failing decoy (``ambient_failing``)
                (c,) = pod["containers"]
                assert _image_form(c["image"]) in _declared_forms(env, dep), sid
                continue
            init = pod["initContainers"][0]["name"]
            # its owner marks, where it carries any (round 11: ``test_ambient_worker``)
            team = dep["metadata"]["labels"].get("team", "")
            assert not any(d.startswith(name + "-") or name.startswith(d + "-") for d in declared)
            assert init not in declared and (not team or team not in declared), sid
            services.add(_service_shape(env, dep))
            for c in pod["containers"]:
                assert _image_form(c["image"]) in _declared_forms(env, dep), sid
            names.add(name)
            inits.add(init)
            policies |= {
                p["metadata"]["name"].removeprefix(name)
                for p in env.store.iter("networkpolicies", dep["metadata"]["namespace"])
                if p["metadata"]["name"].startswith(name + "-")
            }
    # the worker's own policy stands only where a declared policy fences its namespace (round
    # 15, branch s11-sim17): one SI namespace
    assert len(names) >= 20 and len(inits) >= 10 and len(policies) >= 1
    assert len(services) >= 3, services


def _image_form(image: str) -> tuple[str, str]:
    """An image's registry and path, and its tag's shape (digits as ``9``)."""
    path, _, last = image.split("@")[0].rpartition("/")
    return path, re.sub(r"\d+", "9", last.partition(":")[2])


def _declared_forms(env: Environment, dep: dict[str, Any]) -> set[tuple[str, str]]:
    """The image forms of the worker's namespace's declared workloads (else the environment's,
    else the simulator's default ``<name>:v1.0.0``): s10-fix12b, no ``registry.example.com/``
    prefix of the worker's alone."""
    ns = dep["metadata"]["namespace"]
    for where in (ns, None):
        forms = {
            _image_form(c["image"])
            for p, w, n in env.declared_keys
            if p == "deployments" and where in (None, w)
            for c in env.store.raw(p, w, n)["spec"]["template"]["spec"]["containers"]
        }
        if forms:
            return forms
    return {("", "v9.9.9")}


def _service_shape(env: Environment, dep: dict[str, Any]) -> str:
    """The worker's Service (round 10: "the Deployment no Service selects" is not the worker),
    its name less the worker's; it selects the worker's pods and its endpoints hold them."""
    name, ns = dep["metadata"]["name"], dep["metadata"]["namespace"]
    labels = dep["spec"]["template"]["metadata"]["labels"]
    picked = [
        s
        for s in env.store.iter("services", ns)
        if (sel := s["spec"].get("selector")) and all(labels.get(k) == v for k, v in sel.items())
    ]
    assert len(picked) == 1, (name, [s["metadata"]["name"] for s in picked])
    svc = picked[0]["metadata"]["name"]
    ready = [
        a["targetRef"]["name"]
        for sub in env.store.raw("endpoints", ns, svc)["subsets"]
        for a in (sub.get("addresses") or []) + (sub.get("notReadyAddresses") or [])
    ]
    assert ready and all(p.startswith(name + "-") for p in ready), (svc, ready)
    # its word is no word of the namespace's other objects: "<worker>-monitoring" beside a
    # policy admitting app=monitoring would state that policy's fact in any Service listing
    word = svc.removeprefix(name).strip("-")
    others = [o for (_, w, n), o in env.store.items() if w == ns and not n.startswith(name)]
    assert not word or not re.search(rf"(?<![a-z0-9]){word}(?![a-z0-9])", repr(others).lower())
    return svc.removeprefix(name)


def _words_one_by_one(env: Environment, ns: str) -> set[str]:
    """The words of the namespace as the worker's draw first read them: each string split on
    its own (issue 30: one split of all of them is the same set)."""
    out: set[str] = set()
    stack: list[Any] = [obj for (_, where, _), obj in env.store.items() if where == ns]
    while stack:
        value = stack.pop()
        if isinstance(value, dict):
            stack += [*value.keys(), *value.values()]
        elif isinstance(value, list):
            stack += value
        elif isinstance(value, str):
            out.update(re.split(r"[^a-z0-9]+", value.lower()))
    return out - {""}


@pytest.mark.parametrize(
    "text",
    [
        "api-monitoring",
        "KELVIN\u212a-Metrics",  # the Kelvin sign lowercases to an ASCII k
        "\u0130stanbul-admin",  # a dotted capital I lowercases to i + a combining dot
        "tab\tsplit\nlines\x00nul-telemetry",
        "\u03a3\u039f\u03a3-monitoring \u00e9t\u00e9",  # final sigma, accents
        "",
        "---",
        "a" * 300,
    ],
)
def test_the_namespace_words_are_each_strings_own(text: str) -> None:
    env = _env()
    body: dict[str, Any] = _deployment("web", {"team": text or "none"})
    body["metadata"]["annotations"] = {text or "k": text, "note": f"{text} with {text.upper()}"}
    body["spec"]["template"]["spec"]["containers"][0]["args"] = [text, f"--x={text}", "9x"]
    env.api.request(PROVIDER_USER, "create", "deployments", namespace="apps", body=body)
    _same_words(env, "apps")
    # two strings never run together into one word, nor another namespace's strings in
    env.api.request(PROVIDER_USER, "create", "namespaces", body={"metadata": {"name": "other"}})
    other: dict[str, Any] = _deployment("monitoring", {"team": "admin"})
    env.api.request(PROVIDER_USER, "create", "deployments", namespace="other", body=other)
    _same_words(env, "apps")
    assert "monitoring" in an._words_in(env, "other")


def _same_words(env: Environment, ns: str) -> None:
    """Every word asked about answers as the per-string split does: each word of the
    namespace, its pieces and neighbours, the words a worker's Service may end in, and
    texts that are no single word."""
    expected = _words_one_by_one(env, ns)
    words = an._words_in(env, ns)
    asked = set(expected) | {"", "-", "a-b", "monitoring", "metrics", "admin", "telemetry", "k"}
    for word in sorted(expected):
        asked |= {word[1:], word[:-1], word + "0", "x" + word, word.upper(), f"{word}-{word}"}
    for word in sorted(asked):
        assert (word in words) == (word in expected), word


def test_the_namespace_is_walked_only_for_a_draw_that_asks(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Issue 30: a Service named as its worker (no word after the name) asks no word, so the
    namespace's strings are not walked for it."""
    env = _env()
    salt = next(
        f"s{i}" for i in range(200) if (d := an._compose(f"s{i}:0", an.LATE)).service == d.name
    )
    walked: list[str] = []
    monkeypatch.setattr(an, "_words_in", lambda env, ns: walked.append(ns) or an.Words(""))
    assert an.compose_free(env, "apps", salt, early=False) == an._compose(f"{salt}:0", an.LATE)
    assert walked == []
    other = next(
        f"s{i}" for i in range(200) if (d := an._compose(f"s{i}:0", an.LATE)).service != d.name
    )
    assert an.compose_free(env, "apps", other, early=False) is not None
    assert walked == ["apps"]
