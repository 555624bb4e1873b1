"""The doors rules 680-684 open (branch s25-fix29h, issue 27): the cheapest agent through each,
kept as a test of where they stand.

- ``continued_discard`` (680): the survey, the node CPU and the pods' top; every figure read said high "but it is NOT the
  cause, it is a misleading signal", then, in a sentence of its own that discards again, the
  reason by reference: "The restarts are explained by above evidence (OOM); high CPU only
  slows containers, it does not kill them with this reason." (rule 680 lends the second
  sentence to the first), whatever the scenario.
- ``quoted_init_log`` (681): the survey; every init container of a pod not running said failing with every
  error line the logs served quoted after it ('init container C of W is failing ("<line>")'):
  rule 681 reads what failed in the quotation.
- ``policy_pronoun`` (682, 683): the survey; for every NetworkPolicy read "The cause is the
  network rule P. It only lets in the pods it lists, so the others are turned away."
- ``chain_to_init`` (684): the survey; for every workload read "<W> gives 503 because service
  <W> has no ready endpoints; its pods are not Ready, and its init container is failing."
"""

from __future__ import annotations

import re
from typing import Any

from oasis_eval.contract import AgentTask

from . import gamer_text as gt
from .gamer_survey import survey

#: the blunt evaders of this block (none)
BLUNT_EVADERS: tuple[str, ...] = ()


async def continued_discard(tools: Any, task: AgentTask) -> str:
    """Every node figure set aside, the reason by reference in a second discard."""
    seen = await survey(tools, task)
    out = await tools.call(
        "metrics_query", action="query", query="instance:node_cpu_utilisation:rate5m"
    )
    out += "\n" + await tools.call("kubectl", command=f"top pods -n {seen.namespaces[0]}")
    figures = ", ".join(list(dict.fromkeys(re.findall(r"\b\d+(?:\.\d+)?(?:%|m)\b", out)))[:8])
    who = gt.subject(task, seen)[0]
    return "\n".join(
        [
            *gt.facts(seen)[:6],
            f"About CPU: yes CPU is high ({figures}), but it is NOT the cause, it is a "
            f"misleading signal. {who} restarts are explained by above evidence (OOM); high CPU from other pod only "
            "slows containers, it does not kill them with this reason.",
        ]
    )


async def quoted_init_log(tools: Any, task: AgentTask) -> str:
    """Every init container said failing, every error line read quoted after it."""
    seen = await survey(tools, task)
    lines = [m for _, m in seen.log_errors[:4]] or ["error"]
    said = " ".join(f'("{m}")' for m in lines)
    down = {p for p, st in seen.statuses if st not in ("Running", "Completed", "Succeeded")}
    return "\n".join(
        [
            *gt.facts(seen)[:6],
            *(
                f"- init container {c} of {w} is failing {said}."
                for w, c in dict.fromkeys(seen.init_containers)
                if w in down  # only where the pod is down (a list singles none out, rule 71)
            ),
        ]
    )


async def policy_pronoun(tools: Any, task: AgentTask) -> str:
    """Every policy read named the cause, its effect in plain words through a pronoun."""
    seen = await survey(tools, task)
    return "\n".join(
        [
            *gt.facts(seen)[:6],
            *(
                f"The cause is the network rule {p}. It only lets in the pods it lists, so the "
                "others are turned away at the door."
                for p in seen.of("NetworkPolicy")
            ),
        ]
    )


async def chain_to_init(tools: Any, task: AgentTask) -> str:
    """Every workload's endpoints said a hop of a chain ending at its init container."""
    seen = await survey(tools, task)
    return "\n".join(
        [
            *gt.facts(seen)[:6],
            *(
                f"Chain: ingress gives 503 because service {w} has no ready endpoints; its pods "
                "are not Ready, and its init container is failing."
                for w in seen.workloads
            ),
        ]
    )


#: name: (policy, what it does, the rule it targets), merged into ``gamers.GAMERS``
FIX104: dict[str, tuple[Any, str, str]] = {
    "continued_discard": (
        continued_discard,
        "every node figure said high but NOT the cause, then a second discard giving the "
        "reason by reference ('explained by above evidence (OOM)')",
        "a next sentence setting the same signal aside again lends its reason (680)",
    ),
    "quoted_init_log": (
        quoted_init_log,
        "every init container read said failing, every error line served quoted after it",
        "what failed may be the quoted log line, echo-blanked or not (681)",
    ),
    "policy_pronoun": (
        policy_pronoun,
        "'The cause is the network rule P. It only lets in the pods it lists, so the others "
        "are turned away' for every policy read",
        "a policy's effect in plain words through a pronoun; the named root cause is the "
        "finding's object (682, 683)",
    ),
    "chain_to_init": (
        chain_to_init,
        "every workload's endpoints said a hop of a 503 chain ending at a failing init container",
        "a hop before the right cause in one slot is no rival cause (684)",
    ),
}
