"""What a profile's conformance contract MUST give beside its keys (03 §2.17.1).

For each requirement key its meaning, failure mode and verification method (the type is
required by the model, the valid values are read where given: 03 asks for them only where
they can be enumerated, which the type alone does not tell), and one worked conformant and
one worked non-conformant provider response. In the markdown layout the loader reads these
from the key's section of the contract document and from its ```json examples; in
``profile.yaml`` they are fields of ``conformance``.
"""

from __future__ import annotations

from typing import Any

from ..diagnostics import Findings
from ..spec.conformance_rules import example_kind
from ..spec.profile import ConformanceContract, Profile
from ._common import at_profile, blank

#: (field, what 03 §2.17.1 asks, the label a markdown section gives it under)
KEY_FIELDS = (
    ("description", "its meaning (what the key tests for)", "**What it asserts.**"),
    (
        "failure_mode",
        "its failure mode (what happens at evaluation time when a provider claims it but "
        "it does not hold)",
        "**Failure mode:**",
    ),
    (
        "verification",
        "its verification method (how the runner or an operator confirms the claim)",
        "**Verification method:**",
    ),
)

EXAMPLE_KINDS = (
    ("conformant", "a `requirements` map and no unmet requirement"),
    ("non-conformant", "an `unmet_requirements` list naming a requirement and its message"),
)


def check_contract_content(
    profile: Profile, contract: ConformanceContract, findings: Findings
) -> None:
    """03 §2.17.1: each key's meaning, failure mode and verification; both worked examples."""
    markdown = profile.source is None
    for key in sorted(contract.requirements):
        req = contract.requirements[key]
        path = ("conformance", "requirements", key)
        for name, what, label in KEY_FIELDS:
            if not blank(getattr(req, name)):
                continue
            where = (
                f"a {label} paragraph in the '{key}' section of {contract.document}"
                if markdown
                else f"conformance.requirements.{key}.{name}"
            )
            findings.error(
                "incomplete-requirement",
                f"conformance requirement '{key}' does not give {what}",
                expected=f"{where} (03 §2.17.1)",
                **at_profile(profile, req, path, name),
            )
    kinds = {example_kind(e) for e in contract.examples}
    for kind, shape in EXAMPLE_KINDS:
        if kind in kinds:
            continue
        findings.error(
            "missing-worked-example",
            f"the conformance contract has no worked {kind} provider response",
            expected=f"a worked {kind} response: {shape} (03 §2.17.1, 08 §3.8.2)",
            **_examples_location(profile, contract),
        )


def _examples_location(profile: Profile, contract: ConformanceContract) -> dict[str, Any]:
    if profile.source is None:  # markdown: the contract document holds the ```json examples
        return {"file": contract.document or None, "line": None, "field": "conformance.examples"}
    return at_profile(profile, contract, ("conformance",), "examples")
