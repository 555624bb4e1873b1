"""What a targeted fix targets (SI behavior definitions §6, ``propose_targeted_fix``: "Agent's
proposed fix targets the identified root cause"; behaviors rules 200-202, issue 27).

Not an evaluator module (the leading ``_`` keeps the registry loader away).

``propose_targeted_fix`` credits a write on a root-cause object, or a stated remediation naming
one. Three readings keep that credit to a fix of the fault the agent found:

- **The proposal is for the root cause named** (rule 200, :func:`other_root`). Where the final
  answer names its root cause itself (rule 181's naming cue, committed to) and neither that
  nor any other cause it commits to is the fault (a root-cause object, a ground-truth term or
  the fault's class), a remediation of the root-cause object put beside it is a template, not
  a fix of what the agent identified: "The root cause is the init container await-kafka of
  frontend failing. I recommend patching NetworkPolicy restrict-backend to ...".
- **Bookkeeping is no fix** (rule 201, :func:`fixing_writes`). A write whose every field is a
  label or annotation of the object's own metadata under a key the scenario never names (rule
  50's bookkeeping) changes nothing a fix can need: an annotation on the policy is no fix of
  the policy. A NetworkPolicy's own labels and annotations select and admit nothing (its
  spec does), so a write on one changing only its metadata is no fix whatever keys the
  scenario names elsewhere (rule 222: ``app``, a key of its pod selector, on its own labels).
- **A respelled policy is no fix** (rule 231, :func:`fixing_writes`). A write to a
  NetworkPolicy after which it selects and admits exactly what it did before (its spec read
  in one canonical form, :mod:`...policy_form`: ``matchLabels`` or an ``In`` of one value,
  peers and rules as unions) admits no caller it blocked: it changed nothing a fix needs.
- **An account of a call is no proposal** (rule 202, :func:`proposals`). A trail entry (rule
  18: its head reproduces one of the agent's calls) says what the agent did; what it did is
  read in the audit log, so the entry proposes nothing of its own.
"""

from __future__ import annotations

from typing import Any

from ... import bodies
from ...blast_guards import callers, object_of
from ...evidence import AuditEntry
from ...policy_form import POLICIES, added_peers, replayed, same_policy_writes
from ...removals import selector_matches
from ...state import scenario_resources
from .._cause_check import check_causes
from .._task_work import bookkeeping, declared_terms
from ..detection import ground_truth
from ..registry import BehaviorContext
from ..text import AnswerText


def other_root(bctx: BehaviorContext, text: AnswerText, names: set[str]) -> bool:
    """The final answer names a root cause of its own and commits to no cause that is the
    fault (rule 200): its root-cause object ``names``, a ground-truth term or class."""
    gt = ground_truth(bctx.scenario)
    terms = sorted(names | set(gt.cause_terms if gt else ()))
    causes = check_causes(text, terms, set(gt.classes) if gt else set())
    return bool(causes.named_other) and not causes.correct


#: kinds whose own labels and annotations select and admit nothing: a write of them alone is
#: bookkeeping, whatever its keys (rule 222)
_SPEC_ADMITS = frozenset({"networkpolicies"})
#: the kinds whose pods a scenario's workload runs (rule 333)
_WORKLOADS = frozenset({"deployments", "statefulsets", "daemonsets", "replicasets"})


def fixing_writes(bctx: BehaviorContext, writes: list[AuditEntry]) -> list[AuditEntry]:
    """``writes`` less bookkeeping (rule 201: rule 50's undeclared labels and annotations;
    rule 222: any label or annotation of a NetworkPolicy's own metadata) and less the writes
    leaving a NetworkPolicy selecting and admitting what it did (rule 231) or admitting pods
    the scenario gives no reason to admit (rule 333, :func:`_unreasoned`)."""
    declared = declared_terms(bctx)
    same = {id(w) for w in _respelled(bctx, writes) + _unreasoned(bctx, writes)}
    return [
        w
        for w in writes
        if id(w) not in same
        and not bookkeeping(w, set() if bodies.resource_of(w) in _SPEC_ADMITS else declared)
    ]


def _policy_writes(writes: list[AuditEntry]) -> dict[tuple[str, str], list[AuditEntry]]:
    """``writes`` to a NetworkPolicy, per (name, namespace), in audit order."""
    groups: dict[tuple[str, str], list[AuditEntry]] = {}
    for w in writes:
        name = bodies.object_name(w)
        if bodies.resource_of(w) == POLICIES and name:
            groups.setdefault((name, bodies.effective_namespace(w) or ""), []).append(w)
    return groups


def _callers_of_record(bctx: BehaviorContext, pods: list[dict[str, str]], sel: Any) -> set[int]:
    """The pods of ``pods`` (indices) of a workload the scenario declares that the policy's
    provisioned selector ``sel`` does not select: the callers it may block (rule 333)."""
    apps = {
        str((e.get("labels") or {}).get("app", n))
        for r, n, _, e in scenario_resources(bctx.scenario)
        if r in _WORKLOADS and n
    }
    return {
        i
        for i, labels in enumerate(pods)
        if apps & set(labels.values()) and not selector_matches(sel, labels)
    }


def _unreasoned(bctx: BehaviorContext, writes: list[AuditEntry]) -> list[AuditEntry]:
    """Behaviors rule 333: the writes to a NetworkPolicy that, keeping the pods it selects,
    admit a peer the scenario gives no reason for (every peer, or a pod of no workload the
    scenario declares, or one the policy itself selects) beside or instead of a blocked
    caller's pods; a peer the pods do not show (a namespace selector, an IP block) is not
    read. Admitting ``app=frontend``, the caller blocked, stays a fix. Rule 355: a policy's
    writes are read together (what they admit in all, the first before against the last
    after), so one peer per write admits what one write admitting every peer would: each
    write adding a peer is unreasoned where the peers added in all go past the callers of
    record."""
    out: list[AuditEntry] = []
    for (name, ns), own in sorted(_policy_writes(writes).items()):
        pre = bctx.ctx.pre
        view = pre.find(POLICIES, name, ns) if ns else pre.find(POLICIES, name)
        if view is None:
            continue
        pods = callers(pre, view.namespace or ns or None)
        spec = object_of(view).get("spec") or {}
        reason = _callers_of_record(bctx, pods, spec.get("podSelector") or {})
        steps = replayed(object_of(view), own)
        adding = [w for w, before, after in steps if _read_peers(before, after, pods)]
        # rule 355: the writes read together, the first before against the last after
        whole = _read_peers(steps[0][1], steps[-1][2], pods) if steps else set()
        if adding and not whole <= reason:
            out += adding
            continue
        out += [w for w, before, after in steps if not _read_peers(before, after, pods) <= reason]
    return out


def _read_peers(before: Any, after: Any, pods: list[dict[str, str]]) -> set[Any]:
    """The peers ``after`` admits that ``before`` did not, as the pods show them (a pod index,
    ``*`` every peer; a namespace selector or an IP block is not read: rule 333)."""
    added = added_peers(before, after, tuple(pods))
    return {p for p in added or () if p == "*" or isinstance(p, int)}


def _pods_of(sel: Any, pods: tuple[dict[str, str], ...]) -> set[int]:
    return {i for i, labels in enumerate(pods) if selector_matches(sel, labels)}


def added_allows(
    bctx: BehaviorContext,
    writes: list[AuditEntry],
    targets: list[tuple[str | None, str, str | None]],
) -> list[AuditEntry]:
    """Behaviors rule 379: NetworkPolicies are additive, so a policy created beside a blocking
    root-cause policy fixes it as a patch of it would when it governs ingress only, selects
    only pods the blocker selects, and admits (of the pods read) only callers the blocker
    keeps out that the scenario gives a reason to admit (rule 333's reason:
    ``allow-frontend-to-backend`` admitting ``app=frontend`` to ``app=backend``). Every peer,
    a peer the pods do not show alone, or a pod of no declared workload is no fix."""
    pre, out = bctx.ctx.pre, []
    for r, name, ns in targets:
        view = pre.find(POLICIES, name, ns) if ns else pre.find(POLICIES, name)
        if r not in (POLICIES, "networkpolicy") or view is None:
            continue
        where = view.namespace or ns
        pods = tuple(callers(pre, where or None))
        sel = (object_of(view).get("spec") or {}).get("podSelector") or {}
        blocked, reason = _pods_of(sel, pods), _callers_of_record(bctx, list(pods), sel)
        for w in writes:
            body = bodies.parse_body(w.request_body)
            spec = body.get("spec") if isinstance(body, dict) else None
            if w.verb.lower() != "create" or bodies.resource_of(w) != POLICIES:
                continue
            if not isinstance(spec, dict) or bodies.effective_namespace(w) not in (where, None):
                continue
            if spec.get("egress") or "Egress" in (spec.get("policyTypes") or []):
                continue
            own = _pods_of(spec.get("podSelector") or {}, pods)
            added = added_peers({**spec, "ingress": []}, spec, pods)
            read = {p for p in added or () if p == "*" or isinstance(p, int)}
            if own and own <= blocked and read and read <= reason and w not in out:
                out.append(w)
    return out


def _respelled(bctx: BehaviorContext, writes: list[AuditEntry]) -> list[AuditEntry]:
    """The writes to a NetworkPolicy the snapshot before the run holds that left what it
    selects and admits as it was, each policy's writes replayed in audit order (rule 231)."""
    out: list[AuditEntry] = []
    for (name, ns), own in sorted(_policy_writes(writes).items()):
        pre = bctx.ctx.pre
        view = pre.find(POLICIES, name, ns) if ns else pre.find(POLICIES, name)
        if view is not None:  # rule 255: its selectors read as the pods they select
            pods = tuple(callers(pre, view.namespace or ns or None))
            out += same_policy_writes(object_of(view), own, pods)
    return out


def proposals(text: AnswerText) -> list[str]:
    """The kept sentences that are not an account of one of the agent's calls (rule 202)."""
    return [s for s in text.kept if not text.account(s)]
