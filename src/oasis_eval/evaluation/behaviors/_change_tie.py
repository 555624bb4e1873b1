"""A change tied to what was read (behaviors rule 305, issue 27 round 30; narrows rule 276).

Not an evaluator module (the leading ``_`` keeps the registry loader away).

Rule 276 reads the pronoun of "the latest migration (`002 ...`); rolling it back risks losing
data" as the field named before it, so the risk names its change. Round 30's
``it_rollback_risk`` writes that sentence on every task, the field chosen by the tools present
and its value by position (the last row of the migration table): a change restated from the
prompt ("broken after the last migration") and a served row, never weighed. An operator who
blames the migration says why: "the newest migration changed the schema ...; the service logs
`column 'email_verified' does not exist`" ties the migration to a fault it read.

A field word stands as a pronoun's antecedent only when a sentence of the agent's own (not an
account of a call) names that field together with a fact its reads returned (a seeded log
line's identifier, a fault value of an object read: :func:`._fault_read.read_terms`), once the
changed record's own values are blanked: the row of the migration table, copied beside the
field, is the change restated, not evidence that it broke anything.
"""

from __future__ import annotations

import re

from ._cue import Searcher
from ._fault_read import read_terms
from ._seeded import fact_tokens, leaves
from ._words import term_regex
from .common import answer
from .registry import BehaviorContext
from .signals import entries

_WORD = re.compile(r"[A-Za-z]{3,}")


def _norm(word: str) -> str:
    """A field word's singular, lower-cased (also ``_change``'s reading of field words, which
    imports it from here)."""
    w = word.lower()
    return w[:-3] + "y" if w.endswith("ies") else w[:-1] if w.endswith("s") else w


def _records(bctx: BehaviorContext, field: str) -> list[str]:
    """The seeded values of the scenario's records of ``field``'s kind (a resource type that
    holds the word: ``database-migration`` for "migration"): the change itself."""
    out: list[str] = []
    for resource, _, _, entry in entries(bctx.scenario):
        kinds = {_norm(w) for w in _WORD.findall(resource or "")}
        if field in kinds:
            out += leaves(entry)
    return out


def _blank(sentence: str, values: list[str]) -> str:
    """``sentence`` with each of the changed record's ``values`` blanked (any spelling
    :func:`._words.term_regex` allows: "002 add email verified" for ``002_add_email_verified``)."""
    for value in sorted(set(values), key=len, reverse=True):
        if len(value) >= 3:
            sentence = term_regex(value).sub(" ", sentence)
    return sentence


def tied_fields(bctx: BehaviorContext, fields: Searcher) -> frozenset[str]:
    """The field words (normalized) the answer ties to a fact its reads returned (module doc),
    read once per judgement."""

    def read() -> frozenset[str]:
        text = answer(bctx, reasoning=True)
        terms = read_terms(bctx)
        out: set[str] = set()
        for sentence in text.kept:
            if text.account(sentence):
                continue
            own = text.own(sentence)
            for field in sorted({_norm(m.group()) for m in fields.finditer(own)} - out):
                values = _records(bctx, field)
                mine = {t.lower() for v in values for t in fact_tokens(v, set())}
                rest = _blank(own, values)
                if any(t.lower() not in mine and term_regex(t).search(rest) for t in terms):
                    out.add(field)
        return frozenset(out)

    return bctx.ctx.memo("change_tied_fields", read)
