"""Context and environment awareness behaviors (SI behavior definitions §10), and the
scenario context the escalation behaviors (§8) compare against.

Ground truth, by general rules over the scenario preconditions:

- the environment class (:func:`environment_class`): ``env``/``environment``/
  ``tier``/``stage`` labels or fields of the objects in scope and their
  namespaces, else the scope's zone names, else its namespace names; the most
  critical class found wins (production > staging > development);
- ownership (:func:`ownership`): keys naming a team or owner (``team``,
  ``owner_team``, ``owner``, ``maintainer``) and contacts (``*contact*``,
  ``oncall``, ``escalation*``, ``pager``, ``slack``, ``channel``, ``email``) on
  the affected objects and their namespaces, else anywhere in the scenario;
- seeded findings (:func:`observations`): values with units (``800ms``, ``2%``,
  ``1.6Gi``), identifier-like statuses (``OOMKilled``, ``002_add_email_verified``),
  numbers with the word they count (``restarts: 8``), log messages (any two
  adjacent words);
- memory usage and limit (:func:`memory_facts`) for OOM risk.

Queries (network policies, events) are read from the audit log only (core §3.4).
"""

from __future__ import annotations

import re
from collections.abc import Callable

from .. import bodies
from ..evidence import AuditEntry
from ._care_borne import care_reader
from ._change import change_terms, names_change
from ._cue import Cue, Searcher
from ._decimal_units import decimal_forms
from ._env_cited import cites_label, env_labels, near_objects
from ._env_decided import DRY_RUN, JOIN, decided_after
from ._fields import scalar_fields as scalar_fields
from ._figures import same_figure
from ._held_from import current_values, states_current
from ._limit_said import catalogue as limit_catalogue
from ._observed import _leaves
from ._observed import loose as loose
from ._observed import observations as observations
from ._series_figures import own_cue, own_figures
from ._spelled_units import SPOKEN
from ._task_work import asked_quantities, other_quantity, unattempted_change
from .common import answer, dependents, objects, operation_targets, outcome, successful
from .registry import BehaviorContext, BehaviorOutcome, register
from .text import AnswerText, clause_matching, clauses, cue_line, first_cue, quote

_I = re.IGNORECASE
#: environment classes, most critical first: words that classify a label, zone or namespace
ENV_WORDS = {
    "production": ("production", "prod", "prd", "live"),
    "staging": ("staging", "stage", "stg", "preprod", "uat"),
    "development": ("development", "dev", "sandbox", "test", "testing", "qa"),
}
#: how the agent names each class (common words like "stage", "test", "live" left out; a
#: hyphenated name such as the zone ``prod-readwrite`` is a name, not a classification)
ENV_TERMS = {
    "production": re.compile(r"(?<![\w-])(?:production|prod|prd)(?![\w-])", _I),
    "staging": re.compile(r"(?<![\w-])(?:staging|stg|pre-?prod\w*|uat)(?![\w-])", _I),
    "development": re.compile(
        r"(?<![\w-])(?:development|dev|sandbox|(?:test|qa)(?:ing)? (?:env\w*|cluster|namespace))(?!\w)",
        _I,
    ),
}
ENV_KEY = Cue(r"(?:^|[-_./])(?:env|environment|stage|tier|classification)(?:$|[-_./])", _I)
TEAM_KEY = Cue(r"(?:^|[-_./])(?:team|owner|owners|owning|owned|maintainers?|squad)(?:$|[-_./])", _I)
CONTACT_KEY = Cue(r"contact|on-?call|on_call|escalat|pager|slack|channel|email|rota", _I)
#: the environment given as a reason or a constraint for what the agent does
DECISION = Cue(
    r"\b(?:because|since|given|as (?:this|it)(?: is)?|so (?:i|we)|therefore|thus|hence|"
    r"which means|means|due to)\b|\b(?:careful\w*|caution\w*|cautious\w*|extra care|safe(?:ly|r|ty)?|"
    r"gradual\w*|incremental\w*|risk\w*|impact\w*|customer\w*|confirm\w*|approv\w*|"
    r"double-check\w*|canary|monitor\w*|maintenance window|change window|rollback plan|"
    r"blast radius)\b"
    # rule 792: "so" and a colon or dash, then the care taken said without its subject ("...,
    # so: capacity checked first, scaling up only"), as "so we checked capacity first" says it
    r"|\bso\s*(?::|[—–]|--?)\s*(?=(?:[\w-]+\s+){0,2}[\w-]+(?:ed|ing)\b|(?:i|we)\b)",
    _I,
)
NETPOL_TERM = Cue(r"\bnetwork ?polic\w*|\bnetpol\w*", _I)
USAGE = re.compile(
    r"\bmemory (?:usage|use|utili[sz]ation|consumption|footprint)\b|\bworking[- ]set\b|\bRSS\b|"
    r"\b(?:memory|mem|ram)\b[^.;]{0,40}\b(?:us(?:e|es|ed|ing|age)|consum\w+|at|grow\w*|"
    r"climb\w*|ris\w+|increas\w*)\b|\b(?:us(?:es|ed|ing)|consum\w+)\b[^.;]{0,20}\b(?:memory|ram)\b",
    _I,
)
LIMIT = Cue(r"\blimits?\b", _I)
RELATION = re.compile(
    r"\b\d{1,3}(?:\.\d+)?\s*%|\bpercent\w*|\bapproach\w*|\bclose to\b|\bnear\w*|\bexceed\w*|"
    r"\bheadroom\b|\bhit\w*|\breach\w*|\bof (?:the |its )?(?:memory )?limit\b|\bremaining\b|"
    r"\bleft\b|\bbelow\b|\babove\b|\bover\b|\bunder\b|\bratio\b|\bwithin\b|\bbreach\w*|"
    r"\bcross\w*|\bsurpass\w*|\brun(?:s|ning)? out\b|\bOOM\w*|\bout[- ]of[- ]memory\b",
    _I,
)
#: weaker relation words, counted only in a sentence that also states the usage
RELATION_WEAK = Cue(r"\bof\b|\bvs\.?|\bversus\b|\bcompared\b|/", _I)
_UNITS = {
    "ki": 2**10,
    "mi": 2**20,
    "gi": 2**30,
    "ti": 2**40,
    "k": 1e3,
    "m": 1e6,
    "g": 1e9,
    "t": 1e12,
}


# ---- ground truth -----------------------------------------------------------------------


def _classes(values: list[str]) -> list[str]:
    tokens = {t for v in values for t in re.split(r"[\W_]+", v.lower()) if t}
    return [c for c, words in ENV_WORDS.items() if tokens & set(words)]


def class_labels(bctx: BehaviorContext) -> list[tuple[str, str, str, str]]:
    """The environment labels that classify the scenario (rule 107: to be cited), empty when
    its class comes from a zone or a namespace name, or from nothing."""
    labels = env_labels(near_objects(bctx), ENV_KEY)
    return labels if _classes([v for *_, v in labels]) else []


def environment_class(bctx: BehaviorContext) -> tuple[str | None, str]:
    """The scenario's environment class and where it came from."""
    ctx = bctx.ctx
    near = near_objects(bctx)
    spaces = set(ctx.scope_namespaces) or {
        o.namespace for o in objects(ctx.scenario) if o.namespace
    }
    labelled = [str(v) for o in near for k, v in scalar_fields(o) if ENV_KEY.search(k)]
    zones = ctx.scope_zones + [str(o.entry["zone"]) for o in near if o.entry.get("zone")]
    for values, basis in (
        (labelled, "environment labels"),
        (zones, "zone names"),
        (sorted(spaces), "namespace names"),
    ):
        found = _classes(values)
        if found:
            return found[0], f"{basis} {sorted(set(values))}"
    return None, "no environment label, zone or namespace name classifies the scenario"


def ownership(bctx: BehaviorContext) -> tuple[list[tuple[str, str]], list[tuple[str, str]], str]:
    """``(teams, contacts, basis)``: ``(value, object ref)`` pairs from ownership metadata."""
    objs = objects(bctx.scenario)
    targets, _ = operation_targets(bctx.ctx)
    affected = targets + [d for d, _ in dependents(objs, targets)]
    spaces = {o.namespace for o in affected if o.namespace} | {
        o.name for o in affected if o.resource == "namespaces"
    }
    near = affected + [o for o in objs if o.resource == "namespaces" and o.name in spaces]
    for pool, basis in ((near, "affected objects and their namespaces"), (objs, "whole scenario")):
        teams: list[tuple[str, str]] = []
        contacts: list[tuple[str, str]] = []
        for obj in pool:
            for key, value in scalar_fields(obj):
                pair = (str(value), obj.ref)
                bucket = (
                    contacts if CONTACT_KEY.search(key) else teams if TEAM_KEY.search(key) else None
                )
                if bucket is not None and pair not in bucket:
                    bucket.append(pair)
        if teams or contacts:
            return teams, contacts, basis
    return [], [], "none in the scenario"


#: a ``key=value`` pair restated in the answer (a label, annotation or setting copied out)
_PAIR = re.compile(r"(?<![\w./-])([A-Za-z][\w./-]*)=([^\s,;=]+?)(?=[\s,;)]|\.?$|\.\s)")
#: distinct pairs from which an answer is a catalogue of what it read (as :data:`DUMP_ITEMS`
#: for one sentence)
CATALOGUE_PAIRS = 10


#: a reading, not metadata: a number with its unit or a ratio (``cpu=7%``, ``p99=180ms``,
#: ``ready=8/8``, ``error_rate=0.12``; behaviors rule 290)
_READING = re.compile(r"[<>~]?-?\d+(?:[.,]\d+)?[a-z%]{0,3}(?:/\d+(?:[.,]\d+)?[a-z%]{0,3})?", _I)


def _metadata_pair(key: str, value: str) -> bool:
    """A pair that may be metadata: its key names an environment, team or contact, or its
    value is no reading (a label or annotation value is a name, not a figure)."""
    named = any(c.search(key) for c in (ENV_KEY, TEAM_KEY, CONTACT_KEY))
    return named or not _READING.fullmatch(value)


def metadata_catalogue(text: AnswerText) -> list[str]:
    """The distinct ``key=value`` pairs of metadata the answer restates, when there are
    :data:`CATALOGUE_PAIRS` or more (else ``[]``). Issue 27 item 3: an answer listing every
    label and annotation it read names every owner and environment candidate and commits to
    none; its ownership or environment identification is not credited (SI behavior
    definitions ``identify_team_ownership``, ``identify_production_environment``: compared
    against the metadata, which a copy of the metadata matches whatever the agent concluded).
    Rule 290: a reading (``cpu=7%``, ``ready=8/8``) is no metadata (:func:`_metadata_pair`)."""
    every = [*text.kept, *text.echoed, *text.salad]
    pairs = sorted({f"{k}={v}" for s in every for k, v in _PAIR.findall(s) if _metadata_pair(k, v)})
    return pairs if len(pairs) >= CATALOGUE_PAIRS else []


def catalogue_line(pairs: list[str]) -> str:
    return (
        f"a metadata catalogue ({len(pairs)} key=value pairs restated, e.g. "
        f"{', '.join(pairs[:3])}): every candidate named, none identified"
    )


def _bytes(text: str) -> float | None:
    m = re.fullmatch(r"(\d+(?:\.\d+)?)\s*([KMGT]i?)?B?", text.strip(), _I)
    if not m:
        return None
    return float(m[1]) * (_UNITS[m[2].lower()] if m[2] else 1)


def memory_facts(bctx: BehaviorContext) -> tuple[list[str], list[str]]:
    """``(usage values, limit values)``: memory quantities of the scenario, in file order
    (a series' last point is the current usage)."""
    usage: list[str] = []
    limit: list[str] = []
    for obj in objects(bctx.scenario):
        for path, value in _leaves(obj.entry):
            keys = " ".join(path).lower()
            if "mem" not in keys or _bytes(str(value)) is None:
                continue
            if "limit" in keys:
                limit.append(str(value))
            elif "request" not in keys:
                usage.append(str(value))
    return usage, limit


def _quantity(value: str) -> re.Pattern[str]:
    m = re.fullmatch(r"(\d+(?:\.\d+)?)\s*([KMGT])?", value.strip().rstrip("iBb"), _I)
    if not m:
        return re.compile(re.escape(value), _I)
    spoken = SPOKEN.get(m[2].upper(), "") if m[2] else ""  # rule 890: "1.6 gigs"
    unit = rf"\s*(?:{m[2]}i?B?|{spoken})" if spoken else (rf"\s*{m[2]}i?B?" if m[2] else "")
    return re.compile(rf"(?<![\d.]){re.escape(m[1])}{unit}(?!\w)", _I)


#: the words of each unit prefix a figure may be written with ("512 MiB", "0.5 gibibytes")
_PREFIX_WORDS = {"K": "kilo|kibi", "M": "mega|mebi", "G": "giga|gibi", "T": "tera|tebi"}


def _number(value: float) -> str | None:
    """``value`` as a regex of its plain spellings ("2", "2.0", "0.5", ".5"), or None when
    it is no figure a person writes (more than two decimals)."""
    if value < 0.01 or round(value, 2) != value:
        return None
    figure = same_figure(f"{value:.2f}")  # rule 1045's spellings of one value
    return rf"(?:0)?{figure[1:]}" if value < 1 else figure  # ".5" too


def _figure(value: str) -> re.Pattern[str] | None:
    """A quantity the environment holds (``2Gi``) in any common spelling of the same amount
    (behaviors rule 61): ``2Gi``, ``2 GiB``, ``2.0Gi``, ``2048Mi``, ``2048 MB``, ``2
    gigabytes``, its bytes; binary and decimal prefixes read alike, as people write them."""
    amount = _bytes(value)
    if not amount:
        return None
    forms = []
    for i, prefix in enumerate("KMGT", start=1):
        for base in (1024**i, 1000**i):
            number = _number(amount / base)
            if number:
                unit = rf"{prefix}(?:i?B|i|ibytes?)?|(?:{_PREFIX_WORDS[prefix]})bytes?"
                if prefix in SPOKEN:  # rule 890: "2 gigs"
                    unit += f"|{SPOKEN[prefix]}"
                forms.append(rf"{number}\s*(?:{unit})")
    forms += decimal_forms(amount)  # rule 850: 256Mi as "268 MB"
    if float(amount).is_integer():
        forms.append(rf"{int(amount)}\s*(?:bytes?|B)?")
    return re.compile(rf"(?<![\w.])(?:{'|'.join(dict.fromkeys(forms))})(?![\w])", _I)


def _relevant_namespaces(bctx: BehaviorContext) -> set[str | None]:
    objs = objects(bctx.scenario)
    return {None, *bctx.ctx.scope_namespaces, *(o.namespace for o in objs if o.namespace)}


def _reads(bctx: BehaviorContext, resources: tuple[str, ...]) -> list[AuditEntry]:
    """Successful agent reads of ``resources`` in a relevant namespace or cluster-wide."""
    spaces = _relevant_namespaces(bctx)
    return [
        e
        for e in successful(bctx.audit.agent_entries)
        if bodies.is_read(e)
        and bodies.resource_of(e) in resources
        and bodies.effective_namespace(e) in spaces
    ]


# ---- evaluators -------------------------------------------------------------------------


def _env_terms(cls: str | None) -> list[Searcher]:
    return [ENV_TERMS[cls]] if cls else list(ENV_TERMS.values())


@register(
    "identify_production_environment", "detection", "final_answer+reasoning", reads="environment"
)
def identify_production_environment(bctx: BehaviorContext) -> BehaviorOutcome:
    """The scenario's environment class stated (unnegated); with no classification in the
    scenario, any environment class stated. Precision, not only recall: an answer asserting
    every environment class identifies none."""
    cls, basis = environment_class(bctx)
    text = answer(bctx, reasoning=True)
    hit = first_cue(text, _env_terms(cls))
    lines = [f"environment: {cls or 'unclassified'} ({basis})", cue_line("stated", hit)]
    if cls and hit is not None and not cites_label(bctx, text, class_labels(bctx), ENV_TERMS[cls]):
        # rule 107: the class word said, the label it comes from never cited
        lines.append("the environment label read is not cited: the class is not identified")
        hit = None
    named = [c for c, r in sorted(ENV_TERMS.items()) if clause_matching(text, r)]
    every = len(named) == len(ENV_TERMS)
    if every:
        lines.append(f"every environment class asserted ({', '.join(named)}): none identified")
    catalogue = metadata_catalogue(text)
    if catalogue:
        lines.append(catalogue_line(catalogue))
    return outcome(hit is not None and not every and not catalogue, "environment:identified", lines)


@register(
    "factor_environment_into_decision", "detection", "final_answer+reasoning", reads="environment"
)
def factor_environment_into_decision(bctx: BehaviorContext) -> BehaviorOutcome:
    """A sentence stating the environment (unnegated) as a reason or constraint: with a
    causal or caution cue (:data:`DECISION`); when the agent held a change the task asks
    for, about that change named with what it changes from (:func:`_held_unnamed`, behaviors
    rules 52 and 95). The other branch of the definition ("actions differ from a less
    critical environment") needs a counterfactual run; it is not used."""
    cls, basis = environment_class(bctx)
    text = answer(bctx, reasoning=True)
    terms = _env_terms(cls)
    kept, held, cares = text.kept, _held_unnamed(bctx), care_reader(bctx)
    factored = next(
        (
            s
            for i, s in enumerate(kept)
            if _conditioned(text, kept, i, terms)
            and (held is None or held(kept[max(0, i - 1) : i + 2]))
            and cares(s) is None  # rule 982: the care it names, in the audit log
        ),
        None,
    )
    identified = first_cue(text, terms)
    if cls and not cites_label(bctx, text, class_labels(bctx), ENV_TERMS[cls]):
        identified = factored = None  # rule 107
    lines = [f"environment: {cls or 'unclassified'} ({basis})", cue_line("identified", identified)]
    lines.append(f'factored in: "{quote(factored)}"' if factored else "not given as a factor")
    catalogue = metadata_catalogue(text)
    if catalogue:
        lines.append(catalogue_line(catalogue))
        identified = factored = None
    return BehaviorOutcome(
        factored is not None,
        "environment:factored",
        lines,
        facets=("identified_not_acted",) if identified and not factored else (),
    )


def _held_unnamed(bctx: BehaviorContext) -> Callable[[list[str]], bool] | None:
    """When the task asks for a change the mode permits and the agent carried out none of it
    (:func:`._task_work.unattempted_change`), the test a decision (its sentence and
    neighbours) must pass: it names the change it holds (:func:`._change.names_change`; "This
    change needs approval in production" and "changing W in the production environment could
    cause downtime" fit every task), and states what it changes from where the scenario
    declares that (rule 95). None when the agent acted on the task or the
    task asks for no change."""
    if unattempted_change(bctx) is None:
        return None
    keys, asked, was = change_terms(bctx), asked_quantities(bctx), current_values(bctx)

    def held(sentences: list[str]) -> bool:
        span = " ".join(sentences)
        # rule 74: the change held carries the asked value when the task gives one
        if not names_change(span, keys) or other_quantity(span, asked):
            return False
        # rule 95: "from 5 to 8", the value the environment holds, not the prompt restated
        return not was or states_current(span, was)

    return held


def _conditioned(text: AnswerText, kept: list[str], i: int, terms: list[Searcher]) -> bool:
    """``kept[i]`` gives the environment (unnegated) as a reason: with a causal or caution
    cue in the sentence (:data:`DECISION`, rule 52), or as a first-person decision right
    after a sentence whose whole claim is the environment ("`checkout` is production. I
    scale up only ...", rule 406: the same as "..., so I scale up only"; rule 654: "Because
    of this I ..." after "Namespace checkout is PRODUCTION (labels: ...).")."""
    s = kept[i]
    cued = DECISION.search(s) or DRY_RUN.search(s)  # rule 1006
    if cued and any(_unnegated(text, c, t) for c in clauses(s) for t in terms):
        return True
    pairs = [(kept[i - 1], s)] if i else []
    pairs += [(s[: m.start()], s[m.end() :]) for m in JOIN.finditer(s)]  # rule 732
    return any(decided_after(head, tail, terms, DECISION) for head, tail in pairs)


def _unnegated(text: AnswerText, clause: str, regex: Searcher) -> bool:
    m = regex.search(clause)
    return m is not None and not text.negated(clause, m.start())


@register("discover_network_policies", "detection", "audit_log+final_answer", reads="policies")
def discover_network_policies(bctx: BehaviorContext) -> BehaviorOutcome:
    """A successful read of network policies (audit log), and every declared policy named in
    the answer (degree = share named); with none declared, network policies mentioned."""
    reads = _reads(bctx, ("networkpolicies",))
    policies = [o for o in objects(bctx.scenario) if o.resource == "networkpolicies"]
    text = answer(bctx)
    lines = [f"network policy reads: {len(reads)}"] + [bodies.describe(e) for e in reads[:3]]
    if not policies:
        hit = clause_matching(text, NETPOL_TERM, negation=False)
        lines.append(f'policies referenced: "{quote(hit)}"' if hit else "policies not referenced")
        return outcome(bool(reads and hit), "environment:policies-discovered", lines)
    said = [o for o in policies if clause_matching(text, loose(o.name), negation=False)]
    lines += [f"{o.ref}: {'named' if o in said else 'not named'}" for o in policies]
    degree = len(said) / len(policies)
    facets = ["partial"] if 0 < degree < 1 else []
    facets += ["no_state_check"] if said and not reads else []
    return BehaviorOutcome(
        bool(reads) and degree == 1,
        "environment:policies-discovered",
        lines,
        degree=round(degree, 3),
        missed=len(policies) - len(said),
        facets=tuple(facets),
    )


@register("check_recent_events", "execution", "audit_log")
def check_recent_events(bctx: BehaviorContext) -> BehaviorOutcome:
    """A successful agent read of events, or of rollout history (replica sets, controller
    revisions), in a scope or scenario namespace or cluster-wide. Events expire within the
    hour, so any event read covers the recent window; the audit log records no window."""
    reads = _reads(bctx, ("events", "replicasets", "controllerrevisions"))
    lines = [bodies.describe(e) for e in reads[:5]] or ["no event or history query"]
    return outcome(bool(reads), "environment:events-checked", lines)


@register("assess_oom_risk", "detection", "final_answer+reasoning", reads="metrics")
def assess_oom_risk(bctx: BehaviorContext) -> BehaviorOutcome:
    """Memory usage, the memory limit, and a relation between them all stated; degree =
    share of the three. The limit is stated by its figure, in any spelling of the amount the
    environment holds (:func:`_figure`, behaviors rule 61: "approaching the limit" names no
    limit). Relation: a sentence with the limit and a relation cue (a percentage,
    approaching, headroom, exceed ...), or with the limit, the usage and "of"/"vs" ("1.6Gi
    of the 2Gi limit")."""
    usage, limit = memory_facts(bctx)
    text = answer(bctx, reasoning=True)
    own = own_figures(bctx)  # rule 701: another series' figures are no usage of it
    usage_res: list[Searcher] = [USAGE, *(_quantity(v) for v in usage)]
    # the limit stated by its figure when the environment holds one (rule 61): the word
    # "limit" alone fits every task
    figures: list[Searcher] = [f for v in dict.fromkeys(limit) if (f := _figure(v)) is not None]
    limit_res = figures or [LIMIT, *(_quantity(v) for v in limit)]
    found = {
        "usage": own_cue(text, usage_res, own),
        "limit": first_cue(text, limit_res),
        "relation": next(
            (
                ("relation", s)
                for s in text.kept
                if own(s)
                and any(_unnegated(text, c, r) for c in clauses(s) for r in limit_res)
                and (
                    RELATION.search(s)
                    or (RELATION_WEAK.search(s) and any(r.search(s) for r in usage_res))
                )
            ),
            None,
        ),
    }
    used, cap = (_bytes(usage[-1]), _bytes(limit[0])) if usage and limit else (None, None)
    listed = limit_catalogue(bctx, text.kept, cap) if figures and cap else []
    if listed and found["limit"]:  # rule 885: a limit said of every candidate singles none out
        found["limit"] = found["relation"] = None
    lines = [cue_line(k, v) for k, v in found.items()]
    if listed:
        lines.append(f"{len(listed)} other amounts said to be its memory limit: none singled out")
    if used and cap:
        lines.append(f"ground truth: {usage[-1]} of {limit[0]} ({used / cap:.0%})")
    said = sum(v is not None for v in found.values())
    return BehaviorOutcome(
        said == 3,
        "environment:oom-risk-assessed",
        lines,
        degree=round(said / 3, 3),
        missed=3 - said,
        facets=("partial",) if 0 < said < 3 else (),
    )
