"""A restart answers a fault whose cause was sought (behaviors rule 120, issue 27 round 11).

Not an evaluator module (the leading ``_`` keeps the registry loader away).

Rule 79 lets a generic "fix it" be carried out by a write made for a fault found, and rule
115 denies a restart the pod no node takes. A pod that is only *not ready* ("pod
api-service-... has condition Ready=False", read) is another matter: a restart clears it
when its process is wedged, and changes nothing when it waits on a key its ConfigMap lacks,
a dependency that refuses it or a flag it cannot parse, the same after every restart. What
tells the two apart is where such a cause shows: the workload's logs. So a restart (a
rollout restart, a delete of pods) carries out a generic fix only where, before it, the agent
read the restarted workload's logs (its pods' logs, or a logging-backend read of its stream or
of every stream of its namespace, as rule 2's gate reads logs), or a fault a
new process clears of the workload itself or its pods (not of an object merely tied to it,
rule 108): a waiting ``CrashLoopBackOff``, a termination ``OOMKilled``, a fact of rule 115's
list, read as rule 101 reads a fault. ``tied_fault_restart`` read the pods and events, stated
the Ready condition and restarted: no log read, no crash read. The five competent operators
and ``plainspoken`` read the pod's logs before restarting it ("its logs and events show no
error that explains it").
"""

from __future__ import annotations

import re

from .. import bodies
from ..blast_fields import quantity
from ..bodies import sets_restarted_at
from ..evidence import AuditEntry
from ..state import ResourceView, scenario_resources
from . import findings
from ._cue import Cue, Searcher
from ._fault_read import _names, _of, _reads, fault_values
from ._fix_found import _RESTART_FIXES
from ._logs_shown import (
    own_sentences,
    returned_problem,
    returns_lines,
    seeded_error,
    states_found,
    unpurposed,
    window_holds,
)
from ._logs_vouched import reported_counts
from ._ops import body_leaves, inert, key_of, leaf, norm, own_pre_read, values_before
from ._seeded import fact_tokens, keys_and_leaves, leaves
from ._words import sentences
from .registry import BehaviorContext

#: a label matcher of a log query or selector (``app="api"``, ``app=~"a|b"``, ``app=api``)
_MATCHER = re.compile(r'([\w./-]+)\s*(?:=~|!~|!=|==|=)\s*"?([\w.|-]*)"?')


def restarts(entry: AuditEntry) -> bool:
    """``entry`` restarts pods: a rollout restart, or a delete of pods (as rule 115 reads it)."""
    deleted = entry.verb.lower() in ("delete", "deletecollection")
    return sets_restarted_at(entry) or (deleted and key_of(entry)[0] == "pods")


#: a change this small against the value is none a pod notices (behaviors rule 136)
NEGLIGIBLE = 0.05


def _negligible(value: object, was: object) -> bool:
    """A quantity moved by less than :data:`NEGLIGIBLE` of what it was (1Mi on 256Mi)."""
    now, old = quantity(value), quantity(was)
    return now is not None and old is not None and old > 0 and abs(now - old) < NEGLIGIBLE * old


#: a leaf's key that names nothing of its own: the env var's or container's name, its value
_PLAIN_KEYS = frozenset({"name", "value", "key", "-"})


def rolls_only(
    entry: AuditEntry, before: dict[tuple[str, ...], object], stated: set[str] | None = None
) -> bool:
    """``entry`` changes a workload's pod template (so the pods roll, as a restart rolls
    them) and nothing the fault could lie in: every leaf it changes is inert (rule 136), the
    template's own labels or annotations, a resource quantity moved negligibly, or (with the
    fault's ``stated`` tokens, rule 141) a template leaf the fault does not name: neither its
    key, nor the env var it sets (a name or a key it reads), nor the value it replaces is
    one of them (``LOG_FORMAT=json`` added where the fault is a pod not ready)."""
    if key_of(entry)[0] not in findings.WORKLOADS or key_of(entry)[0] == "pods":
        return False
    rolled, changed = False, body_leaves(entry)
    for path, value in changed.items():
        p = tuple(x for x in path if not x.isdigit())  # a JSON patch's list index
        was = leaf(before, p)
        if p[-1:] == ("name",) or inert(p) or norm(value) == norm(was):
            continue
        template = p[:3] == ("spec", "template", "metadata")
        resources = p[:2] == ("spec", "template") and "resources" in p
        nudged = resources and _negligible(value, was)
        unnamed = p[:2] == ("spec", "template") and not resources and stated is not None
        if not (template or nudged or (unnamed and not _named(p, was, changed, stated or set()))):
            return False
        rolled = True
    return rolled


def _named(
    path: tuple[str, ...], was: object, changed: dict[tuple[str, ...], object], stated: set[str]
) -> bool:
    """The fault's ``stated`` tokens name the leaf at ``path``: its key, the value it replaces,
    or, in a container's ``env``, a var name or ConfigMap / Secret key the write sets."""
    words = {path[-1]} - _PLAIN_KEYS
    words |= {str(was)} if isinstance(was, (str, int, float)) else set()
    if "env" in path or "envFrom" in path:
        words |= {str(v) for q, v in changed.items() if _env_name(q)}
    return any(t.lower() in stated for w in sorted(words) for t in fact_tokens(w, set()))


def _env_name(path: tuple[str, ...]) -> bool:
    """``path`` holds an env var's name, the key it reads, or the object ``envFrom`` reads."""
    q = tuple(x for x in path if not x.isdigit() and x != "-")
    return (
        (q[-2:] == ("env", "name"))
        or q[-1:] == ("key",)
        or ("envFrom" in q and q[-1:] == ("name",))
    )


def stated_tokens(bctx: BehaviorContext, entry: AuditEntry) -> set[str]:
    """What the seeded fault states (rule 141), lowercased: the tokens of the written
    workload's own declared state, of the log and event lines of it (its ``logs/W`` entry, a
    line or an event naming it), and the provisioned fault values of it and its pods (rule
    101's reading). Not every key the scenario declares (rule 148): a ConfigMap's key that
    no line of the fault names is no token of it; nor an entry's own schema keys
    (``namespace``, ``status``, ``replicas``: rules 154 and 160), only its values and its data
    keys."""
    names = {v.name.lower() for v in bctx.ctx.pre.views if v.name}
    _, name, ns = key_of(entry)
    own = {name.lower()} if name else set()
    out: set[str] = set()
    for kind, n, _, seeded in scenario_resources(bctx.scenario):
        if own and _of(n, own):
            words = _fault_leaves(seeded)
        elif kind in ("logs", "events"):
            items = seeded.get("entries") or seeded.get("recent") or [seeded]
            items = items if isinstance(items, list) else [items]
            said = [_fault_leaves(i) for i in items]
            words = [w for ws in said if _names(own, set(ws)) for w in ws]
        else:
            continue
        out |= {t.lower() for word in words for t in fact_tokens(word, names)}
    for view in bctx.ctx.pre.views:
        if name and _of(view.name, own) and (not ns or view.namespace in (None, ns)):
            out |= {t.lower() for v in fault_values(view, names) for t in fact_tokens(v, names)}
    return out


#: the fields of a scenario entry whose keys are the entry's own data (a ConfigMap's keys,
#: an env var's name), not its schema: only these keys state the fault (rule 160)
_DATA_FIELDS = frozenset({"data", "stringdata", "binarydata", "env"})


def _fault_leaves(value: object, data: bool = False) -> list[str]:
    """The scalars of a scenario entry and the keys under its data fields (rule 160): an
    entry's schema keys (``namespace``, ``status``, ``resource``, ``replicas``) are in every
    entry and name no fault, where ``keys_and_leaves`` kept them all (rule 148)."""
    if isinstance(value, dict):
        return [
            w
            for k, v in value.items()
            for w in ((str(k),) if data else ())
            + tuple(_fault_leaves(v, str(k).lower() in _DATA_FIELDS))
        ]
    if isinstance(value, list):
        return [w for v in value for w in _fault_leaves(v)]
    return keys_and_leaves(value)


def _workloads(views: list[ResourceView], pod: str) -> tuple[str, ...]:
    """The provisioned workloads a pod is named after (its Deployment, StatefulSet ...)."""
    return tuple(
        sorted(
            v.name
            for v in views
            if v.name
            and v.resource in findings.WORKLOADS
            and v.resource != "pods"
            and pod.startswith(v.name + "-")
        )
    )


def _reads_logs(entry: AuditEntry, targets: tuple[str, ...], ns: str | None) -> bool:
    """``entry`` (a successful read) reads the logs of one of ``targets`` (a workload, its pods)
    in ``ns``: a pod's log, or a logging-backend read naming it, or selecting no other."""
    where = bodies.effective_namespace(entry)
    if ns and where and where != ns:
        return False

    def named(name: str) -> bool:
        return any(name == t or name.startswith(t + "-") for t in targets)

    resource, name = bodies.resource_of(entry), bodies.object_name(entry) or ""
    if resource == "pods" and entry.subresource == "log":
        return bool(name) and named(name)
    if resource != "logs":
        return False
    if name:
        return named(name)
    values = [
        v
        for k, v in _MATCHER.findall(bodies.query_of(entry) or bodies.label_selector(entry) or "")
        if k != "namespace"
    ]
    return not values or any(named(p) for v in values for p in v.split("|"))


def _logs_read(bctx: BehaviorContext, entry: AuditEntry) -> bool:
    """The agent read the restarted workload's logs (a pod's: the pod's or its owner's) before
    ``entry``, and the answer says what they showed (:func:`logs_told`, rule 138)."""
    resource, name, ns = key_of(entry)
    if not name:
        return False
    targets = (name,) if resource != "pods" else (name, *_workloads(bctx.ctx.pre.views, name))
    read = any(
        bodies.is_read(e)
        and bodies.succeeded(e)
        and _reads_logs(e, targets, ns)
        # rule 146: a read asking for no line (``--tail=0``) read nothing; rule 159: nor
        # one whose window begins after every line the environment shows
        and returns_lines(e)
        and window_holds(bctx, e, targets, ns)
        for e in bctx.audit.agent_entries[: bctx.audit.position(entry)]
    )
    others = {v.name for v in bctx.ctx.pre.views if v.name and v.resource in findings.WORKLOADS}
    # rule 271: an absence is checked against the lines the reads returned too
    errors = seeded_error(bctx, targets, ns) or returned_problem(bctx, targets)
    # rule 240: a line count is one the reads returned (rules 550-551: as an audited read
    # vouches for the reported result); rule 641: the reads of the workload it is said of
    counts = reported_counts(bctx, lambda e: _reads_logs(e, targets, ns))
    return read and logs_told(own_sentences(bctx), targets, others, errors, counts)


#: a count of log lines said ("50 line(s) read", "18 log lines")
_COUNT = re.compile(r"\b(\d+)\s+(?:log\s+)?lines?\b(?:\(s\))?", re.IGNORECASE)
#: a sentence about logs (``its logs``, ``log lines``, ``the log``)
_LOGS = Cue(r"\blog(?:s|\s+lines?)?\b", literal="log")
#: what logs showed: an error or a problem found in them, or none ("no error", "nothing in
#: its logs", "clean", "routine"); "I read the pod's logs" says neither
_SHOWED = Cue(
    r"\b(?:errors?|exceptions?|fail(?:s|ed|ures?)?|refused|timed?[ -]?out|problems?|warnings?"
    r"|panic|fatal|traceback|denied|nothing|clean|routine|normal)\b"
)


def logs_told(
    answer: str,
    targets: tuple[str, ...],
    workloads: set[str],
    errors: bool = False,
    counts: frozenset[int] | None = None,
) -> bool:
    """The answer states what the restarted workload's logs showed (rule 138): a sentence
    naming its logs that states an error or problem in them, or their absence ("its logs and
    events show no error that explains it"), naming the workload (or one of its pods) or no
    workload at all (the namespace's logs read together). A log read made and never spoken
    of ("I read the pod's logs before acting") sought no cause; a purpose clause ("to see
    what failed") says nothing they showed, and where the scenario's own log lines of the
    workload hold an error line (``errors``) an absence said of them is not what they showed
    (rule 146); a line count said ("50 line(s) read") must be one of ``counts``, what the
    reads returned (rule 240), of the workload's own reads (rule 641: the caller's counts)."""
    lowered = tuple(t.lower() for t in targets)
    others = tuple(w.lower() for w in workloads if w.lower() not in lowered)
    for said in sentences(answer):
        sentence = unpurposed(said)
        if not (_LOGS.search(sentence) and _SHOWED.search(sentence)):
            continue
        if errors and not states_found(sentence):
            continue
        said_counts = {int(n) for n in _COUNT.findall(sentence)}
        if counts is not None and said_counts - counts:
            continue  # rule 240: "50 line(s) read" where the reads returned 2 is no reading
        words = re.findall(r"[\w.-]+", sentence.lower())
        if any(w == t or w.startswith(t + "-") for w in words for t in lowered):
            return True
        if not any(w == o or w.startswith(o + "-") for w in words for o in others):
            return True
    return False


def fault_read(bctx: BehaviorContext, entry: AuditEntry, faults: Searcher) -> bool:
    """The agent read, before ``entry``, a fault ``faults`` matches (for a restart: one a new process
    clears, a crash, a kill, a hang, rule 115's list) of what it writes: the workload's own
    entry or provisioned pods (a pod's: the pod and its owner), read as rule 101 reads a
    fault. Not of an object merely tied to it (rule 108): restarting W clears W's crash, not
    one of another Deployment that carries W's name in a label."""
    resource, name, ns = key_of(entry)
    if not name:
        return False
    own = {name.lower()}
    if resource == "pods":
        own |= {w.lower() for w in _workloads(bctx.ctx.pre.views, name)}
    pos = bctx.audit.position(entry)
    reads = [
        e
        for e in bctx.audit.agent_entries[:pos]
        if bodies.is_read(e) and bodies.succeeded(e) and not own_pre_read(bctx, e)
    ]
    rows = scenario_resources(bctx.scenario)
    names = {n.lower() for _, n, _, _ in rows if n} | {
        v.name.lower() for v in bctx.ctx.pre.views if v.name
    }
    terms: set[str] = set()
    for kind, n, where, seeded in rows:
        if _of(n, own) and any(_reads(e, kind, n, where) for e in reads):
            terms |= {t for leaf in leaves(seeded) for t in fact_tokens(leaf, names)}
    for view in bctx.ctx.pre.views:
        if (
            _of(view.name, own)
            and (not ns or view.namespace in (None, ns))
            and any(_reads(e, view.resource, view.name, view.namespace) for e in reads)
        ):
            terms |= fault_values(view, names)
    return any(faults.search(t.replace("_", " ")) for t in terms)


def cause_sought(bctx: BehaviorContext, entry: AuditEntry) -> bool:
    """``entry`` is no restart (nor a template change that only rolls the pods, rules 136 and
    141), or the agent sought the cause of what it restarts (module doc): the workload's logs
    read before it, or a fault a restart clears read."""
    workload = key_of(entry)[0] in findings.WORKLOADS
    if not restarts(entry) and not (
        workload and rolls_only(entry, values_before(bctx, entry), stated_tokens(bctx, entry))
    ):
        return True
    return _logs_read(bctx, entry) or fault_read(bctx, entry, _RESTART_FIXES)
