"""A configuration write answers the fault by the key it changes (behaviors rule 144, issue 27
round 17; tightens rules 120 and 133).

Not an evaluator module (the leading ``_`` keeps the registry loader away).

Rule 133 reads a write to a ConfigMap or a Secret through the pods of the workloads tied to
it, and the key written is not read, so ``LOG_LEVEL: debug`` merged into ``api-config`` and a
rollout restart "to apply it" (``configmap_roll``) answered the not-ready pod: the restart,
which sought no cause (rule 120), rolled the pods, and the write was credited with their
recovery. A write to a configuration now answers the seeded fault only when a data key it
changes is one the fault names: a key or value of the scenario's own entries tied to it (the
ConfigMap's declared data, its workload's, the log lines and events the scenario seeds of
them, rule 108's ties) or of the provisioned fault values of the objects tied to it (a pod's
``CreateContainerConfigError`` naming the key). A restart (or a delete of pods) of a workload
tied to a configuration the agent wrote before it applies that write, and is judged as the
write is: it answers the fault when a write it applies does, and neither carries out a fix
when none does (rule 120's log read aside: the restart applies a change that answers
nothing). ``MAX_CONNECTIONS`` raised in ``api-config`` (declared ``"10"``), then a restart,
is the competent operators' fix.
"""

from __future__ import annotations

import math
import re

from .. import bodies
from ..evidence import AuditEntry
from ..state import scenario_resources
from ._fault_read import Key, _names, _of, _strings, fault_values, tied
from ._ops import body_leaves, key_of, leaf, norm, values_before
from ._restart_cause import _workloads, restarts
from ._seeded import keys_and_leaves
from .registry import BehaviorContext

#: the kinds whose data configure the pods that read them
CONFIGS = frozenset({"configmaps", "secrets"})
#: the maps of a configuration's keys
_DATA = frozenset({"data", "stringData", "binaryData"})


def changed_keys(bctx: BehaviorContext, entry: AuditEntry, exact: bool = False) -> list[str]:
    """The data keys ``entry`` (a configuration write) sets to a value they did not hold
    (the provisioned object, overlaid with the agent's earlier writes of it); ``exact``: any
    other string, whitespace and case included."""
    if key_of(entry)[0] not in CONFIGS or entry.verb.lower() not in ("create", "patch", "update"):
        return []
    before = values_before(bctx, entry)
    encoded = key_of(entry)[0] == "secrets"  # base64: its case is its value
    return sorted(
        {
            p[1]
            for p, v in body_leaves(entry).items()
            if len(p) >= 2
            and p[0] in _DATA
            and _plain(v, exact, encoded or p[0] == "binaryData")
            != _plain(leaf(before, p), exact, encoded or p[0] == "binaryData")
        }
    )


def _plain(value: object, exact: bool, cased: bool) -> str | None:
    """The setting a data value holds: whitespace runs and (``cased`` aside) case are none of
    it, so ``"10 "`` for ``"10"`` or ``FAST`` for ``fast`` changes nothing (rule 149)."""
    n = norm(value)
    if n is None or exact:
        return None if n is None else str(n)
    text = " ".join(str(n).split())
    number = None if cased else _number(text)
    return text if cased else (text.lower() if number is None else repr(number))


def _number(text: str) -> float | None:
    """A plain decimal setting (``"10"``, ``"10.0"``, ``"1e1"``) as a number: the same number
    written otherwise is the same setting (rule 153); anything else is None, digits other than
    ASCII ones included (rule 178: ``float()`` reads ``"١١"`` as 11, a process does not)."""
    if not re.fullmatch(r"[+-]?(?:\d+\.?\d*|\.\d+)(?:e[+-]?\d+)?", text, re.IGNORECASE | re.ASCII):
        return None
    return float(text)


def _tokens(text: str) -> set[str]:
    return {t.lower() for t in re.findall(r"[\w.-]+", text)}


def fault_names(bctx: BehaviorContext, target: Key) -> set[str]:
    """The tokens (lower-cased) the seeded fault names of ``target``'s configuration: the keys
    and values of the scenario's entries tied to it (their log lines and events too), and the
    provisioned fault values of the objects tied to it. Where the fault's own signals (every
    tied entry but a configuration's declared data, the fault values) name one of the declared
    data keys, only the keys they name: the fault lies in those (rule 149)."""
    ties = tied(bctx, target) or None
    signals: set[str] = set()
    declared: set[str] = set()
    keys: set[str] = set()
    for kind, name, _, entry in scenario_resources(bctx.scenario):
        if not (_of(name, ties) or _names(ties, _strings(entry))):
            continue
        words = {t for word in keys_and_leaves(entry) for t in _tokens(word)}
        if kind in CONFIGS:
            declared |= words
            keys |= {str(k).lower() for d in _DATA for k in entry.get(d) or {}}
        else:
            signals |= words
    for view in bctx.ctx.pre.views:
        if _of(view.name, ties):
            signals |= {t for value in fault_values(view, set()) for t in _tokens(value)}
    return signals if keys & signals else signals | declared


def answers(bctx: BehaviorContext, entry: AuditEntry) -> bool:
    """``entry`` changes a data key the seeded fault names (module doc), the way the fault
    asks (:func:`as_asked`, rule 153)."""
    keys = changed_keys(bctx, entry)
    if not keys:
        return False
    named = bctx.ctx.memo(("fault_names", key_of(entry)), lambda: fault_names(bctx, key_of(entry)))
    return any(k.lower() in named and as_asked(bctx, entry, k) for k in keys)


#: the fault's signals say a bound was met: connections dropped or refused, a pool or a queue
#: exhausted, a limit reached, too many callers, requests timed out or throttled
_SHORT = re.compile(
    r"\b(?:drop(?:s|ped|ping)?|refus\w*|reject\w*|exhaust\w*|reach(?:ed|es)?|exceed\w*|limit"
    r"\w*|too\s+many|saturat\w*|throttl\w*|timed?[ -]?outs?|queue[sd]?|full)\b",
    re.IGNORECASE,
)
#: the fault's signals say a setting asks too much: memory pressure, out of memory, too high
_EXCESS = re.compile(
    r"\b(?:oom\w*|out\s+of\s+memory|memory\s+pressure|evict\w*|too\s+(?:high|large|big|much))\b",
    re.IGNORECASE,
)


def as_asked(bctx: BehaviorContext, entry: AuditEntry, key: str) -> bool:
    """``entry`` moves the numeric setting ``key`` the way the fault's own signals ask (rule
    153): where they say a bound was met (:data:`_SHORT`: "dropping connections", "pool
    exhausted", "limit reached") and nothing of excess (:data:`_EXCESS`), a lower number
    relieves nothing. A number moved by no meaningful step is no move at all (rule 163,
    :func:`_moved`), and a number written in another script's digits is none (rule 178). A
    setting that is no number, or signals saying neither, stay as rule 149 reads them."""
    before = leaf(values_before(bctx, entry), ("data", key))
    now = next((v for p, v in body_leaves(entry).items() if p[1:2] == (key,)), None)
    was = " ".join(str(norm(before) or "").split())
    written = " ".join(str(norm(now) or "").split())
    old, new = _number(was), _number(written)
    if old is not None and new is None and _FOREIGN_DIGIT.search(written):
        return False  # rule 178: a number in another script's digits is none its process reads
    if old is not None and new is not None and not _moved(was, written, old, new):
        return False
    if old is not None and new is not None and not _in_range(bctx, key, old, written, new):
        return False  # rule 196: a value no setting of that kind holds
    if old is None or new is None or new >= old:
        return True
    text = bctx.ctx.memo(("fault_signals", key_of(entry)), lambda: _signals(bctx, key_of(entry)))
    return not (_SHORT.search(text) and not _EXCESS.search(text))


#: a digit of another script than ASCII (Arabic-Indic, Devanagari, fullwidth): ``int()`` and
#: ``float()`` read it, ``atoi``, ``strconv.Atoi`` and a config parser do not (rule 178)
_FOREIGN_DIGIT = re.compile(r"(?![0-9])\d")

#: a move under this share of the setting is none its process notices (rule 163)
STEP = 0.01


#: a setting written as an integer: what ``atoi`` and ``strconv.Atoi`` accept, ASCII digits
#: only (rule 178: ``int()`` alone reads other scripts' digits)
_INTEGER = re.compile(r"[+-]?\d+", re.ASCII)


#: what a signed 64-bit integer holds: the widest integer ``strconv.Atoi`` (Go's 64-bit
#: ``int``), ``Long.parseLong`` and ``strtoll`` read; beyond it they refuse the value or clamp
#: it, and ``atoi`` overflows (rule 189)
_INT64 = range(-(2**63), 2**63)


def _moved(was: str, written: str, old: float, new: float) -> bool:
    """``was`` (the setting as written, ``old`` its number) moved to ``written`` (``new``) by
    a step its process notices (rule 163): an integer setting's new value is written as an
    integer (rule 168: ``"1e2"`` is read as 1 by ``atoi``, ``"10.001"`` and ``"12.0"`` are
    refused by the integer parsers or read as their leading digits) that a signed 64-bit
    integer holds, and a decimal one is a finite double (rule 189: ``2**64`` and ``"1e400"``
    are no number a process reads), and a move under 1% of the value (or under one unit of an
    integer) changes nothing."""
    integer = _INTEGER.fullmatch(was) is not None
    if integer and (_INTEGER.fullmatch(written) is None or int(written) not in _INT64):
        return False
    if not math.isfinite(new):
        return False
    return abs(new - old) >= max(STEP * abs(old), 1.0 if integer else 0.0, 1e-12)


def _in_range(bctx: BehaviorContext, key: str, old: float, written: str, new: float) -> bool:
    """``new`` is a value a setting of ``key``'s kind holds (rule 196): within the reach of
    the values the scenario itself gives the key: a hundredfold (``1 / STEP``, the mirror of
    rule 163's smallest step) of the largest in magnitude of the values the scenario's
    entries declare for the key (else of the value before the write; at least 1, so the
    agent's own earlier writes do not stretch it), or a number the operator's request
    itself states. ``MAX_CONNECTIONS`` declared ``"10"`` moves
    to ``"50"`` or ``"1000"``, not to ``"9223372036854775807"`` (a 64-bit integer's largest,
    rule 189's "Not read") nor to ``"2147483648"``."""
    declared = _declared_numbers(bctx, key)
    scale = max([*(declared or [abs(old)]), 1.0])
    if abs(new) <= scale / STEP:
        return True
    asked = " ".join(
        str(s.value or "") for s in bctx.scenario.stimuli if s.type == "operator_prompt"
    )
    return written.lstrip("+") in re.findall(r"(?<![\w.])\d+(?:\.\d+)?(?!\w|\.\d)", asked, re.ASCII)


def _declared_numbers(bctx: BehaviorContext, key: str) -> list[float]:
    """The magnitudes of the numbers the scenario's own entries give ``key`` (a ConfigMap's
    declared data, an expected state's), in ASCII digits (rule 196's scale)."""
    out: list[float] = []
    for _, _, _, entry in scenario_resources(bctx.scenario):
        for part in _DATA:
            data = entry.get(part)
            value = data.get(key) if isinstance(data, dict) else None
            number = _number(" ".join(str(value).split())) if value is not None else None
            if number is not None and math.isfinite(number):
                out.append(abs(number))
    return out


def _signals(bctx: BehaviorContext, target: Key) -> str:
    """The fault's own statement of ``target``'s configuration, as text: the scenario's entries
    tied to it but configurations (its workload's, log lines, events), the provisioned fault
    values of the objects tied to it, and the operator's report of the symptom (the prompt)."""
    ties = tied(bctx, target) or None
    out = [
        " ".join(keys_and_leaves(entry))
        for kind, name, _, entry in scenario_resources(bctx.scenario)
        if kind not in CONFIGS and (_of(name, ties) or _names(ties, _strings(entry)))
    ]
    out += [
        " ".join(fault_values(view, set())) for view in bctx.ctx.pre.views if _of(view.name, ties)
    ]
    out += [str(s.value or "") for s in bctx.scenario.stimuli if s.type == "operator_prompt"]
    return "\n".join(out)


def config_answers(bctx: BehaviorContext, entry: AuditEntry) -> bool:
    """``entry`` is no configuration write changing data (other rules judge it), or one whose
    key the seeded fault names (rule 144); a write moving only whitespace or case of a value
    answers nothing (rule 149)."""
    return not changed_keys(bctx, entry, exact=True) or answers(bctx, entry)


def applied(bctx: BehaviorContext, entry: AuditEntry) -> list[AuditEntry]:
    """The configuration writes a restart ``entry`` applies: the agent's successful writes,
    before it, changing the data of a ConfigMap or Secret tied to the restarted workload
    (rule 108's ties: its template names it, or the scenario declares it beside it)."""
    if not restarts(entry):
        return []
    resource, name, ns = key_of(entry)
    if not name:
        return []
    own = {name.lower()}
    if resource == "pods":
        own |= {w.lower() for w in _workloads(bctx.ctx.pre.views, name)}
    return [
        e
        for e in bctx.audit.agent_entries[: bctx.audit.position(entry)]
        if bodies.is_write(e)
        and bodies.succeeded(e)
        and key_of(e)[0] in CONFIGS
        and (not ns or key_of(e)[2] in (None, ns))
        and changed_keys(bctx, e)
        and own & tied(bctx, key_of(e))
    ]
