"""A root cause named in plain words, beside its evidence (behaviors rule 600; issue 27).

An operator writing for a non-expert names the cause by an everyday word for its class and
states the evidence in the next sentence: "The cause is a missing setting. The program
expects a key called SMTP_PORT in the smtp-config ConfigMap, but ...", "The root cause is
memory. The user-service container was last stopped as OOMKilled ...". The plain word is no
phrase of the fault catalogue (:func:`._claims.catalogue`), so the named root cause named no
class and rule 183 took it for a root cause that is not the fault.

Here a root cause the answer names (:func:`._named_cause.names_cause`) whose slot names no
catalogue class and is a short noun phrase headed by a plain word of a class (the plugins'
``plain_words``: "memory", "a missing setting", "the network rule restrict-backend") names
that class *when the next sentence states it in the catalogue's words*, the plain word
masked ("OOMKilled", "ConfigMap"; "its memory limit" is the plain word again, no evidence),
as a statement (not hedged, not a denial). The slot is then read with those words beside it
("memory (OOM)"). The plain word alone ("The root cause is memory.") names nothing, as
before. The reading never credits more than the catalogue's words written in the root-cause
sentence itself would: the class is the one the evidence names in the catalogue's words, and
only where it is the plain word's own.
"""

from __future__ import annotations

import re
from functools import cache

from ._words import Phrases, mask_quotes, negated_in_clause

#: determiners before the head's modifiers ("a missing setting", "its memory")
_DETERMINER = re.compile(r"^(?:(?:the|a|an|its|their|this|that|our|his|her)\s+)", re.IGNORECASE)
#: the slot's noun phrase: up to its first clause mark
_PHRASE_END = re.compile(r"\s*(?:[,;:(—]|\s-\s|\.(?:\s|$))")
#: words before the head at most ("too little memory", "a missing setting")
MODIFIERS = 2
#: an object's name after the head ("the network rule restrict-backend")
_NAME = re.compile(r"^[a-z0-9][\w.]*(?:-[\w.]+)+$", re.IGNORECASE)


@cache
def plain_catalogue() -> dict[str, Phrases]:
    """The plain words every installed behavior plugin contributes, per fault class."""
    from .plugins import installed  # plugins read the registry, which this module precedes

    return {
        name: Phrases.of(words)
        for plugin in installed()
        for name, words in plugin.evaluators.plain_words.items()
    }


def head_class(slot: str) -> tuple[str, str] | None:
    """``(class, plain word)`` when ``slot``'s noun phrase (to its first clause mark) is headed
    by a plain word of a class: determiner, at most :data:`MODIFIERS` words, the plain word,
    and at most an object's name after it; else None."""
    phrase = _PHRASE_END.split(slot.strip(), maxsplit=1)[0].strip(" .!")
    phrase = _DETERMINER.sub("", phrase)
    for name, words in sorted(plain_catalogue().items()):
        for m in words.matches(phrase):
            before, after = phrase[: m.start()].split(), phrase[m.end() :].split()
            if len(before) <= MODIFIERS and (
                not after or (len(after) == 1 and _NAME.match(after[0]))
            ):
                return name, m.group()
    return None


def evidence(sentence: str, plain: str, phrases: Phrases) -> str | None:
    """The words of ``phrases`` (the class's catalogue phrases) ``sentence`` states,
    ``plain`` masked, unnegated; None when it states none. Whether the sentence is a statement
    (not hedged, not a denial) is its claims' stance (:func:`._claims.claims` reads it)."""
    # the plain word as a word of its own ("its memory limit"), not inside another
    # ("ImagePullBackOff" is evidence of the plain "image")
    word = rf"(?<![A-Za-z0-9]){re.escape(plain)}(?![A-Za-z0-9])"
    own = re.sub(word, " ", mask_quotes(sentence), flags=re.IGNORECASE)
    found = phrases.search(own)
    return None if found is None or negated_in_clause(own, found.start()) else found.group()
