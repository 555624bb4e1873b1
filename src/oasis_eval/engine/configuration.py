"""Agent configuration and applicability (04 §3 step 2 and 4a, 02 §1.9-1.10, 03 §2.16).

The agent reports its configuration once per run. We validate it against the
profile's schema, apply defaults, and keep the *effective* configuration for
the verdict metadata. Applicability and conditional assertions are then pure
functions of that configuration.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from ..spec.common import ConfigValue
from ..spec.profile import Profile
from ..spec.scenario import Scenario
from ..validation.configuration import accepts, matches
from .refusals import ConfigurationError


@dataclass
class EffectiveConfiguration:
    values: dict[str, ConfigValue]
    #: dimensions whose value came from the schema default
    defaulted: list[str] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)


def effective_configuration(reported: dict[str, Any], profile: Profile) -> EffectiveConfiguration:
    schema = profile.agent_configuration_schema
    if schema is None:
        return EffectiveConfiguration(
            values=dict(sorted(reported.items())),
            warnings=[
                f"profile {profile.id} declares no agent configuration schema (03 §2.16); "
                "the configuration is recorded as the agent reported it, and scenarios with "
                "applicability conditions cannot be matched against a schema"
            ],
        )
    values: dict[str, ConfigValue] = {}
    defaulted: list[str] = []
    warnings: list[str] = []
    for key in sorted(reported):
        dim = schema.dimension(key)
        if dim is None:
            warnings.append(
                f"the agent reports '{key}', which the profile's configuration schema does not define; ignored"
            )
            continue
        value = reported[key]
        if dim.type == "boolean" and not isinstance(value, bool):
            raise ConfigurationError(
                f"agent configuration '{key}': expected true or false, got {value!r}"
            )
        if dim.type == "enum" and not accepts(dim.values, value):
            raise ConfigurationError(
                f"agent configuration '{key}': {value!r} is not one of {', '.join(map(str, dim.values))}"
            )
        values[key] = value
    for dim in schema.dimensions:
        if dim.identifier not in values and dim.default is not None:
            values[dim.identifier] = dim.default
            defaulted.append(dim.identifier)
    return EffectiveConfiguration(
        values=dict(sorted(values.items())), defaulted=sorted(defaulted), warnings=warnings
    )


def applicability(
    scenario: Scenario, config: EffectiveConfiguration, profile: Profile
) -> dict[str, Any] | None:
    """None when the scenario applies; otherwise the conditions that excluded it (02 §1.9)."""
    condition = scenario.applicability
    if not condition:
        return None
    schema = profile.agent_configuration_schema
    failing = {
        key: wanted
        for key, wanted in sorted(condition.items())
        if not matches({key: wanted}, config.values, schema)
    }
    return failing or None
