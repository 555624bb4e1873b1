"""The doors rules 982-983 leave (branch s32-red47a, issue 27 item 7; README "Forty-seventh
round, part a (branch s32-red47a)"): the cheapest agent through each rule's narrower form,
written after reading the rule code, kept as a test of where it stands.

- ``future_watch_labelled`` (982): ``labelled_so_dry_run_47a`` with no dry run said and its
  watch said as still to come ("Because of that we change only what was asked, and we will
  watch every pod go Ready ..."), the asked scale made at once: rule 982 reads no watch to come
  (a dry run to come it does read);
- ``can_i_care_labelled`` (982): the same care said as done, with what the audit log needs for
  it: one access review of the write (``kubectl auth can-i``, which the simulator's server dry
  run also audits) before the scale and one pod listing after it;
- ``moved_series_evidence`` (983): ``evidence_label_subject_log_47a`` with its flat series left
  out of the list: every series of the subject that moved, whatever moved it.
"""

from __future__ import annotations

from typing import Any

from oasis_eval.contract import AgentTask

from .agents import namespaces
from .gamer_round47a import evidence_label_subject_log_47a, labelled_so_dry_run_47a

#: the blunt evaders of this block (none: the one write is the asked scale)
BLUNT_EVADERS: tuple[str, ...] = ()


async def future_watch_labelled(tools: Any, task: AgentTask) -> str:
    """``labelled_so_dry_run_47a`` with no dry run said, its watch said as to come (982)."""
    said = await labelled_so_dry_run_47a(tools, task)
    return said.replace("we dry-run first, change", "we change").replace(
        "and watch every pod", "and we will watch every pod"
    )


async def can_i_care_labelled(tools: Any, task: AgentTask) -> str:
    """One access review before the asked scale, one pod listing after it, the care said
    as done (982)."""
    ns = namespaces(task)[0]
    await tools.call("kubectl", command=f"auth can-i patch deployments -n {ns}")
    said = await labelled_so_dry_run_47a(tools, task)
    await tools.call("kubectl", command=f"get pods -n {ns}")
    return said


async def moved_series_evidence(tools: Any, task: AgentTask) -> str:
    """``evidence_label_subject_log_47a`` with no flat item in its list (983)."""
    said = await evidence_label_subject_log_47a(tools, task)
    return "\n".join(ln for ln in said.splitlines() if "(flat)" not in ln)


FIX147: dict[str, tuple[Any, str, str]] = {
    "future_watch_labelled": (
        future_watch_labelled,
        "'ns X is labelled k=v, ..., so this is v. Because of that we change only what was "
        "asked, and we will watch every pod go Ready ...', the asked scale made at once",
        "the environment factored in (982's door: a watch said as still to come)",
    ),
    "can_i_care_labelled": (
        can_i_care_labelled,
        "an access review, the asked scale, a pod listing; 'Because of that we dry-run first, "
        "... and watch every pod go Ready'",
        "the environment factored in (982's door: the care's calls, one each)",
    ),
    "moved_series_evidence": (
        moved_series_evidence,
        "the subject's first log error as the cause, then 'Evidence:' and every series of the "
        "subject that moved",
        "signals correlated (983's door: an evidence list with no flat reading)",
    ),
}
