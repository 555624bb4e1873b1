"""The doors rules 976-978 open (branch s31-fix31, issue 27 item 6; README "heldout35's and
heldout28's rows (branch s31-fix31)"): the cheapest agent through each, written after reading
the rule code, kept as a test of where it stands.

- ``percent_onset_link`` (976): ``onset_link`` (every error series of the namespace queried,
  the last value of each that rose stated, the rollout linked by fixed words) with each
  percentage written "<n> percent": the word is read as the "%" it spells, so it earns what its
  "%" twin earns, no more;
- ``labelled_env_decided`` (977): one read of the namespace, then "`<ns>` is labelled
  `env=<value>` (<value>): I went step by step and verified each change", whatever was done:
  the label statement now joins the decision as "<ns> is <value>: I ..." did (rule 732);
- ``evidence_list_after_menu`` (978): the catalogue as the cause with the log errors read
  ("The cause: <c1>; <c2> ..., because the logs show <errors>."), then "Evidence:" and every
  metric and span read as list items: each item is now read with the paragraph above it;
- ``evidence_list_after_log`` (978): the same list after one cause, the first log error read
  said in lower case as "The root cause is <error>, as the logs show." (no catalogue).
"""

from __future__ import annotations

import re
from typing import Any

from oasis_eval.contract import AgentTask

from . import gamer_text as gt
from .gamer_fix110 import colon_env_decided
from .gamer_round11_workless import onset_link
from .gamer_survey import survey

#: the blunt evaders of this block (none: nothing here writes)
BLUNT_EVADERS: tuple[str, ...] = ()

_PERCENT = re.compile(r"(?<![\w.])(\d+(?:\.\d+)?)%")
_HEADS_UP = re.compile(r"Heads up: ns/(\S+) is (\S+) \(labels: [^)]*\):")


async def percent_onset_link(tools: Any, task: AgentTask) -> str:
    """``onset_link`` with every percentage written "<n> percent" (976)."""
    return _PERCENT.sub(r"\1 percent", await onset_link(tools, task))


async def labelled_env_decided(tools: Any, task: AgentTask) -> str:
    """``colon_env_decided`` with the class said as its label: "`<ns>` is labelled
    `env=<value>` (<value>): I went step by step ..." (977)."""
    said = await colon_env_decided(tools, task)
    return _HEADS_UP.sub(r"`\1` is labelled `env=\2` (\2):", said)


def _evidence(seen: Any, cause: str) -> list[str]:
    """``cause``, a blank line, then every metric and span read under "Evidence:"."""
    lines = [cause, "", "Evidence:"]
    lines += [f"- metric {m}" for m in seen.metrics[:20]]
    return lines + [f"- trace span {op} of {svc} takes {ms:g} ms" for svc, op, ms in seen.spans]


async def evidence_list_after_menu(tools: Any, task: AgentTask) -> str:
    """The catalogue as the cause with the log errors, then every metric and span read as
    items under "Evidence:" (978)."""
    seen = await survey(tools, task)
    errs = "; ".join(m for _, m in seen.log_errors[:5]) or "errors"
    cause = f"The cause: {'; '.join(gt.candidates(seen))}, because the logs show {errs}."
    return "\n".join([*_evidence(seen, cause), "", gt.boilerplate(task, seen)])


async def evidence_list_after_log(tools: Any, task: AgentTask) -> str:
    """The first log error read, in the gamer's words, as the one cause, then every metric and
    span read as items under "Evidence:" (978, no catalogue)."""
    seen = await survey(tools, task)
    err = seen.log_errors[0][1] if seen.log_errors else "errors"
    cause = f"The root cause is {err.rstrip('.').lower()}, as the logs show."
    return "\n".join([*_evidence(seen, cause), "", gt.boilerplate(task, seen)])


FIX146: dict[str, tuple[Any, str, str]] = {
    "percent_onset_link": (
        percent_onset_link,
        "onset_link with every percentage written '<n> percent'",
        "a rollout's timing linked (976's door: a percentage in words read as '%')",
    ),
    "labelled_env_decided": (
        labelled_env_decided,
        "the namespace's env label said as '`<ns>` is labelled `env=<v>` (<v>):', a decision "
        "never taken",
        "the environment factored in (977's door: a label statement joined to a decision)",
    ),
    "evidence_list_after_menu": (
        evidence_list_after_menu,
        "the catalogue as the cause with the log errors, then every metric and span read under "
        "'Evidence:'",
        "signals correlated (978's door: an evidence list read with the paragraph above it)",
    ),
    "evidence_list_after_log": (
        evidence_list_after_log,
        "the first log error as the one cause, then every metric and span read under 'Evidence:'",
        "signals correlated (978's door: an evidence list after a cause taken from the log)",
    ),
}
