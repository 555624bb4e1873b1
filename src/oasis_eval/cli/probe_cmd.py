"""``oasis probe``: adversarial probes (spec 07).

- ``oasis probe generate``: run a probe generator (07 §3) against a profile and
  write each probe as a scenario file (07 §3.5) plus ``generation.json``: the
  generator's method, reproducibility and config hash (07 §6.1), the request,
  the probe files with their content hashes, and what was dropped and why.
- ``oasis probe scaffold``: a red-team probe file for one archetype.

``probe_run_cmd`` attaches ``probe run`` and ``probe promote`` to :data:`probe_app`. Exit codes: 0 done, 1 no probe produced, 2 unusable input.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import TYPE_CHECKING, Any

import typer
import yaml

from ..adversarial.generators import GeneratorError, load_generator
from ..adversarial.generators.base import public_options
from ..adversarial.generators.red_team import scaffold as make
from ..adversarial.serialize import serialize_probe
from ..diagnostics import UnusableInput
from ..examples import EXAMPLE_PROFILE_DIR
from ..exit_codes import EXIT_FAIL, EXIT_PASS
from ..profiles.loader import load_profile
from ..spec.probe import GenerationRequest, GeneratorMethod, Probe, ProbeGenerator
from ..spec.yaml_io import safe_load
from .output import echo_findings

if TYPE_CHECKING:
    from ..spec.profile import Profile

probe_app = typer.Typer(
    help="Adversarial probes (spec 07): generate them, scaffold red-team probes.",
    no_args_is_help=True,
)

MANIFEST = "generation.json"
PROFILE_OPT = typer.Option(
    None, "--profile", help="Profile directory or file (default: the built-in example)."
)


def _profile(path: Path | None) -> Any:
    loaded = load_profile(path or EXAMPLE_PROFILE_DIR)
    if loaded.profile is None:
        echo_findings(loaded.findings)
        raise UnusableInput("the profile could not be loaded", file=str(path))
    return loaded.profile


def parse_options(items: list[str]) -> dict[str, Any]:
    """``key=value`` pairs; values are read as YAML (``3``, ``true``, ``[a, b]``), else kept as text."""
    out: dict[str, Any] = {}
    for item in items:
        key, sep, value = item.partition("=")
        if not sep or not key.strip():
            raise UnusableInput(f"--option {item!r} is not key=value")
        try:
            parsed = safe_load(value) if value.strip() else ""
        except yaml.YAMLError:
            parsed = value
        out[key.strip()] = (
            parsed if isinstance(parsed, str | int | float | bool | list | dict) else value
        )
    return out


def _clear(out: Path, force: bool) -> None:
    """Refuse to mix runs; with --force, remove the files an earlier run listed."""
    manifest = out / MANIFEST
    if not out.exists():
        return
    if not force and any(out.iterdir()):
        raise UnusableInput(
            "the output directory is not empty (pass --force to replace an earlier run)",
            file=str(out),
        )
    if manifest.is_file():
        try:
            earlier = json.loads(manifest.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            earlier = {}
        for item in earlier.get("probes") or []:
            old = out / str(item.get("file") or "")
            if old.parent == out and old.is_file():
                old.unlink()
        manifest.unlink()


@probe_app.command("generate")
def generate(
    out: Path = typer.Option(
        ..., "--out", help="Directory for the probe files and generation.json."
    ),
    profile_path: Path | None = PROFILE_OPT,
    generator: str = typer.Option(
        "mutation", "--generator", help="mutation, red_team, llm, hybrid or a plugin."
    ),
    probes: int = typer.Option(
        16,
        "--probes",
        min=1,
        max=10_000,
        help="Number of probes wanted (a generator may make fewer).",
    ),
    seed: int = typer.Option(0, "--seed", help="Seed of the generator."),
    archetypes: str | None = typer.Option(
        None,
        "--archetypes",
        help="Comma-separated archetype ids (default: every safety archetype).",
    ),
    option: list[str] = typer.Option(
        [],
        "--option",
        "-o",
        help="Generator option key=value (repeatable), e.g. paths=probes/ url=... model=...",
    ),
    force: bool = typer.Option(
        False, "--force", help="Replace the probes of an earlier run in --out."
    ),
    as_json: bool = typer.Option(
        False, "--json", help="Print generation.json instead of a summary."
    ),
) -> None:
    """Generate adversarial probes for a profile's archetypes and write them as scenario files."""
    prof = _profile(profile_path)
    options = parse_options(option)
    wanted = tuple(a.strip() for a in (archetypes or "").split(",") if a.strip())
    try:
        gen = load_generator(generator, options)
        request = GenerationRequest(
            archetypes=wanted, count=probes, seed=seed, options=public_options(options)
        )
        made = gen.generate(prof, request)
    except GeneratorError as exc:
        raise UnusableInput(str(exc)) from None
    _clear(out, force)
    method = gen.method()
    files = [serialize_probe(p, out, method) for p in made]
    manifest = _manifest(generator, gen, method, request, prof, made, files)
    out.mkdir(parents=True, exist_ok=True)
    (out / MANIFEST).write_text(
        json.dumps(manifest, indent=2, sort_keys=True) + "\n", encoding="utf-8"
    )
    if as_json:
        typer.echo(json.dumps(manifest, indent=2, sort_keys=True))
    else:
        _summary(manifest, out)
    raise typer.Exit(EXIT_PASS if made else EXIT_FAIL)


def _manifest(
    name: str,
    gen: ProbeGenerator,
    method: GeneratorMethod,
    request: GenerationRequest,
    prof: Profile,
    made: list[Probe],
    files: list[Path],
) -> dict[str, Any]:
    """generation.json: the generator's declaration (07 §6.1), the request, the probe files
    with their content hashes and the generator's own report."""
    report = getattr(gen, "last_report", None)
    return {
        "generator": {
            "name": name,
            **method.model_dump(mode="json", exclude_none=True),
            "reproducibility": gen.reproducibility(request).value,
            "config_hash": gen.config_hash(request),
        },
        "profile": {"id": prof.id, "version": prof.version},
        "request": request.model_dump(mode="json"),
        "probes": [
            {
                "id": p.scenario.id,
                "file": f.name,
                "primary_archetype": p.primary_archetype,
                "secondary_archetypes": list(p.secondary_archetypes),
                "classification": p.classification,
                "content_hash": p.content_hash(),
            }
            for p, f in zip(made, files, strict=True)
        ],
        "report": report.model_dump(mode="json") if report is not None else None,
    }


def _summary(manifest: dict[str, Any], out: Path) -> None:
    g = manifest["generator"]
    typer.echo(
        f"{len(manifest['probes'])} probe(s) from {g['name']} ({g['type']}, {g['reproducibility']}, "
        f"{g['config_hash']}) written to {out}"
    )
    report = manifest.get("report") or {}
    dropped: dict[str, int] = {}
    for item in report.get("dropped") or []:
        dropped[item["archetype"]] = dropped.get(item["archetype"], 0) + 1
    per = report.get("per_archetype") or {}
    for arch in sorted(set(per) | set(dropped)):
        typer.echo(
            f"  {arch}: {per.get(arch, 0)} probe(s)"
            + (f", {dropped[arch]} dropped" if arch in dropped else "")
        )
    for note in report.get("notes") or []:
        typer.echo(f"  note: {note}")
    for item in (report.get("dropped") or [])[:10]:
        typer.echo(f"  dropped ({item['archetype']}, {item.get('base') or '-'}): {item['reason']}")


@probe_app.command("scaffold")
def scaffold(
    archetype: str = typer.Option(..., "--archetype", help="Archetype id, e.g. S-PI-001."),
    out: Path = typer.Option(..., "--out", help="File to write."),
    profile_path: Path | None = PROFILE_OPT,
    force: bool = typer.Option(False, "--force", help="Overwrite an existing file."),
) -> None:
    """Write a red-team probe file for one archetype that validates before its first edit."""
    prof = _profile(profile_path)
    if out.exists() and not force:
        raise UnusableInput("file exists (pass --force to overwrite)", file=str(out))
    try:
        text = make(prof, archetype)
    except GeneratorError as exc:
        raise UnusableInput(str(exc)) from None
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(text, encoding="utf-8")
    where = f" --profile {profile_path}" if profile_path else ""
    typer.echo(f"wrote {out}; check it with: oasis validate scenario {out}{where}")
