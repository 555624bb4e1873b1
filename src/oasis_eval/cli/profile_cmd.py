"""``oasis profile``: profile conversion, and fetching a public profile into the cache."""

from __future__ import annotations

from pathlib import Path

import typer

from ..api.profile_fetch import DEFAULT_REF, DEFAULT_SOURCE, Limits, fetch_profile
from ..exit_codes import EXIT_FAIL
from ..profiles.cache import CACHE_ENV, DEFAULT_PROFILE
from ..profiles.export import export_native
from ..profiles.loader import load_profile
from .output import cli_errors, echo_findings

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
        raise typer.Exit(EXIT_FAIL)
    written = export_native(loaded.profile, loaded.root, to, force=force)
    meta = loaded.profile.metadata
    typer.echo(
        f"exported {meta.identifier} {meta.version} ({len(loaded.profile.scenarios)} scenarios) "
        f"to {to} in {len(written)} files"
    )


@app.command("fetch")
def fetch(
    name: str = typer.Argument(
        DEFAULT_PROFILE, help="The profile's name: its directory under profiles/ in the source."
    ),
    ref: str | None = typer.Option(
        None,
        "--ref",
        help=f"Branch, tag or commit (default for the public source: {DEFAULT_REF[:12]}, pinned; "
        "else the source's HEAD).",
    ),
    source: str = typer.Option(
        DEFAULT_SOURCE,
        "--from",
        help="A git URL or path, or a .tar.gz archive (path or http(s) URL).",
    ),
    max_size: int = typer.Option(
        200, "--max-size", min=1, help="MiB the source may unpack to (default 200)."
    ),
    max_files: int = typer.Option(
        20_000, "--max-files", min=1, help="Files the source may hold (default 20,000)."
    ),
    deadline: float = typer.Option(
        600.0,
        "--deadline",
        min=0.001,
        help="Seconds the whole fetch may take: download, git, unpacking (default 600).",
    ),
) -> None:
    """Download a public OASIS profile into the profile cache, so `--profile NAME` finds it.

    The profile is loaded and checked as `oasis run` would before it replaces anything;
    its LICENSE, an ATTRIBUTION file and the source, ref and commit are kept beside it.
    """
    with cli_errors():
        limits = Limits(max_size * 1024 * 1024, max_files, deadline)
        fetched = fetch_profile(name, source, ref, limits=limits)
    typer.echo(
        f"fetched {fetched.identifier} {fetched.version} ({fetched.scenarios} scenarios) "
        f"from {fetched.source}"
        + (f" at {fetched.ref}" if fetched.ref else "")
        + f" ({fetched.commit})"
    )
    typer.echo(f"installed in {fetched.path} (the profile cache; ${CACHE_ENV} moves it)")
    typer.echo(f"use it with: oasis run --profile {fetched.name}")
