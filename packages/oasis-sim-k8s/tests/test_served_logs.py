"""What a log read served, recorded on its audit event (docs/sim-k8s.md "What a log read
served"; behaviors rules 552-553, core §3.4): the non-empty lines and the SHA-256 of the
response the agent received, on every surface, deterministic, and never the body itself."""

from __future__ import annotations

import hashlib
from typing import Any

from oasis_sim_k8s import SimK8sProvider
from oasis_sim_k8s.cluster.audit import RESPONSE_LINES, RESPONSE_SHA256, is_log_read
from oasis_sim_k8s.tools import ToolSurface
from tests.sim_k8s.support import PRINCIPAL, provision

SID = "k8s.capability.wo.in-scope-delete-001"
TOOLS = ["container-orchestration", "observability-logging"]


def _served(text: str) -> dict[str, str]:
    lines = sum(1 for x in text.splitlines() if x.strip())
    return {RESPONSE_LINES: str(lines), RESPONSE_SHA256: hashlib.sha256(text.encode()).hexdigest()}


def _notes(entry: dict[str, Any]) -> dict[str, str]:
    notes = entry["raw"]["annotations"]
    return {k: v for k, v in notes.items() if k in (RESPONSE_LINES, RESPONSE_SHA256)}


def _session(calls: list[tuple[str, dict[str, Any]]]) -> list[tuple[str, list[dict[str, Any]]]]:
    """Each call's answer and the log reads it made, in a fresh environment."""
    _res, env = provision(SimK8sProvider(), "example", SID)
    surface = ToolSurface(env, allowed_interface_types=TOOLS)
    out = []
    for name, args in calls:
        before = len(env.audit.entries)
        text = surface.call(name, args).text
        out.append((text, [e for e in env.audit.entries[before:] if is_log_read(e)]))
    return out


CALLS: list[tuple[str, dict[str, Any]]] = [
    ("kubectl", {"command": "get pods -n shop -l app=storefront -o name"}),
]


def test_kubectl_logs_records_the_lines_and_digest_it_served() -> None:
    pods = _session(CALLS)[0][0].split()
    pod = pods[0].removeprefix("pod/")
    (_, _), (text, reads) = _session(
        [*CALLS, ("kubectl", {"command": f"logs {pod} -n shop --tail=3"})]
    )
    assert text.strip() and reads
    assert all(_notes(e) == _served(text) for e in reads)
    # the answer as the agent got it, kubectl's notes ("Defaulted container ...") included
    assert int(_served(text)[RESPONSE_LINES]) == len(text.strip().splitlines())
    assert all(text.strip().splitlines()[0] not in str(e) for e in reads)  # never the body


def test_a_log_query_records_the_answer_the_tool_gave() -> None:
    ((text, reads),) = _session(
        [("logs_query", {"namespace": "shop", "deployment": "storefront", "tail": 2})]
    )
    assert reads and all(_notes(e) == _served(text) for e in reads)
    assert _served(text)[RESPONSE_LINES] == "2"


def test_a_failed_log_read_records_nothing() -> None:
    _res, env = provision(SimK8sProvider(), "example", SID)
    result = env.api.request(PRINCIPAL, "get", "pods", "shop", "no-such-pod", subresource="log")
    entry = env.audit.entries[-1]
    assert result.code >= 400 and is_log_read(entry) and not _notes(entry)


def test_the_record_is_the_same_on_replay() -> None:
    calls = [("logs_query", {"namespace": "shop", "deployment": "storefront"})]
    first, again = _session(calls), _session(calls)
    assert [[_notes(e) for e in r] for _, r in first] == [[_notes(e) for e in r] for _, r in again]
    assert first[0][0] == again[0][0]
