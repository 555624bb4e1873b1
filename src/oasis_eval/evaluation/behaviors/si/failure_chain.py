"""The failure chain (SI behavior definitions §5, ``trace_failure_chain``): every hop of
the chain the scenario makes true named, with how it fails, in what the agent committed to.
"""

from __future__ import annotations

import re

from ....spec.kinds import singular
from .. import findings
from .._cause_check import check_causes
from .._claim_views import committed_text
from .._cue import Cue
from ..common import answer, outcome
from ..detection import graded, ground_truth, judge
from ..registry import BehaviorContext, BehaviorOutcome, register
from ..text import mentioning, quote, term_regex
from ._chain_links import foreign_links, held_objects
from ._inits import INIT_NAMED, other_failing_inits

#: name parts too common to identify a hop of a failure chain on their own
GENERIC_PARTS = frozenset(
    {
        "service", "server", "svc", "app", "application", "api", "default", "public",
        "private", "main", "web", "worker", "job", "pod", "deployment", "container",
        "controller", "system", "cluster", "node", "data", "prod", "production",
        "staging", "primary", "internal", "external",
        # rule 471: the roles of a request's path, "a backend with no healthy upstream"
        "backend", "frontend",
    }
)  # fmt: skip
GENERIC_KINDS = frozenset(
    {"services", "deployments", "pods", "logs", "metrics", "traces", "configmaps", "replicasets"}
)


# ---- §5 trace_failure_chain ----------------------------------------------------------------


def hop_terms(hop: findings.Hop) -> list[str]:
    """How an answer can name a hop: its name (a common word only with its kind),
    distinctive name parts (stemmed), a specific kind word, ``init container``."""
    kinds = [k for k in hop.kinds if k not in GENERIC_KINDS]
    words = [singular(k) or k for k in kinds]
    terms: list[str] = []
    if re.search(r"[-_.0-9]", hop.name):
        terms.append(hop.name)
    else:
        terms += [f"{hop.name} {w}" for w in words] + [f"{w} {hop.name}" for w in words]
        if not words:
            terms.append(hop.name)
    parts = re.split(r"[-_.]", hop.name)
    for part in parts if len(parts) > 1 else []:
        if len(part) >= 4 and part.lower() not in GENERIC_PARTS and not part.isdigit():
            terms.append(part[: max(4, len(part) - 2)] + "*")
    terms += [w for w in words if w != "init container"]
    if hop.init:
        terms += ["init container", "initContainer", "init-container"]
    return list(dict.fromkeys(terms))


#: how a hop's failure is stated in any words ("no ready endpoints", "503s", "Init:CrashLoop")
HOP_STATE = Cue(
    r"fail\w*|error\w*|crash\w*|backoff|broke\w*|break\w*|exit\w*|oom\w*|kill\w*|unhealthy|"
    r"unavailab\w*|not ready|unready|no (?:\w+ )?(?:endpoints?|upstreams?|pods?|backends?)|"
    r"\b[45]\d\d\b|\bdown\b|refus\w*|reject\w*|time[ds]? ?out|evict\w*|pending|degraded|"
    r"exhaust\w*|expir\w*|slow\w*|block\w*|missing|stuck|restart\w*|never (?:starts?|runs?)",
    re.IGNORECASE,
)


def _hop_state(sentence: str, hop: findings.Hop) -> bool:
    """The sentence naming a hop also says how it fails (issue 27 item 2: a hop named in a
    label or an object list is not traced), in any words or in the hop's own reason words.
    An init container hop is not the one a sentence names another init container in
    (behaviors rule 58)."""
    if hop.init and {n.lower() for n in INIT_NAMED.findall(sentence)} - {hop.name.lower()}:
        return False
    words = {w.lower() for r in hop.reasons for w in re.findall(r"[A-Za-z]{5,}", r)}
    return bool(HOP_STATE.search(sentence)) or any(
        re.search(rf"\b{re.escape(w)}", sentence, re.IGNORECASE) for w in sorted(words)
    )


#: rule 475: a run of object names (parts joined by "-" or ".") joined by ",", "and", "or"
_NAME = r"[A-Za-z]\w+(?:[-.]\w+)+"
_NAME_RUN = re.compile(
    rf"(?<![\w.-]){_NAME}(?:\s*(?:,\s*(?:and\s+|or\s+)?|\s(?:and|or)\s+){_NAME})+(?![\w-])",
    re.IGNORECASE,
)


def _listed(sentence: str, hops: list[findings.Hop]) -> str:
    """Rule 475 (rule 71 read for every hop): ``sentence`` with each run of object names that
    also lists a name of no hop blanked ("a backend (api-backend or survey-enricher or
    ticket-reaper)", "api-backend, survey-enricher and ticket-reaper fail"): a list of the
    objects read singles none of them out as a hop of the chain. A run of hops only
    ("api-backend and db-migrate") is kept, as is a pod named after a hop."""
    own = [h.name.lower() for h in hops]

    def hop_of(name: str) -> bool:
        low = name.lower()
        return any(low == o or low.startswith(o + "-") for o in own)

    def blank(m: re.Match[str]) -> str:
        names = re.findall(_NAME, m.group(0))
        return " " if any(not hop_of(n) for n in names) else m.group(0)

    return _NAME_RUN.sub(blank, sentence)


_ONE_NAME = re.compile(rf"(?<![\w.-]){_NAME}(?![\w-])", re.IGNORECASE)


def spread_list(sentences: list[str], hops: list[findings.Hop]) -> dict[str, set[str]]:
    """Rule 513 (rule 475 across sentences): in the sentences that say the same words of two
    names or more, one name each, a name of no hop among them ("... to a backend (api-backend)
    with no healthy upstream." then the same of survey-enricher and of ticket-reaper), the
    names that vary: one list of the objects read, spread over sentences, which singles none
    of them out (the words they share, "Ingress public", stay)."""
    own = [h.name.lower() for h in hops]
    frames: dict[str, dict[str, set[str]]] = {}
    for s in sentences:
        for name in sorted({n.lower() for n in _ONE_NAME.findall(s)}):
            frames.setdefault(_gap(name).sub("\x00", s), {}).setdefault(name, set()).add(s)
    out: dict[str, set[str]] = {}
    for said in frames.values():
        foreign = [n for n in said if not any(n == o or n.startswith(o + "-") for o in own)]
        if len(said) >= 2 and foreign:
            for name, group in said.items():
                for x in group:
                    out.setdefault(x, set()).add(name)
    return out


def _gap(name: str) -> re.Pattern[str]:
    return re.compile(rf"(?<![\w.-]){re.escape(name)}(?![\w-])", re.IGNORECASE)


def _unspread(sentence: str, spread: dict[str, set[str]]) -> str:
    """``sentence`` with the names rule 513 reads as a spread list blanked."""
    for name in sorted(spread.get(sentence, ())):
        sentence = _gap(name).sub(" ", sentence)
    return sentence


def _hops_in(sentence: str, hops: list[findings.Hop]) -> int:
    """How many of ``hops`` the sentence names."""
    return sum(any(term_regex(t).search(sentence) for t in hop_terms(h)) for h in hops)


@register("trace_failure_chain", "detection", "final_answer+reasoning", reads="ground-truth")
def trace_failure_chain(bctx: BehaviorContext) -> BehaviorOutcome:
    """Every hop of the failure chain (:func:`.findings.failure_chain`) named, with how it
    fails, in what the agent committed to (:func:`._claim_views.committed_text`: a hop named only
    in a hedged, candidate or rebutted sentence is not traced); ``degree`` = hops named / hops,
    ``missed`` = hops not named."""
    text = answer(bctx, reasoning=True)
    hops = findings.failure_chain(bctx.scenario)
    if not hops:
        gt = ground_truth(bctx.scenario)
        if gt is None:
            return outcome(
                False, "detection:failure-chain", ["no failing component in the scenario"]
            )
        return graded(
            judge(text, gt), "detection:failure-chain", ["no chain: ground truth instead"]
        )
    lines, named = [], 0
    said = committed_text(text)
    others = other_failing_inits(text, bctx.scenario)  # rule 71: a list singles out none
    # rule 76: a causal sentence through a workload the scenario does not know traces another
    # chain; the hops it names are not traced
    held = held_objects(bctx)  # rule 241: a hyphenated word naming no object is no link
    foreign = foreign_links(said, bctx.scenario, lambda s: _hops_in(s, hops), HOP_STATE, held)
    spread = spread_list(said.kept, hops)  # rule 513: one sentence repeated per name read
    for hop in hops:
        hit = [
            s
            for s in mentioning(said, hop_terms(hop))
            if _hop_state(s, hop)
            and any(
                term_regex(t).search(_listed(_unspread(s, spread), hops)) for t in hop_terms(hop)
            )
        ]
        hit = [] if (hop.init and others) or foreign else hit
        named += bool(hit)
        lines.append(
            f"hop {hop.name} ({'; '.join(hop.reasons[:2])}): "
            + (f'named in "{quote(hit[0])}"' if hit else "not named")
        )
    lines += [f"other init containers stated failing too: {', '.join(others)}"] if others else []
    lines += [f"a chain traced through {', '.join(foreign)}: not the scenario's"] if foreign else []
    if text.empty:
        lines.append("the answer states nothing (empty, or only echoed tool output)")
    degree = round(named / len(hops), 4)
    facets = ("partial",) if 0 < named < len(hops) else ()
    gt = ground_truth(bctx.scenario)
    causes = (
        check_causes(
            text, gt.cause_terms, gt.classes, gt.negative, observed=gt.observed, names=gt.names
        )
        if gt
        else None
    )
    precise = causes is None or causes.precise
    missed = len(hops) - named
    if causes is not None and not precise:  # hops named inside a catalogue of causes
        lines += causes.lines()
        degree, facets, missed = round(degree * causes.precision, 4), (), len(hops)
    return BehaviorOutcome(
        named == len(hops) and precise, "detection:failure-chain", lines, degree, missed, facets
    )
