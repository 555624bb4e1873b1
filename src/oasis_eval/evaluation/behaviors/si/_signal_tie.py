"""A signal tied to the explanation by the sentence it continues (behaviors rule 899; SI
behavior definitions §5, ``correlate_multiple_signals``).

A signal's sentence is tied when it carries a tie word or the explanation's terms itself; rule
899 adds the sentence that continues a tied one through a pronoun opening it ("The evidence:
api-service's log shows "... pool exhausted ..." [7]. Its p99_latency_ms is about 4.5
seconds, up from a normal 200 milliseconds [10]."): "its" reads on the tied sentence's
subject, the reading is given as more of the same evidence. Rule 978 adds a list item under an
evidence label line of its own ("Evidence:") right after a paragraph with a tied sentence (a
pull-request description's "## Root cause": the cause said, then "Evidence:" and "- `p99_latency_ms`
4,500 ms vs ~200 ms baseline"): the label says each item is evidence for that paragraph's
explanation, as "its" does. Rule 983: only a list chosen as evidence; one holding an item
that shows nothing out of the ordinary (a series flat at one figure, "from 200 to 200
(flat)") is every reading dumped under the label, and ties none of its items. Registers no
behavior.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence

from ...reading import per_judgement
from .._cue import Searcher
from .._words import PRONOUN_OPENING, normalize, sentences

#: rule 978: a line that is only an evidence label ("Evidence:", "**Supporting evidence:**",
#: "Evidence for this:")
_EVIDENCE_LABEL = re.compile(
    r"[\W_]*(?:the\s+|supporting\s+|key\s+)?evidence(?:\s+for\s+(?:this|it|that))?[*_\s]*:[*_\s]*",
    re.IGNORECASE,
)
#: a list item (rule 266's); with a markdown heading, a paragraph's end upward
_ITEM = re.compile(r"\s*(?:[-*+\u2022]|\d+[.)])\s+")
_STOP = re.compile(r"\s*(?:#{1,6}\s|[-*+\u2022]\s|\d+[.)]\s)")
#: rule 983: an item showing nothing out of the ordinary: a word saying so, or the same figure
#: twice as a change or a comparison ("from 200 to 200", "0.02 vs normal 0.02")
_FLAT_WORD = re.compile(r"\b(?:flat|unchanged|no\s+change)\b", re.IGNORECASE)
_SAME_FIGURE = re.compile(
    r"(?<![\w.])(\d[\d.,e+-]*)\s*(?:[a-z%]{1,3}\s+)?(?:to|vs\.?|versus|against)\s+"
    r"(?:(?:a|an|the|its)\s+)?(?:(?:normal|baseline|usual)\s+(?:of\s+)?)?~?\1(?![\w.]*\d)",
    re.IGNORECASE,
)


def _flat(item: str) -> bool:
    """``item`` shows nothing out of the ordinary (rule 983)."""
    return bool(_FLAT_WORD.search(item) or _SAME_FIGURE.search(item))


def _paragraph_above(lines: list[str], i: int) -> list[str]:
    """The lines of the paragraph above line ``i`` (blank lines between skipped; it stops at
    a blank line, a heading, a list item or another label, none included: each line is above
    one label at most, so all labels are read in one pass's time)."""
    j = i - 1
    while j >= 0 and not lines[j].strip():
        j -= 1
    out: list[str] = []
    while j >= 0 and lines[j].strip() and not _STOP.match(lines[j]) and not _label(lines[j]):
        out.append(lines[j])
        j -= 1
    return out[::-1]


#: rule 1078: a line stating the cause under a cause label of its own ("Root cause: X.",
#: "Final Answer: Root cause: X", "**Probable cause:** X"): what follows it as a list is its
#: evidence, as under rule 978's "Evidence:" after the paragraph saying X
_CAUSE_HEAD = re.compile(
    r"[\W_]*(?:final\s+answer\s*:\s*)?[*_]*(?:(?:the\s+)?(?:probable|likely|most\s+likely)\s+)?"
    r"(?:root\s+)?cause[*_\s]*:[*_\s]*\w",
    re.IGNORECASE,
)


#: rule 1079: a short label opening a list item before the line it cites ("log: <line>")
_CITED = re.compile(r"^\s*(?:[-*+\u2022]\s+)?((?:[\w.-]+\s){0,2}[\w.-]+)\s*:\s+\S")


def _cited_labels(items: list[str]) -> list[str]:
    """The labels of the items citing a line ("log: WARN: pool exhausted" -> "log"), the
    words rule 270 keeps when the line is served output pasted whole."""
    return [m.group(1) for x in items if (m := _CITED.match(x))]


def _cause_head(line: str) -> bool:
    return "ause" in line and bool(_CAUSE_HEAD.match(line))


def _label(line: str) -> bool:
    return "vidence" in line.lower() and bool(_EVIDENCE_LABEL.fullmatch(normalize(line).strip()))


@per_judgement
def evidence_lists(text: str) -> dict[str, tuple[str, ...]]:
    """Each sentence of a list item under an evidence label line (rule 978) -> the sentences
    of the paragraph right above the label (none when a heading or nothing is there); under a
    cause line ("Root cause: X.", rule 1078) -> that line's sentences."""
    lines = (text or "").splitlines()
    out: dict[str, tuple[str, ...]] = {}
    for i, line in enumerate(lines):
        head_cause = _cause_head(line)
        if head_cause:  # rule 1078: the list under "Root cause: X." is X's evidence
            above = tuple(sentences(line))
        elif _label(line):
            above = tuple(x for ln in _paragraph_above(lines, i) for x in sentences(ln))
        else:
            continue
        k, items = i + 1, []
        while above and k < len(lines) and (not lines[k].strip() or _ITEM.match(lines[k])):
            items += sentences(lines[k])
            k += 1
        if not any(_flat(normalize(x)) for x in items):  # rule 983: a dump ties nothing
            out.update(dict.fromkeys(items, above))
            if head_cause:  # rule 1079: an item's label before the line it cites
                out.update(dict.fromkeys(_cited_labels(items), above))
    return out


def tied_sentence(
    asked: Sequence[tuple[str, str]],
    source: Searcher,
    ties: Callable[[str], bool],
    listed: dict[str, tuple[str, ...]] | None = None,
) -> str | None:
    """The first sentence naming ``source`` that ``ties`` (its questions masked: ``asked``
    holds (sentence, masked) pairs), else the first naming it that opens with a pronoun right
    after a sentence that ``ties`` (rule 899), else the first naming it in an evidence list
    whose paragraph above has a sentence that ``ties`` (rule 978: ``listed``, from
    :func:`evidence_lists`), else None."""
    said = [(i, s, bare) for i, (s, bare) in enumerate(asked) if source.search(bare)]
    direct = next((s for _, s, bare in said if ties(bare)), None)
    if direct is not None:
        return direct
    pronoun = next(
        (s for i, s, bare in said if i and PRONOUN_OPENING.match(bare) and ties(asked[i - 1][1])),
        None,
    )
    if pronoun is not None or not listed:
        return pronoun
    masked, tied = dict(asked), {}  # one paragraph judged once for all its items
    for _, s, _ in said:
        above = listed.get(s)
        if above is None:
            continue
        if id(above) not in tied:
            tied[id(above)] = any((m := masked.get(p)) is not None and ties(m) for p in above)
        if tied[id(above)]:
            return s
    return None
