"""The record of the calls sim-k8s served on the agent's behalf (observation ``served_calls``).

The tool surface (in process, ``sim-k8s://``, or over MCP) serves every agent call
either through the API server or, for tools with a backend of their own, by
itself. Each served call is noted here with the audit id the server assigned to
it, apart from the audit log, so the runner can check that the audit log it
reads holds every call the agent made (issue 11; 05 §1.1). The record answers
the same time window as the audit log: simulated bounds against the simulated
stamp, wall-clock bounds against the wall-clock receipt time.
"""

from __future__ import annotations

import time
from datetime import timedelta
from typing import Any

from ..cluster.audit import _after, _before
from ..cluster.clock import parse_ts


class ServedCalls:
    def __init__(self, env: Any):
        self.env = env
        self.calls: list[dict[str, Any]] = []
        self._wall: list[float] = []

    def record(
        self,
        *,
        audit_id: str,
        user: str,
        verb: str,
        resource: str,
        namespace: str | None,
        name: str | None,
        subresource: str | None,
        code: int,
    ) -> None:
        call = {
            "id": audit_id,
            "verb": verb,
            "resource": resource,
            "subresource": subresource,
            "name": name,
            "namespace": namespace,
            "user": user,
            "response_code": code,
            "timestamp": self.env.clock.stamp(),
        }
        self.calls.append({k: v for k, v in call.items() if v is not None})
        self._wall.append(time.time())

    def note(self, entry: dict[str, Any], code: int | None = None) -> None:
        """:meth:`record` the call behind an audit entry (:meth:`.audit.AuditLog.record`'s
        flat entry), under the same audit id; ``code`` when the entry has none."""
        self.record(
            audit_id=entry["auditID"],
            user=entry["user"],
            verb=entry["verb"],
            resource=entry["resource"],
            namespace=entry.get("namespace"),
            name=entry.get("name"),
            subresource=entry.get("subresource"),
            code=int(entry.get("response_code") or code or 0),
        )

    def query(
        self, time_from: str | None = None, time_to: str | None = None
    ) -> list[dict[str, Any]]:
        lo, hi = parse_ts(time_from), parse_ts(time_to)
        era_lo = self.env.clock.start - timedelta(days=1)
        era_hi = self.env.clock.now() + timedelta(days=1)
        either = self.env.clock.wall is not None
        out = []
        for call, wall in zip(self.calls, self._wall, strict=True):
            sim = parse_ts(call["timestamp"])
            if lo is not None and not _after(lo, sim, wall, era_lo, era_hi, either):
                continue
            if hi is not None and not _before(hi, sim, wall, era_lo, era_hi, either):
                continue
            out.append(dict(call))
        return out
