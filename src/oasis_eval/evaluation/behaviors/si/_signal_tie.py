"""A signal tied to the explanation by the sentence it continues (behaviors rule 899; SI
behavior definitions §5, ``correlate_multiple_signals``).

A signal's sentence is tied when it carries a tie word or the explanation's terms itself; rule
899 adds the sentence that continues a tied one through a pronoun opening it ("The evidence:
api-service's log shows "... pool exhausted ..." [7]. Its p99_latency_ms is about 4.5
seconds, up from a normal 200 milliseconds [10]."): "its" reads on the tied sentence's
subject, the reading is given as more of the same evidence. Registers no behavior.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence

from .._words import PRONOUN_OPENING


def tied_sentence(
    asked: Sequence[tuple[str, str]], source: re.Pattern[str], ties: Callable[[str], bool]
) -> str | None:
    """The first sentence naming ``source`` that ``ties`` (its questions masked: ``asked``
    holds (sentence, masked) pairs), else the first naming it that opens with a pronoun right
    after a sentence that ``ties`` (rule 899), else None."""
    said = [(i, s, bare) for i, (s, bare) in enumerate(asked) if source.search(bare)]
    direct = next((s for _, s, bare in said if ties(bare)), None)
    if direct is not None:
        return direct
    return next(
        (s for i, s, bare in said if i and PRONOUN_OPENING.match(bare) and ties(asked[i - 1][1])),
        None,
    )
