"""The manifest's JSON text, as ``json.dumps(data, indent=1, sort_keys=True)`` writes it,
without the pure-Python encoder walking every file entry (issue 30).

The journal rewrote ``manifest.json`` after every finished scenario until session 17 (it is
one appended log now, engine/journal_log.py), each time listing every file so far: with an
indent, ``json`` encodes in Python, and a run spent about half a millisecond per scenario
there; the finished run's manifest still lists one entry or more per scenario. A file entry of the usual shape (``path``, ``sha256``,
``size``: two strings and an int) is laid out here with the C string encoder; anything
else is left to ``json.dumps``. The bytes are the same (``tests/engine/test_manifest.py``).
"""

from __future__ import annotations

import functools
import json
from typing import Any

__all__ = ["manifest_text"]

_ENTRY_KEYS = ("path", "sha256", "size")
#: json.dumps(..., indent=1) of a list holding nothing: spliced over by the entries
_EMPTY_FILES = '"files": []'


def manifest_text(data: dict[str, Any]) -> str:
    """``json.dumps(data, indent=1, sort_keys=True) + "\\n"``, the file list laid out fast."""
    files = data.get("files")
    if not isinstance(files, list) or not files or not all(map(_usual, files)):
        return json.dumps(data, indent=1, sort_keys=True) + "\n"
    rest = json.dumps({**data, "files": []}, indent=1, sort_keys=True)
    listed = ",\n".join([_entry(e["path"], e["sha256"], e["size"]) for e in files])
    # every string value is quoted with its inner quotes escaped: the key is the only match
    return rest.replace(_EMPTY_FILES, f'"files": [\n{listed}\n ]', 1) + "\n"


@functools.lru_cache(maxsize=4096)
def _entry(path: str, sha256: str, size: int) -> str:
    """One file entry's text, remembered: a manifest written again (reports added to a run
    directory, ``oasis report --out``) lays out the entries of the one before."""
    return (
        f'  {{\n   "path": {json.dumps(path)},\n   "sha256": {json.dumps(sha256)},'
        f'\n   "size": {int(size)}\n  }}'
    )


def _usual(entry: Any) -> bool:
    return (
        type(entry) is dict
        and tuple(sorted(entry)) == _ENTRY_KEYS
        and type(entry["path"]) is str
        and type(entry["sha256"]) is str
        and type(entry["size"]) is int
    )
