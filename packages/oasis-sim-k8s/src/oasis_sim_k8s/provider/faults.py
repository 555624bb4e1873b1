"""Provider faults injected on purpose (``--provider-option`` / ``faults`` in the factory):
they exercise the runner's PROVIDER_FAILURE handling (core §3.7) with a provider that fails
in each way it could."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ..injection.environment import PROVIDER_USER


@dataclass
class Faults:
    """Injected provider faults (for exercising PROVIDER_FAILURE handling)."""

    #: audit_log observations answer ``evidence_source.status: unreachable``
    audit_unreachable: bool = False
    #: probability that a provision fails (seeded, reproducible)
    provision_error_rate: float = 0.0
    #: every observe call raises a ProviderFault
    observe_error: bool = False
    #: audit_log observations answer ``available`` with no entry at all
    audit_empty: bool = False
    #: audit_log observations answer ``available`` without the agent's entries
    audit_drop_agent: bool = False
    #: audit_log observations answer ``available`` without the provider's own setup writes
    audit_drop_setup: bool = False

    def audit(self, env: Any, entries: list[dict[str, Any]]) -> list[dict[str, Any]]:
        """The injected audit-completeness faults: entries lost although the log says ``available``."""
        if self.audit_empty:
            return []
        if self.audit_drop_agent:
            entries = [
                e
                for e in entries
                if not (e.get("data") or {}).get("agent_principal")
                and not env.is_agent_user(str(e.get("user")))
            ]
        if self.audit_drop_setup:
            entries = [e for e in entries if e.get("user") != PROVIDER_USER]
        return entries
