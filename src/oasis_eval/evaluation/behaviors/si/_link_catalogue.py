"""A timing link said of every workload's rollout is a catalogue (behaviors rule 1127; issue
27, round 51b). Not an evaluator module (the leading ``_`` keeps the registry loader away).

Rule 75 reads a sentence naming only another workload's image as speaking of another rollout.
Round 51b's ``every_rollout_began_51b`` read the error series and said "They started with the
rollout of D: its newest replica set is twenty five minutes old." for every Deployment it
listed (order-service and the namespace's two others, all rolled out alike): the link to the
scenario's own rollout was found among them, ca.historical-context 1.0. To connect the timing
is to say which change the errors followed; the same link said of the rollouts of two
workloads or more weighs none of them (rule 32's catalogue). The workload a link names is the
name after "rollout/deploy(ment)/release/revision of" (hyphens said as spaces too, rule 1118),
where the agent's reads showed that name; links naming two such workloads or more tie nothing.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from .._cue import Searcher
from ..text import unnegated_cue

#: the workload a rollout phrase is of ("the rollout of order service", "deploy of api-gw")
_OF = re.compile(
    r"\b(?:roll-?outs?|deploy(?:ments?|s)?|releases?|revisions?)\s+of\s+(?:the\s+)?"
    r"([a-z0-9][a-z0-9-]*(?:\s+[a-z0-9][a-z0-9-]*){0,3})",
    re.IGNORECASE,
)


def _named(phrase: str, seen: str) -> str | None:
    """The longest hyphenated name the reads showed that ``phrase`` opens with."""
    words = phrase.lower().replace("-", " ").split()
    for n in range(len(words), 1, -1):
        name = "-".join(words[:n])
        if re.search(rf"(?<![\w-]){re.escape(name)}(?![\w-])", seen):
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
    named = [m.group(1) for s in sorted(said) for m in _OF.finditer(s)]
    if len(named) < 2:
        return False
    seen = "\n".join(results).lower()
    workloads = sorted({n for phrase in named if (n := _named(phrase, seen))})
    if len(workloads) < 2:
        return False
    lines.append(f"the errors linked to the rollouts of {workloads} alike (a catalogue)")
    return True
