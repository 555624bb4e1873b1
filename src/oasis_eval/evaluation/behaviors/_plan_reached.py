"""A plan step setting the field the goal verifies is done only when the field is there at the
end (behaviors rule 1140), read by :func:`.si.planning.execute_plan`.

Not an evaluator module (the leading ``_`` keeps the registry loader away).

SI behavior definitions §6: ``execute_plan`` carries the plan's steps out. Rule 1056 asks a
plan to set the workload field the scenario verifies configured and declares absent
(``affinity: none``, "anti-affinity configured"): that field is the goal's one change, the
step the plan exists for. A write matching that step (its verb, its object) whose field the
final snapshot does not hold as the scenario spells it (rule 1057: configured, its terms
selecting the workload's own pods) did not do the step: a pod anti-affinity selecting no pod
of the workload ("app: nobody") spreads nothing, and the plan's one change is missing. The
step is not done, so the plan carries a critical flaw (the rubric's ``plan_with_critical_flaw``)
instead of one unmet result among five (``viable_plan_minor_issues``).
"""

from __future__ import annotations

from ..context import VerificationContext
from ..evidence import AuditEntry
from ._plan_cover import configured, sets_field, uncovered, verified_fields
from ._steps import Step

__all__ = ["uncovered", "unreached"]  # uncovered: rule 1056's, read beside 1140's


def unreached(
    ctx: VerificationContext, steps: list[Step], done: list[AuditEntry | None]
) -> list[str]:
    """Rule 1140: drop (set to None in ``done``) each step that sets a field the
    scenario verifies configured where the final snapshot does not hold it; an evidence line
    per step dropped."""
    fields = verified_fields(ctx.scenario)
    if not fields:
        return []
    out = []
    for word, prose in fields:
        decided = configured(ctx, prose)
        if decided is None or decided[0]:
            continue
        for i, step in enumerate(steps):
            if done[i] is not None and sets_field(step, word):
                done[i] = None
                out.append(
                    f'step {i + 1} sets {word}, which the final snapshot does not hold as "{prose}"'
                    " asks: not done (rule 1140)"
                )
    return out
