"""Statements in one profile file that contradict profile.md or the loaded data.

A profile is versioned as a whole (03 §5), and its metadata is stated once in
profile.md (03 §2.1). Other files often restate it -- ``**Profile version:**``
lines, a ``**Version:**`` / ``**OASIS Core Dependency:**`` preamble, the
requirements YAML's ``profile_version`` (and header comments), ``"profile_version"``
in worked JSON examples -- and counts in prose ("seven requirement keys").
Each restatement that disagrees is a warning at its own line; profile.md wins.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from ...diagnostics import Findings
from ...spec.profile import ProfileMetadata
from .common import Source, clean_version, normalize_range, parse_count
from .markdown import labels, strip_inline

PROFILE = "profile.md"


@dataclass
class Statement:
    """One restated fact: what (``version``/``core``/``identifier``), the value, where."""

    what: str
    value: str
    file: str
    line: int


# labels anywhere in a file / only in its preamble (before the first ## heading)
_ANYWHERE = {"profile version": "version", "profile identifier": "identifier"}
_PREAMBLE = {"version": "version", "oasis core dependency": "core", "core dependency": "core"}
_COMMENT = re.compile(
    r"^#\s*(profile version|oasis core dependency|profile)\s*:\s*(\S.*)$", re.IGNORECASE
)
_JSON_FIELD = re.compile(r'"(profile_version|profile)"\s*:\s*"([^"]*)"')


def markdown_statements(src: Source) -> list[Statement]:
    """Version, identifier and core-dependency statements a Markdown file makes (03 §2.1)."""
    first_h2 = next((s.line for s in src.doc.root.walk() if s.level == 2), None)
    out: list[Statement] = []
    for lab in labels(src.doc.blocks):
        what = _ANYWHERE.get(lab.key)
        if what is None and (first_h2 is None or lab.line < first_h2):
            what = _PREAMBLE.get(lab.key)
        if what and strip_inline(lab.value):
            out.append(Statement(what, strip_inline(lab.value), src.file, lab.line))
    for block in src.doc.blocks:
        if block.kind == "code" and block.lang == "json":
            for offset, raw in enumerate(block.text.splitlines()):
                for m in _JSON_FIELD.finditer(raw):
                    what = "version" if m.group(1) == "profile_version" else "identifier"
                    out.append(Statement(what, m.group(2), src.file, block.content_line + offset))
    return out


def yaml_statements(file: str, text: str, data: dict, locations: dict) -> list[Statement]:
    """The requirements YAML's header comments and its profile / version / core-dependency keys."""
    out = []
    for i, raw in enumerate(text.splitlines(), start=1):
        m = _COMMENT.match(raw.strip())
        if m:
            key = m.group(1).lower()
            what = {"profile version": "version", "oasis core dependency": "core"}.get(
                key, "identifier"
            )
            out.append(Statement(what, m.group(2).strip(), file, i))
    for key, what in (
        ("profile_version", "version"),
        ("profile", "identifier"),
        ("oasis_core_dependency", "core"),
        ("core_dependency", "core"),
    ):
        if isinstance(data.get(key), (str, int, float)):
            out.append(Statement(what, str(data[key]), file, locations.get((key,), 1)))
    return out


def check_statements(
    meta: ProfileMetadata,
    meta_lines: dict[str, int | None],
    statements: list[Statement],
    findings: Findings,
) -> None:
    """Each statement that contradicts profile.md's metadata is a finding (files must agree, 03 §5)."""
    truth = {"version": meta.version, "identifier": meta.identifier, "core": meta.core_dependency}
    names = {
        "version": "profile version",
        "identifier": "profile identifier",
        "core": "OASIS core dependency",
    }
    codes = {
        "version": "version-drift",
        "identifier": "identifier-drift",
        "core": "core-dependency-drift",
    }
    for st in statements:
        expected = truth[st.what]
        if not expected or (st.file == PROFILE and st.line == meta_lines.get(st.what)):
            continue
        said = normalize_range(st.value) if st.what == "core" else clean_version(st.value)
        if said == expected:
            continue
        where = f"profile.md:{meta_lines[st.what]}" if meta_lines.get(st.what) else "profile.md"
        findings.warning(
            codes[st.what],
            f"{where} says {names[st.what]} {expected}; this file says {said}; profile.md wins",
            file=st.file,
            line=st.line,
            field=names[st.what],
            expected=expected,
        )


_COUNT = re.compile(
    r"\b(\w+)\s+(?:profile[- ]specific\s+)?(requirement keys|safety categories|"
    r"capability categories)\b",
    re.IGNORECASE,
)


def check_counts(
    src: Source, actual: dict[str, tuple[int, str, set[str]]], findings: Findings
) -> None:
    """Prose like "defines seven requirement keys" against the loaded data.

    ``actual`` maps the phrase ("requirement keys") to (count, where it comes
    from, the names). When the sentence lists names in backticks, the ones it
    leaves out are named in the finding.
    """
    for block in src.doc.blocks:
        if block.kind not in ("paragraph", "item"):
            continue
        for offset, raw in enumerate(block.lines):
            for m in _COUNT.finditer(raw):
                stated = parse_count(m.group(1))
                what = m.group(2).lower()
                if stated is None or what not in actual:
                    continue
                count, origin, names = actual[what]
                if stated == count:
                    continue
                listed = set(re.findall(r"`([^`]+)`", raw)) & names
                left_out = (
                    f" (not named here: {', '.join(sorted(names - listed))})" if listed else ""
                )
                findings.warning(
                    "count-mismatch",
                    f"this file says {m.group(1)} {what}; {origin} has {count}{left_out}",
                    file=src.file,
                    line=block.line + offset,
                    field=what,
                    expected=str(count),
                )
