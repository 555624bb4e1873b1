"""Shared CLI output helpers: findings as text, JSON to stdout."""

from __future__ import annotations

import json
from typing import Any

import typer

from ..diagnostics import Finding


def echo_json(data: Any) -> None:
    typer.echo(json.dumps(data, indent=2, sort_keys=False, ensure_ascii=False))


def echo_findings(findings: list[Finding]) -> None:
    for finding in sorted(findings, key=Finding.sort_key):
        typer.echo(finding.render())
