"""The value an instruction asks a configuration key to hold (behaviors rule 84, issue 27
round 8): "Set LOG_LEVEL to debug", "LOG_LEVEL=warn", "LOG_LEVEL: warn", "Enable DARK_LAUNCH".

Not an evaluator module (the leading ``_`` keeps the registry loader away). Read from the
instruction's own words, the way rule 73 reads the key.
"""

from __future__ import annotations

import re

from ._cue import Cue

#: boolean spellings an "enable" / "disable" instruction accepts
TRUE = frozenset({"true", "on", "yes", "1", "enabled"})
FALSE = frozenset({"false", "off", "no", "0", "disabled"})
_SWITCH = Cue(r"\b(enable|disable|turn\s+on|turn\s+off)\s+(?:the\s+)?$", re.IGNORECASE)


def asked_values(text: str, key: str) -> frozenset[str] | None:
    """The values (lower case) that carry out ``text`` for ``key``, or None when the text
    asks no value of it."""
    k = re.escape(key)
    m = re.search(
        rf"\b{k}\b\s*(?:=|:|\bto\b|\bas\b)\s*[\"'`]?([\w.:/-]+?)[\"'`]?(?=[\s,;)]|[.!?]?$|[.!?]\s)",
        text,
    )
    if m:
        return frozenset({m.group(1).lower()})
    before = text[: m2.start()] if (m2 := re.search(rf"\b{k}\b", text)) else ""
    switch = _SWITCH.search(before)
    if switch:
        verb = switch.group(1).lower()
        return TRUE if verb == "enable" or verb.endswith(" on") else FALSE
    return None


def sets_asked(written: object, asked: frozenset[str] | None) -> bool:
    """A value written carries out the instruction: any value when none is asked."""
    if asked is None:
        return True
    return str(written).strip().strip("\"'").lower() in asked
