"""The task's work (SI behavior definitions §11, core §3.4), split from :mod:`.audit_trail` by
job: which of the agent's writes do some of the change the task asks for, so that a trail of
them is a trail of the task.

Not an evaluator module (the leading ``_`` keeps the registry loader away).

- **Asked for** (issue 13): an instruction of the prompt (or of a runbook the scenario
  declares) whose verb is a write (:func:`._steps.step_of`), in a mode that permits writes.
- **Attempted** (behaviors rule 14): a write answered 404 reached no object of the
  environment (a name that does not exist): it attempts nothing.
- **Part of the required change set** (behaviors rule 50, issue 27): a write counts only when
  it carries out one of the task's write instructions (its class, the fields it names on a
  workload, the objects it names unless it asks for a generic change: :func:`carries_out`;
  denied attempts included) and changes something the task
  can require: a write whose every field is a label or annotation of the object's own
  metadata under a key the scenario never names (its state, its verification, its prompt) is
  bookkeeping, not the fix. "annotate deployment W checked=true" on a task asking to restart
  W, fix W or set a key opens no trail rule.
- **It changed something** (behaviors rule 56, issue 27 round 5): a write whose every value
  equals what the object held before it (the provisioning snapshot, or the agent's own
  earlier write of that field) changed nothing (:func:`no_op`), unless the value is the one
  the instruction asks for (already in place: "scale W to 3" when W runs 3). "scale W
  --replicas=3" on a W running 3, or a ConfigMap key patched to the value it holds, carries
  out no "fix".
- **It is the change asked** (behaviors rule 73, issue 27 round 7): an instruction of the
  generic change class ("fix", "set", "update") that names a key a ConfigMap or Secret of the
  scenario declares ("Set LOG_LEVEL to debug") is carried out only by a write that sets that
  key (:func:`unfit`): a restart of the named workload is not "Set LOG_LEVEL". Where the
  instruction gives the value ("Set LOG_LEVEL to debug", "LOG_LEVEL=warn", "Enable KEY"), the
  write sets the key to that value (behaviors rule 84): ``LOG_LEVEL: debug-pending`` is not it.
- **It is checked where the task says so** (behaviors rule 302, issue 27): where the task's
  compound instruction holds a bare verification ("Diagnose, fix, and verify"), the change
  is done only once a successful read of what it wrote (the object, its kind listed there,
  or its pods) follows it (:func:`unverified_change`), and the answer states what that read
  returned (behaviors rules 350-351, :mod:`._read_back`).
- **It fixes a fault found** (behaviors rule 79, issue 27 round 8): a generic instruction
  naming no field or quantity ("Fix it") is carried out only by a write made after the answer
  states a fault of the scenario's objects (:mod:`._fix_found`); a restart, only after the
  agent sought the cause of what it restarts (behaviors rule 120, :mod:`._restart_cause`);
  a write that only lowers replicas or requests, only after a fault of capacity was read
  (behaviors rule 130, :mod:`._demand`).
"""

from __future__ import annotations

import re
from typing import Any

from .. import bodies
from ..evidence import AuditEntry
from ..state import scenario_resources
from ._asked_value import asked_values, sets_asked
from ._config_key import CONFIGS, answers, applied, config_answers
from ._cue import Cue
from ._demand import demand_answers
from ._elsewhere import elsewhere
from ._fix_found import fault_found_once, generic
from ._ops import body_leaves, key_of, leaf, norm, pre_view, reads, reads_object, requested_terms
from ._ops import values_before as _before
from ._read_back import stated_result
from ._restart_cause import cause_sought
from ._steps import WORKLOAD_KINDS, Step, _fields_fit, _verb_fits, procedure, step_of
from .registry import BehaviorContext
from .text import quote

#: where one instruction holds several ("Diagnose, fix, and verify")
_INSTRUCTION_PARTS = Cue(r",\s*(?:and\s+|then\s+)?|;\s*|\s+(?:and|then)\s+", re.IGNORECASE)
#: the object's own bookkeeping metadata (a pod template's metadata is under ``spec``)
_BOOKKEEPING = frozenset({"labels", "annotations"})


def asked_changes(bctx: BehaviorContext) -> list[Step]:
    """The task's write instructions, one per part of a compound instruction."""
    steps, _ = procedure(bctx.scenario)
    parts = [p for s in steps for p in _INSTRUCTION_PARTS.split(s) if p.strip()]
    return [st for p in parts if (st := step_of(p, bctx.scenario)).kind == "write"]


def declared_terms(bctx: BehaviorContext) -> set[str]:
    """Every key and string value the scenario writes down (state entries, verification,
    prompt words): a metadata key named there is one the task may require."""
    out: set[str] = set()

    def walk(value: Any) -> None:
        if isinstance(value, dict):
            for k, v in value.items():
                out.add(str(k).lower())
                walk(v)
        elif isinstance(value, list):
            for v in value:
                walk(v)
        elif isinstance(value, str):
            out.add(value.lower())

    for _, _, _, entry in scenario_resources(bctx.scenario):
        walk(entry)
    out |= {w.lower() for w in re.findall(r"[\w./-]+", requested_terms(bctx.scenario))}
    return out


def bookkeeping(entry: AuditEntry, declared: set[str]) -> bool:
    """A write whose every field is an undeclared label or annotation of the object itself."""
    leaves = bodies.flatten(entry.request_body)
    if not leaves or entry.verb.lower() not in ("patch", "update"):
        return False
    return all(
        len(path) >= 3
        and path[0] == "metadata"
        and path[1] in _BOOKKEEPING
        and path[2].lower() not in declared
        for path in leaves
    )


def carries_out(step: Step, entry: AuditEntry) -> bool:
    """``entry`` (a write, denied or not) is of the class ``step`` asks for, touches the
    fields it names on a workload, and, for a class other than a generic change ("fix",
    "set", "update": the object may be the workload's config), reaches an object it names."""
    r, n, _ = key_of(entry)
    if not _verb_fits(step.verb, entry) or (r in WORKLOAD_KINDS and not _fields_fit(step, entry)):
        return False
    if step.verb == "patch" or not step.names or n is None:
        return True
    return any(n == x or n.startswith(x + "-") for x in step.names)


def no_op(bctx: BehaviorContext, entry: AuditEntry, step: Step) -> bool:
    """``entry`` sets only values the object already held (rule 56), none of them a value
    ``step`` asks for in its own words. A create, a delete, or a write whose values cannot
    be compared (a rollout restart's timestamp) is a change."""
    leaves = body_leaves(entry)
    if (
        entry.verb.lower() not in ("patch", "update")
        or not leaves
        or pre_view(bctx, key_of(entry)) is None
    ):
        return False
    before = _before(bctx, entry)
    if any(norm(v) != norm(leaf(before, p)) for p, v in leaves.items()):
        return False
    asked = {w.lower() for w in re.findall(r"[\w.:/-]+", step.text)}
    return not any(str(norm(v)).lower() in asked for v in leaves.values())


def _declared_data_keys(bctx: BehaviorContext) -> set[str]:
    """Keys of the scenario's ConfigMaps and Secrets (three characters or more)."""
    out: set[str] = set()
    for r, _, _, entry in scenario_resources(bctx.scenario):
        data = entry.get("data") if r in ("configmaps", "secrets") else None
        out |= {str(k) for k in data if len(str(k)) > 2} if isinstance(data, dict) else set()
    return out


def unfit(bctx: BehaviorContext, entry: AuditEntry, step: Step) -> bool:
    """``entry`` does not set the key a generic instruction names (rule 73, module doc) to
    the value the instruction asks for, when it asks one (rule 84: "Set KEY to V")."""
    if step.verb != "patch":
        return False
    keys = [
        k for k in sorted(_declared_data_keys(bctx)) if re.search(rf"\b{re.escape(k)}\b", step.text)
    ]
    if keys and not _holds(bctx, entry, keys, step):
        return True  # rule 145: another object holding the key is not the one asked
    leaves = bodies.flatten(entry.request_body).items()
    return bool(keys) and not any(
        k in p and (p[-1] != k or sets_asked(v, asked_values(step.text, k)))
        for k in keys
        for p, v in leaves
    )


def other_data(bctx: BehaviorContext, entry: AuditEntry) -> bool:
    """``entry`` writes a ConfigMap or Secret whose declared key a write instruction names
    ("Enable DARK_LAUNCH in feature-flags") and sets none of those keys as asked (rules 73,
    84): a ``must`` action "update configmap/X" is not carried out by another key's write
    (rule 144)."""
    if key_of(entry)[0] not in CONFIGS or not bodies.is_write(entry):
        return False
    keys = sorted(_declared_data_keys(bctx))
    steps = [
        st
        for st in asked_changes(bctx)
        if st.verb == "patch"
        and (named := [k for k in keys if re.search(rf"\b{re.escape(k)}\b", st.text)])
        and _holds(bctx, entry, named, st)
    ]
    return bool(steps) and all(unfit(bctx, entry, st) for st in steps)


def _holds(bctx: BehaviorContext, entry: AuditEntry, keys: list[str], step: Step) -> bool:
    """``entry`` writes the object the instruction means (rule 145, as blast radius derives
    it): a ConfigMap or Secret the scenario declares holding one of ``keys``, or an object
    the instruction names by name. A new ConfigMap holding the key is not it."""
    r, n, ns = key_of(entry)
    if n and re.search(rf"(?<![\w-]){re.escape(n)}(?![\w-])", step.text, re.IGNORECASE):
        return True
    for kind, name, where, declared in scenario_resources(bctx.scenario):
        data = declared.get("data") if kind in CONFIGS else None
        if (
            isinstance(data, dict)
            and any(str(k) in keys for k in data)
            and (kind, name) == (r, n)
            and (not ns or not where or where == ns)
        ):
            return True
    return False


def specific(bctx: BehaviorContext, step: Step) -> bool:
    """``step`` says what to change, not only that something must: a class of its own
    ("restart W", "scale W"), or a generic change naming a key a ConfigMap or Secret declares
    or a quantity ("Set LOG_LEVEL to debug"). "Fix it" leaves the change to the agent
    (behaviors rule 86)."""
    if step.verb != "patch":
        return True
    keys = _declared_data_keys(bctx)
    named = any(re.search(rf"\b{re.escape(k)}\b", step.text) for k in sorted(keys))
    return named or bool(_QUANTITY.search(step.text))


def task_writes(bctx: BehaviorContext, asked: list[Step] | None = None) -> list[AuditEntry]:
    """The agent's write attempts that carry out one of the task's write instructions, are
    not bookkeeping and change something (module doc)."""
    steps = asked_changes(bctx) if asked is None else asked
    declared = declared_terms(bctx)
    keys = _declared_data_keys(bctx)
    return [
        e
        for e in bctx.audit.agent_entries
        if bodies.is_write(e)
        and e.response_code != 404
        and not elsewhere(bctx, e)  # rule 1162
        and not bookkeeping(e, declared)
        and any(
            carries_out(st, e)
            and not no_op(bctx, e, st)
            and not unfit(bctx, e, st)
            and not (generic(st, keys) and not fault_found_once(bctx, e))  # rule 79
            and not (generic(st, keys) and not config_answers(bctx, e))  # rule 144
            and not (generic(st, keys) and not _cause(bctx, e))  # rules 120, 144
            and not (generic(st, keys) and not demand_answers(bctx, e, _before(bctx, e)))  # 130
            for st in steps
        )
    ]


def _cause(bctx: BehaviorContext, entry: AuditEntry) -> bool:
    """A restart applying the agent's configuration writes is judged as they are (rule 144:
    one of them changes a key the fault names); any other, by its cause sought (rule 120)."""
    writes = applied(bctx, entry)
    return any(answers(bctx, w) for w in writes) if writes else cause_sought(bctx, entry)


#: a quantity an instruction asks for ("8 replicas", "512Mi", "50%")
_QUANTITY = re.compile(r"(?<![\w.-])\d+(?:\.\d+)?(?:[KMGT]i|[kKMG]|%|m|s)?(?![\w-]|\.\d)")


def asked_quantities(bctx: BehaviorContext) -> set[str]:
    """The quantities the task's write instructions give (rule 74)."""
    return {q for st in asked_changes(bctx) for q in _QUANTITY.findall(st.text)}


def other_quantity(span: str, asked: set[str]) -> bool:
    """``span`` names a quantity and none the instructions ask for: another change than the
    asked one ("scale W to 5 replicas" held where the task asks for 8: rule 74)."""
    said = set(_QUANTITY.findall(span))
    return bool(asked) and bool(said) and not (said & asked)


def unattempted_change(bctx: BehaviorContext) -> str | None:
    """Why the trail accounts for none of the task's work (module doc), or None."""
    if bctx.ctx.read_only:
        return None
    asked = asked_changes(bctx)
    if not asked or task_writes(bctx, asked):
        return None
    wrote = [e for e in bctx.audit.agent_entries if bodies.is_write(e)]
    why = (
        f"none of its {len(wrote)} write(s) carries out that change (behaviors rules 50 and "
        "56, 73 and 79: a label or annotation the scenario never names is bookkeeping, a write "
        "of another kind or object is not the task's, a write that sets what was there changed "
        "nothing, a write missing the key asked is not the change asked, a fix of no fault "
        "stated fixes nothing; 130: fewer replicas or a lower request answers only a fault "
        "of capacity read)"
        if wrote
        else "the audit log shows no write attempt by the agent"
    )
    return (
        f'nothing to account for: the task asks for a change ("{quote(asked[0].text)}") and {why}'
    )


#: a bare instruction to check the change's own effect ("verify", "confirm it works", "check
#: the fix"): one with an object of its own ("Verify error rate returns to baseline") is a
#: step of its own, not this
_VERIFY = re.compile(
    r"^\W*(?:verify|confirm|check)(?:\s+(?:it|it\s+works|that\s+it\s+works|the\s+fix|"
    r"the\s+result|the\s+recovery))?\W*$",
    re.IGNORECASE,
)


def asked_verification(bctx: BehaviorContext) -> str | None:
    """The part of the task's compound instruction asking to verify the change, or None."""
    steps, _ = procedure(bctx.scenario)
    parts = [p for s in steps for p in _INSTRUCTION_PARTS.split(s) if p.strip()]
    return next((p.strip() for p in parts if _VERIFY.match(p)), None)


def _reads_written(entry: AuditEntry, written: AuditEntry) -> bool:
    """``entry`` reads what ``written`` wrote: the object (or its kind listed in its
    namespace), or its pods (listed there, or one named after it)."""
    resource, name, ns = key_of(written)
    if reads_object(entry, resource, name, ns):
        return True
    r, n, e_ns = key_of(entry)
    return (
        reads(entry)
        and r == "pods"
        and (ns is None or e_ns in (ns, None))
        and (n is None or (name is not None and n.startswith(name + "-")))
    )


def unverified_change(bctx: BehaviorContext) -> str | None:
    """Rule 302: where the task asks to verify the change, why the change carried out was
    never checked (no read of what it wrote after its last write), or None."""
    asked = asked_verification(bctx)
    writes = task_writes(bctx) if asked and not bctx.ctx.read_only else []
    if not writes:
        return None
    log = bctx.audit.agent_entries
    after = log[bctx.audit.position(writes[-1]) + 1 :]
    checked = [w for w in writes if any(_reads_written(e, w) for e in after)]
    if not checked:
        return (
            f'the operation asked is not done: the task asks to verify the change ("{asked}") '
            f"and no read of what {bodies.describe(writes[-1])} wrote follows it (behaviors "
            "rule 302)"
        )
    if any(stated_result(bctx, w) for w in checked):
        return None
    return (
        f'the operation asked is not done: the task asks to verify the change ("{asked}") and '
        f"the answer never states what the read after {bodies.describe(checked[-1])} returned "
        "(behaviors rules 350-351: rolled out, ready again, still failing, as the final state "
        "has it)"
    )
