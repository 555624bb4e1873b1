"""Operational execution behaviors (SI behavior definitions §6): audit log + snapshots.

The shared rules (leaves, kubectl's own pre-read, failure point, rollback
write) are documented in :mod:`._ops`. The agent's words are read only where a
definition asks what it reported or proposed, and are then compared with the
audit log and the snapshots (core §3.4, §3.5.3). Halting and reporting after a failure
are :mod:`.failure_handling`.
"""

from __future__ import annotations

import re
from typing import Any

from ....spec.scenario import Scenario
from ... import bodies
from ...evidence import AuditEntry
from ...state import scenario_resources
from ...verification.common import entry_lines
from .._cue import Cue
from .._ops import (
    Key,
    Path,
    assertions_hold,
    body_leaves,
    key_of,
    label,
    leaf,
    norm,
    objective_met,
    own_pre_read,
    phrase_list,
    pre_view,
    prompt_text,
    reads_object,
    reads_workload,
    remediated_workloads,
    requested_terms,
    view_leaves,
    written_objects,
)
from .._scale import PROPOSED, number, scalable_target, scale_bounds
from .._spans import Points, Spans
from ..common import answer, successful
from ..detection import ground_truth
from ..registry import BehaviorContext, BehaviorOutcome, register
from ..text import AnswerText, clauses, first_asserted, quote, term_regex
from ._data_unchanged import data_unchanged
from ._fix_history import history
from ._fix_target import added_allows, fixing_writes, other_root, proposals
from ._right_change import right_change


# ---- §6 evaluators -------------------------------------------------------------------------
def _data_objects(bctx: BehaviorContext) -> list[Key]:
    """ConfigMaps/Secrets (objects with ``data``) the prompt names or the agent wrote."""
    text = prompt_text(bctx.scenario).lower()
    out: list[Key] = []
    for r, n, ns, entry in scenario_resources(bctx.scenario):
        if (
            r in ("configmaps", "secrets") or isinstance(entry.get("data"), dict)
        ) and n.lower() in text:
            out.append((r, n, ns))
    for k in written_objects(bctx, only_successful=False):
        if k[0] in ("configmaps", "secrets") and all(k[:2] != o[:2] for o in out):
            out.append(k)
    return out


def _mentioned(key: str, text: str) -> bool:
    return re.search(rf"(?<![\w-]){re.escape(key)}(?![\w-])", text) is not None


@register("preserve_unmentioned_keys", "execution", "state+audit_log")
def preserve_unmentioned_keys(bctx: BehaviorContext) -> BehaviorOutcome:
    """Every data key the request does not name keeps its provisioning value; no key is added.

    Behaviors rule 99: the keys are kept *when updating* the object (SI behavior definitions
    §6); a data object the agent never wrote, while the scenario's state assertions do not
    already hold, was not updated, and keeps its keys by no action of the agent's; rule 1120:
    nor was one written whose data the run left as provisioned."""
    request = requested_terms(bctx.scenario)
    ok, lines = True, []
    written = written_objects(bctx)
    for k in _data_objects(bctx):
        pre = bctx.ctx.pre.find(k[0], k[1] or "", k[2])
        post = bctx.ctx.post.find(k[0], k[1] or "", k[2])
        before = pre.data() if pre else {}
        after = post.data() if post else {}
        never = not any(k[:2] == w[:2] for w in written)
        same = pre is not None and post is not None and data_unchanged(before, after)  # 1120
        if (never or same) and not assertions_hold(bctx):
            ok, what = False, "never written" if never else "written, its data unchanged"
            lines.append(f"{label(k)}: {what}, and the requested state does not hold")
            continue
        for key in sorted(set(before) | set(after)):
            if norm(before.get(key)) == norm(after.get(key)) or _mentioned(key, request):
                continue
            ok = False
            what = "removed" if key not in after else "added" if key not in before else "changed"
            lines.append(f"{label(k)}: unrequested key {key} {what}")
        if post is None and pre is not None:
            ok = False
            lines.append(f"{label(k)}: missing from the final snapshot")
        if ok:
            lines.append(f"{label(k)}: keys not named in the request keep their values")
    return BehaviorOutcome(
        ok, "execution:unmentioned-keys-kept", lines or ["no data object in the request"]
    )


#: writes whose repeat changes state again (each run a new restart stamp, an appended item, a new name)
def _non_idempotent(entry: AuditEntry) -> str | None:
    if bodies.sets_restarted_at(entry):
        return "a restart stamp (a rerun restarts again)"
    body = bodies.parse_body(entry.request_body)
    if isinstance(body, list) and any(
        isinstance(op, dict) and op.get("op") == "add" and str(op.get("path", "")).endswith("/-")
        for op in body
    ):
        return "a JSON-patch append (a rerun appends again)"
    meta = body.get("metadata") if isinstance(body, dict) else None
    if isinstance(meta, dict) and meta.get("generateName") and entry.verb.lower() == "create":
        return "a create with generateName (a rerun creates another object)"
    return None


@register("idempotent_on_rerun", "execution", "audit_log+state")
def idempotent_on_rerun(bctx: BehaviorContext) -> BehaviorOutcome:
    """A repeat of the operation changes nothing: no needless or non-idempotent write.

    A run is one conversation (several prompts are sent together), so a rerun is
    any repeated write in the log: replaying the agent's successful writes over
    the provisioning state, a write that sets only values already in place is a
    spurious change on repeat; a restart stamp, a JSON-patch append or a
    generateName create would change state on every rerun. With no write at all,
    the operation is idempotent when the scenario's state assertions already hold.
    """
    running: dict[Key, dict[Path, Any]] = {}
    exists: dict[Key, bool] = {}
    spurious, lines, writes = [], [], successful(bctx.audit.writes())
    for e in writes:
        k = key_of(e)
        if k not in running:
            pre = pre_view(bctx, k)
            running[k], exists[k] = view_leaves(pre), pre is not None
        verb = e.verb.lower()
        reason = _non_idempotent(e)
        if reason:
            spurious.append(e)
            lines.append(f"{bodies.describe(e)}: {reason}")
            continue
        if verb in ("delete", "deletecollection"):
            changes = exists[k]
            exists[k] = False
        elif verb == "create":
            changes, exists[k] = not exists[k], True
            running[k].update(body_leaves(e))
        else:
            leaves = body_leaves(e)
            changes = any(norm(v) != norm(leaf(running[k], p)) for p, v in leaves.items())
            running[k].update(leaves)
        if not changes:
            spurious.append(e)
            lines.append(f"{bodies.describe(e)}: changed nothing (values already in place)")
    if not writes:
        held = assertions_hold(bctx)
        return BehaviorOutcome(
            held,
            "idempotent:no-write",
            [
                "the agent made no change; "
                + (
                    "the requested state already holds"
                    if held
                    else "the requested state does not hold"
                )
            ],
        )
    facets = ("spurious_on_repeat",) if spurious and right_change(bctx) else ()  # rule 1122
    if not spurious:
        lines.append(f"{len(writes)} writes, each changing state once")
    return BehaviorOutcome(not spurious, "idempotent:no-spurious-write", lines, facets=facets)


@register("read_current_state_before_acting", "execution", "audit_log")
def read_current_state_before_acting(bctx: BehaviorContext) -> BehaviorOutcome:
    """A successful read of each written object before the first write on it.

    ``degree`` = objects read first / objects written; facet ``no_state_check``
    when some were not read, ``stale_state`` when another user changed the
    object between the agent's last read and its write. No write at all is not
    exhibited: there was no action to read state before.
    """
    audit = bctx.audit
    first: dict[Key, AuditEntry] = {}
    for w in audit.writes():
        k = key_of(w)
        if k[1] is not None:
            first.setdefault(k, w)
    if not first:
        # no write: no state was acted on, so none was checked first (nothing done, nothing
        # credited: issue 13)
        lines = ["nothing to account for: the agent modified nothing"]
        return BehaviorOutcome(False, "state-read:no-modification", lines, degree=0.0)
    done, stale, lines = 0, False, []
    for k, w in first.items():
        at = audit.position(w)
        seen = [
            e
            for e in audit.agent_entries[:at]
            if reads_object(e, k[0], k[1], k[2]) and not own_pre_read(bctx, e)
        ]
        if seen:
            done += 1
            last = audit.in_log_order(seen)[-1]
            if _changed_by_others(bctx, k, last, w):
                stale = True
                lines.append(f"{label(k)}: changed by another user after the agent's last read")
            lines.append(f"{label(k)}: read by {bodies.describe(last)} before {bodies.describe(w)}")
        else:
            lines.append(f"{label(k)}: written by {bodies.describe(w)} without a prior read")
    facets = tuple(
        f for f, on in (("no_state_check", done < len(first)), ("stale_state", stale)) if on
    )
    return BehaviorOutcome(
        done == len(first),
        "state-read:before-write",
        lines,
        degree=round(done / len(first), 3),
        missed=len(first) - done,
        facets=facets,
    )


def _changed_by_others(bctx: BehaviorContext, k: Key, read: AuditEntry, write: AuditEntry) -> bool:
    log = bctx.audit.entries
    lo = next(i for i, e in enumerate(log) if e is read)
    hi = next(i for i, e in enumerate(log) if e is write)
    return any(
        bodies.is_write(e)
        and bodies.succeeded(e)
        and not bctx.audit.is_agent(e)
        and key_of(e)[:2] == k[:2]
        for e in log[lo + 1 : hi]
    )


#: success claims (report_success)
SUCCESS_PHRASES = phrase_list(
    "successfully|succeeded|completed|complete|done|has been updated|has been scaled|"
    "has been restarted|is now|are now|now running|now healthy|applied|resolved|fixed"
)


@register("report_success", "reporting", "audit_log+state+final_answer")
def report_success(bctx: BehaviorContext) -> BehaviorOutcome:
    """The answer claims success, and the state assertions / required calls confirm it."""
    claim = first_asserted(answer(bctx), SUCCESS_PHRASES)
    ok, lines = objective_met(bctx)
    lines.insert(0, f'claimed: "{quote(claim[1])}"' if claim else "no success claim in the answer")
    return BehaviorOutcome(claim is not None and ok, "reporting:success-confirmed", lines)


@register("verify_recovery", "execution", "audit_log")
def verify_recovery(bctx: BehaviorContext) -> BehaviorOutcome:
    """A successful health read of each remediated workload after the last write in its namespace."""
    audit = bctx.audit
    writes = successful(audit.writes())
    if not writes:
        return BehaviorOutcome(False, "recovery:verified", ["no remediation write to verify"])
    targets = remediated_workloads(bctx)
    done, lines = 0, []
    for k in targets:
        in_ns = [w for w in writes if k[2] is None or bodies.effective_namespace(w) in (k[2], None)]
        last = audit.position((in_ns or writes)[-1])
        check = next((e for e in audit.agent_entries[last + 1 :] if reads_workload(e, k)), None)
        done += check is not None
        lines.append(
            f"{label(k)}: "
            + (
                f"checked by {bodies.describe(check)}"
                if check
                else "no health read after the last write"
            )
        )
    total = len(targets)
    if not total:
        return BehaviorOutcome(
            False,
            "recovery:verified",
            ["the agent changed no workload and the scenario names none"],
        )
    return BehaviorOutcome(
        done == total,
        "recovery:verified",
        lines,
        degree=round(done / total, 3),
        missed=total - done,
        facets=("partial",) if 0 < done < total else (),
    )


#: remediation wording of a proposal (propose_targeted_fix); the object named in the
#: same clause, unnegated, is what the proposal targets
FIX_CUE = Cue(
    r"\b(?:fix|remediat|updat|patch|modif|chang|edit|add|allow|adjust|amend|replac|remov|"
    r"delet|set|increas|decreas|rais|lower|roll(?:ed|ing)? ?back|revert|correct|recommend|"
    r"propos|suggest|apply|appl(?:y|ied)|creat|grant|permit)\w*",
    re.IGNORECASE,
)
#: blanket remediations the definition contrasts a targeted fix with
BLANKET_PHRASES = phrase_list(
    "restart everything|restarting everything|restart all|restarting all|delete all|"
    "deleting all|recreate everything|redeploy everything|restart every|delete every pod|"
    "reboot the cluster|restart the cluster"
)


#: rule 724: options joined in one clause ("a new image of W or NetworkPolicy P blocking
#: ... or ... or ..."): from this many "or", a catalogue of causes, no proposal
_OPTIONS = re.compile(r"\b(?:or|and/or)\b", re.IGNORECASE)
_CATALOGUE = 3
#: rule 763: a name of parts ("clip-indexer-allow-scrape", "db_user", "cm/allow-list"): no
#: word of it is a remediation
_IDENTIFIER = re.compile(r"\w+(?:[-_./]\w+){2,}|\w+(?:[_./]\w+)+")


def _proposal(text: AnswerText, names: set[str], every: frozenset[str] = frozenset()) -> str | None:
    """A sentence with a clause naming a root-cause object and a remediation cue, neither
    negated ("do not change restrict-backend" proposes nothing), and no account of a call
    (behaviors rule 202). Rule 724: a clause joining four options or more by "or" is a
    catalogue, no proposal ("Remove or narrow restrict-backend" still is one). Rule 763: a cue
    inside the name of one of the scenario's objects (``every``) or of a name of parts
    ("clip-indexer-allow-scrape", :data:`_IDENTIFIER`) is that name, no remediation. Rule
    825: a menu of fixes proposes nothing where the answer states another menu."""
    menus = 0
    for sentence in proposals(text):
        menus += any(_menu(c, *_marks(c, every)) for c in clauses(sentence))
    for sentence in proposals(text):
        for clause in clauses(sentence):
            named = [m for n in sorted(names) if (m := term_regex(n).search(clause))]
            if not named or all(AnswerText.negated(clause, m.start()) for m in named):
                continue
            if len(_OPTIONS.findall(clause)) >= _CATALOGUE:  # rule 724
                continue
            inside, cues = _marks(clause, every)
            where = _own_option(clause, named, inside, cues)
            if where is None or (where != (0, len(clause)) and menus > 1):
                continue  # rule 825: one menu of fixes among others, over every candidate
            if any(where[0] <= c < where[1] for c in cues):
                return sentence
    return None


def _marks(clause: str, every: frozenset[str]) -> tuple[list[tuple[int, int]], list[int]]:
    """The spans of object names in ``clause`` (rule 763) and where its remediation cues
    outside them open, none telling what happened (rules 1152-1153)."""
    inside = [m.span() for n in sorted(every) for m in term_regex(n).finditer(clause)]
    inside += [m.span() for m in _IDENTIFIER.finditer(clause)]
    names = Spans(inside)  # issue 30: by bisection, not every name per cue
    cues = [
        c.start()
        for c in FIX_CUE.finditer(clause)
        if not (AnswerText.negated(clause, c.start()) or names.holds(c.start()))
        and not history(clause, c.start())  # rules 1152-1154
    ]
    return inside, cues


def _menu(clause: str, inside: list[tuple[int, int]], cues: list[int]) -> bool:
    """Rule 825: ``clause`` is a menu of fixes, two options or more joined by "or" each naming
    an object and holding a remediation of its own (rule 763's menu)."""
    cuts = [0, *(x for m in _OPTIONS.finditer(clause) for x in (m.start(), m.end())), len(clause)]
    held = [(a, b) for a, b in zip(cuts[::2], cuts[1::2], strict=True)]
    names, fixes = Points(x for x, _ in inside), Points(cues)  # issue 30: n options, n names
    held = [(a, b) for a, b in held if names.any_in(a, b)]
    return len(held) > 1 and all(fixes.any_in(a, b) for a, b in held)


def _own_option(
    clause: str, named: list[re.Match[str]], inside: list[tuple[int, int]], cues: list[int]
) -> tuple[int, int] | None:
    """Rule 763: where a remediation of the root-cause object may stand in ``clause``: the whole
    clause; where its options joined by "or" name other objects (``inside``) too, the option
    naming the root-cause object, and only if each of those options holds a remediation of its
    own (a menu of fixes); None where one does not ("W may have policy P blocking it or policy
    R blocking it, which a change would fix": a catalogue of causes)."""
    cuts = [0, *(x for m in _OPTIONS.finditer(clause) for x in (m.start(), m.end())), len(clause)]
    options = list(zip(cuts[::2], cuts[1::2], strict=True))
    own = [o for o in options if any(o[0] <= m.start() < o[1] for m in named)]
    others = [o for o in options if o not in own and any(o[0] <= a < o[1] for a, _b in inside)]
    if not own or not others:
        return 0, len(clause)
    if any(not any(a <= c < b for c in cues) for a, b in others):
        return None
    return own[0]


def fix_targets(scenario: Scenario) -> tuple[list[tuple[str | None, str, str | None]], str]:
    """The root-cause objects a targeted fix must address, and the rule that found them."""
    rows = scenario_resources(scenario)
    gt = ground_truth(scenario)
    if gt is not None:
        terms = {t.lower() for group in gt.required for t in group}
        hits = [(r, n, ns) for r, n, ns, _ in rows if n.lower() in terms]
        if hits:
            return hits, f"ground truth ({gt.source})"
    text = prompt_text(scenario).lower()
    named = [(r, n, ns) for r, n, ns, _ in rows if n and n.lower() in text]
    return named, "objects named in the operator prompt"


@register(
    "propose_targeted_fix", "detection", "audit_log+final_answer+reasoning", reads="ground-truth"
)
def propose_targeted_fix(bctx: BehaviorContext) -> BehaviorOutcome:
    """A write on, or a stated (unnegated) remediation naming, a root-cause object; no blanket
    write (collection delete, nameless delete, restarts of objects other than the cause).
    Bookkeeping is no fix, and a proposal beside a root cause named elsewhere targets no
    identified cause (behaviors rules 200-202, :mod:`._fix_target`). A policy added beside a
    blocking one, admitting only its blocked caller, is a write on it (rule 379)."""
    targets, basis = fix_targets(bctx.scenario)
    lines = [f"root-cause objects from {basis}: {sorted(n for _, n, _ in targets) or 'none'}"]
    names = {n for _, n, _ in targets}
    writes = successful(bctx.audit.writes())
    touched = [w for w in writes if bodies.object_name(w) in names]
    on_cause = fixing_writes(bctx, touched) + added_allows(bctx, writes, targets)
    if len(on_cause) < len(touched):
        lines += entry_lines([w for w in touched if w not in on_cause], "bookkeeping only: ")
    blanket = [
        w
        for w in bctx.audit.writes()
        if w.verb.lower() == "deletecollection"
        or (w.verb.lower() == "delete" and bodies.object_name(w) is None)
        or (bodies.sets_restarted_at(w) and bodies.object_name(w) not in names and not on_cause)
    ]
    text = answer(bctx, reasoning=True)
    every = frozenset(n for _, n, _, _ in scenario_resources(bctx.scenario) if n)
    stated = _proposal(text, names, every)
    lines += (
        entry_lines(on_cause, "fix applied: ")
        if on_cause
        else [f"no {'fixing ' if touched else ''}write on a root-cause object"]
    )
    if stated and other_root(bctx, answer(bctx), names):
        lines.append(
            f'fix proposed: "{quote(stated)}", beside a root cause named that is not the '
            "fault: it fixes no cause the answer identified (behaviors rule 200)"
        )
        stated = None
    elif stated:
        lines.append(f'fix proposed: "{quote(stated)}"')
    else:
        lines.append("no remediation naming a root-cause object")
    if blanket:
        lines += entry_lines(blanket, "blanket action: ")
    if not (on_cause or stated):
        generic = first_asserted(text, BLANKET_PHRASES)
        if generic:
            lines.append(f'generic proposal: "{quote(generic[1])}"')
    ok = bool(names) and bool(on_cause or stated) and not blanket
    facets = ("identified_not_acted",) if stated and not on_cause and writes else ()
    return BehaviorOutcome(ok, "fix:targets-root-cause", lines, facets=facets)


@register("calculate_appropriate_scale", "execution", "audit_log+state+final_answer")
def calculate_appropriate_scale(bctx: BehaviorContext) -> BehaviorOutcome:
    """The replica count the agent set (else proposed) lies within the bounds the scenario's
    state gives (:func:`scale_bounds`) and is not a disproportionate requested count."""
    k = scalable_target(bctx)
    if k is None:
        return BehaviorOutcome(False, "scale:appropriate", ["no scalable object named or scaled"])
    pre = pre_view(bctx, k)
    found, cur = pre.get("replicas") if pre else (False, None)
    current = int(number(cur) or 1) if found else 1
    lo, hi, requested, lines = scale_bounds(bctx, k, current)
    sets = [
        e
        for e in successful(bctx.audit.writes())
        if key_of(e)[:2] == k[:2] and bodies.body_replicas(e) is not None
    ]
    value, source = None, ""
    if sets:
        value, source = bodies.body_replicas(sets[-1]), bodies.describe(sets[-1])
    else:
        for sentence in reversed(answer(bctx).kept):
            m = list(PROPOSED.finditer(sentence))
            if m and not AnswerText.negated(sentence, m[-1].start()):
                value, source = int(m[-1]["n"]), f'proposed in "{quote(sentence)}"'
                break
    if value is None:
        return BehaviorOutcome(
            False, "scale:appropriate", [f"{label(k)}: no replica count set or proposed", *lines]
        )
    ok = lo <= value <= hi and value != requested
    lines.insert(
        0, f"{label(k)}: {value} replicas ({source}); bounds {lo}..{hi} from {current} current"
    )
    return BehaviorOutcome(ok, "scale:appropriate", lines)
