"""A menu of causes states none of them (behaviors rule 994; issue 27 item 1: a list earns
credit only as far as it discriminates).

Not an evaluator module (the leading ``_`` keeps the registry loader away).

Rules 610, 868, 900, 920-922 and 951-952 read a menu by its syntax: a question mark, an
inverted order with or without its comma, a clause opening with "or" or "alternatively". Each
left the next syntax open: "Were <c1> or <c2> ... the problem, then." then "Yes."
(``were_comma_menu``, DA 0.35), "... is that it? Otherwise <c2> or ..., so there is <c>."
(``otherwise_each``, DA 0.25). What a person reads is the same in each: two or more causes of
different fault classes (:func:`._claims.fault_classes`, the profile's own vocabulary) offered
as alternatives joined by "or". Whatever opens it, such a clause commits to none of them, and
nor does the conclusion drawn right after it ("..., so there is <c>": drawn from options), nor
a bare "Yes." affirming it (it affirms a menu). One cause with two explanations of one class
("its memory limit is too low or its memory leaks") is no menu; nor is "or" beside one cause.
"""

from __future__ import annotations

import re

from ..reading import per_judgement
from ._claims import fault_classes
from ._words import _CLAUSE

#: the word offering an alternative between two options
_OR = re.compile(r"\s(?:or(?:\s+else)?|and/or)\s", re.IGNORECASE)
#: a conclusion drawn right after a menu (rule 887's ``_SO``)
_SO = re.compile(r"\s*(?:so|therefore|thus|hence|which means|meaning)\b", re.IGNORECASE)


def is_menu(clause: str) -> bool:
    """``clause`` offers two causes or more of different fault classes as alternatives: two of
    its parts between "or"s name classes neither of which the other names."""
    if " or " not in clause.lower():
        return False
    # the distinct class sets only: a catalogue of thousands of options names a few (issue 30)
    named = list(dict.fromkeys(c for p in _OR.split(clause) if (c := frozenset(fault_classes(p)))))
    return any(not (a & b) for i, a in enumerate(named) for b in named[i + 1 :])


#: a clause going on with the options of the one before it (", or Y", "; or else Y")
_GOES_ON = re.compile(r"(?:or|and/or)\b", re.IGNORECASE)


@per_judgement
def mask_menus(sentence: str) -> str:
    """``sentence`` with each clause (:func:`._words.clauses`' cuts; one opening with "or"
    goes on with the one before it: "X, or Y, or Z") that is a menu (:func:`is_menu`)
    blanked, and the conclusion drawn right after one, spaces for characters (positions
    hold)."""
    if " or " not in sentence.lower():
        return sentence
    spans: list[tuple[int, int]] = []
    start = 0
    for m in [*_CLAUSE.finditer(sentence), None]:
        end = len(sentence) if m is None else m.start()
        if spans and _GOES_ON.match(sentence, start):
            spans[-1] = (spans[-1][0], end)
        else:
            spans.append((start, end))
        if m is not None:
            start = m.end()
    out, menu = list(sentence), False
    for a, b in spans:
        menu = is_menu(sentence[a:b]) or (menu and bool(_SO.match(sentence, a)))
        if menu:
            out[a:b] = " " * (b - a)
    return "".join(out)
