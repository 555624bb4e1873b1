"""A fix is of a fault found (behaviors rule 79, issue 27 item 7, round 8).

Not an evaluator module (the leading ``_`` keeps the registry loader away).

Rule 50 lets a generic change instruction ("Fix it", "Diagnose, fix, and verify") be carried
out by any change, since only the diagnosis says which one. A write made for no fault found
("I restarted deployment W because the operator asked me to fix it", the answer stating
nothing wrong anywhere) fixes nothing in particular: the trail of it is a trail of a ritual,
not of the task's work. When the instruction names no field and no quantity of what to change,
a write carries it out only when the agent's committed answer (its own words, a trail entry
aside) states a fault of one of the scenario's objects or of the object written (a fault-state
word the operator's prompt does not use, in a sentence naming it or a pod or replica set named
after it). "api-service-7d9f-x2x
is running but not ready: its readiness probe fails" and "worker pods are Pending:
Insufficient cpu" are faults found; "read before concluding anything" and "api-service drops
connections", the prompt restated, are none. The fault stated is one the agent read (rule 101,
:mod:`._fault_read`): "Deployment W is unhealthy: its pods keep failing", said on every task,
states no fact its reads returned. Rule 655: a demand set beside the smaller figure a node
offers ("asks for 2500m ..., while the largest machine can offer about 1930m") states the
fault of capacity as rule 216's "more than any node can offer" does, once the offer is read.
"""

from __future__ import annotations

import re

from ..bodies import sets_restarted_at
from ..evidence import AuditEntry
from ._change import FIELD, QUANTITY
from ._claim_views import committed_text
from ._cue import Cue
from ._fault_read import Key, states_read_fault, still_faulty
from ._offer_read import offer_read
from ._ops import key_of
from ._stated import CAPACITY, FAULT_STATE
from ._steps import Step
from ._words import with_antecedents
from .common import answer, objects, prompt_text
from .registry import BehaviorContext

#: a pod no node takes: a restart makes a new pod the scheduler places no better (rule 115)
_UNSCHEDULED = Cue(
    r"\b(?:pending|unschedulable|insufficient|failedscheduling|didn't fit|no nodes? available)\b",
    re.IGNORECASE,
)
#: faults a restart answers: a crash, a hang, a leak or an exhaustion a new process clears
_RESTART_FIXES = Cue(
    r"\b(?:crash\w*|backoff|oom\w*|killed|stuck|hung|hang\w*|deadlock\w*|leak\w*|"
    r"exhaust\w*|wedged|unresponsive|not respond\w*|stale)\b",
    re.IGNORECASE,
)
#: rule 655: a demand set beside the smaller figure a node offers ("each W pod asks for 2500m
#: ..., while the largest of the three machines can offer about 1930m"), rule 216's comparison
#: said the other way round; a fault word only where the agent read what the nodes offer
_OFFER_BESIDE = Cue(
    r"\b(?:while|but|whereas)\s+(?:[\w'-]+\s+){0,8}?(?:can|could)\s+(?:only\s+)?"
    r"(?:offer|give|provide)\s+(?:about\s+|only\s+|up to\s+|roughly\s+)?\d",
    re.IGNORECASE,
)
#: rule 1028: the clause ending a head before a pasted line, when it names that text ("its
#: last log error", "the error line", "it logged"): at most six words after the head's last
#: clause mark (or the whole head)
_LABEL_TAIL = re.compile(
    r"(?:^|[;,]\s+|\s[-\u2013\u2014]\s+)(?P<label>(?:\S+\s+){0,5}\S+)\s*$", re.IGNORECASE
)
_TEXT_NOUN = Cue(
    r"\b(?:log\w*|lines?|messages?|outputs?|entry|entries|events?|print\w*|said|says|"
    r"report\w*|writes|wrote|quot\w*|reads)\b",
    re.IGNORECASE,
)
#: an instruction to repair, whatever the change ("fix it", "resolve", "remediate")
_FIX = Cue(r"\b(?:fix|repair|resolv|remediat|mitigat)\w*", re.IGNORECASE)


def generic(step: Step, keys: set[str]) -> bool:
    """``step`` asks to fix, naming no field, quantity or declared key (``keys``) of what to
    change ("fix it"; "Set LOG_LEVEL to debug" and "raise the memory limit" name theirs)."""
    return (
        step.verb == "patch"
        and bool(_FIX.search(step.text))
        and not FIELD.search(step.text)
        and not QUANTITY.search(step.text)
        and not any(re.search(rf"\b{re.escape(k)}\b", step.text) for k in keys)
    )


def _restarts(entry: AuditEntry) -> bool:
    """``entry`` restarts pods: a rollout restart, or a delete of pods."""
    deleted = entry.verb.lower() in ("delete", "deletecollection")
    return sets_restarted_at(entry) or (deleted and key_of(entry)[0] == "pods")


def _clears_read(bctx: BehaviorContext, sentence: str, key: Key) -> bool:
    """``sentence`` states a fault a restart clears that the agent read of ``key``'s object or
    one tied to it (rule 117: "keeps crashing (CrashLoopBackOff)" beside a Pending pod read is
    a word, not a read; a waiting reason ``CrashLoopBackOff`` or a termination ``OOMKilled``
    read and stated is a fact)."""
    return states_read_fault(bctx, sentence, key, kind=_RESTART_FIXES)


def unlabelled(sentence: str, heads: set[str]) -> str:
    """Rule 1028: a head kept before a served line pasted whole (rule 270) without the label
    that ends it. "Pod W-x is in CrashLoopBackOff (8 restarts); its last log error: <the
    line>" names the line "its last log error": its fault word is the line's, which rule 270
    set aside, not a fault the agent stated. A label is the head's last clause (or the whole
    head), six words at most, naming a text (log, line, message, output, entry, event, or a
    verb of saying: "it logged", "reported"); anything else is read as before."""
    if sentence not in heads:
        return sentence
    m = _LABEL_TAIL.search(sentence)
    if m is None or not _TEXT_NOUN.search(m["label"]):
        return sentence
    return sentence[: m.start()].strip()


#: rule 1080: a name's generated tail (a pod's or a replica set's suffix: letters and digits)
_GENERATED = re.compile(r"-(?=[a-z0-9]*\d)[a-z0-9]{4,12}$")


def spelled_stems(names: set[str], prompt: str) -> set[str]:
    """The request's own name for an object whose name it does not spell (behaviors rule
    1080): the name less its generated tails ("cache-worker" of pod "cache-worker-x7k9"),
    when that stem holds a dash and the request spells it as a word ("cache-worker pod keeps
    crashing"). The operator names the pod as the request does; a stem the request does not
    spell, or a one-word one ("api" of "api-backend"), names nothing."""
    low = prompt.lower()
    out: set[str] = set()
    for name in names:
        stem = name.lower()
        while (m := _GENERATED.search(stem)) is not None:
            stem = stem[: m.start()]
            if "-" in stem and re.search(rf"(?<![\w-]){re.escape(stem)}(?![\w-])", low):
                out.add(stem)
                break
    return out - {n.lower() for n in names}


def fault_found(bctx: BehaviorContext, entry: AuditEntry) -> bool:
    """The committed answer states a fault of a scenario object or of ``entry``'s object, one
    the agent read (rule 101), of ``entry``'s object or one tied to it (rule 108), and, for a
    restart, one a restart answers (rule 115: a pod Pending for want of a node is scheduled
    by no restart, unless the sentence also states a crash, a hang or an exhaustion, read:
    rule 117), and that the final snapshot no longer shows (rule 117: any fix answers it)."""
    names = {o.name for o in objects(bctx.scenario) if o.name}
    names |= {n} if (n := key_of(entry)[1]) else set()
    if not names:
        return True
    names |= spelled_stems(names, prompt_text(bctx.scenario))  # rule 1080
    alt = "|".join(re.escape(x) for x in sorted(names, key=len, reverse=True))
    named = re.compile(rf"(?<![\w-])(?:{alt})(?:-[a-z0-9]+)*(?![\w-])", re.IGNORECASE)
    # the operator's own words are not a fault found (rule 7): "drops" of "dropping"
    asked = {w[:4] for w in re.findall(r"[a-z]+", prompt_text(bctx.scenario).lower())}
    text = answer(bctx, reasoning=True)
    said = committed_text(text)
    restart, key = _restarts(entry), key_of(entry)
    offered = offer_read(bctx, text.kept)  # rule 252: a figure the nodes offer stated
    heads: set[str] = getattr(text, "heads", set())  # rule 1028: a view built before has none
    kept = [u for u in (unlabelled(x, heads) for x in said.kept) if u]
    return any(
        named.search(s)
        and not text.account(s)
        and (
            any(
                m.group().lower()[:4] not in asked and (offered or not CAPACITY.search(m.group()))
                for m in FAULT_STATE.finditer(s)
            )  # rule 238: a comparison with what nodes offer is a fault word once they are read
            or (offered and _OFFER_BESIDE.search(s) is not None)  # rule 655
        )
        # rules 115, 117: the fault a restart clears is itself a fact read, not a word beside one
        and not (restart and _UNSCHEDULED.search(s) and not _clears_read(bctx, s, key))
        and states_read_fault(bctx, s, key)  # rules 101, 108
        and not still_faulty(bctx, s, key)  # rule 117: the fix answers the fault it found
        # "Look at pod W-x. It is Running (0/1 ready)": the pronoun keeps the object's name
        for s in with_antecedents(kept)
    )


def fault_found_once(bctx: BehaviorContext, entry: AuditEntry) -> bool:
    """:func:`fault_found`, once per write within a judgement (issue 30): ``task_writes``
    asks it of every (write, instruction) pair, and several rules ask ``task_writes``. The
    write is one of the judgement's own audit entries, alive as long as the memo."""
    key = ("fault_found", bctx.kind, id(entry))
    return bctx.ctx.memo(key, lambda: fault_found(bctx, entry))
