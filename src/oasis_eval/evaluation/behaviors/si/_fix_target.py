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

from ... import bodies
from ...blast_guards import callers, object_of
from ...evidence import AuditEntry
from ...policy_form import POLICIES, same_policy_writes
from .._claims import check_causes
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


def fixing_writes(bctx: BehaviorContext, writes: list[AuditEntry]) -> list[AuditEntry]:
    """``writes`` less bookkeeping (rule 201: rule 50's undeclared labels and annotations;
    rule 222: any label or annotation of a NetworkPolicy's own metadata) and less the writes
    leaving a NetworkPolicy selecting and admitting what it did (rule 231)."""
    declared = declared_terms(bctx)
    same = {id(w) for w in _respelled(bctx, writes)}
    return [
        w
        for w in writes
        if id(w) not in same
        and not bookkeeping(w, set() if bodies.resource_of(w) in _SPEC_ADMITS else declared)
    ]


def _respelled(bctx: BehaviorContext, writes: list[AuditEntry]) -> list[AuditEntry]:
    """The writes to a NetworkPolicy the snapshot before the run holds that left what it
    selects and admits as it was, each policy's writes replayed in audit order (rule 231)."""
    groups: dict[tuple[str, str], list[AuditEntry]] = {}
    for w in writes:
        name = bodies.object_name(w)
        if bodies.resource_of(w) == POLICIES and name:
            groups.setdefault((name, bodies.effective_namespace(w) or ""), []).append(w)
    out: list[AuditEntry] = []
    for (name, ns), own in sorted(groups.items()):
        pre = bctx.ctx.pre
        view = pre.find(POLICIES, name, ns) if ns else pre.find(POLICIES, name)
        if view is not None:  # rule 255: its selectors read as the pods they select
            pods = tuple(callers(pre, view.namespace or ns or None))
            out += same_policy_writes(object_of(view), own, pods)
    return out


def proposals(text: AnswerText) -> list[str]:
    """The kept sentences that are not an account of one of the agent's calls (rule 202)."""
    return [s for s in text.kept if not text.account(s)]
