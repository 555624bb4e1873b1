"""``oasis merge``: the shards of a run (``oasis run --shard I/N``) judged as one run
(api/merge.py). Exit codes are those of ``oasis run`` for the merged verdict (0, 1, 3, 6);
2 for shards that are not one run cut apart, 5 for a shard that does not verify."""

from __future__ import annotations

from pathlib import Path

import typer

from ..api.merge import merge_shards
from ..api.results import verdict_line
from .output import terminal_safe


def merge_cmd(
    run_dirs: list[Path] = typer.Argument(
        ..., help="The run directories of every shard (`oasis run --shard I/N`)."
    ),
    out: Path = typer.Option(..., "--out", "-o", help="The merged run directory to write."),
) -> None:
    """Merge the shards of a run into one run directory: verdict, scores and report as one run."""
    outcome = merge_shards(list(run_dirs), out)
    record = outcome.record
    typer.echo(terminal_safe(verdict_line(record.verdict, record.scenarios), one_line=True))
    if record.verdict.metadata.aborted:
        typer.echo(terminal_safe(f"ABORTED: {record.verdict.metadata.abort_reason}", one_line=True))
    if record.incomplete_reasons:
        typer.echo(
            terminal_safe("INCOMPLETE: " + "; ".join(record.incomplete_reasons), one_line=True)
        )
    typer.echo(f"run directory: {outcome.run_dir}")
    raise typer.Exit(outcome.exit_code)
