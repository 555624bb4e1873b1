"""``oasis reserved``: the profile maintainer's tools for reserved scenarios (07 §5, 03 §2.12).

``pack`` encrypts a directory of scenario YAML into a bundle for certified
evaluators, ``rotate`` replaces a bundle's scenarios (07 §5.2: the number per
safety category stays stable or grows), ``check`` validates a reserved set
against a profile and ``keygen`` makes a key. Keys are read from an
environment variable, never from the command line (shell history, process
lists). These commands work on the plain files, so their output may name them;
``oasis run --reserved`` never does.
"""

from __future__ import annotations

from pathlib import Path

import typer

from ..adversarial.reserved import (
    PackRefused,
    RotationRefused,
    category_counts,
    check_against,
    declaration_warnings,
    generate_key,
    pack,
    parse,
    read_bundle,
    read_directory,
    read_key,
    rotate,
)
from ..diagnostics import UnusableInput
from ..examples import EXAMPLE_PROFILE_DIR
from ..exit_codes import EXIT_FAIL, EXIT_PASS
from ..spec.profile import Profile
from .output import echo_findings
from .run_cmd import _load_for_run

app = typer.Typer(
    help="Reserved scenarios (07 §5): pack, rotate, check, keygen.", no_args_is_help=True
)

_KEY_HELP = "Environment variable holding the bundle key (make one with `oasis reserved keygen`)."


def _profile(path: Path | None) -> Profile | None:
    if path is None:
        return None
    return _load_for_run(path)[0]


def _counts(counts: dict[str, int]) -> str:
    return ", ".join(f"{k} {v}" for k, v in sorted(counts.items())) or "none"


@app.command("pack")
def pack_cmd(
    directory: Path = typer.Argument(..., help="Directory of reserved scenario YAML files."),
    out: Path = typer.Option(..., "--out", "-o", help="Bundle file to write."),
    key_env: str = typer.Option("OASIS_RESERVED_KEY", "--key-env", help=_KEY_HELP),
    profile: Path | None = typer.Option(
        None, "--profile", "-p", help="Validate against this profile first (recommended)."
    ),
) -> None:
    """Encrypt a directory of reserved scenarios into a bundle (Fernet)."""
    key = read_key(key_env)
    try:
        scenarios = pack(directory, out, key, _profile(profile))
    except PackRefused as exc:
        echo_findings(exc.findings)
        typer.echo(f"not packed: {exc}", err=True)
        raise typer.Exit(EXIT_FAIL) from None
    typer.echo(
        f"packed {len(scenarios)} reserved scenario(s) into {out} "
        f"(safety per category: {_counts(category_counts(scenarios))})"
    )


@app.command("rotate")
def rotate_cmd(
    bundle: Path = typer.Argument(..., help="The current bundle."),
    new: Path = typer.Option(..., "--new", help="Directory of the scenarios that replace it."),
    out: Path = typer.Option(..., "--out", "-o", help="The new bundle file."),
    key_env: str = typer.Option("OASIS_RESERVED_KEY", "--key-env", help=_KEY_HELP),
    new_key_env: str | None = typer.Option(
        None,
        "--new-key-env",
        help="Encrypt the new bundle with this variable's key (default: the same key).",
    ),
    publish: Path | None = typer.Option(
        None,
        "--publish",
        help="Write the scenarios leaving the reserved set here, for the public suite (07 §5.2).",
    ),
    profile: Path | None = typer.Option(
        None, "--profile", "-p", help="Validate the new scenarios against this profile."
    ),
    allow_shrink: bool = typer.Option(
        False, "--allow-shrink", help="Allow fewer reserved scenarios in a safety category."
    ),
) -> None:
    """Rotate a bundle (07 §5.2): new scenarios replace the old, counts per category stable or growing."""
    old_key = read_key(key_env)
    new_key = read_key(new_key_env) if new_key_env else old_key
    if out.resolve() == bundle.resolve():
        raise UnusableInput(
            "--out must differ from the current bundle (keep the old one until the new one works)",
            file=str(out),
        )
    try:
        rotation = rotate(
            bundle, old_key, new, out, new_key, _profile(profile), publish, allow_shrink
        )
    except PackRefused as exc:
        echo_findings(exc.findings)
        typer.echo(f"not rotated: {exc}", err=True)
        raise typer.Exit(EXIT_FAIL) from None
    except RotationRefused as exc:
        typer.echo(f"not rotated: {exc}", err=True)
        raise typer.Exit(EXIT_FAIL) from None
    typer.echo(
        f"rotated into {out}: {rotation.added} new, {rotation.kept} kept, {len(rotation.retired)} retired; "
        f"safety per category before: {_counts(rotation.before)}; after: {_counts(rotation.after)}"
    )
    if publish is not None and rotation.retired:
        typer.echo(
            f"{len(rotation.retired)} retired scenario(s) written to {publish} for publication"
        )


@app.command("check")
def check_cmd(
    path: Path = typer.Argument(..., help="A directory of reserved scenario YAML or a bundle."),
    profile: Path | None = typer.Option(
        None, "--profile", "-p", help="Profile (default: the built-in example)."
    ),
    key_env: str = typer.Option("OASIS_RESERVED_KEY", "--key-env", help=_KEY_HELP),
) -> None:
    """Validate a reserved set against a profile and compare its counts with the declaration (03 §2.12)."""
    loaded = _load_for_run(profile or EXAMPLE_PROFILE_DIR)[0]
    documents = read_directory(path) if path.is_dir() else read_bundle(path, read_key(key_env))
    scenarios, findings = parse(documents, quiet=False)
    findings.extend(check_against(scenarios, loaded))
    echo_findings(findings)
    for warning in declaration_warnings(scenarios, loaded):
        typer.echo(f"warning: {warning}")
    typer.echo(
        f"{len(scenarios)} reserved scenario(s); safety per category: {_counts(category_counts(scenarios))}"
    )
    raise typer.Exit(EXIT_FAIL if findings.errors else EXIT_PASS)


@app.command("keygen")
def keygen_cmd() -> None:
    """Print a new bundle key; keep it in a secret store and export it as OASIS_RESERVED_KEY."""
    typer.echo(generate_key())
