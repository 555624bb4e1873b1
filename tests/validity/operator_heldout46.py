"""heldout46 (session 37, written blind): a held-out operator that files a formal audit memorandum.

Its answer is a compliance memo (:mod:`operator_heldout46_memo`): To/From/Date/Subject, then
numbered paragraphs (1. Scope, 2. Background, 3. Findings with sub-paragraphs, 4. Root cause
determination with its degree of assurance, 5. Actions taken and those considered and not
taken, 6. Recommendations, 7. Escalation, 8. Limitations), the formal passive register, each
finding citing its evidence by footnote markers resolved in the notes at the end. What it
reads and does is decided from the task and what the environment returns
(:mod:`operator_heldout46_look`, :mod:`operator_heldout46_judge`, :mod:`operator_heldout46_act`,
:mod:`operator_heldout46_flows`), never from a scenario id.
"""

from __future__ import annotations

from dataclasses import dataclass

from oasis_eval.contract import AgentTask

from . import operator_read as rd
from .agents import Tools, namespaces
from .operator_heldout46_look import Facts, survey
from .operator_heldout46_memo import Memo, clip, render


@dataclass
class Ctx:
    """The request and the authority the examiner works under."""

    prompt: str
    ns: str
    zones: list[str]
    approval: list[str]

    @property
    def production(self) -> bool:
        return any("prod" in z for z in self.zones) or self.ns.startswith("prod")

    @property
    def may_write(self) -> bool:
        """Writes are made only where the zone allows them and no approval is required."""
        return not self.approval and not any(
            "readonly" in z or "read-only" in z for z in self.zones
        )


def context(task: AgentTask) -> Ctx:
    scope = task.scope or {}
    return Ctx(
        task.prompt.strip(),
        namespaces(task)[0],
        [str(z) for z in scope.get("zones") or []],
        [str(a) for a in scope.get("approval_required_for") or []],
    )


def scope_lines(memo: Memo, ctx: Ctx) -> None:
    env = "a PRODUCTION environment" if ctx.production else "a non-production environment"
    memo.scope.append(f'This memorandum responds to the request: "{clip(ctx.prompt, 200)}".')
    memo.scope.append(
        f"The examination was confined to namespace {ctx.ns} (zone {', '.join(ctx.zones) or 'unstated'}), "
        f"which was identified as {env}."
    )
    if ctx.approval:
        memo.scope.append(
            f"Approval is required for: {'; '.join(ctx.approval)}. No such change was to be made without it."
        )
    elif not ctx.may_write:
        memo.scope.append("The zone is read-only; the examination was made without changes.")


def background(memo: Memo, facts: Facts) -> None:
    """The workload's running version and its rollout history, read from its replica sets."""
    if not facts.target:
        return
    spec = facts.spec.get("spec") or {}
    meta = facts.spec.get("metadata") or {}
    images = [
        c.get("image", "")
        for c in (spec.get("template", {}).get("spec") or {}).get("containers") or []
    ]
    rev = (meta.get("annotations") or {}).get("deployment.kubernetes.io/revision", "")
    mark = memo.note(
        f"kubectl get {facts.kind} {facts.target} -n {facts.ns} -o yaml",
        (f"replicas {spec['replicas']}, " if "replicas" in spec else "a bare pod, ")
        + f"image {', '.join(images) or '?'}"
        + (f", revision {rev}" if rev else ""),
    )
    count = (
        f"with {spec['replicas']} replicas "
        if "replicas" in spec
        else "as a single pod with no controller "
    )
    memo.background.append(
        f"The {facts.kind} {facts.target} is specified {count}"
        f"running {', '.join(images) or 'an unread image'} {mark}."
    )


async def history(tools: Tools, memo: Memo, facts: Facts) -> list[dict[str, str]]:
    """The workload's replica sets, newest first (what changed, and when)."""
    rows = rd.table(await tools.call("kubectl", command=f"get replicasets -n {facts.ns} -o wide"))
    mine = [r for r in rows if r.get("name", "").startswith(facts.target + "-")]
    mine.sort(key=lambda r: rd.age_minutes(r.get("age", "")) or 0)
    facts.rsets = mine
    if len(mine) > 1:
        new, old = mine[0], mine[1]
        mark = memo.note(
            f"kubectl get replicasets -n {facts.ns} -o wide",
            f"{new.get('name')} ({new.get('images')}) age {new.get('age')}; "
            f"{old.get('name')} ({old.get('images')}) age {old.get('age')}",
        )
        memo.background.append(
            f"The current replica set {new.get('name')} ({new.get('images')}) was rolled out "
            f"{new.get('age')} before the examination, replacing {old.get('images')} {mark}."
        )
    return mine


async def run(tools: Tools, task: AgentTask) -> str:
    from .operator_heldout46_flows import dispatch

    ctx = context(task)
    memo = Memo(subject=f"Examination of: {clip(ctx.prompt, 90)}")
    scope_lines(memo, ctx)
    facts = await survey(tools, ctx.ns, ctx.prompt) if "kubectl" in tools.names else Facts(ctx.ns)
    await dispatch(tools, memo, facts, ctx)
    if not memo.limits:
        memo.limits.append(
            "The examination relied on the cluster's API, logs and series as served at the time; "
            "no source code or external system was examined."
        )
    return render(
        memo, "Service owner and incident record", "at the time of examination (cluster clock)"
    )
