"""Probes as scenario files (07 §3.5: failed probes serialized in the standard scenario schema).

A serialized probe is one scenario YAML document (02 §1) plus a top-level
``x-probe`` block holding what 07 §2.1 requires a probe to declare and the
scenario schema has no field for: the primary archetype, the secondary
archetypes, and the probe's one-line description and provenance. The scenario
validator keeps unknown top-level keys and warns about them, so
``oasis validate scenario <file>`` accepts the file as it is; removing the block
turns it into an ordinary scenario for the deterministic corpus (07 §7.2).

The bytes are a function of the probe alone: fixed key order (02 field order),
no timestamps, so the same probe always gives the same file.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import yaml

from ..diagnostics import Findings, UnusableInput
from ..profiles.scenarios import load_scenario_file
from ..spec.probe import PROBE_KEY, GeneratorMethod, Probe, scenario_data
from ..spec.scenario import Scenario

HEADER = "# OASIS adversarial probe (spec 07 §2.1): a scenario (02 §1) plus its archetype attribution in x-probe.\n"


class _Dumper(yaml.SafeDumper):
    """Block style; multi-line strings as literal blocks so prompts stay readable."""


def _str(dumper: yaml.SafeDumper, value: str) -> yaml.ScalarNode:
    style = "|" if "\n" in value and not value.endswith((" ", "\t")) else None
    return dumper.represent_scalar("tag:yaml.org,2002:str", value, style=style)


_Dumper.add_representer(str, _str)


def probe_document(probe: Probe, method: GeneratorMethod | None = None) -> dict[str, Any]:
    """The probe as one scenario document with its ``x-probe`` block."""
    data = scenario_data(probe.scenario)
    block: dict[str, Any] = {
        "primary_archetype": probe.primary_archetype,
        "secondary_archetypes": list(probe.secondary_archetypes),
        "classification": probe.classification,
        "description": probe.description,
    }
    if probe.provenance:
        block["provenance"] = probe.provenance
    if method is not None:
        block["generator"] = method.model_dump(mode="json", exclude_none=True)
    data[PROBE_KEY] = block
    return data


def probe_yaml(probe: Probe, method: GeneratorMethod | None = None) -> str:
    """A probe as a YAML document (the scenario plus its probe metadata), for review and promotion."""
    body = yaml.dump(
        probe_document(probe, method),
        Dumper=_Dumper,
        sort_keys=False,
        allow_unicode=True,
        default_flow_style=False,
        width=100,
    )
    return HEADER + "---\n" + body


def probe_filename(probe: Probe) -> str:
    """``<probe id>.yaml`` with anything but ``[A-Za-z0-9._-]`` replaced."""
    return re.sub(r"[^A-Za-z0-9._-]+", "_", probe.scenario.id) + ".yaml"


def serialize_probe(probe: Probe, directory: Path, method: GeneratorMethod | None = None) -> Path:
    """Write the probe as ``<directory>/<probe id>.yaml`` and return the path."""
    directory = Path(directory)
    directory.mkdir(parents=True, exist_ok=True)
    path = directory / probe_filename(probe)
    path.write_bytes(probe_yaml(probe, method).encode("utf-8"))
    return path


def probe_from_scenario(scenario: Scenario, findings: Findings) -> Probe | None:
    """Split a loaded scenario's ``x-probe`` block off into a :class:`Probe` (findings if malformed).

    Without a block the scenario's own archetype is the primary one (07 §2.1)."""
    extra = scenario.model_extra if scenario.model_extra is not None else {}
    block = extra.pop(PROBE_KEY, None)
    src = scenario.source
    where = {
        "file": src.file if src else None,
        "line": scenario.line_of(PROBE_KEY),
        "scenario_id": scenario.id,
    }
    if block is None:
        block = {}
    if not isinstance(block, dict):
        findings.error(
            "invalid-probe-block", f"{PROBE_KEY} must be a mapping", field=PROBE_KEY, **where
        )
        return None
    primary = block.get("primary_archetype", scenario.archetype)
    secondary = block.get("secondary_archetypes") or []
    if (
        not isinstance(primary, str)
        or not isinstance(secondary, list)
        or not all(isinstance(s, str) for s in secondary)
    ):
        findings.error(
            "invalid-probe-block",
            "primary_archetype must be a string and secondary_archetypes a list of strings",
            field=PROBE_KEY,
            **where,
        )
        return None
    if primary != scenario.archetype:
        findings.error(
            "probe-archetype-mismatch",
            f"primary_archetype {primary!r} differs from the scenario's archetype {scenario.archetype!r}",
            expected="the primary archetype is the scenario's archetype (07 §2.1, §4.4)",
            field=f"{PROBE_KEY}.primary_archetype",
            **where,
        )
        return None
    unknown = sorted(
        set(block)
        - {
            "primary_archetype",
            "secondary_archetypes",
            "classification",
            "description",
            "provenance",
            "generator",
        }
    )
    if unknown:
        findings.warning(
            "unknown-probe-fields",
            f"unknown {PROBE_KEY} field(s): {', '.join(unknown)}",
            field=PROBE_KEY,
            **where,
        )
    description = block.get("description") or " ".join(scenario.name.split())
    return Probe(
        scenario=scenario,
        primary_archetype=primary,
        secondary_archetypes=tuple(secondary),
        description=str(description),
        provenance=str(block.get("provenance") or ""),
    )


def read_probes(path: Path, findings: Findings | None = None) -> list[Probe]:
    """Every probe of a (multi-document) probe file; malformed documents become findings."""
    findings = findings if findings is not None else Findings()
    if not Path(path).is_file():
        raise UnusableInput("probe file not found", file=str(path))
    out = []
    for scenario in load_scenario_file(Path(path), findings):
        probe = probe_from_scenario(scenario, findings)
        if probe is not None:
            out.append(probe)
    return out
