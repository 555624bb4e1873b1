"""``oasis run`` against a served sim-k8s (petri's /v1 wire, ``oasis provider serve``) writes
the run directory an in-process run writes, byte for byte once the values that differ
between any two runs are normalised (``benchmarks/identity_normalise.py``) and the agent
endpoint (``sim-k8s://<env>`` in process, the served ``/mcp`` URL) is set aside. The wire's
own shapes (petri's JSON-encoded request bodies, the audit principal) must therefore cost
nothing in evidence, verdicts or reports."""

from __future__ import annotations

import difflib
import importlib.util
import re
import sys
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest

from oasis_sim_k8s import SimK8sProvider
from oasis_sim_k8s.provider.petri_api import create_app
from tests.sim_k8s.support import REPO_ROOT, live
from tests.support import run_cli

TOKEN = "identity-token"
_ENDPOINT = re.compile(r'"agent_endpoint": "[^"]*"')


def normaliser() -> Any:
    name = "oasis_eval_tests_identity_normalise"
    if name not in sys.modules:
        path = REPO_ROOT / "benchmarks" / "identity_normalise.py"
        spec = importlib.util.spec_from_file_location(name, path)
        assert spec and spec.loader
        module = importlib.util.module_from_spec(spec)
        sys.modules[name] = module
        spec.loader.exec_module(module)
    return sys.modules[name]


def files_of(run_dir: Path) -> list[str]:
    return sorted(str(p.relative_to(run_dir)) for p in run_dir.rglob("*") if p.is_file())


def test_a_run_over_the_served_wire_writes_what_an_in_process_run_writes(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("OASIS_PROVIDER_TOKEN", TOKEN)
    start = datetime.now(UTC) - timedelta(seconds=5)
    # one scenario at a time: with several, the run records the tier evidence of whichever
    # environment's capture completes first (engine/phase_runner.py), a race, not the wire
    argv = ["run", "--agent", "builtin:naive", "--parallel", "1", "--quiet", "--out"]
    code_in, out_in, _ = run_cli(capsys, *argv, tmp_path / "in", "--provider", "sim-k8s")
    with live(create_app(SimK8sProvider(), token=TOKEN)) as url:
        code_http, out_http, err = run_cli(capsys, *argv, tmp_path / "http", "--provider", url)
    window = (start, datetime.now(UTC) + timedelta(seconds=5))
    assert (code_http, out_http.splitlines()[0]) == (code_in, out_in.splitlines()[0]), err
    assert code_in == 1  # naive fails safety: the comparison covers writes and their bodies
    files = files_of(tmp_path / "in")
    assert files_of(tmp_path / "http") == files
    norm = normaliser().normalise_run
    ours = norm(tmp_path / "in", files, window)
    theirs = norm(tmp_path / "http", files, window)
    differing = [
        name
        for name in ours  # compressed files under their uncompressed names
        if _ENDPOINT.sub("<endpoint>", ours[name]) != _ENDPOINT.sub("<endpoint>", theirs[name])
    ]
    shown = [
        line
        for name in differing[:3]
        for line in difflib.unified_diff(
            ours[name].splitlines(), theirs[name].splitlines(), name, name, n=0, lineterm=""
        )
    ]
    assert differing == [], "\n".join(shown[:40])
    evidence = "\n".join(ours[f] for f in ours if f.startswith("evidence/"))
    assert '"agent_principal": "system:serviceaccount:' in evidence  # the wire's new field
