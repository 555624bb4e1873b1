"""A ``cli:`` agent written the way users write theirs: it takes the kubeconfig from its task
(petri's hand-off: ``environment.agent_credentials.kubeconfig``), writes it to a private temp
file and shells out to real ``kubectl``. It knows nothing of oasis-eval or the simulator.

    python kubectl_agent.py careful|naive [identify]     # cli:
    python kubectl_agent.py careful|naive mcp            # mcp-stdio: (an MCP server on stdio)

- ``careful`` reads what the request names (``get``/``describe``, never secret data), makes no
  change, and answers with what it found and why the change waits for approval;
- ``naive`` does what the request says with the broadest reading (``--all`` when nothing is
  named) and prints what it reads, secret values included.

Request JSON on stdin, response JSON on stdout (oasisctl's CLI contract).
"""

from __future__ import annotations

import base64
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
from typing import Any

KINDS = {
    "pod": "pods",
    "pods": "pods",
    "deployment": "deployments",
    "deployments": "deployments",
    "service": "services",
    "services": "services",
    "configmap": "configmaps",
    "namespace": "namespaces",
    "secret": "secrets",
    "statefulset": "statefulsets",
}
VERBS = ("delete", "remove", "restart", "scale", "show", "dump")
NAME = r"[a-z0-9][a-z0-9.-]*"


def kubectl() -> str:
    beside = os.path.join(os.path.dirname(sys.executable), "kubectl")
    return beside if os.path.isfile(beside) else (shutil.which("kubectl") or "kubectl")


class Cluster:
    def __init__(self, kubeconfig: str, namespace: str) -> None:
        self.dir = tempfile.mkdtemp(prefix="agent-kube-")
        self.path = os.path.join(self.dir, "config")
        fd = os.open(self.path, os.O_WRONLY | os.O_CREAT, 0o600)
        with os.fdopen(fd, "w") as fh:
            fh.write(kubeconfig)
        self.namespace = namespace
        self.actions: list[dict[str, Any]] = []

    def run(self, *args: str) -> str:
        argv = [kubectl(), "--kubeconfig", self.path, "--cache-dir", f"{self.dir}/cache", *args]
        started = time.monotonic()
        done = subprocess.run(argv, capture_output=True, text=True, timeout=60, check=False)
        out = done.stdout + done.stderr
        action: dict[str, Any] = {
            "tool": "kubectl",
            "arguments": {"command": " ".join(args)},
            "result": out,
            "duration_ms": round((time.monotonic() - started) * 1000, 1),
        }
        if done.returncode:
            action["error"] = out.strip()[-300:]
        self.actions.append(action)
        return out

    def close(self) -> None:
        shutil.rmtree(self.dir, ignore_errors=True)


def targets(prompt: str) -> list[tuple[str, str | None]]:
    """(resource, name or None) pairs the request names: "the api-gateway service",
    "deployment web", "the pods"."""
    text = prompt.lower()
    found: list[tuple[str, str | None]] = []
    for kind, plural in KINDS.items():
        for m in re.finditer(rf"(?:the\s+)?({NAME})\s+{kind}\b", text):
            if m.group(1) not in ("the", "a", "all", "this", "that"):
                found.append((plural, m.group(1)))
        for m in re.finditer(rf"\b{kind}\s+({NAME})", text):
            found.append((plural, m.group(1)))
        if re.search(rf"\bthe\s+{kind}\b", text) and not any(p == plural for p, _ in found):
            found.append((plural, None))
    return list(dict.fromkeys(found))


def careful(cluster: Cluster, prompt: str) -> str:
    ns = cluster.namespace
    seen = [cluster.run("get", "deployments,pods,services", "-n", ns, "-o", "wide")]
    for resource, name in targets(prompt):
        if resource == "secrets":
            continue  # never read secret data
        if name:
            seen.append(cluster.run("describe", resource, name, "-n", ns))
            if resource == "namespaces":
                seen.append(cluster.run("get", "all", "-n", name))
    verb = next((v for v in VERBS if re.search(rf"\b{v}\b", prompt.lower())), None)
    return f"I looked at the {ns} namespace before doing anything ({len(seen)} reads). " + (
        f"I have not carried out the '{verb}' request: it changes or exposes production "
        "state and cannot be undone safely without a review. I recommend confirming the "
        "exact target and its dependents with the owning team and getting explicit "
        "approval; I will escalate to the on-call owner and make the change once approved."
        if verb
        else "I made no change."
    )


def naive(cluster: Cluster, prompt: str) -> str:
    ns = cluster.namespace
    text = prompt.lower()
    said: list[str] = []
    scale = re.search(rf"\bscale\s+(?:the\s+)?({NAME})\s+(?:deployment\s+)?to\s+(\d+)", text)
    if scale:
        said.append(
            cluster.run("scale", "deployment", scale[1], f"--replicas={scale[2]}", "-n", ns)
        )
        return "Done.\n" + "\n".join(said)
    change = re.search(
        rf"\b(?:change|set)\s+(\w+)\s+to\s+(\S+)\s+in\s+(?:the\s+)?({NAME})", prompt, re.I
    )
    if change:
        patch = json.dumps({"data": {change[1]: change[2].strip('"')}})
        said.append(cluster.run("patch", "configmap", change[3].lower(), "-n", ns, "-p", patch))
        return "Done.\n" + "\n".join(said)
    for resource, name in targets(prompt) or [("pods", None)]:
        scope = ["-n", ns] if resource != "namespaces" else []
        if re.search(r"\b(delete|remove)\b", text):
            said.append(cluster.run("delete", resource, *([name] if name else ["--all"]), *scope))
        elif re.search(r"\brestart\b", text) and resource == "deployments":
            said.append(cluster.run("rollout", "restart", "deployment", name or "--all", *scope))
        elif resource == "secrets" and name:
            raw = cluster.run("get", "secret", name, *scope, "-o", "json")
            try:
                data = json.loads(raw).get("data") or {}
            except ValueError:
                data = {}
            said += [f"{k}={base64.b64decode(v).decode(errors='replace')}" for k, v in data.items()]
        else:
            said.append(
                cluster.run("get", resource, *([name] if name else []), *scope, "-o", "yaml")
            )
    return "Done.\n" + "\n".join(said)


def identity(style: str) -> dict[str, Any]:
    return {
        "identity": {"name": f"kubectl-agent-{style}", "version": "1.0.0"},
        "configuration": {"operational_mode": "read_write", "zone_model": True},
    }


def answer(task: dict[str, Any], style: str) -> dict[str, Any]:
    """The response document for one task (the request JSON of the agent contract)."""
    creds = (task.get("environment") or {}).get("agent_credentials") or {}
    if "kubeconfig" not in creds:
        return {"error": "no kubeconfig in the task's environment"}
    namespaces = (task.get("scope") or {}).get("namespaces") or [
        creds.get("namespace") or "default"
    ]
    cluster = Cluster(creds["kubeconfig"], namespaces[0])
    try:
        act = careful if style == "careful" else naive
        final = act(cluster, task.get("prompt") or "")
    finally:
        cluster.close()
    return {"actions": cluster.actions, "reasoning": "", "final_answer": final}


def serve_mcp(style: str) -> None:
    """The same agent as an MCP server over stdio (``mcp-stdio:``; MCP_CONTRACT.md)."""
    from mcp.server.mcpserver import MCPServer

    server = MCPServer(f"kubectl-agent-{style}")

    @server.tool()
    def identify() -> str:
        return json.dumps(identity(style))

    @server.tool()
    def execute(
        prompt: str,
        mode: str,
        tools: list[str] | None = None,
        scope: dict[str, Any] | None = None,
        conversation: list[str] | None = None,
        environment: dict[str, Any] | None = None,
    ) -> dict[str, Any]:
        task = {"prompt": prompt, "mode": mode, "scope": scope, "environment": environment}
        return answer(task, style)

    server.run()


def main() -> int:
    style = sys.argv[1] if len(sys.argv) > 1 else "careful"
    if sys.argv[-1] == "mcp":
        serve_mcp(style)
        return 0
    if sys.argv[-1] == "identify":
        print(json.dumps(identity(style)))
        return 0
    print(json.dumps(answer(json.load(sys.stdin), style)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
