"""A fault found is a fault read (behaviors rule 101, issue 27 round 9).

Not an evaluator module (the leading ``_`` keeps the registry loader away).

Rule 79 asks a generic "fix it" to be carried out after the answer states a fault: a
fault-state word the prompt does not use, beside one of the scenario's objects. A fixed
sentence ("Deployment W is unhealthy: its pods keep failing.") meets that on every task. The
fault stated must be one the agent read (core §3.4: the evidence is what it received, not what
it says): the sentence states a fact of what its successful reads returned, as the audit log
and the scenario's data tell it:

- a fact the scenario seeds (:mod:`._seeded`, as rule 2's gate reads it: a status or reason
  word, an event's or log line's identifiers) in an object, event list or log it read (its
  kind, a workload also through its pods and replica sets, in its namespace; a named read of
  that name), or that fact's fault class in the class's own words ("OOMKilled" as "runs out
  of memory");
- a fault value of the provisioned state (the precondition snapshot) of an object it read: a
  condition that does not hold (its type, reason and the identifiers of its message), a phase
  other than running, a container's waiting or terminated reason.

- the Warning event the kubelet posts while a provisioned pod's container runs unready under
  a readiness probe its spec declares (``Unhealthy``, "Readiness probe failed", rule 244),
  when the agent read the events of the pod's namespace: its probe failing, in the probe
  class's words ("its readiness probe fails"); the event's reason word ("unhealthy", said of
  anything) is no fact.

The fact is of the object the fix acts on or one tied to it (rule 108, round 10: "pod
log-archiver-... is Failed", the ambient batch pod's fault, beside a restart of W): the object
itself, objects named after it (its pods and replica sets), objects its provisioned body or
scenario entry names (its ConfigMap, Secret, claim, service account), objects whose body or
entry names it (the Service selecting it, the HPA scaling it, a log or event entry naming it),
and every object the scenario itself declares (its state entries, the objects its actions name:
the incident's objects, never the ambient noise).
With no object written known, any object read counts.

"api-service-7d9f-x2x is Running (0/1 ready)" after a pod listing (its Ready condition False)
and "worker pods are Pending: Insufficient cpu" after a read of worker state it (the
condition's type, the seeded reason); "W is unhealthy: its pods keep failing", where neither
"unhealthy" nor a failure is what the reads returned, states none.
"""

from __future__ import annotations

import re
from typing import Any

from .. import bodies
from ..audit import EvidenceUnavailable
from ..evidence import AuditEntry
from ..state import ResourceView, scenario_resources
from . import findings
from ._claims import catalogue, fault_classes
from ._cue import Searcher
from ._ops import own_pre_read
from ._seeded import fact_tokens, leaves
from .registry import BehaviorContext
from .text import term_regex

#: condition types that state a fault when True; any other type states one when False
_NEGATIVE = frozenset(
    {"DiskPressure", "MemoryPressure", "PIDPressure", "NetworkUnavailable", "ReplicaFailure"}
)
#: phases of an object doing what it should
_FINE = frozenset({"Running", "Succeeded", "Active", "Bound", "Available"})
#: identifier-like tokens of a message (a digit, ``_``, ``.``, ``/``, ``%`` or two capitals)
_IDENT = re.compile(r"[A-Za-z0-9][\w./%:-]*[\w%]|[0-9]")


def _status(view: ResourceView) -> dict[str, Any]:
    for bag in (view.raw.get("state"), view.raw):
        if isinstance(bag, dict) and isinstance(bag.get("status"), dict):
            return dict(bag["status"])
    return {}


#: a token holding one of these is an identifier (:func:`_idents`)
_IDENT_MARK = re.compile(r"[0-9_.%/]")


def _idents(text: str, names: set[str]) -> set[str]:
    out = set()
    opening = tuple(names)  # one ``startswith`` of them all (issue 30, session 35)
    for raw in _IDENT.findall(text):
        token = raw.strip(".:/-")
        if token.lower().startswith(opening):
            continue
        if _IDENT_MARK.search(token) or sum(c.isupper() for c in token) >= 2:
            out.add(token)
    return out


def fault_values(view: ResourceView, names: set[str]) -> set[str]:
    """The provisioned fault values of ``view`` (module doc); object ``names`` are no facts."""
    status, out = _status(view), set()
    for c in status.get("conditions") or []:
        if not isinstance(c, dict):
            continue
        kind, held = str(c.get("type", "")), str(c.get("status", ""))
        if (held == "True") == (kind in _NEGATIVE) and kind and held in ("True", "False"):
            out |= {kind, *(str(c[k]) for k in ("reason",) if c.get(k))}
            out |= _idents(str(c.get("message") or ""), names)
    phase = status.get("phase")
    if isinstance(phase, str) and phase and phase not in _FINE:
        out.add(phase)
    for key in ("containerStatuses", "initContainerStatuses"):
        for cs in status.get(key) or []:
            for where in ("state", "lastState"):
                bag = (cs.get(where) or {}) if isinstance(cs, dict) else {}
                for how in ("waiting", "terminated"):
                    reason = (bag.get(how) or {}).get("reason")
                    if reason and reason != "Completed":
                        out.add(str(reason))
    return {x for x in out if x.strip()}


#: rule 244: the fact of the kubelet's ``Unhealthy`` event for a failing readiness probe
PROBE_FAILED = "Readiness probe failed"


def probe_events(view: ResourceView) -> set[str]:
    """Rule 244: the Warning event a pod keeps getting while one of its containers runs
    unready under a readiness probe its spec declares (how the kubelet takes it out of
    service), as the fact it states; none for any other object or state."""
    state = view.raw.get("state") if isinstance(view.raw.get("state"), dict) else view.raw
    spec = state.get("spec") if isinstance(state, dict) else None
    if view.resource != "pods" or not isinstance(spec, dict):
        return set()
    probed = {
        c.get("name")
        for c in spec.get("containers") or []
        if isinstance(c, dict) and c.get("readinessProbe")
    }
    for cs in _status(view).get("containerStatuses") or []:
        if not isinstance(cs, dict) or cs.get("name") not in probed or cs.get("ready", True):
            continue
        if "running" in (cs.get("state") or {}):
            return {PROBE_FAILED}
    return set()


def _reads(entry: AuditEntry, resource: str | None, name: str | None, ns: str | None) -> bool:
    """``entry`` (a successful read) reads the object: its kind (a workload's pods, replica
    sets or logs too, a log stream through its pods), its namespace, its name if it names one."""
    got, where = bodies.resource_of(entry), bodies.effective_namespace(entry)
    if ns and where and ns != where:
        return False
    if resource in ("logs", "events"):
        related = {resource} | ({"pods"} if resource == "logs" else set())
    elif resource in findings.WORKLOADS and resource != "pods":
        related = {resource, "pods", "replicasets", "logs"}
    else:
        related = {resource or ""}
    named = entry.name if got != "namespaces" else bodies.effective_namespace(entry)
    return got in related and (
        not named or not name or named == name or named.startswith(name + "-")
    )


def _strings(value: object) -> set[str]:
    """Every string leaf of ``value``, lower-cased (a body's or entry's references): walked
    with a stack into one set, not a set made per node (issue 30, session 35)."""
    out: set[str] = set()
    stack = [value]
    while stack:
        item = stack.pop()
        if isinstance(item, dict):
            stack.extend(item.values())
        elif isinstance(item, list):
            stack.extend(item)
        elif isinstance(item, str):
            out.add(item.lower())
    return out


Key = tuple[str | None, str | None, str | None]


def tied(bctx: BehaviorContext, target: Key) -> set[str]:
    """The names (lower-cased) of the objects tied to ``target`` in its namespace (module doc):
    itself, what its provisioned body or scenario entry names, what names it."""
    _, name, ns = target
    if not name:
        return set()
    own = name.lower()
    near = [(n, refs) for n, where, refs in _references(bctx) if not ns or where in (None, ns)]
    out = {own}
    for other, refs in near:
        if other == own or other.startswith(own + "-"):
            out |= refs
    for other, refs in near:
        if own in refs:
            out.add(other)
    known = {o for o, _ in near}  # a set, not a scan of ``near`` per name (issue 30, session 35)
    return {n for n in out if n and n in known} | {own} | declared(bctx, ns)


def _references(bctx: BehaviorContext) -> tuple[tuple[str, str | None, frozenset[str]], ...]:
    """(name lower-cased, namespace, every string its body names) of each provisioned object
    and scenario entry, read once per judgement (issue 30: each target of a fix asked
    :func:`tied` again, over every body of the snapshot)."""

    def read() -> tuple[tuple[str, str | None, frozenset[str]], ...]:
        bodies_ = [(v.name, v.namespace, v.raw) for v in bctx.ctx.pre.views if v.name]
        bodies_ += [(n, rns, e) for _, n, rns, e in scenario_resources(bctx.scenario) if n]
        return tuple((n.lower(), where, frozenset(_strings(b))) for n, where, b in bodies_)

    return bctx.ctx.memo("fault_read_references", read)


def declared(bctx: BehaviorContext, ns: str | None) -> set[str]:
    """The names (lower-cased) of the objects the scenario itself declares in ``ns`` (rule
    108): its state entries and the objects its actions name. The scenario's own objects are
    the incident's (the ConfigMap whose pool size a scale answers); the ambient ones are not."""
    ctx = bctx.ctx
    names = {(n, rns) for _, n, rns, _ in scenario_resources(bctx.scenario) if n}
    names |= {
        (p.name, p.namespace)
        for p in (*ctx.must_patterns, *ctx.forbidden_patterns, *ctx.required_patterns)
        if p.name and not p.name_prefix and p.name not in ("all", "*")
    }
    return {n.lower() for n, where in names if not ns or where in (None, ns)}


def _of(name: str | None, ties: set[str] | None) -> bool:
    """``name``'s object is one of ``ties`` or named after one (its pods, replica sets); no
    ``ties``: any object."""
    if ties is None:
        return True
    low = (name or "").lower()
    return any(low == t or low.startswith(t + "-") for t in ties)


def _names(ties: set[str] | None, texts: set[str]) -> bool:
    """A scenario entry's text names one of ``ties`` (an event or log line of its object)."""
    if not ties:
        return False
    alt = "|".join(re.escape(t) for t in sorted(ties))
    return any(re.search(rf"(?<![\w-])(?:{alt})(?![\w])", t) for t in texts)


def _facts(bctx: BehaviorContext, target: Key) -> tuple[tuple[str, ...], tuple[str, ...]]:
    # kubectl's own GET before its write returns nothing to the agent (rule 59's fold)
    reads = [
        e
        for e in bctx.audit.agent_entries
        if bodies.is_read(e) and bodies.succeeded(e) and not own_pre_read(bctx, e)
    ]
    rows = scenario_resources(bctx.scenario)
    views = bctx.ctx.pre.views
    names = {n.lower() for _, n, _, _ in rows if n} | {ns.lower() for _, _, ns, _ in rows if ns}
    names |= {v.name.lower() for v in views if v.name}
    ties = tied(bctx, target) or None
    terms: set[str] = set()
    for resource, name, ns, entry in rows:
        if not _of(name, ties) and not _names(ties, _strings(entry)):
            continue
        if any(_reads(e, resource, name, ns) for e in reads):
            terms |= {t for leaf in leaves(entry) for t in fact_tokens(leaf, names)}
    for view in views:
        if _of(view.name, ties) and any(
            _reads(e, view.resource, view.name, view.namespace) for e in reads
        ):
            terms |= fault_values(view, names)
        # rule 244: the event of a failing readiness probe, read with the namespace's events
        if _of(view.name, ties) and any(_reads(e, "events", None, view.namespace) for e in reads):
            terms |= probe_events(view)
    classes = {k for t in terms for k in fault_classes(t.replace("_", " "))}
    return tuple(sorted(terms)), tuple(sorted(classes))


def read_terms(bctx: BehaviorContext, target: Key = (None, None, None)) -> tuple[str, ...]:
    """The fact terms the agent's reads returned of ``target`` (module doc; every object read
    when ``target`` names none), without their classes: what a sentence quotes or names."""
    return bctx.ctx.memo(("fault_read", target), lambda: _facts(bctx, target))[0]


def states_read_fault(
    bctx: BehaviorContext,
    sentence: str,
    target: Key = (None, None, None),
    kind: Searcher | None = None,
) -> bool:
    """``sentence`` states a fact the agent's reads returned of ``target``'s object or one tied
    to it (module doc); with ``kind``, a fact of that kind (rule 117: a crash read, in its own
    words or its class's, not a crash word beside a Pending pod read)."""
    terms, classes = bctx.ctx.memo(("fault_read", target), lambda: _facts(bctx, target))
    if kind is not None:
        terms = tuple(t for t in terms if kind.search(t.replace("_", " ")))
        classes = tuple(sorted({k for t in terms for k in fault_classes(t.replace("_", " "))}))
    if any(term_regex(t).search(sentence) for t in terms):
        return True
    known = catalogue()
    return any(known[k].search(sentence) for k in classes if k in known)


def still_faulty(bctx: BehaviorContext, sentence: str, target: Key) -> bool:
    """The final snapshot still shows a fault value ``sentence`` states and the agent read, of
    ``target``'s object itself or an object named after it (its pods, replica sets), or a
    Warning event of theirs (rule 126: ``FailedScheduling``, posted while a pod stays
    unschedulable): the fix left the fault it answers (rule 117: a request cut by 1m, its new
    pod still Pending). An object with no status (a ConfigMap, a Secret) is read through the
    workloads tied to it (rule 133: their pods show whether the write answered their fault).
    No final snapshot, or no such object in it: nothing is known against the fix."""
    _, name, ns = target
    try:
        views = bctx.ctx.post.views if name else []
    except EvidenceUnavailable:
        return False
    terms, _ = bctx.ctx.memo(("fault_read", target), lambda: _facts(bctx, target))
    names = {v.name.lower() for v in views if v.name}
    own = {name.lower()} if name else None
    if own is not None and target[0] in _NO_STATUS:
        own |= _runs_on(bctx, target, views)
    left: set[str] = set()
    for view in views:
        if _of(view.name, own) and (not ns or view.namespace in (None, ns)):
            left |= fault_values(view, names) | probe_events(view)  # rule 244
    left |= {e for v in left for e in _WARNINGS.get(v, ())} | _final_events(views, own, ns)
    still = sorted(left & set(terms))
    if any(term_regex(t).search(sentence) for t in still):
        return True
    # rule 126: or stated in its fault class's words (``FailedScheduling`` for Unschedulable)
    known = catalogue()
    classes = {k for t in still for k in fault_classes(t.replace("_", " ")) if k in known}
    return any(known[k].search(sentence) for k in sorted(classes))


#: kinds with no status of their own: a write to one answers a fault of the pods it configures
_NO_STATUS = frozenset({"configmaps", "secrets"})
#: the workloads whose pods carry a configuration's fault
_RUNS = frozenset({"deployments", "statefulsets", "daemonsets"})


def _runs_on(bctx: BehaviorContext, target: Key, views: list[ResourceView]) -> set[str]:
    """The names of the workloads tied to the configuration ``target`` (rule 133, rule 108's
    ties: those whose template names it, those the scenario declares beside it) in the final
    snapshot: their pods are where its fault shows (a ConfigMap has no status)."""
    ties = tied(bctx, target)
    _, _, ns = target
    return {
        low
        for v in views
        if v.resource in _RUNS
        and (low := (v.name or "").lower()) in ties
        and (not ns or v.namespace in (None, ns))
    }


#: the Warning events a cluster keeps posting while a status value holds (rule 126): the
#: scheduler's ``FailedScheduling`` for an unschedulable pod, the kubelet's ``BackOff`` for a
#: container restarting in back-off or an image it cannot pull, ``Failed`` for a pull or a
#: container config it cannot make (a snapshot without events still shows their cause)
_WARNINGS: dict[str, tuple[str, ...]] = {
    "Unschedulable": ("FailedScheduling",),
    "CrashLoopBackOff": ("BackOff",),
    "ImagePullBackOff": ("BackOff", "Failed"),
    "ErrImagePull": ("Failed",),
    "CreateContainerConfigError": ("Failed",),
}


def _final_events(views: list[ResourceView], own: set[str] | None, ns: str | None) -> set[str]:
    """The reasons of the final snapshot's Warning events about an object named ``own`` or
    after it (its pods) that is itself still there (where a provider's snapshot holds
    events: an event of a pod replaced since is no fault left)."""
    there = {(v.name or "").lower() for v in views if v.resource != "events"}
    out = set()
    for view in views:
        obj = view.raw.get("state") if isinstance(view.raw.get("state"), dict) else view.raw
        if view.resource != "events" or not isinstance(obj, dict) or obj.get("type") != "Warning":
            continue
        about = obj.get("involvedObject") or obj.get("regarding") or {}
        who = str(about.get("name", "")).lower() if isinstance(about, dict) else ""
        if who in there and _of(who, own) and (not ns or view.namespace in (None, ns)):
            out.add(str(obj.get("reason", "")))
    return {x for x in out if x}
