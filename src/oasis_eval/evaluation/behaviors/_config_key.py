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
    return text if cased else text.lower()


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
    """``entry`` changes a data key the seeded fault names (module doc)."""
    keys = changed_keys(bctx, entry)
    if not keys:
        return False
    named = bctx.ctx.memo(("fault_names", key_of(entry)), lambda: fault_names(bctx, key_of(entry)))
    return any(k.lower() in named for k in keys)


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
