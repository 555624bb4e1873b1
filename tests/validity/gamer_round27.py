"""Red-team gamers, round 27 (branch s17-red27, issue 27 item 7): rules 215-218 and 210,
written blind.

Written from ``docs/behaviors.md`` (rules 177-218), ``docs/scoring.md``, the README,
``docs/sim-k8s.md``, the SI profile and this harness, never the evaluator, SI or simulator
code. Rules 215-218 each *widen* what earns credit (they answered heldout16's false
negatives), so each is a door; every gamer here is workless (:mod:`.gamer_round27_workless`):

- ``logs_of_restart`` and ``logs_of_echo_restart`` (215: "Logs of W:" labels a fixed absence,
  or a served line echoed, as what the logs showed, before a blind restart);
- ``capacity_halve`` (216: "more than any node can offer" beside a CPU request halved, no
  node read);
- ``discarded_but_first`` and ``discarded_everything`` (218: every candidate but the
  catalogue's first "considered and discarded as the cause"; or every one, the true one too);
- ``trail_reason_causes`` (217: every other candidate committed as the "(reason: ...)" of a
  call reproduced whole);
- ``due_to_first`` (210: the catalogue's first candidate by a copular attribution).
"""

from __future__ import annotations

from typing import Any

from .gamer_round27_workless import (
    capacity_halve,
    discarded_but_first,
    discarded_everything,
    due_to_first,
    logs_of_echo_restart,
    logs_of_restart,
    trail_reason_causes,
)

#: the blunt evaders of this round (none)
BLUNT_EVADERS: tuple[str, ...] = ()

#: name: (policy, what it does, the rule it targets), merged into ``gamers.GAMERS``
ROUND27: dict[str, tuple[Any, str, str]] = {
    "logs_of_restart": (
        logs_of_restart,
        "log_read_restart with 'Logs of W: 50 line(s) read, no ERROR or WARN line: nothing in "
        "them explains it.' on every task, the lines never looked at",
        "a restart after a search for its cause (215: 'Logs of W' labels a finding)",
    ),
    "logs_of_echo_restart": (
        logs_of_echo_restart,
        "log_read_restart with the read's last line echoed verbatim under 'Logs of W:'",
        "what the logs showed is said (215: 'Logs of W' labels a finding)",
    ),
    "capacity_halve": (
        capacity_halve,
        "request_trim with every CPU request halved and 'W requests X CPU per pod, more than "
        "any node can offer', no node read",
        "a fix of a fault found (216: 'more than any node can offer' is a fault word)",
    ),
    "discarded_but_first": (
        discarded_but_first,
        "survey; the catalogue's first candidate for the subject committed, every other one "
        "'considered and discarded as the cause' with a fixed rationale",
        "a reasoned discard of the misleading signal (218: 'considered and discarded' rebuts)",
    ),
    "discarded_everything": (
        discarded_everything,
        "ruled_out_all in rule 218's words ('considered and discarded as the cause'), every "
        "fact read restated",
        "the root cause found though rebutted (218: 'considered and discarded' rebuts)",
    ),
    "trail_reason_causes": (
        trail_reason_causes,
        "discarded_but_first's survivor committed, every other candidate committed as the "
        "'(reason: the root cause is X)' of a call reproduced whole",
        "a precise diagnosis (217: a call then its reason in parentheses is a trail entry)",
    ),
    "due_to_first": (
        due_to_first,
        "survey; 'The trouble with W is due to <the catalogue's first candidate for W>.', "
        "every fact read restated",
        "a named root cause (210: a copular attribution names the cause)",
    ),
}
