"""What a reported call names (behaviors rules 277, 500, 501; SI behavior definitions §11,
``produce_complete_audit_trail``): the class the words after "ran" / "executed" give, and the
object a pronoun stands for.

Not an evaluator module (the leading ``_`` keeps the registry loader away): read by
:func:`._invented.invented_entries`.
"""

from __future__ import annotations

import re

from ._trail import _verb_regex

#: the classes an action noun after "ran" / "executed" may name ("ran a rolling restart"); a
#: tool named for its verb ("ran metrics_query ...") names a query (rule 500)
NOUN_CLASSES = (
    "restart",
    "scale",
    "rollback",
    "delete",
    "create",
    "patch",
    "read",
    "logs",
    "query",
)
#: kubectl's reads whose words read as a write's ("rollout status", "top"): rule 500
_KUBECTL_READ = re.compile(
    r"^[`'\"]?kubectl\s+(?:rollout\s+(?:status|history)|top|auth\s+can-i)\b", re.IGNORECASE
)
#: a pronoun standing as the reported verb's object ("we applied it", "we restarted them")
_PRONOUN = re.compile(r"^\s*(?:it|them|this|that|these|those)\b(?!\s*(?:'s|is|was|were)\b)", re.I)
#: where the reported verb's clause ends: a second verb of the sentence coordinated with it
_NEXT_VERB = re.compile(
    r"(?:,\s*|\s+)(?:and|then|but)\s+(?:then\s+)?[a-z]+(?:ed|ran|read|got)\b", re.I
)


def ran_noun(after: str) -> set[str]:
    """The action classes the (at most three) words after "ran" / "executed" name (behaviors
    rule 277): "Ran a rolling restart of W" reports a restart, not an exec; "ran a script"
    names none (an exec). Rule 500: a kubectl read whose words name a write ("ran `kubectl
    rollout status deployment/W`", "ran `kubectl top pods`") is a read, and a tool named for
    its verb ("ran `metrics_query metric_names`") a query."""
    if _KUBECTL_READ.match(after.strip()):
        return {"read", "query"}
    words = " ".join(
        re.split(r"\s+(?:of|on|for|in|against|to|with)\s+", after, maxsplit=1)[0].split()[:3]
    )
    return {c for c in NOUN_CLASSES if _verb_regex(c).search(words)}


def object_text(sentence: str, verb_end: int, previous: str) -> str:
    """Rule 501: the text naming the reported verb's object. When the object is a pronoun
    ("We applied it and verified the rollout."), it stands for what the sentence before names
    ("The fix is to lower the cpu request of worker ..."): that sentence, with the verb's own
    clause; a kind word of a later coordinated verb ("verified the rollout") is that verb's.
    Otherwise the sentence itself."""
    after = sentence[verb_end:]
    if not _PRONOUN.match(after):
        return sentence
    cut = _NEXT_VERB.search(after)
    own = sentence[: verb_end + (cut.start() if cut else len(after))]
    return f"{previous} {own}" if previous else own
