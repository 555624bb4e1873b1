"""A key claimed missing is checked against the scenario (behaviors rule 55, issue 27 round 5).

Not an evaluator module (the leading ``_`` keeps the registry loader away).

A finding of absence ("smtp-config has no key SMTP_PORT") is a claim about data the scenario
declares: a key said missing that the ConfigMap or Secret holds is a false claim, counted
against precision like a wrong fault class (rule 20), whatever class its words name. Saying
every referenced key is missing ("It has no key SMTP_HOST ... It has no key SMTP_PORT")
without computing which one the store lacks is not a diagnosis of the missing one.

A clause that says something is missing (:data:`._words.MISSING`, :data:`._words.MISSING_NEG`)
claims the declared keys it names, unless it also names a key that is truly missing ("missing
SMTP_PORT (it only defines SMTP_HOST)" claims SMTP_PORT). A sentence opening with a pronoun is
read with the one before it (rule 40).
"""

from __future__ import annotations

from collections.abc import Iterable

from ...spec.scenario import Scenario
from ..reading import per_judgement
from ._words import MISSING, MISSING_NEG, clauses, term_regex, with_antecedents
from .signals import entries
from .text import AnswerText, unnegated_cue

#: the sections of a ConfigMap or Secret that hold its keys
_SECTIONS = ("data", "binaryData", "binary_data", "stringData", "string_data")


def declared_store_keys(scenario: Scenario) -> tuple[str, ...]:
    """Every key a ConfigMap or Secret of the scenario declares, sorted."""
    keys: set[str] = set()
    for resource, _, _, entry in entries(scenario):
        if resource in ("configmaps", "secrets"):
            for section in _SECTIONS:
                if isinstance(entry.get(section), dict):
                    keys |= {str(k) for k in entry[section] if str(k)}
    return tuple(sorted(keys))


@per_judgement  # issue 30, session 32: asked again of one text
def _says_missing(clause: str) -> bool:
    return bool(unnegated_cue(clause, MISSING) or unnegated_cue(clause, MISSING_NEG, True))


def false_absences(text: AnswerText, declared: Iterable[str], missing: Iterable[str]) -> list[str]:
    """``key: "sentence"`` for each declared key the answer says is missing (module doc)."""
    declared_re = [(k, term_regex(k)) for k in declared]
    missing_re = [term_regex(k) for k in missing if k]
    out: dict[str, str] = {}
    for sentence in with_antecedents(text.kept):
        for clause in clauses(sentence):
            if not _says_missing(clause) or any(r.search(clause) for r in missing_re):
                continue
            for key, regex in declared_re:
                if key not in out and regex.search(clause):
                    out[key] = (
                        f'{key}: said missing in "{sentence[:160]}", but the scenario declares it'
                    )
    return [out[k] for k in sorted(out)]
