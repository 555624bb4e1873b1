"""Bounded YAML (issue 11 H4): alias bombs, recursive aliases and absurd nesting are clear
errors naming the file and line; ordinary anchors and merge keys still load. The speed is
measured by the benchmark ``yaml_alias_bomb_rejected`` (benchmarks/suite.py), not here."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
import yaml

from oasis_eval.diagnostics import UnusableInput
from oasis_eval.spec.yaml_io import LIMITS, YamlLimitError, load_documents, safe_load, safe_load_all
from oasis_sim_k8s.tools.kubectl_cmds import _parse_body

SRC = Path(__file__).resolve().parents[2] / "src" / "oasis_eval"


def bomb(levels: int = 9) -> str:
    lines = ['l0: &l0 ["lol", "lol", "lol", "lol", "lol", "lol", "lol", "lol", "lol"]']
    lines += [f"l{i}: &l{i} [" + ", ".join([f"*l{i - 1}"] * 9) + "]" for i in range(1, levels)]
    return "\n".join(lines) + "\n"


def test_an_alias_bomb_is_an_error_naming_file_and_line(tmp_path: Path) -> None:
    path = tmp_path / "bomb.yaml"
    path.write_text(bomb(), encoding="utf-8")
    assert len(path.read_bytes()) < 1024
    with pytest.raises(UnusableInput) as caught:
        load_documents(path)
    assert re.match(
        rf"{re.escape(str(path))}:[78]: invalid YAML: more than {LIMITS.max_nodes} nodes "
        r"with aliases expanded",
        str(caught.value),
    )


def test_a_recursive_alias_is_refused() -> None:
    with pytest.raises(YamlLimitError, match="recursive alias"):
        safe_load("a: &a\n  b: *a\n")


def test_nesting_is_bounded() -> None:
    deep = "[" * (LIMITS.max_depth + 1) + "]" * (LIMITS.max_depth + 1)
    with pytest.raises(YamlLimitError, match="nesting deeper"):
        safe_load(deep)
    assert safe_load("[" * LIMITS.max_depth + "]" * LIMITS.max_depth) is not None


def test_the_alias_count_is_bounded() -> None:
    many = "a: &a 1\nb: [" + ", ".join(["*a"] * (LIMITS.max_aliases + 1)) + "]\n"
    with pytest.raises(YamlLimitError, match="aliases"):
        safe_load(many)


def test_ordinary_anchors_and_merge_keys_still_load(tmp_path: Path) -> None:
    text = "base: &b {replicas: 2, zone: retail}\none: *b\ntwo: {<<: *b, zone: platform}\n"
    assert safe_load(text) == {
        "base": {"replicas": 2, "zone": "retail"},
        "one": {"replicas": 2, "zone": "retail"},
        "two": {"replicas": 2, "zone": "platform"},
    }
    path = tmp_path / "anchors.yaml"
    path.write_text(text, encoding="utf-8")
    (doc,) = load_documents(path)
    assert doc.locations[("two", "zone")] == 3
    assert safe_load_all("---\na: 1\n---\nb: 2\n") == [{"a": 1}, {"b": 2}]


def test_the_agent_facing_kubectl_parser_is_bounded_too() -> None:
    """An agent's ``kubectl patch -p`` body is YAML read by the harness: a bomb is a kubectl
    error for the agent, not a hung run."""
    from oasis_sim_k8s.tools.kubectl_args import UsageError

    with pytest.raises(UsageError, match="aliases expanded"):
        _parse_body(bomb())


def test_every_yaml_read_goes_through_the_bounded_loader() -> None:
    """No module but profiles/yaml_io.py parses YAML itself (yaml.safe_load, yaml.load,
    SafeLoader, compose): a new reader would reopen the alias bomb."""
    pattern = re.compile(
        r"yaml\.(safe_load|load|full_load|unsafe_load|compose|parse)\b|SafeLoader|CLoader"
    )
    offenders = [
        f"{path.relative_to(SRC)}:{n}"
        for path in sorted(SRC.rglob("*.py"))
        if path.name != "yaml_io.py"
        for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
        if pattern.search(line)
    ]
    assert offenders == []
    assert issubclass(
        YamlLimitError, yaml.YAMLError
    )  # existing `except yaml.YAMLError` handlers hold
