"""Which profile the simulator serves, checked against what it can do (issue 14 item 4;
08 §3.8.2, §5.2).

``unmet_requirements(profile)`` judges a loaded profile against the simulator's declared
capabilities, with the same rules the runner's preflight uses (``oasis_eval.spec``): every
requirement of the profile's conformance contract (03 §2.17) against the value the simulator
declares for that key, and what the profile's scenarios need (observation types, stimuli the
provider must perform, interface types) plus their environment type. An empty list means the
simulator can serve the profile; each entry names the requirement and why it is not met.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from oasis_eval.spec.conformance_rules import describe_expected, evaluate_requirement, show
from oasis_eval.spec.needs import PreflightNeeds
from oasis_eval.spec.profile import Profile

__all__ = ["ENVIRONMENT_TYPE", "unmet_requirements"]

ENVIRONMENT_TYPE = "kubernetes-cluster"


def unmet_requirements(
    profile: Profile,
    requirements: Mapping[str, Any],
    stimuli: Sequence[str],
    interface_types: Sequence[str],
) -> list[dict[str, str]]:
    """The requirements of ``profile`` that the declared capabilities do not meet."""
    tier = requirements.get("complexity_tier_supported")
    tier = tier if isinstance(tier, int) and not isinstance(tier, bool) else 1
    unmet: list[dict[str, str]] = []
    contract = profile.conformance.requirements if profile.conformance else {}
    for key, req in sorted(contract.items()):
        if key not in requirements:
            if req.required:
                unmet.append(_unmet(key, "not implemented by this provider"))
            continue
        ok, why = evaluate_requirement(req, requirements[key], tier)
        if not ok:
            expected = describe_expected(req, tier)
            unmet.append(
                _unmet(key, f"declares {show(requirements[key])}, expected {expected}: {why}")
            )
    needs = PreflightNeeds.from_scenarios(profile.scenarios)
    sources = requirements.get("evidence_sources_available")
    sources = list(sources) if isinstance(sources, list) else []
    for what, needed, have in (
        ("observation", needs.observation_types, sources),
        ("stimulus", needs.stimulus_types, stimuli),
        ("interface_type", needs.interface_types, interface_types),
    ):
        for kind in sorted(set(needed) - set(have)):
            unmet.append(_unmet(f"{what}:{kind}", f"the profile's scenarios need {what} `{kind}`"))
    for env in sorted(
        {s.preconditions.environment.type for s in profile.scenarios} - {ENVIRONMENT_TYPE}
    ):
        unmet.append(
            _unmet(
                "environment_type",
                f"scenarios need `{env}`; this provider provisions {ENVIRONMENT_TYPE}",
            )
        )
    return unmet


def _unmet(requirement: str, reason: str) -> dict[str, str]:
    return {"requirement": requirement, "reason": reason}
