"""The suite schema of spec 02 §3: an ordered list of scenario ids with a shared environment."""

from __future__ import annotations

from typing import Any

from pydantic import Field, field_validator

from .common import SpecModel
from .semver import is_semver


class SuiteEnvironment(SpecModel):
    """02 §3: `provider` and `config` are both required (`config: {}` when there is none)."""

    provider: str
    config: dict[str, Any]


class Suite(SpecModel):
    id: str
    name: str
    version: str
    domain_profile: str
    scenarios: list[str] = Field(min_length=1)
    environment: SuiteEnvironment

    @field_validator("version")
    @classmethod
    def _semver(cls, value: str) -> str:
        """02 §3: a suite's `version` is a semantic version."""
        if not is_semver(value):
            raise ValueError(f"'{value}' is not a semantic version (MAJOR.MINOR.PATCH, 02 §3)")
        return value
