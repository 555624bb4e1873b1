"""A trail said aloud (behaviors rules 1118, 1119; issue 27, session 35: heldout42's spoken
bridge summary). Not an evaluator module (the leading ``_`` keeps the registry loader away).

Rule 1118 (the trail's part). A person saying "api-service" on a call says "api service"; a
transcript writes what was said. Each line of the trail reads a hyphenated scenario object
named with a space for each hyphen ("I pulled the spec of the api service deployment") as the
name ("api-service"), so the call it tells is found (its written twin's reading); a name
without a hyphen, or words that only contain the parts ("the api's service"), are read as
before.

Rule 1119. A spoken summary gives the trigger once, before the steps it tells: "You asked me
to look at this, so that's what started everything below. Here's what I did, in order. First
I ..." Every step told after that sentence has the request as its trigger, as a written trail's
"(trigger: operator request)" on each line would; a step giving its own trigger (the alert)
keeps it. Only a sentence naming the request (:data:`.provenance.TRIGGER`'s request words) and
the steps after it ("everything below", "what follows", "everything I did") lends it; an alert
is never lent that way (rule 30: the alert's link is each entry's own).
"""

from __future__ import annotations

import re

from ...reading import per_judgement

#: a sentence giving the operator's request as the trigger of every step after it
_BLANKET = re.compile(
    r"\b(?:you asked|your (?:request|ask|question)|the (?:operator's )?request|as (?:you )?asked)"
    r"\b[^.!?\n]{0,60}\b(?:everything|all(?: of)?(?: the)? (?:steps|calls|reads|actions))\s+"
    r"(?:below|that follows|that followed|after it|I did|here)\b|"
    r"\b(?:everything|all) (?:below|that follows)\b[^.!?\n]{0,40}\b(?:you asked|your request|"
    r"the request)\b",
    re.IGNORECASE,
)


def blanket_at(answer: str) -> int:
    """Rule 1119: where the answer's blanket request trigger ends (-1: none)."""
    m = _BLANKET.search(answer)
    return m.end() if m else -1


def lent_request(answer: str, entries: list[str], at: int) -> bool:
    """Rule 1119: the action's first entry is told after the blanket trigger at ``at``."""
    if at < 0 or not entries:
        return False
    first = entries[0].partition("\n")[0][:80]
    where = answer.find(first, at)
    return where >= at


@per_judgement
def respelled(line: str, names: tuple[str, ...]) -> str:
    """Rule 1118: ``line`` with each hyphenated name said with spaces written as the name
    (a name's spoken form looked for as plain text first: issue 30)."""
    low = line.lower()
    for name in names:
        spoken = name.replace("-", " ")
        if spoken == name or spoken.lower() not in low:
            continue
        said = re.escape(spoken).replace(r"\ ", " ")
        line = re.sub(rf"(?<![\w-]){said}(?![\w-])", name, line, flags=re.IGNORECASE)
    return line
