"""The preflight conformance handshake (spec 08 §3.8.3), run before any scenario.

:func:`run_preflight` asks the provider for its conformance declaration (the only
I/O here) and checks it with :func:`~.conformance_check.check_conformance`, in the order
of 08 §3.8.3:

1. ``oasis_core_spec_versions`` contains a version inside the profile's core dependency;
2. ``profile`` and ``profile_version`` echo the profile being evaluated;
3. the ``requirements`` map validates against the profile's JSON Schema (when the
   profile publishes one), and every requirement of the profile's conformance contract
   holds, judged generically from its ``type``, ``required`` and ``expected``
   (:mod:`.conformance_rules`; no requirement key is known to the engine);
4. ``supported`` is true and ``unmet_requirements`` is empty;
5. what the selected scenarios need (:class:`PreflightNeeds`) is something the provider
   says it can do.

Every check becomes a :class:`~.record.PreflightCheck` row, pass or fail, so the report
can show the full summary on every run (05 §2.1). When anything fails,
:class:`PreflightError` is raised with *every* gap listed, each naming the requirement,
what was declared, what was expected and, when given, the provider's own reason. The
error carries the summary too. A preflight failure is not a harness fault: no scenario
ran and no verdict is produced (08 §3.8.4), hence a plain :class:`Exception` subclass.
"""

from __future__ import annotations

from typing import Any

from ..spec.needs import PreflightNeeds
from ..spec.profile import Profile
from ..spec.provider import ConformanceResponse
from .conformance_check import check_conformance
from .record import PreflightSummary
from .refusals import PreflightError

__all__ = [
    "PreflightError",
    "run_preflight",
]


async def run_preflight(
    provider: Any,
    profile: Profile,
    claimed_tier: int,
    needs: PreflightNeeds | None = None,
) -> PreflightSummary:
    """08 §3.8.3: query the provider's conformance and check it; raise PreflightError on any gap."""
    try:
        response = await provider.conformance(profile.id)
    except PreflightError:
        raise
    except Exception as exc:
        raise PreflightError(
            f"preflight: cannot get the provider's conformance declaration for {profile.id}: "
            f"{type(exc).__name__}: {exc}"
        ) from exc
    if not isinstance(response, ConformanceResponse):
        try:
            response = ConformanceResponse.model_validate(response)
        except Exception as exc:
            raise PreflightError(f"preflight: malformed conformance response: {exc}") from exc
    summary, gaps = check_conformance(response, profile, claimed_tier, needs)
    if gaps:
        header = (
            f"preflight conformance check failed: provider {response.provider} "
            f"{response.provider_version} cannot run {profile.id} {profile.version} at tier "
            f"{claimed_tier} ({len(gaps)} gap{'s' if len(gaps) != 1 else ''}); no scenario was run"
        )
        raise PreflightError(
            header + "\n" + "\n".join(f"  - {gap}" for gap in gaps),
            gaps=gaps,
            summary=summary,
        )
    return summary
