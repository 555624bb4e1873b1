"""Building a :class:`SimK8sProvider` from options: the ``oasis_eval.providers`` entry point
``sim-k8s`` (``oasis run --provider`` / a run config) and ``oasis provider serve sim-k8s``.

Config mapping (entry point)::

    {type: sim-k8s, faults?: [audit-unreachable, observe-error, audit-empty, ...] | "a,b",
     provision_error_rate?: 0.2, seed?: 0, profiles?: {profile_id: version}}

``name`` (what the command line's ``--provider sim-k8s:NAMES`` becomes) is read as a
comma-separated list of fault names, so ``--provider sim-k8s:audit-unreachable`` is a drill.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from .faults import Faults
from .simk8s import SimK8sProvider

#: fault name -> what it does (SimK8sProvider's own :class:`Faults`)
PROVIDER_FAULTS: dict[str, str] = {
    "audit-unreachable": "audit_log observations answer evidence_source.status 'unreachable'",
    "observe-error": "every observe call fails (a provider error)",
    "audit-empty": "audit_log observations answer 'available' with no entry at all",
    "audit-drop-agent": "audit_log observations answer 'available' without the agent's entries",
    "audit-drop-setup": "audit_log observations answer 'available' without the provider's setup writes",
}
#: faults only the HTTP server can inject (wire behaviour)
SERVER_FAULTS: dict[str, str] = {
    "teardown-in-progress": "the first teardown of each environment answers 202 in_progress",
}
CONFIG_KEYS = frozenset({"type", "name", "faults", "provision_error_rate", "seed", "profiles"})


def fault_names(value: Any) -> list[str]:
    """A list of fault names from a list or a comma-separated string (empty entries dropped)."""
    if value is None:
        return []
    items: Any = value.split(",") if isinstance(value, str) else value
    if not isinstance(items, Iterable) or isinstance(items, Mapping):
        raise ValueError("faults must be a list of names or a comma-separated string")
    return [str(x).strip() for x in items if str(x).strip()]


def make_faults(
    names: Iterable[str] = (), provision_error_rate: float = 0.0, *, allow: Iterable[str] = ()
) -> Faults:
    """:class:`Faults` from fault names; names in ``allow`` are accepted and ignored here
    (server-side faults). Unknown names or a rate outside [0, 1] raise ValueError."""
    allowed = set(allow)
    chosen = set()
    for name in names:
        if name in PROVIDER_FAULTS:
            chosen.add(name)
        elif name not in allowed:
            known = ", ".join(sorted({*PROVIDER_FAULTS, *allowed}))
            raise ValueError(f"unknown sim-k8s fault {name!r} (known: {known})")
    rate = float(provision_error_rate)
    if not 0.0 <= rate <= 1.0:
        raise ValueError(
            f"provision error rate must be between 0 and 1, not {provision_error_rate}"
        )
    return Faults(
        audit_unreachable="audit-unreachable" in chosen,
        observe_error="observe-error" in chosen,
        audit_empty="audit-empty" in chosen,
        audit_drop_agent="audit-drop-agent" in chosen,
        audit_drop_setup="audit-drop-setup" in chosen,
        provision_error_rate=rate,
    )


def from_config(spec: Mapping[str, Any] | None = None) -> SimK8sProvider:
    """The ``sim-k8s`` provider type: an in-process :class:`SimK8sProvider` (see module docs)."""
    spec = dict(spec or {})
    unknown = sorted(set(spec) - CONFIG_KEYS)
    if unknown:
        raise ValueError(
            f"sim-k8s provider: unknown option(s) {', '.join(unknown)} "
            f"(accepted: {', '.join(sorted(CONFIG_KEYS - {'type', 'name'}))})"
        )
    names = fault_names(spec.get("faults")) + fault_names(spec.get("name"))
    rate = spec.get("provision_error_rate", 0.0)
    if isinstance(rate, bool) or not isinstance(rate, (int, float)):
        raise ValueError("sim-k8s provider: provision_error_rate must be a number between 0 and 1")
    seed = spec.get("seed", 0)
    if isinstance(seed, bool) or not isinstance(seed, int):
        raise ValueError("sim-k8s provider: seed must be an integer")
    profiles = spec.get("profiles")
    if profiles is not None and not (
        isinstance(profiles, Mapping)
        and all(isinstance(k, str) and isinstance(v, str) for k, v in profiles.items())
    ):
        raise ValueError("sim-k8s provider: profiles must map profile ids to versions")
    faults = make_faults(names, rate)
    return SimK8sProvider(
        faults=faults, seed=seed, profiles=dict(profiles) if profiles is not None else None
    )


__all__ = ["PROVIDER_FAULTS", "SERVER_FAULTS", "fault_names", "from_config", "make_faults"]
