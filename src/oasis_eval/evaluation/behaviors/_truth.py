"""Ground truth of diagnosis behaviors, derived from the scenario (issue 13 item 2).

Ground truth for diagnosis comes from the scenario by general rules
(:func:`ground_truth`), in this order:

1. state entries carrying a ``fault`` key: the object name and the fault token;
2. prose verification entries ``agent identified <finding>``: the finding's
   identifier-like tokens (containing a digit, ``_``, ``-``, ``.``, or two
   capitals: ``SMTP_PORT``, ``smtp-config``, ``v4.2.0``, ``OOM``) and, when it has
   fewer than two, its longest content words matched by stem; a trailing
   ``, not X`` / ``rather than X`` part lists what must *not* be asserted as the
   cause;
3. structural findings (:func:`.findings.diagnostic_findings`, most specific
   first: a missing config key, a failing init container, an image pull
   failure, connection pool exhaustion, an expired certificate, memory usage at
   its limit, an OOM kill, a restrictive policy): the affected object and the
   finding's terms;
3b. a log line with an error signature naming a fault class (:func:`._claims.catalogue`,
   general vocabulary: DNS, quota, storage, node, ...): its source and the class's words;
4. state entries in an unhealthy state (a status that is not a healthy word, a
   False condition, no endpoints), workloads, services, ingresses, nodes and storage
   claims: the object name and its status/reason/condition words with their fault
   class's words.

Every ground truth also carries the terms and fault classes an asserted cause is
checked against (:meth:`GroundTruth.finish`); a ``fault`` marker's token gives its class
("dns_failure" is DNS), so faults outside any fixed catalogue are judged too. The classes
also come from the scenario's own data (:attr:`GroundTruth.facts`): a verification sentence
naming the object of a structural finding takes that finding's classes (behaviors rule 242:
"failed db-migrate init container" is the init container's migration failure its log
shows), and an unhealthy state of unreadiness alone takes the probe's (rule 243: a failing
readiness probe is how a running pod is not ready).

A scenario with none of these has no ground truth: the readiness check
reports the behavior as not decidable for it.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from functools import cache

from ...spec.kinds import singular
from ...spec.scenario import Scenario
from ..reading import per_judgement_of
from ..state import scenario_resources
from . import findings
from ._absence import declared_store_keys
from ._claims import catalogue, fault_classes
from ._cue import Cue
from .common import fault_entries
from .text import name_regex

__all__ = [
    "ABSENCE",
    "SYNONYMS",
    "UNHEALTHY_KINDS",
    "UNHEALTHY_WORDS",
    "GroundTruth",
    "finding_groups",
    "ground_truth",
]

#: kinds whose unhealthy state can be the diagnosed problem (rule 4)
UNHEALTHY_KINDS = frozenset(
    findings.WORKLOADS
    | {"services", "ingresses", "nodes", "persistentvolumeclaims", "persistentvolumes"}
)
#: words that state an object is unhealthy, accepted with its own status words (rule 4)
UNHEALTHY_WORDS = (
    "unhealthy",
    "not ready",
    "unready",
    "readiness",
    "failing",
    "crash*",
    "unavailable",
    "not available",
    "degraded",
)
#: abbreviations and their spelled-out forms (either satisfies the other)
SYNONYMS = {
    "db": ("database",),
    "oom": ("out of memory", "out-of-memory", "oomkilled"),
    "tls": ("ssl",),
    "cert": ("certificate",),
    "k8s": ("kubernetes",),
    # rule 730: kubectl's own short names of the kinds a finding names (`kubectl
    # api-resources`, SHORTNAMES): "cm/smtp-config" is the ConfigMap smtp-config
    "configmap": ("cm",),
    "networkpolicy": ("netpol",),
}
#: a finding that something is absent (see :attr:`GroundTruth.absence`)
ABSENCE = Cue(r"\b(?:missing|absent|lack\w*|no such|not found|undefined)\b", re.IGNORECASE)
_IDENT = re.compile(r"[A-Za-z0-9][\w.\-/]*")
_NEGATIVE_TAIL = re.compile(r",?\s+(?:not|rather than|instead of)\s+(?P<neg>.+)$", re.IGNORECASE)
_FILLER = Cue(
    r"\s+(?:as (?:the |a )?(?:likely |probable |root )?(?:root )?(?:cause|bottleneck)"
    r"|as root cause)\b.*$",
    re.IGNORECASE,
)
#: words never kept as ground-truth terms: general English and causal filler; a plugin adds
#: the words its profile's verification sentences use (:func:`stop_words`)
_STOP = frozenset(
    {
        "the",
        "and",
        "with",
        "from",
        "into",
        "that",
        "this",
        "before",
        "after",
        "recent",
        "likely",
        "cause",
        "root",
        "due",
    }
)


@cache
def stop_words() -> frozenset[str]:
    """:data:`_STOP` plus the stop words every installed behavior plugin contributes."""
    from .plugins import installed  # plugins read the registry, which this module precedes

    return _STOP | {w.lower() for p in installed() for w in p.evaluators.stop_words}


@dataclass
class GroundTruth:
    #: every group must be asserted; a group is satisfied by any of its terms
    required: list[tuple[str, ...]] = field(default_factory=list)
    #: terms that must not be asserted as the cause
    negative: list[str] = field(default_factory=list)
    source: str = ""
    #: the finding is an absence ("missing SMTP_PORT key"): its terms are naturally stated
    #: under a negation ("couldn't find key SMTP_PORT"), so a mention states them
    absence: bool = False
    #: terms naming the fault itself (the required terms that are not object names) and the
    #: fault classes of the ground truth: what an asserted cause is checked against
    cause_terms: list[str] = field(default_factory=list)
    classes: set[str] = field(default_factory=set)
    #: fault classes the environment makes true (:func:`.findings.observed_classes`): stated
    #: plainly they are observations; any other class stated plainly is a wrong claim
    observed: frozenset[str] = frozenset()
    #: the scenario's object names (never a fault class, whatever they are called)
    names: tuple[str, ...] = ()
    #: the keys its ConfigMaps and Secrets declare: said missing, a false claim (rule 55)
    present_keys: tuple[str, ...] = ()
    #: what the scenario's own data says of the fault, read for its classes only (rules 242,
    #: 243): the detail of the structural finding a verification sentence names
    facts: str = ""

    def finish(self, scenario: Scenario, extra: str = "") -> GroundTruth:
        """Fill :attr:`cause_terms` and :attr:`classes` from the required terms, the
        source and ``extra`` facts (a fault token, a status, a condition message)."""
        self.required = _merge_by_class(self.required)
        names = [str(n) for _, n, _, _ in scenario_resources(scenario) if n]
        terms = [t for g in self.required for t in g]
        # a term naming or containing an object ("ledger-db.payments.svc") locates the fault
        located = [t for t in terms if any(name_regex(n).search(t) for n in names)]
        self.cause_terms = [t for t in terms if t not in located] or terms
        # the generic unhealthy words ("readiness", "crash") say nothing of the fault's class
        named = [t for t in terms if t not in UNHEALTHY_WORDS]
        facts = " ".join([*named, self.source, self.facts, extra]).replace("_", " ")
        self.classes = fault_classes(facts)
        self.observed = findings.observed_classes(scenario) | self.classes
        self.names = tuple(sorted(set(names)))
        self.present_keys = declared_store_keys(scenario)
        return self


def _merge_by_class(groups: list[tuple[str, ...]]) -> list[tuple[str, ...]]:
    """Groups naming one fault class only are one fact said in several words ("DNS",
    "NXDOMAIN", "CoreDNS"): merged into one group, any of whose terms states it."""
    out: list[tuple[str, ...]] = []
    seen: dict[str, int] = {}
    for group in groups:
        classes = {c for t in group for c in fault_classes(t.rstrip("*"))}
        only = next(iter(classes)) if len(classes) == 1 else None
        if only is not None and only in seen:
            i = seen[only]
            out[i] = tuple(dict.fromkeys(out[i] + group))
            continue
        if only is not None:
            seen[only] = len(out)
        out.append(group)
    return out


def _identifier(token: str) -> bool:
    return bool(re.search(r"[0-9_.\-]", token)) or sum(c.isupper() for c in token) >= 2


def _terms(phrase: str, names: frozenset[str] = frozenset()) -> list[tuple[str, ...]]:
    """Identifier-like tokens of a finding, each a group; a scenario object's name counts
    whatever its shape (a one-word name such as ``basalt`` is as much the object as
    ``restrict-kestrel``)."""
    tokens = [t.strip(".,;:()'\"") for t in _IDENT.findall(phrase)]
    idents = [
        t
        for t in tokens
        if t and (_identifier(t) or t.lower() in names) and t.lower() not in stop_words()
    ]
    groups = [(t, *SYNONYMS.get(t.lower(), ())) for t in dict.fromkeys(idents)]
    if len(groups) < 2:
        words = sorted(
            {
                t.lower()
                for t in tokens
                if t.isalpha() and len(t) >= 5 and t.lower() not in stop_words()
            },
            key=lambda w: (-len(w), w),
        )
        groups += [(w[: max(4, len(w) - 4)] + "*",) for w in words[: 2 - len(groups)]]
    return groups


def _ground_truth(scenario: Scenario) -> GroundTruth | None:
    faults = fault_entries(scenario)
    if faults:
        gt = GroundTruth(source="fault marker")
        for _, name, _, entry in faults:
            gt.required += [(name,), (str(entry["fault"]),)]
            gt.source += f" {entry['fault']}"
        return gt
    names = frozenset(n.lower() for _, n, _, _ in scenario_resources(scenario) if n)
    for item in scenario.verification.state_assertions:
        text = " ".join(str(item.get("description", "")).split())
        m = re.match(r"^agent identified (?P<finding>.+)$", text, re.IGNORECASE)
        if "resource" in item or not m:
            continue
        finding, negative = m["finding"], []
        tail = _NEGATIVE_TAIL.search(finding)
        if tail:
            negative = [t[0] for t in _terms(tail["neg"], names)]
            finding = finding[: tail.start()]
        finding = _FILLER.sub("", finding)
        required = _terms(finding, names)
        if required:
            return GroundTruth(
                required=required,
                negative=negative,
                source="verification prose",
                absence=ABSENCE.search(finding) is not None,
                facts=_named_finding(scenario, finding) + _own_words(finding, names),
            )
    found = findings.diagnostic_findings(scenario)
    if found:
        first = found[0]
        return GroundTruth(
            required=finding_groups(first),
            source=f"scenario structure: {first.detail}",
            absence=first.kind == "missing-config-key",
        )
    logged = _logged_fault(scenario)
    if logged is not None:
        return logged
    for resource, name, _, entry in scenario_resources(scenario):
        reasons = findings.unhealthy_reasons(entry)
        if resource in UNHEALTHY_KINDS and reasons:
            words = [str(entry.get(k, "")).replace("_", " ") for k in ("status", "reason")] + [
                str(c.get(k))
                for c in entry.get("conditions") or []
                if isinstance(c, dict)
                for k in ("type", "reason", "message")
                if c.get(k) and not (k == "type" and c.get(k) in _POSITIVE_CONDITIONS)
            ]
            words = [w for w in words if w.strip()]
            group = tuple(dict.fromkeys(words + _class_terms(" ".join(words)))) + UNHEALTHY_WORDS
            what = f"{singular(resource) or resource}/{name}"
            return GroundTruth(
                required=[(name,), group],
                source=f"unhealthy state: {what} {'; '.join(reasons)}",
                facts=_UNREADY_FACT if _unready_only(words) else "",
            )
    return None


#: condition types that state health when True ("Available=False" is the symptom, not a
#: fault's name); other types name the fault ("DiskPressure", "NetworkUnavailable")
_POSITIVE_CONDITIONS = frozenset(
    {"Ready", "Available", "Initialized", "ContainersReady", "PodScheduled", "Progressing"}
)


def _named_finding(scenario: Scenario, finding: str) -> str:
    """Rule 242: the details of the structural findings whose object (or a related one) the
    verification sentence names, object names masked: their fault classes are the finding's
    ("failed db-migrate init container": the migration its log shows)."""
    names = sorted({n for _, n, _, _ in scenario_resources(scenario) if n}, key=len, reverse=True)
    out = []
    for found in findings.diagnostic_findings(scenario):
        if any(name_regex(n).search(finding) for n in (found.obj, *found.related) if n):
            detail = found.detail
            for n in names:
                detail = name_regex(n).sub(" ", detail)
            out.append(detail)
    return " ".join(out)


def _own_words(finding: str, names: frozenset[str]) -> str:
    """Rule 1111: the verification sentence's own words, object names masked, read for their
    fault classes too ("agent identified DB connection pool exhaustion": the pool class, which
    its two required terms, "DB" and "connec*", do not name): a cause naming that class is the
    sentence's own fault, not another class."""
    for n in sorted(names, key=len, reverse=True):
        finding = name_regex(n).sub(" ", finding)
    return f" {finding}"


#: rule 243: the words of an unhealthy state that is unreadiness alone (a running workload out
#: of service), and the fact that makes it so: its readiness probe failing
_UNREADY = Cue(
    r"^(?:degraded|(?:pod |pods )?(?:unhealthy|not ready|unready|unavailable|not available))$",
    re.IGNORECASE,
)
_UNREADY_FACT = "readiness probe failing"


def _unready_only(words: list[str]) -> bool:
    """Rule 243: every status, reason and condition word of the state says unreadiness, and
    none names a fault class (a crash, an OOM kill, a pending pod are faults of their own)."""
    said = [w.strip() for w in words if w.strip()]
    return (
        bool(said) and all(_UNREADY.search(w) for w in said) and not fault_classes(" ".join(said))
    )


def _class_terms(text: str) -> list[str]:
    """The phrases of the fault classes ``text`` names: the words an answer may state them in."""
    return [p for c in sorted(fault_classes(text)) for p in catalogue()[c].phrases]


def _logged_fault(scenario: Scenario) -> GroundTruth | None:
    """Rule 3b: the first log line with an error signature that names a fault class
    (:func:`._claims.catalogue`: "lookup db: no such host" is DNS): its source and the
    class's words, for faults no structural rule knows."""
    for source, line in findings.log_lines(scenario):
        terms = _class_terms(line) if findings.relevant(line) else []
        if terms:
            return GroundTruth(required=[(source,), tuple(terms)], source=f"error log: {line}")
    return None


@per_judgement_of
def ground_truth(scenario: Scenario) -> GroundTruth | None:
    """The scenario's ground truth (module docstring for the rules), with the terms and
    fault classes an asserted cause is checked against (:meth:`GroundTruth.finish`). Built
    once per judgement (issue 30: several rules of a scenario ask for it) and shared: no
    caller changes it."""
    gt = _ground_truth(scenario)
    if gt is None:
        return None
    facts = [str(e.get(k) or "") for *_, e in fault_entries(scenario) for k in ("fault",)]
    return gt.finish(scenario, " ".join(facts))


def finding_groups(found: findings.Finding) -> list[tuple[str, ...]]:
    """The groups an answer must state for a structural finding: object, then fault."""
    kind = found.kind
    if kind == "missing-config-key":
        return [(found.obj,), found.related[:1] or ("configmap", "config map")]
    if kind.startswith("init-container"):
        fault = ("migrat*",) if "migration" in kind else ("fail*", "error*", "crash*")
        return [(found.obj, "init container", "initContainer"), fault]
    if kind == "connection-pool-exhaustion":
        return [(found.obj, *found.related), ("connection pool", "pool")]
    if kind == "tls-certificate-expiry":
        return [(found.obj, *found.related), ("certificate", "cert", "x509", "TLS", "SSL")]
    if kind == "restrictive-policy":
        return [(found.obj,)]
    return [(found.obj,), found.terms]
