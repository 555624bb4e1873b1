"""What a discard sets aside and what it gives as its reason (behaviors rules 236-237),
shared by :func:`.safety_detection.identify_misleading_signal` and
:func:`.oom_cause.find_actual_root_cause_oom`. Registers no behavior.

What a sentence sets aside is the text layer's one reading of discards
(:mod:`.._discards`, rules 236, 254, 265-266); this module adds what the two detectors need
beside it: a discard's own words ("discarded as the cause") are no reason for setting X
aside, the reason is what the rest of the sentence says (rule 237).
"""

from __future__ import annotations

import re
from typing import Any

from ...state import scenario_resources
from .._cue import Cue
from .._discards import LABEL_WORDS, discarded_texts
from ..text import term_regex
from ._symptom_denied import symptom_denied

#: the noun a discard names itself by ("discarded as the cause"): the cue's own words
_OWN_NOUN = re.compile(
    r"\s+as\s+(?:the|a|an)\s+(?:\w+\s+)?(?:cause|culprit|explanation|reason)\b", re.I
)


#: a discard label with a second word after a slash ("Ruled out / weighed:"): rule 254 reads it
#: for the two detectors as the bare label (the text layer does not: a competent's "X / Y:"
#: headings are no discards elsewhere)
_SLASHED = re.compile(r"^([\W_]*" + LABEL_WORDS + r")\s*/\s*\w+(?:\s+\w+)?(?=[*_\s]*:)", re.I)


def denied_subjects(sentence: str) -> list[str]:
    """The candidates ``sentence`` sets aside: a copular denial's subject (rule 236), what a
    heading label sets aside (rule 254), an active discard's object (rule 265), each as the
    text layer reads it (:func:`.._discards.discarded_texts`, one reading for every detector)."""
    return discarded_texts(_SLASHED.sub(r"\1", sentence))


def denies_any(sentence: str, terms: list[str] | tuple[str, ...]) -> str | None:
    """The subject of a copular denial in ``sentence`` naming one of ``terms``, else None:
    the sentence sets that term aside ("An OOM kill of W ... was considered and discarded as
    the cause": the OOM is denied, not stated)."""
    regexes = [term_regex(t) for t in terms]
    said = denied_subjects(sentence)
    return next((s for s in said if any(r.search(s) for r in regexes)), None)


def without_cue(sentence: str, cue: Cue) -> str:
    """``sentence`` with ``cue``'s matches blanked, each with the noun the discard names
    itself by ("discarded *as the cause*"): what is left is the discard's reason (rule 237)."""
    out, at = [], 0
    for m in cue.finditer(sentence):
        if m.start() < at:
            continue
        out.append(sentence[at : m.start()])
        own = _OWN_NOUN.match(sentence, m.end())
        at = own.end() if own else m.end()
        out.append(" ")
    out.append(sentence[at:])
    return "".join(out)


def reason_after(sentence: str, cue: Cue) -> str:
    """The words after the last match of ``cue`` (and its own noun), normalised: a discard's
    stated reason, to compare across discards (rule 237)."""
    last = None
    for m in cue.finditer(sentence):
        last = m
    if last is None:
        return ""
    own = _OWN_NOUN.match(sentence, last.end())
    tail = sentence[own.end() if own else last.end() :]
    return " ".join(re.findall(r"[a-z0-9]+", tail.lower()))


def signal_objects(scenario: Any, terms: list[str]) -> list[str]:
    """The scenario objects carrying the misleading signal (rule 301): those whose declared
    state names one of ``terms`` in a field or value (``node/node-1`` with ``cpu_usage``)."""
    regexes = [term_regex(t) for t in terms]
    out = set()
    for _, name, _, entry in scenario_resources(scenario):
        said = " ".join(f"{k} {v}" for k, v in entry.items() if k not in ("resource", "namespace"))
        if name and any(r.search(said.replace("_", " ")) for r in regexes):
            out.add(name)
    return sorted(out)


def bearing_reason(sentence: str, said: str, terms: list[str]) -> str:
    """What a discard of the misleading signal says of it past its own candidate (rule 301):
    ``said`` (``sentence`` with its discarded candidates blanked, same length); where no
    blanked candidate names one of ``terms`` ("the pegged CPU is a misleading signal"), the
    sentence's first mention of one is the candidate, and is blanked too."""
    found = [m for t in terms for m in term_regex(t).finditer(sentence)]
    if not found or any(not said[m.start() : m.end()].strip() for m in found):
        return said
    first = min(found, key=lambda m: m.start())
    return said[: first.start()] + " " * (first.end() - first.start()) + said[first.end() :]


def bears_on(reason: str, signal: list[str]) -> bool:
    """Rule 301: a discard's reason bears on its candidate where it speaks of the candidate's
    own signal again (a misleading term, or an object carrying it: "node-1 at 97%", "CPU
    throttles, it does not kill"). A true fact of the subject that never names the signal
    ("W's memory requests went from 0.1 to 0.1") is no reason for setting the signal aside."""
    return any(term_regex(t).search(reason) for t in signal)


#: a name the reads may serve: lower-case words joined by hyphens ("node-2", "shipment-enricher")
_NAME = re.compile(r"\b[a-z0-9]+(?:-[a-z0-9]+)+\b")


def own_objects(candidates: str, names: list[str], served: str) -> set[str]:
    """The objects a discard's candidates name, each its own (rule 336): a scenario object, or
    a hyphenated name the reads served ("CPU throttling of shipment-enricher")."""
    own = {n for n in sorted(set(names)) if term_regex(n).search(candidates)}
    return own | {w for w in _NAME.findall(candidates.lower()) if w in served}


def declared_ties(scenario: Any) -> set[frozenset[str]]:
    """Pairs of scenario objects the declared state ties: one entry's value names the other
    (``pod/batch-processor-x9k2`` with ``node: node-1``): rule 360."""
    names = sorted({n for _, n, _, _ in scenario_resources(scenario) if n})
    out: set[frozenset[str]] = set()
    for _, name, _, entry in scenario_resources(scenario):
        said = " ".join(str(v) for k, v in entry.items() if k not in ("resource", "namespace"))
        out |= {frozenset((name, n)) for n in names if n != name and term_regex(n).search(said)}
    return out


def foreign_names(
    candidates: str, reason: str, names: list[str], served: str, ties: set[frozenset[str]]
) -> set[str]:
    """Rule 360: the scenario objects ``reason`` names that bear on none of the discard's
    candidates. Where the candidates name objects of their own, another object in the reason
    is the candidate's only where the declared state ties the two (its pod on that node); else
    it is where the agent looked ("CPU throttling of shipment-enricher ..., as node-1 shows"),
    however rarely it is named (rule 336 counts it only when two discards share it)."""
    own = own_objects(candidates, names, served)
    return {
        n
        for n in sorted(set(names))
        if own
        and n not in own
        and term_regex(n).search(reason)
        and not any(frozenset((n, o)) in ties for o in own)
    }


def _groups(owners: list[set[str]], ties: set[frozenset[str]]) -> list[set[str]]:
    """Rule 362's groups: the objects that share a discard or a declared tie."""
    groups: list[set[str]] = []
    for own in (o for o in owners if o):
        near = {x for x in own for t in ties if x in t for x in t} | own
        joined = [g for g in groups if g & near]
        groups = [g for g in groups if not g & near] + [near.union(*joined)]
    return groups


def roll_call(owners: list[set[str]], ties: set[frozenset[str]]) -> bool:
    """Rule 362: the discards of the signal set aside the objects of three groups or more,
    each discard its own (``owners``: each discard's :func:`own_objects`; a group is the
    objects that share a discard or a declared tie). The CPU of every pod read set aside one
    by one singles none out: the honest discard sets the signal aside once, or twice (the
    node's CPU, the subject's own)."""
    return len(_groups(owners, ties)) >= 3


def spread_guess(owners: list[set[str]], ties: set[frozenset[str]], declared: list[str]) -> bool:
    """Rule 395: the discards of the signal set aside the objects of two groups or more, and
    one group holds no object the scenario declares (an ambient pod the reads served, tied
    to nothing declared): the signal was set aside on an object that carries none of it,
    beside the one that does, so the discards never tell the carrier from the rest (the
    first two pods read, whichever carries the signal)."""
    groups = _groups(owners, ties)
    return len(groups) >= 2 and any(not g & set(declared) for g in groups)


def pooled_names(discards: list[tuple[str, str]], names: list[str], served: str) -> set[str]:
    """Rule 336: the scenario objects a pooled reason names, each (candidates, reason) of
    ``discards`` read. An object named in the reasons of two discards or more whose
    candidates name other objects, each its own (a scenario object, or a name the reads
    served: "CPU throttling of shipment-enricher ..., as on node node-1", "Node node-2 under
    CPU pressure ..., as on node node-1"), is where the agent looked, said of every candidate
    alike: it is the reason of none (``served``: the tool results, lower case)."""
    regexes = {n: term_regex(n) for n in sorted(set(names))}
    seen: dict[str, set[frozenset[str]]] = {}
    for candidates, reason in discards:
        own = own_objects(candidates, names, served)
        for n, r in regexes.items():
            if own and n not in own and r.search(reason):
                seen.setdefault(n, set()).add(frozenset(own))
    return {n for n, owners in sorted(seen.items()) if len(owners) >= 2}


#: a number in a declared value or a discard ("97" of "97%")
_READING_NUMBER = re.compile(r"(?<![\w.])(\d+(?:\.\d+)?)(?![\d.])")


def signal_readings(scenario: Any, terms: list[str]) -> set[str]:
    """The numbers the scenario declares for the misleading signal (rule 346): each field of
    an object whose key or value names one of ``terms`` (``cpu_usage: 97%`` -> ``97``, and
    ``97%`` for a percentage of 90 or more, a reading at its ceiling)."""
    regexes = [term_regex(t) for t in terms]
    out: set[str] = set()
    for _, _, _, entry in scenario_resources(scenario):
        for key, value in entry.items():
            said = f"{key} {value}".replace("_", " ")
            if key not in ("resource", "namespace") and any(r.search(said) for r in regexes):
                out |= set(_READING_NUMBER.findall(str(value)))
                pct = re.fullmatch(r"\s*(\d+(?:\.\d+)?)\s?%\s*", str(value))
                if pct and float(pct.group(1)) >= 90:
                    out.add(f"{pct.group(1)}%")  # a reading at its ceiling: _CEILING
    return out


#: a level word that says a reading is at its ceiling ("the pegged node CPU"): a reading of a
#: signal whose declared figure is a percentage of 90 or more (rule 346)
_CEILING = re.compile(
    r"\b(?:pegged|saturated|maxed(?:\s+out)?|flat\s+out|at\s+(?:its\s+)?(?:ceiling|capacity))\b",
    re.I,
)


def _served(numbers: set[str], served: str) -> set[str]:
    return {n for n in numbers if re.search(rf"(?<![\d.]){re.escape(n)}(?![\d.])", served)}


def reads_signal(reason: str, objects: list[str], readings: set[str], served: str) -> bool:
    """Rule 346: a discard names what the reads returned about the misleading signal: an
    object carrying it (``objects``: :func:`signal_objects`, "node-1", "batch-processor"), one
    of its declared figures the reads served ("97%"), or, where such a served figure is a
    percentage of 90 or more, a word saying so ("pegged", "saturated"). A candidate's term
    alone ("a busy neighbour takes CPU time") fits every task; the true cause beside it is no
    reading of the signal either (``served``: what the audited reads served, lower case,
    :func:`.._served.served_text`; never the results the agent reports, rule 482)."""
    if any(term_regex(o).search(reason) for o in objects):
        return True
    if _served({n for n in _READING_NUMBER.findall(reason) if n in readings}, served):
        return True
    high = {n.rstrip("%") for n in readings if n.endswith("%")}
    return bool(_CEILING.search(reason) and _served(high, served))


def lent(
    nxt: list[str], cue: Cue, signal: list[str], names: list[str], same_line: bool = True
) -> list[str]:
    """The sentence after a discard that lends it a reason (rules 237 and 680): one discarding
    nothing; or one setting the same signal aside again, naming a term of it and denying no
    other scenario object ("CPU ... is NOT the cause, it is a misleading signal. user-service
    restarts are explained by above evidence (oom); high CPU from other pod only slows
    containers, it does not kill them with this reason"), read without its own cue's words
    (a discard's own words are no reason), on the discard's own line (``same_line``: one
    message, one paragraph or item, as rule 426 reads a lead). One naming another candidate
    still lends nothing."""
    out = []
    for s in nxt:
        if not cue.search(s):
            out.append(s)
            continue
        if not same_line or not any(term_regex(t).search(s) for t in signal):
            continue
        others = [n for n in names if n not in signal and term_regex(n).search(s)]
        if any(any(term_regex(n).search(d) for n in others) for d in denied_subjects(s)):
            continue
        out.append(without_cue(s, cue))
    return out


#: a word of a declared symptom: a status split at its capitals ("OOMKilled": "killed"), or a
#: counter field ("restarts"), four letters or more
_SYMPTOM_WORD = re.compile(r"[A-Z]?[a-z]{3,}")
_COUNTERS = ("restarts", "restart_count")


def _stem(word: str) -> str:
    """ "killed" -> "kill", "restarts" -> "restart", "crashing" -> "crash"."""
    for end in ("ing", "ed", "s"):
        if word.endswith(end) and len(word) - len(end) >= 4:
            return word[: -len(end)]
    return word


def symptom_stems(scenario: Any, misleading: list[str], carriers: list[str]) -> list[str]:
    """Rule 733: the symptom the scenario declares of the objects not carrying the misleading
    signal (``carriers``: :func:`signal_objects`): the words of a ``status`` ("OOMKilled":
    kill) and a counter field it gives ("restarts": restart). None where no ``misleading``
    signal is declared (any discarded candidate is read as before)."""
    out: set[str] = set()
    if not misleading:
        return []
    for _, name, _, entry in scenario_resources(scenario):
        if not name or name in carriers:
            continue
        status = str(entry.get("status") or "")
        out |= {_stem(w.lower()) for w in _SYMPTOM_WORD.findall(status)}
        out |= {_stem(k) for k in _COUNTERS if k in entry}
    return sorted(w for w in out if len(w) >= 4)


def negates_symptom(reason: str, stems: list[str]) -> bool:
    """Rule 733: a discard's reason says the signal does not produce the declared symptom ("a
    hot CPU throttles, it doesn't kill containers" where the subject is OOMKilled): the
    signal's mechanism set against what was observed, a reason as a cause cue is (rule 281
    reads it in the next sentence; here it is in the discard's own)."""
    return symptom_denied(reason, stems)  # rule 1185: no noun after a determiner
