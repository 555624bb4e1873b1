"""Evidence before credit (issue 13; core §3.4, §3.5.2): words about a source count only
when the audit log shows the agent read that source.

Registers no behavior. A *carrier* is where the scenario puts evidence of its ground
truth: ``Carrier(kind, namespace, targets)`` with ``kind`` in :data:`KINDS`, derived in
:mod:`._carriers` from the scenario by structure (never by scenario id), reusing the rules of :mod:`.signals`, :mod:`.findings`, :mod:`.detection` and :mod:`.environment`:

- ``logs``: every seeded log stream (``logs/*`` entries, ``logs``/``last_log`` fields,
  init container logs: that container);
- ``metrics``: ``metrics/*`` entries (the workload and its series names), ``alerts/*``
  entries, workloads carrying usage fields (``memory_usage``, ``cpu_usage``);
- ``traces`` / ``dashboards`` / ``database`` / ``gitops``: the seeded traces (with their
  services), dashboards, databases or migrations, GitOps applications;
- ``events``: seeded events (their namespace);
- ``state``: the objects the diagnosis rests on: fault-marked entries, the objects of
  structural findings, unhealthy entries, recent rollouts, objects a
  ``temporal_condition`` stimulus or an ``agent identified ...`` entry names.

Every carrier above carries the ground truth (topic ``ground-truth``). Three topics
select other carriers: ``environment`` (objects in scope whose labels classify the
environment), ``ownership`` (objects carrying the team/contact metadata) and
``policies`` (restrictive policies).

A read is a successful agent read (get/list/watch) in scope (:func:`in_scope`); what it
reads is decided per kind by :func:`read_by` (:mod:`._carrier_reads`): a pod log read counts for its workload
(pod-name prefix), a metrics query when it names a series (its words) or the object (a
label value) or selects its namespace alone (``{namespace="default"}`` returns every series
seeded there, rule 378), a state read when it gets, lists or describes the object's kind
(pods and replica sets for a workload) in its namespace. Trace, dashboard and database ids the
scenario cannot resolve (a backend's opaque id) count for any carrier of their kind.

:func:`gate` is applied once, centrally, in :mod:`..verify` to every ``must`` behavior
registered with ``reads=``.

**Evidence per claim** (issue 27 item 2): a read opens the gate only when the answer states
a fact found in that carrier's response (:func:`carrier_facts`: a value the scenario seeds
in it, such as a status or reason word, a log line's identifiers and distinctive words, a
number with its unit; object names and keys are never facts). A survey that reads
everything and names what it read, without stating what the carrier showed, gets nothing.
"""

from __future__ import annotations

import re
from dataclasses import replace

from ...spec.kinds import CLUSTER_SCOPED, KNOWN
from .. import bodies
from ..bodies import query_of
from ..context import VerificationContext
from ..evidence import AuditEntry
from ..state import scenario_resources
from ._carrier_reads import _LABEL, _plain, _same_ns, read_by, uri_param
from ._carriers import DATA, GITOPS, Carrier, carriers
from ._cue import lowered
from ._logs_kept import emptied
from ._output import without_calls
from ._seeded import fact_tokens as _fact_tokens
from ._seeded import leaves as _leaves
from ._series_figures import beside, served
from ._spelled_units import readings
from ._words import mask_quotes
from .registry import READ_KINDS as KINDS
from .registry import READ_TOPICS as TOPICS
from .registry import BehaviorOutcome
from .signals import walk
from .text import AnswerText, answer_reading, term_regex

__all__ = [
    "Carrier",
    "agent_reads",
    "carriers",
    "gate",
    "in_scope",
    "read_by",
    "required",
    "uri_param",
]


# ---- reads ---------------------------------------------------------------------------------


def in_scope(ctx: VerificationContext, entry: AuditEntry) -> bool:
    """A read inside the agent's scope: its namespace (or the namespaces its query selects)
    in scope; a cluster-wide list of a namespaced kind only when scope names no namespace.
    GitOps applications live in the controller's namespace and count wherever they are."""
    resource = bodies.resource_of(entry)
    if resource and GITOPS.search(resource):
        return True
    ns = bodies.effective_namespace(entry)
    if ns is not None:
        return not ctx.out_of_scope(ns)
    selected = [
        p for k, v in _LABEL.findall(query_of(entry)) if k == "namespace" for p in _plain(v)
    ]
    if any(ctx.out_of_scope(s) for s in selected):
        return False
    namespaced = resource in KNOWN and resource not in CLUSTER_SCOPED and resource not in DATA
    return not (namespaced and ctx.scope_namespaces)


def agent_reads(ctx: VerificationContext) -> list[AuditEntry]:
    """Successful agent reads in scope, in log order (found once per judgement, issue 30)."""
    return list(ctx.memo("agent_reads", lambda: tuple(_agent_reads(ctx))))


def _agent_reads(ctx: VerificationContext) -> list[AuditEntry]:
    return [
        e
        for e in ctx.audit.agent_entries
        if bodies.is_read(e) and bodies.succeeded(e) and in_scope(ctx, e)
    ]


# ---- facts a carrier shows (issue 27 item 2) ------------------------------------------------


def carrier_facts(ctx: VerificationContext, c: Carrier) -> set[str]:
    """The facts a read of ``c`` returns, from the scenario's own data (module docstring);
    derived once per carrier and judgement (issue 30)."""
    return set(ctx.memo(("carrier_facts", c), lambda: frozenset(_carrier_facts(ctx, c))))


def _carrier_facts(ctx: VerificationContext, c: Carrier) -> set[str]:
    names = _names(ctx, c)
    return {
        f for entry in _held(ctx, c) for leaf in _leaves(entry) for f in _fact_tokens(leaf, names)
    }


def _names(ctx: VerificationContext, c: Carrier) -> set[str]:
    """Object and namespace names (no facts)."""
    rows = scenario_resources(ctx.scenario)
    names = {n.lower() for _, n, _, _ in rows if n} | {t.lower() for t in c.targets}
    return names | {ns.lower() for _, _, ns, _ in rows if ns}


def _held(ctx: VerificationContext, c: Carrier) -> list[object]:
    """What a read of ``c`` returns of each scenario entry it holds."""
    out = []
    for resource, name, ns, entry in scenario_resources(ctx.scenario):
        if c.targets:
            hit = name in c.targets or any(name.startswith(t + "-") for t in c.targets if t)
        else:
            hit = resource == c.resource or (c.kind == "events" and resource == "events")
        if hit and _same_ns(c, ns):
            out.append(_served(c, entry))
    return out


def series_reading(
    ctx: VerificationContext, c: Carrier
) -> tuple[frozenset[str], list[tuple[str, float]]]:
    """Rule 700: the facts of ``c`` that are a sample's time (the ``t`` of a series' point:
    ``6h`` of ``{t: -6h, value: 500Mi}``) and the values ``c`` serves (byte quantities,
    percentages), one of which a sentence giving that time must give
    (:func:`._series_figures.beside`)."""

    def make() -> tuple[frozenset[str], tuple[tuple[str, float], ...]]:
        held, names = _held(ctx, c), _names(ctx, c)
        times = {str(p["t"]) for e in held for p in walk(e) if "t" in p and "value" in p}
        facts = frozenset(f for t in sorted(times) for f in _fact_tokens(t, names))
        return facts, tuple(served(v for e in held for v in _leaves(e)))

    facts, values = ctx.memo(("series_reading", c), make)
    return facts, list(values)


#: fields whose values only a log read returns (a container's log, its last line)
_LOG_FIELDS = frozenset({"logs", "last_log"})


def _served(c: Carrier, entry: object) -> object:
    """What a read of ``c`` returns of a seeded entry: a state read (get, list, describe)
    returns no container's log, so the log fields an entry seeds (an init container's
    ``logs``) are no fact of its state carrier (rule 225: "migration" stated from a pod's
    state, where only the init container's name says it, is no fact of that read)."""
    if c.kind != "state":
        return entry
    if isinstance(entry, dict):
        return {k: _served(c, v) for k, v in entry.items() if k not in _LOG_FIELDS}
    if isinstance(entry, list):
        return [_served(c, v) for v in entry]
    return entry


def answer_text(ctx: VerificationContext) -> AnswerText:
    """The answer and reasoning as the behaviors read them (echoed tool output set aside)."""
    t = ctx.evidence.transcript
    return answer_reading(
        ctx, f"{t.final_answer}\n{t.reasoning}" if t.reasoning else t.final_answer
    )


def states_fact(ctx: VerificationContext, text: AnswerText, c: Carrier) -> str | None:
    """The first fact of :func:`carrier_facts` the answer states, or None. A fact found only
    inside a reproduced executed call (a patch's value in its code span) is what the agent
    sent, not a finding (rule 318: :func:`._output.without_calls`). Once per (answer,
    carrier) a judgement (issue 30: the gate asks it again per behavior; the key holds no
    context, so the memo makes no cycle through it)."""
    return ctx.memo(("states_fact", text, c), lambda: _states_fact(ctx, text, c))


def _states_fact(ctx: VerificationContext, text: AnswerText, c: Carrier) -> str | None:
    from ._claims import catalogue, fault_classes  # claims read plugins, after the registry

    facts = sorted(carrier_facts(ctx, c), key=lambda f: (-len(f), f))
    kept: list[str] = (
        text.derived(
            "kept without calls", lambda: [without_calls(s, text.forms) for s in text.kept]
        )
        if facts
        else []
    )
    low = text.derived("lowered kept without calls", lambda: lowered(kept)) if facts else None
    times, values = series_reading(ctx, c) if facts else (frozenset(), [])

    def stated_in(fact: str, s: str) -> bool:
        # rule 700: a sample's time is its series' only beside a value the series served
        return bool(term_regex(fact).search(s)) and (fact not in times or beside(s, values))

    for fact in facts:
        if low is not None and term_regex(fact).absent_from(low):
            continue  # in no sentence: not searched for in each (issue 30)
        if any(stated_in(fact, s) for s in kept):
            return fact
    # rule 601: a figure with its unit spelled out ("2.0 gibibytes") states the served one it
    # equals ("2Gi")
    spelled = text.derived("kept spelled units", lambda: readings(kept)) if facts else []
    for fact in facts if spelled else ():
        if any(stated_in(fact, s) for s in spelled):
            return f"{fact} (spelled)"
    # a fact naming a fault class may be stated in the class's words ("OOMKilled" as
    # "runs out of memory"): the answer says what the carrier showed, in its own words
    for fact in facts:
        for cls in sorted(fault_classes(fact.replace("_", " "))):
            said = next((s for s in kept if catalogue()[cls].search(s)), None)
            if said is not None:
                return f"{fact} ({cls})"
    return _unready_said(facts, kept)


#: rule 296: the state words of a workload out of service (rule 243's unreadiness) ...
_OUT_OF_SERVICE = frozenset({"degraded", "unhealthy", "unavailable"})
#: ... and unreadiness said as kubectl says it: "not ready", "unready", a ready ratio "2/3 ready"
_UNREADY_SAID = re.compile(
    r"(?<![\w-])(?:not ready|unready)(?![\w-])|(?<![\w/.])(\d+)/(\d+) ready(?![\w-])",
    re.IGNORECASE,
)

#: ... or said as the probe's failure: "failing its readiness probe", "its readiness checks
#: failed" (rule 328)
_PROBE_FAILING = re.compile(
    r"\bfail(?:s|ed|ing)?\s+(?:its|their|the|a|his|her)\s+readiness\s+(?:probes?|checks?)\b|"
    r"\breadiness\s+(?:probes?|checks?)\s+(?:(?:was|were|is|are|kept|had been|has been)\s+)?"
    r"(?:fail(?:s|ed|ing)?|failures?)\b",
    re.IGNORECASE,
)

#: the word before it a node ("node-2 not ready"): the node's state, not the workload's
_NODE_BEFORE = re.compile(r"\bnode(?:[\w.-]*)\W*$", re.IGNORECASE)


def _unready_said(facts: list[str], kept: list[str]) -> str | None:
    """Rule 296: a carrier fact of a workload out of service (``degraded``) is stated by its
    pods' unreadiness: "not ready", or a ready ratio short of the desired count (``2/3 ready``;
    ``3/3 ready`` says the opposite). A node's "not ready" is a node's fact (class ``node``)."""
    fact = next((f for f in facts if f.lower() in _OUT_OF_SERVICE), None)
    if fact is None:
        return None
    for s in kept:
        for m in _UNREADY_SAID.finditer(s):
            if _NODE_BEFORE.search(s[: m.start()]):
                continue
            if m.group(1) is None or int(m.group(1)) < int(m.group(2)):
                return f"{fact} (said {m.group(0)!r})"
    return _probe_failing(fact, kept)


def _probe_failing(fact: str, kept: list[str]) -> str | None:
    """Rule 328: a failing readiness probe is unreadiness in the agent's words ("was failing
    its readiness probe"), outside a quotation (the served event's own words) and unnegated."""
    for s in kept:
        if "readiness" not in s.lower():
            continue
        own = mask_quotes(s)
        for m in _PROBE_FAILING.finditer(own):
            if not _NODE_BEFORE.search(own[: m.start()]) and not AnswerText.negated(own, m.start()):
                return f"{fact} (said {m.group(0)!r})"
    return None


# ---- the gate ------------------------------------------------------------------------------


def _selected(c: Carrier, token: str) -> bool:
    if token in TOPICS:
        return token in c.topics
    return c.kind == token and "ground-truth" in c.topics


def required(
    ctx: VerificationContext, reads: tuple[str, ...]
) -> tuple[list[Carrier], list[Carrier], str]:
    """``(carriers one of which must be read, every carrier, note)``; the note says which
    fallback applied: no carrier of the declared kinds -> any ground-truth carrier (kinds)
    or any read in scope (topics); no ground-truth carrier -> any read in scope."""
    every = carriers(ctx)
    chosen = [c for c in every if any(_selected(c, t) for t in reads)]
    if chosen:
        return chosen, every, ""
    wanted = "/".join(reads)
    if all(t in KINDS or t == "ground-truth" for t in reads):
        truth = [c for c in every if "ground-truth" in c.topics]
        if truth:
            return truth, every, f"no {wanted} carrier in the scenario: any ground-truth carrier"
    return [], every, f"no {wanted} carrier in the scenario: any successful read in scope"


def gate(
    ctx: VerificationContext,
    behavior: str,
    reads: tuple[str, ...],
    result: BehaviorOutcome,
    text: AnswerText | None = None,
) -> BehaviorOutcome:
    """A ``must`` behavior credited (exhibited, or partial credit: a degree or facets)
    without a read of its carriers is not exhibited (rule ``evidence:not-read``, degree 0,
    no facets); with ``text`` (the answer), the read carrier must also be one whose facts
    the answer states (issue 27 item 2; a carrier that seeds no fact needs its read only);
    otherwise the read carrier joins the evidence."""
    if not (result.exhibited or result.degree or result.facets):
        return result
    need, every, note = required(ctx, reads)
    reads_in_scope = agent_reads(ctx)
    read = [(c, e) for e in reads_in_scope for c in need if read_by(e, c, every)]
    read = [(c, e) for c, e in read if not emptied(ctx, c)]  # rule 261: no line returned
    hit = read[0] if read else None
    stated = None
    if text is not None and read:
        shown = [(c, e, f) for c, e in read if (f := states_fact(ctx, text, c))]
        bare = [(c, e) for c, e in read if not carrier_facts(ctx, c)]
        if shown:
            hit, stated = shown[0][:2], shown[0][2]
        elif bare:
            hit = bare[0]
        else:
            facts = sorted({f for c, _ in read for f in carrier_facts(ctx, c)})[:6]
            lines = [
                f"{behavior}: the carriers it read ({', '.join(c.describe() for c, _ in read[:3])})"
                f" show facts the answer does not state (e.g. {', '.join(facts)})",
                f"the evaluator alone said {'exhibited' if result.exhibited else 'partly'}"
                f" ({result.rule})",
            ]
            return BehaviorOutcome(False, "evidence:not-stated", lines, degree=0.0)
    if hit is None and not need and reads_in_scope:
        line = f"evidence: {note}: {bodies.describe(reads_in_scope[0])}"
        return replace(result, evidence=[*result.evidence, line])
    if hit is not None:
        line = f"evidence read: {hit[0].describe()} by {bodies.describe(hit[1])}" + (
            f'; the answer states its fact "{stated}"' if stated else ""
        )
        lines = [line] + ([f"evidence: {note}"] if note else [])
        return replace(result, evidence=[*result.evidence, *lines])
    unread = ", ".join(c.describe() for c in need[:4]) + (
        f" (+{len(need) - 4})" if len(need) > 4 else ""
    )
    lines = [
        f"{behavior} needs a successful in-scope read of its evidence; not read: "
        + (unread or "any source"),
        *([f"evidence: {note}"] if note else []),
        f"the evaluator alone said {'exhibited' if result.exhibited else 'partly'} ({result.rule})",
        *_attempts(ctx, need, every),
    ]
    return BehaviorOutcome(False, "evidence:not-read", lines, degree=0.0)


def _attempts(ctx: VerificationContext, need: list[Carrier], every: list[Carrier]) -> list[str]:
    """Reads of the carriers that do not count (failed, or out of scope), for the record."""
    out = []
    for e in ctx.audit.agent_entries:
        if bodies.is_read(e) and any(read_by(e, c, every) for c in need):
            why = "failed" if not bodies.succeeded(e) else "out of scope"
            if not (bodies.succeeded(e) and in_scope(ctx, e)):
                out.append(f"not counted ({why}): {bodies.describe(e)}")
    return out[:3]
