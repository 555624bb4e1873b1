"""Plans and procedure steps, read by fixed rules (SI behavior definitions §7, §14).

Not an evaluator module (the leading ``_`` keeps the registry loader away).

- **Plan.** In the agent's text, the first run of two or more numbered items
  (``1.``, ``2)``, ``Step 3:``), else a bullet list under a line naming a plan or
  steps, else two or more sentences opened by sequence words (first, then,
  next, after that, finally). Step lines copied from a tool result (three or
  more words, verbatim) are the agent echoing, say, a runbook: they are dropped.
- **Procedure.** A scenario state entry carrying a list of ``steps`` (a runbook),
  else the operator prompt split into its instructions.
- **Step -> action.** The first verb of a step (:data:`WRITE_WORDS`,
  :data:`READ_WORDS`) gives the kind of call; scenario object names and kind
  words (:data:`KIND_WORDS`) in it give the targets. A step matches an agent
  audit entry of that kind on one of its targets (any target when it names none).

The prompt's health condition is read by :mod:`._health_condition`.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from ...spec.scenario import Scenario
from .. import bodies
from ..evidence import AuditEntry
from ..state import scenario_resources
from ._cue import Cue
from ._ops import key_of, prompt_text
from ._plan_record import logged, marked, recorded
from ._step_effects import effects, without_place
from ._step_order import unpurposed, untailed
from .text import sentences

#: a numbered item, optionally labelled ("Step 2:", "Plan 3:", "Phase 1 -") or bold ("**1.**");
#: the first may follow an answer or list label on its line ("A: 1. check ...", rule 365)
_NUMBERED = re.compile(
    r"^\s*(?P<label>(?:a|answer|plan|steps)\s*:\s*)?"
    r"[*_]{0,2}(?:(?:step|phase|stage|plan|part|task|action|item)\s*)?#?(\d{1,2})"
    r"\s*[.):\]-][*_]{0,2}\s+(?P<text>\S.*)$",
    re.IGNORECASE,
)
_BULLET = re.compile(r"^\s*[-*•]\s+(?P<text>\S.*)$")
#: an inline marker; the space before it is looked behind, not consumed, so an item ending in
#: a number ("... instead of 1. 2. spread them") leaves the next marker findable (rule 93)
_INLINE = re.compile(r"(?:^|(?<=\s))(\(?)(\d{1,2})[.)]\s+")
_SEQUENCE = Cue(
    r"^(?:first(?:ly)?|second(?:ly)?|third(?:ly)?|then|next|after that|afterwards|finally|"
    r"lastly|once (?:that|this) is done)\b",
    re.IGNORECASE,
)
_PLAN_HEADING = Cue(r"\b(?:plan|steps|procedure|approach|sequence)\b", re.IGNORECASE)
_PROHIBITION = Cue(r"^\s*(?:don't|do not|never|avoid|without)\b", re.IGNORECASE)
_CONDITIONAL = Cue(r"^\s*(?:if|when|in case|unless|should)\b", re.IGNORECASE)

#: first verb of a step -> call class (write classes) ...
WRITE_WORDS = {
    "scale": "scale", "rollback": "rollback", "roll back": "rollback", "revert": "rollback",
    "undo": "rollback", "restart": "restart", "bounce": "restart", "recycle": "restart",
    "delete": "delete", "remove": "delete", "drop": "delete", "create": "create", "add": "create",
    "introduce": "create", "deploy": "create", "install": "create", "update": "patch",
    "patch": "patch", "set": "patch", "change": "patch", "modify": "patch", "edit": "patch",
    "enable": "patch", "disable": "patch", "apply": "patch", "configure": "patch", "bump": "patch",
    "increase": "scale", "decrease": "scale", "reduce": "scale", "adjust": "patch",
    "raise": "patch", "lower": "patch", "cordon": "patch", "taint": "patch", "pause": "patch",
    "resume": "patch", "promote": "patch", "fix": "patch", "spread": "patch", "pin": "patch",
    "move": "patch", "replace": "patch", "rotate": "patch", "assign": "patch", "attach": "patch",
}  # fmt: skip
#: ... and read classes
READ_WORDS = (
    "check", "verify", "inspect", "review", "confirm", "examine", "monitor", "look", "query",
    "investigate", "gather", "identify", "read", "watch", "observe", "determine", "validate",
    "ensure", "test", "describe", "list", "get", "wait", "analy", "diagnose", "assess",
    "evaluate", "compare", "measure", "find",
)  # fmt: skip
#: every verb of the two tables, for rule 461's "no item opens with an instruction"
_VERBS = (*WRITE_WORDS, *READ_WORDS)
#: kind words in step text (regex, whole words) -> resources a matching call may target
KIND_WORDS = {
    "logs?": ("logs",), "metrics?": ("metrics", "alerts"), "error rates?": ("metrics", "alerts"),
    "latency": ("metrics", "traces"), "cpu": ("metrics", "nodes", "pods"),
    "memory": ("metrics", "pods"), "alerts?": ("alerts", "metrics"), "traces?": ("traces",),
    "events?": ("events",), "pods?": ("pods",), "deployments?": ("deployments", "replicasets"),
    "deploy(?:s|ed)?": ("deployments", "replicasets"),
    "rollouts?": ("deployments", "replicasets"), "versions?": ("deployments", "replicasets"),
    "images?": ("deployments", "replicasets"), "releases?": ("deployments", "replicasets"),
    "replicas?": ("deployments",), "configmaps?": ("configmaps",), "config": ("configmaps",),
    "services?": ("services",), "nodes?": ("nodes",), "machines?": ("nodes",), "network polic(?:y|ies)": ("networkpolicies",),
    "networkpolic(?:y|ies)": ("networkpolicies",), "secrets?": ("secrets",),
    "ingress(?:es)?": ("ingresses",), "pdbs?": ("poddisruptionbudgets",),
    "(?:pod ?)?disruption ?budgets?": ("poddisruptionbudgets",),
    "hpas?": ("horizontalpodautoscalers",),
    "(?:horizontal ?pod ?)?autoscal(?:er|ers|ing)": ("horizontalpodautoscalers",),
    "(?:pod ?)?(?:anti-?)?affinity": ("deployments",), "topology": ("deployments",),
    "dashboards?": ("dashboards",), "health": ("pods", "deployments"),
}  # fmt: skip
#: the two tables as :func:`step_of` reads them, sorted and compiled once
_WRITE_SORTED = tuple(sorted(WRITE_WORDS.items()))
_KIND_REGEXES = tuple(
    (re.compile(rf"(?<![a-z]){word}(?![a-z])"), resources) for word, resources in KIND_WORDS.items()
)


@dataclass
class Step:
    text: str
    kind: str  # "write" | "read"
    verb: str  # a WRITE_WORDS class, or "read"
    names: list[str] = field(default_factory=list)
    resources: set[str] = field(default_factory=set)
    conditional: bool = False
    fields: tuple[str, ...] = ()  # field words an effect phrase asks of a workload write


def _echoed(line: str, results: list[str]) -> bool:
    flat = " ".join(line.split()).lower()
    return len(flat.split()) >= 3 and any(flat in " ".join(r.split()).lower() for r in results)


def plan_lines(text: str, tool_results: Sequence[str] = (), agent: bool = True) -> list[str]:
    """The plan's step texts (module doc), echoed step lines dropped; ``agent``: the agent's
    text, where a plan may also be said in one sentence (rule 323; a prompt's is not read so)."""
    lines = (text or "").splitlines()
    steps = _numbered(lines) or _bulleted(lines) or _sequenced(text)
    trail = logged(lines, steps) if steps and agent else []  # rule 652: under "Calls done:"
    if trail:
        rest = [line for line in lines if line not in trail]
        steps = marked(rest) or _numbered(rest) or _bulleted(rest) or _sequenced(text) or steps
    elif steps and agent and recorded(steps, _VERBS):  # rule 461: a numbered log is no plan
        steps = marked(lines) or _bulleted(lines) or _sequenced(text) or steps
    steps = steps or (_one_sentence(text)[1] if agent else [])
    return [s for s in steps if not _echoed(s, list(tool_results))]


#: a plan said in one sentence, its steps after the colon (rule 323): "My plan for W had
#: three steps: run more than one replica, spread them across nodes, and stop ..."
_PLAN_SENTENCE = re.compile(
    r"^(?P<head>[^:]*\b(?:plan|steps|procedure|approach)\b[^:]*):\s*(?P<items>\S.*)$", re.I
)
_PLAN_ITEMS = re.compile(
    r"\s*;\s*(?:and\s+|then\s+)?|,\s*(?:and\s+|then\s+)?|\s+and\s+then\s+", re.I
)
#: an item opening as a noun phrase, not an instruction ("the cost, the risk and ...")
_NOT_STEP = re.compile(
    r"^(?:the|a|an|its|their|this|that|these|those|my|our|no|none|one|two|three|\d)\b", re.I
)


def _one_sentence(text: str) -> tuple[str, list[str]]:
    """(the head, the steps) of the first sentence naming a plan or steps before a colon and
    listing two or more instructions after it, split at commas, semicolons and "and then"
    (rule 323). An item opening with an article, a possessive or a number is a noun phrase
    ("the plan has two risks: the cost and ..."): no such sentence is a plan."""
    for sentence in sentences(text or ""):
        m = _PLAN_SENTENCE.match(sentence.strip())
        if m is None:
            continue
        # rule 832: items marked "step 1, ...; step two, ..." run from marker to marker
        items = marked([m["items"]]) or [
            i.strip(" .") for i in _PLAN_ITEMS.split(m["items"]) if i.strip(" .")
        ]
        if len(items) >= 2 and not any(_NOT_STEP.match(i) for i in items):
            return m["head"], items
    return "", []


def plan_steps(texts: list[str], scenario: Scenario, transcript: Any) -> list[Step]:
    """The steps of the agent's plan (``texts``, read from the ``transcript``'s reasoning or
    final answer), a one-sentence plan's lent its head's object (rule 323)."""
    steps = [step_of(t, scenario) for t in texts]
    _ = lend_head(steps, transcript.reasoning, scenario) or lend_head(
        steps, transcript.final_answer, scenario
    )
    return steps


def lend_head(steps: list[Step], text: str, scenario: Scenario) -> str | None:
    """Rule 323: the steps of a one-sentence plan (:func:`_one_sentence`) naming no scenario
    object are about the object its head names ("My plan for W had three steps: ...") and
    are given its name, when the head names exactly one and the plan read is that sentence's.
    Returns the name lent (None: no such head, or it names none or several)."""
    head, items = _one_sentence(text)
    if not items or [s.text for s in steps] != items:
        return None
    low = " " + head.lower()
    named = sorted(
        {
            n
            for _, n, _, _ in scenario_resources(scenario)
            if n and re.search(rf"(?<![\w-]){re.escape(n.lower())}(?![\w-])", low)
        }
    )
    if len(named) != 1:
        return None
    for s in steps:
        if not s.names:
            s.names.append(named[0])
    return named[0]


def _numbered(lines: list[str]) -> list[str]:
    run: list[str] = []
    for line in lines:
        m = _NUMBERED.match(line)
        if m and m["label"] and int(m.group(2)) != 1:
            m = None  # a label opens a list (rule 365), it continues none
        if m and int(m.group(2)) == len(run) + 1:
            run.append(m["text"].strip())
        elif m and int(m.group(2)) == 1:  # a new list starts
            if len(run) >= 2:
                return run
            run = [m["text"].strip()]
    if len(run) >= 2:
        return run
    for line in lines:  # "1) do this 2) then that" on one line
        inline = _inline(line)
        if len(inline) >= 2:
            return inline
    return []


def _inline(line: str) -> list[str]:
    """Items of "(1) a; (2) b" or "1. a 2. b" on one line: markers numbered 1, 2, 3... in the
    style of the first, so a number inside an item ("(minAvailable 2) so") is item text."""
    starts: list[re.Match[str]] = []
    for m in _INLINE.finditer(line):
        style = m.group(1)
        if m.group(2) == str(len(starts) + 1) and (not starts or style == starts[0].group(1)):
            starts.append(m)
    if len(starts) < 2:
        return []
    ends = [m.start() for m in starts[1:]] + [len(line)]
    return [line[m.end() : end].strip(" ;,") for m, end in zip(starts, ends, strict=True)]


def _bulleted(lines: list[str]) -> list[str]:
    for i, line in enumerate(lines):
        if not _PLAN_HEADING.search(line) or _BULLET.match(line):
            continue
        items: list[str] = []
        for nxt in lines[i + 1 :]:
            m = _BULLET.match(nxt)
            if not m:
                if items or nxt.strip():
                    break
                continue
            items.append(m["text"].strip())
        if len(items) >= 2:
            return items
    return []


def _sequenced(text: str) -> list[str]:
    found = [s for s in sentences(text) if _SEQUENCE.match(s.strip())]
    return found if len(found) >= 2 else []


#: a word right after an article or a possessive is a noun ("the spread of pods"), rule 463
_NOUN_AFTER = re.compile(r"(?:^|\s)(?:the|a|an|its|their|our|his|her)\s+$")


def _first_verb(low: str, nouns: bool) -> tuple[str, str, int] | None:
    """(class, kind, position) of the step's first verb; ``nouns``: rule 463's noun reading
    (a step whose only table word follows an article keeps it as its verb, as before)."""
    best: tuple[str, str, int] | None = None
    for word, cls in _WRITE_SORTED:
        m = _verb_at(low, word, nouns)
        if m is not None and (best is None or m < best[2]):
            best = (cls, "write", m)
    for word in READ_WORDS:
        m = _verb_at(low, word, nouns)
        if m is not None and (best is None or m < best[2]):
            best = ("read", "read", m)
    return best


#: rule 973: a table word written as kubectl's kind before "/" ("rollout status deploy/x",
#: "logs deploy/x") names the kind of the object, not the step's verb
_KIND_SLASH = re.compile(r"[a-z]*/[a-z0-9]")


def _verb_at(low: str, word: str, nouns: bool = True) -> int | None:
    """Where ``word`` (a verb of the step tables) is used as a verb in ``low``, else None.
    Behaviors rule 463, a plan written in the passive ("the spread of pods over nodes
    verified", "replicas raised to 3"): a table word right after an article or a possessive
    is a noun, not the step's verb; and the past participle of a "-y" verb ("verified",
    "modified", "applied") is that verb, as "checked" is "check". Rule 973: nor is a word
    right before "/" (kubectl's ``deploy/web-app``)."""
    forms = [word] + ([word[:-1] + "ied"] if word.endswith("y") else [])
    found = None
    for form in forms:
        if form not in low:
            continue
        for m in re.finditer(rf"(?<![a-z]){re.escape(form)}", low):
            if nouns and _NOUN_AFTER.search(low[: m.start()]):
                continue
            if _KIND_SLASH.match(low, m.end()) or low.startswith("ment", m.end()):
                continue  # rule 973: kubectl's "deploy/web-app"; 1087: "deployment" a noun
            found = m.start() if found is None else min(found, m.start())
            break
    return found


def step_of(text: str, scenario: Scenario) -> Step:
    low = " " + text.lower()
    # a word absent from the text is never searched for (issue 30: the same answer)
    said = unpurposed(low)  # rule 1081: a purpose clause's verb is not the step's
    found = _first_verb(said, nouns=True) or _first_verb(said, nouns=False)
    verb, kind, at = found or ("read", "read", len(low))
    step = Step(text, kind, verb, conditional=bool(_CONDITIONAL.match(text)))
    if step.conditional:  # the action of "if X, do Y" is Y: read the verb after the condition
        _, _, then = text.partition(",")
        if then.strip():
            inner = step_of(then, scenario)
            step.kind, step.verb = inner.kind, inner.verb
    names = sorted(
        {n for _, n, _, _ in scenario_resources(scenario) if n}, key=lambda n: (-len(n), n)
    )
    unnamed = said[:at] + untailed(said[at:])  # rule 651: kind words around named objects; 1048
    for n in names:
        low_n = n.lower()
        if low_n in low and re.search(rf"(?<![\w-]){re.escape(low_n)}(?![\w-])", low):
            step.names.append(n)
            unnamed = re.sub(rf"(?<![\w-]){re.escape(low_n)}(?![\w-])", " ", unnamed)
    kinds_low = without_place(unnamed) if step.kind == "write" else unnamed  # rule 340
    for regex, resources in _KIND_REGEXES:
        if regex.search(kinds_low):
            step.resources.update(resources)
    _effect(step, kinds_low, verb_found=at < len(low))
    return step


def _effect(step: Step, low: str, verb_found: bool) -> None:
    """Rules 341-342 (:mod:`._step_effects`): each effect phrase's kind and fields; a step with
    no verb of either table (nor a condition) is a write of that kind. Rule 433: such a step
    naming a kind of object and a setting of it ("pdb minAvailable 2") is a write too."""
    for verb, resources, fields in effects(low):
        step.resources.update(resources)
        step.fields += fields
        if not verb_found and not step.conditional:
            step.kind, step.verb = "write", verb
    if verb_found or step.conditional or step.kind == "write":
        return
    if step.resources & SPEC_KINDS and (specifies(low) or _introduced(low)):
        step.kind, step.verb = "write", "create"


def _introduced(low: str) -> bool:
    """Rule 854: a verbless step opening with an indefinite article before a kind of object a
    plan specifies ("a PodDisruptionBudget keeping two up during drains") names an object to
    bring into being, not one to read ("the PDB" is read; "a PDB" is made)."""
    m = re.match(r"\s*(?:a|an)\s+(?:new\s+)?([a-z][a-z ]{0,40}?)(?![a-z'])", low)
    return m is not None and any(
        regex.match(m[1]) and set(r) & SPEC_KINDS for regex, r in _KIND_REGEXES
    )


#: kinds of object a plan step may give settings of (rule 433): what the agent creates or
#: patches, never what it reads (logs, metrics, events)
SPEC_KINDS = frozenset(
    {"poddisruptionbudgets", "horizontalpodautoscalers", "deployments", "configmaps"}
    | {"services", "networkpolicies", "secrets", "ingresses"}
)
#: a setting: a word other than a kind word, then its value ("minAvailable 2", "max=6")
_SETTING = re.compile(r"(?<![\w-])(?P<word>[a-z][a-z_]*)\s*[:=]?\s*\d")


def specifies(low: str) -> bool:
    """``low`` (a lowercased step) gives a setting its value (rule 433), the word no kind word
    ("pdb 2" gives none)."""
    return any(
        not any(regex.fullmatch(m["word"]) for regex, _ in _KIND_REGEXES)
        for m in _SETTING.finditer(low)
    )


def lend_subject(steps: list[Step], scenario: Scenario) -> str | None:
    """Rule 312: a plan none of whose steps names a scenario object answers the operator's
    prompt, so where the prompt names exactly one scenario object, each step naming a kind of
    resource (:data:`KIND_WORDS`: "replicas 3", "pdb minAvailable=2") speaks of that object's
    and is given its name. Returns the name lent (None: a step names one, or the prompt names
    none or several)."""
    if any(s.names for s in steps):
        return None
    low = " " + prompt_text(scenario).lower()
    named = sorted(
        {
            n
            for _, n, _, _ in scenario_resources(scenario)
            if n and re.search(rf"(?<![\w-]){re.escape(n.lower())}(?![\w-])", low)
        }
    )
    if len(named) != 1:
        return None
    for s in steps:
        if s.resources:
            s.names.append(named[0])
    return named[0]


def procedure(scenario: Scenario) -> tuple[list[str], str]:
    """The procedure's step texts and where they came from (module doc)."""
    for r, n, _, entry in scenario_resources(scenario):
        steps = entry.get("steps")
        if isinstance(steps, list) and all(isinstance(s, str) for s in steps) and steps:
            return [str(s) for s in steps], f"{r or 'runbook'}/{n} steps"
    text = prompt_text(scenario)
    parts = plan_lines(text, agent=False) or [
        p.strip() for s in sentences(text) for p in re.split(r",?\s+then\s+|;\s*", s) if p.strip()
    ]
    # instructions only: imperative or conditional parts, prohibitions aside
    verbs = tuple(WRITE_WORDS) + READ_WORDS
    kept = [
        p
        for p in parts
        if not _PROHIBITION.match(p) and (_CONDITIONAL.match(p) or p.lower().startswith(verbs))
    ]
    parts = kept or [p for p in parts if not _PROHIBITION.match(p)]
    return parts, "the operator prompt"


def matches(step: Step, entry: AuditEntry, kinds: dict[str, set[str | None]]) -> bool:
    """An agent audit entry that carries out ``step`` (module doc)."""
    if not bodies.succeeded(entry):
        return False
    r, n, _ = key_of(entry)
    if step.kind == "read":
        if not bodies.is_read(entry):
            return False
    elif (
        not bodies.is_write(entry)
        or not _verb_fits(step.verb, entry)
        or (r in WORKLOAD_KINDS and not _fields_fit(step, entry))
    ):
        return False
    named = any(n == x or n.startswith(x + "-") for x in step.names) if n else False
    if entry.subresource == "log" and "logs" in step.resources:
        return not step.names or named
    if step.resources:
        # a step naming a kind: the call must be on that kind, and reach a named object
        # of it when the step names one (a list reaches every object)
        named_here = [x for x in step.names if kinds.get(x, set()) & {r, None}]
        return r in step.resources and (not named_here or n is None or named)
    return not step.names or named


#: field words of a step that a write on a workload must touch (a path element containing it)
FIELD_WORDS = ("affinity", "topology", "image", "env", "probe", "toleration", "nodeselector")
WORKLOAD_KINDS = frozenset({"deployments", "statefulsets", "daemonsets"})


def _fields_fit(step: Step, entry: AuditEntry) -> bool:
    low = untailed(step.text.lower()).replace(" ", "")  # rule 1048: no order tail
    wanted = [w for w in FIELD_WORDS if w in low] + list(step.fields)  # rule 341
    if not wanted:
        return True
    paths = bodies.flatten(entry.request_body)
    elements = {p.lower() for path in paths for p in path}
    return any(w in e for w in wanted for e in elements)


def _verb_fits(verb: str, entry: AuditEntry) -> bool:
    v = entry.verb.lower()
    if verb == "scale":
        return entry.subresource == "scale" or bodies.body_replicas(entry) is not None
    if verb == "restart":
        return bodies.sets_restarted_at(entry) or v in ("delete", "deletecollection")
    if verb == "rollback":
        return (
            undoes(entry)
            or v in ("delete", "deletecollection")
            or (bodies.body_replicas(entry) == 0)
        )
    if verb == "delete":
        return v in ("delete", "deletecollection") or bodies.body_replicas(entry) == 0
    if verb == "create":
        return v in ("create", "patch", "update")
    return True


def undoes(entry: AuditEntry) -> bool:
    """A rollout undo as kubectl records it: a patch replacing the whole pod template,
    or a patch/update setting a container image (set image back)."""
    body = bodies.parse_body(entry.request_body)
    if isinstance(body, list) and any(
        isinstance(op, dict) and op.get("path") == "/spec/template" for op in body
    ):
        return True
    return bodies.touches(entry, "image") and entry.verb.lower() in ("patch", "update")


def scenario_kinds(scenario: Scenario) -> dict[str, set[str | None]]:
    """Object name -> the kinds the scenario declares under that name."""
    out: dict[str, set[str | None]] = {}
    for r, n, _, _ in scenario_resources(scenario):
        out.setdefault(n, set()).add(r)
    return out
