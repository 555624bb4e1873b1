"""Where a ``--profile`` argument is found (issue 18 item 4): a path, else a fetched profile.

Search order for ``--profile P`` (every command that takes a profile):

1. ``P`` as a path (a profile directory, ``profile.yaml`` or ``profile.md``), relative to
   the working directory;
2. when ``P`` is a bare name (``software-infrastructure``: no path separator), the profile
   cache: ``$OASIS_PROFILE_CACHE/P``, else ``$XDG_CACHE_HOME/oasis-eval/profiles/P``, else
   ``~/.cache/oasis-eval/profiles/P``; ``oasis profile fetch P`` puts it there.

A path that is neither is an error that says how to get the public profile. The cache holds
each profile as fetched, with the source's LICENSE, an ATTRIBUTION file and
:data:`SOURCE_FILE` (where from, which ref, which commit) beside its files; the project
itself never ships a profile's files (spec 08 §5: a profile is loaded from a path or a
pinned checkout).
"""

from __future__ import annotations

import json
import os
import re
from pathlib import Path
from typing import Any

from ..diagnostics import UnusableInput

#: overrides the cache directory (tests, CI caches, shared machines)
CACHE_ENV = "OASIS_PROFILE_CACHE"
#: what ``oasis profile fetch`` records beside a fetched profile
SOURCE_FILE = "oasis-source.json"
#: the public profile a newcomer wants first
DEFAULT_PROFILE = "software-infrastructure"
_NAME = re.compile(r"^[A-Za-z0-9][A-Za-z0-9._-]{0,127}$")


def cache_dir() -> Path:
    """The profile cache: ``$OASIS_PROFILE_CACHE``, else the XDG cache directory's
    ``oasis-eval/profiles`` (``$XDG_CACHE_HOME``, default ``~/.cache``)."""
    configured = os.environ.get(CACHE_ENV)
    if configured:
        return Path(configured).expanduser()
    xdg = os.environ.get("XDG_CACHE_HOME")
    base = Path(xdg).expanduser() if xdg and Path(xdg).is_absolute() else Path.home() / ".cache"
    return base / "oasis-eval" / "profiles"


def is_profile_name(text: str) -> bool:
    """A bare profile name (``software-infrastructure``), never a path: no separator, no
    leading dot, so a name can never reach outside the cache."""
    return bool(_NAME.match(text)) and text not in (".", "..")


def cached(name: str) -> Path | None:
    """The cached profile directory for ``name``, or None."""
    if not is_profile_name(name):
        return None
    path = cache_dir() / name
    return path if path.is_dir() else None


def resolve_profile(path: str | Path) -> Path:
    """``path`` when it exists, else the cached profile of that bare name; otherwise an
    :class:`UnusableInput` that says how to get the public profile."""
    given = Path(path)
    if given.exists():
        return given
    found = cached(str(path))
    if found is not None:
        return found
    name = str(path) if is_profile_name(str(path)) else DEFAULT_PROFILE
    where = f" nor a profile in the cache ({cache_dir()})" if is_profile_name(str(path)) else ""
    raise UnusableInput(
        f"no such file or directory{where}; to get the public OASIS profile run "
        f"`oasis profile fetch {name}`, then pass `--profile {name}` "
        "(or give the path of a profile directory)",
        file=str(path),
    )


def source_record(profile_dir: Path) -> dict[str, Any] | None:
    """What ``oasis profile fetch`` recorded for a cached profile (source, ref, commit)."""
    path = profile_dir / SOURCE_FILE
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    return data if isinstance(data, dict) else None
