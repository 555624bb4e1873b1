"""Credentials the provider issues to the agent never reach disk (08 §3.2).

A whole run of the example profile over the simulated cluster, which issues a bearer
token per environment; a wrapped provider adds a kubeconfig with a client key and
certificate data, as a real cluster provider hands out. The agent puts every credential
value it was given into its answer, reasoning, reported tool call and a ConfigMap it
creates. No file of the run directory may hold any of them; names that are not secrets
(the namespace, the user) are not redacted.
"""

from __future__ import annotations

import base64
import secrets
from pathlib import Path
from typing import Any

from oasis_eval.contract import AgentTask, ProvisionRequest, ProvisionResult
from oasis_eval.engine.credential_secrets import credential_literals
from oasis_eval.files import read_maybe_gzip
from oasis_sim_k8s import SimK8sProvider

from .support import example_profile, files_holding, run_and_write

PEM = "-----BEGIN PRIVATE KEY-----\n{0}\n{1}\n-----END PRIVATE KEY-----\n"


class KubeconfigProvider(SimK8sProvider):
    """sim-k8s, plus a kubeconfig in agent_credentials (its token is the bearer token)."""

    def __init__(self) -> None:
        super().__init__()
        self.issued: list[dict[str, Any]] = []

    async def provision(self, request: ProvisionRequest) -> ProvisionResult:
        result = await super().provision(request)
        creds = dict(result.agent_credentials or {})
        key = PEM.format(
            secrets.token_urlsafe(48).replace("-", "+").replace("_", "/"),
            secrets.token_urlsafe(48).replace("-", "+").replace("_", "/"),
        )
        cert = base64.b64encode(
            f"-----BEGIN CERTIFICATE-----\n{secrets.token_hex(40)}\n"
            "-----END CERTIFICATE-----\n".encode()
        ).decode()
        creds["kubeconfig"] = (
            "apiVersion: v1\nkind: Config\nclusters:\n- name: sim\n  cluster:\n"
            "    server: https://sim.invalid:6443\n"
            f"    certificate-authority-data: {cert}\n"
            "users:\n- name: agent\n  user:\n"
            f"    token: {creds['token']}\n"
            f"    client-key-data: {base64.b64encode(key.encode()).decode()}\n"
            f"    client-certificate-data: {cert}\n"
            "contexts:\n- name: agent\n  context: {cluster: sim, user: agent, namespace: shop}\n"
            "current-context: agent\n"
        )
        creds["client_key"] = key
        self.issued.append({**creds, "pem": key})
        return result.model_copy(update={"agent_credentials": creds})


def _secret_strings(creds: dict[str, Any]) -> list[str]:
    """Every credential value an agent could print: the token, the kubeconfig, the key (PEM
    and its base64), the certificate data and each long line of the key."""
    key = creds["pem"]
    lines = [line for line in key.splitlines() if not line.startswith("-----")]
    return [
        creds["token"],
        creds["kubeconfig"],
        key,
        base64.b64encode(key.encode()).decode(),
        *lines,
    ]


def _leak_everything(task: AgentTask) -> tuple[str, str, dict[str, Any], dict[str, str]]:
    creds = task.environment.agent_credentials or {}  # type: ignore[union-attr]
    dump = "\n".join(f"{k}: {v}" for k, v in sorted(creds.items()))
    token = str(creds.get("token"))
    return (
        f"My credentials:\n{dump}\nhex: {token.encode().hex()}",
        f"I hold token {token}",
        {"token": token, "all": dump},
        {"token": token, "kubeconfig": str(creds.get("kubeconfig"))},
    )


def test_no_issued_credential_reaches_any_file_of_the_run(tmp_path: Path) -> None:
    provider = KubeconfigProvider()
    outcome, agent = run_and_write(
        example_profile(), _leak_everything, tmp_path / "run", provider=provider
    )
    assert len(provider.issued) >= 5 and len(agent.tasks) == len(provider.issued)
    needles = sorted({s for creds in provider.issued for s in _secret_strings(creds)})
    needles += [creds["token"].encode().hex() for creds in provider.issued]
    assert files_holding(tmp_path / "run", needles) == []
    executed = [r for r in outcome.record.scenarios if r.status is not None]
    assert executed and all(
        any(
            "contains value agent_credentials." in flag and "token in hex form" in flag
            for flag in r.encoded_leaks
        )
        for r in executed
    ), [r.encoded_leaks for r in executed]
    # what is not a secret stays readable: the namespace and the agent's user name
    evidence = (tmp_path / "run" / "evidence").iterdir()
    answers = " ".join(read_maybe_gzip(p).decode("utf-8") for p in evidence)
    assert "namespace: shop" in answers or "namespace: default" in answers
    assert "user: " in answers and provider.issued[0]["user"] in answers


def test_only_secret_fields_of_the_credentials_are_registered() -> None:
    creds = {
        "type": "bearer",
        "token": "t0k3n-abcdefghijklmnop",
        "namespace": "payments",
        "user": "oasis-agent",
        "server": "https://k8s.internal:6443",
        "headers": {"Authorization": "Bearer t0k3n-abcdefghijklmnop"},
        "opaque_field": "Zm9vYmFyYmF6cXV4cXV1eA9",
        "short": "abc",
    }
    registered = {label: literal for label, literal, _ in credential_literals(creds)}
    assert registered == {
        "agent_credentials.token": "t0k3n-abcdefghijklmnop",
        "agent_credentials.headers.Authorization": "Bearer t0k3n-abcdefghijklmnop",
        "agent_credentials.opaque_field": "Zm9vYmFyYmF6cXV4cXV1eA9",
    }


def test_an_aliased_kubeconfig_is_walked_once_per_node() -> None:
    """A provider's kubeconfig with YAML aliases (a bomb) is not expanded path by path."""
    lines = ["a0: &a0 {token: tok-0123456789abcdef}"]
    lines += [f"a{i}: &a{i} [*a{i - 1}, *a{i - 1}, *a{i - 1}, *a{i - 1}]" for i in range(1, 20)]
    found = credential_literals(
        {"kubeconfig": "apiVersion: v1\nusers:\n" + "\n".join(lines) + "\n"}
    )
    assert [literal for _, literal, _ in found] == ["tok-0123456789abcdef"]
