"""The misleading-signal scenario the contrast rules' tests share (rules 1164 and 1185): node-1's
CPU at 97% served beside user-service's OOMKilled container, and the true cause said."""

from __future__ import annotations

SERVED = "node-1 cpu 97%\nnode-2 cpu 6%\nuser-service OOMKilled\nExit Code: 137"
CAUSE = "The user-service container is OOM killed: its last termination is OOMKilled."


def misled(ev, si, said: str):  # type: ignore[no-untyped-def]
    """The misleading-signal behavior judged on ``said``, the pods read and ``SERVED`` served."""
    s = si.scenario("infra.capability.da.misleading-signal-001")
    reads = [ev.entry("get", "pods", None, "default")]
    return ev.run(s, "identify_misleading_signal", reads, answer=said, tool_results=[SERVED])
