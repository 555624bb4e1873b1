"""Block-style YAML of JSON-like data through libyaml, byte-identical to PyYAML's emitter.

One layout: :data:`ARGS` (the verdict's, 05 §1: block style, the data's key order, UTF-8
text, no folding).

``yaml.safe_dump`` runs PyYAML's pure-Python serializer and emitter, whose per-character
scalar analysis was most of writing a run's ``verdict.yaml`` (6.6 ms of CPU a run, issue 30;
replay writes it again). libyaml's emitter (``yaml.CSafeDumper``: the same Python
representer, a C serializer and emitter) lays a document out the same way except where the
two count or classify characters differently: folding at ``width``, the simple-key length
limit, characters outside the Basic Multilingual Plane, non-printable characters. A document
holding any of those (a string longer than :data:`_C_MAX_STR` or not printable BMP text and
newlines, a key that is not a short one-line string) is written by PyYAML's own emitter, as
is everything when PyYAML lacks libyaml. ``tests/spec/test_yaml_dump.py`` compares the two
over crafted and seeded random documents.
"""

from __future__ import annotations

from typing import Any

import yaml
from yaml.representer import SafeRepresenter

#: ``yaml.safe_dump``'s arguments of this layout
ARGS: dict[str, Any] = {
    "sort_keys": False,
    "allow_unicode": True,
    "default_flow_style": False,
    "width": 100_000,
    "indent": 2,
}
#: over this, line folding at ``width`` could come into play, where libyaml and PyYAML
#: count differently (bytes vs characters)
_C_MAX_STR = 8_000
#: PyYAML writes a key of 128 characters or more as ``? key``, libyaml one of 128 bytes or more
_C_MAX_KEY = 100


class _NeedsPython(Exception):
    """A value libyaml might lay out otherwise than PyYAML's emitter: use the latter."""


def _c_safe(text: str) -> bool:
    """Printable text of the BMP and newlines, short of the folding width: the strings
    libyaml is shown to emit as PyYAML does."""
    if len(text) > _C_MAX_STR:
        return False
    if text.isprintable():
        return text.isascii() or max(text) <= "\uffff"
    bare = text.replace("\n", "")
    return bare.isprintable() and (bare.isascii() or max(bare) <= "\uffff")


def _c_str(dumper: SafeRepresenter, data: str) -> yaml.ScalarNode:
    if not _c_safe(data):
        raise _NeedsPython
    return dumper.represent_str(data)


def _c_dict(dumper: SafeRepresenter, data: dict[Any, Any]) -> yaml.MappingNode:
    for key in data:
        if type(key) is not str or not key or "\n" in key or len(key.encode()) >= _C_MAX_KEY:
            raise _NeedsPython
    return dumper.represent_dict(data)


_CDumper: type[Any] | None = None
if getattr(yaml, "CSafeDumper", None) is not None:  # pragma: no branch - libyaml present

    class _CDumperImpl(yaml.CSafeDumper):
        pass

    _CDumperImpl.add_representer(str, _c_str)
    _CDumperImpl.add_representer(dict, _c_dict)
    _CDumper = _CDumperImpl


def safe_dump_python(data: Any) -> str:
    """``yaml.safe_dump(data, **ARGS)``: PyYAML's own emitter (the reference layout)."""
    text: str = yaml.safe_dump(data, **ARGS)
    return text


def safe_dump(data: Any) -> str:
    """The text ``yaml.safe_dump(data, **ARGS)`` writes, through libyaml when the document
    holds nothing it could lay out otherwise (the module docstring)."""
    if _CDumper is not None:
        try:
            text: str = yaml.dump(data, Dumper=_CDumper, **ARGS)
            return text
        except _NeedsPython:
            pass
    return safe_dump_python(data)
