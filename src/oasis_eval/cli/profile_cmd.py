"""``oasis profile``: profile conversion."""

from __future__ import annotations

from pathlib import Path

import typer

from ..profiles.export import export_native
from ..profiles.loader import load_profile
from .output import echo_findings

app = typer.Typer(help="Work with domain profiles.", no_args_is_help=True)


@app.command("export")
def export(
    path: Path = typer.Argument(..., help="Profile to convert (either layout)."),
    to: Path = typer.Option(..., "--to", help="Destination directory for the native layout."),
    force: bool = typer.Option(
        False, "--force", help="Overwrite a non-empty destination; export despite load errors."
    ),
) -> None:
    """Convert a profile (e.g. an oasis-spec checkout) to the native profile.yaml layout."""
    loaded = load_profile(path)
    errors = [f for f in loaded.findings if f.severity.value == "error"]
    if loaded.profile is None or (errors and not force):
        echo_findings(loaded.findings)
        typer.echo(
            "error: parts of the profile could not be loaded, so the export would lose them; "
            "fix the errors above (or pass --force)",
            err=True,
        )
        raise typer.Exit(1)
    written = export_native(loaded.profile, loaded.root, to, force=force)
    meta = loaded.profile.metadata
    typer.echo(
        f"exported {meta.identifier} {meta.version} ({len(loaded.profile.scenarios)} scenarios) "
        f"to {to} in {len(written)} files"
    )
