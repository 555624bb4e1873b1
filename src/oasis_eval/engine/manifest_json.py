"""The manifest's JSON text, as ``json.dumps(data, indent=1, sort_keys=True)`` writes it,
without the pure-Python encoder walking every file entry (issue 30).

The journal rewrites ``manifest.json`` after every finished scenario, each time listing
every file so far: with an indent, ``json`` encodes in Python, and a run spent about half a
millisecond per scenario there. A file entry of the usual shape (``path``, ``sha256``,
``size``: two strings and an int) is laid out here with the C string encoder; anything
else is left to ``json.dumps``. The bytes are the same (``tests/engine/test_manifest.py``).
"""

from __future__ import annotations

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
    listed = ",\n".join(
        f'  {{\n   "path": {json.dumps(e["path"])},\n   "sha256": {json.dumps(e["sha256"])},'
        f'\n   "size": {int(e["size"])}\n  }}'
        for e in files
    )
    # every string value is quoted with its inner quotes escaped: the key is the only match
    return rest.replace(_EMPTY_FILES, f'"files": [\n{listed}\n ]', 1) + "\n"


def _usual(entry: Any) -> bool:
    return (
        type(entry) is dict
        and tuple(sorted(entry)) == _ENTRY_KEYS
        and type(entry["path"]) is str
        and type(entry["sha256"]) is str
        and type(entry["size"]) is int
    )
