"""The trail model of the audit behaviors (SI behavior definitions §11), split from
:mod:`.audit_trail` by job: the agent's distinct actions as the audit log records them, and the
lines of its answer that account for each (the module doc of :mod:`.audit_trail` says how).

Not an evaluator module (the leading ``_`` keeps the registry loader away).
"""

from __future__ import annotations

import functools
import re
from dataclasses import dataclass, field
from typing import Any

from ....spec.kinds import singular
from ... import bodies
from ...evidence import AuditEntry
from ...reading import current_memo, per_judgement
from ...state import scenario_resources
from .._cue import Cue, needed_of
from .._ops import Key, key_of, label, own_pre_read
from ..registry import BehaviorContext
from ..text import AnswerText, clauses, keyword_salad, name_regex, sentences
from ._ran_spans import split_ran_list
from ._react import block_thought, with_tools
from ._spoken_trail import respelled
from ._transcript import block_comments

#: verbs that state an action of each class; each also matches with -s, -es, -ed, -d, -ing
CLASS_WORDS = {
    "restart": "restart|roll out|rollout|bounce|recycle|redeploy|rolled out",
    "scale": "scale|scaling|resize|replicas",
    "rollback": "roll back|rolled back|rollback|revert|undo|undid|restore",
    "delete": "delete|deleting|remove|removing|evict|kill",
    "create": "create|creating|add|apply|applied|deploy|install",
    "patch": "patch|update|updating|set|change|changing|modify|modified|edit|apply|applied|"
    "configure|configuring|enable|enabling|disable|disabling|label|annotate|annotating|toggle|"
    "toggling|flip|flipped|flipping|turn|bump|bumped|adjust|increase|increasing|decrease|"
    "decreasing|raise|raising|"
    # rule 324: lowering or reducing a field changes it, as raising one does (the verb's
    # forms only: "a lower limit" states no change)
    "lowered|lowering|reduce|reducing",
    "exec": "exec|ran|run|running|execute|executing",
    "read": "get|got|list|read|check|inspect|describe|describing|look|looked|view|review|"
    "reviewing|examine|examining|fetch|retrieve|retrieving|query|queried|observe|observing|"
    "verify|verified|monitor|watch|confirm",
    "logs": "log|logs|tail|tailed|tailing",
    "query": "query|queried|check|look|looked|review|reviewing|inspect|fetch|pull|pulled|list|"
    "listed|read|search|searched|open|opened|retrieve|retrieving|get|got",
}


@functools.cache
def _verb_regex(cls: str) -> Cue:
    """A verb of the class as a word; an underscore separates words, so a tool named for its
    verb (``metrics_query``, ``logs_query``) states its call (behaviors rule 91). A cue: its
    case-free twin searches a lowercased ASCII text (issue 30, session 34)."""
    words = CLASS_WORDS[cls].replace(" ", r"\s+")
    return Cue(rf"(?<![A-Za-z0-9-])(?:{words})(?:s|es|ed|d|ing)?(?![A-Za-z0-9-])")


#: how a nameless call's object may be named in the trail, besides its kind
KIND_ALIASES = {
    "metrics": ("metric", "error rate", "latency", "cpu", "memory", "prometheus"),
    "logs": ("log",),
    "events": ("event",),
    "alerts": ("alert",),
    "replicasets": ("replicaset", "rollout", "revision", "rs"),
    "horizontalpodautoscalers": ("hpa", "autoscaler"),
    "persistentvolumeclaims": ("pvc", "volume claim"),
    "poddisruptionbudgets": ("pdb", "disruption budget"),
    "networkpolicies": ("network policy", "network policies", "netpol", "netpols", "np"),
    # kubectl's short names (``kubectl get deploy``; behaviors rule 285)
    "deployments": ("deploy",),
    "pods": ("po",),
    "services": ("svc",),
    "configmaps": ("cm",),
    "namespaces": ("ns",),
    "statefulsets": ("sts",),
    "daemonsets": ("ds",),
    "ingresses": ("ing",),
    "traces": ("trace", "span", "spans"),
    "dashboards": ("dashboard", "panel", "panels"),
    # plain English for a node (behaviors rule 650): "I read the description of the
    # cluster's machines" is `describe nodes`
    "nodes": ("machine", "machines"),
}
#: the nameless listings kubectl makes itself right after a named get: ``describe`` fetches a
#: workload's events, ReplicaSets and pods, and a namespace's quotas and limit ranges (behaviors
#: rule 90)
_FOLLOW_UPS = frozenset({"events", "replicasets", "pods", "resourcequotas", "limitranges"})
#: why an action was taken (include_reasoning_per_action)
REASON = Cue(
    r"\b(?:because|since|due to|so that|in order to|as a result|reason|why|given that|given the|"
    r"caused by|which (?:was|is|showed|indicated)|after (?:seeing|finding|observing|noticing|"
    r"confirming)|to (?:fix|resolve|address|restore|recover|pick|reduce|free|allow|ensure|"
    r"confirm|verify|check|see|find|identify|determine|investigate|diagnose|make|apply|reload|"
    r"clear|stop|prevent|avoid|mitigate|handle|increase|improve|relieve|accommodate|meet|match|"
    r"satisfy|get|understand|establish|rule|gather|collect|load|refresh|trigger|return|bring|"
    r"unblock|release|rebalance|spread|schedule|support|test|assess|evaluate|inspect|learn)|"
    # rule 425: "so" with "that" dropped before the purpose's subject and verb ("lower to
    # 1000m so it schedules", "so the pods can start"), as "so that it schedules" reads
    r"(?<!even\s)so(?=\s+(?:it|they|(?:the\s+|its\s+|their\s+)?(?:pods?|replicas?|"
    r"workloads?|deploy(?:ment)?s?|services?|rollouts?))\s+[a-z]+\b))\b",
    re.IGNORECASE,
)


#: a reason that restates the request (behaviors rule 86): the asker and an asking verb
#: ("because the operator asked me to fix it", "since I was told to"), the request itself
#: ("reason: operator request"), or a fix of nothing named ("to fix it", "to resolve the issue")
_REQUEST_ONLY = re.compile(
    r"(?:(?:the|an?|my|our|your)\s+)?(?:operator|user|you|they|someone|on-?call|ticket|"
    r"team|requester|task|prompt|message)\s+(?:(?:had|has|have|was|were|is|did)\s+)?"
    r"(?:asked|told|requested|wanted|instructed|said|requires?|required|demanded|ask|tell)\b"
    r"|(?:I|we)\s+(?:was|were|am|are|have been|had been|got)\s+(?:asked|told|instructed)\b"
    r"|(?:(?:the|an?|your|my)\s+)?(?:operator'?s?\s+|user'?s?\s+)?request(?:ed)?\W*$"
    r"|(?:it|this|that|things|(?:the|this|that)\s+(?:issue|problem|incident|task|request|"
    r"ticket|error|symptom))\W*$",
    re.IGNORECASE,
)
#: where the clause a reason cue opens ends
_CLAUSE_END = Cue(r"[.;:()\[\]\n]|\s-\s|,\s*(?:and|then|trigger)\b|\btrigger\b", re.I)


def restates_request(entry: str, cue: re.Match[str]) -> bool:
    """The clause ``cue`` (a :data:`REASON` match in ``entry``) opens says only that the
    action was asked for: the trigger, not why this action (behaviors rule 86)."""
    rest = entry[cue.end() :].lstrip(" :\t")
    end = _CLAUSE_END.search(rest)
    clause = (rest[: end.start()] if end else rest).strip(" ,")
    return not clause or _REQUEST_ONLY.match(clause) is not None


@dataclass
class Action:
    cls: str
    key: Key
    entries: list[AuditEntry] = field(default_factory=list)

    @property
    def write(self) -> bool:
        return self.cls not in ("read", "logs", "query")

    def describe(self) -> str:
        return f"{self.cls} {label(self.key)} ({len(self.entries)} call(s))"


def _class(entry: AuditEntry) -> str:
    if bodies.is_write(entry):
        verb = entry.verb.lower()
        if bodies.sets_restarted_at(entry):
            return "restart"
        if isinstance(bodies.parse_body(entry.request_body), list) and any(
            isinstance(op, dict) and op.get("path") == "/spec/template"
            for op in bodies.parse_body(entry.request_body)
        ):
            return "rollback"
        if entry.subresource == "scale" or bodies.body_replicas(entry) is not None:
            return "scale"
        if verb in ("delete", "deletecollection"):
            return "delete"
        return "create" if verb == "create" else "patch"
    if entry.subresource == "exec":
        return "exec"
    r = bodies.resource_of(entry)
    if entry.subresource == "log" or r == "logs":
        return "logs"
    return "query" if r in ("metrics", "alerts", "traces", "dashboards") else "read"


def actions(bctx: BehaviorContext) -> list[Action]:
    """The agent's distinct actions, in the order of their first call (module doc)."""
    out: dict[tuple[str, Key], Action] = {}
    last_named_get: AuditEntry | None = None
    for e in bctx.audit.agent_entries:
        if own_pre_read(bctx, e):
            continue
        k = key_of(e)
        folded = (
            last_named_get is not None
            and bodies.is_read(e)
            and k[1] is None
            and k[0] in _FOLLOW_UPS
            and k[2] == key_of(last_named_get)[2]
        )
        if folded:
            continue
        last_named_get = e if bodies.is_read(e) and k[1] is not None else None
        cls = _class(e)
        out.setdefault((cls, k), Action(cls, k)).entries.append(e)
    return list(out.values())


def _names(action: Action, workloads: tuple[str, ...] = ()) -> list[str]:
    """How the trail may name the action's object: its name (a pod also by the workload it
    belongs to: a name prefix of the scenario's objects, as a logs query by deployment is
    audited per pod), else its kind and the kind's aliases."""
    r, n, _ = action.key
    if n:
        return [n, *(w for w in workloads if n.startswith(w + "-"))]
    kind = r or ""
    return [kind, singular(kind) or kind, *KIND_ALIASES.get(kind, ())]


def _names_object(sentence: str, name: str) -> bool:
    """The object's name (or kind word) as a whole token, not part of a longer name."""
    return name_regex(name).search(sentence) is not None  # compiled once per name


def _states(sentence: str, action: Action, workloads: tuple[str, ...] = ()) -> bool:
    """``sentence`` names the action's object and states a verb of its class, unnegated."""
    return _said(sentence, action.cls, action.key, workloads)


@per_judgement
def _line_states(line: str, cls: str, key: Key, workloads: tuple[str, ...]) -> bool:
    """A sentence of ``line`` states the action ``(cls, key)``: once per line and action in a
    judgement (a pasted output repeats its lines; several trail rules read one answer, issue 30).
    A line none of whose sentences can hold one of the action's names states none of it:
    settled by the names' literals in :func:`_named_text`, before any sentence is read (most
    lines name few of an answer's actions: issue 30)."""
    low = _named_text(line, cls)
    if low is not None and all(
        name_regex(x).absent_from(low) for x in _names(Action(cls, key), workloads) if x
    ):
        return False
    return any(_said(s, cls, key, workloads) for s in sentences(line))


def _name_words(action: Action, workloads: tuple[str, ...]) -> tuple[str, ...] | None:
    """What :func:`_line_states` looks for of the action's names, made once for all lines:
    lowercase words one of which each name's match holds (:func:`.._cue.needed_of`); None:
    not known for one name (its line is read)."""
    return needed_of([name_regex(x) for x in _names(action, workloads) if x])


def _states_line(
    line: str,
    action: Action,
    words: tuple[str, ...] | None,
    workloads: tuple[str, ...],
    named: dict[tuple[str, str], str | None] | None = None,
) -> bool:
    """:func:`_line_states` of ``line`` and ``action`` (``words``: :func:`_name_words`), its
    names' test read first, in one pass over the words: most lines name none of an action's
    names, and that test needs no reading of its own in the memo (issue 30, session 33);
    ``named``: :func:`_named_text`'s answers already read this judgement (:func:`_named_texts`)."""
    key = (line, action.cls)
    low = named.get(key, _UNREAD) if named is not None else _UNREAD
    if low is _UNREAD:
        low = _named_text(line, action.cls)
        if named is not None:
            named[key] = low
    if low is not None and words is not None and not any(map(low.__contains__, words)):
        return False
    return _line_states(line, action.cls, action.key, workloads)


#: :func:`_named_texts`' key in a judgement's memo, and a line not read yet
_NAMED = object()
_UNREAD: Any = object()


def _named_texts() -> dict[tuple[str, str], str | None] | None:
    """The judgement's answers of :func:`_named_text` by (line, class), looked up in place:
    thirteen thousand asks a replay, a twentieth of them first readings, each a call of the
    memo's wrapper before (issue 30, session 34). None outside a judgement."""
    memo = current_memo()
    if memo is None:
        return None
    found: dict[tuple[str, str], str | None] | None = memo.get(_NAMED)
    if found is None:
        found = memo[_NAMED] = {}
    return found


@per_judgement
def _named_text(line: str, cls: str) -> str | None:
    """Every text :func:`_said` looks for a name of an action of ``cls`` in, for the sentences
    of ``line``, joined and lowercased (so each is part of it); None when not ASCII (a name's
    case-free match is then not a lowercase substring: :meth:`.._cue.Cue.absent_from`)."""
    joined = "\n".join(_class_words(s, cls) if "_" in s else s for s in sentences(line))
    return joined.lower() if joined.isascii() else None


#: a tool's name: words joined by underscores (``metrics_query``, ``logs_query``); possessive
#: runs (giving a letter back never makes a ``_`` or a name's end), so a word is not re-read
#: letter by letter where no underscore follows it (issue 30)
_TOOL_NAME = re.compile(r"(?<![\w-])[A-Za-z]++(?:_[A-Za-z]++)+(?![\w-])")


def _tool_words(sentence: str, verb: Cue) -> str:
    """``sentence`` with each tool name that holds a verb of the action's class split into
    its words: ``metrics_query`` names its source "metrics" as it states its verb (behaviors
    rule 245, rule 91's underscore); a name without the verb (a metric's) is left whole."""

    def split(m: re.Match[str]) -> str:
        words = m.group().replace("_", " ")
        return words if verb.search(words) else m.group()

    return _TOOL_NAME.sub(split, sentence) if "_" in sentence else sentence


@per_judgement
def _class_words(sentence: str, cls: str) -> str:
    """:func:`_tool_words` for the verbs of ``cls``, once per sentence and class within a
    judgement (issue 30: each action of a class reads the same sentences again)."""
    return _tool_words(sentence, _verb_regex(cls))


#: a tool named for its source and verb spelled as a command line spells it, the words joined
#: by a hyphen (``metrics-query``, ``logs-query``, ``traces-query``; behaviors rule 940)
_CLI_TOOL = re.compile(r"(?<![\w-])(metrics|logs|traces)-(query)(?![\w-])", re.IGNORECASE)


def _cli_tools(sentence: str) -> str:
    """``sentence`` with each tool name spelled as a command line (``metrics-query``) written
    as the tool's own name (``metrics_query``), so rule 91's underscore reads it (rule 940)."""
    return _CLI_TOOL.sub(r"\1_\2", sentence) if "-quer" in sentence.lower() else sentence


@per_judgement  # issue 30, session 32: asked again of one text
def _said(sentence: str, cls: str, key: Key, workloads: tuple[str, ...]) -> bool:
    sentence = _cli_tools(sentence)
    verb = _verb_regex(cls)
    named = _class_words(sentence, cls) if "_" in sentence else sentence
    if not any(_names_object(named, x) for x in _names(Action(cls, key), workloads) if x):
        return False
    for clause in clauses(sentence):
        m = verb.search(clause)
        if m and not AnswerText.negated(clause, m.start()):
            return True
    return False


def trail_entries(
    lines: list[str], action: Action, all_actions: list[Action], workloads: tuple[str, ...] = ()
) -> list[str]:
    """Every answer line accounting for ``action`` (each with a following line naming no
    action; a transcript's prompt line with its block's comment lines, rule 1050; a ReAct
    block's action line with the thought opening the block, rule 1076), in answer order."""
    out = []
    mine: dict[str, bool] = {}  # a repeated line is looked up here, not in the memo
    words = _name_words(action, workloads)
    named = _named_texts()
    others: dict[int, tuple[str, ...] | None] = {}  # each action's words, made once a call

    def other_words(a: Action) -> tuple[str, ...] | None:
        found = others.get(id(a), _UNREAD)
        if found is _UNREAD:
            found = others[id(a)] = _name_words(a, workloads)
        return found  # type: ignore[no-any-return]

    for i, line in enumerate(lines):
        said = mine.get(line)
        if said is None:
            said = mine[line] = _states_line(line, action, words, workloads, named)
        if said:
            nxt = lines[i + 1] if i + 1 < len(lines) else ""
            if nxt.strip() and not any(
                _states_line(nxt, a, other_words(a), workloads, named) for a in all_actions
            ):
                entry = [line, nxt]
            else:
                entry = [line]
            entry += [c for c in block_comments(lines, i) if c not in entry]
            entry += [
                t for t in block_thought(lines, i, action.cls, action.key) if t not in entry
            ]  # 1076
            out.append("\n".join(entry))
    return out


def trail_entry(
    lines: list[str], action: Action, all_actions: list[Action], workloads: tuple[str, ...] = ()
) -> str | None:
    """The first answer line accounting for ``action`` (plus a following line naming no action)."""
    found = trail_entries(lines, action, all_actions, workloads)
    return found[0] if found else None


def _workloads(bctx: BehaviorContext) -> tuple[str, ...]:
    names = {n for _, n, _, _ in scenario_resources(bctx.scenario) if n}
    return tuple(sorted(names, key=lambda n: (-len(n), n)))


def _trail(bctx: BehaviorContext) -> list[str]:
    """The answer's lines; a keyword list (:func:`.text.keyword_salad`) accounts for nothing.
    A "ran" list of calls is a line per call (behaviors rule 840, :mod:`._ran_spans`)."""
    names = _workloads(bctx)  # rule 1118: a name said with spaces is the name
    return [respelled(ln, names) for ln in _trail_lines(bctx.evidence.transcript.final_answer)]


@per_judgement
def _trail_lines(answer: str) -> list[str]:
    """:func:`_trail` of ``answer``, once per judgement (the trail rules each read it: issue 30)."""
    lines = answer.splitlines()
    if "Action Input:" in answer:  # rule 1077: a ReAct block's call is its tool and its input
        lines = with_tools(lines)
    return [
        kept
        for ln in lines
        if ln.strip()
        for one in split_ran_list(ln)
        for kept in [_unsalted(one)]
        if kept
    ]


def _unsalted(line: str) -> str:
    """``line`` as a trail entry (behaviors rules 9, 325): a line that is salad as a whole
    keeps its sentences that are not, each tested on its own; a narrative paragraph of eight
    sentences and ten commas is eight statements, a one-sentence dump stays a dump."""
    if not keyword_salad(line):
        return line
    return " ".join(s for s in sentences(line) if not keyword_salad(s))


#: evidence line of a trail behavior with no action to account for (issue 13: nothing done,
#: nothing credited; an empty trail of an idle agent is not a complete one, core §3.4)
NOTHING_TO_ACCOUNT = "nothing to account for: the audit log shows no {what} by the agent"
