"""Provider faults injected on purpose (``--provider-option`` / ``faults`` in the factory):
they exercise the runner's PROVIDER_FAILURE handling (core §3.7) with a provider that fails
in each way it could."""

from __future__ import annotations

from dataclasses import dataclass


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
