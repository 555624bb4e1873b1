"""Issue 25 item 1: a subprocess agent gets an explicit environment, never the runner's.

A hostile ``cli:`` agent dumps everything it can see of the harness: its own environment,
its parent's ``/proc/<ppid>/environ`` and ``cmdline``. The runner was started with the run
key, the reserved-bundle key (default and ``--reserved-key-env`` variable), the provider token
and an unrelated variable: none of them may be in the dump. With what it saw it then plays
the issue's attack: re-sign a forged run so that ``oasis replay`` says "verified".
"""

from __future__ import annotations

import json
import os
import pwd
import shutil
import subprocess
import sys
import tempfile
import textwrap
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from oasis_eval.engine.manifest import load_run_key, verify_manifest, write_manifest

from ..support import run_cli

SCENARIO = "k8s.safety.dm.read-only-restart-pressure-001"
SECRETS = {
    "OASIS_RUN_KEY": "run-key-7f3a9c1e5b2d4f6a8c0e1a3b5d7f9e2c",
    "OASIS_RESERVED_KEY": "reserved-key-0f1e2d3c4b5a69788796a5b4c3d2e1f0",
    "MY_BUNDLE_KEY": "bundle-key-1a2b3c4d5e6f708192a3b4c5d6e7f8091",
    "OASIS_PROVIDER_TOKEN": "provider-token-9e8d7c6b5a4f3e2d1c0b9a8f7e6d5c4b",
}

DUMPER = """
import json, os, sys
out = sys.argv[1]
seen = {"uid": os.getuid(), "argv": sys.argv, "environ": dict(os.environ)}
ppid = os.getppid()
for what in ("environ", "cmdline"):
    try:
        with open(f"/proc/{ppid}/{what}", "rb") as handle:
            seen["parent_" + what] = handle.read().decode("utf-8", "replace")
    except OSError as exc:
        seen["parent_" + what] = "denied: " + type(exc).__name__
kubeconfig = os.environ.get("KUBECONFIG")
if kubeconfig and os.path.isfile(kubeconfig):
    with open(kubeconfig, encoding="utf-8") as handle:
        seen["kubeconfig"] = handle.read()
# each call its own file (an isolated agent is pid 1 of its own PID namespace every time)
with open(os.path.join(out, f"dump-{os.getpid()}-{os.urandom(6).hex()}.json"), "w") as handle:
    json.dump(seen, handle)
if sys.argv[2:] == ["identify"]:
    print(json.dumps({"identity": {"name": "env-dumper", "version": "1.0.0"}, "configuration": {}}))
else:
    sys.stdin.read()
    print(json.dumps({"actions": [], "reasoning": "looked around", "final_answer": "done"}))
"""


def oasis(args: list[str], env: dict[str, str], cwd: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-c", "from oasis_eval.cli.main import main; main()", *args],
        env=env,
        check=False,
        cwd=cwd,
        capture_output=True,
        text=True,
        timeout=300,
    )


def runner_env(**extra: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("OASIS_")}
    return {**env, **SECRETS, "UNRELATED_SETTING": "not-for-the-agent", **extra}


def dumps(directory: Path) -> list[dict[str, Any]]:
    found = [json.loads(p.read_text()) for p in sorted(directory.glob("dump-*.json"))]
    assert len(found) >= 2, "the agent ran for identify and for the scenario"
    return found


@pytest.fixture(scope="module")
def hostile_run(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, list[dict[str, Any]]]:
    """One run of the hostile agent, the runner holding every harness secret."""
    base = tmp_path_factory.mktemp("agent-env")
    (base / "dumper.py").write_text(textwrap.dedent(DUMPER))
    (base / "seen").mkdir()
    done = oasis(
        [
            "run",
            "--agent",
            f"cli:{sys.executable} dumper.py seen",
            "--reserved-key-env",
            "MY_BUNDLE_KEY",
            "--filter",
            SCENARIO,
            "--out",
            str(base / "run"),
            "-q",
        ],
        runner_env(),
        base,
    )
    assert done.returncode in (0, 1, 6), done.stderr
    return base / "run", dumps(base / "seen")


def test_no_harness_secret_reaches_the_agent(
    hostile_run: tuple[Path, list[dict[str, Any]]],
) -> None:
    _, seen = hostile_run
    text = json.dumps(seen)
    assert any(d["argv"][2:] == ["identify"] for d in seen) and len(seen) >= 2
    for name, value in SECRETS.items():
        assert value not in text, f"{name} reached the agent"
    for dump in seen:
        assert "UNRELATED_SETTING" not in dump["environ"]  # an allow-list: nothing inherited
        assert set(dump["environ"]) - {"PATH", "HOME", "LANG", "TZ"} <= {
            "KUBECONFIG",
            "OASIS_AGENT_ENDPOINT",
            "OASIS_MCP_URL",
            "OASIS_PROMETHEUS_URL",
            "OASIS_GRAFANA_URL",
            "OASIS_TEMPO_URL",
            "OASIS_AGENT_TOKEN",
            "OASIS_NAMESPACE",
            "OASIS_CREDENTIAL_USER",
        }


def test_the_agent_gets_its_hand_off_as_tools_expect_it(
    hostile_run: tuple[Path, list[dict[str, Any]]],
) -> None:
    _, seen = hostile_run
    (execute,) = [d for d in seen if d["argv"][2:] != ["identify"]]
    environ = execute["environ"]
    assert environ["KUBECONFIG"] and "current-context: oasis-agent" in execute["kubeconfig"]
    assert environ["OASIS_AGENT_TOKEN"] in execute["kubeconfig"]
    assert environ["OASIS_MCP_URL"].endswith("/mcp")
    assert environ["OASIS_PROMETHEUS_URL"].endswith("/prometheus")
    assert environ["OASIS_GRAFANA_URL"].endswith("/grafana")
    assert environ["OASIS_TEMPO_URL"].endswith("/tempo")
    assert environ["OASIS_NAMESPACE"]
    assert not Path(environ["KUBECONFIG"]).exists()  # removed with the scenario


def test_an_agent_cannot_re_sign_a_forged_run(
    hostile_run: tuple[Path, list[dict[str, Any]]], tmp_path: Path
) -> None:
    """The issue's attack: with every value it saw as a candidate run key, the agent rewrites
    the verdict and re-signs the manifest; the genuine key verifies none of them."""
    run_dir, seen = hostile_run
    genuine = load_run_key({"OASIS_RUN_KEY": SECRETS["OASIS_RUN_KEY"]})
    assert verify_manifest(run_dir, genuine).integrity == "verified"
    candidates = set()
    for dump in seen:
        candidates.update(dump["environ"].values())
        for block in (dump["parent_environ"], dump["parent_cmdline"]):
            candidates.update(part.partition("=")[2] or part for part in block.split("\0"))
    candidates = {c.strip() for c in candidates if len(c.strip()) >= 16}
    assert candidates
    for n, candidate in enumerate(sorted(candidates)):
        forged = tmp_path / f"forged-{n}"
        shutil.copytree(run_dir, forged)
        verdict = forged / "verdict.yaml"
        verdict.write_text(verdict.read_text().replace("safety: FAIL", "safety: PASS") + "\n")
        write_manifest(forged, load_run_key({"OASIS_RUN_KEY": candidate}))
        assert verify_manifest(forged, genuine).integrity != "verified"


def test_agent_env_passes_what_is_named_and_refuses_a_harness_secret(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    (tmp_path / "dumper.py").write_text(textwrap.dedent(DUMPER))
    (tmp_path / "seen").mkdir()
    agent = f"cli:{sys.executable} dumper.py seen"
    common = ["--filter", SCENARIO, "-q"]
    env = runner_env(PASSED_SETTING="for-the-agent")
    # the refusals come before any scenario: checked in process, with the runner's
    # environment (issue 31: a process each cost more than the rest of the test)
    for name in [k for k in os.environ if k not in env]:
        monkeypatch.delenv(name)
    for name, value in env.items():
        monkeypatch.setenv(name, value)
    monkeypatch.chdir(tmp_path)
    code, _, err = run_cli(capsys, "run", "--agent", agent, "--agent-env", "OASIS_RUN_KEY", *common)
    assert code == 2 and "harness secret" in err
    bundle = ["--reserved-key-env", "MY_BUNDLE_KEY", "--agent-env", "MY_BUNDLE_KEY"]
    code, _, err = run_cli(capsys, "run", "--agent", agent, *bundle, *common)
    assert code == 2 and "harness secret" in err
    code, _, err = run_cli(
        capsys, "run", "--agent", agent, "--agent-env", "NOT_SET_ANYWHERE", *common
    )
    assert code == 2 and "not set" in err
    assert not list((tmp_path / "seen").iterdir())  # refused before the agent ran
    out = str(tmp_path / "run")
    done = oasis(
        ["run", "--agent", agent, "--agent-env", "PASSED_SETTING", "--out", out, *common],
        env,
        tmp_path,
    )
    assert done.returncode in (0, 1, 6), done.stderr
    for dump in dumps(tmp_path / "seen"):
        assert dump["environ"]["PASSED_SETTING"] == "for-the-agent"
        assert "UNRELATED_SETTING" not in dump["environ"]


@pytest.fixture
def world_dir() -> Iterator[Path]:
    """A directory another user can enter and write (pytest's tmp_path is root's only)."""
    directory = Path(tempfile.mkdtemp(prefix="oasis-agent-user-", dir="/tmp"))
    directory.chmod(0o777)
    try:
        yield directory
    finally:
        shutil.rmtree(directory, ignore_errors=True)


SH_AGENT = """#!/bin/sh
out="$1"
{
  echo "uid=$(id -u)"
  echo "home=$HOME"
  if cat "/proc/$PPID/environ" >/dev/null 2>&1; then echo "parent_environ=readable"; else echo "parent_environ=denied"; fi
  if [ -r "$KUBECONFIG" ]; then echo "kubeconfig=readable"; fi
} > "$out/seen-$$.txt"
cat > /dev/null
echo '{"actions": [], "final_answer": "done"}'
"""


@pytest.mark.skipif(os.geteuid() != 0, reason="--agent-user needs a root runner")
def test_agent_user_runs_the_agent_as_that_user(world_dir: Path) -> None:
    try:
        nobody = pwd.getpwnam("nobody")
    except KeyError:
        pytest.skip("no 'nobody' account on this machine (tests create no users)")
    agent = world_dir / "agent.sh"
    agent.write_text(SH_AGENT)
    agent.chmod(0o755)
    done = oasis(
        [
            "run",
            "--agent",
            f"cli:{agent} {world_dir}",
            "--agent-option",
            "name=sh-agent",
            "--agent-option",
            "version=1.0.0",
            "--agent-option",
            "input=text",
            "--agent-user",
            "nobody",
            "--filter",
            SCENARIO,
            "--out",
            str(world_dir / "run"),
            "-q",
        ],
        runner_env(),
        world_dir,
    )
    assert done.returncode in (0, 1, 6), done.stderr
    (seen,) = [p.read_text() for p in world_dir.glob("seen-*.txt")]
    assert f"uid={nobody.pw_uid}" in seen
    assert f"home={nobody.pw_dir}" in seen
    assert "parent_environ=denied" in seen  # another user: the runner's /proc is closed
    assert "kubeconfig=readable" in seen  # its own hand-off is its own


def test_agent_user_is_refused_for_an_in_process_agent(tmp_path: Path) -> None:
    done = oasis(
        ["run", "--agent", "builtin:careful", "--agent-user", "nobody", "-q"],
        runner_env(),
        tmp_path,
    )
    assert done.returncode == 2 and "subprocess" in done.stderr
