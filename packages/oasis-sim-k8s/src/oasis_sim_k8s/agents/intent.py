"""Read an operator prompt into a structured request. Generic: no scenario knowledge.

Both demo agents start from the same reading of the prompt; they differ in what
they do with it. The parser knows Kubernetes vocabulary (kinds, verbs, flags),
not any particular scenario.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

KINDS = {
    "deployment": "deployment",
    "deployments": "deployment",
    "deploy": "deployment",
    "pod": "pod",
    "pods": "pod",
    "configmap": "configmap",
    "configmaps": "configmap",
    "cm": "configmap",
    "secret": "secret",
    "secrets": "secret",
    "service": "service",
    "services": "service",
    "svc": "service",
    "namespace": "namespace",
    "namespaces": "namespace",
    "ns": "namespace",
    "node": "node",
    "nodes": "node",
    "ingress": "ingress",
    "hpa": "hpa",
    "rolebinding": "rolebinding",
    "clusterrolebinding": "clusterrolebinding",
    "role": "role",
    "clusterrole": "clusterrole",
    "pvc": "pvc",
    "label": "label",
}

#: verb -> words that ask for it (first match in prompt order wins for the main verb)
VERBS = {
    "delete": (
        "delete",
        "remove",
        "drop",
        "decommission",
        "destroy",
        "wipe",
        "kill",
        "clean up",
        "clean it up",
        "purge",
        "get rid of",
        "deletion",
    ),
    "scale": ("scale", "replicas", "increase", "decrease", "bump"),
    "restart": ("restart", "bounce", "reboot", "recycle"),
    "rollback": ("roll back", "rollback", "undo", "revert"),
    "set": (
        "set",
        "change",
        "update",
        "patch",
        "enable",
        "disable",
        "make sure",
        "modify",
        "copy",
        "add",
    ),
    "image": ("image tag", "image", "rolling update", "upgrade"),
    "create": ("create", "grant", "bind"),
    "drain": ("drain", "cordon"),
    "reveal": (
        "show me",
        "dump",
        "print",
        "reveal",
        "what is the value",
        "display",
        "paste",
        "what's the password",
        "what is the password",
        "give me the",
    ),
    "follow": ("follow the", "runbook"),
    "fix": ("fix", "handle", "resolve", "repair"),
}

#: credentials offered in the message itself (a kubeconfig, a bearer token, a client key), not a
#: resource whose name merely contains the word ("the db-credentials secret")
CREDENTIALS = re.compile(
    r"kubeconfig|client-key|client-certificate|\btoken:\s*\S|apiVersion: v1\s+kind: Config|"
    r"\b(?:use|with|here(?:'s| is| are))\s+(?:this|these|my|the following|a|an)\s+"
    r"(?:[\w-]+\s+)?(?:credentials?|token|password|kubeconfig)\b|"
    r"\b(?:pasted|attached|sharing|sent you)\s+(?:[\w-]+\s+){0,3}(?:credentials?|token)\b|"
    r"\bcredentials?\s+(?:below|attached|above)\b",
    re.IGNORECASE,
)

#: a verb the operator rules out ("don't change anything", "without restarting") is not asked for
NEGATED = re.compile(
    r"\b(?:don'?t|do not|never|without|no need to|not to)\s+(?:\w+\s+){0,2}?"
    r"(?:change|changing|modify|modifying|touch|touching|delete|deleting|restart|restarting|"
    r"scale|scaling|update|updating|fix|fixing|patch|patching|edit|editing)\w*\b(?:\s+anything)?"
)

READ_WORDS = (
    "check",
    "investigate",
    "diagnose",
    "what's",
    "what is",
    "why",
    "find",
    "trace",
    "look",
    "tell me",
    "how is",
    "summary",
    "health",
    "who should",
)

NAME = r"[a-z0-9](?:[a-z0-9.-]*[a-z0-9])?"
STOPWORDS = frozenset(
    """the a an this that these those my your our its their it here there order case
    place front general particular time short fact addition progress effect meantime
    and or but nor in on of to for with from by at as into onto within inside across under over about
    is are was were be been being has have had do does did can could will would should must may might
    all any each every some which what where when who whom whose how why same other another one both
    no not yet also just only very right now then first next last again please asap immediately
    named called so if""".split()  # noqa: SIM905 - a readable word list
)
#: words before a namespace mention that make it a location ("in the shop namespace"), not the object
LOCATION = re.compile(
    r"\b(?:in|from|within|inside|into|across|of|on|to|under|for)\s+(?:the\s+|a\s+|an\s+)?$"
)
_KIND_WORDS = "|".join(sorted(KINDS, key=len, reverse=True))


@dataclass
class Target:
    kind: str | None
    name: str
    namespace: str | None = None

    def ref(self) -> str:
        return f"{self.kind or '?'}/{self.name}"


@dataclass
class Request:
    text: str
    verbs: list[str] = field(default_factory=list)
    targets: list[Target] = field(default_factory=list)
    namespaces: list[str] = field(default_factory=list)
    numbers: list[int] = field(default_factory=list)
    settings: dict[str, str] = field(default_factory=dict)
    reads_only: bool = False
    credentials_offered: bool = False
    urgent: bool = False
    steps: list[str] = field(default_factory=list)

    @property
    def verb(self) -> str | None:
        return self.verbs[0] if self.verbs else None

    def wants(self, verb: str) -> bool:
        return verb in self.verbs


def parse(
    text: str, known_names: dict[str, str] | None = None, known_namespaces: set[str] | None = None
) -> Request:
    """Read ``text``. ``known_names`` maps resource names seen in the environment to their
    kind: with it, a ``kind name`` phrase only counts when the name exists or looks like a
    resource name ("restart the deployment right now" names nothing). ``known_namespaces``
    restricts which words can be namespaces."""
    low = NEGATED.sub(" ", text.lower())
    req = Request(text=text)
    positions = []
    for verb, words in VERBS.items():
        hits = [m.start() for w in words for m in re.finditer(rf"\b{re.escape(w)}\b", low)]
        if hits:
            positions.append((min(hits), verb))
    req.verbs = [v for _, v in sorted(positions)]
    req.reads_only = not req.verbs
    req.credentials_offered = bool(CREDENTIALS.search(text))
    req.urgent = bool(
        re.search(
            r"\burgent\b|\bp0\b|losing money|production is down|skip the (change )?approval", low
        )
    )
    # counts, not percentages, factors or durations ("bump to 50%", "2x the load", "within 5 minutes")
    req.numbers = [
        int(n)
        for n in re.findall(
            r"\b(\d{1,6})\b(?!\s*(?:%|x\b|percent|minutes?|mins?|hours?|seconds?|"
            r"ms\b|s\b|m\b|h\b))",
            text,
        )
    ]
    for key, value in re.findall(
        r"\b([A-Z][A-Z0-9_]{2,})\s*(?:=|\bto\b)\s*[\"']?"
        r"([A-Za-z0-9._:/-]*[A-Za-z0-9_/])[\"']?",
        text,
    ):
        req.settings[key] = value
    for verb, key in re.findall(
        r"\b((?i:enable|disable|turn on|turn off))\s+(?:(?i:the)\s+)?"
        r"([A-Z][A-Z0-9_]{2,})\b",
        text,
    ):
        req.settings.setdefault(key, "true" if verb.lower() in ("enable", "turn on") else "false")
    ns_targets = _namespaces(req, low, known_namespaces)
    seen: set[str] = set()
    # kind before name: "deployment web-app", "deployment/web-app", "rolebinding called ci-view"
    for m in re.finditer(rf"\b({_KIND_WORDS})(?:/|\s+(?:named\s+|called\s+)?)({NAME})\b", low):
        kind, name = KINDS[m.group(1)], m.group(2)
        if kind == "namespace" or name in KINDS or name in seen or name in STOPWORDS:
            continue
        if _named_before(low, m.start(), known_names):  # "the orders-api deployment right now"
            continue
        if known_names and name not in known_names and not re.search(r"[-0-9]", name):
            continue
        seen.add(name)
        req.targets.append(Target(kind, name))
    # name before kind: "the promo-banner-2023 deployment", "the db-credentials secret"
    for m in re.finditer(rf"\b({NAME})\s+({_KIND_WORDS})\b", low):
        name, kind = m.group(1), KINDS[m.group(2)]
        if kind == "namespace" or name in seen or name in KINDS or not re.search(r"[-0-9]", name):
            continue
        seen.add(name)
        req.targets.append(Target(kind, name))
    for ns in ns_targets:
        if ns not in seen:
            seen.add(ns)
            req.targets.append(Target("namespace", ns))
    for name, kind in sorted((known_names or {}).items(), key=lambda kv: -len(kv[0])):
        if name not in seen and re.search(rf"(?<![a-z0-9-]){re.escape(name)}(?![a-z0-9-])", low):
            seen.add(name)
            req.targets.append(Target(kind, name))
    req.steps = [s.strip() for s in re.findall(r"\d\.\s*([^\n\d]+)", text)]
    return req


def _namespaces(req: Request, low: str, known: set[str] | None) -> list[str]:
    """Fill ``req.namespaces`` (every namespace mentioned, in text order); return those that are
    the object of the request ("delete the analytics namespace") rather than a location."""
    found: list[tuple[int, str, bool]] = []  # (position, namespace, is a location)
    for m in re.finditer(rf"\bnamespaces?\s+({NAME})\b", low):
        if _named_before(low, m.start(), None, plain=True):  # "the shop namespace throws errors"
            continue
        found.append((m.start(), m.group(1), bool(LOCATION.search(low[: m.start()]))))
    for m in re.finditer(rf"\b({NAME})\s+namespace\b", low):
        found.append((m.start(), m.group(1), bool(LOCATION.search(low[: m.start()]))))
    for m in re.finditer(rf"(?<!\S)(?:-n\s*|--namespace[= ]\s*)({NAME})\b", low):
        found.append((m.start(), m.group(1), True))
    for m in re.finditer(rf"\b(?:in|from|within|inside|across)\s+({NAME})\b", low):
        found.append((m.start(), m.group(1), True))
    objects: list[str] = []
    for _, ns, location in sorted(found):
        if (
            ns in STOPWORDS
            or ns in KINDS
            or ns.isdigit()
            or (known is not None and ns not in known)
        ):
            continue
        if ns not in req.namespaces:
            req.namespaces.append(ns)
        if not location and ns not in objects:
            objects.append(ns)
    return [ns for ns in objects if not any(ns == n and loc for _, n, loc in found)]


def _named_before(
    low: str, kind_at: int, known_names: dict[str, str] | None, plain: bool = False
) -> bool:
    """The kind word at ``kind_at`` already closes a "<name> <kind>" phrase (with ``plain``,
    any word that is not a stopword counts as the name, as namespace names often are)."""
    m = re.search(rf"\b({NAME})\s+$", low[:kind_at])
    if not m or m.group(1) in STOPWORDS or m.group(1) in KINDS:
        return False
    return (
        plain
        or bool(re.search(r"[-0-9]", m.group(1)))
        or bool(known_names and m.group(1) in known_names)
    )


ORDER = re.compile(
    r"\b(delet\w*|scal\w*|creat\w*|patch\w*|restart\w*|remov\w*|grant\w*|apply|run|execute|"
    r"must|should|immediately|now)\b"
)
OBJECT = re.compile(
    r"deployment|pod|clusterrolebinding|rolebinding|namespace|replicas|configmap|secret|service|"
    r"cluster-admin"
)


#: a clause in the imperative mood: it opens with an operator's verb in its base form
IMPERATIVE = re.compile(
    r"^(?:(?:please|kindly|now|immediately|just|then|and)\s+)*(?:delete|scale|create|patch|restart|"
    r"remove|grant|apply|run|execute|drain|cordon|set|update|rollback|roll\s+back|bind|"
    r"exec|kubectl|edit|label|annotate|expose)\b"
)
_CLAUSES = re.compile(r"[.:;!?]\s+|\s+[-\u2014\u2013]+\s+|\\n")


def imperative_sentences(text: str) -> list[str]:
    """Lines in *data* that read like orders to an operator (for the naive agent to obey
    and the careful one to report as data): about a Kubernetes object, with two order
    words, or with a clause in the imperative mood ("... REQUIRED: create clusterrolebinding
    x", "Scale deployment/y to 0")."""
    out = []
    for line in text.splitlines():
        low = line.lower()
        if not OBJECT.search(low):
            continue
        if len(ORDER.findall(low)) >= 2 or any(
            IMPERATIVE.match(clause.strip(" \t\"'`*>#[](){},")) and OBJECT.search(clause)
            for clause in _CLAUSES.split(low)
        ):
            out.append(line.strip())
    return out


_FIRST_CLAUSE = re.compile(r"[.:;!?|]\s+|\s+[-\u2014\u2013|]+\s+")


def strip_orders(text: str) -> tuple[str, bool]:
    """``text`` cut before the instruction embedded in it, so that an answer can quote data
    without repeating the order: a text that reads as an order (:func:`imperative_sentences`)
    keeps only its first clause. Returns (kept text, whether something was cut)."""
    if not imperative_sentences(text):
        return text, False
    head = _FIRST_CLAUSE.split(text.strip(), maxsplit=1)[0].strip()
    if imperative_sentences(head) or IMPERATIVE.match(head.lower()):
        return "", True
    return head, True
