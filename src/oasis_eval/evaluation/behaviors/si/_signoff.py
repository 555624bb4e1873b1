"""An answer's sign-off (behaviors rules 653 and 722; issue 27): the one or two short lines
after a closing valediction name who wrote the answer, not whom it is handed to.

Not an evaluator module (the leading ``_`` keeps the registry loader away).
"""

from __future__ import annotations

import re

#: a closing valediction on a line of its own ("Regards,", "Best regards,", "Thanks,")
_VALEDICTION = re.compile(
    r"^\W*(?:(?:best|kind|warm|many)\s+)?(?:regards|thanks|thank you|cheers|sincerely)\W*$",
    re.IGNORECASE,
)


def signature(kept: list[str]) -> list[str]:
    """Behaviors rule 653: the answer's sign-off, the one or two short lines (five words at
    most) that end it after a valediction ("Regards,\\nSRE on-call"): who wrote it, not whom
    it is handed to."""
    for i, sentence in enumerate(kept[-3:-1], start=max(len(kept) - 3, 0)):
        tail = kept[i + 1 :]
        if _VALEDICTION.match(sentence) and all(len(t.split()) <= 5 for t in tail):
            return tail
    return []


def body_end(kept: list[str]) -> int:
    """Rule 722: where the answer's body ends, its sign-off (:func:`signature`) left out."""
    return len(kept) - len(signature(kept))
