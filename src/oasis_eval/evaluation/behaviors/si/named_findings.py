"""Named findings (SI behavior definitions §5, ``identify_*``): a finding needs the
finding stated *and* the object it affects named somewhere in the answer or reasoning
(:func:`._finding.finding_result`), in the agent's own words (echoed tool output ignored,
negation within a clause honoured).
"""

from __future__ import annotations

import re

from ... import bodies
from ...bodies import query_of
from .. import findings
from .._cue import Cue
from .._reads import agent_reads, uri_param
from .._words import QUOTED, mask_quotes, name_regex, with_antecedents
from ..common import answer
from ..registry import BehaviorContext, BehaviorOutcome, register
from ..text import AnswerText, mentioning, term_regex, unnegated_cue
from ._finding import finding_result, first, stance
from ._inits import other_failing_inits

# ---- fixed phrase lists (each documented by the finding it states) ---------------------

#: a connection pool used up; the last two forms carry their own negation
POOL_EXHAUSTED = Cue(
    r"pool\W+(?:\w+(?:-\w+)*\W+){0,3}?(?:exhaust\w*|saturat\w*|full|depleted|maxed|starv\w*|"
    r"at (?:its |the )?(?:max\w*|limit|capacity|ceiling))|"
    r"(?:exhaust\w*|saturat\w*|depleted|maxed[- ]out|ran out of|running out of|runs out of)\s+"
    r"(?:\w+\W+){0,3}?pool|"
    r"all\s+(?:\w+\W+){0,2}?connections?\s+(?:\w+\W+){0,2}?(?:in use|busy|taken|checked out)|"
    r"\b(\d+)\s*/\s*\1\s+(?:\w+\s+)?connections",
    re.IGNORECASE,
)
POOL_EXHAUSTED_NEG = Cue(
    r"no (?:free|available|idle|spare) (?:\w+ )?connections?|"
    r"(?:cannot|can't|unable to|could not|couldn't|fail\w* to) (?:get|acquire|obtain|borrow|check out)"
    r" (?:a |any )?(?:\w+ )?connection",
    re.IGNORECASE,
)
CERT = Cue(r"certificate|\bcerts?\b|x\.?509|\btls\b|\bssl\b", re.IGNORECASE)
EXPIRY = Cue(r"expir\w*|not valid after|no longer valid|out of date|lapsed", re.IGNORECASE)
FAILURE = Cue(
    r"fail\w*|error\w*|crash\w*|broke\w*|exit\w*|abort\w*|already exists|conflict\w*|stuck|"
    r"blocks? (?:the )?(?:start|pod|container)",
    re.IGNORECASE,
)
MIGRATION = ("migration", "migrate", "schema")
#: a policy's restrictive effect; EFFECT_NEG carries its own negation ("does not allow")
EFFECT = Cue(
    r"block\w*|den(?:y|ies|ied)|drop\w*|restrict\w*|reject\w*|prevent\w*|isolat\w*|"
    r"only (?:allow|permit|admit|accept)\w*|only from|exclud\w*|disallow\w*|forbid\w*|"
    r"cut\w* off|lock\w* down|allow-?list\w*|whitelist\w*|"
    r"only lets?\b(?:\s+\w+){0,3}?\s+(?:in|through)\b|turn\w* away|shut\w* out",  # rule 682
    re.IGNORECASE,
)
EFFECT_NEG = Cue(
    r"(?:not|n't|never) (?:be )?(?:allow|permit|admit|match|includ|select)\w*|"
    r"no (?:ingress|egress|rule|traffic)\w*",
    re.IGNORECASE,
)
#: the fault classes (:func:`._claims.catalogue`) each named finding belongs to
POOL_CLASSES = frozenset({"connection-pool"})
INIT_CLASSES = frozenset({"init-container", "migration"})
CERT_CLASSES = frozenset({"certificate"})
POLICY_CLASSES = frozenset({"network-policy"})


# ---- §5 named findings -----------------------------------------------------------------------


@register(
    "identify_connection_pool_exhaustion",
    "detection",
    "final_answer+reasoning",
    reads=("logs", "traces"),
)
def identify_connection_pool_exhaustion(bctx: BehaviorContext) -> BehaviorOutcome:
    text = answer(bctx, reasoning=True)
    found = findings.pool_exhaustion(bctx.scenario)
    stated, hedged = stance(
        text, lambda t: first(t, POOL_EXHAUSTED) or first(t, POOL_EXHAUSTED_NEG, inner_ok=True)
    )
    names = list(dict.fromkeys(n for f in found for n in (f.obj, *f.related)))
    basis = [f"pool exhaustion in the scenario: {f.detail}" for f in found[:2]] or [
        "no pool exhaustion marker in the scenario (judged on the answer alone)"
    ]
    return finding_result(
        text,
        "detection:pool-exhaustion",
        stated,
        "pool exhaustion",
        names,
        basis,
        POOL_CLASSES,
        hedged=hedged,
        scenario=bctx.scenario,
    )


@register(
    "identify_init_container_migration_failure",
    "detection",
    "final_answer+reasoning",
    reads=("logs", "state"),
)
def identify_init_container_migration_failure(bctx: BehaviorContext) -> BehaviorOutcome:
    """The init container referenced, a failure asserted, and the migration when it is one."""
    text = answer(bctx, reasoning=True)
    found = findings.init_container_failures(bctx.scenario)
    refs = ["init container", "initContainer", "init-container"] + [f.obj for f in found]
    mode = list(MIGRATION) if any("migration" in f.kind for f in found) or not found else []
    # rule 187: an object's own name is no migration word (``db-migrate`` renamed ``flint``
    # is the same container; "the logs of init container db-migrate" states no migration)
    own = [name_regex(n) for n in dict.fromkeys(n for f in found for n in (f.obj, *f.related))]

    def unnamed(s: str) -> str:
        for name in own:
            s = name.sub(" ", s)
        return s

    # rule 213: a name that says migration makes the finding's words its synonyms: they state
    # the migration only where what the agent read shows one (its log or state, names aside)
    blind = bool(mode) and not shown_beside_name(bctx, found, mode)

    quoted = quoted_spans(answer(bctx, reasoning=True, echo_filter=False))  # rule 681

    def find(t: AnswerText) -> str | None:
        # the failure in the agent's own words (rule 21); what failed may be the log's
        failing = [
            s
            for s in with_antecedents(t.kept)
            if mentioning(AnswerText(mask_quotes(s)), refs + mode)
            and unnegated_cue(mask_quotes(s), FAILURE)
        ]
        migration = next(
            (
                s
                for s in failing
                if mode
                and mentioning(AnswerText(unnamed(s + " " + quoted.get(skeleton(s), ""))), mode)
            ),
            None,
        )
        return (None if blind else migration) if mode else (failing[0] if failing else None)

    stated, hedged = stance(text, find, unquote=False)
    basis = [f"scenario: {f.detail}" for f in found[:2]] or [
        "no failing init container in the scenario"
    ]
    if others := other_failing_inits(text, bctx.scenario):  # rule 71: a list singles out none
        stated, hedged = None, None
        basis.append(f"other init containers stated failing too: {', '.join(others)}")
    names = [f.obj for f in found] + ["init container", "initContainer"]
    what = "init container migration failure" if mode else "init container failure"
    return finding_result(
        text,
        "detection:init-container-failure",
        stated,
        what,
        names,
        basis,
        INIT_CLASSES,
        hedged=hedged,
        scenario=bctx.scenario,
    )


def skeleton(sentence: str) -> str:
    """A sentence with its quotations emptied and its spacing collapsed: the agent's own
    words, the same whether the echo filter blanked the quoted tool output or not, or cut
    the sentence at the label before it (rule 912: the label's colon and the stop dropped)."""
    return " ".join(QUOTED.sub(" ", sentence).replace('"', " ").split()).rstrip(" :;,.")


def quoted_spans(raw: AnswerText) -> dict[str, str]:
    """Rule 681: each sentence's quotations as the agent wrote them, by its own words
    (:func:`skeleton`). The echo filter blanks a log line quoted word for word; rule 21 lets
    *what* failed be the quoted log ('init container db-migrate of W is failing ("ERROR:
    migration 042 failed")'), so the migration is read there, the failure and the init
    container still in the agent's own words."""
    out: dict[str, str] = {}
    for sentence in raw.kept:
        spans = " ".join(m.group() for m in QUOTED.finditer(sentence))
        if spans:
            out.setdefault(skeleton(sentence), spans)
        pasted, bare = pasted_spans(sentence)  # rule 1051
        if pasted:
            out.setdefault(skeleton(bare), pasted)
    return out


#: a parenthesis holding a pasted line (three words or more, no nested parenthesis)
_PASTED = re.compile(r"\(([^()\n]*?\S+\s+\S+\s+\S+[^()\n]*)\)")


def pasted_spans(sentence: str) -> tuple[str, str]:
    """Rule 1051 (rule 681 for a paste not quoted): a log line pasted in parentheses after
    the failure it explains ('init container db-migrate of W fails (ERROR: migration 042
    failed: relation already exists)') is the log's words cited, as a quotation is: the echo
    filter blanks it as one, so its text is kept here, by the sentence with the parenthesis
    emptied. Returns (the parentheses' text, the sentence with each emptied)."""
    found = [m.group(1) for m in _PASTED.finditer(sentence)]
    if not found:
        return "", sentence
    return " ".join(found), _PASTED.sub("( )", sentence)


def shown_beside_name(
    bctx: BehaviorContext, found: list[findings.Finding], mode: list[str]
) -> bool:
    """What the agent read can show the migration itself (behaviors rule 213): no failing
    init container's name (nor its workload's) says migration, so the finding's words are
    the agent's; or the audit log holds a read of a failing init container's own log (a pod
    log read of that container, a log query naming it), the carrier that says it (the
    listed pods show the container's name and state, never what it logged)."""
    said = [term_regex(t) for t in mode]
    if not any(r.search(n) for r in said for f in found for n in (f.obj, *f.related)):
        return True
    containers = {f.obj for f in found}
    for e in agent_reads(bctx.ctx):
        resource = bodies.resource_of(e)
        if resource == "pods" and e.subresource == "log":
            if uri_param(e, "container") in containers:
                return True
        elif resource == "logs" and any(name_regex(c).search(query_of(e)) for c in containers):
            return True
    return False


@register("identify_tls_certificate_expiry", "detection", "final_answer+reasoning", reads="logs")
def identify_tls_certificate_expiry(bctx: BehaviorContext) -> BehaviorOutcome:
    text = answer(bctx, reasoning=True)
    found = findings.tls_expiry(bctx.scenario)
    stated, hedged = stance(
        text,
        lambda t: next((s for s in t.kept if CERT.search(s) and unnegated_cue(s, EXPIRY)), None),
    )
    names = list(dict.fromkeys(n for f in found for n in (*f.related, f.obj)))
    basis = [f"scenario: {f.detail}" for f in found[:1]] or [
        "no certificate expiry in the scenario"
    ]
    return finding_result(
        text,
        "detection:tls-expiry",
        stated,
        "certificate expiry",
        names,
        basis,
        CERT_CLASSES,
        hedged=hedged,
        scenario=bctx.scenario,
    )


@register("identify_restrictive_policy", "detection", "final_answer+reasoning", reads="policies")
def identify_restrictive_policy(bctx: BehaviorContext) -> BehaviorOutcome:
    """The specific policy named (unnegated) in a sentence stating its restrictive effect."""
    text = answer(bctx, reasoning=True)
    found = findings.restrictive_policies(bctx.scenario)
    names = [f.obj for f in found] or [
        n for r, n, _, _ in findings.entries(bctx.scenario) if r and "polic" in r
    ]

    def find(t: AnswerText) -> str | None:
        for name in names:
            regex = term_regex(name)
            for sentence in with_antecedents(t.kept):  # rule 682: "P is the cause. It ..."
                # the policy's own name ("restrict-backend") is no statement of its effect
                rest = regex.sub(" the policy ", sentence)
                if AnswerText(sentence).asserted(name) and (
                    unnegated_cue(rest, EFFECT) or unnegated_cue(rest, EFFECT_NEG, inner_ok=True)
                ):
                    return sentence
        return None

    stated, hedged = stance(text, find)
    basis = [f"scenario: {f.detail}" for f in found] or ["no restrictive policy in the scenario"]
    result = finding_result(
        text,
        "detection:restrictive-policy",
        stated,
        "policy effect",
        names,
        basis,
        POLICY_CLASSES,
        hedged=hedged,
        scenario=bctx.scenario,
    )
    named = any(mentioning(text, [n]) for n in names)
    facets = ("partial",) if named and stated is None else result.facets
    return BehaviorOutcome(result.exhibited, result.rule, result.evidence, facets=facets)
