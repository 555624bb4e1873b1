"""The ``red_team`` generator: probes written by people (07 §2.2, §3.1 ``red_team``).

A red-team probe file is a scenario YAML file (02 §1, one document per probe)
whose documents carry the ``x-probe`` block of :mod:`..serialize`
(``primary_archetype``, optional ``secondary_archetypes``, ``description``).
``oasis validate scenario`` accepts such files; this generator loads them from
the ``paths`` option (files or directories of ``*.yaml`` / ``*.yml``), checks
each probe like every other generator's (validates against the profile, is
evaluable, is anchored to a requested archetype) and rejects the rest with a
reason. Reproducibility is ``non_reproducible`` (07 §3.4): people write them.

:func:`scaffold` writes a starting file for one archetype: a copy of one of the
profile's scenarios of that archetype (or of its category) with a fresh id and
intent, and the archetype's definition as comments, so it validates before the
first edit.
"""

from __future__ import annotations

import textwrap
from pathlib import Path
from typing import Any

import yaml

from ...diagnostics import Findings, UnusableInput
from ...spec.common import GeneratorType, Reproducibility
from ...spec.probe import (
    PROBE_KEY,
    DroppedProbe,
    GenerationReport,
    GenerationRequest,
    GeneratorMethod,
    Probe,
    scenario_data,
)
from ...spec.profile import Profile
from ..serialize import read_probes
from . import base


def _paths(option: Any) -> list[Path]:
    if option is None:
        raise base.GeneratorError("red_team needs option 'paths': probe files or directories")
    items = [option] if isinstance(option, str | Path) else list(option)
    out: list[Path] = []
    for item in items:
        for part in [item] if isinstance(item, Path) else str(item).split(","):
            path = Path(part.strip()) if isinstance(part, str) else part
            if path.is_dir():
                out += sorted(
                    p for p in path.rglob("*") if p.suffix in (".yaml", ".yml") and p.is_file()
                )
            elif path.is_file():
                out.append(path)
            else:
                raise base.GeneratorError(f"red_team path not found: {path}")
    return out


class RedTeamGenerator:
    """Human-written probes loaded from files (07 §3.1 ``red_team``)."""

    name = "red_team"

    def __init__(self, options: dict[str, Any] | None = None):
        self.options = dict(options or {})
        self.last_report: GenerationReport | None = None

    def method(self) -> GeneratorMethod:
        """The generator method, with the team size and expertise when given (07 §3.1)."""
        size = self.options.get("team_size")
        return GeneratorMethod(
            type=GeneratorType.red_team,
            team_size=int(size) if size is not None else None,
            team_expertise=str(self.options["team_expertise"])
            if self.options.get("team_expertise")
            else None,
            description="human-written probe files (scenario YAML with an x-probe block)",
        )

    def reproducibility(self, request: GenerationRequest) -> Reproducibility:
        """Human-written probes are not reproducible (07 §3.2)."""
        return Reproducibility.non_reproducible

    def config_hash(self, request: GenerationRequest) -> str:
        """Hash of the configuration."""
        return base.config_hash(self.name, self.method(), request)

    def generate(self, profile: Profile, request: GenerationRequest) -> list[Probe]:
        """Read the red team's probe files and keep those of the target archetypes."""
        report = base.new_report(self.name, request)
        self.last_report = report
        wanted = {a.id for a in base.target_archetypes(profile, request)}
        out: list[Probe] = []
        seen: set[str] = set()
        for path in _paths(self.options.get("paths")):
            findings = Findings()
            try:
                probes = read_probes(path, findings)
            except UnusableInput as exc:
                report.dropped.append(DroppedProbe(archetype="?", base=str(path), reason=str(exc)))
                continue
            for f in findings.errors:
                report.dropped.append(
                    DroppedProbe(archetype="?", base=str(path), reason=f.render())
                )
            for probe in probes:
                reason = self._reject(probe, profile, wanted, seen)
                if reason:
                    report.dropped.append(
                        DroppedProbe(
                            archetype=probe.primary_archetype, base=str(path), reason=reason
                        )
                    )
                    continue
                if len(out) == request.count:
                    report.notes.append(
                        f"more probes than requested ({request.count}); the rest were not loaded"
                    )
                    return out
                seen.add(probe.scenario.id)
                out.append(probe)
                base.record(report, probe)
        return out

    @staticmethod
    def _reject(probe: Probe, profile: Profile, wanted: set[str], seen: set[str]) -> str | None:
        if probe.primary_archetype not in wanted:
            return f"primary archetype {probe.primary_archetype} is not a requested archetype"
        if probe.scenario.id in seen:
            return f"duplicate probe id {probe.scenario.id}"
        unknown = [a for a in probe.secondary_archetypes if profile.archetype(a) is None]
        if unknown:
            return f"unknown secondary archetype(s) {', '.join(unknown)}"
        found = base.problems(probe.scenario, profile)
        if found:
            return "; ".join(found[:3])
        return None


# ---- scaffold --------------------------------------------------------------------
def scaffold(profile: Profile, archetype_id: str) -> str:
    """A red-team probe file for ``archetype_id`` that validates as written (see module doc)."""
    archetype = profile.archetype(archetype_id)
    if archetype is None:
        known = ", ".join(a.id for c in profile.categories() for a in c.archetypes)
        raise base.GeneratorError(f"unknown archetype {archetype_id}; the profile defines: {known}")
    category = base.category_of(profile, archetype_id)
    pool = base.bases_for(profile, archetype_id) or sorted(
        (s for s in profile.scenarios if s.category == category.id), key=lambda s: s.id
    )
    if not pool:
        raise base.GeneratorError(
            f"profile {profile.id} has no scenario of archetype {archetype_id} or of "
            f"category {category.id} to start a probe from"
        )
    source = pool[0]
    data = base.inline_library(scenario_data(source), profile)
    data["archetype"] = archetype_id
    data["category"] = category.id
    data["id"] = f"{base.id_prefix(profile, archetype_id)}.probe.{archetype_id.lower()}.redteam-001"
    data["version"] = "0.1.0"
    data["description"] = base.one_line(data.get("description"))
    data["name"] = f"Red-team probe for {archetype_id} ({archetype.name})"
    data["intent"] = (
        f"Red-team probe for {archetype_id} ({archetype.name}), started from {source.id}: replace this "
        f"with the failure mode the probe exposes and what a failure means."
    )
    base.repair_subcategory(data, profile)
    data[PROBE_KEY] = {
        "primary_archetype": archetype_id,
        "secondary_archetypes": [],
        "description": f"{archetype_id}: describe the novel stimulus in one line",
    }
    lines = [
        f"# Red-team probe for {archetype_id}: {archetype.name} (category {category.id}).",
        "# Started from scenario " + source.id + "; change the stimuli (and whatever they need in",
        "# preconditions, assertions and verification) into a stimulus the corpus does not have.",
        "# x-probe: primary_archetype must stay the scenario's archetype (07 §2.1); list capability",
        "# archetypes a composition probe also exercises under secondary_archetypes (07 §4.4).",
        "# Check it with: oasis validate scenario <this file> --profile <profile>",
    ]
    if archetype.description:
        lines.append("#")
        lines += [f"# {line}" for line in _wrap(base.one_line(archetype.description))]
    for label, text in sorted(archetype.facets.items()):
        lines.append(f"# {label.capitalize()}:")
        lines += [f"#   {line}" for line in _wrap(base.one_line(text))]
    body = yaml.safe_dump(
        data, sort_keys=False, allow_unicode=True, default_flow_style=False, width=100
    )
    return "\n".join(lines) + "\n---\n" + body


def _wrap(text: str, width: int = 92) -> list[str]:
    return textwrap.wrap(text, width) or [""]
