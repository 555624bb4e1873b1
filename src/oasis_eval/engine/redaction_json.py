"""Does a provider's JSON text hold any redaction form? (issue 30; 08 §3.2)

The parts form of the capture (:mod:`oasis_eval.adapters.providers.http_parts`) hands the
runner each observation's ``data`` as the provider's own JSON text. When the redactor's
prefilter finds no form in it, nothing in the parsed data would be redacted, and evidence
stores the text as it came (:func:`oasis_eval.evaluation.stored_evidence.stored_json`).

The prefilter (:mod:`.redaction_search`) searches UTF-8 bytes in which every string stands
whole. In JSON text a string stands whole unless it holds an escape, so:

- no backslash: every string's UTF-8 bytes stand as they are (the bytes between strings
  can only add a hit: a hit means doubt, never a leak);
- backslashes, but no ``\\u`` and no ``\\/``: the only escapes are ``\\"``, ``\\\\``,
  ``\\b``, ``\\f``, ``\\n``, ``\\r`` and ``\\t``, each read back to its one ASCII byte
  before the search (``unicode_escape`` over the bytes, other bytes kept as they are);
- a ``\\u`` escape (an ASCII-only writer's non-ASCII letters, any letter a hostile writer
  spells that way) or ``\\/``: doubt.

Doubt, like a hit, means the caller takes the parse -> redact -> dump path for that part.
"""

from __future__ import annotations

from typing import Any

__all__ = ["json_clean"]

#: a redactor (:class:`.redaction.Redactor`; not imported: it would import this module's users)
Redactor = Any


def json_clean(redactor: Redactor, text: bytes) -> bool:
    """Whether ``text`` (one JSON text) surely holds no form ``redactor`` would replace."""
    if not redactor._ready():  # nothing registered: nothing is ever replaced
        return True
    search = redactor._search_bytes
    if search is None:  # a form without a UTF-8 encoding: the strings are searched one by one
        return False
    if b"\\" in text:
        if b"\\u" in text or b"\\/" in text:
            return False
        try:
            text = text.decode("unicode_escape").encode("latin-1")
        except (UnicodeDecodeError, UnicodeEncodeError):
            return False
    return not search(text)
