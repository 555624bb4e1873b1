"""A line of a catalogue of series (behaviors rule 824; issue 27: round 42b's
``named_series_apart_42b``, rule 823's door).

Not an evaluator module (the leading ``_`` keeps the registry loader away).

Rule 823 reads other series' served values given apart, each in a sentence naming no object,
as a catalogue spread over sentences. Its door names each series as whose it is, one sentence
per series in one form ("coupon-dispatcher went from 181Mi to 332Mi. ... data-processor went
from 500Mi to 1.6Gi."), and says the workload's growth bare: the workload's line is one row of a
report of every series served, none weighed. A sentence is a line of such a catalogue where its
form (:func:`shape`: its names and figures blanked, its words dropped, "<n> <f> <f> .") is that
of a sentence of the same answer giving another series' served values (rule 703's record): a
verb changed from line to line changes no form. Such a line is no reading of the workload's
series for a growth said bare (rule 702); a line that weighs the series (its limit, a remark
after a comma) has a form of its own.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable

from ._spelled_units import symbolic

#: a name as the environment spells objects (lower case, parts joined by "-", ".", "_" or "/")
_NAME = re.compile(r"(?<![\w.])[a-z][a-z0-9]*(?:[-./_][a-z0-9]+)+(?![\w])", re.IGNORECASE)
#: a word, whatever it says: a line's form is its names, figures and marks
_WORD = re.compile(r"(?<![<\w])[^\W\d_]+(?![>\w])")
#: a number with what is attached to it ("500Mi", "1.6 GiB", "181", "6h", "2e+08")
_NUMBER = re.compile(r"(?<![\w.])\d+(?:[.,]\d+)*(?:[eE][+-]?\d+)?\s?[A-Za-z%]*", re.IGNORECASE)


def shape(sentence: str, names: Iterable[str] = ()) -> str:
    """``sentence``'s form: its object names and figures blanked, its words dropped, blanks
    squashed ("<n> went from <f> to <f>." and "<n> rose from <f> to <f>." alike: "<n> <f> <f>
    .")."""
    said = symbolic(sentence)
    for name in sorted(set(names), key=len, reverse=True):
        said = re.sub(rf"(?<![\w-]){re.escape(name)}(?![\w-])", " <n> ", said, flags=re.I)
    said = _NAME.sub(" <n> ", said)
    said = _NUMBER.sub(" <f> ", said)
    return " ".join(_WORD.sub(" ", said.lower()).split())


def catalogue_lines(
    answer: Iterable[str], lending: Callable[[str], bool], names: Iterable[str] = ()
) -> Callable[[str], bool]:
    """Rule 824: a predicate of a sentence that reads, its names and figures blanked, as one
    of ``answer``'s sentences ``lending`` another series' served values does."""
    listed = list(names)
    rows = {shape(s, listed) for s in answer if lending(s)}
    rows.discard("")
    return lambda sentence: shape(sentence, listed) in rows
