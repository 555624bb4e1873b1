"""encoded_forms.literal_forms encodes a value's base32 once (issue 30, session 34): its
base32 cores and its whole base32 form are the ones encoding each offset gives."""

from __future__ import annotations

import base64
import random

from oasis_eval.engine.encoded_forms import _cores, literal_forms


def _b32_reference(data: bytes) -> list[str]:
    """The cores as the code before session 34 computed them: every offset encoded."""
    out = []
    for k in range(5):
        text = base64.b32encode(b"\0" * k + data).decode("ascii").rstrip("=")
        out.append(text[-(-8 * k // 5) : (8 * (k + len(data))) // 5])
    return out


def test_base32_cores_and_whole_form_are_each_offsets_encoding() -> None:
    rng = random.Random(34)
    alphabet = "abcXYZ019-_+/=.äö✓\U0001f600 "
    samples = ["s3cr3t-Token_value+/=", "é", "ab", "x" * 1200]
    samples += [
        "".join(rng.choice(alphabet) for _ in range(rng.randrange(1, 90))) for _ in range(400)
    ]
    assert len(samples) == 404
    for plain in samples:
        data = plain.encode("utf-8")
        assert _cores(data, 5, 5, base64.b32encode) == _b32_reference(data)
        forms = [f for name, f in literal_forms(plain) if name == "base32"]
        assert forms == [*_b32_reference(data), base64.b32encode(data).decode("ascii")], plain


def test_a_given_whole_encoding_is_the_first_core_only() -> None:
    data = b"token-value-0123456789"
    whole = base64.b32encode(data).decode("ascii")
    assert _cores(data, 5, 5, base64.b32encode, whole) == _cores(data, 5, 5, base64.b32encode)
    assert _cores(data, 3, 6, base64.b64encode, "") == _cores(data, 3, 6, base64.b64encode)
