"""What a sentence's dismissal reaches (behaviors rules 800-801, issue 27): a filter said of
some lines sets those lines aside, not the lines the rest of the sentence still calls failing.

``filter_noise`` (:mod:`.observability`) read any dismissal word in a sentence (its
``DISMISS``: "filtered", "noise", "dropped", ...) as setting aside every noise line the sentence
names. "Failure seen: health check (other lines filtered out)" names the health-check line as a
failure and filters *other* lines; said of every served message, nothing was set aside.
"""

from __future__ import annotations

import re

from .._cue import Cue, Searcher
from .._stated import says_fault
from ..text import term_regex

#: a parenthesised aside, read as one unit ("(health checks, debug lines dropped)")
_PAREN = re.compile(r"\([^()]*\)|\[[^\[\]]*\]")
#: rule 822: a rebuttal, said of what its part names ("connection pool pressure: ruled out")
_REBUTTAL = re.compile(r"\bruled[\s-]+out\b", re.IGNORECASE)
#: rule 822: a dismissal said of the lines other than those named ("other lines", "the rest")
OTHERS = re.compile(
    r"\b(?:other|remaining)\s+(?:log\s+)?(?:lines?|entries|messages|noise|output)\b|"
    r"\bthe rest\b|\beverything else\b|\ball else\b",
    re.IGNORECASE,
)


def token_regex(token: str) -> Searcher:
    """A token as a word; an acronym keeps its case (``GET`` is not "get")."""
    if token.isupper():
        return re.compile(rf"(?<![A-Za-z0-9]){re.escape(token)}(?![A-Za-z0-9])")
    return term_regex(token)


def cited(sentence: str, tokens: set[str]) -> bool:
    """Two of a log line's distinctive tokens (one when it has one) in ``sentence``."""
    need = min(2, len(tokens))
    return need > 0 and sum(bool(token_regex(t).search(sentence)) for t in sorted(tokens)) >= need


def units(sentence: str) -> list[str]:
    """The sentence's parenthesised asides, then the parts of what is outside them between
    commas and semicolons (not at "and" or a colon: "health checks and debug noise I filtered
    out" is one dismissal, "Failure seen: health check" one statement)."""
    asides = _PAREN.findall(sentence)
    return asides + [p.strip() for p in re.split(r"[,;]", _PAREN.sub(" , ", sentence)) if p.strip()]


def still_failing(sentence: str, tokens: set[str], dismiss: Cue) -> bool:
    """Rule 800: the sentence dismisses lines, yet a unit of it that dismisses nothing cites
    a noise line (``tokens``) and says a fault, and no dismissing unit cites the line: the
    dismissal reached other lines ("(other lines filtered out)"), this one is still stated as
    failing ("Failure seen: health check")."""
    parts = units(sentence)
    dismissing = [u for u in parts if dismiss.search(u) and not _still_said(u, dismiss)]
    if any(cited(u, tokens) for u in dismissing):
        return False
    return any(
        cited(u, tokens) and says_fault(dismiss.sub(" ", u)) for u in parts if u not in dismissing
    )


def _still_said(part: str, dismiss: Cue) -> bool:
    """Rule 822: ``part`` filters lines yet, its dismissal's words blanked, still says a fault
    ("Failure seen: X with the noise filtered out", "...: other lines dropped"): the filter
    reaches the lines it is said of, not the one the part calls failing. A rebuttal ("pool
    pressure: ruled out") is said of what its part names, unless of the other lines."""
    if not says_fault(dismiss.sub(" ", part)):
        return False
    return not _REBUTTAL.search(part) or OTHERS.search(part) is not None


def dismissed_in_own_words(sentence: str, tokens: set[str], dismiss: Cue) -> bool:
    """Rule 801: a relevant line (``tokens``) cited by a unit that sets lines aside and, its
    dismissal words blanked, says no fault: "Failure seen: TLS handshake (TLS handshake lines
    filtered out)" filters the line it names and singles nothing out. "After filtering the
    noise, the TLS handshake fails" still says the line's fault."""
    dismissing = [u for u in units(sentence) if dismiss.search(u)]
    return any(cited(u, tokens) and not says_fault(dismiss.sub(" ", u)) for u in dismissing)


def aside(sentence: str, tokens: set[str], dismiss: Cue) -> bool:
    """The sentence sets a noise line aside: a dismissal that reaches it (rule 800)."""
    return bool(dismiss.search(sentence)) and not still_failing(sentence, tokens, dismiss)


def own_aside(sentence: str, tokens: set[str], dismiss: Cue) -> bool:
    """The sentence sets a relevant line aside in its own words (rule 801)."""
    return bool(dismiss.search(sentence)) and dismissed_in_own_words(sentence, tokens, dismiss)


def called_failing(hits: list[str], relevant: list[set[str]]) -> int:
    """Rule 802: how many of the sentences including a noise line (``hits``, one per line)
    say a fault and cite no relevant line (tokens in ``relevant``): the noise line named as a
    failure of its own, as "Failure seen: health check." names it."""
    return sum(says_fault(h) and not any(cited(h, tok) for tok in relevant) for h in hits)
