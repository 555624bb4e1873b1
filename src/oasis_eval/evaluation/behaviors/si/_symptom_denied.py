"""A symptom tells something only as what the signal does not do (behaviors rule 1185; issue
27, session 37 door53b). Not an evaluator module (the leading ``_`` keeps the registry loader
away).

Rule 1164 lets rule 281's next sentence lend the discard its cue where, the signal's terms
blanked, it still names the symptom the scenario declares (rule 733's stems). Door52's
``symptom_picture_contrast`` put "Node CPU is not the whole picture of the restarts." after
each discard: the symptom named as a noun at the end of a phrase the "not" never reaches, the
sentence saying nothing of what the CPU does (da.misleading-signal 1.0, DA 0.25). Rule 281's
own reasons set the signal against the symptom as what it does not do ("it does not kill
them", "it never restarts pods"): rule 733's form, a negation within two words of the
symptom's word, that word no noun ("not the restarts", "not restarts' story", "is not
restarts"; "is not killing them" is a verb); rule 733's
own reading of a discard's reason is read so too (:func:`._discard.negates_symptom`).
"""

from __future__ import annotations

import re

#: rule 733: a negation, then up to two words, then the symptom ("doesn't kill", "cannot
#: restart them")
_NEGATED = r"(?:\bnot|\bnever|\bcannot|\bnor|n't)\s+(?:\w+\s+){{0,2}}?(?:{stems})\w*\b"
#: a word that makes the symptom's word after it a noun ("the restarts", "their kills")
_DETERMINER = frozenset(
    {"the", "a", "an", "its", "their", "these", "those", "this", "that", "any", "all", "of"}
)
#: a possessive mark after the symptom's word ("restarts' picture", "restart's cost")
_POSSESSIVE = re.compile("['\u2019]")
#: a copula and its negation right before the symptom's word: a predicate noun unless the word
#: is a participle ("is not restarts" against "is not killing them")
_COPULA = re.compile(
    r"\b(?:is|are|was|were|be|been)\s+(?:not|never)\s*$|\b(?:is|are|was|were)n't\s*$",
    re.IGNORECASE,
)


def symptom_denied(rest: str, stems: list[str]) -> bool:
    """Rule 1185: ``rest`` (rule 1164's next sentence, the signal blanked) sets the signal
    against a symptom of ``stems`` as rule 733 reads a discard's reason: a negation, up to two
    words, the symptom's word, no noun: no determiner right before it, no possessive mark
    after it, no copula and its negation right before it unless it is a participle."""
    if not stems:
        return False
    alt = "|".join(re.escape(s) for s in stems)
    for m in re.finditer(_NEGATED.format(stems=alt), rest, re.IGNORECASE):
        words = m.group().split()
        if words[-2].lower().rstrip("'\u2019") in _DETERMINER or _POSSESSIVE.match(rest, m.end()):
            continue  # a noun: "the restarts", "restarts' picture"
        verb = len(words) > 2 or words[-1].lower().endswith("ing")
        if verb or not _COPULA.search(rest, 0, m.end() - len(words[-1])):
            return True  # "is not restarts" is a predicate noun
    return False
