"""Probe files as custom extensions (03 §6) and the probe-to-scenario step (07 §7.2).

A probe file is scenario YAML, optionally carrying the probe's attribution
under the ``x-probe`` key (the serialized form of 07 §3.5) or written as a
whole :class:`~.model.Probe` (``{scenario: ..., primary_archetype: ...}``).
Run as custom extensions they keep their category, are labelled custom in
the report and never count toward minimum coverage. ``promote`` turns a
reviewed failed probe into a corpus scenario file: a fresh id in the
profile's id scheme, archetype fields from the primary archetype, a
provenance comment, and it must validate against the profile.
"""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import yaml

from ..diagnostics import Findings, UnusableInput
from ..profiles.scenarios import scenario_from_document
from ..spec.probe import PROBE_KEY, scenario_data
from ..spec.profile import Profile, SafetyCategory
from ..spec.scenario import Scenario
from ..spec.yaml_io import YamlDocument, load_documents
from ..validation import validate_scenario
from ..validation.blocking import CUSTOM_EXEMPT
from .reserved import yaml_files

#: validation codes a custom extension may raise: it may define its own archetype (03 §6)
CUSTOM_TOLERATED = CUSTOM_EXEMPT  # one list: validation/blocking.py


@dataclass
class ProbeFile:
    """A probe read back from a probe file: the scenario and its probe metadata."""

    scenario: Scenario
    file: str
    #: primary_archetype, secondary_archetypes, description, provenance ... when recorded
    probe: dict[str, Any] = field(default_factory=dict)

    @property
    def primary(self) -> str:
        """The primary archetype: recorded in the probe, else the scenario's."""
        return str(self.probe.get("primary_archetype") or self.scenario.archetype)

    @property
    def secondary(self) -> list[str]:
        """The secondary archetypes recorded in the probe, as strings."""
        value = self.probe.get("secondary_archetypes") or []
        return [str(v) for v in value] if isinstance(value, list | tuple) else [str(value)]


def _files(paths: list[Path]) -> list[Path]:
    out: list[Path] = []
    for path in paths:
        if path.is_dir():
            found = yaml_files(
                path
            )  # not only regular files: a FIFO named *.yaml is an error when read
            if not found:
                raise UnusableInput(
                    "the directory holds no .yaml probe or scenario file", file=str(path)
                )
            out += found
        elif path.is_file():
            out.append(path)
        elif path.exists():
            raise UnusableInput("not a regular file (a FIFO, device or socket)", file=str(path))
        else:
            raise UnusableInput("no such file or directory", file=str(path))
    return out


def read_probe_files(paths: list[Path], findings: Findings) -> list[ProbeFile]:
    """Every probe/scenario document under ``paths`` (files or directories); problems -> findings."""
    out = []
    for path in _files(paths):
        for doc in load_documents(path, findings):
            loaded = _from_document(doc, findings)
            if loaded is not None:
                out.append(loaded)
    return out


def _from_document(doc: YamlDocument, findings: Findings) -> ProbeFile | None:
    data = doc.data
    probe: dict[str, Any] = {}
    if (
        isinstance(data, dict)
        and isinstance(data.get("scenario"), dict)
        and "primary_archetype" in data
    ):
        probe = {k: v for k, v in data.items() if k != "scenario"}
        data = data["scenario"]
        doc = YamlDocument(
            data=data,
            file=doc.file,
            line=doc.line,
            locations={k[1:]: v for k, v in doc.locations.items() if k[:1] == ("scenario",)},
        )
    elif isinstance(data, dict) and isinstance(data.get(PROBE_KEY), dict):
        probe = dict(data[PROBE_KEY])
        data = {k: v for k, v in data.items() if k != PROBE_KEY}
        doc = YamlDocument(data=data, file=doc.file, line=doc.line, locations=doc.locations)
    scenario = scenario_from_document(doc, findings)
    return None if scenario is None else ProbeFile(scenario=scenario, file=doc.file, probe=probe)


def load_custom(paths: list[Path], profile: Profile) -> tuple[list[Scenario], Findings]:
    """Custom extension scenarios (03 §6), validated against ``profile``: each must name a category
    of the profile; it may define its own archetype; ids must not collide."""
    findings = Findings()
    loaded = read_probe_files(paths, findings)
    scenarios = [p.scenario for p in loaded]
    for scenario in scenarios:
        findings.extend(
            f for f in validate_scenario(scenario, profile) if f.code not in CUSTOM_TOLERATED
        )
    counts = Counter(s.id for s in scenarios)
    for dup in sorted(i for i, n in counts.items() if n > 1):
        findings.error(
            "duplicate-scenario-id", f"custom scenario id '{dup}' appears {counts[dup]} times"
        )
    return scenarios, findings


def with_custom(profile: Profile, scenarios: list[Scenario]) -> Profile:
    """A copy of ``profile`` whose scenario list also holds the custom extensions (the run
    directory's profile.json then carries them, so ``oasis replay`` can judge them again)."""
    return profile.model_copy(update={"scenarios": [*profile.scenarios, *scenarios]})


# ---- promotion (07 §7.2) ----------------------------------------------------------------------


#: the generators' name suffix (``... [probe: paraphrase]``): not part of a corpus name
_PROBE_SUFFIX = re.compile(r"\s*\[probe:[^\]]*\]\s*$")


def _slug(text: str, limit: int = 32) -> str:
    """Lower-case words joined by hyphens, cut at a word boundary."""
    words = re.sub(r"[^a-z0-9]+", " ", text.lower()).split()
    slug = ""
    for word in words:
        if slug and len(slug) + 1 + len(word) > limit:
            break
        slug = f"{slug}-{word}" if slug else word[:limit]
    return slug or "promoted-probe"


def id_scheme(profile: Profile, category: str, classification: str) -> tuple[str, int]:
    """(prefix, number width) of the ids of the category's scenarios, e.g. ``("k8s.safety.pi", 3)``.

    The most common dotted prefix among the category's scenarios (then the classification's)
    decides; without any, ``<first id segment>.<classification>.<category>``."""
    same = [s.id for s in profile.scenarios if s.category == category and "." in s.id]
    peers = same or [s.id for s in profile.scenarios if s.classification.value == classification]
    widths = Counter(len(m.group(1)) for i in peers if (m := re.search(r"-(\d+)$", i)))
    width = widths.most_common(1)[0][0] if widths else 3
    if same:
        prefixes = Counter(i.rsplit(".", 1)[0] for i in same)
        return sorted(prefixes.items(), key=lambda kv: (-kv[1], kv[0]))[0][0], width
    head = next(
        (s.id.split(".", 1)[0] for s in sorted(profile.scenarios, key=lambda s: s.id)), None
    )
    return f"{head or _slug(profile.id)}.{classification}.{_slug(category)}", width


def fresh_id(
    profile: Profile, category: str, classification: str, name: str, taken: set[str]
) -> str:
    """The next free scenario id in the profile's id scheme for ``category``."""
    prefix, width = id_scheme(profile, category, classification)
    base = f"{prefix}.{_slug(name)}"
    number = 1
    while f"{base}-{number:0{width}d}" in taken:
        number += 1
    return f"{base}-{number:0{width}d}"


@dataclass
class Promotion:
    """A promoted probe: the corpus scenario, its YAML text and its validation findings."""

    scenario: Scenario
    text: str
    findings: Findings


def promote(probe: ProbeFile, profile: Profile, taken: set[str]) -> Promotion:
    """The corpus scenario for a reviewed failed probe (not written; see ``text``)."""
    arch = profile.archetype(probe.primary)
    findings = Findings()
    if arch is None:
        findings.error(
            "unknown-archetype",
            f"primary archetype '{probe.primary}' is not defined by the "
            "profile; a promoted scenario belongs to one of its archetypes (07 §7.2)",
        )
        return Promotion(scenario=probe.scenario, text="", findings=findings)
    category = profile.category(arch.category)
    classification = "safety" if isinstance(category, SafetyCategory) else "capability"
    data = scenario_data(probe.scenario)
    for key in probe.scenario.unknown_fields:
        data.pop(key, None)
    name = _PROBE_SUFFIX.sub("", probe.scenario.name) or probe.scenario.name
    new_id = fresh_id(profile, arch.category, classification, name, taken | {probe.scenario.id})
    data.update(
        id=new_id,
        name=name,
        classification=classification,
        category=arch.category,
        archetype=arch.id,
    )
    scenario = Scenario.model_validate(data)
    found = validate_scenario(scenario, profile)
    if any(
        f.code == "duplicate-intent" for f in found.errors
    ):  # a mutation keeps its base's intent
        note = (
            " ".join(str(probe.probe.get("description") or "").split()) or "an adversarial variant"
        )
        data["intent"] = f"{(scenario.intent or '').strip()} Adversarial variant: {note}".strip()
        scenario = Scenario.model_validate(data)
        found = validate_scenario(scenario, profile)
    findings.extend(found)
    return Promotion(
        scenario=scenario, text=_header(probe, new_id) + _dump(data), findings=findings
    )


def _dump(data: dict[str, Any]) -> str:
    return "---\n" + yaml.safe_dump(data, sort_keys=False, allow_unicode=True, width=100)


def _header(probe: ProbeFile, new_id: str) -> str:
    lines = [
        f"Promoted from adversarial probe {probe.scenario.id} ({Path(probe.file).name}) as {new_id}.",
        f"Primary archetype: {probe.primary}"
        + (f"; secondary archetypes: {', '.join(probe.secondary)}" if probe.secondary else "")
        + ".",
    ]
    for key in ("description", "provenance", "generator"):
        value = probe.probe.get(key)
        if isinstance(value, dict):
            value = "; ".join(f"{k}={v}" for k, v in value.items())
        if value:
            lines.append(f"Probe {key}: {' '.join(str(value).split())}")
    lines.append("Review and refine before adding it to the corpus (07 §7.2, step 3).")
    return "".join(f"# {line}\n" for line in lines)
