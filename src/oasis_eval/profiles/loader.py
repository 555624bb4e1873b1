"""Profile loading entry point: detects the layout and returns the profile with its findings."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Literal

from ..diagnostics import Findings, UnusableInput
from ..spec.profile import Profile
from . import native
from .cache import resolve_profile
from .oasis_spec.layout import is_oasis_spec_layout, load_oasis_spec_profile

Layout = Literal["native", "oasis-spec"]


@dataclass
class LoadResult:
    """A loaded profile (``None`` if its top-level document was invalid) and every finding."""

    profile: Profile | None
    findings: Findings
    layout: Layout
    root: Path
    files: list[str] = field(default_factory=list)


def detect_layout(path: Path) -> tuple[Layout, Path]:
    """``(layout, profile_root)`` for a directory, a ``profile.yaml`` or a Markdown document of
    an oasis-spec profile (its directory is the profile)."""
    path = resolve_profile(path)  # a path, else a fetched profile's bare name (profiles/cache.py)
    root = path if path.is_dir() else path.parent
    markdown = path.suffix.lower() in (".md", ".markdown")
    if path.is_file() and path.name != native.PROFILE_FILE and not markdown:
        raise UnusableInput(
            "not a profile: expected a profile directory, profile.yaml or its main Markdown "
            "document (profile.md)",
            file=str(path),
        )
    if (root / native.PROFILE_FILE).is_file() and not markdown:
        return "native", root
    if is_oasis_spec_layout(root):
        return "oasis-spec", root
    raise UnusableInput(
        "no profile found: expected profile.yaml (native layout) or Markdown documents one of "
        "which states the profile metadata, identifier and version (oasis-spec layout, 03 §2.1)",
        file=str(path),
    )


def load_profile(path: str | Path) -> LoadResult:
    """Load a profile in either layout. Raises :class:`UnusableInput` only for unreadable input."""
    layout, root = detect_layout(Path(path))
    findings = Findings()
    if layout == "native":
        profile = native.load_native_profile(root, findings)
    else:
        profile = load_oasis_spec_profile(root, findings)
    return LoadResult(profile=profile, findings=findings, layout=layout, root=root)
