"""The per-character escapes of encoded_forms.literal_forms, by table (issue 30), are the
forms their definitions give: every byte, every code point class (ASCII, two- and three-byte
UTF-8, astral), and past the tables' kept size."""

from __future__ import annotations

import pytest

from oasis_eval.engine.encoded_forms import PER_CHAR_KEPT, literal_forms

_SAMPLES = [
    "s3cr3t-Token_value+/=",
    "".join(map(chr, range(32, 127))),
    "pässwörd✓中文\u0100\u07ff\uffff",
    "key\U0001f600\U00010000end",
    "".join(map(chr, range(0x400, 0x400 + PER_CHAR_KEPT + 50))),  # more than a table keeps
]


def _reference(plain: str) -> dict[str, list[str]]:
    data = plain.encode("utf-8")
    return {
        "hex-escaped": ["".join(f"\\x{b:02x}" for b in data)],
        "percent": ["".join(f"%{b:02X}" for b in data), "".join(f"%{b:02x}" for b in data)],
        "unicode-escaped": ["".join(f"\\u{ord(c):04x}" if ord(c) < 0x10000 else c for c in plain)],
        "html-entities": [
            "".join(f"&#{ord(c)};" for c in plain),
            "".join(f"&#x{ord(c):x};" for c in plain),
        ],
    }


@pytest.mark.parametrize("plain", _SAMPLES)
def test_table_forms_are_the_defined_ones(plain: str) -> None:
    assert _reference(plain), "the reference defines no form: nothing would be compared"
    for _ in range(2):  # the second time from the tables' kept entries
        forms = literal_forms(plain)
        for name, expected in _reference(plain).items():
            assert [f for n, f in forms if n == name and f in expected] == expected, name
            assert [f for n, f in forms if n == name] == expected, name


def test_every_byte_escapes_as_defined() -> None:
    data = bytes(range(256)).decode("latin-1")
    forms = dict(reversed(literal_forms(data)))  # the first form of each name
    raw = data.encode("utf-8")
    assert forms["hex-escaped"] == "".join(f"\\x{b:02x}" for b in raw)
    assert forms["percent"] == "".join(f"%{b:02X}" for b in raw)
