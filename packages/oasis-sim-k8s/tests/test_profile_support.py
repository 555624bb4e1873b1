"""The simulator serves a named profile without code changes (issue 14 item 4; 08 §5.2).

Told which profile a run evaluates (``serve_profile``: the in-process provider before
preflight, ``oasis provider serve --profile PATH``), it checks that profile's conformance
contract and its scenarios' needs against its declared capabilities, then answers
conformance for that id and version only, or ``supported: false`` with each unmet
requirement; it never echoes a version it was not set up for.
"""

from __future__ import annotations

import shutil
from pathlib import Path

import anyio
import pytest

from oasis_eval import evaluate
from oasis_eval.contract import ProfileServing
from oasis_eval.examples import EXAMPLE_PROFILE_DIR
from oasis_eval.profiles.loader import load_profile
from oasis_eval.spec.profile import ConformanceRequirement, Profile
from oasis_sim_k8s.provider.simk8s import DEFAULT_PROFILES, SimK8sProvider
from tests.support import run_cli


def _renamed_example(tmp_path: Path, identifier: str, version: str = "3.1.4") -> Path:
    """The built-in example profile under another name and version, as an author would fork it."""
    root = tmp_path / identifier
    shutil.copytree(EXAMPLE_PROFILE_DIR, root)
    text = (root / "profile.yaml").read_text(encoding="utf-8")
    text = text.replace("oasis-eval-example-k8s", identifier).replace("0.1.0", version)
    # the fork keeps the original's behaviors, so it names their evaluators' namespace (issue 14)
    text += "\nbehavior_namespaces:\n  - oasis-eval-example-k8s\n"
    (root / "profile.yaml").write_text(text, encoding="utf-8")
    return root


def _load(path: Path) -> Profile:
    loaded = load_profile(path)
    assert loaded.profile is not None
    return loaded.profile


def _conformance(provider: SimK8sProvider, profile_id: str) -> dict[str, object]:
    return anyio.run(provider.conformance, profile_id).model_dump(mode="json")


def test_a_profile_it_can_serve_is_served_alone(tmp_path: Path) -> None:
    profile = _load(_renamed_example(tmp_path, "acme-batch-ops"))
    provider = SimK8sProvider()
    assert isinstance(provider, ProfileServing)
    assert provider.serve_profile(profile) == []
    answer = _conformance(provider, "acme-batch-ops")
    assert answer["supported"] is True and answer["profile_version"] == "3.1.4"
    for other in DEFAULT_PROFILES:  # set up for one profile: the defaults are no longer served
        refused = _conformance(provider, other)
        assert (
            refused["supported"] is False and refused["profile_version"] != DEFAULT_PROFILES[other]
        )


def test_a_requirement_it_cannot_meet_is_named(tmp_path: Path) -> None:
    profile = _load(_renamed_example(tmp_path, "acme-gpu-ops"))
    assert profile.conformance is not None
    profile.conformance.requirements["gpu_scheduling"] = ConformanceRequirement(
        key="gpu_scheduling", type="boolean", required=True, expected=True
    )
    profile.conformance.requirements["complexity_tier_supported"] = ConformanceRequirement(
        key="complexity_tier_supported",
        type="integer",
        expected={"comparison_operator": "gte", "value": 3},
    )
    provider = SimK8sProvider()
    unmet = provider.serve_profile(profile)
    assert [u["requirement"] for u in unmet] == ["complexity_tier_supported", "gpu_scheduling"]
    answer = _conformance(provider, "acme-gpu-ops")
    assert answer["supported"] is False
    assert answer["unmet_requirements"] == unmet
    assert answer["profile_version"] != "3.1.4"  # never echoes a version it does not serve


def test_scenario_needs_beyond_its_capabilities_are_named(tmp_path: Path) -> None:
    profile = _load(_renamed_example(tmp_path, "acme-odd-ops"))
    scenario = profile.scenarios[0]
    scenario.preconditions.agent.tools = [*scenario.preconditions.agent.tools, "quantum-console"]
    scenario.preconditions.environment.type = "mainframe"
    unmet = SimK8sProvider().serve_profile(profile)
    reasons = {u["requirement"]: u["reason"] for u in unmet}
    assert "interface_type:quantum-console" in reasons
    assert "mainframe" in reasons["environment_type"]


def test_profiles_given_in_config_are_kept(tmp_path: Path) -> None:
    provider = SimK8sProvider(profiles={"pinned": "1.0.0"})
    assert provider.serve_profile(_load(_renamed_example(tmp_path, "acme-x"))) == []
    assert _conformance(provider, "pinned")["supported"] is True


def test_oasis_run_serves_a_renamed_profile_in_process(tmp_path: Path) -> None:
    """Before: preflight refused any profile id but two hard-coded ones."""
    path = _renamed_example(tmp_path, "acme-platform-ops", "2.0.0")
    result = evaluate(path, "builtin:careful", out=tmp_path / "run", quiet=True)
    assert result.safety == "PASS"
    record = (tmp_path / "run" / "run.json").read_text(encoding="utf-8")
    assert "acme-platform-ops" in record and "2.0.0" in record


def test_serve_profile_option_rejects_a_bad_path(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    code, _, err = run_cli(
        capsys, "provider", "serve", "sim-k8s", "--port", "0", "--profile", tmp_path / "nope"
    )
    assert code == 2 and "--profile" in err and "no such file or directory" in err


def test_serve_profile_option_reaches_the_provider(tmp_path: Path) -> None:
    from starlette.testclient import TestClient

    from oasis_eval.contract import ServeOptions
    from oasis_sim_k8s.provider.serve import build_apps

    profile = _load(_renamed_example(tmp_path, "acme-served"))
    app = build_apps(ServeOptions(token="t" * 32, profile=profile))
    with TestClient(app) as client:
        auth = {"Authorization": "Bearer " + "t" * 32}
        served = client.get("/v1/conformance", params={"profile": "acme-served"}, headers=auth)
        other = client.get(
            "/v1/conformance",
            params={"profile": "oasis-profile-software-infrastructure"},
            headers=auth,
        )
    assert served.json()["supported"] is True and served.json()["profile_version"] == "3.1.4"
    assert other.json()["supported"] is False
