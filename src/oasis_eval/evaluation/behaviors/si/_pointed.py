"""The readings a sentence points to (behaviors rule 1013; issue 27 item 6, heldout38's
blameless postmortem). Not an evaluator module (the leading ``_`` keeps the registry loader
away).

A postmortem's summary says what it concluded and points to where the numbers are: "Confidence
is low, so no speculative change was made; the issue was escalated with the readings below.",
the readings listed under the next heading ("## Impact": "- error_rate 2.0%", "- latency_p99
800 (normal 400)", ...). Rule 771 reads a list right under a label ending in a colon; here the
sentence names the list by where it is ("below", "above"), so the list it points to is its
neighbour: the first run of list items after it (before it, for "above"), found within a few
lines, two to :data:`ITEMS` items.
"""

from __future__ import annotations

import re

from ...reading import per_judgement

#: a pointer to readings given elsewhere: "the readings below", "the evidence listed above"
POINTER = re.compile(
    r"\b(?:readings?|findings?|evidence|figures|numbers|signals|observations|data points)\s+"
    r"(?:(?:listed|given|shown|recorded|quoted|summari[sz]ed)\s+)?(?P<where>below|above)\b",
    re.IGNORECASE,
)
#: a list item line ("- x", "* x", "1. x")
_ITEM = re.compile(r"^\s*(?:[-*+\u2022]|\d+[.)])\s+\S")
#: the items read, at most (a list of findings, not a dump: rule 377), and how far away the
#: list may start (a heading and a blank line or two between)
ITEMS = 12
_REACH = 6


def _squash(text: str) -> str:
    return " ".join(text.split()).lower()


@per_judgement
def pointed_items(source: str, sentence: str) -> tuple[str, ...]:
    """The list items ``sentence`` (holding :data:`POINTER`) points to in the answer
    ``source``: the first run of items starting within :data:`_REACH` lines after the
    sentence's line ("below"), or the last run ending within them before it ("above")."""
    m = POINTER.search(sentence)
    if not m:
        return ()
    lines = source.splitlines()
    key = _squash(sentence)[:60]
    at = next((i for i, ln in enumerate(lines) if key and key in _squash(ln)), None)
    if at is None:
        return ()
    below = m["where"].lower() == "below"
    step = 1 if below else -1
    i, reach = at + step, 0
    while 0 <= i < len(lines) and reach < _REACH and not _ITEM.match(lines[i]):
        i, reach = i + step, reach + 1
    items: list[str] = []
    while 0 <= i < len(lines) and _ITEM.match(lines[i]) and len(items) < ITEMS:
        items.append(lines[i].strip())
        i += step
    return tuple(items if below else reversed(items)) if len(items) >= 2 else ()
