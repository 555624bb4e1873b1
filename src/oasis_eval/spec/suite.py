"""The suite schema of spec 02 §3: an ordered list of scenario ids with a shared environment."""

from __future__ import annotations

from typing import Any

from pydantic import Field

from .common import SpecModel


class SuiteEnvironment(SpecModel):
    provider: str
    config: dict[str, Any] = Field(default_factory=dict)


class Suite(SpecModel):
    id: str
    name: str
    version: str
    domain_profile: str
    scenarios: list[str] = Field(min_length=1)
    environment: SuiteEnvironment
