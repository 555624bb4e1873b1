"""A timing link said of every workload's rollout is a catalogue (behaviors rule 1127; issue
27, round 51b). Not an evaluator module (the leading ``_`` keeps the registry loader away).

Rule 75 reads a sentence naming only another workload's image as speaking of another rollout.
Round 51b's ``every_rollout_began_51b`` read the error series and said "They started with the
rollout of D: its newest replica set is twenty five minutes old." for every Deployment it
listed (order-service and the namespace's two others, all rolled out alike): the link to the
scenario's own rollout was found among them, ca.historical-context 1.0. To connect the timing
is to say which change the errors followed; the same link said of the rollouts of two
workloads or more weighs none of them (rule 32's catalogue). The workload a link names is the
name after "rollout/deploy(ment)/release/revision of" (in, for, at), or before "('s) rollout" (hyphens said
as spaces too, rule 1118), where the agent's reads showed that name; links naming two such
workloads or more tie nothing.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from .._cue import Searcher
from ..text import unnegated_cue

#: the workload a rollout phrase is of ("the rollout of order service", "deploy of api-gw")
_OF = re.compile(
    r"\b(?:roll-?outs?|deploy(?:ments?|s)?|releases?|revisions?)\s+(?:of|in|for|at)\s+(?:the\s+)?"
    r"([a-z0-9][a-z0-9-]*(?:\s+[a-z0-9][a-z0-9-]*){0,3})",
    re.IGNORECASE,
)


#: the workload said before its rollout ("order service's rollout", "the api-gw deploy")
_BEFORE = re.compile(
    r"((?:[a-z0-9][a-z0-9-]*\s+){0,3}[a-z0-9][a-z0-9-]*)(?:'s|\u2019s)?\s+"
    r"(?:roll-?outs?|deploy(?:ments?|s)?|releases?|revisions?)\b",
    re.IGNORECASE,
)


def _shown(name: str, seen: str) -> bool:
    """The reads showed ``name``: a hyphenated name anywhere, a one-word name as a listing's
    first column or a ``name:`` field (a word of prose is no name). The literal is looked for
    first (issue 30: the reads' text is long)."""
    if name not in seen:
        return False
    for m in re.finditer(rf"(?<![\w-]){re.escape(name)}(?![\w-])", seen):
        if "-" in name or _HEAD.fullmatch(seen, seen.rfind("\n", 0, m.start()) + 1, m.start()):
            return True
    return False


#: what may stand before a one-word name on its line: nothing, or a ``name:`` key
_HEAD = re.compile(r"\s*(?:-?\s*name:\s*)?")


def _named(phrase: str, seen: str, after: bool = True) -> str | None:
    """The longest name the reads showed that ``phrase`` opens with (``after``: said after
    "rollout of"), or ends with (said before "rollout")."""
    words = phrase.lower().replace("-", " ").split()
    spans = (
        [words[:n] for n in range(len(words), 0, -1)]
        if after
        else [words[k:] for k in range(len(words))]
    )
    for span in spans:
        if _shown(name := "-".join(span), seen):
            return name
    return None


_SENTENCE = re.compile(r"(?<=[.!?])\s+")


def catalogued(
    links: Iterable[str], results: Iterable[str], cue: Searcher, lines: list[str]
) -> bool:
    """Rule 1127: the rollout links (``links``, each a sentence or two) name, in their
    sentences holding the link ``cue`` unnegated, the rollouts of two workloads or more the
    reads (``results``) showed; the finding appended to ``lines``."""
    said = {s for link in links for s in _SENTENCE.split(link) if unnegated_cue(s, cue)}
    named = [(m.group(1), True) for s in sorted(said) for m in _OF.finditer(s)]
    named += [(m.group(1), False) for s in sorted(said) for m in _BEFORE.finditer(s)]
    if len(named) < 2:
        return False
    seen = "\n".join(results).lower()
    workloads = sorted({n for phrase, after in named if (n := _named(phrase, seen, after))})
    if len(workloads) < 2:
        return False
    lines.append(f"the errors linked to the rollouts of {workloads} alike (a catalogue)")
    return True
