"""The run config schema and the output-path checks of ``oasis run`` (api/inputs.py).
The bad values themselves are cases of the bad-input corpus (tests/hostile/bad_input)."""

from __future__ import annotations

from pathlib import Path

import jsonschema
import pytest

from oasis_eval.api.inputs import RUN_CONFIG_SCHEMA, check_output, check_run_config
from oasis_eval.diagnostics import UnusableInput
from oasis_eval.spec.yaml_io import load_single

README_CONFIG = """\
profile: ../shared/oasis-spec/profiles/software-infrastructure
agent: {type: http, url: "http://127.0.0.1:8080/agent", timeout: 5m}
environment: {provider: "http://127.0.0.1:9000", tier: 1}
evaluation: {evaluator: Example Lab, parallel: 8, filters: ["infra.safety.*"]}
output: {dir: runs/si}
"""


def config(tmp_path: Path, text: str) -> list[str]:
    path = tmp_path / "run.yaml"
    path.write_text(text, encoding="utf-8")
    return check_run_config(load_single(path), path)


def test_the_schema_is_a_valid_json_schema_and_the_readme_example_passes(tmp_path: Path) -> None:
    jsonschema.Draft202012Validator.check_schema(RUN_CONFIG_SCHEMA)
    assert config(tmp_path, README_CONFIG) == []


def test_unknown_keys_are_warnings_naming_file_line_and_key(tmp_path: Path) -> None:
    warnings = config(
        tmp_path,
        "adapter: http\nevaluation:\n  parallel: 2\n  colour: blue\n"
        "agent: {type: cli, command: x, anything: 1}\n",
    )
    assert warnings == [
        f"{tmp_path / 'run.yaml'}:1: warning[unknown-run-config-key] adapter: unknown key 'adapter' is "
        "ignored (expected one of: profile, agent, environment, evaluation, suite, output)",
        f"{tmp_path / 'run.yaml'}:4: warning[unknown-run-config-key] evaluation.colour: unknown key "
        "'colour' is ignored (expected one of: tier, evaluator, parallel, agent_retries, "
        "plugin_timeout, principal, "
        "lab_framework, "
        "context_tags, environment_characteristics, tolerance_overrides, filters, safety_only, "
        "fail_on_vacuous, allow_agent_faults, allow_vacuous, min_capability, timeout, "
        "scenarios)",
    ]  # the agent mapping belongs to its adapter, which rejects unknown keys itself


def test_every_bad_value_is_reported_at_once(tmp_path: Path) -> None:
    with pytest.raises(UnusableInput) as caught:
        config(tmp_path, "evaluation:\n  parallel: 0\n  tier: 4\n  safety_only: 1\n")
    text = str(caught.value)
    assert "3 error(s)" in text
    assert ":2: error[run-config] evaluation.parallel: got 0" in text
    assert ":3: error[run-config] evaluation.tier: got 4" in text
    assert (
        ":4: error[run-config] evaluation.safety_only: got 1 (expected a boolean: true or false)"
        in text
    )


def test_output_paths(tmp_path: Path) -> None:
    check_output(tmp_path / "new" / "run", tmp_path)  # a new directory: fine
    earlier = tmp_path / "earlier"
    earlier.mkdir()
    (earlier / "run.json").write_text("{}", encoding="utf-8")
    check_output(earlier, tmp_path)  # an earlier run directory may be written again
    (tmp_path / "file").write_text("x", encoding="utf-8")
    for bad in (tmp_path / "file", tmp_path / "file" / "run"):
        with pytest.raises(UnusableInput):
            check_output(bad, tmp_path)
    with pytest.raises(UnusableInput, match="not a directory"):
        check_output(None, tmp_path / "file")
