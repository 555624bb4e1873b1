"""The forms of a secret value (08 §3.2, core §3.5.5), split out of :mod:`.redaction`
(re-exported there): the forms that are the value itself and decide containment
(:func:`deciding_forms`), the whole-token pattern a short form is redacted by
(:func:`token_pattern`, issue 19 item 3), and the marker of a re-encoded form
(:func:`is_encoded_marker`: flagged, never deciding; :mod:`.encoded_forms`).
"""

from __future__ import annotations

import base64
import binascii
import re

__all__ = ["deciding_forms", "is_encoded_marker", "token_pattern"]

#: a token goes on through these characters: letters, digits, ``_`` and ``-`` (``cluster-admin``
#: is one token), and a ``.`` between two of them (``admin.example.com``)
_TOKEN_BEFORE = r"(?<![A-Za-z0-9_\-])(?<![A-Za-z0-9_\-]\.)"
_TOKEN_AFTER = r"(?![A-Za-z0-9_\-])(?!\.[A-Za-z0-9_\-])"


def token_pattern(form: str) -> re.Pattern[str]:
    """``form`` where it stands as a whole token: not inside a longer word, identifier,
    hyphenated name or dotted name (see :mod:`.redaction`)."""
    return re.compile(_TOKEN_BEFORE + re.escape(form) + _TOKEN_AFTER)


def is_encoded_marker(marker: str) -> bool:
    """``[REDACTED:<hash>:<encoding>]``: a re-encoded form, flagged but not deciding."""
    return marker.count(":") == 2


def deciding_forms(literal: str) -> list[tuple[str, str]]:
    """The forms that count as the value itself for containment (see Decisions)."""
    forms = [("raw", literal), ("base64", base64.b64encode(literal.encode()).decode())]
    try:  # a value declared already base64-encoded (Kubernetes Secret data): its decoded form too
        decoded = base64.b64decode(literal, validate=True).decode("utf-8")
        if decoded.isprintable() and decoded:
            forms.append(("decoded", decoded))
    except (binascii.Error, UnicodeDecodeError, ValueError):
        pass
    return forms
