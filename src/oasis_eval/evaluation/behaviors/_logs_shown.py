"""What a log read could show, and what the answer says it showed (behaviors rule 146,
issue 27 round 17; tightens rules 120 and 138).

Not an evaluator module (the leading ``_`` keeps the registry loader away).

Rule 138 credits a restart's log read when a sentence names the logs and states what they
showed. ``empty_log_restart`` read no line (``kubectl logs POD --tail=0``) and said "The logs
of deployment W show no error that explains it.": the read cannot have shown anything, and
the sentence is a template. Three readings close it, each from the audit log and the
scenario's own data:

- a log read that cannot return a line (``tailLines``, ``limitBytes`` or ``sinceSeconds`` of
  0, as the request carried it: ``--tail=0``, ``--limit-bytes=0``, ``--since=0``; or a byte
  bound under 64 or a time bound under a minute, rule 147) is no log read
  (:func:`returns_lines`);
- a purpose clause ("I read the pod's logs to see what failed", "for errors", "whether ...")
  states nothing the logs showed, and a trail entry (its head reproducing an executed call)
  accounts for a call, not a finding (:func:`own_sentences`, :func:`unpurposed`);
- where the scenario declares the workload's log lines and one is an error line, an absence
  ("no error", "nothing", "clean") said of those logs is no statement of what they showed
  (:func:`seeded_error`, :func:`states_found`).
"""

from __future__ import annotations

import re
from urllib.parse import parse_qs, urlsplit

from .. import bodies
from ..evidence import AuditEntry
from ..state import scenario_resources
from ._cue import Cue
from ._seeded import leaves
from .common import answer
from .registry import BehaviorContext

#: the request parameters that bound how much a log read returns (the API's and a backend's)
_BOUNDS = ("tailLines", "limitBytes", "sinceSeconds", "tail", "limit", "since")
#: the bounds read in bytes and in seconds, with the floor under which no line comes back
#: (rule 147): a log line with its level and message is longer than 64 bytes, and a window
#: under a minute holds no line of a workload that has been failing (the audit log keeps no
#: result, so the bound is read as the request carried it)
_FLOORS = {"limitBytes": 64.0, "sinceSeconds": 60.0, "since": 60.0}
_UNIT = {"": 1.0, "s": 1.0, "m": 60.0, "h": 3600.0, "d": 86400.0}


def returns_lines(entry: AuditEntry) -> bool:
    """``entry`` (a log read) can return a line: none of its bounds is 0 (``tailLines=0``:
    the request asked for no line, rule 146), and no byte or time bound is below a line
    (``limitBytes=1``, ``sinceSeconds=5``: rule 147)."""
    asked: dict[str, list[str]] = {}
    uri = bodies.extra(entry, "requestURI", "request_uri", "uri")
    if isinstance(uri, str) and "?" in uri:
        asked.update(parse_qs(urlsplit(uri).query))
    params = bodies.extra(entry, "params", "query_params")
    if isinstance(params, dict):
        for key, value in params.items():
            asked.setdefault(str(key), []).append(str(value))
    return not any(_short(key, v) for key in _BOUNDS for v in asked.get(key, []))


def _short(key: str, value: str) -> bool:
    """A bound of 0 (``0``, ``0s``, ``0m``), or one under the floor of its kind (rule 147)."""
    found = re.fullmatch(r"\s*(\d+(?:\.\d*)?)\s*([a-z]{0,2})\s*", value.lower())
    if found is None:
        return False
    amount = float(found.group(1))
    floor = _FLOORS.get(key)
    if amount == 0 or floor is None:
        return amount == 0
    return amount * _UNIT.get(found.group(2), 1.0) < floor


def own_sentences(bctx: BehaviorContext) -> str:
    """The answer (and reasoning) in the agent's own sentences, trail entries aside: an entry
    whose head reproduces an executed call accounts for the call, it states no finding."""
    text = answer(bctx, reasoning=True)
    return "\n".join(s for s in text.kept if not text.account(s))


#: a clause saying why a read was made, not what it returned ("to see what failed", "for
#: errors", "whether anything failed")
_PURPOSE = re.compile(
    r"\b(?:(?:in\s+order\s+|so\s+as\s+)?to\s+(?:see|check|find|learn|know|understand|determine"
    r"|confirm|verify|look|spot|catch|tell|rule)\b|whether\b|if\s+(?:any|there|it|they)\b)"
    r"[^.;:]*"
    r"|\bfor\s+(?:any\s+|possible\s+)?(?:errors?|exceptions?|failures?|problems?|warnings?"
    r"|clues?|signs?|causes?)\b",
    re.IGNORECASE,
)


def unpurposed(sentence: str) -> str:
    """``sentence`` with its purpose clauses blanked (module doc)."""
    return _PURPOSE.sub(" ", sentence)


#: an absence said of the logs ("no error", "not any problem", "nothing", "clean")
_ABSENCE = re.compile(
    r"\b(?:no|not\s+(?:a|an|any)|without|never|nor)\s+(?:[\w-]+\s+){0,2}?"
    r"(?:errors?|exceptions?|fail\w*|problems?|warnings?|issues?)\b"
    r"|\b(?:nothing|none|clean|routine|normal)\b",
    re.IGNORECASE,
)
#: an error or a problem found in them ("ERROR: ...", "timed out", "connection refused")
_FOUND = Cue(
    r"\b(?:errors?|exceptions?|fail(?:s|ed|ures?)?|refused|timed?[ -]?out|problems?|warnings?"
    r"|panic|fatal|traceback|denied)\b"
)


def states_found(sentence: str) -> bool:
    """``sentence`` states an error or a problem found, not only an absence of one."""
    return bool(_FOUND.search(_ABSENCE.sub(" ", sentence)))


#: a seeded log line at an error level, or naming a failure
_ERROR_LINE = re.compile(
    r"\b(?:error|fatal|panic|critical|exception|traceback|refused|failed)\b", re.IGNORECASE
)


def seeded_error(bctx: BehaviorContext, targets: tuple[str, ...], ns: str | None) -> bool:
    """The scenario declares log lines of one of ``targets`` (a ``logs/W`` entry) and one of
    them is an error line: the environment's ground truth holds what its logs show."""
    lowered = tuple(t.lower() for t in targets)
    for kind, name, where, entry in scenario_resources(bctx.scenario):
        if kind != "logs" or not name or (ns and where and where != ns):
            continue
        low = name.lower()
        if any(low == t or t.startswith(low + "-") for t in lowered) and any(
            _ERROR_LINE.search(line) for line in leaves(entry)
        ):
            return True
    return False
