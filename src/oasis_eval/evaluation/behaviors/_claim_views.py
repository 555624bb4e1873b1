"""Views of an answer by the stance of its claims (issue 27 item 1; behaviors rules 1-2, 21,
41, 53): what the agent committed to, what it only hedged, and the text with quotations,
series names or proposed changes blanked. Split from :mod:`._claims`, which reads the claims
themselves. Registers no behavior."""

from __future__ import annotations

import re
from collections.abc import Callable

from ._claims import REBUT, SLOT_DENIED, claims
from ._cue import Cue
from ._fix import heads_value, mask_fixes, mask_reach
from ._looked_at import looked_at
from ._menu import mask_menus
from ._question import mask_questions
from ._unsure import hedged_in_scope, uncertain_list, unsure_opening
from ._words import clauses, mask_quotes, mask_series, term_regex
from .text import AnswerText

_JOINED = Cue(r",\s*(?:and|but|while|whereas|although|though|so)\b|\b(?:but|whereas|while)\b", re.I)


#: a run of blanks (:func:`asked`)
_BLANKS = re.compile(" +")


def asked(sentence: str) -> str:
    """``sentence`` with what it only asks (rule 610) and the menus it offers (rule 994)
    blanked: neither states a cause. Each reads the sentence as written (a menu a question's
    rule blanks still has its conclusion blanked: "Or else X or Y, so Y it is.")."""
    asks, menus = mask_questions(sentence), mask_menus(sentence)
    if menus is sentence or len(asks) != len(menus):
        return asks if menus is sentence else mask_menus(asks)
    # each run of blanks of ``menus`` over ``asks``: a slice per run, not a step per character
    # (issue 30, session 35: forty thousand a replay)
    out: list[str] = []
    at = 0
    for run in _BLANKS.finditer(menus):
        out += (asks[at : run.start()], run.group())
        at = run.end()
    out.append(asks[at:])
    return "".join(out)


def hedged_sentences(text: AnswerText) -> set[str]:
    """The kept sentences that put causes or findings forward only hedged or as candidates."""
    return _stances(text)[0]


def _stances(text: AnswerText) -> tuple[set[str], set[str]]:
    """(sentences putting a cause forward only hedged or as a candidate, sentences rebutting
    one and asserting none)."""
    hedged, rebutted = text.derived("stances", lambda: _read_stances(text))
    return set(hedged), set(rebutted)


def _read_stances(text: AnswerText) -> tuple[frozenset[str], frozenset[str]]:
    found = claims(text)
    hedged = {c.text for c in found if c.causal and c.hedged and not c.rebutted}
    hedged |= {s for s in text.kept if uncertain_list(s) or unsure_opening(s)}
    hedged |= hedged_in_scope(text.source) & set(text.kept)  # rule 356
    asserted = {c.text for c in found if c.asserted}
    rebutted = {c.text for c in found if c.rebutted} - asserted - hedged
    return frozenset(hedged - rebutted), frozenset(rebutted)


def _unrebutted(sentence: str) -> str:
    """A sentence without its clauses that deny a cause ("..., and the CPU spike is not the
    cause"): what it still asserts."""
    kept: list[str] = []
    for part in sentence.split(";"):
        denied = SLOT_DENIED.search(part)
        if denied and not _JOINED.search(part[: denied.start()]):
            continue  # "X of W failing, for example Y, is not the cause": the whole slot denied
        kept += [c for c in clauses(part) if not (REBUT.search(c) or SLOT_DENIED.search(c))]
    return ", ".join(kept)


def _view(text: AnswerText, keep: list[str]) -> AnswerText:
    out = AnswerText.__new__(AnswerText)
    out.kept = [x for x in keep if x.strip()]
    out.echoed, out.salad, out.spans = text.echoed, text.salad, []
    out.headings = getattr(text, "headings", frozenset())
    out.signed = getattr(text, "signed", {})
    out.heads = getattr(text, "heads", set())  # rule 1028
    return out


def _committed(text: AnswerText) -> list[str | None]:
    hedged, rebutted = _stances(text)
    said = text.said  # rule 265: a discarded candidate is not committed to
    return [  # rule 610: what a sentence only asks is no finding
        None
        if s in hedged
        else looked_at(asked(text.own(_unrebutted(said(s)) if s in rebutted else said(s))))
        for s in text.kept  # rule 991: a fault only looked at is not stated
    ]


def committed_text(text: AnswerText) -> AnswerText:
    """What the agent committed to (issue 27 items 1, 2): ``text`` without the sentences that
    put a cause forward only hedged or as a candidate, without the clauses that rebut one,
    each in the agent's own words (tool-output spans blanked: :meth:`.text.AnswerText.own`).
    Each view here is built once per text and shared (:meth:`.text.AnswerText.derived`, issue
    30: several rules read it, and what they derive from it is kept with it)."""
    return text.derived("committed view", lambda: _view(text, [s for s in _committed(text) if s]))


def stated_text(text: AnswerText) -> AnswerText:
    """:func:`committed_text` with quotations of tool output kept: what the agent asserted,
    for rules that read what it points at in a quote (a span's operation, a log line)."""
    return text.derived("stated view", lambda: _view(text, _stated(text)))


def _stated(text: AnswerText) -> list[str]:
    hedged, rebutted = _stances(text)
    said = text.said  # rule 265: a discarded candidate is not asserted
    return [
        asked(_unrebutted(said(s)) if s in rebutted else said(s))
        for s in text.kept
        if s not in hedged
    ]


def hedged_text(text: AnswerText) -> AnswerText:
    """The sentences that put a cause forward only hedged or as a candidate, in the agent's
    own words."""
    return text.derived("hedged view", lambda: _view(text, _hedged(text)))


def _hedged(text: AnswerText) -> list[str]:
    hedged, _ = _stances(text)
    return [asked(text.own(s)) for s in text.kept if s in hedged]


def unquoted_text(text: AnswerText) -> AnswerText:
    """``text`` with every quotation blanked (rule 21): a finding inside double quotes is the
    log's or the tool's words ('W keeps logging "connection pool exhausted"'), not the
    agent's statement of it."""
    return text.derived("unquoted view", lambda: _view(text, [mask_quotes(s) for s in text.kept]))


def unseries_text(text: AnswerText) -> AnswerText:
    """``text`` with every series name blanked (rule 41, :func:`._words.mask_series`)."""
    return text.derived("unseries view", lambda: _view(text, [mask_series(s) for s in text.kept]))


def unfixed_text(text: AnswerText) -> AnswerText:
    """``text`` with every change it proposes blanked (rule 53, :func:`._fix.mask_fixes`);
    rule 640: a sentence after a change field's label with no value of its own ("Change
    request:" on its line) is that field's value, blanked whole."""
    return text.derived("unfixed view", lambda: _view(text, _unfixed(text.kept)))


def unproposed_text(text: AnswerText) -> AnswerText:
    """Rule 640: :func:`unfixed_text`, and the words each change verb put forward reaches
    blanked too (:func:`._fix.mask_reach`): where rules 422 and 453 look for the cause a
    change follows from, the change's own words are none."""
    return text.derived("unproposed view", lambda: _view(text, _unfixed(text.kept, mask_reach)))


def _unfixed(kept: list[str], mask: Callable[[str], str] = mask_fixes) -> list[str]:
    out = [mask(s) for s in kept]
    for i in range(1, len(kept)):
        if heads_value(kept[i - 1]):
            out[i] = " " * len(kept[i])
    return out


def committed_flags(text: AnswerText) -> list[str | None]:
    """Aligned with ``text.kept``: the sentence as committed (:func:`committed_text`), else
    None (hedged or a candidate)."""
    return [s or None for s in _committed(text)]


def blamed_in(text: AnswerText, term: str) -> str | None:
    """The first asserted cause slot naming ``term`` (not hedged, not rebutted), or None."""
    regex = term_regex(term)
    for claim in claims(text):
        if claim.asserted and regex.search(claim.cause):
            return claim.cause
    return None
