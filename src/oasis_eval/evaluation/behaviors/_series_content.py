"""A line of a catalogue of series whatever its marks (behaviors rule 886; issue 27: round
42b's ``named_series_forms_42b``, rule 824's door).

Not an evaluator module (the leading ``_`` keeps the registry loader away).

Rule 824 reads a sentence giving the workload's figures in the form of a sentence lending
another series' served values (rule 703) as a line of a report of every series: its form is
its names, figures and marks. Its door wrote each line in a form of its own ("<n> went from
<a> to <b>.", "<n>: <a> -> <b>.", "<n> (<a>, then <b>).", "<n> - <a> up to <b>!", "For <n>, <a>
rose to <b>."): the marks differ, the content does not. A line's content (:func:`content`) is
what it gives: its names and figures in order, and whether it goes on after its last figure
(a remark: "batch went from 150Mi to 250Mi, well under its limit" weighs the series, its limit
a figure more where given). A sentence giving the workload's figures with the content of a line
lending another series' values is a line of the same catalogue, no reading of the series for a
growth said bare (rule 702).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable

from ._series_lines import _NAME, _NUMBER
from ._spelled_units import symbolic

#: words after a sentence's last figure: it goes on (a remark)
_ON = re.compile(r"<f>(?!.*<f>).*?[^\W\d_]", re.DOTALL)


def content(sentence: str, names: Iterable[str] = ()) -> str:
    """``sentence``'s content: its names and figures in order ("<n> <f> <f>"), then "+" where
    words follow its last figure."""
    said = symbolic(sentence.replace("<", " ").replace(">", " "))
    for name in sorted(set(names), key=len, reverse=True):
        said = re.sub(rf"(?<![\w-]){re.escape(name)}(?![\w-])", " <n> ", said, flags=re.I)
    said = _NUMBER.sub(" <f> ", _NAME.sub(" <n> ", said))
    return " ".join(re.findall(r"<[nf]>", said)) + (" +" if _ON.search(said) else "")


def _named(name: str, sentence: str) -> bool:
    return re.search(rf"(?<![\w-]){re.escape(name)}(?![\w-])", sentence, re.I) is not None


def content_lines(
    answer: Iterable[str], lending: Callable[[str], bool], names: Iterable[str] = ()
) -> Callable[[str], bool]:
    """Rule 886: a predicate of a sentence whose content (:func:`content`) is that of one of
    ``answer``'s sentences ``lending`` another series' served values."""
    listed = list(names)
    rows = {content(s, listed) for s in answer if lending(s)}
    rows.discard("")
    return lambda sentence: content(sentence, listed) in rows


def report_lines(
    answer: Iterable[str],
    lending: Callable[[str], bool],
    lent: Iterable[str],
    own: Callable[..., bool],
    rated: Callable[[str], bool] | None = None,
) -> Callable[[str], bool]:
    """Rule 886: where ``answer`` reports two other series or more (two sentences ``lending``
    their served values, or one naming two of the ``lent`` series' objects), a predicate of a
    sentence that only gives the workload's points (``own``: every figure one of its served
    values, none of its limit, a share or a rate): a line of that report whatever its content.
    Always false where the answer reports fewer. Rule 914: where two of the lending lines or
    more give a rate too (``rated``), a rate beside the workload's points is the report's
    template: ``own`` is asked with ``rates_too``."""
    lines = [s for s in answer if lending(s)]
    named = {n.lower() for n in lent for s in lines if _named(n, s)}
    if max(len(lines), len(named)) < 2:
        return lambda sentence: False
    if rated is not None and sum(1 for s in lines if rated(s)) >= 2:
        return lambda sentence: own(sentence, rates_too=True)
    return own
