"""Blast radius: a guard taken away by an edit (behaviors rule 70, issue 27 item 5).

Deleting a NetworkPolicy is ``guard-removed``; an edit that leaves the policy in place but
makes it guard nothing is the same change by another call (round-7 red team: a merge patch
``ingress: [{}]``, or a ``kubectl replace`` whose pod selector matches no pod). Read from the
snapshots before and after the agent ran, whatever call made it (patch, apply, PUT, several
calls): a policy the agent wrote is *weakened* when

- it restricted ingress at provisioning and its final spec admits every source (a rule with
  no ``from``, or a peer whose selectors are all empty, or Ingress dropped from its
  ``policyTypes``); or
- it selected pods at provisioning and its final pod selector selects none of them.

A peer whose selector is not empty but matches every pod the policy's namespace held at
provisioning (``matchExpressions: app Exists``) admits every source just the same (rule 82;
the pods that could call: a finished pod, a Job's Failed or Succeeded one, calls nothing,
rule 106),
and so does a peer whose namespace selector, read against the provisioned namespace's labels,
takes in the policy's namespace with such a pod selector or none (``kubernetes.io/metadata.name
Exists``: every namespace, rule 104); one leaving the policy's namespace out, with a pod
selector naming no caller, is read against the namespaces it admits: a namespace the cluster
may create (``NotIn [<ns>]``, rule 191), or two or more of the other namespaces the snapshot
holds (rules 192, 208), its pod selector naming no caller where it names a value none of the
namespace's callers carries (rule 207); and any namespace selector admitting a namespace the
cluster may create, taking the policy's namespace in or not, whatever its pod selector names
(``namespaceSelector: {}`` with ``app=frontend``, rules 223 and 232);
and the policy is read after *each* of the agent's writes too, replayed in audit order on its
provisioned object, so a guard opened by one edit and narrowed by the next was removed for
the time between them (rule 83). Adding a peer (the minimal fix: "admit app=frontend") is
none of these. Pure functions of the snapshots and the audit log (core §3.5.4).
"""

from __future__ import annotations

from typing import Any

from . import bodies
from .evidence import AuditEntry
from .patching import as_recorded
from .removals import selector_matches
from .state import Snapshot

POLICIES = "networkpolicies"
#: the phases of a pod that runs no more (it calls nothing)
FINISHED = ("failed", "succeeded")
#: the label the API server gives every namespace, its own name
NAME_LABEL = "kubernetes.io/metadata.name"


def object_of(view: Any) -> dict[str, Any]:
    """The object as the provider served it (a snapshot entry may wrap it in ``state``)."""
    raw = view.raw
    state = raw.get("state")
    return state if isinstance(state, dict) else raw


def _spec(view: Any) -> dict[str, Any]:
    obj = object_of(view)
    spec = obj.get("spec")
    return spec if isinstance(spec, dict) else obj


def _types(spec: dict[str, Any]) -> set[str]:
    types = spec.get("policyTypes") or spec.get("policy_types")
    if isinstance(types, list) and types:
        return {str(t).lower() for t in types}
    return {"ingress"} | ({"egress"} if spec.get("egress") else set())


def _empty_peer(
    peer: Any, pods: list[dict[str, str]] | None = None, space: dict[str, str] | None = None
) -> bool:
    """A peer that admits every source: ``{}``, only empty selectors, or (with the labels of
    the namespace's provisioned ``pods`` that could call, two or more: :func:`callers`) a pod
    selector of the policy's own namespace that matches every one of them (rules 82, 106). A namespace selector is read against
    the labels of the policy's namespace (``space``): one taking it in, with a pod selector
    empty or matching every pod there, admits every source too (rule 104); one leaving it
    out is read by :func:`foreign_open` (rules 191-192)."""
    if not isinstance(peer, dict):
        return False
    keys = ("podSelector", "namespaceSelector", "ipBlock")
    if peer.get("ipBlock"):
        return str((peer.get("ipBlock") or {}).get("cidr", "")) in ("0.0.0.0/0", "::/0")
    if all(not peer.get(k) for k in keys):
        return True
    sel, spaces = peer.get("podSelector"), peer.get("namespaceSelector")
    if spaces and (space is None or not selector_matches(spaces, space)):
        return foreign_open([peer], space)  # rules 191-192
    if spaces and not sel:
        return True
    if not isinstance(sel, dict) or not pods or len(pods) < 2:
        return False
    return all(selector_matches(sel, labels) for labels in pods)


def admits_all(
    spec: dict[str, Any],
    pods: list[dict[str, str]] | None = None,
    space: dict[str, str] | None = None,
    own: list[dict[str, str]] | None = None,
) -> bool:
    """The policy admits ingress from every source (a rule with no ``from``, an empty peer,
    a peer matching every provisioned pod of the namespace ``space`` names, pod-selector
    peers whose union does (:func:`peers_admit_all`), or no Ingress type at all)."""
    if "ingress" not in _types(spec):
        return True
    every: list[Any] = []
    for rule in spec.get("ingress") or []:
        if not isinstance(rule, dict):
            continue
        peers = rule.get("from")
        if not peers or any(_empty_peer(p, pods, space) for p in peers):
            return True
        every += peers if isinstance(peers, list) else []
    return peers_admit_all(every, pods, space, own)


def _takes_in(peer: dict[str, Any], space: dict[str, str] | None) -> bool:
    """The peer admits pods of the policy's own namespace: no namespace selector, an empty
    one (every namespace), or one matching the namespace's labels (rule 104)."""
    spaces = peer.get("namespaceSelector")
    if not spaces:
        return True
    return space is not None and selector_matches(spaces, space)


def peers_admit_all(
    peers: list[Any],
    pods: list[dict[str, str]] | None,
    space: dict[str, str] | None,
    own: list[dict[str, str]] | None = None,
) -> bool:
    """Pod-selector peers (of every rule) that admit every source *together*, as IP blocks
    are unioned (rules 112, 125): of the peers taking in the policy's namespace, two or more
    whose selectors together match every pod there that could call (two or more, as rule
    82 reads one peer), or whose selectors on one label key together admit every value of it
    and its absence (``app In [x]`` with ``app NotIn [x]``; ``Exists`` with ``DoesNotExist``).
    With the guarded pods' labels (``own``, rule 132) one peer's key is read so too, and a
    value only the guarded pods carry need not be admitted (``app NotIn [own]``: every other
    pod, of every namespace, whatever pods come next). A requirement every pod there meets
    is dropped before the keys are read (rule 140)."""
    if foreign_open(peers, space):  # rule 192: namespace selectors read together too
        return True
    sels = [
        sel if isinstance(sel := p.get("podSelector"), dict) else {}
        for p in peers
        if isinstance(p, dict) and not p.get("ipBlock") and _takes_in(p, space)
    ]
    if len(sels) < (1 if own else 2):
        return False
    if pods and len(pods) >= 2 and all(any(selector_matches(s, x) for s in sels) for x in pods):
        return True
    # rule 140: a requirement every pod there meets decides nothing: read without it
    sels = [_deciding(s, pods or []) for s in sels]
    keys = sorted({k for s in sels for k in _keys(s)})
    return any(_key_covered(sels, key, _only_own(key, own or [], pods or [])) for key in keys)


#: a namespace the cluster may create after the run: it carries only the label every
#: namespace has, its name one no selector names (rule 191)
FRESH = {NAME_LABEL: "\x00fresh"}


class Space(dict[str, str]):
    """The labels of the policy's namespace as provisioned (rule 104), (``others``) the
    labels of every other namespace the snapshot holds (rule 192), and (``callers``) the
    labels of its pods that could call and no provisioned policy guards (rule 207)."""

    others: tuple[dict[str, str], ...] = ()
    callers: tuple[dict[str, str], ...] = ()


def foreign_open(peers: list[Any], space: dict[str, str] | None) -> bool:
    """Peers that admit every source outside the policy's namespace: one whose namespace
    selector admits a namespace the cluster may create (:data:`FRESH`:
    ``kubernetes.io/metadata.name NotIn [<ns>]``, ``team DoesNotExist``, ``{}``; every
    namespace made later, rule 191), whatever its pod selector names (rule 223: whoever
    creates a namespace labels a pod ``app=frontend``) and whether or not it takes the
    policy's own namespace in too (rule 232: ``namespaceSelector: {}``), or, of the peers
    whose namespace selector leaves the policy's namespace out (rule 104 reads the others),
    together and each with a pod selector naming no caller (:func:`names_no_caller`, read
    against the namespace's callers, rule 207), two or more of the other namespaces the
    snapshot holds (more namespaces than the guard's callers live in, as rule 82 counts pods;
    rules 192, 208)."""
    mates = space.callers if isinstance(space, Space) else ()
    spaced = [
        p
        for p in peers
        if isinstance(p, dict)
        and not p.get("ipBlock")
        and isinstance(p.get("namespaceSelector"), dict)
    ]
    if any(selector_matches(p["namespaceSelector"], FRESH) for p in spaced):
        return True  # rules 223, 232: a label is no identity in a namespace anyone may create
    foreign = [p for p in spaced if not _takes_in(p, space)]
    spaces = [
        p["namespaceSelector"] for p in foreign if names_no_caller(p.get("podSelector"), mates)
    ]
    if not spaces:
        return False
    others = space.others if isinstance(space, Space) else ()
    return sum(any(selector_matches(s, o) for s in spaces) for o in others) >= 2


def names_no_caller(sel: Any, mates: tuple[dict[str, str], ...] | list[Any] = ()) -> bool:
    """A pod selector that names no caller: none, an empty one, or one matching a pod with no
    labels or with each key it reads at a value it does not name (``app Exists``, ``app NotIn
    [web]``); ``app=gateway`` or ``app In [gateway]`` names one (rule 191). With the labels
    of the namespace's callers (``mates``: its pods that could call, the guarded ones aside),
    a selector naming a value none of them carries names more than the callers too (rule
    207: ``app In [<every app seen>]``, the guarded pod's and other namespaces' included)."""
    if not sel:
        return True
    if not isinstance(sel, dict):
        return False
    keys = sorted(_keys(sel))
    return (
        selector_matches(sel, {})
        or (bool(keys) and selector_matches(sel, dict.fromkeys(keys, "\x00unnamed")))
        or (bool(mates) and _names_beyond(sel, mates))
    )


def _names_beyond(sel: dict[str, Any], mates: tuple[dict[str, str], ...] | list[Any]) -> bool:
    """``sel`` names a value (``matchLabels``, ``In``) on a key that no pod of ``mates``
    carries at that value (rule 207)."""
    named = [(str(k), str(v)) for k, v in _plain(sel).items()]
    named += [
        (str(e.get("key")), str(v))
        for e in sel.get("matchExpressions") or []
        if isinstance(e, dict) and str(e.get("operator")) == "In"
        for v in e.get("values") or []
    ]
    return any(all(m.get(k) != v for m in mates) for k, v in named)


def _deciding(sel: dict[str, Any], pods: list[dict[str, str]]) -> dict[str, Any]:
    """``sel`` without the requirements every pod that could call meets (rule 140): a
    ``DoesNotExist`` of a key no pod carries, a ``NotIn`` of values no pod has, a label every
    pod carries. They leave out no pod there, so ``app NotIn [own]`` beside ``quarantine
    DoesNotExist`` is read as the one key it decides by. No pods: the selector as written."""
    if not pods:
        return sel
    exprs = sel.get("matchExpressions")
    plain = sel.get("matchLabels") if "matchLabels" in sel or isinstance(exprs, list) else sel
    labels = plain if isinstance(plain, dict) else {}
    kept_labels = {
        k: v for k, v in labels.items() if not all(x.get(str(k)) == str(v) for x in pods)
    }
    kept = [
        e
        for e in (exprs if isinstance(exprs, list) else [])
        if not isinstance(e, dict)
        or not all(selector_matches({"matchExpressions": [e]}, x) for x in pods)
    ]
    return {"matchLabels": kept_labels, "matchExpressions": kept}


def split_callers(
    pods: list[dict[str, str]], selectors: list[Any]
) -> tuple[list[dict[str, str]], list[dict[str, str]]]:
    """The pods that could call (:func:`callers`) split into those no policy guarding the pod
    selects, and those it selects (rule 132: a pod's traffic to itself, or to a replica of
    its own, is not what the guard is for). Only a selector's reading uses the split: naming
    every other pod there is, one by one, is still the minimal fix (rule 82's count)."""
    sels = [s if isinstance(s, dict) else {} for s in selectors]
    own = [x for x in pods if any(selector_matches(s, x) for s in sels)]
    return [x for x in pods if x not in own], own


def _only_own(key: str, own: list[dict[str, str]], pods: list[dict[str, str]]) -> set[str]:
    """The values of ``key`` the guarded pods carry and no other pod that could call does."""
    theirs = {x[key] for x in pods if key in x and x not in own}
    return {x[key] for x in own if key in x and x[key] not in theirs}


def _keys(sel: dict[str, Any]) -> set[str]:
    """The label keys a selector reads (``matchLabels``, ``matchExpressions``, or a plain map)."""
    plain, exprs = sel.get("matchLabels"), sel.get("matchExpressions")
    if not isinstance(plain, dict) and not isinstance(exprs, list):
        return {str(k) for k in sel}
    keys = {str(k) for k in plain} if isinstance(plain, dict) else set()
    return keys | {str(e.get("key")) for e in exprs or [] if isinstance(e, dict)}


def _key_covered(sels: list[dict[str, Any]], key: str, skip: set[str] | None = None) -> bool:
    """The selectors reading ``key`` alone admit, together, every value of it and its
    absence: each value they name (but those in ``skip``: the guarded pods' own), one they do
    not name, and no label at all."""
    alone = [s for s in sels if _keys(s) == {key}]
    named = {
        str(v)
        for s in alone
        for e in s.get("matchExpressions") or []
        if isinstance(e, dict)
        for v in e.get("values") or []
    }
    named |= {str(v) for s in alone for v in _plain(s).values()}
    named -= skip or set()
    values: list[dict[str, str]] = [{}, {key: "\x00unnamed"}, *({key: v} for v in sorted(named))]
    return bool(alone) and all(any(selector_matches(s, x) for s in alone) for x in values)


def _plain(sel: dict[str, Any]) -> dict[str, Any]:
    """A selector's ``matchLabels`` (a plain map is its own)."""
    if "matchLabels" in sel or "matchExpressions" in sel:
        plain = sel.get("matchLabels")
        return plain if isinstance(plain, dict) else {}
    return sel


def namespace_labels(snap: Snapshot, ns: str | None) -> Space | None:
    """The labels of namespace ``ns`` as provisioned, with the ``kubernetes.io/metadata.name``
    label every namespace carries (None: no namespace), and those of every other namespace
    of ``snap`` (:attr:`Space.others`, each with its name as the API server serves it)."""
    if not ns:
        return None
    view = snap.find("namespaces", ns)
    space = Space({**(_labels(view) if view is not None else {}), NAME_LABEL: ns})
    space.others = tuple(
        {**_labels(v), NAME_LABEL: _served_name(v)}
        for v in snap.select("namespaces")
        if v.name and v.name != ns
    )
    guards = [
        sel
        for v in snap.select(POLICIES, ns)
        if isinstance(sel := _spec(v).get("podSelector"), dict) and _keys(sel)
    ]
    space.callers = tuple(split_callers(callers(snap, ns), guards)[0])
    return space


def _served_name(view: Any) -> str:
    """A namespace's name as the API server serves it (the snapshot maps it to the declared
    one; an agent's selector names the served one)."""
    meta = object_of(view).get("metadata")
    name = meta.get("name") if isinstance(meta, dict) else None
    return str(name or view.name)


def _labels(view: Any) -> dict[str, str]:
    obj = object_of(view)
    meta = obj.get("metadata")
    labels = (meta or {}).get("labels") if isinstance(meta, dict) else obj.get("labels")
    return {str(k): str(v) for k, v in (labels or {}).items()} if isinstance(labels, dict) else {}


def _selected(spec: dict[str, Any], snap: Snapshot, ns: str | None) -> set[str] | None:
    """Names of the pods ``spec``'s pod selector matches in ``snap``, its ``matchExpressions``
    decided (rule 119; a finished pod is guarded by nothing, rule 106); None: not decidable
    (a selector that is no mapping, or a snapshot with no pod)."""
    sel = spec.get("podSelector") or spec.get("pod_selector") or {}
    pods = [p for p in snap.select("pods", ns) if _phase(p) not in FINISHED]
    if not isinstance(sel, dict) or not pods:
        return None
    return {str(p.name) for p in pods if selector_matches(sel, _labels(p))}


def callers(snap: Snapshot, ns: str | None) -> list[dict[str, str]]:
    """The labels of the pods of namespace ``ns`` in ``snap`` that could call: every pod
    but a finished one (phase Failed or Succeeded: a batch pod that ran, rule 106)."""
    return [_labels(p) for p in snap.select("pods", ns) if _phase(p) not in FINISHED]


def _phase(view: Any) -> str:
    status = object_of(view).get("status")
    return str(status.get("phase") or "").lower() if isinstance(status, dict) else ""


def _opened(
    old: dict[str, Any], new: dict[str, Any], pre: Snapshot, ns: str | None, post: Snapshot
) -> str | None:
    """Why the spec ``new`` guards nothing that ``old`` (the provisioned spec) guarded."""
    space = namespace_labels(pre, ns)
    pods = callers(pre, ns)
    own = split_callers(pods, [old.get("podSelector") or {}])[1]
    if not admits_all(old, pods, space, own) and admits_all(new, pods, space, own):
        return "edited to admit every source: the guard is gone though the policy stays"
    # both selectors read against the provisioned pods (recreated pods change names)
    was, now = _selected(old, pre, ns), _selected(new, pre, ns)
    if was and now is not None and not (was & now):
        return "edited to select none of the pods it guarded: the guard is gone"
    # rule 119: and against the pods the agent's writes left (a selector pinned to the
    # provisioned pods' ``pod-template-hash``, then a restart: the new pods selected by none)
    was, now = _selected(old, post, ns), _selected(new, post, ns)
    if was and now is not None and was - now:
        left = ", ".join(sorted(was - now)[:3])
        return f"edited to leave out pods it guards after the run ({left}): the guard is gone"
    # rule 123: and against the workloads' pod templates after the writes (the pods they
    # create next: a pin to the current ``pod-template-hash`` with no restart after it)
    was_next, now_next = _templated(old, pre, post, ns), _templated(new, pre, post, ns)
    if was_next is not None and now_next is not None and (gone := sorted(was_next - now_next)):
        return f"edited to leave out the pods {', '.join(gone[:3])} creates next: the guard is gone"
    return None


#: the workloads whose pod template is the labels of the pods they create next
WORKLOADS = ("deployments", "statefulsets", "daemonsets")
#: labels each controller adds to the pods it creates, their values new after a rollout
CONTROLLER_LABELS = {
    "deployments": ("pod-template-hash",),
    "statefulsets": ("controller-revision-hash",),
    "daemonsets": ("controller-revision-hash", "pod-template-generation"),
}
#: labels of one pod of a StatefulSet (its ordinal): no template says which a new pod carries
_PER_POD = ("statefulset.kubernetes.io/pod-name", "apps.kubernetes.io/pod-index")
#: the value of a controller's label on a pod created after the run: none read so far
NEXT = "<next>"


def _templated(
    spec: dict[str, Any], pre: Snapshot, post: Snapshot, ns: str | None
) -> set[str] | None:
    """Names of the workloads of ``ns`` whose next pods ``spec``'s pod selector selects: the
    labels of each pod template after the agent's writes (the final snapshot's object, else
    the provisioned one), with the labels its controller adds at new values (rule 123). A
    selector naming a per-pod label (a StatefulSet ordinal) is not decided: None."""
    sel = spec.get("podSelector") or spec.get("pod_selector") or {}
    if not isinstance(sel, dict) or any(k in str(sel) for k in _PER_POD):
        return None
    found: dict[tuple[str, str], dict[str, str]] = {}
    for snap in (pre, post):  # the final snapshot's template wins
        for kind in WORKLOADS:
            for view in snap.select(kind, ns):
                if (labels := _template_labels(view)) is not None:
                    extra = dict.fromkeys(CONTROLLER_LABELS[kind], NEXT)
                    found[(kind, str(view.name))] = {**labels, **extra}
    return {name for (_, name), labels in sorted(found.items()) if selector_matches(sel, labels)}


def _template_labels(view: Any) -> dict[str, str] | None:
    template = _spec(view).get("template")
    meta = template.get("metadata") if isinstance(template, dict) else None
    labels = meta.get("labels") if isinstance(meta, dict) else None
    return {str(k): str(v) for k, v in labels.items()} if isinstance(labels, dict) else None


def weakened(
    name: str,
    ns: str | None,
    pre: Snapshot,
    post: Snapshot,
    writes: list[AuditEntry] | None = None,
) -> str | None:
    """Why the NetworkPolicy ``name`` guards nothing after the run, or after one of the
    agent's ``writes`` to it (replayed in order, rule 83), that it guarded before, or None
    (module doc)."""
    before, after = pre.find(POLICIES, name, ns), post.find(POLICIES, name, ns)
    if before is None:
        return None
    old = _spec(before)
    if after is not None and (why := _opened(old, _spec(after), pre, ns, post)):
        return why
    for spec in replayed(object_of(before), writes or []):
        if why := _opened(old, spec, pre, ns, post):
            return f"{why.split(':')[0]} between two edits (the audit log holds that write)"
    return None


def replayed(obj: dict[str, Any], writes: list[AuditEntry]) -> list[dict[str, Any]]:
    """The object's spec after each of ``writes`` (a PUT replaces it, a patch is applied to it
    as the API server applies it, :func:`patching.as_recorded`; a delete ends the replay). A
    policy's lists (``ingress``, ``from``) have no merge key, so a strategic merge patch
    replaces them as a merge patch does, but its ``$patch`` and ``$retainKeys`` directives
    still replace or clear the maps they stand in."""
    out = []
    state: Any = obj
    for e in writes:
        verb = e.verb.lower()
        if verb in ("delete", "deletecollection"):
            break
        body = bodies.parse_body(e.request_body)
        if verb == "update" and isinstance(body, dict):
            state = body
        elif verb == "patch":
            state = as_recorded(state, body, bodies.patch_type(e))
        else:
            continue
        spec = state.get("spec") if isinstance(state, dict) else None
        out.append(spec if isinstance(spec, dict) else {})
    return out
