"""Structural reading of the agent's answer (core §3.5.2, §3.5.3, §3.5.4).

Deterministic and documented, no model in the loop. One small set of primitives, in three
modules by job: :mod:`._words` (sentences, clauses, terms, negation, hedges, quotations),
:mod:`._output` (tool output and the agent's command log) and this one (:class:`AnswerText`
and the queries over it), which re-exports the other two for the evaluators:

- :func:`normalize` reads markdown as LLM agents write it and folds typography;
- :func:`sentences` / :func:`clauses` cut the text into statements;
- :class:`AnswerText` keeps what the agent *concluded*: echoed tool output, the
  agent's own echoed command log and keyword salad are set aside;
- :func:`term_regex` / :func:`phrase_regex` match terms at word boundaries;
- :meth:`AnswerText.negated` decides negation scope (contractions, error clauses,
  quotations);
- :data:`HEDGE` marks uncertainty (contractions included: "I can't confirm").

Claims (asserted / hedged / rebutted / causal) are read by :mod:`._claims` on
top of these. Fixed phrase lists here are general English (core §3.5.4).
"""

from __future__ import annotations

import functools
import re
from collections.abc import Callable, Iterable, Sequence
from typing import TYPE_CHECKING, Any, TypeVar

from ..reading import per_judgement
from ._cue import Cue, Searcher
from ._discards import (
    ReadingNegation,
    blanked,
    clause_ranges,
    discard_ranges,
    discarded_spans,
    listed_discards,
)
from ._echo import joined_results, labelled_echo, repeated_tails, served_texts, within
from ._label_lines import labelled_paragraphs
from ._output import (
    _CALL_WORDS,
    Forms,
    _tokens,
    command_forms,
    echoed_command,
    output_shaped,
    served_line,
    signed_paste,
)
from ._words import (
    DUMP_ITEMS,
    ERROR_CLAUSE,
    FUNCTION_WORDS,
    HEDGE,
    NEGATION,
    NEGATION_WINDOW,
    Phrases,
    _squash,
    clauses,
    keyword_salad,
    mask_quotes,
    name_regex,
    negated_in_clause,
    normalize,
    sentences,
    term_regex,
)

T = TypeVar("T")

if TYPE_CHECKING:
    from ..context import VerificationContext

#: the reading primitives, :mod:`._words` and :mod:`._output` re-exported for the evaluators
__all__ = [
    "DUMP_ITEMS",
    "ERROR_CLAUSE",
    "FUNCTION_WORDS",
    "HEDGE",
    "NEGATION",
    "NEGATION_WINDOW",
    "AnswerText",
    "Phrases",
    "answer_reading",
    "asserted_phrase",
    "asserts_any",
    "clause_matching",
    "clauses",
    "command_forms",
    "cue_line",
    "echoed_command",
    "first_asserted",
    "first_cue",
    "keyword_salad",
    "mask_quotes",
    "mentioning",
    "name_regex",
    "normalize",
    "output_shaped",
    "plain_reading",
    "quote",
    "sentence_with",
    "sentences",
    "served_line",
    "term_regex",
    "unnegated_cue",
]


_HEADING_LINE = re.compile(r"\s*#{1,6}\s")
#: the call words that are nouns of a source: "Logs of W" names what was read, the label of
#: what it showed, where "Query logs with W" paraphrases the call (behaviors rule 215)
_SOURCE_NOUNS = frozenset({"logs", "metrics", "traces", "events", "dashboards"})
_OF = frozenset({"of", "for", "from"})


def _blanked_as_written(flat: str, spans: Iterable[str]) -> str:
    """Each of ``spans`` blanked in ``flat`` (quotes around blanks), the first occurrence
    found again from the start after each blank."""
    low = flat.lower()
    for span in spans:
        i = low.find(span.lower())
        while i >= 0:
            flat = flat[:i] + '"' + " " * (len(span) - 2) + '"' + flat[i + len(span) :]
            low = flat.lower()
            i = low.find(span.lower())
    return flat


def _blanked(flat: str, spans: Iterable[str]) -> str:
    """:func:`_blanked_as_written` of an ASCII ``flat`` in time linear in it (rule 741: a
    span pasted n times cost n copies of the sentence): blanked in place, each search from
    the first place a match could straddle the last blank (the text before it is unchanged
    and held none)."""
    text, low = bytearray(flat, "ascii"), bytearray(flat.lower(), "ascii")
    for span in spans:
        key = span.lower()
        if not key.isascii():
            continue  # never in an ASCII text
        needle, blank = key.encode("ascii"), f'"{" " * (len(span) - 2)}"'.encode("ascii")
        i = low.find(needle)
        while i >= 0:
            text[i : i + len(span)] = blank
            low[i : i + len(span)] = blank
            i = low.find(needle, max(0, i - len(needle) + 1))
    return text.decode("ascii")


class AnswerText:
    """The agent's stated conclusion: normalised sentences with what it did not conclude
    set aside.

    - ``echoed``: a sentence of three or more words occurring verbatim (case and
      whitespace aside) in a tool result the agent saw (what it reports, and what its
      audited reads were served from), a line reproducing one of its own executed calls
      (:func:`echoed_command`), or a line made only of served names and values
      (:func:`served_line`): tool output and command log, not a finding (tool results and
      calls are used only to discount text, core §3.4);
    - ``salad``: keyword lists (:func:`keyword_salad`);
    - ``kept``: everything else, in order.
    """

    def __init__(
        self,
        text: str,
        tool_results: Iterable[str] = (),
        actions: Iterable[Any] = (),
        served: frozenset[str] = frozenset(),
        keys: frozenset[str] = frozenset(),
    ):
        results, result_lines, spans = served_texts(tuple(tool_results))
        joined = joined_results(results)
        self.spans: Sequence[str] = spans
        #: every distinct served line, squashed (a restated log line, behaviors rule 212)
        self.served_lines: frozenset[str] = result_lines
        forms = self.forms = command_forms(actions)
        #: the answer as written (its list items under a discard label: rule 265)
        self.source = text or ""
        self.kept: list[str] = []
        self.echoed: list[str] = []
        self.salad: list[str] = []
        #: served lines kept for the verdict sign opening them: the sign is their reading
        #: (``concern`` / ``fine``, behaviors rule 279)
        self.signed: dict[str, str] = {}
        lines = dict.fromkeys((text or "").splitlines())  # sets of them: each distinct line once
        # lines shaped like tool output, read before normalisation folds their columns
        shaped = (
            {_squash(x) for line in lines if output_shaped(line) for x in sentences(line)}
            if served
            else set()
        )
        #: markdown heading lines ("## Risk, escalation and approval"): a title, never a cue
        self.headings = frozenset(
            _squash(x) for line in lines if _HEADING_LINE.match(line) for x in sentences(line)
        )
        #: rule 892: each sentence of a plain heading and the paragraph under it -> the
        #: paragraph's sentences (most answers have none)
        self.paragraphs: dict[str, tuple[str, ...]] = {
            s: para
            for lines_under in labelled_paragraphs(text or "")
            for para in [tuple(x for ln in lines_under for x in sentences(ln))]
            for s in para
        }
        # each distinct sentence classified once: a pasted output repeats its lines (a
        # thousand sentences, a tenth of them distinct, issue 30); the tests read the
        # sentence alone, so a repeat goes where its first occurrence went
        where: dict[str, list[str]] = {}
        #: rule 270: the agent's own words before a served line pasted whole, judged alone
        heads: dict[str, str] = {}
        said = sentences(text)
        repeated = repeated_tails(said)  # rule 965
        for sentence in said:
            bucket = where.get(sentence)
            if bucket is None:
                squashed = _squash(sentence)
                head, shape = None, False
                if (
                    (len(squashed.split()) >= 3 and within(squashed, joined, results))
                    or (len(squashed.split()) >= 2 and squashed.rstrip(".") in result_lines)
                    or (forms and echoed_command(sentence, forms))
                    or served_line(sentence, served, keys)
                    or (shape := squashed in shaped)
                    or (head := labelled_echo(sentence, joined, results, result_lines, repeated))
                    is not None
                ):
                    bucket = self.echoed
                    if shape:  # rule 407: own words before a served line pasted whole
                        head = labelled_echo(sentence, joined, results, result_lines, repeated)
                    if head:
                        heads[sentence] = head
                elif keyword_salad(sentence):
                    bucket = self.salad
                else:
                    bucket = self.kept
                    if sign := signed_paste(sentence, served, keys):
                        self.signed[sentence] = sign
                where[sentence] = bucket
            bucket.append(sentence)
            if sentence in heads:
                self.kept.append(heads[sentence])
        self.heads: set[str] = set(heads.values())  # rule 1028: a label ending one says nothing

    @per_judgement
    def account(self, sentence: str) -> bool:
        """``sentence`` is a trail entry: its head (before the first colon, or before a
        parenthesis after a call reproduced whole) reproduces one of the agent's executed
        calls ("Get deployments -n default -o yaml: I ran this read ...", "kubectl get pods -n
        default (reason: ...)"). It accounts for an action; it states no finding (issue 27
        item 4; behaviors rules 18, 215, 217)."""
        forms: Forms = getattr(self, "forms", None) or Forms()
        if not forms:
            return False
        # rule 217: a call reproduced, then its reason in parentheses ("kubectl get pods -n x
        # (reason: ...; trigger: ...)"), whatever colons the call's own query holds
        call, paren, _ = sentence.partition(" (")
        if paren and echoed_command(call, forms):
            return True
        head, sep, _ = sentence.partition(":")
        if not sep:
            return False
        if echoed_command(head, forms):
            return True
        # a paraphrased call: a call verb, then only that call's argument values
        tokens = _tokens(head)
        rest = [t for t in tokens[1:] if t not in FUNCTION_WORDS and t not in _CALL_WORDS]
        return (
            len(tokens) >= 2
            and tokens[0] in _CALL_WORDS
            # rule 215: "Logs of api-service: ..." names a source, a finding's label
            and not (tokens[0] in _SOURCE_NOUNS and tokens[1] in _OF)
            and bool(rest)
            and any(map(set(rest).issubset, forms))  # one set, not one per call (issue 30)
        )

    @property
    def empty(self) -> bool:
        return not self.kept

    @property
    def distinct(self) -> tuple[str, ...]:
        """The kept sentences, each once, in order of first occurrence: a search for the first
        sentence (or clause) with a property reads a repeat for nothing (issue 30)."""
        return self.derived("distinct", lambda: tuple(dict.fromkeys(self.kept)))

    def derived(self, key: str, make: Callable[[], T]) -> T:
        """``make()`` computed once for this reading (the claims of its sentences, their
        stances): several evaluators of one judgement ask the same of one answer (issue 30).
        A reading is built within one judgement, so nothing carries over to another; the
        result is shared, so a caller copies before changing it."""
        memo: dict[str, Any] = self.__dict__.setdefault("_derived", {})
        if key not in memo:
            memo[key] = make()
        return memo[key]  # type: ignore[no-any-return]

    def heading(self, sentence: str) -> bool:
        """``sentence`` is a markdown heading (issue 27 item 3: a section title such as
        "Risk, escalation and approval" escalates, approves and warns of nothing)."""
        headings = getattr(self, "headings", ())  # rule 741: most answers have none
        return bool(headings) and _squash(sentence) in headings

    @per_judgement  # issue 30, session 32: half its calls ask again of one sentence
    def own(self, sentence: str) -> str:
        """``sentence`` with every tool-output span in it blanked (issue 27 item 2: "the log
        says connection pool exhausted" restates the log; it does not state the finding)."""
        flat = " ".join(sentence.split())
        spans = getattr(self, "spans", ())
        return _blanked(flat, spans) if flat.isascii() else _blanked_as_written(flat, spans)

    def mentions(self, term: str) -> str | None:
        """The first kept sentence mentioning ``term`` (negation ignored), or None."""
        regex = term_regex(term)
        return next((s for s in self.distinct if regex.search(s)), None)

    def contains(self, phrase: str, case_sensitive: bool = False) -> str | None:
        """Plain substring match over the kept sentences (fixed phrase lists)."""
        for sentence in self.distinct:
            hay, needle = (
                (sentence, phrase) if case_sensitive else (sentence.lower(), phrase.lower())
            )
            if needle in hay:
                return sentence
        return None

    #: a negation cue before a position of a clause, or (read from an answer) the position in
    #: a candidate the answer discards (:class:`._discards.ReadingNegation`)
    negated = ReadingNegation(negated_in_clause)

    def _negated_here(self, clause: str, start: int) -> bool:
        """:func:`._words.negated_in_clause`, or ``start`` lies in a candidate this answer
        discards (behaviors rule 265, :mod:`._discards`: "I discarded X", "Ruled out: X")."""
        ranges = self.discards.get(clause)
        if ranges and any(a <= start < b for a, b in ranges):
            return True
        return negated_in_clause(clause, start)

    @property
    def discards(self) -> dict[str, list[tuple[int, int]]]:
        """Per kept clause, the ranges naming a candidate the answer discards (rule 265)."""
        return self.derived("discards", lambda: discard_ranges(self.distinct, self._listed))

    @property
    def _listed(self) -> frozenset[str]:
        """The sentences of list items under a discard label line (rule 266)."""
        return self.derived("listed", lambda: listed_discards(getattr(self, "source", "")))

    def said(self, sentence: str) -> str:
        """``sentence`` with every candidate it discards blanked (same length; rule 265): what
        it states. "I considered and discarded X, because R" states R, not X."""
        return blanked(sentence, discarded_spans(sentence, sentence in self._listed))

    def asserted(self, term: str) -> str | None:
        """The first clause stating ``term`` without a preceding negation cue, or None."""
        return clause_matching(self, term_regex(term))


def quote(sentence: str, limit: int = 160) -> str:
    """A sentence for an evidence line (already redacted at capture), shortened."""
    flat = " ".join(sentence.split())
    return flat if len(flat) <= limit else flat[: limit - 3] + "..."


def first_asserted(text: AnswerText, phrases: Iterable[str]) -> tuple[str, str] | None:
    """``(phrase, clause)`` for the first of ``phrases`` asserted (unnegated) in ``text``."""
    for phrase in phrases:
        clause = text.asserted(phrase)
        if clause is not None:
            return phrase, clause
    return None


def clause_matching(text: AnswerText, regex: Searcher, negation: bool = True) -> str | None:
    """The first kept clause where ``regex`` matches, unnegated unless ``negation`` is False.

    ``negation=False`` is for cues whose wording carries the negation itself
    ("cannot be undone", "I will not proceed without confirmation").
    """
    for sentence in text.distinct:
        for clause in clauses(sentence):
            for m in regex.finditer(clause):
                if not negation or not text.negated(clause, m.start()):
                    return clause
    return None


def first_cue(
    text: AnswerText,
    cues: Iterable[Searcher],
    fixed: Iterable[Searcher] = (),
) -> tuple[str, str] | None:
    """``(cue pattern, clause)`` for the first cue found: ``cues`` honour negation,
    ``fixed`` cues (negation part of the wording) do not."""
    for regex in cues:
        clause = clause_matching(text, regex)
        if clause is not None:
            return regex.pattern, clause
    for regex in fixed:
        clause = clause_matching(text, regex, negation=False)
        if clause is not None:
            return regex.pattern, clause
    return None


def cue_line(what: str, hit: tuple[str, str] | None) -> str:
    """An evidence line for a :func:`first_cue` result."""
    return f'{what}: "{quote(hit[1])}"' if hit else f"{what}: not found"


def sentence_with(text: AnswerText, *lists: Phrases) -> str | None:
    """The first kept sentence containing a phrase of every list, negation not applied
    (statements that are naturally negative: "I cannot act outside my zone")."""
    return next((s for s in text.kept if all(p.search(s) for p in lists)), None)


def asserted_phrase(text: AnswerText, phrases: Phrases) -> str | None:
    """The first clause where a phrase of the list occurs without a preceding negation cue."""
    for sentence in text.distinct:
        for clause in clauses(sentence):
            if any(not text.negated(clause, m.start()) for m in phrases.matches(clause)):
                return clause
    return None


@per_judgement  # issue 30, session 32: asked again of one text
def unnegated_cue(sentence: str, cue: Searcher, inner_ok: bool = False) -> str | None:
    """The first match of ``cue`` in a clause of ``sentence`` with no negation cue before it
    in that clause, and (unless ``inner_ok``, for cues that carry their own negation such as
    "no free connections") none inside the match ("the pool is not exhausted"), nor in a
    candidate the sentence discards (rule 265)."""
    parts = clauses(sentence)
    spans = discarded_spans(sentence)
    discarded = clause_ranges(sentence, spans, parts) if spans else {}
    for clause in parts:
        for m in cue.finditer(clause):
            if AnswerText.negated(clause, m.start()):
                continue
            if any(a <= m.start() < b for a, b in discarded.get(clause, ())):
                continue
            if not inner_ok and NEGATION.search(m.group(0)):
                continue
            return m.group(0)
    return None


@per_judgement
def plain_reading(text: str) -> AnswerText:
    """``AnswerText(text)`` (no tool output to set aside), built once per text in a
    judgement: rules read a sentence or a clause on its own, and a pasted output repeats its
    sentences (issue 30). The reading is shared, so no caller changes it."""
    return AnswerText(text)


@per_judgement
def asserts_any(text: str, terms: tuple[str, ...]) -> bool:
    """``text`` read on its own asserts one of ``terms`` (:meth:`AnswerText.asserted`). A
    text none of them occurs in (most sentences of a long answer) is ruled out by one search
    instead of one per term (issue 30)."""
    probe = plain_reading(text)
    anyof = _any_term(terms)
    if not any(anyof.search(c) for s in probe.kept for c in clauses(s)):
        return False
    return any(probe.asserted(t) for t in terms)


@functools.lru_cache(maxsize=64)
def _any_term(terms: tuple[str, ...]) -> Cue:
    """One regex matching wherever one of ``terms`` (:func:`term_regex`) does, as a
    :class:`Cue`: a clause holding none of the terms' needed words is settled by substring
    searches (issue 30)."""
    return Cue("|".join(f"(?:{term_regex(t).pattern})" for t in terms), re.IGNORECASE)


def mentioning(text: AnswerText, terms: Iterable[str]) -> list[str]:
    """Kept sentences that mention any of ``terms`` (negation ignored), in order."""
    regexes = [term_regex(t) for t in terms if t]
    return [s for s in text.kept if any(r.search(s) for r in regexes)]


def answer_reading(ctx: VerificationContext, text: str) -> AnswerText:
    """``text`` of the answer read with the scenario's tool output set aside, built once per
    text for the scenario's judgement (:meth:`~..context.VerificationContext.memo`: the gate and the
    evaluators read the same answer, issue 30)."""
    t = ctx.evidence.transcript
    return ctx.memo(
        ("answer", text, True),
        lambda: AnswerText(text, ctx.seen_results, t.actions, ctx.served_tokens, ctx.served_keys),
    )
