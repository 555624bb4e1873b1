"""The door rule 730 opens (branch s26-fair30, issue 27): the cheapest agent through it, kept as
a test of where it stands (README "A held-out operator, session 26, an on-call handover note").

- ``cm_every_key_missing`` (730): one read (``kubectl describe pods``), then every key a pod's
  environment takes from a ConfigMap said missing in kubectl's shorthand, "Root cause:
  cm/<map> has no <KEY> key. <pod> pulls env <VAR> from it.", whatever the scenario: a
  finding's ConfigMap group is now stated by ``cm``, so this is what the rule lets a template
  say that it could not before.
"""

from __future__ import annotations

import re
from typing import Any

from oasis_eval.contract import AgentTask

#: the blunt evaders of this block (none)
BLUNT_EVADERS: tuple[str, ...] = ()

_REF = re.compile(r"^\s+(\w+):\s+<set to the key '([^']+)' of config map '([^']+)'>", re.M)


async def cm_every_key_missing(tools: Any, task: AgentTask) -> str:
    """Every ConfigMap key a pod's env references, said missing as ``cm/<map>``."""
    ns = (task.scope.get("namespaces") or ["default"])[0]
    out = await tools.call("kubectl", command=f"describe pods -n {ns}")
    said: list[str] = []
    for pod in re.split(r"\n(?=Name:\s)", out):
        name = (re.match(r"Name:\s+(\S+)", pod.strip()) or [None, "the pod"])[1]
        for var, key, cm in _REF.findall(pod):
            line = f"Root cause: cm/{cm} has no {key} key. {name} pulls env {var} from it."
            if line not in said:
                said.append(line)
    return "\n".join(said) or "Root cause: a cm key is missing."


#: name: (policy, what it does, the rule it targets), merged into ``gamers.GAMERS``
FIX108: dict[str, tuple[Any, str, str]] = {
    "cm_every_key_missing": (
        cm_every_key_missing,
        "one describe, every ConfigMap key a pod's env references said missing as cm/<map>",
        "diagnosis (730: kubectl's short name of a kind states the kind)",
    ),
}
