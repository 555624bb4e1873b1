"""A run directory holds what the run wrote, and nothing else (issue 11 items 5 and 6).

The agent under test may know where the run goes (``--out`` is on the runner's command
line) and may write there while the run runs: files planted before the manifest is
written would be listed in it, and so signed, as the run's own (a planted evidence file
changes what ``oasis replay`` reads). An in-process agent may also change the working
directory, which would move a relative ``--out``. So the output paths are made absolute
before the run starts, and after it the run is written into a fresh private staging
directory (``mkdtemp``: unguessable, mode 0700) beside the target and moved into place
whole:

- the target does not exist, or is an empty directory: renamed onto it;
- it is the earlier run directory ``--out`` named when the run started (the same run id):
  that run is replaced whole;
- anything else (something appeared there during the run, e.g. another run given the same
  ``--out`` finished first): the target is left alone and the run goes to
  ``<target>-<run id>``, with a warning. Neither run is lost or mixed into the other.
"""

from __future__ import annotations

import os
import shutil
import tempfile
from pathlib import Path

from ..engine.rundir import recorded_run_id

__all__ = ["absolute", "publish", "staging_for"]


def absolute(path: Path | None) -> Path | None:
    """``path`` made absolute now (before an in-process agent can change the working directory)."""
    return None if path is None else Path(os.path.abspath(path))


def staging_for(target: Path) -> Path:
    """A new private directory beside ``target`` to write the run into."""
    target.parent.mkdir(parents=True, exist_ok=True)
    return Path(tempfile.mkdtemp(prefix=f".{target.name}.staging-", dir=target.parent))


def publish(
    staging: Path, target: Path, run_id: str, found: str | None = None
) -> tuple[Path, str | None]:
    """Move the written run from ``staging`` to ``target``; (where it went, a warning or None).
    ``found`` is the run id ``target`` held when it was checked before the run (None: none)."""
    os.chmod(
        staging, 0o755
    )  # mkdtemp's 0700 was for the writing; a run directory is shared as usual
    # the same run id implies target/run.json is a file, so target is a run directory
    if found is not None and not target.is_symlink() and recorded_run_id(target) == found:
        old = Path(tempfile.mkdtemp(prefix=f".{target.name}.replaced-", dir=target.parent))
        os.rename(target, old / "run")
        os.rename(staging, target)
        shutil.rmtree(old, ignore_errors=True)
        return target, None
    try:
        os.rename(
            staging, target
        )  # atomic; onto an empty directory too, never onto a non-empty one
        return target, None
    except OSError:
        pass
    fallback = target.with_name(f"{target.name}-{run_id}")
    os.rename(staging, fallback)
    return fallback, (
        f"{target} changed during the run (something other than this run wrote there); "
        f"the run was written to {fallback} instead"
    )
