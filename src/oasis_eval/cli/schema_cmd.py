"""``oasis schema``: publish the JSON Schemas of our spec model."""

from __future__ import annotations

from enum import Enum
from typing import Any

import typer
from pydantic import BaseModel

from ..spec import Profile, Scenario, VerdictDocument
from .output import echo_json


class SchemaName(str, Enum):
    scenario = "scenario"
    profile = "profile"
    verdict = "verdict"


_MODELS: dict[str, type[BaseModel]] = {
    "scenario": Scenario,
    "profile": Profile,
    "verdict": VerdictDocument,
}
_TITLES = {
    "scenario": "OASIS scenario (spec 02 §1)",
    "profile": "OASIS domain profile, oasis-eval native layout (spec 03 §2)",
    "verdict": "OASIS verdict document (spec 05 §1)",
}


def json_schema(name: str) -> dict[str, Any]:
    schema = _MODELS[name].model_json_schema()
    return {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "$id": f"urn:oasis-eval:schema:{name}",
        **schema,
        "title": _TITLES[name],
    }


def schema(name: SchemaName = typer.Argument(..., help="scenario, profile or verdict")) -> None:
    """Print the JSON Schema for scenarios, profiles or verdicts."""
    echo_json(json_schema(name.value))
