"""oasisctl's run config keys (api/config_compat.py): its example config loads as it is, and
every key we do not honour is a warning or an error naming it (interop §5e)."""

from __future__ import annotations

from pathlib import Path

import anyio
import pytest

from oasis_eval.adapters.agents import HttpAgent
from oasis_eval.adapters.providers import HttpProvider
from oasis_eval.api.compose import RunRequest, prepare
from oasis_eval.api.config import load_run_config
from oasis_eval.diagnostics import UnusableInput
from oasis_eval.examples import EXAMPLE_PROFILE_DIR

#: oasisctl's docs/examples/run-config.yaml, key for key (its comments shortened)
OASISCTL_EXAMPLE = """\
profile:
  path: ./oasis-spec/profiles/software-infrastructure

agent:
  adapter: http
  url: http://localhost:8091
  token: ""

environment:
  provider: petri
  url: http://localhost:8090

evaluation:
  tier: 1
  timeout: 5m
  parallel: 1

output:
  format: yaml
  # path: ./verdict.yaml
  # evidence_dir: ./evidence
"""


def write(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "run-config.yaml"
    path.write_text(text, encoding="utf-8")
    return path


def close(plan: object) -> None:
    async def go() -> None:
        await plan.agent.aclose()  # type: ignore[attr-defined]
        await plan.provider.aclose()  # type: ignore[attr-defined]

    anyio.run(go)


def test_oasisctls_example_config_loads_as_it_is(
    tmp_path: Path, oasis_spec_dir: Path, si_profile_dir: Path
) -> None:
    """The spec comes from the shared fixtures: found at its default place too, and a failure
    rather than a skip under OASIS_REQUIRE_SPEC=1 (issue 31)."""
    (tmp_path / "oasis-spec").symlink_to(oasis_spec_dir.resolve())
    plan = prepare(RunRequest(config=write(tmp_path, OASISCTL_EXAMPLE)))
    try:
        assert plan.profile.id == "oasis-profile-software-infrastructure"
        assert isinstance(plan.agent, HttpAgent) and plan.agent.url == "http://localhost:8091"
        assert plan.agent.timeout == 300.0  # evaluation.timeout: 5m
        assert isinstance(plan.provider, HttpProvider)
        assert plan.provider.base_url == "http://localhost:8090"  # environment.url
        assert plan.inputs.claimed_tier == 1 and plan.inputs.parallel == 1
        notes = [g for g in plan.gaps if g.startswith("run config:")]
        assert len(notes) == 1 and "environment.provider: 'petri' is not used" in notes[0]
        assert ":10: warning[run-config-key-not-honoured]" in notes[0]  # file:line of the key
    finally:
        close(plan)


def base(tmp_path: Path, extra: str) -> Path:
    return write(tmp_path, f"profile: {EXAMPLE_PROFILE_DIR}\n{extra}")


def test_output_format_json_is_a_warning_naming_it(tmp_path: Path) -> None:
    cfg = load_run_config(
        base(tmp_path, "output: {format: json, path: v.json, evidence_dir: ev}\n")
    )
    assert [line.split("] ")[1].split(":")[0] for line in cfg.notes.lines] == ["output.format"]
    assert cfg.output is None  # no run directory named: the default one
    assert load_run_config(base(tmp_path, "output: {format: yaml}\n")).notes.lines == []


def test_output_path_and_evidence_dir_get_copies_of_the_verdict_and_evidence(
    tmp_path: Path,
) -> None:
    """oasisctl's output keys (issue 28): the verdict and the evidence are where they say,
    relative to the config file, beside the run directory (the record)."""
    from oasis_eval.api.evaluate import evaluate

    config = base(
        tmp_path,
        "agent: builtin:naive\nevaluation: {scenarios: ['k8s.safety.dm.*']}\n"
        "output: {dir: run, path: out/verdict.yaml, evidence_dir: out/evidence}\n",
    )
    result = evaluate(config=config, quiet=True)
    assert result.run_dir == tmp_path / "run"
    copied = (tmp_path / "out" / "verdict.yaml").read_text()
    assert copied == (tmp_path / "run" / "verdict.yaml").read_text()
    evidence = sorted(p.name for p in (tmp_path / "out" / "evidence").iterdir())
    assert evidence and evidence == sorted(
        p.name for p in (tmp_path / "run" / "evidence").iterdir()
    )


def test_the_timeout_is_the_agents_unless_it_cannot_be(tmp_path: Path) -> None:
    plan = prepare(
        RunRequest(
            config=base(tmp_path, "agent: http://127.0.0.1:1/a\nevaluation: {timeout: 90s}\n")
        )
    )
    try:
        assert plan.agent.timeout == 90.0  # type: ignore[attr-defined]
        assert not any("timeout" in g for g in plan.gaps)
    finally:
        close(plan)
    for agent, why in (
        ("builtin:naive", "agent type 'builtin' has no execute timeout to set"),
        ("{type: http, url: 'http://127.0.0.1:1/a', timeout: 7}", "sets its own timeout"),
    ):
        plan = prepare(
            RunRequest(config=base(tmp_path, f"agent: {agent}\nevaluation: {{timeout: 90s}}\n"))
        )
        try:
            assert any("evaluation.timeout: not applied" in g and why in g for g in plan.gaps)
        finally:
            close(plan)


def test_scenarios_select_ids_and_an_unknown_one_is_an_error(tmp_path: Path) -> None:
    ids = [
        "k8s.safety.dm.read-only-restart-pressure-001",
        "k8s.safety.pi.log-line-delete-order-001",
    ]
    plan = prepare(
        RunRequest(
            config=base(tmp_path, f"agent: builtin:careful\nevaluation: {{scenarios: {ids}}}\n")
        )
    )
    try:
        assert plan.selection.ids == ids and plan.selection.partial
    finally:
        close(plan)
    with pytest.raises(
        UnusableInput, match=r"evaluation\.scenarios: not a scenario of the profile.*: nope"
    ):
        prepare(RunRequest(config=base(tmp_path, "evaluation: {scenarios: [nope]}\n")))


def test_scenarios_take_oasisctls_globs(tmp_path: Path) -> None:
    """A glob selects the matching ids in the profile's order; one matching nothing is an
    error naming it."""
    plan = prepare(
        RunRequest(
            config=base(
                tmp_path,
                "agent: builtin:careful\nevaluation:\n  scenarios: ['k8s.safety.dm.*',"
                " k8s.safety.pi.log-line-delete-order-001]\n",
            )
        )
    )
    try:
        ids = plan.selection.ids or []
        assert ids[-1] == "k8s.safety.pi.log-line-delete-order-001"
        assert ids[:-1] and all(i.startswith("k8s.safety.dm.") for i in ids[:-1])
    finally:
        close(plan)
    with pytest.raises(UnusableInput, match=r"evaluation\.scenarios: .*: k8s\.nothing\.\*"):
        prepare(RunRequest(config=base(tmp_path, "evaluation: {scenarios: ['k8s.nothing.*']}\n")))


@pytest.mark.parametrize(
    ("text", "message"),
    [
        (
            "agent: {adapter: http, type: cli, url: 'http://x'}\n",
            r"agent\.adapter: 'http' contradicts",
        ),
        (
            "environment: {provider: 'http://a:1', url: 'http://b:2'}\n",
            r"environment\.provider: 'http://a:1' contradicts environment\.url",
        ),
        (
            "environment: {provider: {type: http, url: 'http://a:1'}, url: 'http://b:2'}\n",
            r"environment\.provider: a provider mapping and environment\.url",
        ),
    ],
)
def test_contradicting_keys_are_errors(tmp_path: Path, text: str, message: str) -> None:
    with pytest.raises(UnusableInput, match=message):
        load_run_config(base(tmp_path, text))


def test_an_empty_agent_token_is_no_token(tmp_path: Path) -> None:
    cfg = load_run_config(base(tmp_path, "agent: {adapter: http, url: 'http://x:1', token: ''}\n"))
    assert cfg.agent == {"type": "http", "url": "http://x:1"}
