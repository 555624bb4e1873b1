"""``oasis behaviors``: the deterministic behavior evaluators, and a profile's coverage by them.

Core §3.5.3: every behavior a scenario asserts must reach a deterministic
verdict, so a behavior used with no evaluator is a gap of this implementation
(``oasis validate`` reports it as ``no-behavior-evaluator``). This command lists
each evaluator with its family (how it decides) and evidence source (what it
reads); with ``--profile``, which behaviors the profile defines and uses and
which used ones lack an evaluator.

Evaluators come from the ``oasis_eval.behaviors`` entry-point plugins, ids namespaced by
profile (``profile-identifier/behavior``; issue 14).

Exit 0; with ``--profile``, 1 when a used behavior has no evaluator; 2 for a
profile that cannot be loaded or a behavior plugin that cannot be used.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import typer

from ..evaluation.behaviors.plugins import PluginError, families, lookup, profile_namespaces
from ..evaluation.behaviors.registry import Registration
from ..exit_codes import EXIT_FAIL, EXIT_PASS, EXIT_USAGE
from ..profiles.loader import load_profile
from ..spec.profile import Profile
from .output import echo_findings, echo_json


def _evaluator(reg: Registration | None) -> dict[str, Any]:
    if reg is None:
        return {"evaluator": False, "family": None, "evidence_source": None, "precheck": False}
    return {
        "evaluator": True,
        "family": reg.family,
        "evidence_source": reg.evidence_source,
        "precheck": reg.precheck is not None,
    }


def registry_rows() -> list[dict[str, Any]]:
    """Every registered evaluator, by family then id."""
    return [
        {"id": behavior, **_evaluator(lookup(behavior))}
        for family in sorted(families())
        for behavior in families()[family]
    ]


def profile_rows(profile: Profile) -> list[dict[str, Any]]:
    """Every behavior the profile defines or uses, by id, with its evaluator (if any)."""
    defined = {b.id for b in profile.behaviors}
    namespaces = profile_namespaces(profile)
    used: dict[str, list[str]] = {}
    for scenario in sorted(profile.scenarios, key=lambda s: s.id):
        for behavior in scenario.behaviors_used():
            used.setdefault(behavior, []).append(scenario.id)
    return [
        {
            "id": behavior,
            "defined": behavior in defined,
            "used_by": used.get(behavior, []),
            **_evaluator(lookup(behavior, namespaces)),
        }
        for behavior in sorted(defined | set(used))
    ]


def _table(rows: list[dict[str, Any]], columns: list[tuple[str, str]]) -> None:
    cells = [[str(row[key]) for key, _ in columns] for row in rows]
    widths = [
        max([len(title)] + [len(c[i]) for c in cells]) for i, (_, title) in enumerate(columns)
    ]
    typer.echo("  ".join(t.ljust(w) for (_, t), w in zip(columns, widths, strict=True)).rstrip())
    for c in cells:
        typer.echo("  ".join(v.ljust(w) for v, w in zip(c, widths, strict=True)).rstrip())


PROFILE_OPT = typer.Option(
    None, "--profile", help="Also show which behaviors this profile defines and uses."
)
JSON_OPT = typer.Option(False, "--json", help="Print a machine-readable result.")


def behaviors(profile_path: Path | None = PROFILE_OPT, as_json: bool = JSON_OPT) -> None:
    """List the behavior evaluators (family, evidence source); with --profile, the profile's gaps."""
    try:
        _behaviors(profile_path, as_json)
    except PluginError as exc:  # a broken plugin is named, never a traceback (issue 14)
        typer.echo(f"error: {exc}", err=True)
        raise typer.Exit(EXIT_USAGE) from None


def _behaviors(profile_path: Path | None, as_json: bool) -> None:
    if profile_path is None:
        rows = registry_rows()
        if as_json:
            echo_json({"behaviors": rows})
            return
        shown = [{**r, "family": r["family"], "evidence": r["evidence_source"]} for r in rows]
        _table(shown, [("id", "BEHAVIOR"), ("family", "FAMILY"), ("evidence", "EVIDENCE SOURCE")])
        typer.echo(f"{len(rows)} behavior evaluator(s) in {len(families())} families")
        return
    loaded = load_profile(profile_path)
    if loaded.profile is None:
        echo_findings(loaded.findings)
        typer.echo(f"error: the profile at {profile_path} could not be loaded", err=True)
        raise typer.Exit(EXIT_USAGE)
    profile = loaded.profile
    rows = profile_rows(profile)
    missing = [r["id"] for r in rows if r["used_by"] and not r["evaluator"]]
    undefined = [r["id"] for r in rows if r["used_by"] and not r["defined"]]
    if as_json:
        echo_json(
            {
                "profile": profile.metadata.identifier,
                "version": profile.metadata.version,
                "behaviors": rows,
                "missing_evaluators": missing,
                "undefined": undefined,
            }
        )
    else:
        shown = [
            {
                "id": r["id"],
                "family": r["family"] or "-",
                "evidence": r["evidence_source"] or "-",
                "defined": "yes" if r["defined"] else "NO",
                "used": f"{len(r['used_by'])} scenario(s)" if r["used_by"] else "unused",
                "note": "NO EVALUATOR" if r["id"] in missing else "",
            }
            for r in rows
        ]
        _table(
            shown,
            [
                ("id", "BEHAVIOR"),
                ("family", "FAMILY"),
                ("evidence", "EVIDENCE SOURCE"),
                ("defined", "DEFINED"),
                ("used", "USED BY"),
                ("note", ""),
            ],
        )
        used = sum(1 for r in rows if r["used_by"])
        typer.echo(
            f"{profile.metadata.identifier} {profile.metadata.version}: "
            f"{sum(1 for r in rows if r['defined'])} behavior(s) defined, {used} used, "
            f"{len(missing)} used without an evaluator"
            + (f": {', '.join(missing)}" if missing else "")
        )
        if undefined:
            typer.echo(f"used but not defined by the profile: {', '.join(undefined)}")
    raise typer.Exit(EXIT_FAIL if missing else EXIT_PASS)
