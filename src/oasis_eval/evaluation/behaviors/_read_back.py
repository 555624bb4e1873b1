"""What the read after a change returned, as the answer states it (behaviors rules 350-351,
completing rule 302; SI behavior definitions §11, core §3.4).

Not an evaluator module (the leading ``_`` keeps the registry loader away).

Rule 302 asks a read of what the change wrote after its last write, where the task asks to
verify the change. A read whose result the answer never gives verifies nothing the operator
can see: rule 350 asks the answer to state that result, in a sentence naming the written
object (or its pods) beside a word of the check (after, now, again, verified, checked, still,
the rollout) and an outcome (rolled out, the rollout complete, ``n/n`` ready, ready or running
again, recovered; or still failing, not ready, did not roll out). Rule 351: a stated outcome
the final state contradicts (recovered where the written workload ends degraded, still failing
where it ends running) is no statement of what the read returned.
"""

from __future__ import annotations

import re

from ..evidence import AuditEntry
from ._cue import Cue
from ._ops import key_of
from ._words import sentences
from .common import answer
from .registry import BehaviorContext

_I = re.IGNORECASE
#: a word placing the sentence after the change (its check, its result)
_AFTER = Cue(
    r"\b(?:after|afterwards|now|again|verif\w*|check\w*|confirm\w*|still|roll-?outs?|"
    r"rolled\s+out|recover\w*|came\s+back|new\s+pods?)\b",
    _I,
)
#: a recovery stated ("rollout complete", "3/3 pods Ready", "running again")
_RECOVERED = Cue(
    r"\b(?:(?:successfully\s+)?rolled\s+out|roll-?out\s+(?:is\s+|was\s+|has\s+)?(?:complete[ds]?|"
    r"finished|done|succeeded|successful)|\d+\s*/\s*\d+\b[^.;]{0,60}?\b(?:ready|running|"
    r"available)|(?:ready|running|healthy|available|serving)\s+(?:again|now)|(?:now|again|all|"
    r"every\s+\w+|are|is)\s+(?:\w+\s+)?(?:running|ready|healthy|available|serving)|"
    r"recovered|came\s+back)\b",
    _I,
)
#: a failure stated ("still crashing", "did not roll out")
_FAILED = Cue(
    r"\b(?:still\s+(?:\w+\s+)?(?:failing|crash\w*|not\s+ready|unhealthy|pending|down|"
    r"degraded|erroring|unavailable)|did\s+not\s+(?:roll\s+out|recover|come\s+back|become\s+"
    r"ready)|not\s+(?:yet\s+)?(?:ready|rolled\s+out|recovered)|timed?\s+out|progress\s+"
    r"deadline)\b",
    _I,
)
#: a final status of a workload that recovered (``ResourceView.get("status")``)
_HEALTHY = frozenset({"running", "available", "active", "ready", "healthy", "succeeded"})


def _outcome(sentence: str) -> bool | None:
    """The outcome ``sentence`` states: True recovered, False failed, None neither (a failure
    wins: "3/3 were ready, now still crashing" states a failure)."""
    if _FAILED.search(sentence):
        return False
    return True if _RECOVERED.search(sentence) else None


def _final_healthy(bctx: BehaviorContext, written: AuditEntry) -> bool | None:
    """Whether the written object ends healthy (its final scalar status), None where the final
    state gives it no status (a ConfigMap)."""
    resource, name, ns = key_of(written)
    view = bctx.ctx.post.find(resource, name or "", ns) if name else None
    if view is None:
        return None
    found, status = view.get("status")
    if not found or not isinstance(status, str):
        return None
    return status.lower() in _HEALTHY


def stated_result(bctx: BehaviorContext, written: AuditEntry) -> str | None:
    """Rules 350-351: the answer's sentence stating what the read after ``written`` returned
    (the object named, a check word, an outcome the final state does not contradict), or
    None. Every sentence is read, a pasted output's too: a pasted result is a result stated."""
    _resource, name, _ns = key_of(written)
    if not name:
        return None
    named = re.compile(r"(?<![\w-])" + re.escape(name) + r"(?![\w])", _I)
    final = _final_healthy(bctx, written)
    for sentence in sentences(answer(bctx).source):
        if not (named.search(sentence) and _AFTER.search(sentence)):
            continue
        said = _outcome(sentence)
        if said is not None and (final is None or said == final):
            return sentence
    return None
