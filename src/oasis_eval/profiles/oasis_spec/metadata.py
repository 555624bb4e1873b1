"""profile.md metadata (03 §2.1): name, identifier, version, description, domain, core dependency.

Read from bold labels: the preamble's ``**Version:**``, ``**Domain:**`` and
``**OASIS Core Dependency:** ≥ x`` (normalised to ``>=x``), and the metadata
section's ``- **Profile name:**``, ``- **Profile identifier:**``,
``- **Description:**``. A missing item is an error finding; a stand-in keeps
the profile loadable.
"""

from __future__ import annotations

import re

from ...spec.profile import ProfileMetadata
from .common import Source, clean_version, normalize_range
from .markdown import Label, slugify, strip_inline

#: the metadata label naming the profiles whose behavior definitions this one reuses
#: (issue 29 item 3), as the native layout's ``behavior_namespaces`` list does
REUSES_LABELS = ("reuses behaviors of", "reuses behaviors from", "behavior namespaces")


def read_reused(labs: dict[str, Label]) -> list[str]:
    """The profile identifiers a ``- **Reuses behaviors of:** `id`, `id` `` metadata item
    names: their evaluators serve this profile's behaviors after its own (03 §2.3)."""
    for key in REUSES_LABELS:
        if key in labs:
            text = strip_inline(labs[key].value)
            return [part.strip() for part in re.split(r"[,;]", text) if part.strip()]
    return []


def read_metadata(src: Source, labs: dict[str, Label], default_name: str) -> ProfileMetadata:
    """Profile metadata from profile.md's labels (03 §2.1); ``default_name`` when it has no name."""

    def value(*keys: str) -> tuple[str, int | None]:
        for k in keys:
            if k in labs and strip_inline(labs[k].value):
                return strip_inline(labs[k].value), labs[k].line
        return "", None

    title = src.doc.title
    name, _ = value("profile name", "name")
    identifier, _ = value("profile identifier", "identifier", "profile id")
    version, _ = value("version", "profile version")
    description, _ = value("description")
    domain, _ = value("domain", "class of external systems")
    core, _ = value("oasis core dependency", "core dependency", "oasis core version")
    name = name or re.sub(r"\s+profile$", "", title, flags=re.IGNORECASE)
    for field_name, got, expected in (
        ("name", name, "'- **Profile name:** ...' or a '# <Name> Profile' title"),
        ("identifier", identifier, "'- **Profile identifier:** `...`'"),
        ("version", version, "'**Version:** <semver>' (03 §2.1)"),
        ("description", description, "'- **Description:** ...' (03 §2.1)"),
        ("domain", domain, "'**Domain:** ...' (the class of external systems, 03 §2.1)"),
        ("core_dependency", core, "'**OASIS Core Dependency:** ≥ <version>'"),
    ):
        if not got:
            src.error(
                "missing-metadata",
                f"profile metadata '{field_name}' is not stated",
                1,
                field=f"metadata.{field_name}",
                expected=expected,
            )
    name = name or default_name
    meta = ProfileMetadata(
        name=name,
        identifier=identifier or slugify(name) or default_name,
        version=clean_version(version),
        description=description,
        domain=domain,
        core_dependency=normalize_range(core) if core else "",
    )
    line = labs["version"].line if "version" in labs else 1
    return src.locate(meta, line)
